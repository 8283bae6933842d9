// Package paimonwrite writes Paimon table folders for tests, benchmarks and
// the generated testdata/paimon_orders table: schema/schema-N files,
// snapshot/snapshot-N with LATEST and EARLIEST, and manifest lists and
// manifests in Avro with the record schemas Paimon Java writes (Paimon docs,
// "Specification": Schema, Snapshot, Manifest). Data files are written by the
// caller (Parquet with field ids) into [Writer.DataFilePath]; Commit records
// them as ADD entries.
//
// Everything is deterministic: file names come from counters, the Avro sync
// marker is fixed and times are the caller's, so regenerating a table writes
// the same bytes. It writes append commits only (no DELETE entries, no index
// manifest; statistics only where the caller gives them, [DataFile.KeyStats]
// and [DataFile.ValueStats]).
package paimonwrite

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/hamba/avro/v2"

	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/paimon"
)

// manifestSchema is the Avro schema of a Paimon manifest file
// (ManifestEntry, format version 2, as Paimon 1.x writes it).
const manifestSchema = `{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[
{"name":"_VERSION","type":"int"},{"name":"_KIND","type":"int"},{"name":"_PARTITION","type":"bytes"},
{"name":"_BUCKET","type":"int"},{"name":"_TOTAL_BUCKETS","type":"int"},
{"name":"_FILE","type":{"type":"record","name":"record__FILE","fields":[
{"name":"_FILE_NAME","type":"string"},{"name":"_FILE_SIZE","type":"long"},{"name":"_ROW_COUNT","type":"long"},
{"name":"_MIN_KEY","type":"bytes"},{"name":"_MAX_KEY","type":"bytes"},
{"name":"_KEY_STATS","type":{"type":"record","name":"record__FILE__KEY_STATS","fields":[{"name":"_MIN_VALUES","type":"bytes"},{"name":"_MAX_VALUES","type":"bytes"},{"name":"_NULL_COUNTS","type":["null",{"type":"array","items":["null","long"]}],"default":null}]}},
{"name":"_VALUE_STATS","type":{"type":"record","name":"record__FILE__VALUE_STATS","fields":[{"name":"_MIN_VALUES","type":"bytes"},{"name":"_MAX_VALUES","type":"bytes"},{"name":"_NULL_COUNTS","type":["null",{"type":"array","items":["null","long"]}],"default":null}]}},
{"name":"_MIN_SEQUENCE_NUMBER","type":"long"},{"name":"_MAX_SEQUENCE_NUMBER","type":"long"},{"name":"_SCHEMA_ID","type":"long"},
{"name":"_LEVEL","type":"int"},{"name":"_EXTRA_FILES","type":{"type":"array","items":"string"}},
{"name":"_CREATION_TIME","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null},
{"name":"_DELETE_ROW_COUNT","type":["null","long"],"default":null},{"name":"_EMBEDDED_FILE_INDEX","type":["null","bytes"],"default":null},
{"name":"_FILE_SOURCE","type":["null","int"],"default":null},{"name":"_VALUE_STATS_COLS","type":["null",{"type":"array","items":"string"}],"default":null},
{"name":"_EXTERNAL_PATH","type":["null","string"],"default":null}]}}]}`

// manifestListSchema is the Avro schema of a manifest list (ManifestFileMeta).
const manifestListSchema = `{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[
{"name":"_VERSION","type":"int"},{"name":"_FILE_NAME","type":"string"},{"name":"_FILE_SIZE","type":"long"},
{"name":"_NUM_ADDED_FILES","type":"long"},{"name":"_NUM_DELETED_FILES","type":"long"},
{"name":"_PARTITION_STATS","type":{"type":"record","name":"record__PARTITION_STATS","fields":[{"name":"_MIN_VALUES","type":"bytes"},{"name":"_MAX_VALUES","type":"bytes"},{"name":"_NULL_COUNTS","type":["null",{"type":"array","items":["null","long"]}],"default":null}]}},
{"name":"_SCHEMA_ID","type":"long"},{"name":"_MIN_BUCKET","type":["null","int"],"default":null},{"name":"_MAX_BUCKET","type":["null","int"],"default":null},
{"name":"_MIN_LEVEL","type":["null","int"],"default":null},{"name":"_MAX_LEVEL","type":["null","int"],"default":null}]}`

