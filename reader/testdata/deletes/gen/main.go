// Command gen writes the Iceberg tables with row-level deletes under the
// folder named by its argument (reader/testdata/deletes): each table's
// data and delete files, manifests, manifest lists and v1.metadata.json,
// through internal/icebergwrite. The stored location of table NAME is
// /warehouse/NAME; readers re-root it at the folder they open. The
// expected rows are in reader/iceberg_deletes_test.go.
//
//	pos_rowgroups  2500 rows in row groups of 1000; two position delete
//	               files (one with referenced_data_file) deleting runs
//	               across row-group and batch boundaries
//	eq_evolved     an equality delete written under schema 0 (id int) read
//	               under schema 1 (key long, renamed and widened); an
//	               equality delete of the same sequence number as a data
//	               file, which it must not touch
//	eq_global      an equality delete of the unpartitioned spec (global)
//	               and one of partition region=a, over a table
//	               partitioned by region
//	v3_dv          format v3: a deletion vector and an older position
//	               delete file for the same data file (the DV replaces it)
//	eq_nulls       equality keys with nulls and NaNs
package main

import (
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"

	"github.com/lakecat/lakecat/internal/icebergwrite"
)

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: gen DIR")
	}
	dir := os.Args[1]
	for name, fn := range map[string]func(*icebergwrite.Table) error{
		"pos_rowgroups": posRowGroups, "eq_evolved": eqEvolved, "eq_global": eqGlobal, "v3_dv": v3DV, "eq_nulls": eqNulls,
	} {
		d := filepath.Join(dir, name)
		if err := os.RemoveAll(d); err != nil {
			log.Fatal(err)
		}
		t := &icebergwrite.Table{Dir: d, Location: "/warehouse/" + name, FormatVersion: 2}
		if err := fn(t); err != nil {
			log.Fatalf("%s: %v", name, err)
		}
		if err := t.WriteMetadata(); err != nil {
			log.Fatalf("%s: %v", name, err)
		}
	}
}

func p[T any](v T) *T { return &v }

type idRow struct {
	ID int64   `parquet:"id,id(1)"`
	V  *string `parquet:"v,id(2),optional"`
}

// PosDeletedRowGroups are the positions pos_rowgroups deletes.
func posDeleted(i int64) bool {
	return i%7 == 3 || (i >= 995 && i <= 1004) || (i >= 1500 && i < 1600) || i == 2499 || i == 0
}

func posRowGroups(t *icebergwrite.Table) error {
	t.Schemas = []string{`{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": true, "type": "long"}, {"id": 2, "name": "v", "required": false, "type": "string"}]}`}
	t.Specs, t.LastColumnID = []icebergwrite.Spec{{ID: 0}}, 2
	rows := make([]idRow, 2500)
	for i := range rows {
		rows[i] = idRow{ID: int64(i), V: p(fmt.Sprint("v", i))}
	}
	d, err := icebergwrite.WriteParquet(t, "data/d0.parquet", rows, 1000)
	if err != nil {
		return err
	}
	if err := t.Commit(d); err != nil {
		return err
	}
	// File 1 lists other files' deletes too (a partition-wide delete
	// file), sorted by file_path then pos as the spec asks.
	var dels []icebergwrite.PositionDelete
	for i := int64(1); i < 2500; i++ {
		if posDeleted(i) {
			dels = append(dels, icebergwrite.PositionDelete{FilePath: d.Path, Pos: i})
		}
	}
	dels = append(dels, icebergwrite.PositionDelete{FilePath: t.Stored("data/other.parquet"), Pos: 5})
	p1, err := icebergwrite.WritePositionDeletes(t, "data/pos-1.parquet", dels)
	if err != nil {
		return err
	}
	p2, err := icebergwrite.WritePositionDeletes(t, "data/pos-2.parquet", []icebergwrite.PositionDelete{{FilePath: d.Path, Pos: 0}})
	if err != nil {
		return err
	}
	p2.Referenced = d.Path
	return t.Commit(p1, p2)
}

func eqEvolved(t *icebergwrite.Table) error {
	t.Schemas = []string{
		`{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": true, "type": "int"}, {"id": 2, "name": "name", "required": false, "type": "string"}]}`,
		`{"type": "struct", "schema-id": 1, "fields": [{"id": 1, "name": "key", "required": true, "type": "long"}, {"id": 2, "name": "name", "required": false, "type": "string"}]}`,
	}
	t.Specs, t.LastColumnID = []icebergwrite.Spec{{ID: 0}}, 2
	type row0 struct {
		ID   int32   `parquet:"id,id(1)"`
		Name *string `parquet:"name,id(2),optional"`
	}
	type key0 struct {
		ID int32 `parquet:"id,id(1)"`
	}
	type row1 struct {
		Key  int64   `parquet:"key,id(1)"`
		Name *string `parquet:"name,id(2),optional"`
	}
	type key1 struct {
		Key int64 `parquet:"key,id(1)"`
	}
	var r0 []row0
	for i := int32(1); i <= 6; i++ {
		r0 = append(r0, row0{i, p(fmt.Sprint("old", i))})
	}
	d1, err := icebergwrite.WriteParquet(t, "data/d1.parquet", r0, 0)
	if err != nil {
		return err
	}
	if err := t.Commit(d1); err != nil { // seq 1
		return err
	}
	e1, err := icebergwrite.WriteParquet(t, "data/e1.parquet", []key0{{2}, {4}}, 0)
	if err != nil {
		return err
	}
	e1.Content, e1.EqualityIDs = icebergwrite.EqualityDeletes, []int{1}
	if err := t.Commit(e1); err != nil { // seq 2, schema 0's types
		return err
	}
	d2, err := icebergwrite.WriteParquet(t, "data/d2.parquet", []row1{{4, p("new4")}, {7, p("new7")}}, 0)
	if err != nil {
		return err
	}
	e2, err := icebergwrite.WriteParquet(t, "data/e2.parquet", []key1{{7}, {1}}, 0)
	if err != nil {
		return err
	}
	e2.Content, e2.EqualityIDs = icebergwrite.EqualityDeletes, []int{1}
	return t.Commit(d2, e2) // seq 3: e2 deletes key 1 of d1, not key 7 of d2
}

