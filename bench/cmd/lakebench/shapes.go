package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	pq "github.com/parquet-go/parquet-go"
)

// shapesVersion is part of every cached file's name: bump it whenever a
// shape's query or a writer's settings change, so that stale files are not
// reused.
const shapesVersion = 1

// shape is one data set of the real-writer comparison: the SQL that
// generates its rows from range(0, {rows}) (the column "range"), and its rows at scale
// 1 (the sizes of issue 20's table).
type shape struct {
	name string
	rows int
	sql  string
}

// nullIf returns an SQL expression that is NULL for about one row in ten
// (chosen by a hash of the row number and salt) and expr otherwise.
func nullIf(expr string, salt int) string {
	return fmt.Sprintf("CASE WHEN hash(range * 7919 + %d) %% 10 = 0 THEN NULL ELSE %s END", salt, expr)
}

// h is a deterministic pseudo-random UBIGINT of the row number and salt.
func h(salt int) string { return fmt.Sprintf("hash(range * 31 + %d)", salt) }

// shapes are the data sets of the real-writer comparison. Low-cardinality
// columns make DuckDB write dictionary pages; random numbers and unique
// strings make it write PLAIN pages.
var shapes = []shape{
	{name: "narrow", rows: 5_000_000, sql: narrowSQL(false)},
	{name: "plainstr", rows: 5_000_000, sql: narrowSQL(true)},
	{name: "wide", rows: 1_000_000, sql: wideSQL()},
	{name: "lineitem", rows: 6_000_000, sql: lineitemSQL()},
	{name: "nested", rows: 2_000_000, sql: nestedSQL()},
}

// narrowSQL is lakebench's six-column data set: int, long, float, double,
// string and decimal(18,2), about 10% nulls each; the strings come from
// 1000 distinct values, or are unique when unique is set.
func narrowSQL(unique bool) string {
	s := fmt.Sprintf("'w-' || (%s %% 1000)", h(5))
	if unique {
		s = fmt.Sprintf("'name-' || range || '-' || (%s %% 100000)", h(5))
	}
	cols := []string{
		nullIf(fmt.Sprintf("(%s %% 2147483647)::INTEGER", h(1)), 1) + " AS i",
		nullIf(fmt.Sprintf("(%s >> 1)::BIGINT", h(2)), 2) + " AS l",
		nullIf(fmt.Sprintf("((%s %% 1000000) / 1000000.0)::FLOAT", h(3)), 3) + " AS f",
		nullIf(fmt.Sprintf("((%s %% 1000000000) / 1000000000.0)::DOUBLE", h(4)), 4) + " AS d",
		nullIf(s, 5) + " AS s",
		nullIf(fmt.Sprintf("((%s %% 1000000000000)::BIGINT - 500000000000)::DECIMAL(18,0) / 100", h(6)), 6) + "::DECIMAL(18,2) AS dec",
	}
	return "SELECT " + strings.Join(cols, ", ") + " FROM range(0, {rows})"
}

// wideSQL is 60 columns: 20 longs, 20 doubles and 20 strings of 100
// distinct values each, about 10% nulls each.
func wideSQL() string {
	var cols []string
	for c := range 20 {
		cols = append(cols,
			nullIf(fmt.Sprintf("(%s >> 1)::BIGINT", h(100+c)), 100+c)+fmt.Sprintf(" AS l%02d", c),
			nullIf(fmt.Sprintf("((%s %% 1000000) / 1000.0)::DOUBLE", h(200+c)), 200+c)+fmt.Sprintf(" AS d%02d", c),
			nullIf(fmt.Sprintf("'v%d-' || (%s %% 100)", c, h(300+c)), 300+c)+fmt.Sprintf(" AS s%02d", c))
	}
	return "SELECT " + strings.Join(cols, ", ") + " FROM range(0, {rows})"
}

// lineitemSQL is shaped like TPC-H lineitem: 16 columns, no nulls, keys,
// dictionary-friendly decimals, flags, dates and short enumerations, and a
// free-text comment.
func lineitemSQL() string {
	cols := []string{
		"(range // 4 + 1)::BIGINT AS l_orderkey",
		fmt.Sprintf("(%s %% 200000 + 1)::BIGINT AS l_partkey", h(1)),
		fmt.Sprintf("(%s %% 10000 + 1)::BIGINT AS l_suppkey", h(2)),
		"(range % 4 + 1)::INTEGER AS l_linenumber",
		fmt.Sprintf("(%s %% 50 + 1)::DECIMAL(15,2) AS l_quantity", h(3)),
		fmt.Sprintf("((%s %% 10000000)::DECIMAL(15,0) / 100 + 900)::DECIMAL(15,2) AS l_extendedprice", h(4)),
		fmt.Sprintf("((%s %% 11)::DECIMAL(15,0) / 100)::DECIMAL(15,2) AS l_discount", h(5)),
		fmt.Sprintf("((%s %% 9)::DECIMAL(15,0) / 100)::DECIMAL(15,2) AS l_tax", h(6)),
		fmt.Sprintf("(['A', 'N', 'R'])[(%s %% 3 + 1)::BIGINT] AS l_returnflag", h(7)),
		fmt.Sprintf("(['F', 'O'])[(%s %% 2 + 1)::BIGINT] AS l_linestatus", h(8)),
		fmt.Sprintf("(DATE '1992-01-02' + (%s %% 2500)::INTEGER) AS l_shipdate", h(9)),
		fmt.Sprintf("(DATE '1992-01-31' + (%s %% 2500)::INTEGER) AS l_commitdate", h(10)),
		fmt.Sprintf("(DATE '1992-01-03' + (%s %% 2520)::INTEGER) AS l_receiptdate", h(11)),
		fmt.Sprintf("(['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'])[(%s %% 4 + 1)::BIGINT] AS l_shipinstruct", h(12)),
		fmt.Sprintf("(['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'])[(%s %% 7 + 1)::BIGINT] AS l_shipmode", h(13)),
		fmt.Sprintf("'c ' || (%s %% 100000) || ' ' || (['carefully', 'quickly', 'furiously', 'blithely', 'slyly'])[(%s %% 5 + 1)::BIGINT] || ' ' || (%s %% 1000)",
			h(14), h(15), h(16)) + " AS l_comment",
	}
	return "SELECT " + strings.Join(cols, ", ") + " FROM range(0, {rows})"
}

