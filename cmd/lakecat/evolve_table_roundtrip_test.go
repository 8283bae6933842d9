package main

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"
	"github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table/iceberg"
)

// readAvroFile decodes every record of an Avro object container file and
// returns them with the file's writer schema (as stored) and its header
// metadata other than the avro.* keys.
func readAvroFile(t *testing.T, path string) (string, map[string][]byte, []map[string]any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := ocf.NewDecoder(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	for dec.HasNext() {
		var r map[string]any
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		recs = append(recs, r)
	}
	if err := dec.Error(); err != nil {
		t.Fatal(err)
	}
	meta := map[string][]byte{}
	for k, v := range dec.Metadata() {
		if !strings.HasPrefix(k, "avro.") {
			meta[k] = v
		}
	}
	return string(dec.Metadata()["avro.schema"]), meta, recs
}

// writeAvroFile writes recs as an Avro object container file (no codec)
// with the given schema JSON, stored as given (so Iceberg's field-id
// attributes are kept), and header metadata, and returns its size in bytes.
func writeAvroFile(t *testing.T, path, schemaJSON string, meta map[string][]byte, recs []map[string]any) int64 {
	t.Helper()
	var buf bytes.Buffer
	enc, err := ocf.NewEncoder(schemaJSON, &buf, ocf.WithMetadata(meta),
		ocf.WithSchemaMarshaler(func(avro.Schema) ([]byte, error) { return []byte(schemaJSON), nil }))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return int64(buf.Len())
}

// paimonRow3 is a primary-key data file row under the evolved schema 3 of
// testdata/paimon_orders: the system columns, then the columns in schema
// order with their field ids.
type paimonRow3 struct {
	Key         int64   `parquet:"_KEY_order_id,id(1073741823)"`
	Seq         int64   `parquet:"_SEQUENCE_NUMBER,id(2147483646)"`
	Kind        int8    `parquet:"_VALUE_KIND,id(2147483645)"`
	Buyer       *string `parquet:"buyer,id(1),optional"`
	OrderID     int64   `parquet:"order_id,id(0)"`
	OrderUserID *int64  `parquet:"order_user_id,id(2),optional"`
	OrderShopID *int64  `parquet:"order_shop_id,id(3),optional"`
	Quantity    *int64  `parquet:"quantity,id(4),optional"`
	Region      *string `parquet:"region,id(6),optional"`
}

// appendPaimonSnapshot commits a data file already written at
// dir/bucket-<bucket>/<name> as snapshot <latest+1> of the Paimon table in
// dir, the way paimonwrite.Writer.Commit does (which cmd/lakecat cannot
// import: it is internal to reader/): a manifest with one ADD entry (an existing entry's record with
// the file's values), a base manifest list naming every manifest of the
// latest snapshot, a delta manifest list naming the new manifest, the
// snapshot file and LATEST.
func appendPaimonSnapshot(t *testing.T, dir string, schemaID int64, bucket int, name string, rows, minSeq, maxSeq int64) {
	t.Helper()
	latest, err := os.ReadFile(filepath.Join(dir, "snapshot", "LATEST"))
	if err != nil {
		t.Fatal(err)
	}
	id, err := strconv.ParseInt(strings.TrimSpace(string(latest)), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := os.ReadFile(filepath.Join(dir, "snapshot", "snapshot-"+strconv.FormatInt(id, 10)))
	if err != nil {
		t.Fatal(err)
	}
	var snap map[string]any
	if err := json.Unmarshal(sb, &snap); err != nil {
		t.Fatal(err)
	}
	mdir := filepath.Join(dir, "manifest")
	listSchema, listMeta, base := readAvroFile(t, filepath.Join(mdir, snap["baseManifestList"].(string)))
	_, _, delta := readAvroFile(t, filepath.Join(mdir, snap["deltaManifestList"].(string)))
	metas := append(base, delta...)
	manifestSchema, manifestMeta, entries := readAvroFile(t, filepath.Join(mdir, delta[0]["_FILE_NAME"].(string)))

	st, err := os.Stat(filepath.Join(dir, "bucket-"+strconv.Itoa(bucket), name))
	if err != nil {
		t.Fatal(err)
	}
	entry := entries[0]
	entry["_BUCKET"] = bucket
	file := entry["_FILE"].(map[string]any)
	file["_FILE_NAME"] = name
	file["_FILE_SIZE"] = st.Size()
	file["_ROW_COUNT"] = rows
	file["_MIN_SEQUENCE_NUMBER"] = minSeq
	file["_MAX_SEQUENCE_NUMBER"] = maxSeq
	file["_SCHEMA_ID"] = schemaID
	file["_LEVEL"] = 0
	file["_DELETE_ROW_COUNT"] = int64(0)

	prefix := "-00000000-0000-0000-0000-"
	mname := "manifest" + prefix + "000000000101-0"
	msize := writeAvroFile(t, filepath.Join(mdir, mname), manifestSchema, manifestMeta, []map[string]any{entry})
	baseName := "manifest-list" + prefix + "000000000102-0"
	baseSize := writeAvroFile(t, filepath.Join(mdir, baseName), listSchema, listMeta, metas)
	meta := delta[0]
	meta["_FILE_NAME"] = mname
	meta["_FILE_SIZE"] = msize
	meta["_NUM_ADDED_FILES"] = int64(1)
	meta["_SCHEMA_ID"] = schemaID
	deltaName := "manifest-list" + prefix + "000000000103-0"
	deltaSize := writeAvroFile(t, filepath.Join(mdir, deltaName), listSchema, listMeta, []map[string]any{meta})

	next := id + 1
	snap["id"] = next
	snap["schemaId"] = schemaID
	snap["baseManifestList"] = baseName
	snap["baseManifestListSize"] = baseSize
	snap["deltaManifestList"] = deltaName
	snap["deltaManifestListSize"] = deltaSize
	snap["commitIdentifier"] = next
	snap["totalRecordCount"] = snap["totalRecordCount"].(float64) + float64(rows)
	snap["deltaRecordCount"] = rows
	out, err := json.MarshalIndent(snap, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "snapshot", "snapshot-"+strconv.FormatInt(next, 10)), out, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "snapshot", "LATEST"), []byte(strconv.FormatInt(next, 10)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEvolveTableRoundTripPaimon evolves a copy of testdata/paimon_orders
// through five changes with `lakecat evolve` (add region, rename
// customer_name to buyer, delete note, move buyer first, set a doc), writes
// a data file under the new schema 3 and commits it as snapshot 4, then
// reads the table with `lakecat cat --raw`: files of schemas 0-2 come back
// with the renamed column's values, quantity promoted from INT (schema-1
// files) to BIGINT, note gone and region null; the new file as written.
func TestEvolveTableRoundTripPaimon(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("..", "..", "testdata", "paimon_orders"), dir)

	out, errOut, code := runCLI(t, "evolve", dir,
		"--add", "region string", "--rename", "customer_name=buyer", "--delete", "note",
		"--move", "buyer first", "--doc", "order_user_id=who ordered")
	if code != exitOK {
		t.Fatalf("evolve: exit %d: %s", code, errOut)
	}
	wantDiff := `schema 2 → 3
~ 1 buyer: string  (renamed from customer_name, moved)
~ 0 order_id: required long  (moved)
~ 2 order_user_id: long  (doc "who ordered")
  3 order_shop_id: long
  4 quantity: long
+ 6 region: string
- 5 note: string
`
	wantFile := filepath.Join(dir, "schema", "schema-3")
	if out != wantDiff+"committed "+wantFile+" (last-column-id 6)\n" {
		t.Fatalf("evolve output:\n%s\nwant\n%scommitted %s (last-column-id 6)", out, wantDiff, wantFile)
	}

	// Order 13 goes to bucket 3 (order_id mod 5), whose files hold
	// sequence numbers 0 and 1.
	name := "data-00000000-0000-0000-0000-000000000101-0.parquet"
	s := func(v string) *string { return &v }
	i := func(v int64) *int64 { return &v }
	rows := []paimonRow3{{Key: 13, Seq: 2, Buyer: s("zoe"), OrderID: 13, OrderUserID: i(107), Quantity: i(6000000000), Region: s("eu")}}
	if err := parquet.WriteFile(filepath.Join(dir, "bucket-3", name), rows); err != nil {
		t.Fatal(err)
	}
	appendPaimonSnapshot(t, dir, 3, 3, name, 1, 2, 2)

	out, errOut, code = runCLI(t, "cat", dir, "--raw", "--format", "jsonl", "--workers", "1")
	if code != exitOK {
		t.Fatalf("cat: exit %d: %s", code, errOut)
	}
	// Schema-0 files (orders 1-5) have no quantity; schema-1 files' INT
	// quantity is promoted to BIGINT (2147483647); note is gone.
	want := `{"_KEY_order_id":5,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"buyer":"erin","order_id":5,"order_user_id":102,"order_shop_id":10,"quantity":null,"region":null}
{"_KEY_order_id":1,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"buyer":"alice","order_id":1,"order_user_id":100,"order_shop_id":10,"quantity":null,"region":null}
{"_KEY_order_id":2,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"buyer":"bob","order_id":2,"order_user_id":101,"order_shop_id":11,"quantity":null,"region":null}
{"_KEY_order_id":3,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"buyer":"carol","order_id":3,"order_user_id":100,"order_shop_id":null,"quantity":null,"region":null}
{"_KEY_order_id":4,"_SEQUENCE_NUMBER":0,"_VALUE_KIND":0,"buyer":"dave","order_id":4,"order_user_id":null,"order_shop_id":12,"quantity":null,"region":null}
{"_KEY_order_id":6,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"buyer":"frank","order_id":6,"order_user_id":103,"order_shop_id":11,"quantity":2,"region":null}
{"_KEY_order_id":7,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"buyer":"grace","order_id":7,"order_user_id":100,"order_shop_id":12,"quantity":null,"region":null}
{"_KEY_order_id":8,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"buyer":"heidi","order_id":8,"order_user_id":104,"order_shop_id":null,"quantity":5,"region":null}
{"_KEY_order_id":9,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"buyer":"ivan","order_id":9,"order_user_id":101,"order_shop_id":10,"quantity":2147483647,"region":null}
{"_KEY_order_id":10,"_SEQUENCE_NUMBER":1,"_VALUE_KIND":0,"buyer":"judy","order_id":10,"order_user_id":105,"order_shop_id":11,"quantity":3000000000,"region":null}
{"_KEY_order_id":11,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":0,"buyer":null,"order_id":11,"order_user_id":100,"order_shop_id":12,"quantity":1,"region":null}
{"_KEY_order_id":12,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":0,"buyer":"mallory","order_id":12,"order_user_id":106,"order_shop_id":10,"quantity":null,"region":null}
{"_KEY_order_id":3,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":2,"buyer":"carol","order_id":3,"order_user_id":100,"order_shop_id":11,"quantity":4,"region":null}
{"_KEY_order_id":4,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":3,"buyer":"dave","order_id":4,"order_user_id":null,"order_shop_id":12,"quantity":null,"region":null}
{"_KEY_order_id":13,"_SEQUENCE_NUMBER":2,"_VALUE_KIND":0,"buyer":"zoe","order_id":13,"order_user_id":107,"order_shop_id":null,"quantity":6000000000,"region":"eu"}
`
	if out != want {
		t.Errorf("rows:\n%s\nwant\n%s", out, want)
	}
}

// TestEvolveTableRoundTripIceberg evolves a copy of testdata/orders through
// five changes with `lakecat evolve` (add region, rename customer to buyer,
// widen amount to decimal(20, 2), delete note, move buyer first), writes a
// data file under the new schema 3, commits it as a fourth snapshot (a
// manifest with its ADDED entry, a manifest list naming the three earlier
// manifests and the new one, and the next metadata file), then reads the
// table with `lakecat cat`: the files of schemas 0-2 come back renamed,
// promoted (price float → double, amount decimal(9, 2) → decimal(20, 2),
// order_shop_id int → long), note gone and region null; the new file as
// written.
func TestEvolveTableRoundTripIceberg(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, filepath.Join("..", "..", "testdata", "orders"), dir)

	out, errOut, code := runCLI(t, "evolve", dir,
		"--add", "region string", "--rename", "customer=buyer", "--type", "amount=decimal(20, 2)",
		"--delete", "note", "--move", "buyer first")
	if code != exitOK {
		t.Fatalf("evolve: exit %d: %s", code, errOut)
	}
	want := `schema 2 → 3
~ 2 buyer: string  (renamed from customer, moved)
  4 order_shop_id: long
  1 order_id: required long
  5 price: double
~ 6 amount: decimal(20, 2)  (type decimal(18, 2) → decimal(20, 2))
  8 channel: string
+ 9 region: string
- 7 note: string
committed ` + filepath.Join(dir, "metadata", "v2.metadata.json") + " (last-column-id 9)\n"
	if out != want {
		t.Fatalf("evolve output:\n%s\nwant\n%s", out, want)
	}
	tbl, err := iceberg.Open(context.Background(), storage.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	md := tbl.Metadata
	cur := md.CurrentSchema()
	if md.CurrentSchemaID != 3 || md.LastColumnID != 9 || len(cur.Fields) != 7 {
		t.Fatalf("current schema %d, last-column-id %d, %d fields", md.CurrentSchemaID, md.LastColumnID, len(cur.Fields))
	}

	const dataRel = "data/00003-orders-schema3.parquet"
	writeUnderSchema(t, cur, filepath.Join(dir, filepath.FromSlash(dataRel)),
		`[{"buyer":"zoe","order_shop_id":7,"order_id":7,"price":1.25,"amount":"123456789012345678.90","channel":"kiosk","region":"eu"}]`)
	st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(dataRel)))
	if err != nil {
		t.Fatal(err)
	}

	// The new snapshot: its manifest is orders-m2.avro's entry with the
	// new file (sequence numbers stay null: inherited from the list).
	const (
		parentID = int64(6431527130592519003)
		snapID   = int64(6431527130592519004)
		seq      = int64(4)
		firstRow = int64(6)
		loc      = "orders/"
	)
	mdir := filepath.Join(dir, "metadata")
	mSchema, mMeta, entries := readAvroFile(t, filepath.Join(mdir, "orders-m2.avro"))
	entry := entries[0]
	entry["snapshot_id"] = snapID
	df := entry["data_file"].(map[string]any)
	df["file_path"] = loc + dataRel
	df["record_count"] = int64(1)
	df["file_size_in_bytes"] = st.Size()
	mMeta["schema-id"] = []byte("3")
	mLen := writeAvroFile(t, filepath.Join(mdir, "orders-m3.avro"), mSchema, mMeta, []map[string]any{entry})

	lSchema, lMeta, lists := readAvroFile(t, filepath.Join(mdir, "snap-6431527130592519003-1-orders.avro"))
	last := map[string]any{}
	for k, v := range lists[len(lists)-1] {
		last[k] = v
	}
	last["manifest_path"] = loc + "metadata/orders-m3.avro"
	last["manifest_length"] = mLen
	last["sequence_number"] = seq
	last["min_sequence_number"] = seq
	last["added_snapshot_id"] = snapID
	last["added_rows_count"] = int64(1)
	last["first_row_id"] = firstRow
	lMeta["snapshot-id"] = []byte("6431527130592519004")
	lMeta["parent-snapshot-id"] = []byte("6431527130592519003")
	lMeta["sequence-number"] = []byte("4")
	const listRel = "metadata/snap-6431527130592519004-1-orders.avro"
	writeAvroFile(t, filepath.Join(dir, filepath.FromSlash(listRel)), lSchema, lMeta, append(lists, last))

	next := *md
	parent, schemaID := parentID, 3
	const ts = int64(1767225780000)
	next.Snapshots = append(slices.Clip(md.Snapshots), iceberg.Snapshot{
		SnapshotID: snapID, ParentSnapshotID: &parent, SequenceNumber: seq, TimestampMs: ts,
		ManifestList: loc + listRel, SchemaID: &schemaID,
		Summary: map[string]string{"operation": "append", "added-data-files": "1", "added-records": "1"},
		Extra:   map[string]json.RawMessage{"first-row-id": json.RawMessage("6"), "added-rows": json.RawMessage("1")},
	})
	next.SnapshotLog = append(slices.Clip(md.SnapshotLog), iceberg.SnapshotLogEntry{TimestampMs: ts, SnapshotID: snapID})
	id := snapID
	next.CurrentSnapshotID = &id
	next.LastSequenceNumber = seq
	next.Extra = maps.Clone(md.Extra)
	next.Extra["next-row-id"] = json.RawMessage("7")
	name, err := tbl.CommitMetadata(context.Background(), storage.OSFS{}, &next, time.UnixMilli(ts))
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(name) != "v3.metadata.json" {
		t.Errorf("committed %s, want v3.metadata.json", name)
	}

	out, errOut, code = runCLI(t, "cat", dir, "--format", "jsonl", "--workers", "1")
	if code != exitOK {
		t.Fatalf("cat: exit %d: %s", code, errOut)
	}
	// channel's initial-default "web" fills the files written before it
	// was added; the new file's amount does not fit decimal(18, 2).
	want = `{"buyer":"alice","order_shop_id":100,"order_id":1,"price":9.5,"amount":"12.34","channel":"web","region":null}
{"buyer":"bob","order_shop_id":null,"order_id":2,"price":20.25,"amount":"-0.50","channel":"web","region":null}
{"buyer":"carol","order_shop_id":5000000000,"order_id":3,"price":1.5,"amount":null,"channel":"web","region":null}
{"buyer":null,"order_shop_id":101,"order_id":4,"price":3,"amount":"999.99","channel":"web","region":null}
{"buyer":"dave","order_shop_id":102,"order_id":5,"price":0.1,"amount":"1234567890.12","channel":"app","region":null}
{"buyer":"erin","order_shop_id":null,"order_id":6,"price":null,"amount":"0.07","channel":null,"region":null}
{"buyer":"zoe","order_shop_id":7,"order_id":7,"price":1.25,"amount":"123456789012345678.90","channel":"kiosk","region":"eu"}
`
	if out != want {
		t.Errorf("rows:\n%s\nwant\n%s", out, want)
	}
}
