// Package scanplan is the part of scan planning every table format shares:
// the read schema's columns and metadata columns, binding the filter,
// leaving out files by their constants, splitting large Parquet files, and
// the [table.Scan] built on a format's listing of its live files. The
// format packages (table/iceberg, table/paimon, table/hudi) list; this
// package finishes.
package scanplan

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
)

// Listed is what a format's planning returns: the listing of the live
// files in the table's read schema (before columns, metadata columns and
// the filter), the type of _partition, and the format's own pruning.
type Listed struct {
	Listing *table.Listing
	// PartitionType is the type of the _partition metadata column (nil: an
	// empty struct).
	PartitionType *schema.StructType
	// Prune, when set, says why the format's metadata rules file i out
	// under the filter (bound to read), or "".
	Prune func(i int, filter *expr.Bound, read *schema.Schema) string
}

// Stream is a format's listing of its live files delivered one file at a
// time, for [table.Scan.Tasks] to yield tasks without holding them all.
// Its files must give the same tasks, in the same order, as the format's
// [Listed] does.
type Stream struct {
	// Listing has the read schema, the schema history and the format's
	// other fields, and no Files. The metadata columns' field ids are
	// chosen from its schemas alone: a format streams only when its files'
	// tasks carry no FileSchema that could add other ids.
	Listing *table.Listing
	// PartitionType is the type of the _partition metadata column (nil: an
	// empty struct).
	PartitionType *schema.StructType
	// Files yields the live files in scan order, each with the format's
	// pruning of it (nil: none); the first error ends it, and stopping
	// early stops the listing.
	Files iter.Seq2[StreamedFile, error]
}

// StreamedFile is one file of a [Stream].
type StreamedFile struct {
	File table.File
	// Prune, when set, says why the format's metadata rules the file out
	// under the filter (bound to read), or "".
	Prune func(filter *expr.Bound, read *schema.Schema) string
}

// Options returns the options of format in o: T's zero value for nil, o
// itself when it is a T, else an error matching
// [table.ErrInvalidOption] naming o's options and format.
func Options[T table.FormatOptions](format table.Format, o table.FormatOptions) (T, error) {
	var zero T
	switch v := o.(type) {
	case nil:
		return zero, nil
	case T:
		return v, nil
	}
	if o.TableFormat() == format {
		return zero, fmt.Errorf("%w: %T: give the %s options as a value", table.ErrInvalidOption, o, format)
	}
	set := strings.Join(o.Set(), ", ")
	if set == "" {
		set = "none set"
	}
	return zero, fmt.Errorf("%w: %s options (%s) on %s table", table.ErrInvalidOption, o.TableFormat(), set, article(format))
}

// Refuse returns an error matching [table.ErrInvalidOption] for the scan
// option name, which the format does not have, or nil when set is false.
func Refuse(set bool, format table.Format, name, why string) error {
	if !set {
		return nil
	}
	return fmt.Errorf("%w: %s on %s table: %s", table.ErrInvalidOption, name, article(format), why)
}

// article returns the format name after its indefinite article: "an
// iceberg", "a paimon".
func article(f table.Format) string {
	if f == table.Iceberg {
		return "an " + string(f)
	}
	return "a " + string(f)
}

// Warn passes a warning to opts.Warn, if set.
func Warn(opts table.ScanOptions, format string, args ...any) {
	if opts.Warn != nil {
		opts.Warn(fmt.Sprintf(format, args...))
	}
}

// CheckDeletes decides what a read that cannot apply delete files does
// with err (the format's delete-files error, or nil): nothing when listing
// only, a warning under IgnoreDeletes, else an error matching
// [table.ErrDeleteFiles] too.
func CheckDeletes(opts table.ScanOptions, err error) error {
	if err == nil || (opts.ListOnly && !opts.IgnoreDeletes) {
		return nil
	}
	if opts.IgnoreDeletes {
		Warn(opts, "ignoring delete files: %v; deleted rows are returned", err)
		return nil
	}
	return fmt.Errorf("%w: %w", table.ErrDeleteFiles, err)
}

