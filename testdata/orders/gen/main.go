// Command gen writes the bundled demo table: three Parquet files with field
// ids (one per schema version), one snapshot per file (each with its
// manifest list and manifest, Avro object container files with the Iceberg
// manifest schemas and their field ids) and the table metadata holding the
// schemas and snapshots. It is deterministic: running it twice writes the
// same bytes.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hamba/avro/v2"
	"github.com/parquet-go/parquet-go"
)

// order0 is a row written under schema 0.
type order0 struct {
	OrderID     int64    `parquet:"order_id,id(1)"`
	OrderName   *string  `parquet:"order_name,id(2),optional"`
	OrderUserID *int32   `parquet:"order_user_id,id(3),optional"`
	OrderShopID *int32   `parquet:"order_shop_id,id(4),optional"`
	Price       *float32 `parquet:"price,id(5),optional"`
	Amount      *int32   `parquet:"amount,id(6),optional,decimal(2:9)"`
}

// order1 is a row written under schema 1.
type order1 struct {
	OrderID     int64    `parquet:"order_id,id(1)"`
	Customer    *string  `parquet:"customer,id(2),optional"`
	OrderUserID *int32   `parquet:"order_user_id,id(3),optional"`
	OrderShopID *int64   `parquet:"order_shop_id,id(4),optional"`
	Price       *float32 `parquet:"price,id(5),optional"`
	Amount      *int32   `parquet:"amount,id(6),optional,decimal(2:9)"`
	Note        *string  `parquet:"note,id(7),optional"`
}

// order2 is a row written under schema 2.
type order2 struct {
	OrderShopID *int64   `parquet:"order_shop_id,id(4),optional"`
	OrderID     int64    `parquet:"order_id,id(1)"`
	Customer    *string  `parquet:"customer,id(2),optional"`
	Price       *float64 `parquet:"price,id(5),optional"`
	Amount      *int64   `parquet:"amount,id(6),optional,decimal(2:18)"`
	Note        *string  `parquet:"note,id(7),optional"`
	Channel     *string  `parquet:"channel,id(8),optional"`
}

func p[T any](v T) *T { return &v }

func main() {
	write("data/00000-orders-schema0.parquet", []order0{
		{1, p("alice"), p[int32](10), p[int32](100), p[float32](9.5), p[int32](1234)},
		{2, p("bob"), p[int32](11), nil, p[float32](20.25), p[int32](-50)},
	})
	write("data/00001-orders-schema1.parquet", []order1{
		{3, p("carol"), p[int32](12), p[int64](5_000_000_000), p[float32](1.5), nil, p("gift")},
		{4, nil, p[int32](13), p[int64](101), p[float32](3), p[int32](99999), nil},
	})
	write("data/00002-orders-schema2.parquet", []order2{
		{p[int64](102), 5, p("dave"), p(0.1), p[int64](123456789012), p("rush"), p("app")},
		{nil, 6, p("erin"), nil, p[int64](7), nil, nil},
	})
	if err := os.MkdirAll("metadata", 0o755); err != nil {
		log.Fatal(err)
	}
	snaps := writeSnapshots()
	md := strings.Replace(metadata, `"last-sequence-number": 0,`, fmt.Sprintf(`"last-sequence-number": %d,`, len(snaps)), 1)
	md = strings.Replace(md, `  "snapshots": [],
  "snapshot-log": [],`, snaps.json(), 1)
	if err := os.WriteFile(filepath.Join("metadata", "v1.metadata.json"), []byte(md), 0o644); err != nil {
		log.Fatal(err)
	}
}

// dataFiles are the data files in commit order; file i was written with
// schema i and is added by snapshot i.
var dataFiles = []string{
	"data/00000-orders-schema0.parquet",
	"data/00001-orders-schema1.parquet",
	"data/00002-orders-schema2.parquet",
}

// Stored paths start with the table location "orders" (relative, as DuckDB
// writes them); readers re-root them at the folder the table is opened from.
const location = "orders/"

const firstSnapshotID = 6431527130592519001

