// Package icebergwrite writes small Iceberg tables for tests and
// generators: Parquet data and delete files (parquet-go), Puffin deletion
// vectors, one manifest per commit and content, manifest lists and a
// v1.metadata.json, all as the Iceberg table spec lays them out ("Manifests",
// "Manifest Lists", "Table Metadata"). It is deterministic: the same calls
// write the same bytes. It is not a general writer: no statistics, no
// compaction, no concurrency.
package icebergwrite

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/hamba/avro/v2"
	"github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat/formats/puffin"
)

// Content values of data_file.content.
const (
	Data            = 0
	PositionDeletes = 1
	EqualityDeletes = 2
)

// Table is a table being written under Dir, whose metadata records the
// location Location (stored paths start with it; readers re-root them at
// the folder they open).
type Table struct {
	Dir, Location string
	FormatVersion int
	// Schemas are Iceberg schema JSON objects; the last is current.
	Schemas []string
	// Specs are partition spec JSON objects; the last is the default.
	Specs []Spec
	// LastColumnID is last-column-id.
	LastColumnID int
	// Properties are the table properties (nil: none), e.g.
	// schema.name-mapping.default for data files without field ids.
	Properties map[string]string

	// Summaries, when set, gives the manifest list's partition field
	// summaries (Iceberg spec, "Manifest Lists", field_summary) of each
	// manifest Commit writes, from the spec id, content and files of that
	// manifest: one per partition field of the spec, or nil for none.
	// Unset, the manifest list has no partitions field.
	Summaries func(specID, content int, files []File) []FieldSummary

	seq       int64
	manifests []manifestFile
	snapshots []string
}

// Spec is a partition spec: its JSON and its partition fields, for the
// manifests' partition struct.
type Spec struct {
	ID     int
	Fields []PartitionField
}

// PartitionField is an identity-like partition field of Avro type Type
// ("int", "long", "string").
type PartitionField struct {
	Name     string
	FieldID  int
	SourceID int
	Type     string
}

// FieldSummary is one partition field's field_summary in a manifest list:
// Lower and Upper in the single-value binary form (nil: not written).
type FieldSummary struct {
	ContainsNull bool
	Lower, Upper []byte
}

// File is a data or delete file to commit.
type File struct {
	Content     int
	Path        string // stored path (under Location)
	Format      string
	Records     int64
	Size        int64
	SpecID      int
	Partition   map[string]any // by partition field name
	EqualityIDs []int
	Referenced  string // referenced_data_file, or ""
	// ContentOffset and ContentSize locate a deletion vector (v3).
	ContentOffset, ContentSize *int64
}

// WriteParquet writes rows to Dir/name as Parquet (row groups of at most
// rowGroupRows rows when > 0) and returns the file as a data file of
// spec 0 (set Content, SpecID, Partition, EqualityIDs as needed).
func WriteParquet[T any](t *Table, name string, rows []T, rowGroupRows int) (File, error) {
	var buf bytes.Buffer
	opts := []parquet.WriterOption{parquet.Compression(&parquet.Snappy), parquet.CreatedBy("lakecat-testdata", "1", "")}
	if rowGroupRows > 0 {
		opts = append(opts, parquet.MaxRowsPerRowGroup(int64(rowGroupRows)))
	}
	w := parquet.NewGenericWriter[T](&buf, opts...)
	if _, err := w.Write(rows); err != nil {
		return File{}, err
	}
	if err := w.Close(); err != nil {
		return File{}, err
	}
	if err := t.writeFile(name, buf.Bytes()); err != nil {
		return File{}, err
	}
	return File{Path: t.Stored(name), Format: "PARQUET", Records: int64(len(rows)), Size: int64(buf.Len()), Partition: map[string]any{}}, nil
}

