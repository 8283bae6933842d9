package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hamba/avro/v2/ocf"
	pq "github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat/internal/icebergwrite"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/iceberg"
)

// The generated Iceberg table (format v2, unpartitioned) holds the data set
// in 9 Parquet files, 3 written under each of 3 schemas:
//
//	schema 0: 1 i int, 2 l long, 3 f float, 4 d double, 5 s string, 6 dec decimal(18,2)
//	schema 1: i promoted to long, s renamed to name, 7 added long appended
//	schema 2: amount (6, decimal(28,2)), name, i_wide (1), f_wide (3, double), added, d, l
//
// Schema 2 is the current schema and equals evolvedSchema. The files of
// schema 2 store amount as decimal(18,2) (Parquet INT64): the writer used
// here has no 16-byte decimal, and the read widens it like an older file.

type pqRowV1 struct {
	I     *int64   `parquet:"i,optional,id(1)"`
	L     *int64   `parquet:"l,optional,id(2)"`
	F     *float32 `parquet:"f,optional,id(3)"`
	D     *float64 `parquet:"d,optional,id(4)"`
	Name  *string  `parquet:"name,optional,id(5)"`
	Dec   *int64   `parquet:"dec,optional,id(6),decimal(2:18)"`
	Added *int64   `parquet:"added,optional,id(7)"`
}

type pqRowV2 struct {
	Amount *int64   `parquet:"amount,optional,id(6),decimal(2:18)"`
	Name   *string  `parquet:"name,optional,id(5)"`
	IWide  *int64   `parquet:"i_wide,optional,id(1)"`
	FWide  *float64 `parquet:"f_wide,optional,id(3)"`
	Added  *int64   `parquet:"added,optional,id(7)"`
	D      *float64 `parquet:"d,optional,id(4)"`
	L      *int64   `parquet:"l,optional,id(2)"`
}

func ptr[T any](ok bool, v T) *T {
	if !ok {
		return nil
	}
	return &v
}

func writeRows[T any](path string, rows []T, rowGroup int) (int64, error) {
	var buf bytes.Buffer
	w := pq.NewGenericWriter[T](&buf, pq.Compression(codecOf("snappy")),
		pq.MaxRowsPerRowGroup(int64(rowGroup)), pq.PageBufferSize(1<<20))
	if _, err := w.Write(rows); err != nil {
		return 0, err
	}
	if err := w.Close(); err != nil {
		return 0, err
	}
	return int64(buf.Len()), os.WriteFile(path, buf.Bytes(), 0o644)
}

func icebergSchemas() []*schema.Schema {
	s0 := schema.New(0,
		&schema.Field{ID: 1, Name: "i", Type: schema.Int},
		&schema.Field{ID: 2, Name: "l", Type: schema.Long},
		&schema.Field{ID: 3, Name: "f", Type: schema.Float},
		&schema.Field{ID: 4, Name: "d", Type: schema.Double},
		&schema.Field{ID: 5, Name: "s", Type: schema.String},
		&schema.Field{ID: 6, Name: "dec", Type: schema.Decimal(18, 2)},
	)
	s1 := schema.New(1,
		&schema.Field{ID: 1, Name: "i", Type: schema.Long},
		&schema.Field{ID: 2, Name: "l", Type: schema.Long},
		&schema.Field{ID: 3, Name: "f", Type: schema.Float},
		&schema.Field{ID: 4, Name: "d", Type: schema.Double},
		&schema.Field{ID: 5, Name: "name", Type: schema.String},
		&schema.Field{ID: 6, Name: "dec", Type: schema.Decimal(18, 2)},
		&schema.Field{ID: 7, Name: "added", Type: schema.Long},
	)
	return []*schema.Schema{s0, s1, evolvedSchema()}
}

func writeOCF(path, avroSchema string, meta map[string][]byte, recs []map[string]any) (int64, error) {
	if meta == nil {
		meta = map[string][]byte{}
	}
	var buf bytes.Buffer
	enc, err := ocf.NewEncoder(avroSchema, &buf, ocf.WithMetadata(meta))
	if err != nil {
		return 0, err
	}
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			return 0, err
		}
	}
	if err := enc.Close(); err != nil {
		return 0, err
	}
	return int64(buf.Len()), os.WriteFile(path, buf.Bytes(), 0o644)
}

