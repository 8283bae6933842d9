package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lakecat/lakecat/internal/icebergwrite"
	"github.com/lakecat/lakecat/reader"
)

// The delete variants read three Iceberg tables (format v2, unpartitioned,
// one schema) holding the same data set in the same 4 Parquet files:
//
//	table/deletes/none  no delete files
//	table/deletes/pos10 a position delete file per data file (its
//	                    referenced_data_file) deleting 10% of the rows,
//	                    spread through the file (pseudo-random positions)
//	table/deletes/eq1   one equality delete file on l (field id 2) holding
//	                    the keys of 1% of the rows
//
// each scanned with one worker: the cost of applying the deletes, against
// the plain scan of the same files in the same run.

const deleteTableFiles = 4

const deleteTableSchema = `{"type": "struct", "schema-id": 0, "fields": [
 {"id": 1, "name": "i", "required": false, "type": "int"},
 {"id": 2, "name": "l", "required": false, "type": "long"},
 {"id": 3, "name": "f", "required": false, "type": "float"},
 {"id": 4, "name": "d", "required": false, "type": "double"},
 {"id": 5, "name": "s", "required": false, "type": "string"},
 {"id": 6, "name": "dec", "required": false, "type": "decimal(18, 2)"}]}`

// posDeleted reports whether the position deletes of table/deletes/pos10
// delete row r of a file: 10% of the rows, by a multiplicative hash.
func posDeleted(r int) bool { return (uint32(r)*2654435761)>>16%10 == 0 }

// writeDeleteTable writes the table kind ("none", "pos10", "eq1") under dir
// and returns how many rows survive its deletes.
func writeDeleteTable(dir, kind string, ds *dataset, rowGroup int) (int64, error) {
	t := &icebergwrite.Table{Dir: dir, Location: filepath.ToSlash(dir), FormatVersion: 2, LastColumnID: 6,
		Schemas: []string{deleteTableSchema}, Specs: []icebergwrite.Spec{{ID: 0}}}
	per := (ds.n + deleteTableFiles - 1) / deleteTableFiles
	var files []icebergwrite.File
	for k := 0; k < deleteTableFiles; k++ {
		lo, hi := min(ds.n, k*per), min(ds.n, (k+1)*per)
		part := ds.slice(lo, hi)
		ok := func(c, r int) bool { return part.valid[c][r] }
		rows := make([]pqRow, part.n)
		for r := range rows {
			rows[r] = pqRow{I: ptr(ok(0, r), part.i[r]), L: ptr(ok(1, r), part.l[r]), F: ptr(ok(2, r), part.f[r]),
				D: ptr(ok(3, r), part.d[r]), S: ptr(ok(4, r), part.s[r]), Dec: ptr(ok(5, r), part.dec[r])}
		}
		f, err := icebergwrite.WriteParquet(t, fmt.Sprintf("data/%05d.parquet", k), rows, rowGroup)
		if err != nil {
			return 0, err
		}
		files = append(files, f)
	}
	if err := t.Commit(files...); err != nil {
		return 0, err
	}
	survivors := int64(ds.n)
	var dels []icebergwrite.File
	switch kind {
	case "pos10":
		for k, f := range files {
			var pd []icebergwrite.PositionDelete
			for r := 0; r < int(f.Records); r++ {
				if posDeleted(r) {
					pd = append(pd, icebergwrite.PositionDelete{FilePath: f.Path, Pos: int64(r)})
					survivors--
				}
			}
			d, err := icebergwrite.WritePositionDeletes(t, fmt.Sprintf("data/pos-%05d.parquet", k), pd)
			if err != nil {
				return 0, err
			}
			d.Referenced = f.Path
			dels = append(dels, d)
		}
	case "eq1":
		type key struct {
			L *int64 `parquet:"l,optional,id(2)"`
		}
		var keys []key
		for r := 7; r < ds.n; r += 100 {
			if ds.valid[1][r] { // a null key would delete every null l
				keys = append(keys, key{ptr(true, ds.l[r])})
				survivors-- // l is a random long: no two rows share one
			}
		}
		d, err := icebergwrite.WriteParquet(t, "data/eq.parquet", keys, 0)
		if err != nil {
			return 0, err
		}
		d.Content, d.EqualityIDs = icebergwrite.EqualityDeletes, []int{2}
		dels = append(dels, d)
	}
	if len(dels) > 0 {
		if err := t.Commit(dels...); err != nil {
			return 0, err
		}
	}
	return survivors, t.WriteMetadata()
}

// deleteVariants writes the three tables and returns their scans.
func deleteVariants(cfg config, ds *dataset) ([]*variant, error) {
	var vs []*variant
	for _, kind := range []string{"none", "pos10", "eq1"} {
		dir := cfg.tmpPath("deletes-" + kind)
		rows, err := writeDeleteTable(dir, kind, ds, cfg.rowGroup)
		if err != nil {
			return nil, fmt.Errorf("writing the %s delete table: %w", kind, err)
		}
		vs = append(vs, &variant{name: "table/deletes/" + kind, codec: "snappy", rows: rows, fn: func(ctx context.Context) (int64, error) {
			t, err := reader.OpenTable(ctx, dir, reader.TableOptions{Workers: 1, BatchRows: batchRows, Allocator: alloc})
			if err != nil {
				return 0, err
			}
			rr, err := t.Scan(ctx)
			if err != nil {
				return 0, err
			}
			return drain(rr, false)
		}})
	}
	return vs, nil
}

// printDeleteRatios prints, for a run that timed table/deletes/none, each
// other delete variant's process CPU time over it (issue 14's targets:
// pos10 at most 1.15, eq1 at most 1.5) two ways: the ratio of the least
// CPU times and the median of the per-round ratios (the variants of a
// round run back to back).
func printDeleteRatios(w io.Writer, vs []*variant) {
	i := slices.IndexFunc(vs, func(v *variant) bool { return v.name == "table/deletes/none" })
	if i < 0 || len(vs[i].cpu) == 0 {
		return
	}
	none := vs[i]
	for _, v := range vs {
		if v == none || len(v.cpu) == 0 || !strings.HasPrefix(v.name, "table/deletes/") {
			continue
		}
		var per []float64
		for r := range min(len(v.cpu), len(none.cpu)) {
			per = append(per, float64(v.cpu[r])/float64(max(none.cpu[r], 1)))
		}
		slices.Sort(per)
		fmt.Fprintf(w, "%s / table/deletes/none, CPU time: %.2f× (least), %.2f× (median of %d per-round ratios)\n",
			v.name, float64(best(v.cpu))/float64(max(best(none.cpu), 1)), per[len(per)/2], len(per))
	}
}