// WriteParquetWith is [WriteParquet] with parquet-go writer options of
// the caller's (row groups, page sizes) after the default ones.
func WriteParquetWith[T any](t *Table, name string, rows []T, opts ...parquet.WriterOption) (File, error) {
	var buf bytes.Buffer
	all := append([]parquet.WriterOption{parquet.Compression(&parquet.Snappy), parquet.CreatedBy("lakecat-testdata", "1", "")}, opts...)
	w := parquet.NewGenericWriter[T](&buf, all...)
	if _, err := w.Write(rows); err != nil {
		return File{}, err
	}
	if err := w.Close(); err != nil {
		return File{}, err
	}
	if err := t.writeFile(name, buf.Bytes()); err != nil {
		return File{}, err
	}
	return File{Path: t.Stored(name), Format: "PARQUET", Records: int64(len(rows)), Size: int64(buf.Len()), Partition: map[string]any{}}, nil
}

// PositionDelete is a row of a position delete file.
type PositionDelete struct {
	FilePath string `parquet:"file_path,id(2147483546)"`
	Pos      int64  `parquet:"pos,id(2147483545)"`
}

// WritePositionDeletes writes a Parquet position delete file.
func WritePositionDeletes(t *Table, name string, rows []PositionDelete) (File, error) {
	f, err := WriteParquet(t, name, rows, 0)
	f.Content = PositionDeletes
	return f, err
}

// WriteDeletionVector writes a Puffin file at name holding one deletion
// vector of positions for the data file dataPath (stored path) and returns
// it as a delete file.
func WriteDeletionVector(t *Table, name, dataPath string, positions ...uint64) (File, error) {
	bm := roaring64.BitmapOf(positions...)
	var buf bytes.Buffer
	locs, err := puffin.WriteDeletionVectors(&buf, []puffin.DeletionVectorBlob{{ReferencedDataFile: dataPath, Cardinality: int64(bm.GetCardinality()), Blob: puffin.EncodeDeletionVector(bm)}})
	if err != nil {
		return File{}, err
	}
	if err := t.writeFile(name, buf.Bytes()); err != nil {
		return File{}, err
	}
	off, n := locs[0].Offset, locs[0].Length
	return File{Content: PositionDeletes, Path: t.Stored(name), Format: "PUFFIN", Records: int64(bm.GetCardinality()), Size: int64(buf.Len()),
		Partition: map[string]any{}, Referenced: dataPath, ContentOffset: &off, ContentSize: &n}, nil
}

// Stored returns the stored path of name: Location/name.
func (t *Table) Stored(name string) string { return strings.TrimSuffix(t.Location, "/") + "/" + name }