type snapshot struct {
	id, parent   int64
	seq          int64
	timestampMs  int64
	manifestList string
	schemaID     int
	firstRowID   int64
	addedRows    int64
}

type snapshots []snapshot

func (ss snapshots) json() string {
	var b strings.Builder
	b.WriteString(fmt.Sprintf("  \"current-snapshot-id\": %d,\n  \"next-row-id\": %d,\n  \"snapshots\": [", ss[len(ss)-1].id, ss[len(ss)-1].firstRowID+ss[len(ss)-1].addedRows))
	for i, s := range ss {
		if i > 0 {
			b.WriteString(",")
		}
		parent := ""
		if s.parent != 0 {
			parent = fmt.Sprintf(`"parent-snapshot-id": %d, `, s.parent)
		}
		fmt.Fprintf(&b, "\n    {\"snapshot-id\": %d, %s\"sequence-number\": %d, \"timestamp-ms\": %d, \"manifest-list\": %q, \"summary\": {\"operation\": \"append\", \"added-data-files\": \"1\", \"added-records\": \"%d\"}, \"schema-id\": %d, \"first-row-id\": %d, \"added-rows\": %d}",
			s.id, parent, s.seq, s.timestampMs, s.manifestList, s.addedRows, s.schemaID, s.firstRowID, s.addedRows)
	}
	b.WriteString("\n  ],\n  \"snapshot-log\": [")
	for i, s := range ss {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n    {\"snapshot-id\": %d, \"timestamp-ms\": %d}", s.id, s.timestampMs)
	}
	b.WriteString("\n  ],")
	return b.String()
}

// Avro schemas of the manifest list and manifest entries (Iceberg spec,
// "Manifest Lists" and "Manifests"), format v2 fields, with field ids. The
// table is unpartitioned: the partition tuple is an empty record.
const manifestListSchema = `{"type": "record", "name": "manifest_file", "fields": [
  {"name": "manifest_path", "type": "string", "field-id": 500},
  {"name": "manifest_length", "type": "long", "field-id": 501},
  {"name": "partition_spec_id", "type": "int", "field-id": 502},
  {"name": "content", "type": "int", "field-id": 517},
  {"name": "sequence_number", "type": "long", "field-id": 515},
  {"name": "min_sequence_number", "type": "long", "field-id": 516},
  {"name": "added_snapshot_id", "type": "long", "field-id": 503},
  {"name": "added_files_count", "type": "int", "field-id": 504},
  {"name": "existing_files_count", "type": "int", "field-id": 505},
  {"name": "deleted_files_count", "type": "int", "field-id": 506},
  {"name": "added_rows_count", "type": "long", "field-id": 512},
  {"name": "existing_rows_count", "type": "long", "field-id": 513},
  {"name": "deleted_rows_count", "type": "long", "field-id": 514},
  {"name": "first_row_id", "type": ["null", "long"], "default": null, "field-id": 520}]}`

const manifestSchema = `{"type": "record", "name": "manifest_entry", "fields": [
  {"name": "status", "type": "int", "field-id": 0},
  {"name": "snapshot_id", "type": ["null", "long"], "default": null, "field-id": 1},
  {"name": "sequence_number", "type": ["null", "long"], "default": null, "field-id": 3},
  {"name": "file_sequence_number", "type": ["null", "long"], "default": null, "field-id": 4},
  {"name": "data_file", "type": {"type": "record", "name": "r2", "fields": [
    {"name": "content", "type": "int", "field-id": 134},
    {"name": "file_path", "type": "string", "field-id": 100},
    {"name": "file_format", "type": "string", "field-id": 101},
    {"name": "partition", "type": {"type": "record", "name": "r102", "fields": []}, "field-id": 102},
    {"name": "record_count", "type": "long", "field-id": 103},
    {"name": "file_size_in_bytes", "type": "long", "field-id": 104}]}, "field-id": 2}]}`

