package main

import (
	"database/sql"
	"fmt"
	"strings"

	bindings "github.com/duckdb/duckdb-go-bindings"
	_ "github.com/duckdb/duckdb-go/v2" // database/sql driver "duckdb", used to write files
)

// duck is one in-memory DuckDB database and a connection to it, driven
// through the C API bindings so that a scan's chunks are fetched and
// dropped without any per-value work in Go.
type duck struct {
	db   bindings.Database
	conn bindings.Connection
}

// openDuck opens an in-memory database that runs queries on threads
// threads, with the external file cache off (DuckDB then reads every file
// through the operating system's page cache, as lakecat and pqarrow do).
func openDuck(threads int) (*duck, error) {
	d := &duck{}
	if bindings.Open("", &d.db) == bindings.StateError {
		return nil, fmt.Errorf("duckdb: open failed")
	}
	if bindings.Connect(d.db, &d.conn) == bindings.StateError {
		bindings.Close(&d.db)
		return nil, fmt.Errorf("duckdb: connect failed")
	}
	for _, s := range []string{
		fmt.Sprintf("SET threads = %d", threads),
		"SET enable_external_file_cache = false",
	} {
		if err := d.exec(s); err != nil {
			d.close()
			return nil, err
		}
	}
	return d, nil
}

func (d *duck) close() {
	bindings.Disconnect(&d.conn)
	bindings.Close(&d.db)
}

// exec runs one statement and drops its result.
func (d *duck) exec(query string) error {
	var res bindings.Result
	st := bindings.Query(d.conn, query, &res)
	defer bindings.DestroyResult(&res)
	if st == bindings.StateError {
		return fmt.Errorf("duckdb: %s: %s", query, bindings.ResultError(&res))
	}
	return nil
}

// stream runs query as a streaming result and calls each with every data
// chunk (destroyed after each returns); it returns the rows seen.
func (d *duck) stream(query string, each func(res *bindings.Result, chunk bindings.DataChunk) error) (int64, error) {
	var stmt bindings.PreparedStatement
	if bindings.Prepare(d.conn, query, &stmt) == bindings.StateError {
		err := fmt.Errorf("duckdb: %s: %s", query, bindings.PrepareError(stmt))
		bindings.DestroyPrepare(&stmt)
		return 0, err
	}
	defer bindings.DestroyPrepare(&stmt)
	var res bindings.Result
	st := bindings.ExecutePreparedStreaming(stmt, &res)
	defer bindings.DestroyResult(&res)
	if st == bindings.StateError {
		return 0, fmt.Errorf("duckdb: %s: %s", query, bindings.ResultError(&res))
	}
	var n int64
	for {
		chunk := bindings.FetchChunk(res)
		if chunk.Ptr == nil {
			break
		}
		n += int64(bindings.DataChunkGetSize(chunk))
		var err error
		if each != nil {
			err = each(&res, chunk)
		}
		bindings.DestroyDataChunk(&chunk)
		if err != nil {
			return n, err
		}
	}
	if msg := bindings.ResultError(&res); msg != "" {
		return n, fmt.Errorf("duckdb: %s: %s", query, msg)
	}
	return n, nil
}

// scanQuery is the query of the duckdb/* variants: every column of the
// file, decoded into DuckDB vectors and dropped.
func scanQuery(path string) string {
	return "SELECT * FROM read_parquet(" + sqlString(path) + ")"
}

// sqlString quotes s as an SQL string literal.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// duckWriter writes Parquet files with DuckDB's own writer through the
// database/sql driver.
type duckWriter struct{ db *sql.DB }

func openDuckWriter() (*duckWriter, error) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return &duckWriter{db: db}, nil
}

func (w *duckWriter) close() error { return w.db.Close() }

// copyTo writes the rows of query to path as Parquet compressed with codec
// ("snappy" or "zstd"); fieldIDs is DuckDB's FIELD_IDS struct literal
// ({name: id, nested: {__duckdb_field_id: id, child: id}}) and rowGroup the
// rows per row group.
func (w *duckWriter) copyTo(query, path, codec, fieldIDs string, rowGroup int) error {
	stmt := fmt.Sprintf("COPY (%s) TO %s (FORMAT parquet, COMPRESSION %s, ROW_GROUP_SIZE %d, FIELD_IDS %s)",
		query, sqlString(path), codec, rowGroup, fieldIDs)
	if _, err := w.db.Exec(stmt); err != nil {
		return fmt.Errorf("duckdb: %s: %w", stmt, err)
	}
	return nil
}
