package reader_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/iceberg"
)

// Read one data file of the bundled demo table in the table's current
// schema: the file was written under schema 0; the current schema renamed,
// reordered, widened and added columns.
func ExampleOpenFile() {
	md, err := os.ReadFile("../testdata/orders/metadata/v1.metadata.json")
	if err != nil {
		log.Fatal(err)
	}
	meta, err := iceberg.ParseMetadata(md)
	if err != nil {
		log.Fatal(err)
	}
	rr, err := reader.OpenFile(context.Background(), "../testdata/orders/data/00000-orders-schema0.parquet", reader.Options{
		ReadSchema: meta.CurrentSchema(),
		Allocator:  memory.DefaultAllocator,
	})
	if err != nil {
		log.Fatal(err) // errors.Is(err, project.ErrIncompatibleType), …
	}
	defer rr.Release()
	for rr.Next() {
		batch := rr.RecordBatch() // valid until the next call to Next
		fmt.Println(batch.NumRows(), "rows:", batch.Schema().Field(2).Name, batch.Column(2))
		fmt.Println(batch.Schema().Field(4).Type, batch.Column(4))
	}
	if err := rr.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// 2 rows: customer ["alice" "bob"]
	// decimal(18, 2) [12.34 -0.5]
}

// Explain what reading a file in a read schema does, column by column,
// before decoding anything.
func ExamplePlan() {
	f, err := os.Open("../testdata/orders/data/00000-orders-schema0.parquet")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	read := schema.New(1,
		&schema.Field{ID: 1, Name: "order_id", Type: schema.Long, Required: true},
		&schema.Field{ID: 3, Name: "user", Type: schema.Long},
		&schema.Field{ID: 9, Name: "region", Type: schema.String},
	)
	p, err := reader.Plan(f, st.Size(), reader.Options{ReadSchema: read})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Release()
	fmt.Print(p.Explain())
	// Output:
	// 1 order_id: required long  ← order_id (long)
	// 3 user: long  ← order_user_id (int), renamed from order_user_id, promoted from int
	// 9 region: string  null-filled: not in the file
	// not read from the file:
	//   2 order_name: string
	//   4 order_shop_id: int
	//   5 price: float
	//   6 amount: decimal(9, 2)
}

// Plan a table read into tasks, send one task as JSON (to another process or
// machine), and read it there.
func ExampleReadTask() {
	ctx := context.Background()
	tbl, err := reader.OpenTable(ctx, "../testdata/orders", reader.TableOptions{Columns: []string{"order_id", "customer", "channel"}})
	if err != nil {
		log.Fatal(err)
	}
	tasks, err := tbl.Tasks(ctx)
	if err != nil {
		log.Fatal(err)
	}
	wire, err := json.Marshal(tasks[2]) // a plain, versioned value
	if err != nil {
		log.Fatal(err)
	}

	// On the other side:
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
		fmt.Println(filepath.Base(task.Path), batch.NumRows(), "rows:")
		for i, col := range batch.Columns() {
			fmt.Println(" ", batch.Schema().Field(i).Name, col)
		}
	}
	if err := rr.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// 00002-orders-schema2.parquet 2 rows:
	//   order_id [5 6]
	//   customer ["dave" "erin"]
	//   channel ["app" (null)]
}

// ExampleReadTask_deletes plans an Iceberg table whose snapshot has an
// equality delete of the unpartitioned spec (id 1, in every partition) and
// one of partition region=a (id 2), and reads its tasks: the deletes each
// task carries are applied.
func ExampleReadTask_deletes() {
	ctx := context.Background()
	tbl, err := reader.OpenTable(ctx, "testdata/deletes/eq_global", reader.TableOptions{})
	if err != nil {
		log.Fatal(err)
	}
	tasks, err := tbl.Tasks(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, task := range tasks {
		fmt.Println(len(task.Deletes), "delete files apply to", task.StoredPath)
		rr, err := reader.ReadTask(ctx, storage.OSFS{}, task, reader.TaskOptions{})
		if err != nil {
			log.Fatal(err) // a *reader.DeleteFileError names a bad delete file
		}
		for rr.Next() {
			fmt.Println(rr.RecordBatch().Column(0))
		}
		if err := rr.Err(); err != nil {
			log.Fatal(err)
		}
		rr.Release()
	}
	// Output:
	// 2 delete files apply to /warehouse/eq_global/data/region=a/d.parquet
	// [3]
	// 1 delete files apply to /warehouse/eq_global/data/region=b/d.parquet
	// [2 3]
}
