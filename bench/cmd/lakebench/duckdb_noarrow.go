//go:build !duckdb_arrow

package main

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
)

// haveDuckArrow reports whether this build can read DuckDB's Arrow output
// (the bindings' Arrow functions need the duckdb_arrow build tag).
const haveDuckArrow = false

func (d *duck) streamArrow(string, func(arrow.RecordBatch) error) (int64, error) {
	return 0, errors.New("duckdb: Arrow output needs a build with -tags duckdb_arrow")
}
