package paimon

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table"
)

// ErrMergeOption is matched by errors for a primary-key table's merge
// options that lakecat cannot apply (an unknown merge engine or aggregate
// function, a field name that is not a column); the error names the
// option.
var ErrMergeOption = lakecat.NewSentinel(lakecat.ErrUnsupported, "paimon: unsupported merge option")

// Bucket is the LSM tree of one partition and bucket of a primary-key
// table: its files split into sections of overlapping key ranges, each
// section into sorted runs (Paimon docs, "Primary Key Table: LSM Trees").
type Bucket struct {
	// Partition is the partition's BinaryRow bytes; Bucket the bucket
	// number; Branch the branch the files are on.
	Partition []byte
	Bucket    int
	Branch    string
	// Sections are in key order; the key ranges of two sections never
	// overlap, so each merges alone.
	Sections []Section
}

// Section is a set of files whose key ranges overlap (transitively).
type Section struct {
	// Runs are the section's sorted runs: each level-0 file alone, newest
	// first, then one run per level ≥ 1, lowest level first.
	Runs []SortedRun
}

// SortedRun is a sorted run: files of one level with disjoint key ranges,
// in key order.
type SortedRun struct {
	Level int
	Files []*DataFile
}

// NeedsMerge reports whether the section's rows need a merge on read: more
// than one file, or one file that may hold retracts (its delete row count
// not recorded as 0). A section of one file of inserts only reads as
// stored under every engine but aggregation (whose count folds even one
// row).
func (s Section) NeedsMerge(engine string) bool {
	if len(s.Runs) != 1 || len(s.Runs[0].Files) != 1 {
		return true
	}
	f := s.Runs[0].Files[0]
	return engine == string(mergeAggregation) || f.DeleteRowCount == nil || *f.DeleteRowCount != 0
}

const mergeAggregation = "aggregation"

// DeletionVectorsEnabled reports whether the read schema's options turn on
// deletion vectors ("deletion-vectors.enabled"): then a primary-key table
// is read without merging, from its level ≥ 1 files with their deletion
// vectors applied (Paimon docs, "Deletion Vectors").
func (s *Scan) DeletionVectorsEnabled() bool {
	return strings.EqualFold(s.Schema.Options["deletion-vectors.enabled"], "true")
}

// trimmedKey returns the fields of ps's trimmed primary key: the primary
// key columns that are not partition columns, in primary-key order.
func trimmedKey(ps *schema.PaimonSchema) ([]*schema.Field, error) {
	part := map[string]bool{}
	for _, k := range ps.PartitionKeys {
		part[k] = true
	}
	var out []*schema.Field
	for _, k := range ps.PrimaryKeys {
		if part[k] {
			continue
		}
		f := findTop(ps.Fields, k)
		if f == nil {
			return nil, fmt.Errorf("paimon: schema %d: primary key %q is not a column", ps.ID, k)
		}
		out = append(out, f)
	}
	return out, nil
}

// keyRange is a file's decoded key range.
type keyRange struct {
	min, max []any
}

// fileKeyRange decodes f's min and max key with the key types of its own
// schema; ok is false when they cannot be compared (not recorded, or a key
// type decodeBinaryRow does not read).
func (s *Scan) fileKeyRange(ctx context.Context, f *DataFile) (keyRange, bool) {
	if len(f.MinKey) == 0 || len(f.MaxKey) == 0 {
		return keyRange{}, false
	}
	ps, err := s.Table.Schema(ctx, f.Branch, f.SchemaID)
	if err != nil {
		return keyRange{}, false
	}
	key, err := trimmedKey(ps)
	if err != nil || len(key) == 0 {
		return keyRange{}, false
	}
	types := make([]schema.Type, len(key))
	for i, k := range key {
		types[i] = k.Type
	}
	lo, err1 := DecodeBinaryRow(f.MinKey, types)
	hi, err2 := DecodeBinaryRow(f.MaxKey, types)
	if err1 != nil || err2 != nil {
		return keyRange{}, false
	}
	for i := range lo {
		if _, ok := comparable(lo[i]); !ok {
			return keyRange{}, false
		}
		if _, ok := comparable(hi[i]); !ok {
			return keyRange{}, false
		}
	}
	return keyRange{lo, hi}, true
}