// New returns the scan of a table of format at location whose files list
// lists (once, on first use), read through fsys.
func New(fsys storage.FS, format table.Format, location string, opts table.ScanOptions, list func(ctx context.Context) (*Listed, error)) table.Scan {
	return &scan{fsys: fsys, format: format, location: location, opts: opts, list: list}
}

// NewStreaming is [New] for a format that can also list its files one at a
// time: the scan's Tasks takes them from stream (on every call) and yields
// each file's tasks as its file arrives, the tasks Plan gives from list.
// units, when not nil, makes the scan's planning units from the scan's
// options as [table.UnitOptions] (see [table.Scan.Units]), with a
// [Stream] without Files whose listing gives the units their output
// schema; nil makes one unit of the whole scan.
func NewStreaming(fsys storage.FS, format table.Format, location string, opts table.ScanOptions, list func(ctx context.Context) (*Listed, error), stream func(ctx context.Context) (*Stream, error), units func(ctx context.Context, base table.UnitOptions) (*Stream, []table.Unit, error)) table.Scan {
	return &scan{fsys: fsys, format: format, location: location, opts: opts, list: list, stream: stream, units: units}
}

type scan struct {
	fsys     storage.FS
	format   table.Format
	location string
	opts     table.ScanOptions
	list     func(ctx context.Context) (*Listed, error)
	stream   func(ctx context.Context) (*Stream, error) // nil: Tasks yields Plan's tasks
	units    func(ctx context.Context, base table.UnitOptions) (*Stream, []table.Unit, error)

	once    sync.Once
	listing *table.Listing
	err     error
}

func (s *scan) Files(ctx context.Context) (*table.Listing, error) {
	s.once.Do(func() {
		s.listing, s.err = s.plan(ctx)
	})
	return s.listing, s.err
}

func (s *scan) plan(ctx context.Context) (*table.Listing, error) {
	ld, err := s.list(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s table %s: %w", s.format, s.location, err)
	}
	l := ld.Listing
	l.Format, l.Location = s.format, s.location
	if err := finish(ld, s.opts); err != nil {
		return nil, err
	}
	return l, nil
}

func (s *scan) Plan(ctx context.Context) ([]table.Task, error) {
	if s.opts.ListOnly {
		return nil, fmt.Errorf("%s table %s: %w", s.format, s.location, table.ErrListOnly)
	}
	l, err := s.Files(ctx)
	if err != nil {
		return nil, err
	}
	return Split(ctx, s.fsys, l.Files, s.opts)
}

func (s *scan) Tasks(ctx context.Context) iter.Seq2[table.Task, error] {
	if s.stream != nil && !s.opts.ListOnly {
		return s.streamTasks(ctx)
	}
	return func(yield func(table.Task, error) bool) {
		tasks, err := s.Plan(ctx)
		if err != nil {
			yield(table.Task{}, err)
			return
		}
		for _, t := range tasks {
			if !yield(t, nil) {
				return
			}
		}
	}
}

func (s *scan) Units(ctx context.Context) ([]table.Unit, error) {
	if s.opts.ListOnly {
		return nil, fmt.Errorf("%s table %s: %w", s.format, s.location, table.ErrListOnly)
	}
	base, err := table.NewUnitOptions(s.opts)
	if err != nil {
		return nil, fmt.Errorf("%s table %s: %w", s.format, s.location, err)
	}
	if s.units == nil {
		return []table.Unit{{Format: s.format, Location: s.location, Count: 1, Options: base}}, nil
	}
	st, units, err := s.units(ctx, base)
	if err != nil {
		return nil, fmt.Errorf("%s table %s: %w", s.format, s.location, err)
	}
	if len(units) == 0 {
		return nil, nil
	}
	// The columns and the filter are checked here, before any worker
	// plans, and give the units their output schema.
	l := st.Listing
	l.Format, l.Location = s.format, s.location
	if _, err := prepare(l, st.PartitionType, s.opts); err != nil {
		return nil, err
	}
	for i := range units {
		units[i].OutputSchema = l.OutputSchema
	}
	return units, nil
}

