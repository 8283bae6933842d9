package table_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"path/filepath"

	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/open"
	"github.com/lakecat/lakecat/table/paimon"
)

// Open the bundled Iceberg table, plan a scan of two of its columns into
// tasks, send one task as JSON, and read it on the other side.
func Example() {
	ctx := context.Background()
	fsys := storage.OSFS{}
	tbl, err := open.Open(ctx, fsys, "../testdata/orders")
	if err != nil {
		log.Fatal(err) // errors.Is(err, table.ErrNotATable), …
	}
	schemas, current, err := tbl.Schemas(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tbl.Format(), "table,", len(schemas), "schemas, current", current)

	scan := tbl.NewScan(table.ScanOptions{Columns: []string{"order_id", "customer"}})
	tasks, err := scan.Plan(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(tasks), "tasks")
	wire, err := json.Marshal(tasks[2]) // a plain, versioned value
	if err != nil {
		log.Fatal(err)
	}

	// On another machine:
	var task table.Task
	if err := json.Unmarshal(wire, &task); err != nil {
		log.Fatal(err)
	}
	rr, err := reader.ReadTask(ctx, storage.OSFS{}, task, reader.TaskOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer rr.Release()
	for rr.Next() {
		batch := rr.RecordBatch()
		fmt.Println(filepath.Base(task.Path), batch.NumRows(), "rows:", batch.Column(0), batch.Column(1))
	}
	if err := rr.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// iceberg table, 3 schemas, current 2
	// 3 tasks
	// 00002-orders-schema2.parquet 2 rows: [5 6] ["dave" "erin"]
}

// Options of one table format go in ScanOptions.Options; those of another
// format are refused, naming them and the table's format.
func ExampleScanOptions_formatOptions() {
	ctx := context.Background()
	tbl, err := open.Open(ctx, storage.OSFS{}, "../testdata/orders")
	if err != nil {
		log.Fatal(err)
	}
	_, err = tbl.NewScan(table.ScanOptions{Options: paimon.Options{Raw: true}}).Plan(ctx)
	fmt.Println(err)
	// Output:
	// iceberg table ../testdata/orders: table: option does not apply to this table format: paimon options (Raw) on an iceberg table
}