var (
	manifestAvro     = avro.MustParse(manifestSchema)
	manifestListAvro = avro.MustParse(manifestListSchema)
	syncMarker       = [16]byte{'l', 'a', 'k', 'e', 'c', 'a', 't', '-', 'p', 'a', 'i', 'm', 'o', 'n', '-', 'w'}
)

// EmptyRow is the serialized BinaryRow of an unpartitioned table's
// partition: arity 0 and an 8-byte header.
var EmptyRow = make([]byte, 12)

// DataFile is one data file a commit adds.
type DataFile struct {
	// Name is the file name, already written at DataFilePath(Bucket, Name).
	Name string
	// Bucket and TotalBuckets as Paimon records them (TotalBuckets -1 for
	// bucket-unaware append tables).
	Bucket, TotalBuckets int
	// SchemaID is the id of the schema the file was written with.
	SchemaID int64
	// RowCount is the number of rows; MinSequence and MaxSequence bound
	// their sequence numbers.
	RowCount, MinSequence, MaxSequence int64
	// Level is the LSM level (0 for new files).
	Level int
	// DeleteRowCount is the number of retract rows (0 for inserts only).
	DeleteRowCount int64
	// MinKey and MaxKey are the smallest and largest key ([KeyRow]); nil
	// writes an empty row, which a reader cannot compare.
	MinKey, MaxKey []byte
	// KeyStats and ValueStats are the file's _KEY_STATS and _VALUE_STATS;
	// nil writes empty ones. ValueStatsCols names the columns ValueStats
	// cover (nil: every column of the file's schema, written as null;
	// with ValueStats nil it is written empty).
	KeyStats, ValueStats *Stats
	ValueStatsCols       []string
}

// Stats are a file's statistics of some columns, in their order: the
// smallest and largest values as [KeyRow]s (a nil value: not recorded)
// and the null counts (-1: not recorded).
type Stats struct {
	Min, Max   []byte
	NullCounts []int64
}

// avro returns the Avro form of s (empty statistics for nil).
func (s *Stats) avro() map[string]any {
	if s == nil {
		return map[string]any{"_MIN_VALUES": EmptyRow, "_MAX_VALUES": EmptyRow, "_NULL_COUNTS": []any{}}
	}
	nulls := make([]any, len(s.NullCounts))
	for i, n := range s.NullCounts {
		if n >= 0 {
			nulls[i] = n
		}
	}
	return map[string]any{"_MIN_VALUES": s.Min, "_MAX_VALUES": s.Max, "_NULL_COUNTS": nulls}
}

// Writer writes one table folder. Its zero value is not usable; set Dir.
type Writer struct {
	// Dir is the table folder.
	Dir string
	// TimeMillis is the commit time written into every snapshot and schema.
	TimeMillis int64
	// DataDir is the folder of the bucket-N/ data folders (empty: Dir). A
	// branch (Dir = <table>/branch/branch-<name>) shares the table's.
	DataDir string

	snapshot  int64
	files     int // manifest-like files written, for names
	manifests []manifestMeta
	total     int64
}

type manifestMeta struct {
	name     string
	size     int64
	added    int64
	schemaID int64
}

// WriteSchema writes schema/schema-<p.ID>.
func (w *Writer) WriteSchema(p *schema.PaimonSchema) error {
	b, err := schema.MarshalPaimonSchema(p)
	if err != nil {
		return err
	}
	return w.write(filepath.Join("schema", schema.PaimonSchemaFileName(p.ID)), b)
}

// DataFilePath returns the path of a data file of an unpartitioned table:
// DataDir (or Dir)/bucket-<bucket>/<name>. The folder is created.
func (w *Writer) DataFilePath(bucket int, name string) (string, error) {
	root := w.DataDir
	if root == "" {
		root = w.Dir
	}
	dir := filepath.Join(root, "bucket-"+strconv.Itoa(bucket))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}

