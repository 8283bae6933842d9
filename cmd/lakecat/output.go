package main

import (
	"bufio"
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

var outputFormats = []string{formatTable, formatJSONL, formatCSV, formatArrow, formatParquet}

// batchWriter writes record batches of one schema to an output.
type batchWriter interface {
	Write(rec arrow.RecordBatch) error
	Close() error
}

func newBatchWriter(format string, w io.Writer, sc *arrow.Schema, read *schema.Schema, mem memory.Allocator) (batchWriter, error) {
	hints := render.Hints(read)
	switch format {
	case formatTable:
		return newTableWriter(w, sc, hints), nil
	case formatJSONL:
		return &jsonlWriter{w: bufio.NewWriter(w), schema: sc, hints: hints}, nil
	case formatCSV:
		cw := &csvWriter{w: bufio.NewWriter(w), hints: hints}
		names := make([]string, sc.NumFields())
		for i, f := range sc.Fields() {
			names[i] = f.Name
		}
		cw.line(names, nil)
		return cw, nil
	case formatArrow:
		return &arrowWriter{w: ipc.NewWriter(w, ipc.WithSchema(sc), ipc.WithAllocator(mem))}, nil
	case formatParquet:
		return newParquetWriter(w, sc, read)
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

// csvWriter writes RFC 4180 CSV, one header line then one line per row.
// NULL is an empty field and an empty string a quoted empty field (""), as
// PostgreSQL's COPY … CSV writes and reads them; any other field is quoted
// when it holds a comma, a quote, a line break or leading space.
type csvWriter struct {
	w     *bufio.Writer
	hints []*render.Hint
	row   []string
	null  []bool
	buf   []byte
}

func (c *csvWriter) Write(rec arrow.RecordBatch) error {
	n := int(rec.NumCols())
	c.row, c.null = c.row[:0], c.null[:0]
	for i := 0; i < n; i++ {
		c.row, c.null = append(c.row, ""), append(c.null, false)
	}
	for r := 0; r < int(rec.NumRows()); r++ {
		for i := range c.row {
			s, ok := render.Cell(rec.Column(i), r, render.At(c.hints, i))
			c.row[i], c.null[i] = s, !ok
		}
		if err := c.line(c.row, c.null); err != nil {
			return err
		}
	}
	return nil
}

// line writes one CSV line; null[i] marks a NULL (null may be nil).
func (c *csvWriter) line(fields []string, null []bool) error {
	b := c.buf[:0]
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		switch {
		case null != nil && null[i]:
		case f == "":
			b = append(b, '"', '"')
		case strings.ContainsAny(f, ",\"\r\n") || f[0] == ' ' || f[0] == '\t':
			b = append(b, '"')
			b = append(b, strings.ReplaceAll(f, `"`, `""`)...)
			b = append(b, '"')
		default:
			b = append(b, f...)
		}
	}
	b = append(b, '\n')
	c.buf = b
	_, err := c.w.Write(b)
	return err
}

func (c *csvWriter) Close() error { return c.w.Flush() }

type arrowWriter struct{ w *ipc.Writer }

func (a *arrowWriter) Write(rec arrow.RecordBatch) error { return a.w.Write(rec) }
func (a *arrowWriter) Close() error                      { return a.w.Close() }

// tableWidthRows is how many rows the table format holds before it prints
// its header: the column widths are set from the header and these rows.
const tableWidthRows = 1000

// tableWriter prints an aligned table as the batches come. It holds the
// first rows (at least tableWidthRows of them, or all when fewer) to set
// the column widths, prints them, then prints each later batch as it is
// written, widening a column when a cell is wider (rows printed before keep
// their alignment). It holds the text of at most one batch, or of the first
// rows, at a time, so its memory does not grow with the number of rows.
type tableWriter struct {
	w      *bufio.Writer
	schema *arrow.Schema
	hints  []*render.Hint
	width  []int      // nil until the header is printed
	cells  [][]string // rows not printed yet; their slices are reused
	rows   int64
}

func newTableWriter(w io.Writer, sc *arrow.Schema, hints []*render.Hint) *tableWriter {
	return &tableWriter{w: bufio.NewWriterSize(w, 64<<10), schema: sc, hints: hints}
}

func (t *tableWriter) Write(rec arrow.RecordBatch) error {
	n, cols := len(t.cells), int(rec.NumCols())
	for r := 0; r < int(rec.NumRows()); r++ {
		var row []string
		if len(t.cells) < cap(t.cells) {
			row = t.cells[:len(t.cells)+1][len(t.cells)][:0]
		}
		for i := 0; i < cols; i++ {
			s, ok := render.Cell(rec.Column(i), r, render.At(t.hints, i))
			if !ok {
				s = "NULL"
			}
			row = append(row, s)
		}
		t.cells = append(t.cells, row)
	}
	t.rows += int64(len(t.cells) - n)
	if t.width == nil && len(t.cells) < tableWidthRows {
		return nil
	}
	return t.flush()
}

// flush prints the header if it is not printed yet, then the rows held.
func (t *tableWriter) flush() error {
	if t.width == nil {
		t.header()
	}
	for _, row := range t.cells {
		for i, s := range row {
			t.width[i] = max(t.width[i], utf8.RuneCountInString(s))
		}
	}
	for _, row := range t.cells {
		t.line(row)
	}
	t.cells = t.cells[:0]
	return t.w.Flush()
}

// header sets the widths from the header and the batch held in t.cells and
// prints the header and its rule.
func (t *tableWriter) header() {
	t.width = make([]int, t.schema.NumFields())
	head := make([]string, len(t.width))
	for i, f := range t.schema.Fields() {
		head[i] = f.Name
		t.width[i] = utf8.RuneCountInString(f.Name)
	}
	for _, row := range t.cells {
		for i, s := range row {
			t.width[i] = max(t.width[i], utf8.RuneCountInString(s))
		}
	}
	t.line(head)
	for i, w := range t.width {
		if i > 0 {
			t.w.WriteString("-+-")
		}
		t.w.WriteString(strings.Repeat("-", w))
	}
	t.w.WriteByte('\n')
}

func (t *tableWriter) line(cells []string) {
	for i, s := range cells {
		if i > 0 {
			t.w.WriteString(" | ")
		}
		t.w.WriteString(s)
		if i < len(cells)-1 {
			t.w.WriteString(strings.Repeat(" ", t.width[i]-utf8.RuneCountInString(s)))
		}
	}
	t.w.WriteByte('\n')
}

// Close prints what is held, then the row count: "(1 row)", "(N rows)".
func (t *tableWriter) Close() error {
	if err := t.flush(); err != nil {
		return err
	}
	if t.rows == 1 {
		t.w.WriteString("(1 row)\n")
	} else {
		fmt.Fprintf(t.w, "(%d rows)\n", t.rows)
	}
	return t.w.Flush()
}
