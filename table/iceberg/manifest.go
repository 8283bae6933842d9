package iceberg

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/lakecat/lakecat"
	favro "github.com/lakecat/lakecat/formats/avro"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/internal/avrorec"
)

// ErrCorruptManifest is matched by errors for manifest lists and manifests
// that cannot be decoded.
var ErrCorruptManifest = lakecat.NewSentinel(lakecat.ErrCorrupt, "iceberg: corrupt manifest")

// Content is what a data or delete file holds (Iceberg spec, "Manifests":
// data_file.content).
type Content int

// The contents.
const (
	ContentData            Content = 0
	ContentPositionDeletes Content = 1
	ContentEqualityDeletes Content = 2
)

// String returns "data", "position deletes" or "equality deletes".
func (c Content) String() string {
	switch c {
	case ContentData:
		return "data"
	case ContentPositionDeletes:
		return "position deletes"
	case ContentEqualityDeletes:
		return "equality deletes"
	}
	return fmt.Sprintf("content(%d)", int(c))
}

// Entry statuses (Iceberg spec, "Manifest Entry Fields": status).
const (
	StatusExisting = 0
	StatusAdded    = 1
	StatusDeleted  = 2
)

// ManifestFile is one entry of a manifest list (Iceberg spec, "Manifest
// Lists"). Fields a format-v1 list lacks are zero (Content data, sequence
// numbers 0).
type ManifestFile struct {
	// Path is the manifest's path as stored.
	Path string
	// Length is the manifest's size in bytes.
	Length int64
	// SpecID is the partition spec id the manifest was written with.
	SpecID int
	// Content is 0 for data manifests and 1 for delete manifests.
	Content int
	// SequenceNumber is the sequence number of the commit that added the
	// manifest; ADDED entries with a null sequence number inherit it.
	SequenceNumber int64
	// AddedSnapshotID is the id of the snapshot that added the manifest.
	AddedSnapshotID int64
	// Partitions summarize the partition values of the manifest's files,
	// one per field of its partition spec in order (nil when the list does
	// not store them): see [ManifestMayMatch].
	Partitions []FieldSummary
	// Files is the number of live files the manifest lists (its added and
	// existing files counts), or -1 when the list does not say.
	Files int64
}

// FieldSummary is the manifest list's field_summary of one partition
// field (Iceberg spec, "Manifest Lists"): whether a file has a null (or
// NaN) value for it, and the lowest and highest non-null values in the
// single-value binary form of the field's type (nil: not stored).
type FieldSummary struct {
	ContainsNull bool
	ContainsNaN  *bool
	Lower, Upper []byte
}

// openAvro reads r whole and opens it with avrorec.Open (formats/avro),
// whose [favro.File.Records] decodes its records under that package's caps.
func openAvro(r io.Reader, name string) (*favro.File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return avrorec.Open(data, name)
}

// DecodeManifestList decodes a manifest list (an Avro object container file
// in format v1, v2 or v3), using the writer schema in the file's header.
// Errors match [ErrCorruptManifest], or formats/avro.ErrUnsupported for an
// Avro schema (nested deeper than 128, recursive) or codec it does not read.
func DecodeManifestList(r io.Reader) (out []ManifestFile, err error) {
	f, err := openAvro(r, "manifest list")
	if err != nil {
		return nil, avrorec.OpenError(ErrCorruptManifest, "iceberg: manifest list", err)
	}
	for rec, err := range f.Records(context.Background()) {
		if err != nil {
			return nil, fmt.Errorf("%w: manifest list entry %d: %v", ErrCorruptManifest, len(out), err)
		}
		g := avrorec.Getter{M: rec}
		mf := ManifestFile{
			Path:            g.Str("manifest_path", true),
			Length:          g.I64("manifest_length", true),
			SpecID:          int(g.I64("partition_spec_id", false)),
			Content:         int(g.I64("content", false)),
			SequenceNumber:  g.I64("sequence_number", false),
			AddedSnapshotID: g.I64("added_snapshot_id", false),
		}
		mf.Partitions = fieldSummaries(avrorec.Unwrap(rec["partitions"]))
		mf.Files = -1
		added, ok1 := firstNum(&g, "added_files_count", "added_data_files_count")
		existing, ok2 := firstNum(&g, "existing_files_count", "existing_data_files_count")
		if ok1 && ok2 {
			mf.Files = added + existing
		}
		if g.Err != nil {
			return nil, fmt.Errorf("%w: manifest list entry %d: %v", ErrCorruptManifest, len(out), g.Err)
		}
		out = append(out, mf)
	}
	return out, nil
}