// streamTasks yields the tasks of the files of s.stream as they arrive:
// each file finished ([finisher.file]) and split ([splitFile]) as Plan
// finishes and splits the listing's.
func (s *scan) streamTasks(ctx context.Context) iter.Seq2[table.Task, error] {
	return func(yield func(table.Task, error) bool) {
		st, err := s.stream(ctx)
		if err != nil {
			yield(table.Task{}, fmt.Errorf("%s table %s: %w", s.format, s.location, err))
			return
		}
		l := st.Listing
		l.Format, l.Location = s.format, s.location
		fin, err := prepare(l, st.PartitionType, s.opts)
		if err != nil {
			yield(table.Task{}, err)
			return
		}
		var tasks []table.Task
		for sf, err := range st.Files {
			if err != nil {
				yield(table.Task{}, fmt.Errorf("%s table %s: %w", s.format, s.location, err))
				return
			}
			f := sf.File
			fin.file(&f, sf.Prune)
			if tasks, err = splitFile(ctx, s.fsys, &f, s.opts, tasks[:0]); err != nil {
				yield(table.Task{}, err)
				return
			}
			for _, t := range tasks {
				if !yield(t, nil) {
					return
				}
			}
		}
	}
}

// finish narrows the listing's read schema to opts.Columns, adds the
// metadata columns, binds the filter and marks the files it rules out.
func finish(ld *Listed, opts table.ScanOptions) error {
	fin, err := prepare(ld.Listing, ld.PartitionType, opts)
	if err != nil {
		return err
	}
	for i := range ld.Listing.Files {
		var prune func(*expr.Bound, *schema.Schema) string
		if ld.Prune != nil {
			prune = func(filter *expr.Bound, read *schema.Schema) string { return ld.Prune(i, filter, read) }
		}
		fin.file(&ld.Listing.Files[i], prune)
	}
	return nil
}

// finisher holds what [prepare] decided for a whole listing, to finish
// its files one by one.
type finisher struct {
	l             *table.Listing
	partitionType *schema.StructType
	// meta is true when metadata columns were asked for (every file's
	// constants are then copied and given theirs).
	meta bool
}

// prepare narrows the listing's read schema to opts.Columns, adds the
// metadata columns (their field ids chosen by [usedFieldIDs] over the
// listing as it is: its files' schemas count only when it has them), binds
// the filter and sets the output schema; [finisher.file] then finishes
// each file.
func prepare(l *table.Listing, partitionType *schema.StructType, opts table.ScanOptions) (*finisher, error) {
	format, location := l.Format, l.Location
	var cols, meta []string
	for _, c := range opts.Columns {
		if table.IsMetadataColumn(c) {
			if slices.Contains(meta, c) {
				return nil, fmt.Errorf("%w: %q", schema.ErrDuplicateColumn, c)
			}
			meta = append(meta, c)
		} else {
			cols = append(cols, c)
		}
	}
	meta = append(meta, opts.MetadataColumns...)
	var filterIDs []int
	if opts.Filter != nil {
		b, err := table.BindFilter(opts.Filter, l.ReadSchema)
		if err != nil {
			return nil, fmt.Errorf("%s table %s: filter: %w", format, location, err)
		}
		filterIDs = b.ColumnIDs()
	}
	var out *schema.Schema // the output schema, when the filter reads more
	if len(cols) > 0 {
		sel, narrowed, err := table.SelectForFilter(l.ReadSchema, cols, filterIDs)
		if err != nil {
			return nil, err
		}
		out = narrowed
		l.ReadSchema = sel
	}
	fin := &finisher{l: l, partitionType: partitionType, meta: len(meta) > 0}
	if fin.meta {
		if err := addMetadataColumns(l, partitionType, meta); err != nil {
			return nil, err
		}
	}
	if len(cols) > 0 { // in the order asked for, metadata columns included
		l.ReadSchema = schema.OrderBy(l.ReadSchema, opts.Columns, false)
	}
	l.OutputSchema = l.ReadSchema
	if opts.Filter == nil {
		return fin, nil
	}
	b, err := table.BindFilter(opts.Filter, l.ReadSchema)
	if err != nil {
		return nil, fmt.Errorf("%s table %s: filter: %w", format, location, err)
	}
	if !b.AlwaysTrue() {
		l.Filter = b
	}
	if out != nil {
		fields := append([]*schema.Field(nil), out.Fields...)
		for _, f := range l.ReadSchema.Fields {
			if id, ok := l.MetadataFieldIDs[f.Name]; ok && id == f.ID {
				fields = append(fields, f)
			}
		}
		l.OutputSchema = &schema.Schema{ID: out.ID, Fields: fields, IdentifierFieldIDs: out.IdentifierFieldIDs}
	}
	return fin, nil
}