func (t *Table) writeFile(name string, b []byte) error {
	p := filepath.Join(t.Dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}

type manifestFile struct {
	path            string
	length          int64
	specID          int
	content         int
	seq             int64
	addedSnapshotID int64
	added           int
	rows            int64
	summaries       []FieldSummary
}

// Commit adds the files as one snapshot with the next sequence number: one
// manifest per (content, spec) of the files, entries ADDED with null
// sequence numbers (inherited), and a manifest list naming every manifest
// committed so far.
func (t *Table) Commit(files ...File) error {
	t.seq++
	seq := t.seq
	snapID := 1000 + seq
	type group struct {
		content, spec int
	}
	var order []group
	groups := map[group][]File{}
	for _, f := range files {
		g := group{0, f.SpecID}
		if f.Content != Data {
			g.content = 1
		}
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], f)
	}
	for k, g := range order {
		name := fmt.Sprintf("metadata/m-%d-%d.avro", seq, k)
		n, err := t.writeManifest(name, g.spec, g.content, snapID, groups[g])
		if err != nil {
			return err
		}
		var rows int64
		for _, f := range groups[g] {
			rows += f.Records
		}
		mf := manifestFile{path: t.Stored(name), length: n, specID: g.spec, content: g.content,
			seq: seq, addedSnapshotID: snapID, added: len(groups[g]), rows: rows}
		if t.Summaries != nil {
			mf.summaries = t.Summaries(g.spec, g.content, groups[g])
		}
		t.manifests = append(t.manifests, mf)
	}
	list := fmt.Sprintf("metadata/snap-%d.avro", snapID)
	var recs []map[string]any
	for _, m := range t.manifests {
		rec := map[string]any{
			"manifest_path": m.path, "manifest_length": m.length, "partition_spec_id": m.specID, "content": m.content,
			"sequence_number": m.seq, "min_sequence_number": m.seq, "added_snapshot_id": m.addedSnapshotID,
			"added_files_count": m.added, "existing_files_count": 0, "deleted_files_count": 0,
			"added_rows_count": m.rows, "existing_rows_count": int64(0), "deleted_rows_count": int64(0),
		}
		if t.Summaries != nil {
			rec["partitions"] = summariesAvro(m.summaries)
		}
		recs = append(recs, rec)
	}
	listSchema := ManifestListSchema
	if t.Summaries != nil {
		listSchema = manifestListSchemaWithSummaries
	}
	if _, err := t.writeOCF(list, listSchema, map[string][]byte{"snapshot-id": []byte(fmt.Sprint(snapID)),
		"sequence-number": []byte(fmt.Sprint(seq)), "format-version": []byte(fmt.Sprint(t.FormatVersion))}, recs); err != nil {
		return err
	}
	parent := ""
	if seq > 1 {
		parent = fmt.Sprintf(`"parent-snapshot-id": %d, `, snapID-1)
	}
	t.snapshots = append(t.snapshots, fmt.Sprintf(`{"snapshot-id": %d, %s"sequence-number": %d, "timestamp-ms": %d, "manifest-list": %q, "summary": {"operation": "overwrite"}, "schema-id": %d}`,
		snapID, parent, seq, 1767225600000+seq*1000, t.Stored(list), len(t.Schemas)-1))
	return nil
}

func (t *Table) writeManifest(name string, specID, content int, snapID int64, files []File) (int64, error) {
	var spec Spec
	specJSON := "[]"
	for _, s := range t.Specs {
		if s.ID == specID {
			spec = s
			b, _ := json.Marshal(s.fieldsJSON())
			specJSON = string(b)
		}
	}
	var pf []string
	for _, f := range spec.Fields {
		pf = append(pf, fmt.Sprintf(`{"name": %q, "type": ["null", %q], "default": null, "field-id": %d}`, f.Name, f.Type, f.FieldID))
	}
	sch := ManifestEntrySchema(pf)
	var recs []map[string]any
	for _, f := range files {
		part := map[string]any{}
		for _, p := range spec.Fields {
			part[p.Name] = f.Partition[p.Name]
		}
		ids := []any{}
		for _, id := range f.EqualityIDs {
			ids = append(ids, id)
		}
		df := map[string]any{
			"content": f.Content, "file_path": f.Path, "file_format": f.Format, "partition": part,
			"record_count": f.Records, "file_size_in_bytes": f.Size, "equality_ids": ids,
			"referenced_data_file": nil, "content_offset": nil, "content_size_in_bytes": nil,
		}
		if f.Referenced != "" {
			df["referenced_data_file"] = f.Referenced
		}
		if f.ContentOffset != nil {
			df["content_offset"] = *f.ContentOffset
			df["content_size_in_bytes"] = *f.ContentSize
		}
		recs = append(recs, map[string]any{"status": 1, "snapshot_id": snapID, "sequence_number": nil, "file_sequence_number": nil, "data_file": df})
	}
	kind := "data"
	if content != 0 {
		kind = "deletes"
	}
	return t.writeOCF(name, sch, map[string][]byte{
		"schema": []byte(t.Schemas[len(t.Schemas)-1]), "partition-spec": []byte(specJSON), "partition-spec-id": []byte(fmt.Sprint(specID)),
		"format-version": []byte(fmt.Sprint(t.FormatVersion)), "content": []byte(kind),
	}, recs)
}