func (w *Writer) write(rel string, b []byte) error {
	p := filepath.Join(w.Dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}

func (w *Writer) nextName(prefix string) string {
	w.files++
	return fmt.Sprintf("%s-00000000-0000-0000-0000-%012d-0", prefix, w.files)
}

// encodeAvro writes recs as an Avro object container file with one block,
// no codec and a fixed sync marker. The header is written here, keys in a
// fixed order, because a map-ordered header would change between runs.
func encodeAvro(s avro.Schema, recs []map[string]any) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("Obj\x01")
	putLong(&buf, 2)
	for _, kv := range [][2]string{{"avro.schema", s.String()}, {"avro.codec", "null"}} {
		putLong(&buf, int64(len(kv[0])))
		buf.WriteString(kv[0])
		putLong(&buf, int64(len(kv[1])))
		buf.WriteString(kv[1])
	}
	putLong(&buf, 0)
	buf.Write(syncMarker[:])
	var block bytes.Buffer
	for _, r := range recs {
		b, err := avro.Marshal(s, r)
		if err != nil {
			return nil, err
		}
		block.Write(b)
	}
	putLong(&buf, int64(len(recs)))
	putLong(&buf, int64(block.Len()))
	buf.Write(block.Bytes())
	buf.Write(syncMarker[:])
	return buf.Bytes(), nil
}

// putLong appends an Avro long (zig-zag varint).
func putLong(buf *bytes.Buffer, v int64) {
	u := uint64((v << 1) ^ (v >> 63))
	for u >= 0x80 {
		buf.WriteByte(byte(u) | 0x80)
		u >>= 7
	}
	buf.WriteByte(byte(u))
}

// Commit appends a snapshot (commit kind APPEND) under schemaID that adds
// files, all unpartitioned: one manifest with their ADD entries, a base
// manifest list naming every earlier manifest and a delta manifest list
// naming the new one, snapshot-N, and LATEST and EARLIEST.
func (w *Writer) Commit(schemaID int64, files []DataFile) error {
	return w.commit(schemaID, files, "")
}

// indexManifestSchema is the Avro schema of an index manifest
// (IndexManifestEntry with deletion-vector ranges).
const indexManifestSchema = `{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[
{"name":"_VERSION","type":"int"},{"name":"_KIND","type":"int"},{"name":"_PARTITION","type":"bytes"},{"name":"_BUCKET","type":"int"},
{"name":"_INDEX_TYPE","type":"string"},{"name":"_FILE_NAME","type":"string"},{"name":"_FILE_SIZE","type":"long"},{"name":"_ROW_COUNT","type":"long"},
{"name":"_DELETIONS_VECTORS_RANGES","type":["null",{"type":"array","items":{"type":"record","name":"record__DELETIONS_VECTORS_RANGES","fields":[
{"name":"f0","type":"string"},{"name":"f1","type":"int"},{"name":"f2","type":"int"},{"name":"_CARDINALITY","type":["null","long"],"default":null}]}}],"default":null}]}`

var indexManifestAvro = avro.MustParse(indexManifestSchema)

// DeletionVector is the deleted row positions of one data file of bucket 0.
type DeletionVector struct {
	DataFile string
	Deleted  []uint32
}