// comparable returns v in a form that compares across promotions (every
// integer as int64, every float as float64).
func comparable(v any) (any, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case float32:
		return float64(x), true
	case float64:
		return x, true
	case string, []byte, bool:
		return x, true
	}
	return nil, false
}

func compareValue(a, b any) int {
	a, _ = comparable(a)
	b, _ = comparable(b)
	switch x := a.(type) {
	case nil:
		if b == nil {
			return 0
		}
		return -1
	case int64:
		if y, ok := b.(int64); ok {
			return cmp.Compare(x, y)
		}
		if y, ok := b.(float64); ok {
			return cmp.Compare(float64(x), y)
		}
	case float64:
		if y, ok := b.(float64); ok {
			return cmp.Compare(x, y)
		}
		if y, ok := b.(int64); ok {
			return cmp.Compare(x, float64(y))
		}
	case string:
		switch y := b.(type) {
		case string:
			return strings.Compare(x, y)
		case []byte:
			return bytes.Compare([]byte(x), y)
		}
	case []byte:
		switch y := b.(type) {
		case []byte:
			return bytes.Compare(x, y)
		case string:
			return bytes.Compare(x, []byte(y))
		}
	case bool:
		if y, ok := b.(bool); ok {
			switch {
			case x == y:
				return 0
			case !x:
				return -1
			}
			return 1
		}
	}
	if b == nil {
		return 1
	}
	return 0
}