type manifestFile struct {
	Path            string `avro:"manifest_path"`
	Length          int64  `avro:"manifest_length"`
	SpecID          int32  `avro:"partition_spec_id"`
	Content         int32  `avro:"content"`
	Seq             int64  `avro:"sequence_number"`
	MinSeq          int64  `avro:"min_sequence_number"`
	AddedSnapshotID int64  `avro:"added_snapshot_id"`
	AddedFiles      int32  `avro:"added_files_count"`
	ExistingFiles   int32  `avro:"existing_files_count"`
	DeletedFiles    int32  `avro:"deleted_files_count"`
	AddedRows       int64  `avro:"added_rows_count"`
	ExistingRows    int64  `avro:"existing_rows_count"`
	DeletedRows     int64  `avro:"deleted_rows_count"`
	FirstRowID      *int64 `avro:"first_row_id"`
}

type dataFile struct {
	Content   int32          `avro:"content"`
	Path      string         `avro:"file_path"`
	Format    string         `avro:"file_format"`
	Partition map[string]any `avro:"partition"`
	Records   int64          `avro:"record_count"`
	Size      int64          `avro:"file_size_in_bytes"`
}

type manifestEntry struct {
	Status     int32    `avro:"status"`
	SnapshotID *int64   `avro:"snapshot_id"`
	Seq        *int64   `avro:"sequence_number"`
	FileSeq    *int64   `avro:"file_sequence_number"`
	DataFile   dataFile `avro:"data_file"`
}

// writeSnapshots writes one manifest per data file and one manifest list
// per snapshot (snapshot i lists the manifests of files 0..i), and returns
// the snapshots.
func writeSnapshots() snapshots {
	var ss snapshots
	var lists []manifestFile
	var rowID int64
	for i, df := range dataFiles {
		id := int64(firstSnapshotID + i)
		seq := int64(i + 1)
		st, err := os.Stat(df)
		if err != nil {
			log.Fatal(err)
		}
		const rows = 2
		mPath := fmt.Sprintf("metadata/orders-m%d.avro", i)
		entry := manifestEntry{Status: 1, SnapshotID: &id, DataFile: dataFile{
			Content: 0, Path: location + df, Format: "PARQUET", Partition: map[string]any{}, Records: rows, Size: st.Size(),
		}} // sequence numbers null: inherited from the manifest list (ADDED)
		n := writeOCF(mPath, manifestSchema, map[string]string{
			"schema-id": fmt.Sprint(i), "partition-spec": "[]", "partition-spec-id": "0",
			"format-version": "3", "content": "data",
		}, []any{entry})
		first := rowID
		lists = append(lists, manifestFile{Path: location + mPath, Length: n, SpecID: 0, Content: 0, Seq: seq, MinSeq: seq,
			AddedSnapshotID: id, AddedFiles: 1, AddedRows: rows, FirstRowID: &first})
		lPath := fmt.Sprintf("metadata/snap-%d-1-orders.avro", id)
		recs := make([]any, len(lists))
		for j := range lists {
			recs[j] = lists[j]
		}
		hdr := map[string]string{"snapshot-id": fmt.Sprint(id), "sequence-number": fmt.Sprint(seq), "format-version": "3"}
		if i > 0 {
			hdr["parent-snapshot-id"] = fmt.Sprint(id - 1)
		}
		writeOCF(lPath, manifestListSchema, hdr, recs)
		s := snapshot{id: id, seq: seq, timestampMs: 1767225600000 + int64(i)*60000, manifestList: location + lPath,
			schemaID: i, firstRowID: rowID, addedRows: rows}
		if i > 0 {
			s.parent = id - 1
		}
		ss = append(ss, s)
		rowID += rows
	}
	return ss
}