// CommitDeletionVectors commits files like [Writer.Commit] and writes one
// DELETION_VECTORS index file of dvs (a version byte 1, then each vector
// as paimon.EncodeDeletionVector lays it out) under index/, with an index
// manifest naming it and each vector's offset, length and cardinality.
func (w *Writer) CommitDeletionVectors(schemaID int64, files []DataFile, dvs []DeletionVector) error {
	body := []byte{1}
	var ranges []any
	for _, dv := range dvs {
		bm := roaring.BitmapOf(dv.Deleted...)
		b, n, err := paimon.EncodeDeletionVector(bm)
		if err != nil {
			return err
		}
		card := int64(bm.GetCardinality())
		ranges = append(ranges, map[string]any{"f0": dv.DataFile, "f1": len(body), "f2": int(n), "_CARDINALITY": &card})
		body = append(body, b...)
	}
	name := w.nextName("index")
	if err := w.write(filepath.Join("index", name), body); err != nil {
		return err
	}
	mb, err := encodeAvro(indexManifestAvro, []map[string]any{{
		"_VERSION": 1, "_KIND": 0, "_PARTITION": EmptyRow, "_BUCKET": 0, "_INDEX_TYPE": "DELETION_VECTORS",
		"_FILE_NAME": name, "_FILE_SIZE": int64(len(body)), "_ROW_COUNT": int64(len(dvs)), "_DELETIONS_VECTORS_RANGES": ranges,
	}})
	if err != nil {
		return fmt.Errorf("paimonwrite: index manifest: %w", err)
	}
	im := w.nextName("index-manifest")
	if err := w.write(filepath.Join("manifest", im), mb); err != nil {
		return err
	}
	return w.commit(schemaID, files, im)
}

func (w *Writer) commit(schemaID int64, files []DataFile, indexManifest string) error {
	var entries []map[string]any
	var rows int64
	for _, f := range files {
		p, err := w.DataFilePath(f.Bucket, f.Name)
		if err != nil {
			return err
		}
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		rows += f.RowCount
		var cols any = []string{}
		if f.ValueStats != nil {
			cols = nil
			if f.ValueStatsCols != nil {
				cols = f.ValueStatsCols
			}
		}
		minKey, maxKey := f.MinKey, f.MaxKey
		if minKey == nil {
			minKey = EmptyRow
		}
		if maxKey == nil {
			maxKey = EmptyRow
		}
		entries = append(entries, map[string]any{
			"_VERSION": 2, "_KIND": 0, "_PARTITION": EmptyRow, "_BUCKET": f.Bucket, "_TOTAL_BUCKETS": f.TotalBuckets,
			"_FILE": map[string]any{
				"_FILE_NAME": f.Name, "_FILE_SIZE": st.Size(), "_ROW_COUNT": f.RowCount,
				"_MIN_KEY": minKey, "_MAX_KEY": maxKey, "_KEY_STATS": f.KeyStats.avro(), "_VALUE_STATS": f.ValueStats.avro(),
				"_MIN_SEQUENCE_NUMBER": f.MinSequence, "_MAX_SEQUENCE_NUMBER": f.MaxSequence,
				"_SCHEMA_ID": f.SchemaID, "_LEVEL": f.Level, "_EXTRA_FILES": []string{},
				"_CREATION_TIME": nil, "_DELETE_ROW_COUNT": f.DeleteRowCount, "_EMBEDDED_FILE_INDEX": nil,
				"_FILE_SOURCE": 0, "_VALUE_STATS_COLS": cols, "_EXTERNAL_PATH": nil,
			},
		})
	}
	mb, err := encodeAvro(manifestAvro, entries)
	if err != nil {
		return fmt.Errorf("paimonwrite: manifest: %w", err)
	}
	mname := w.nextName("manifest")
	if err := w.write(filepath.Join("manifest", mname), mb); err != nil {
		return err
	}
	list := func(ms []manifestMeta) (string, int64, error) {
		var recs []map[string]any
		for _, m := range ms {
			recs = append(recs, map[string]any{
				"_VERSION": 2, "_FILE_NAME": m.name, "_FILE_SIZE": m.size, "_NUM_ADDED_FILES": m.added,
				"_NUM_DELETED_FILES": int64(0),
				"_PARTITION_STATS":   map[string]any{"_MIN_VALUES": EmptyRow, "_MAX_VALUES": EmptyRow, "_NULL_COUNTS": []any{}},
				"_SCHEMA_ID":         m.schemaID, "_MIN_BUCKET": nil, "_MAX_BUCKET": nil, "_MIN_LEVEL": nil, "_MAX_LEVEL": nil,
			})
		}
		b, err := encodeAvro(manifestListAvro, recs)
		if err != nil {
			return "", 0, fmt.Errorf("paimonwrite: manifest list: %w", err)
		}
		n := w.nextName("manifest-list")
		return n, int64(len(b)), w.write(filepath.Join("manifest", n), b)
	}
	base, baseSize, err := list(w.manifests)
	if err != nil {
		return err
	}
	m := manifestMeta{name: mname, size: int64(len(mb)), added: int64(len(files)), schemaID: schemaID}
	delta, deltaSize, err := list([]manifestMeta{m})
	if err != nil {
		return err
	}
	w.manifests = append(w.manifests, m)
	w.snapshot++
	w.total += rows
	snap := snapshotJSON{Version: 3, ID: w.snapshot, SchemaID: schemaID, BaseManifestList: base, BaseManifestListSize: baseSize,
		DeltaManifestList: delta, DeltaManifestListSize: deltaSize, CommitUser: "lakecat-paimonwrite",
		CommitIdentifier: w.snapshot, CommitKind: "APPEND", TimeMillis: w.TimeMillis, LogOffsets: map[string]int64{},
		TotalRecordCount: w.total, DeltaRecordCount: rows}
	if indexManifest != "" {
		snap.IndexManifest = &indexManifest
	}
	sb, err := json.MarshalIndent(snap, "", "  ")
	if err != nil {
		return err
	}
	if err := w.write(filepath.Join("snapshot", "snapshot-"+strconv.FormatInt(w.snapshot, 10)), sb); err != nil {
		return err
	}
	if err := w.write(filepath.Join("snapshot", "LATEST"), []byte(strconv.FormatInt(w.snapshot, 10))); err != nil {
		return err
	}
	return w.write(filepath.Join("snapshot", "EARLIEST"), []byte("1"))
}