// nestedSQL is a long key, a list of 0–3 short strings (a tenth of the
// lists null) and a struct of a double, an int and a string.
func nestedSQL() string {
	cols := []string{
		"range::BIGINT AS id",
		nullIf(fmt.Sprintf("list_transform(range(0, (%s %% 4)::BIGINT), x -> 't' || ((x * 37 + range) %% 50))", h(1)), 1) + " AS tags",
		nullIf(fmt.Sprintf("{'x': ((%s %% 100000) / 100.0)::DOUBLE, 'y': (%s %% 1000)::INTEGER, 'label': 'p' || (%s %% 20)}", h(2), h(3), h(4)), 2) + " AS pt",
	}
	return "SELECT " + strings.Join(cols, ", ") + " FROM range(0, {rows})"
}

// shapeFile is one generated file of the comparison.
type shapeFile struct {
	shape  string
	writer string // "duckdb" or "parquet-go"
	codec  string
	rows   int
	path   string
}

// shapeRows is the row count of s at scale (at least 1000 rows).
func shapeRows(s shape, scale float64) int { return max(1000, int(float64(s.rows)*scale)) }

// shapeFiles writes (or finds in cacheDir, from an earlier run) every
// shape named in names at scale, written by DuckDB and by parquet-go with
// each codec. The DuckDB files carry field ids (FIELD_IDS 'auto'); the
// parquet-go files are the same rows copied through parquet-go's writer
// with the DuckDB file's schema, field ids included.
func shapeFiles(cacheDir string, names []string, codecs []string, scale float64, rowGroup int) ([]shapeFile, error) {
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return nil, err
	}
	var w *duckWriter
	defer func() {
		if w != nil {
			w.close()
		}
	}()
	var out []shapeFile
	for _, name := range names {
		var s *shape
		for i := range shapes {
			if shapes[i].name == name {
				s = &shapes[i]
			}
		}
		if s == nil {
			return nil, fmt.Errorf("unknown shape %q", name)
		}
		n := shapeRows(*s, scale)
		for _, codec := range codecs {
			base := fmt.Sprintf("v%d-%s-%d-%s", shapesVersion, s.name, n, codec)
			dpath := filepath.Join(cacheDir, base+"-duckdb.parquet")
			if _, err := os.Stat(dpath); err != nil {
				if w == nil {
					var err error
					if w, err = openDuckWriter(); err != nil {
						return nil, err
					}
				}
				tmp := dpath + ".tmp"
				if err := w.copyTo(strings.ReplaceAll(s.sql, "{rows}", fmt.Sprint(n)), tmp, codec, "'auto'", rowGroup); err != nil {
					return nil, err
				}
				if err := os.Rename(tmp, dpath); err != nil {
					return nil, err
				}
			}
			gpath := filepath.Join(cacheDir, base+"-parquet-go.parquet")
			if _, err := os.Stat(gpath); err != nil {
				if err := rewriteParquetGo(dpath, gpath, codec, rowGroup); err != nil {
					return nil, fmt.Errorf("parquet-go copy of %s: %w", dpath, err)
				}
			}
			out = append(out,
				shapeFile{shape: s.name, writer: "duckdb", codec: codec, rows: n, path: dpath},
				shapeFile{shape: s.name, writer: "parquet-go", codec: codec, rows: n, path: gpath})
		}
	}
	return out, nil
}

// rewriteParquetGo copies the rows of the Parquet file src into dst through
// parquet-go's writer (its default encodings, codec, row groups of
// rowGroup rows).
func rewriteParquetGo(src, dst, codec string, rowGroup int) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	f, err := pq.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	w := pq.NewWriter(&buf, f.Schema(), pq.Compression(codecOf(codec)),
		pq.MaxRowsPerRowGroup(int64(rowGroup)), pq.PageBufferSize(1<<20))
	for _, rg := range f.RowGroups() {
		rows := rg.Rows()
		if _, err := pq.CopyRows(w, rows); err != nil {
			rows.Close()
			return err
		}
		rows.Close()
	}
	if err := w.Close(); err != nil {
		return err
	}
	tmp := dst + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}