// file finishes one file of the listing: the constants of the metadata
// columns, the read schema, and why the filter rules it out (its partition
// values, then prune, the format's rules), if it does.
func (fin *finisher) file(f *table.File, prune func(filter *expr.Bound, read *schema.Schema) string) {
	l := fin.l
	if fin.meta {
		metadataConstants(f, l.ReadSchema, l.MetadataFieldIDs)
	}
	f.Task.ReadSchema = l.ReadSchema
	trimConstants(&f.Task)
	switch {
	case l.Filter == nil:
	case !table.TaskMayMatch(f.Task, l.Filter):
		f.Skip = "partition values"
	case prune != nil:
		f.Skip = prune(l.Filter, l.ReadSchema)
	}
}

// trimConstants leaves out of t's constants those of fields its read
// schema lacks: the partition values of columns the scan's column
// selection (and filter) leave out. They fill nothing, and a task's
// constants are keyed by fields of its read schema ([table.Task]), which
// its JSON encoding checks.
func trimConstants(t *table.Task) {
	for id := range t.Constants {
		if t.ReadSchema.FindByID(id) == nil {
			delete(t.Constants, id)
		}
	}
}

// addMetadataColumns appends the named metadata columns to the read schema,
// with field ids no schema of the table uses ([metadataFieldIDs]);
// [metadataConstants] gives each file the constants that fill them.
func addMetadataColumns(l *table.Listing, partitionType *schema.StructType, names []string) error {
	read := &schema.Schema{ID: l.ReadSchema.ID, Fields: append([]*schema.Field(nil), l.ReadSchema.Fields...), IdentifierFieldIDs: l.ReadSchema.IdentifierFieldIDs}
	var add []string
	for _, n := range names {
		if read.FindByName(n, false) == nil { // a column of the table's own keeps its name
			add = append(add, n)
		}
	}
	ids, err := metadataFieldIDs(add, usedFieldIDs(l))
	if err != nil {
		return err
	}
	l.MetadataFieldIDs = ids
	done := map[string]bool{}
	for _, n := range add {
		if !done[n] {
			done[n] = true
			read.Fields = append(read.Fields, metadataField(n, ids[n], partitionType))
		}
	}
	// A fresh Schema: the lookups above cached read's field index before the
	// metadata fields were appended.
	read = &schema.Schema{ID: read.ID, Fields: read.Fields, IdentifierFieldIDs: read.IdentifierFieldIDs}
	l.ReadSchema = read
	return nil
}

// metadataConstants gives the file tf the constants that fill the metadata
// columns ids names (their fields in read) and its task the _pos and
// _deleted field ids.
func metadataConstants(tf *table.File, read *schema.Schema, ids map[string]int) {
	c := make(map[int]any, len(tf.Task.Constants)+3)
	for k, v := range tf.Task.Constants {
		c[k] = v
	}
	for n, id := range ids {
		switch n {
		case table.ColumnFile:
			p := tf.Task.StoredPath
			if p == "" {
				p = tf.Path
			}
			c[id] = p
		case table.ColumnPos:
			tf.Task.PosFieldID = id
		case table.ColumnDeleted:
			tf.Task.DeletedFieldID = id
		case table.ColumnSpecID:
			c[id] = int32(tf.Task.SpecID)
		case table.ColumnPartition:
			part := make(map[int]any, len(tf.PartitionValues))
			for _, pf := range read.FindByID(id).Type.(*schema.StructType).Fields {
				if v, ok := tf.PartitionValues[pf.ID]; ok {
					part[pf.ID] = WidenValue(v, pf.Type)
				}
			}
			c[id] = part
		}
	}
	tf.Task.Constants = c
}