// fieldSummaries decodes a manifest list entry's partitions array; a
// summary of an unexpected shape is left as nil (the manifest then may
// match whatever the filter).
func fieldSummaries(v any) []FieldSummary {
	arr, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]FieldSummary, 0, len(arr))
	for _, x := range arr {
		rec, ok := avrorec.Unwrap(x).(map[string]any)
		if !ok {
			return nil
		}
		g := avrorec.Getter{M: rec}
		cn, ok := avrorec.Unwrap(rec["contains_null"]).(bool)
		if !ok {
			return nil
		}
		fs := FieldSummary{ContainsNull: cn, Lower: g.Bytes("lower_bound"), Upper: g.Bytes("upper_bound")}
		if nan, ok := avrorec.Unwrap(rec["contains_nan"]).(bool); ok {
			fs.ContainsNaN = &nan
		}
		if g.Err != nil {
			return nil
		}
		out = append(out, fs)
	}
	return out
}

// firstNum returns the first of the number fields keys present.
func firstNum(g *avrorec.Getter, keys ...string) (int64, bool) {
	for _, k := range keys {
		if n, ok := g.Num(k); ok {
			return n, true
		}
	}
	return 0, false
}

// ManifestEntry is one entry of a manifest, with its data_file struct
// (Iceberg spec, "Manifest Entry Fields" and "Data File Fields").
type ManifestEntry struct {
	// Status is StatusExisting, StatusAdded or StatusDeleted.
	Status int
	// SnapshotID is the snapshot id the entry was added in (nil: inherit).
	SnapshotID *int64
	// SequenceNumber is the data sequence number (nil: inherit from the
	// manifest list for ADDED entries; v1 has none).
	SequenceNumber *int64
	// FileSequenceNumber is the file sequence number (nil: inherit).
	FileSequenceNumber *int64
	// Content is what the file holds.
	Content Content
	// FilePath is the file's path as stored.
	FilePath string
	// FileFormat is "PARQUET", "ORC", "AVRO" or "PUFFIN" (upper case, as
	// written; see [NormalizeFormat]).
	FileFormat string
	// RecordCount is the number of rows (or deletes) in the file.
	RecordCount int64
	// FileSizeBytes is the file's size in bytes.
	FileSizeBytes int64
	// Partition maps partition field id → partition value in the Go form
	// of schema.Field; a null partition value is present with a nil value.
	Partition map[int]any
	// EqualityIDs are the field ids of an equality delete file.
	EqualityIDs []int
	// Metrics are the column metrics, or nil when none are stored.
	Metrics *Metrics
	// ReferencedDataFile is the data file a position delete file or a
	// deletion vector (v3) applies to, or "".
	ReferencedDataFile string
	// ContentOffset and ContentSizeBytes locate a deletion vector blob inside
	// its Puffin file (v3), or are nil.
	ContentOffset, ContentSizeBytes *int64
}

// ManifestHeader holds the key-value metadata of a manifest's Avro header
// that the reader uses.
type ManifestHeader struct {
	// FormatVersion is the "format-version" property (1 when absent).
	FormatVersion int
	// SpecID is the "partition-spec-id" property, or -1 when absent.
	SpecID int
	// Content is the "content" property: "data" or "deletes" ("data" when
	// absent).
	Content string
}