func (s Spec) fieldsJSON() []map[string]any {
	out := []map[string]any{}
	for _, f := range s.Fields {
		out = append(out, map[string]any{"name": f.Name, "transform": "identity", "source-id": f.SourceID, "field-id": f.FieldID})
	}
	return out
}

// WriteMetadata writes metadata/v1.metadata.json and version-hint.text.
func (t *Table) WriteMetadata() error {
	var specs []string
	lastPart := 999
	for _, s := range t.Specs {
		b, _ := json.Marshal(map[string]any{"spec-id": s.ID, "fields": s.fieldsJSON()})
		specs = append(specs, string(b))
		for _, f := range s.Fields {
			lastPart = max(lastPart, f.FieldID)
		}
	}
	props := []byte("{}")
	if len(t.Properties) > 0 {
		props, _ = json.Marshal(t.Properties)
	}
	cur := ""
	if len(t.snapshots) > 0 {
		cur = fmt.Sprintf(`"current-snapshot-id": %d,`, 1000+t.seq)
	}
	md := fmt.Sprintf(`{
  "format-version": %d,
  "table-uuid": "7d1c2e3f-4a5b-4c6d-8e7f-%012d",
  "location": %q,
  "last-sequence-number": %d,
  "last-updated-ms": 1767225600000,
  "last-column-id": %d,
  "current-schema-id": %d,
  "schemas": [%s],
  "default-spec-id": %d,
  "partition-specs": [%s],
  "last-partition-id": %d,
  "default-sort-order-id": 0,
  "sort-orders": [{"order-id": 0, "fields": []}],
  "properties": %s,
  %s
  "snapshots": [%s],
  "snapshot-log": [],
  "metadata-log": []
}
`, t.FormatVersion, len(t.Location), t.Location, t.seq, t.LastColumnID, len(t.Schemas)-1, strings.Join(t.Schemas, ", "),
		t.Specs[len(t.Specs)-1].ID, strings.Join(specs, ", "), lastPart, props, cur, strings.Join(t.snapshots, ",\n    "))
	if err := t.writeFile("metadata/v1.metadata.json", []byte(md)); err != nil {
		return err
	}
	return t.writeFile("metadata/version-hint.text", []byte("1"))
}

// writeOCF writes an Avro object container file (codec null, one block)
// with the header keys sorted and a sync marker derived from its name, so
// the bytes are deterministic, and returns its size.
func (t *Table) writeOCF(name, schemaJSON string, meta map[string][]byte, recs []map[string]any) (int64, error) {
	sc, err := avro.ParseWithCache(schemaJSON, "", &avro.SchemaCache{})
	if err != nil {
		return 0, err
	}
	var body []byte
	for _, r := range recs {
		b, err := avro.Marshal(sc, r)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", name, err)
		}
		body = append(body, b...)
	}
	meta["avro.schema"] = []byte(schemaJSON)
	meta["avro.codec"] = []byte("null")
	keys := make([]string, 0, len(meta))
	for k := range meta {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	sync := sha256.Sum256([]byte(name))
	var out bytes.Buffer
	out.WriteString("Obj\x01")
	putLong(&out, int64(len(keys)))
	for _, k := range keys {
		putBytes(&out, []byte(k))
		putBytes(&out, meta[k])
	}
	putLong(&out, 0)
	out.Write(sync[:16])
	putLong(&out, int64(len(recs)))
	putLong(&out, int64(len(body)))
	out.Write(body)
	out.Write(sync[:16])
	return int64(out.Len()), t.writeFile(name, out.Bytes())
}

func putLong(b *bytes.Buffer, v int64) {
	var tmp [binary.MaxVarintLen64]byte
	b.Write(tmp[:binary.PutVarint(tmp[:], v)]) // zigzag varint, as Avro encodes long
}

func putBytes(b *bytes.Buffer, v []byte) {
	putLong(b, int64(len(v)))
	b.Write(v)
}