type snapshotJSON struct {
	Version               int              `json:"version"`
	ID                    int64            `json:"id"`
	SchemaID              int64            `json:"schemaId"`
	BaseManifestList      string           `json:"baseManifestList"`
	BaseManifestListSize  int64            `json:"baseManifestListSize"`
	DeltaManifestList     string           `json:"deltaManifestList"`
	DeltaManifestListSize int64            `json:"deltaManifestListSize"`
	ChangelogManifestList *string          `json:"changelogManifestList"`
	CommitUser            string           `json:"commitUser"`
	CommitIdentifier      int64            `json:"commitIdentifier"`
	CommitKind            string           `json:"commitKind"`
	TimeMillis            int64            `json:"timeMillis"`
	LogOffsets            map[string]int64 `json:"logOffsets"`
	TotalRecordCount      int64            `json:"totalRecordCount"`
	DeltaRecordCount      int64            `json:"deltaRecordCount"`
	ChangelogRecordCount  int64            `json:"changelogRecordCount"`
	IndexManifest         *string          `json:"indexManifest,omitempty"`
}

// KeyRow serializes vals (int32, int64 or string) as a Paimon BinaryRow
// with its 4-byte big-endian arity in front, as manifests store a file's
// _MIN_KEY and _MAX_KEY: a null bit set with the row kind header, one
// 8-byte little-endian slot per field, strings of up to 7 bytes inline in
// their slot and longer ones in the variable-length part.
func KeyRow(vals ...any) []byte {
	nullBytes := ((len(vals) + 63 + 8) / 64) * 8
	fixed := nullBytes + 8*len(vals)
	row := make([]byte, fixed)
	for i, v := range vals {
		slot := row[nullBytes+8*i:]
		switch x := v.(type) {
		case int32:
			binary.LittleEndian.PutUint32(slot, uint32(x))
		case int64:
			binary.LittleEndian.PutUint64(slot, uint64(x))
		case string:
			if len(x) <= 7 {
				copy(slot, x)
				slot[7] = 0x80 | byte(len(x))
				continue
			}
			binary.LittleEndian.PutUint64(slot, uint64(len(row))<<32|uint64(len(x)))
			row = append(row, x...)
			for len(row)%8 != 0 {
				row = append(row, 0)
			}
		case nil:
			bit := i + 8
			row[bit>>3] |= 1 << (bit & 7)
		}
	}
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(vals))), row...)
}