// DecodeManifest decodes a manifest (an Avro object container file in
// format v1, v2 or v3), using the writer schema in the file's header. Each
// partition value is keyed by the partition field id taken from the Avro
// field's "field-id" property or, when a writer left it out, from
// specFieldIDs by position. Errors match [ErrCorruptManifest], or
// formats/avro.ErrUnsupported as for [DecodeManifestList].
func DecodeManifest(r io.Reader, specFieldIDs []int) (hdr ManifestHeader, out []ManifestEntry, err error) {
	f, err := openAvro(r, "manifest")
	if err != nil {
		return hdr, nil, avrorec.OpenError(ErrCorruptManifest, "iceberg: manifest", err)
	}
	hdr = ManifestHeader{FormatVersion: 1, SpecID: -1, Content: "data"}
	if v, err := strconv.Atoi(string(f.Metadata("format-version"))); err == nil && v > 0 {
		hdr.FormatVersion = v
	}
	if v, err := strconv.Atoi(string(f.Metadata("partition-spec-id"))); err == nil && v >= 0 {
		hdr.SpecID = v
	}
	if c := string(f.Metadata("content")); c != "" {
		hdr.Content = c
	}

	// The partition struct of the file schema gives each value's id; its
	// values come in the Go form of their type.
	var partFields []*schema.Field
	var partIDs []int
	if pf := f.Schema().FindByName("data_file.partition", false); pf != nil {
		if ps, ok := pf.Type.(*schema.StructType); ok {
			partFields = ps.Fields
		}
	}
	for i, pf := range partFields {
		id := pf.ID
		if id < 0 && i < len(specFieldIDs) {
			id = specFieldIDs[i]
		}
		if id < 0 {
			return hdr, nil, fmt.Errorf("%w: manifest: partition field %q has no field id", ErrCorruptManifest, pf.Name)
		}
		partIDs = append(partIDs, id)
	}

	for rec, err := range f.Records(context.Background()) {
		if err != nil {
			return hdr, nil, fmt.Errorf("%w: manifest entry %d: %v", ErrCorruptManifest, len(out), err)
		}
		g := avrorec.Getter{M: rec}
		dfm, _ := rec["data_file"].(map[string]any)
		if dfm == nil {
			return hdr, nil, fmt.Errorf("%w: manifest entry %d: no data_file", ErrCorruptManifest, len(out))
		}
		d := avrorec.Getter{M: dfm}
		e := ManifestEntry{
			Status:             int(g.I64("status", true)),
			SnapshotID:         g.Opt("snapshot_id"),
			SequenceNumber:     g.Opt("sequence_number"),
			FileSequenceNumber: g.Opt("file_sequence_number"),
			Content:            Content(d.I64("content", false)),
			FilePath:           d.Str("file_path", true),
			FileFormat:         d.Str("file_format", true),
			RecordCount:        d.I64("record_count", true),
			FileSizeBytes:      d.I64("file_size_in_bytes", true),
			ContentOffset:      d.Opt("content_offset"),
			ContentSizeBytes:   d.Opt("content_size_in_bytes"),
			ReferencedDataFile: d.Str("referenced_data_file", false),
		}
		if g.Err != nil || d.Err != nil {
			return hdr, nil, fmt.Errorf("%w: manifest entry %d: %v", ErrCorruptManifest, len(out), errors.Join(g.Err, d.Err))
		}
		if e.Status < StatusExisting || e.Status > StatusDeleted {
			return hdr, nil, fmt.Errorf("%w: manifest entry %d: status %d", ErrCorruptManifest, len(out), e.Status)
		}
		if e.Content < ContentData || e.Content > ContentEqualityDeletes {
			return hdr, nil, fmt.Errorf("%w: manifest entry %d: content %d", ErrCorruptManifest, len(out), e.Content)
		}
		ids, err := intList(dfm["equality_ids"])
		if err != nil {
			return hdr, nil, fmt.Errorf("%w: manifest entry %d: equality_ids: %v", ErrCorruptManifest, len(out), err)
		}
		e.EqualityIDs = ids
		e.Metrics = decodeMetrics(dfm)
		partRec, _ := dfm["partition"].(map[string]any)
		e.Partition = make(map[int]any, len(partFields))
		for i, pf := range partFields {
			e.Partition[partIDs[i]] = partRec[pf.Name]
		}
		out = append(out, e)
	}
	return hdr, out, nil
}

// intList converts a decoded Avro array of int or long (nil when null) to
// []int. Writers disagree on equality_ids' element type.
func intList(v any) ([]int, error) {
	if v == nil {
		return nil, nil
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("not an array but %T", v)
	}
	if len(arr) == 0 {
		return nil, nil
	}
	out := make([]int, 0, len(arr))
	for _, x := range arr {
		switch n := x.(type) {
		case int:
			out = append(out, n)
		case int32:
			out = append(out, int(n))
		case int64:
			out = append(out, int(n))
		default:
			return nil, fmt.Errorf("element of type %T", x)
		}
	}
	return out, nil
}
