// Command taskread reads planned table tasks in a fresh process: a JSON
// array of table.Task values on stdin, read from the local file system
// with reader.ScanTasks (one worker, so in task order), each row printed
// as one JSON line (internal/render, as `lakecat cat --format jsonl`
// prints it). With -units, stdin is a JSON array of table.Unit values
// instead, each planned with table/open.UnitTasks, their tasks read in
// unit order. The task round-trip tests build and run it.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/lakecat/lakecat/internal/render"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	tableopen "github.com/lakecat/lakecat/table/open"
)

func main() {
	units := flag.Bool("units", false, "stdin holds planning units, not tasks")
	flag.Parse()
	in := io.Reader(os.Stdin)
	if *units {
		b, err := planUnits(os.Stdin)
		if err != nil {
			fmt.Fprintln(os.Stderr, "taskread:", err)
			os.Exit(1)
		}
		in = bytes.NewReader(b)
	}
	if err := run(in, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "taskread:", err)
		os.Exit(1)
	}
}

// planUnits plans the units on in and returns their tasks as JSON.
func planUnits(in io.Reader) ([]byte, error) {
	var units []table.Unit
	if err := json.NewDecoder(in).Decode(&units); err != nil {
		return nil, err
	}
	tasks := []table.Task{}
	for _, u := range units {
		for task, err := range tableopen.UnitTasks(context.Background(), storage.OSFS{}, u, nil) {
			if err != nil {
				return nil, err
			}
			tasks = append(tasks, task)
		}
	}
	return json.Marshal(tasks)
}

func run(in io.Reader, out io.Writer) error {
	var tasks []table.Task
	if err := json.NewDecoder(in).Decode(&tasks); err != nil {
		return err
	}
	if len(tasks) == 0 {
		return nil
	}
	w := bufio.NewWriter(out)
	defer w.Flush()
	hints := render.Hints(tasks[0].ReadSchema)
	ctx := context.Background()
	rr, err := reader.ScanTasks(ctx, storage.OSFS{}, tasks, reader.ScanOptions{Workers: 1}, reader.TaskOptions{})
	if err != nil {
		return err
	}
	defer rr.Release()
	var buf []byte
	for rr.Next() {
		rec := rr.RecordBatch()
		for r := 0; r < int(rec.NumRows()); r++ {
			buf = append(render.AppendRow(buf[:0], rec, r, hints), '\n')
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
	}
	return rr.Err()
}