func compareKey(a, b []any) int {
	for i := range min(len(a), len(b)) {
		if c := compareValue(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// LSM groups the scan's data files of a primary-key table by partition
// and bucket and splits each bucket into sections and sorted runs, as
// Paimon's merge-tree read does (IntervalPartition): files sorted by min
// key, a section growing while the next file's min key is at most the
// section's max key. When some file's key range is unknown, its bucket is
// one section, and files of a level ≥ 1 without known ranges are runs of
// their own. Buckets are in the order of their first file.
func (s *Scan) LSM(ctx context.Context) []Bucket {
	return slices.Collect(s.Buckets(ctx))
}

// partitionIdentity returns f's partition values by field id as a string:
// the same partition whatever schema wrote the file (the BinaryRow bytes
// change when partition columns are reordered or widened).
func partitionIdentity(f *DataFile) string {
	ids := make([]int, 0, len(f.Partition))
	for id := range f.Partition {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var sb strings.Builder
	for _, id := range ids {
		v, ok := comparable(f.Partition[id])
		if !ok {
			v = f.Partition[id]
		}
		fmt.Fprintf(&sb, "%d=%T:%v;", id, v, v)
	}
	return sb.String()
}

func (s *Scan) sections(ctx context.Context, fs []*DataFile) []Section {
	ranges := make(map[*DataFile]keyRange, len(fs))
	known := true
	for _, f := range fs {
		r, ok := s.fileKeyRange(ctx, f)
		if !ok {
			known = false
			break
		}
		ranges[f] = r
	}
	if !known {
		return []Section{runsOf(fs, nil)}
	}
	sorted := slices.Clone(fs)
	slices.SortStableFunc(sorted, func(a, b *DataFile) int {
		if c := compareKey(ranges[a].min, ranges[b].min); c != 0 {
			return c
		}
		return compareKey(ranges[a].max, ranges[b].max)
	})
	var out []Section
	var cur []*DataFile
	var hi []any
	for _, f := range sorted {
		if len(cur) > 0 && compareKey(ranges[f].min, hi) > 0 {
			out = append(out, runsOf(cur, ranges))
			cur = nil
		}
		if len(cur) == 0 || compareKey(ranges[f].max, hi) > 0 {
			hi = ranges[f].max
		}
		cur = append(cur, f)
	}
	if len(cur) > 0 {
		out = append(out, runsOf(cur, ranges))
	}
	return out
}

// runsOf makes the sorted runs of one section's files: each level-0 file
// alone (newest first), one run per level ≥ 1 in key order; without key
// ranges (ranges nil), every file is its own run.
func runsOf(fs []*DataFile, ranges map[*DataFile]keyRange) Section {
	var sec Section
	var l0 []*DataFile
	levels := map[int][]*DataFile{}
	var lv []int
	for _, f := range fs {
		if f.Level == 0 || ranges == nil {
			l0 = append(l0, f)
			continue
		}
		if _, ok := levels[f.Level]; !ok {
			lv = append(lv, f.Level)
		}
		levels[f.Level] = append(levels[f.Level], f)
	}
	slices.SortStableFunc(l0, func(a, b *DataFile) int {
		if c := cmp.Compare(a.Level, b.Level); c != 0 {
			return c
		}
		return cmp.Compare(b.MaxSequenceNumber, a.MaxSequenceNumber)
	})
	for _, f := range l0 {
		sec.Runs = append(sec.Runs, SortedRun{Level: f.Level, Files: []*DataFile{f}})
	}
	slices.Sort(lv)
	for _, l := range lv {
		run := levels[l]
		slices.SortStableFunc(run, func(a, b *DataFile) int { return compareKey(ranges[a].min, ranges[b].min) })
		sec.Runs = append(sec.Runs, SortedRun{Level: l, Files: run})
	}
	return sec
}

// MergeSpec returns how rows of one key merge, from the read schema's
// options (Paimon docs, "Merge Engine": merge-engine, sequence.field,
// ignore-delete, partial-update.remove-record-on-delete,
// fields.<f>.sequence-group, fields.<f>.aggregate-function,
// fields.default-aggregate-function, fields.<f>.list-agg-delimiter,
// fields.<f>.ignore-retract), with field names resolved to field ids in
// the read schema. An option lakecat cannot apply returns an error matching
// [ErrMergeOption] naming it.
func (s *Scan) MergeSpec() (table.MergeSpec, error) {
	ps := s.Schema
	opts := ps.Options
	key, err := trimmedKey(ps)
	if err != nil {
		return table.MergeSpec{}, err
	}
	spec := table.MergeSpec{Engine: opts["merge-engine"], SequenceNumberID: sequenceNumberID, ValueKindID: valueKindID}
	if spec.Engine == "" {
		spec.Engine = "deduplicate"
	}
	switch spec.Engine {
	case "deduplicate", "first-row", "partial-update", "aggregation":
	default:
		return spec, fmt.Errorf("%w: merge-engine %q", ErrMergeOption, spec.Engine)
	}
	for _, k := range key {
		spec.KeyIDs = append(spec.KeyIDs, k.ID)
	}
	ids := func(option, list string) ([]int, error) {
		var out []int
		for _, n := range strings.Split(list, ",") {
			n = strings.TrimSpace(n)
			if n == "" {
				continue
			}
			f := findTop(ps.Fields, n)
			if f == nil {
				return nil, fmt.Errorf("%w: %s names %q, which is not a column of schema %d", ErrMergeOption, option, n, ps.ID)
			}
			out = append(out, f.ID)
		}
		return out, nil
	}
	if spec.SequenceIDs, err = ids("sequence.field", opts["sequence.field"]); err != nil {
		return spec, err
	}
	if o := opts["sequence.field.sort-order"]; o != "" && !strings.EqualFold(o, "ascending") {
		return spec, fmt.Errorf("%w: sequence.field.sort-order %q", ErrMergeOption, o)
	}
	truthy := func(k string) bool { return strings.EqualFold(opts[k], "true") }
	spec.IgnoreDelete = truthy("ignore-delete") || truthy(spec.Engine+".ignore-delete")
	spec.RemoveRecordOnDelete = truthy(spec.Engine + ".remove-record-on-delete")
	names := make([]string, 0, len(opts))
	for k := range opts {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		v := opts[k]
		if !strings.HasPrefix(k, "fields.") {
			continue
		}
		rest := k[len("fields."):]
		switch {
		case strings.HasSuffix(rest, ".sequence-group"):
			if spec.Engine != "partial-update" {
				continue
			}
			seq, err := ids(k, strings.TrimSuffix(rest, ".sequence-group"))
			if err != nil {
				return spec, err
			}
			fs, err := ids(k, v)
			if err != nil {
				return spec, err
			}
			spec.SequenceGroups = append(spec.SequenceGroups, table.MergeSequenceGroup{SequenceIDs: seq, FieldIDs: fs})
		case rest == "default-aggregate-function":
			if spec.Engine == "aggregation" {
				spec.DefaultAggregate = &table.MergeAggregate{Function: v}
			} else if spec.Engine == "partial-update" {
				return spec, fmt.Errorf("%w: %s = %s under partial-update", ErrMergeOption, k, v)
			}
		case strings.HasSuffix(rest, ".aggregate-function"):
			name := strings.TrimSuffix(rest, ".aggregate-function")
			if spec.Engine == "partial-update" {
				return spec, fmt.Errorf("%w: %s = %s under partial-update", ErrMergeOption, k, v)
			}
			if spec.Engine != "aggregation" {
				continue
			}
			id, err := ids(k, name)
			if err != nil {
				return spec, err
			}
			spec.Aggregates = append(spec.Aggregates, table.MergeAggregate{FieldID: id[0], Function: v,
				Delimiter: opts["fields."+name+".list-agg-delimiter"], IgnoreRetract: truthy("fields." + name + ".ignore-retract")})
		}
	}
	if spec.Engine == "aggregation" {
		for _, a := range append(slices.Clone(spec.Aggregates), derefAgg(spec.DefaultAggregate)...) {
			if !knownAggregate(a.Function) {
				return spec, fmt.Errorf("%w: aggregate function %q (fields.%s.aggregate-function)", ErrMergeOption, a.Function, fieldName(ps, a.FieldID))
			}
		}
	}
	return spec, nil
}

func derefAgg(a *table.MergeAggregate) []table.MergeAggregate {
	if a == nil {
		return nil
	}
	return []table.MergeAggregate{*a}
}

func fieldName(ps *schema.PaimonSchema, id int) string {
	for _, f := range ps.Fields {
		if f.ID == id {
			return f.Name
		}
	}
	return "default"
}

// knownAggregate reports whether lakecat applies the aggregate function
// (the list of merge.Functions).
func knownAggregate(f string) bool {
	switch f {
	case "sum", "product", "count", "min", "max", "last_value", "last_non_null_value",
		"first_value", "first_non_null_value", "bool_and", "bool_or", "listagg":
		return true
	}
	return false
}

// MergeTask returns the task that merges section sec of bucket b into
// read (see [table.MergeTask]): each file read through its own schema with
// the system columns, partition values as constants.
func (s *Scan) MergeTask(ctx context.Context, sec Section, read *schema.Schema, spec table.MergeSpec, zone string) (table.Task, error) {
	mt := &table.MergeTask{Spec: spec, Schema: read}
	var first *DataFile
	for _, run := range sec.Runs {
		mr := table.MergeRun{Level: run.Level}
		for _, f := range run.Files {
			if first == nil {
				first = f
			}
			ws, err := s.Table.Schema(ctx, f.Branch, f.SchemaID)
			if err != nil {
				return table.Task{}, fmt.Errorf("%s: schema %d: %w", f.Path, f.SchemaID, err)
			}
			mr.Files = append(mr.Files, table.MergeFile{Path: f.Path, Format: f.Format, SizeBytes: f.SizeBytes, RecordCount: f.RowCount,
				FileSchema: WithSystemFields(ws.Schema(), ws), FileSchemaID: int(f.SchemaID),
				MinSequenceNumber: f.MinSequenceNumber, MaxSequenceNumber: f.MaxSequenceNumber})
		}
		mt.Runs = append(mt.Runs, mr)
	}
	if first == nil {
		return table.Task{}, fmt.Errorf("paimon: an empty section")
	}
	t, err := s.Task(ctx, first, read, true, zone)
	if err != nil {
		return table.Task{}, err
	}
	t.ReadSchema = read
	t.Merge = mt
	return t, nil
}

// DeletionVectorOf returns the deletion vector of data file f as a delete
// file of its task ([table.PaimonDeletionVector]), or false when no live
// deletion-vector index file has one for it.
func (s *Scan) DeletionVectorOf(f *DataFile) (table.DeleteFile, bool) {
	for _, ix := range s.IndexFiles {
		if ix.Type != "DELETION_VECTORS" || ix.Bucket != f.Bucket || ix.partitionKey != f.partitionKey {
			continue
		}
		for _, dv := range ix.DeletionVectors {
			if dv.DataFile != f.FileName {
				continue
			}
			// Cardinality is -1 when the index manifest does not record it:
			// the record count is unknown then, not 0.
			return table.DeleteFile{Path: ix.Path, Format: "PAIMON-DV", Content: table.PaimonDeletionVector, RecordCount: dv.Cardinality,
				SizeBytes: -1, ContentOffset: dv.Offset, ContentSizeBytes: dv.Length, ReferencedDataFile: f.FileName}, true
		}
	}
	return table.DeleteFile{}, false
}