// usedFieldIDs returns every field id, at any depth, of the read schema,
// the schema history and every file's writer schema.
func usedFieldIDs(l *table.Listing) map[int]bool {
	used := map[int]bool{}
	add := func(s *schema.Schema) {
		if s == nil {
			return
		}
		schema.Walk(s.Fields, func(_ []string, f *schema.Field) bool {
			used[f.ID] = true
			return true
		})
	}
	add(l.ReadSchema)
	for _, s := range l.Schemas {
		add(s)
	}
	for i := range l.Files {
		add(l.Files[i].Task.FileSchema)
		add(l.Files[i].Task.ReadSchema)
	}
	return used
}

// Split returns the tasks of files in scan order, leaving out the files
// the filter rules out and those a merge task reads, and splitting a
// Parquet or ORC file larger than opts.SplitBytes at row-group or stripe
// boundaries ([table.SplitTask]; it reads those footers). A Hudi file slice or a Paimon merge is one task:
// its log records or sorted runs merge over whole files.
func Split(ctx context.Context, fsys storage.FS, files []table.File, opts table.ScanOptions) ([]table.Task, error) {
	var out []table.Task
	for i := range files {
		var err error
		if out, err = splitFile(ctx, fsys, &files[i], opts, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// splitFile appends the tasks of f to out, as [Split] makes them: none for
// a file the filter rules out or a merge task reads, else its task or the
// parts of it.
func splitFile(ctx context.Context, fsys storage.FS, f *table.File, opts table.ScanOptions, out []table.Task) ([]table.Task, error) {
	if f.Skip != "" || f.InMerge {
		return out, nil
	}
	split := opts.SplitBytes
	if split == 0 {
		split = table.DefaultSplitBytes
	}
	task := f.Task
	if split < 0 || !table.Splittable(task) || (task.SizeBytes >= 0 && task.SizeBytes <= split) {
		return append(out, task), nil
	}
	parts, err := table.SplitTask(ctx, fsys, task, split, opts.FooterBytes)
	if err != nil {
		return nil, err
	}
	return append(out, parts...), nil
}

// PartitionString describes partition values m, "name=value,…" in field id
// order, fields naming them ("" for none).
func PartitionString(m map[int]any, fields []*schema.Field) string {
	if len(m) == 0 {
		return ""
	}
	ids := make([]int, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	byID := make(map[int]*schema.Field, len(fields))
	for _, f := range fields {
		byID[f.ID] = f
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		f := byID[id]
		if f == nil {
			parts[i] = fmt.Sprintf("%d=%v", id, m[id])
			continue
		}
		parts[i] = f.Name + "=" + partitionValue(f.Type, m[id])
	}
	return strings.Join(parts, ",")
}

// partitionValue spells a partition value as Iceberg's JSON single-value
// form does (spec, Appendix D: dates, timestamps, decimals as text), strings
// without their quotes, null as "null".
func partitionValue(t schema.Type, v any) string {
	if v == nil {
		return "null"
	}
	b, err := schema.MarshalLiteral(t, WidenValue(v, t))
	if err != nil {
		return fmt.Sprint(v)
	}
	var str string
	if json.Unmarshal(b, &str) == nil {
		return str
	}
	return string(b)
}

// WidenValue widens a partition value of a narrower type to t: int to long
// or double, float to double (a partition source column promoted after the
// file was written). Other values are returned as they are.
func WidenValue(v any, t schema.Type) any {
	switch x := v.(type) {
	case int32:
		switch t.Kind() {
		case schema.KindLong:
			return int64(x)
		case schema.KindDouble:
			return float64(x)
		}
	case float32:
		if t.Kind() == schema.KindDouble {
			return float64(x)
		}
	}
	return v
}
