package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/render"
	"github.com/lakecat/lakecat/schema"
)

// The output formats of `lakecat cat --format`.
const (
	formatTable = "table"
	formatJSONL = "jsonl"
	formatCSV   = "csv"
	formatArrow = "arrow"
)

var outputFormats = []string{formatTable, formatJSONL, formatCSV, formatArrow}

// batchWriter writes record batches of one schema to an output.
type batchWriter interface {
	Write(rec arrow.RecordBatch) error
	Close() error
}

func newBatchWriter(format string, w io.Writer, sc *arrow.Schema, read *schema.Schema, mem memory.Allocator) (batchWriter, error) {
	hints := render.Hints(read)
	switch format {
	case formatTable:
		return &tableWriter{w: w, schema: sc, hints: hints}, nil
	case formatJSONL:
		return &jsonlWriter{w: bufio.NewWriter(w), schema: sc, hints: hints}, nil
	case formatCSV:
		cw := csv.NewWriter(w)
		names := make([]string, sc.NumFields())
		for i, f := range sc.Fields() {
			names[i] = f.Name
		}
		if err := cw.Write(names); err != nil {
			return nil, err
		}
		return &csvWriter{w: cw, hints: hints}, nil
	case formatArrow:
		return &arrowWriter{w: ipc.NewWriter(w, ipc.WithSchema(sc), ipc.WithAllocator(mem))}, nil
	}
	return nil, fmt.Errorf("unknown --format %q (want one of %s)", format, strings.Join(outputFormats, ", "))
}

type jsonlWriter struct {
	w      *bufio.Writer
	schema *arrow.Schema
	hints  []*render.Hint
	buf    []byte
}

func (j *jsonlWriter) Write(rec arrow.RecordBatch) error {
	for r := 0; r < int(rec.NumRows()); r++ {
		b := render.AppendRow(j.buf[:0], rec, r, j.hints)
		b = append(b, '\n')
		j.buf = b
		if _, err := j.w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

func (j *jsonlWriter) Close() error { return j.w.Flush() }

type csvWriter struct {
	w     *csv.Writer
	hints []*render.Hint
}

func (c *csvWriter) Write(rec arrow.RecordBatch) error {
	row := make([]string, rec.NumCols())
	for r := 0; r < int(rec.NumRows()); r++ {
		for i := range row {
			row[i], _ = render.Cell(rec.Column(i), r, render.At(c.hints, i))
		}
		if err := c.w.Write(row); err != nil {
			return err
		}
	}
	return nil
}

func (c *csvWriter) Close() error {
	c.w.Flush()
	return c.w.Error()
}

type arrowWriter struct{ w *ipc.Writer }

func (a *arrowWriter) Write(rec arrow.RecordBatch) error { return a.w.Write(rec) }
func (a *arrowWriter) Close() error                      { return a.w.Close() }

// tableWriter keeps the rows as text and prints an aligned table on Close.
type tableWriter struct {
	w      io.Writer
	schema *arrow.Schema
	hints  []*render.Hint
	rows   [][]string
}

func (t *tableWriter) Write(rec arrow.RecordBatch) error {
	for r := 0; r < int(rec.NumRows()); r++ {
		row := make([]string, rec.NumCols())
		for i := range row {
			s, ok := render.Cell(rec.Column(i), r, render.At(t.hints, i))
			if !ok {
				s = "NULL"
			}
			row[i] = s
		}
		t.rows = append(t.rows, row)
	}
	return nil
}

func (t *tableWriter) Close() error {
	n := t.schema.NumFields()
	width := make([]int, n)
	head := make([]string, n)
	for i, f := range t.schema.Fields() {
		head[i] = f.Name
		width[i] = utf8.RuneCountInString(f.Name)
	}
	for _, row := range t.rows {
		for i, s := range row {
			width[i] = max(width[i], utf8.RuneCountInString(s))
		}
	}
	bw := bufio.NewWriter(t.w)
	line := func(cells []string) {
		for i, s := range cells {
			if i > 0 {
				bw.WriteString(" | ")
			}
			bw.WriteString(s)
			if i < len(cells)-1 {
				bw.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(s)))
			}
		}
		bw.WriteByte('\n')
	}
	line(head)
	sep := make([]string, n)
	for i := range sep {
		sep[i] = strings.Repeat("-", width[i])
	}
	bw.WriteString(strings.Join(sep, "-+-"))
	bw.WriteByte('\n')
	for _, row := range t.rows {
		line(row)
	}
	fmt.Fprintf(bw, "(%d rows)\n", len(t.rows))
	return bw.Flush()
}
