package evolve_test

import (
	"fmt"
	"os"

	"github.com/lakecat/lakecat/evolve"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/iceberg"
)

func ExampleUpdateSchema_Apply() {
	base := schema.New(0,
		&schema.Field{ID: 1, Name: "id", Type: schema.String, Required: true},
		&schema.Field{ID: 2, Name: "name", Type: schema.String},
		&schema.Field{ID: 3, Name: "roll_number", Type: schema.Int, Required: true})
	// The ids inside an added type are placeholders.
	address := &schema.StructType{Fields: []*schema.Field{
		{Name: "street", Type: schema.String},
		{Name: "city", Type: schema.String},
		{Name: "state", Type: schema.String},
		{Name: "zip", Type: schema.Int},
	}}
	u := evolve.NewUpdate().
		AddColumn("address", address, "").
		RenameColumn("name", "full_name").
		MoveFirst("full_name")
	next, lastColumnID, err := u.Apply(base, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(next)
	fmt.Println("last-column-id", lastColumnID)
	// Output:
	// table {
	//   2:full_name: string
	//   1:id: required string
	//   3:roll_number: required int
	//   4:address: struct<5:street: string, 6:city: string, 7:state: string, 8:zip: int>
	// }
	// last-column-id 8
}

func ExamplePrepareSchemaUpdate() {
	data, err := os.ReadFile("testdata/iceberg-v2/metadata/v1.metadata.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	metadata, err := iceberg.ParseMetadata(data)
	if err != nil {
		fmt.Println(err)
		return
	}
	u := evolve.NewUpdate().
		AddColumn("note", schema.String, "").
		UpdateColumnType("qty", schema.Long)
	commit, err := evolve.PrepareSchemaUpdate(metadata, u)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("added:", commit.Added, "changed:", commit.Changed)
	fmt.Println("current-schema-id:", commit.Metadata.CurrentSchemaID, "last-column-id:", commit.Metadata.LastColumnID)
	evolve.WriteDiff(os.Stdout, metadata.CurrentSchema(), commit.Schema, metadata.LastColumnID, commit.Metadata.LastColumnID)

	// Deleting a partition source column is refused.
	_, err = evolve.PrepareSchemaUpdate(metadata, evolve.NewUpdate().DeleteColumn("ts"))
	fmt.Println(err)
	// Output:
	// added: true changed: true
	// current-schema-id: 2 last-column-id: 6
	// schema 1 → 2, last-column-id 5 → 6
	//   1 id: required long
	//   2 payload: string
	//   3 ts: timestamptz
	// ~ 4 qty: long  (type int → long)
	//   5 amount: decimal(10, 2)
	// + 6 note: string
	// evolve: delete "ts": column is a partition source: field id 3
}