// ManifestListSchema is the Avro schema of a manifest list (Iceberg spec,
// "Manifest Lists", format v2/v3 fields), with field ids: the one copy the
// test writers and the benchmarks write manifest lists with.
const ManifestListSchema = `{"type":"record","name":"manifest_file","fields":[
 {"name":"manifest_path","type":"string","field-id":500},
 {"name":"manifest_length","type":"long","field-id":501},
 {"name":"partition_spec_id","type":"int","field-id":502},
 {"name":"content","type":"int","field-id":517},
 {"name":"sequence_number","type":"long","field-id":515},
 {"name":"min_sequence_number","type":"long","field-id":516},
 {"name":"added_snapshot_id","type":"long","field-id":503},
 {"name":"added_files_count","type":"int","field-id":504},
 {"name":"existing_files_count","type":"int","field-id":505},
 {"name":"deleted_files_count","type":"int","field-id":506},
 {"name":"added_rows_count","type":"long","field-id":512},
 {"name":"existing_rows_count","type":"long","field-id":513},
 {"name":"deleted_rows_count","type":"long","field-id":514}]}`

// manifestListSchemaWithSummaries is [ManifestListSchema] with the
// optional partitions field (507): a list of field_summary records (508).
var manifestListSchemaWithSummaries = strings.TrimSuffix(ManifestListSchema, "]}") + `,
 {"name":"partitions","type":["null",{"type":"array","element-id":508,"items":{"type":"record","name":"r508","fields":[
  {"name":"contains_null","type":"boolean","field-id":509},
  {"name":"lower_bound","type":["null","bytes"],"default":null,"field-id":510},
  {"name":"upper_bound","type":["null","bytes"],"default":null,"field-id":511}]}}],"default":null,"field-id":507}]}`

// summariesAvro returns the Avro value of a partitions field: nil (null)
// for no summaries.
func summariesAvro(sums []FieldSummary) any {
	if sums == nil {
		return nil
	}
	out := make([]any, 0, len(sums))
	for _, fs := range sums {
		r := map[string]any{"contains_null": fs.ContainsNull, "lower_bound": nil, "upper_bound": nil}
		if fs.Lower != nil {
			r["lower_bound"] = fs.Lower
		}
		if fs.Upper != nil {
			r["upper_bound"] = fs.Upper
		}
		out = append(out, r)
	}
	return out
}

// ManifestEntrySchema returns the Avro schema of manifest entries (Iceberg
// spec, "Manifests", format v2/v3 fields), with field ids, whose partition
// record has partitionFields (the JSON of one Avro record field each, with
// its "field-id"; none for an unpartitioned table).
func ManifestEntrySchema(partitionFields []string) string {
	return strings.Replace(manifestEntrySchema, "PARTITION_FIELDS", strings.Join(partitionFields, ","), 1)
}

const manifestEntrySchema = `{"type":"record","name":"manifest_entry","fields":[
 {"name":"status","type":"int","field-id":0},
 {"name":"snapshot_id","type":["null","long"],"default":null,"field-id":1},
 {"name":"sequence_number","type":["null","long"],"default":null,"field-id":3},
 {"name":"file_sequence_number","type":["null","long"],"default":null,"field-id":4},
 {"name":"data_file","field-id":2,"type":{"type":"record","name":"r2","fields":[
  {"name":"content","type":"int","field-id":134},
  {"name":"file_path","type":"string","field-id":100},
  {"name":"file_format","type":"string","field-id":101},
  {"name":"partition","field-id":102,"type":{"type":"record","name":"r102","fields":[PARTITION_FIELDS]}},
  {"name":"record_count","type":"long","field-id":103},
  {"name":"file_size_in_bytes","type":"long","field-id":104},
  {"name":"equality_ids","type":{"type":"array","items":"int","element-id":136},"field-id":135},
  {"name":"referenced_data_file","type":["null","string"],"default":null,"field-id":143},
  {"name":"content_offset","type":["null","long"],"default":null,"field-id":144},
  {"name":"content_size_in_bytes","type":["null","long"],"default":null,"field-id":145}]}}]}`
