//go:build duckdb_arrow

package main

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	bindings "github.com/duckdb/duckdb-go-bindings"
)

// haveDuckArrow reports whether this build can read DuckDB's Arrow output
// (the bindings' Arrow functions need the duckdb_arrow build tag).
const haveDuckArrow = true

// streamArrow runs query as a streaming result and converts every data
// chunk to an Arrow record batch with DuckDB's own converter, handing each
// to each (released after each returns); it returns the rows seen.
func (d *duck) streamArrow(query string, each func(arrow.RecordBatch) error) (int64, error) {
	var schema *arrow.Schema
	var opts bindings.ArrowOptions
	defer func() {
		if schema != nil {
			bindings.DestroyArrowOptions(&opts)
		}
	}()
	return d.stream(query, func(res *bindings.Result, chunk bindings.DataChunk) error {
		if schema == nil {
			opts = bindings.ResultGetArrowOptions(res)
			cc := bindings.ColumnCount(res)
			names := make([]string, cc)
			types := make([]bindings.LogicalType, cc)
			for i := range cc {
				names[i] = bindings.ColumnName(res, i)
				types[i] = bindings.ColumnLogicalType(res, i)
			}
			s, ed := bindings.NewArrowSchema(opts, types, names)
			for i := range types {
				bindings.DestroyLogicalType(&types[i])
			}
			if err := errorData(ed, "arrow schema"); err != nil {
				bindings.DestroyArrowOptions(&opts)
				return err
			}
			schema = s
		}
		rec, ed := bindings.DataChunkToArrowArray(opts, schema, chunk)
		if err := errorData(ed, "arrow array"); err != nil {
			return err
		}
		defer rec.Release()
		if each != nil {
			return each(rec)
		}
		return nil
	})
}

// errorData returns the error ed holds, if any, and destroys ed.
func errorData(ed bindings.ErrorData, what string) error {
	defer bindings.DestroyErrorData(&ed)
	if bindings.ErrorDataHasError(ed) {
		return fmt.Errorf("duckdb: %s: %s", what, bindings.ErrorDataMessage(ed))
	}
	return nil
}