// writeOCF writes an Avro object container file (codec null, one block)
// with the given schema and header metadata, keys in sorted order and a
// sync marker derived from the path, so the bytes are deterministic. It
// returns the file's size in bytes.
func writeOCF(path, schemaJSON string, meta map[string]string, recs []any) int64 {
	sc, err := avro.ParseWithCache(schemaJSON, "", &avro.SchemaCache{})
	if err != nil {
		log.Fatal(err)
	}
	var body []byte
	for _, r := range recs {
		b, err := avro.Marshal(sc, r)
		if err != nil {
			log.Fatalf("%s: %v", path, err)
		}
		body = append(body, b...)
	}
	meta["avro.schema"] = schemaJSON
	meta["avro.codec"] = "null"
	keys := make([]string, 0, len(meta))
	for k := range meta {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	sync := sha256.Sum256([]byte(path))
	var out bytes.Buffer
	out.WriteString("Obj\x01")
	putLong(&out, int64(len(keys)))
	for _, k := range keys {
		putBytes(&out, []byte(k))
		putBytes(&out, []byte(meta[k]))
	}
	putLong(&out, 0)
	out.Write(sync[:16])
	putLong(&out, int64(len(recs)))
	putLong(&out, int64(len(body)))
	out.Write(body)
	out.Write(sync[:16])
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	return int64(out.Len())
}

func putLong(b *bytes.Buffer, v int64) {
	var tmp [binary.MaxVarintLen64]byte
	b.Write(tmp[:binary.PutVarint(tmp[:], v)]) // zigzag varint, as Avro encodes long
}

func putBytes(b *bytes.Buffer, v []byte) {
	putLong(b, int64(len(v)))
	b.Write(v)
}

func write[T any](path string, rows []T) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		log.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f, parquet.Compression(&parquet.Snappy), parquet.CreatedBy("lakecat-testdata", "1", ""))
	if _, err := w.Write(rows); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

const metadata = `{
  "format-version": 3,
  "table-uuid": "5b0e1a8e-3c1d-4f7a-9c59-1f6b2a0c9e42",
  "location": "orders",
  "last-sequence-number": 0,
  "last-updated-ms": 1767225600000,
  "last-column-id": 8,
  "current-schema-id": 2,
  "schemas": [
    {"type": "struct", "schema-id": 0, "fields": [
      {"id": 1, "name": "order_id", "required": true, "type": "long"},
      {"id": 2, "name": "order_name", "required": false, "type": "string"},
      {"id": 3, "name": "order_user_id", "required": false, "type": "int"},
      {"id": 4, "name": "order_shop_id", "required": false, "type": "int"},
      {"id": 5, "name": "price", "required": false, "type": "float"},
      {"id": 6, "name": "amount", "required": false, "type": "decimal(9, 2)"}]},
    {"type": "struct", "schema-id": 1, "fields": [
      {"id": 1, "name": "order_id", "required": true, "type": "long"},
      {"id": 2, "name": "customer", "required": false, "type": "string"},
      {"id": 3, "name": "order_user_id", "required": false, "type": "int"},
      {"id": 4, "name": "order_shop_id", "required": false, "type": "long"},
      {"id": 5, "name": "price", "required": false, "type": "float"},
      {"id": 6, "name": "amount", "required": false, "type": "decimal(9, 2)"},
      {"id": 7, "name": "note", "required": false, "type": "string"}]},
    {"type": "struct", "schema-id": 2, "fields": [
      {"id": 4, "name": "order_shop_id", "required": false, "type": "long"},
      {"id": 1, "name": "order_id", "required": true, "type": "long"},
      {"id": 2, "name": "customer", "required": false, "type": "string"},
      {"id": 5, "name": "price", "required": false, "type": "double"},
      {"id": 6, "name": "amount", "required": false, "type": "decimal(18, 2)"},
      {"id": 7, "name": "note", "required": false, "type": "string"},
      {"id": 8, "name": "channel", "required": false, "type": "string", "initial-default": "web", "write-default": "web"}]}
  ],
  "default-spec-id": 0,
  "partition-specs": [{"spec-id": 0, "fields": []}],
  "last-partition-id": 999,
  "default-sort-order-id": 0,
  "sort-orders": [{"order-id": 0, "fields": []}],
  "properties": {},
  "snapshots": [],
  "snapshot-log": [],
  "metadata-log": []
}
`