// writeIcebergTable writes the table under dir: data/, metadata/ with one
// snapshot whose manifest list names one manifest per schema version.
func writeIcebergTable(dir string, ds *dataset, rowGroup int) error {
	dataDir, metaDir := filepath.Join(dir, "data"), filepath.Join(dir, "metadata")
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(metaDir, 0o755); err != nil {
		return err
	}
	schemas := icebergSchemas()
	const filesPerSchema = 3
	nFiles := filesPerSchema * len(schemas)
	per := (ds.n + nFiles - 1) / nFiles
	const snapshotID = int64(1)
	var listRecs []map[string]any
	for v := range schemas {
		var entries []map[string]any
		var added int64
		for k := 0; k < filesPerSchema; k++ {
			idx := v*filesPerSchema + k
			lo, hi := min(ds.n, idx*per), min(ds.n, (idx+1)*per)
			part := ds.slice(lo, hi)
			path := filepath.Join(dataDir, fmt.Sprintf("%05d-s%d.parquet", idx, v))
			size, err := writeVersion(path, v, part, lo, rowGroup)
			if err != nil {
				return err
			}
			entries = append(entries, map[string]any{
				"status": 1, "snapshot_id": nil, "sequence_number": nil, "file_sequence_number": nil,
				"data_file": map[string]any{
					"content": 0, "file_path": path, "file_format": "PARQUET", "partition": map[string]any{},
					"record_count": int64(part.n), "file_size_in_bytes": size, "equality_ids": []any{},
					"referenced_data_file": nil, "content_offset": nil, "content_size_in_bytes": nil,
				},
			})
			added += int64(part.n)
		}
		sj, err := schema.MarshalIcebergSchema(schemas[v])
		if err != nil {
			return err
		}
		mpath := filepath.Join(metaDir, fmt.Sprintf("manifest-s%d-m0.avro", v))
		mlen, err := writeOCF(mpath, icebergwrite.ManifestEntrySchema(nil), map[string][]byte{
			"schema": sj, "schema-id": []byte(fmt.Sprint(v)), "partition-spec": []byte("[]"),
			"partition-spec-id": []byte("0"), "format-version": []byte("2"), "content": []byte("data"),
		}, entries)
		if err != nil {
			return err
		}
		listRecs = append(listRecs, map[string]any{
			"manifest_path": mpath, "manifest_length": mlen, "partition_spec_id": 0, "content": 0,
			"sequence_number": int64(1), "min_sequence_number": int64(1), "added_snapshot_id": snapshotID,
			"added_files_count": len(entries), "existing_files_count": 0, "deleted_files_count": 0,
			"added_rows_count": added, "existing_rows_count": int64(0), "deleted_rows_count": int64(0),
		})
	}
	listPath := filepath.Join(metaDir, "snap-1-manifest-list.avro")
	if _, err := writeOCF(listPath, icebergwrite.ManifestListSchema, map[string][]byte{
		"snapshot-id": []byte("1"), "sequence-number": []byte("1"), "format-version": []byte("2"),
	}, listRecs); err != nil {
		return err
	}
	sid := snapshotID
	cur := 2
	md := &iceberg.Metadata{
		FormatVersion: 2, TableUUID: "4b0c9d7e-6a57-4f0b-9d42-6c1f3b2a1e01", Location: dir,
		LastSequenceNumber: 1, LastUpdatedMs: 1_700_000_000_000, LastColumnID: 7,
		Schemas: schemas, CurrentSchemaID: 2,
		PartitionSpecs: []iceberg.PartitionSpec{{SpecID: 0}}, DefaultSpecID: 0, LastPartitionID: 999,
		Properties:        map[string]string{},
		CurrentSnapshotID: &sid,
		Snapshots: []iceberg.Snapshot{{SnapshotID: snapshotID, SequenceNumber: 1, TimestampMs: 1_700_000_000_000,
			ManifestList: listPath, SchemaID: &cur, Summary: map[string]string{"operation": "append"}}},
		SnapshotLog: []iceberg.SnapshotLogEntry{{TimestampMs: 1_700_000_000_000, SnapshotID: snapshotID}},
		Extra: map[string]json.RawMessage{
			"default-sort-order-id": json.RawMessage(`0`),
			"sort-orders":           json.RawMessage(`[{"order-id":0,"fields":[]}]`),
		},
	}
	b, err := iceberg.MarshalMetadata(md)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(metaDir, "v1.metadata.json"), b, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(metaDir, "version-hint.text"), []byte("1"), 0o644)
}

// writeVersion writes rows of part as a data file of schema version v.
func writeVersion(path string, v int, part *dataset, base, rowGroup int) (int64, error) {
	n := part.n
	ok := func(c, r int) bool { return part.valid[c][r] }
	switch v {
	case 0:
		rows := make([]pqRow, n)
		for r := range rows {
			rows[r] = pqRow{I: ptr(ok(0, r), part.i[r]), L: ptr(ok(1, r), part.l[r]), F: ptr(ok(2, r), part.f[r]),
				D: ptr(ok(3, r), part.d[r]), S: ptr(ok(4, r), part.s[r]), Dec: ptr(ok(5, r), part.dec[r])}
		}
		return writeRows(path, rows, rowGroup)
	case 1:
		rows := make([]pqRowV1, n)
		for r := range rows {
			rows[r] = pqRowV1{I: ptr(ok(0, r), int64(part.i[r])), L: ptr(ok(1, r), part.l[r]), F: ptr(ok(2, r), part.f[r]),
				D: ptr(ok(3, r), part.d[r]), Name: ptr(ok(4, r), part.s[r]), Dec: ptr(ok(5, r), part.dec[r]),
				Added: ptr((base+r)%10 != 0, int64(base+r))}
		}
		return writeRows(path, rows, rowGroup)
	default:
		rows := make([]pqRowV2, n)
		for r := range rows {
			rows[r] = pqRowV2{Amount: ptr(ok(5, r), part.dec[r]), Name: ptr(ok(4, r), part.s[r]),
				IWide: ptr(ok(0, r), int64(part.i[r])), FWide: ptr(ok(2, r), float64(part.f[r])),
				Added: ptr((base+r)%10 != 0, int64(base+r)), D: ptr(ok(3, r), part.d[r]), L: ptr(ok(1, r), part.l[r])}
		}
		return writeRows(path, rows, rowGroup)
	}
}