func eqGlobal(t *icebergwrite.Table) error {
	t.Schemas = []string{`{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": true, "type": "long"}, {"id": 2, "name": "region", "required": false, "type": "string"}]}`}
	region := icebergwrite.PartitionField{Name: "region", FieldID: 1000, SourceID: 2, Type: "string"}
	t.Specs, t.LastColumnID = []icebergwrite.Spec{{ID: 0}, {ID: 1, Fields: []icebergwrite.PartitionField{region}}}, 2
	type row struct {
		ID     int64   `parquet:"id,id(1)"`
		Region *string `parquet:"region,id(2),optional"`
	}
	type key struct {
		ID int64 `parquet:"id,id(1)"`
	}
	var files []icebergwrite.File
	for _, r := range []string{"a", "b"} {
		f, err := icebergwrite.WriteParquet(t, "data/region="+r+"/d.parquet", []row{{1, p(r)}, {2, p(r)}, {3, p(r)}}, 0)
		if err != nil {
			return err
		}
		f.SpecID, f.Partition = 1, map[string]any{"region": r}
		files = append(files, f)
	}
	if err := t.Commit(files...); err != nil {
		return err
	}
	g, err := icebergwrite.WriteParquet(t, "data/global-eq.parquet", []key{{1}}, 0)
	if err != nil {
		return err
	}
	g.Content, g.EqualityIDs, g.SpecID = icebergwrite.EqualityDeletes, []int{1}, 0
	a, err := icebergwrite.WriteParquet(t, "data/region=a/eq.parquet", []key{{2}}, 0)
	if err != nil {
		return err
	}
	a.Content, a.EqualityIDs, a.SpecID, a.Partition = icebergwrite.EqualityDeletes, []int{1}, 1, map[string]any{"region": "a"}
	return t.Commit(g, a)
}

func v3DV(t *icebergwrite.Table) error {
	t.FormatVersion = 3
	t.Schemas = []string{`{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "id", "required": true, "type": "long"}, {"id": 2, "name": "v", "required": false, "type": "string"}]}`}
	t.Specs, t.LastColumnID = []icebergwrite.Spec{{ID: 0}}, 2
	var rows []idRow
	for i := int64(0); i < 10; i++ {
		rows = append(rows, idRow{ID: i, V: p(fmt.Sprint("v", i))})
	}
	d, err := icebergwrite.WriteParquet(t, "data/d.parquet", rows, 0)
	if err != nil {
		return err
	}
	if err := t.Commit(d); err != nil {
		return err
	}
	pd, err := icebergwrite.WritePositionDeletes(t, "data/pos.parquet", []icebergwrite.PositionDelete{{FilePath: d.Path, Pos: 1}})
	if err != nil {
		return err
	}
	if err := t.Commit(pd); err != nil {
		return err
	}
	dv, err := icebergwrite.WriteDeletionVector(t, "data/dv.puffin", d.Path, 3, 5)
	if err != nil {
		return err
	}
	return t.Commit(dv)
}

func eqNulls(t *icebergwrite.Table) error {
	t.Schemas = []string{`{"type": "struct", "schema-id": 0, "fields": [{"id": 1, "name": "k", "required": false, "type": "double"}, {"id": 2, "name": "s", "required": false, "type": "string"}, {"id": 3, "name": "n", "required": true, "type": "int"}]}`}
	t.Specs, t.LastColumnID = []icebergwrite.Spec{{ID: 0}}, 3
	type row struct {
		K *float64 `parquet:"k,id(1),optional"`
		S *string  `parquet:"s,id(2),optional"`
		N int32    `parquet:"n,id(3)"`
	}
	type key struct {
		K *float64 `parquet:"k,id(1),optional"`
		S *string  `parquet:"s,id(2),optional"`
	}
	nan := math.NaN()
	d, err := icebergwrite.WriteParquet(t, "data/d.parquet", []row{
		{p(nan), p("x"), 1}, {nil, p("y"), 2}, {nil, nil, 3}, {p(1.0), p("z"), 4}, {p(nan), p("w"), 5}, {p(2.0), nil, 6},
	}, 0)
	if err != nil {
		return err
	}
	if err := t.Commit(d); err != nil {
		return err
	}
	e, err := icebergwrite.WriteParquet(t, "data/eq.parquet", []key{{p(nan), p("x")}, {nil, p("y")}, {nil, nil}}, 0)
	if err != nil {
		return err
	}
	e.Content, e.EqualityIDs = icebergwrite.EqualityDeletes, []int{1, 2}
	return t.Commit(e)
}
