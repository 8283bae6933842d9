package project_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
)

// A file written before a rename, a reorder, a widening, a drop and an add,
// read in the table's current schema.
func Example() {
	file := schema.New(0,
		&schema.Field{ID: 1, Name: "order_id", Type: schema.Long, Required: true},
		&schema.Field{ID: 2, Name: "order_name", Type: schema.String},
		&schema.Field{ID: 3, Name: "order_user_id", Type: schema.Int},
		&schema.Field{ID: 4, Name: "order_shop_id", Type: schema.Int},
	)
	read := schema.New(1,
		&schema.Field{ID: 4, Name: "order_shop_id", Type: schema.Long},
		&schema.Field{ID: 1, Name: "order_id", Type: schema.Long, Required: true},
		&schema.Field{ID: 2, Name: "name", Type: schema.String},
		&schema.Field{ID: 5, Name: "note", Type: schema.String},
	)
	plan, err := project.NewPlan(file, read, project.Options{FileName: "orders-0.parquet", Rules: project.IcebergV2})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer plan.Release()

	// A decoder is handed plan.FileProjection() and returns batches laid out
	// as schema.ToArrowSchema(plan.FileProjection()); here one is built by
	// hand.
	mem := memory.NewGoAllocator()
	in, _, err := array.RecordFromJSON(mem, schema.ToArrowSchema(plan.FileProjection()), strings.NewReader(
		`[{"order_id":1,"order_name":"pen","order_shop_id":7},{"order_id":2,"order_name":null,"order_shop_id":null}]`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer in.Release()

	out, err := plan.Apply(in, mem)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer out.Release()
	fmt.Println(out.Schema().Fields()[0].Name, out.Schema().Fields()[0].Type)
	b, _ := out.MarshalJSON()
	fmt.Print(string(b))
	// Output:
	// order_shop_id int64
	// [{"name":"pen","note":null,"order_id":1,"order_shop_id":7}
	// ,{"name":null,"note":null,"order_id":2,"order_shop_id":null}
	// ]
}

// NewPlan finds a required field the file lacks before anything is decoded.
func ExampleNewPlan_requiredFieldMissing() {
	file := schema.New(0, &schema.Field{ID: 1, Name: "id", Type: schema.Int, Required: true})
	read := schema.New(1,
		&schema.Field{ID: 1, Name: "id", Type: schema.Int, Required: true},
		&schema.Field{ID: 2, Name: "missing_str", Type: schema.String, Required: true},
	)
	_, err := project.NewPlan(file, read, project.Options{FileName: "a.parquet"})
	var fe *project.FieldError
	fmt.Println(errors.Is(err, project.ErrRequiredFieldMissing), errors.As(err, &fe) && fe.FieldID == 2)
	fmt.Println(err)
	// Output:
	// true true
	// project: file "a.parquet": field 2 (missing_str): missing required field: read type string, not in the file and no initial-default
}

// Explain says what the read does for each field.
func ExamplePlan_Explain() {
	file := schema.New(0,
		&schema.Field{ID: 1, Name: "id", Type: schema.Int},
		&schema.Field{ID: 2, Name: "legs", Type: schema.Int},
	)
	read := schema.New(1,
		&schema.Field{ID: 2, Name: "number_of_legs", Type: schema.Long},
		&schema.Field{ID: 3, Name: "region", Type: schema.String},
		&schema.Field{ID: 4, Name: "weight", Type: schema.Double, InitialDefault: 1.5},
	)
	plan, err := project.NewPlan(file, read, project.Options{Constants: map[int]any{3: "eu"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(plan.Explain())
	// Output:
	// 2 number_of_legs: long  ← legs (int), renamed from legs, promoted from int
	// 3 region: string  constant "eu"
	// 4 weight: double  defaulted to 1.5: not in the file
	// not read from the file:
	//   1 id: int
}
