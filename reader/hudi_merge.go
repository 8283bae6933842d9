package reader

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/formats/hudilog"
	"github.com/lakecat/lakecat/internal/arrowtake"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
	"github.com/lakecat/lakecat/table/hudi"
)

var (
	// ErrMergeBudget is matched by the error for a Hudi file slice whose
	// log records do not fit in the scan's memory budget
	// (ScanOptions.MemoryBytes, TaskOptions.MemoryBytes): the merge holds
	// every log record of a slice while the base file streams past.
	ErrMergeBudget = lakecat.NewSentinel(lakecat.ErrUnsupported, "reader: merge-on-read log records exceed the memory budget")
	// ErrCorruptLog is matched by errors for log records that cannot be
	// merged: a record without a record key, or a base file without the
	// _hoodie_record_key column.
	ErrCorruptLog = lakecat.NewSentinel(lakecat.ErrCorrupt, "reader: corrupt merge-on-read log")
	// ErrUnsupportedLog is matched by errors for log blocks the merge does
	// not read: HFile and CDC data blocks, partial updates (IS_PARTIAL),
	// log-compacted blocks (COMPACTED_BLOCK_TIMES), command blocks other
	// than rollbacks.
	ErrUnsupportedLog = lakecat.NewSentinel(lakecat.ErrUnsupported, "reader: unsupported merge-on-read log block")
)

// hudiKeyName is Hudi's record key meta column.
const hudiKeyName = "_hoodie_record_key"

// hudiRead is what a Hudi file slice's read needs beside the base file's
// Options: the storage its log files are read from and the slice.
type hudiRead struct {
	fsys   storage.FS
	slice  *table.HudiSlice
	budget int64 // bytes the log records may take (0: no bound)
}

// mergeEntry is the current record of one key: the log batch and row that
// hold it (batch -1 for a delete block's record), whether it deletes the
// key, its ordering values and whether the base file's row won over it.
type mergeEntry struct {
	batch, row int32
	del        bool
	fromDelete bool // a delete block's record: compared to data by Hudi's delete rule
	done       bool // the base row won: nothing to emit
	ord        []ordValue
}

// ordValue is one ordering value: kind 0 is null, 1 an integer (ints,
// longs, dates, times, timestamps, booleans), 2 a float, 3 bytes or a
// string, 4 a decimal (hi, lo).
type ordValue struct {
	kind uint8
	i    int64
	lo   uint64
	f    float64
	s    string
}

// cmpOrd compares two ordering values of one field; null is lowest.
func cmpOrd(a, b ordValue) int {
	if a.kind != b.kind {
		return int(a.kind) - int(b.kind)
	}
	switch a.kind {
	case 1:
		return cmpInt(a.i, b.i)
	case 2:
		switch {
		case a.f < b.f:
			return -1
		case a.f > b.f:
			return 1
		}
		return 0
	case 3:
		return cmp.Compare(a.s, b.s)
	case 4:
		if c := cmpInt(a.i, b.i); c != 0 {
			return c
		}
		return cmp.Compare(a.lo, b.lo)
	}
	return 0
}

func cmpInt(a, b int64) int { return cmp.Compare(a, b) }

func cmpOrds(a, b []ordValue) int {
	for i := range min(len(a), len(b)) {
		if c := cmpOrd(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

// ordAt reads row i of an ordering column.
func ordAt(a arrow.Array, i int) ordValue {
	if a.IsNull(i) {
		return ordValue{}
	}
	switch c := a.(type) {
	case *array.Int32:
		return ordValue{kind: 1, i: int64(c.Value(i))}
	case *array.Int64:
		return ordValue{kind: 1, i: c.Value(i)}
	case *array.Int16:
		return ordValue{kind: 1, i: int64(c.Value(i))}
	case *array.Int8:
		return ordValue{kind: 1, i: int64(c.Value(i))}
	case *array.Date32:
		return ordValue{kind: 1, i: int64(c.Value(i))}
	case *array.Time64:
		return ordValue{kind: 1, i: int64(c.Value(i))}
	case *array.Timestamp:
		return ordValue{kind: 1, i: int64(c.Value(i))}
	case *array.Boolean:
		if c.Value(i) {
			return ordValue{kind: 1, i: 1}
		}
		return ordValue{kind: 1}
	case *array.Float32:
		return ordValue{kind: 2, f: float64(c.Value(i))}
	case *array.Float64:
		return ordValue{kind: 2, f: c.Value(i)}
	case *array.String:
		return ordValue{kind: 3, s: c.Value(i)}
	case *array.LargeString:
		return ordValue{kind: 3, s: c.Value(i)}
	case *array.Binary:
		return ordValue{kind: 3, s: string(c.Value(i))}
	case *array.FixedSizeBinary:
		return ordValue{kind: 3, s: string(c.Value(i))}
	case *array.Decimal128:
		v := c.Value(i)
		return ordValue{kind: 4, i: v.HighBits(), lo: v.LowBits()}
	}
	return ordValue{}
}

// deleteOrd converts a delete record's ordering value for comparison with
// an ordering column of type t, and reports whether Hudi compares them:
// only a value of the column's own class, and not the 0 Hudi writes for "no
// ordering value" (HoodieMergedLogRecordScanner, processNextDeletedRecord).
func deleteOrd(o hudilog.Ordering, t arrow.DataType) (ordValue, bool) {
	var v ordValue
	ok := false
	switch o.Kind {
	case hudilog.OrderingInt:
		v, ok = ordValue{kind: 1, i: o.Int}, t.ID() == arrow.INT32
	case hudilog.OrderingLong:
		v, ok = ordValue{kind: 1, i: o.Int}, t.ID() == arrow.INT64
	case hudilog.OrderingDate:
		v, ok = ordValue{kind: 1, i: o.Int}, t.ID() == arrow.DATE32
	case hudilog.OrderingTimestampMicros:
		ts, isTS := t.(*arrow.TimestampType)
		v, ok = ordValue{kind: 1, i: o.Int}, isTS && ts.Unit == arrow.Microsecond
	case hudilog.OrderingTimeMicros:
		tt, isT := t.(*arrow.Time64Type)
		v, ok = ordValue{kind: 1, i: o.Int}, isT && tt.Unit == arrow.Microsecond
	case hudilog.OrderingBoolean:
		v, ok = ordValue{kind: 1, i: o.Int}, t.ID() == arrow.BOOL
	case hudilog.OrderingFloat:
		v, ok = ordValue{kind: 2, f: o.Float}, t.ID() == arrow.FLOAT32
	case hudilog.OrderingDouble:
		v, ok = ordValue{kind: 2, f: o.Float}, t.ID() == arrow.FLOAT64
	case hudilog.OrderingString:
		v, ok = ordValue{kind: 3, s: string(o.Bytes)}, t.ID() == arrow.STRING || t.ID() == arrow.LARGE_STRING
	case hudilog.OrderingBytes:
		v, ok = ordValue{kind: 3, s: string(o.Bytes)}, t.ID() == arrow.BINARY
	}
	if ok && v.kind == 1 && v.i == 0 && o.Kind != hudilog.OrderingBoolean {
		ok = false
	}
	return v, ok
}

// hudiMerge is a file slice's merged read: the log records of the slice in
// a map by record key, then the base file streamed past it, then the log
// records the base did not hold. Batches come out in the read schema;
// rows: the base file's rows the logs leave (in file order, the updated ones
// left out), then the surviving log records in the order of the block and
// row that wrote their last version.
type hudiMerge struct {
	name     string
	mem      memory.Allocator
	ctx      context.Context
	read     *arrow.Schema // the read schema's Arrow form
	nOut     int           // columns of the read schema (a prefix of the merge schema)
	keyCol   int
	ordCols  []int
	ordArrow arrow.DataType   // the first ordering column's type
	delCol   int              // _hoodie_is_deleted, or -1
	fileCol  int              // the _file metadata column, or -1
	fileID   int              // its field id
	posCol   int              // the _pos metadata column, or -1
	logPos   map[string]int64 // log file -> records of its data blocks read so far
	mode     string
	filter   *expr.Bound
	stats    *ScanStats
	base     array.RecordReader // nil: none, or done
	logs     []arrow.RecordBatch
	entries  []mergeEntry
	byKey    map[string]int32
	logAt    int
	cur      arrow.RecordBatch
	err      error
	refs     int64
	closer   io.Closer
	released bool
}

// openHudiMerge reads the log files of opts.hudi's slice and opens the
// base file r (unless the slice has none) for the merge.
func openHudiMerge(ctx context.Context, r io.ReaderAt, size int64, opts Options) (_ *hudiMerge, err error) {
	h := opts.hudi
	sl := h.slice
	mem := opts.Allocator
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	if opts.ReadSchema == nil {
		return nil, fmt.Errorf("%s: reader: a Hudi file slice needs a read schema", opts.Name)
	}
	read := opts.ReadSchema
	// The merge schema: the read schema, then the record key, the
	// ordering fields and _hoodie_is_deleted where the read lacks them.
	fields := append([]*schema.Field(nil), read.Fields...)
	keyField := &schema.Field{ID: sl.KeyFieldID, Name: hudiKeyName, Type: schema.String}
	m := &hudiMerge{name: opts.Name, mem: mem, ctx: ctx, read: schema.ToArrowSchema(read), nOut: len(read.Fields), mode: sl.MergeMode,
		delCol: -1, fileCol: -1, posCol: posIndex(read, opts.posFieldID()), logPos: map[string]int64{},
		stats: opts.Stats, byKey: map[string]int32{}, refs: 1}
	for i, f := range read.Fields {
		if _, ok := opts.Constants[f.ID].(string); ok && f.Name == ColumnFile && f.Type == schema.String {
			m.fileCol, m.fileID = i, f.ID
		}
	}
	defer func() {
		if err != nil {
			m.Release()
		}
	}()
	indexOf := func(f *schema.Field) int {
		for i, g := range fields {
			if g.ID == f.ID {
				return i
			}
		}
		fields = append(fields, f)
		return len(fields) - 1
	}
	m.keyCol = indexOf(keyField)
	m.ordArrow = arrow.Null
	if sl.Ordering != nil {
		for _, f := range sl.Ordering.Fields {
			m.ordCols = append(m.ordCols, indexOf(f))
		}
		if len(sl.Ordering.Fields) > 0 {
			m.ordArrow = schema.ToArrowSchema(schema.New(0, sl.Ordering.Fields[0])).Field(0).Type
		}
	}
	if sl.IsDeletedFieldID != 0 {
		m.delCol = indexOf(&schema.Field{ID: sl.IsDeletedFieldID, Name: "_hoodie_is_deleted", Type: schema.Boolean})
	}
	merge := &schema.Schema{ID: read.ID, Fields: fields}
	if m.filter, err = bindFilter(opts.Filter, read); err != nil {
		return nil, withFile(opts.Name, err)
	}
	inner := opts
	inner.hudi, inner.Filter, inner.ReadSchema = nil, nil, merge
	inner.Stats = nil
	if m.filter != nil {
		// A file slice is read whole (its log records may match whatever
		// the base file's statistics say): one file read, no row group
		// pruned, as [Table.Prune] reports it.
		opts.Stats.add(filesRead, 1)
	}

	if err := m.readLogs(ctx, h, inner); err != nil {
		return nil, err
	}
	if !sl.NoBase {
		if opts.WriterSchema == nil {
			return nil, fmt.Errorf("%s: reader: a Hudi base file needs its writer schema", opts.Name)
		}
		inner.WriterSchema = withKeyField(opts.WriterSchema, keyField)
		rr, err := Open(ctx, r, size, inner)
		if err != nil {
			return nil, err
		}
		m.base = rr
	}
	return m, nil
}

// withKeyField returns ws with the record key meta column added (under
// the merge's key field id) when ws lacks it, so that the file's
// _hoodie_record_key column resolves by name.
func withKeyField(ws *schema.Schema, key *schema.Field) *schema.Schema {
	if f := ws.FindByName(hudiKeyName, false); f != nil {
		out := &schema.Schema{ID: ws.ID, IdentifierFieldIDs: ws.IdentifierFieldIDs}
		for _, g := range ws.Fields {
			if g == f {
				g = key
			}
			out.Fields = append(out.Fields, g)
		}
		return out
	}
	return &schema.Schema{ID: ws.ID, Fields: append(append([]*schema.Field(nil), ws.Fields...), key), IdentifierFieldIDs: ws.IdentifierFieldIDs}
}

// logBlock is a data or delete block kept for the merge, with the log
// file it came from.
type logBlock struct {
	file string
	blk  *hudilog.Block
}

// readLogs reads the slice's log files in order, keeps the data and delete
// blocks of completed instants, applies rollback command blocks (a
// rollback removes the blocks its target instant wrote before it: Hudi's
// HoodieLogFormat "Command Block"), then merges the records of the blocks
// left, in order, into the key map.
func (m *hudiMerge) readLogs(ctx context.Context, h *hudiRead, inner Options) error {
	sl := h.slice
	schemaOf := map[string]*schema.Schema{}
	for _, in := range sl.Instants {
		schemaOf[in.Time] = sl.Schemas[in.Schema]
	}
	valid := func(instant string) bool {
		if _, ok := schemaOf[instant]; ok {
			return true
		}
		return sl.ArchivedBefore != "" && instant < sl.ArchivedBefore && (sl.AsOf == "" || instant <= sl.AsOf)
	}
	var held int64
	var blocks []logBlock
	for _, lf := range sl.LogFiles {
		f, err := h.fsys.Open(ctx, lf.Path)
		if err != nil {
			return pathError(lf.Path, err)
		}
		lr := hudilog.NewReader(f, f.Size(), lf.Path, hudilog.Limits{})
		for {
			blk, err := lr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				f.Close()
				return err
			}
			if blk.Type != hudilog.CommandBlock && !valid(blk.Instant()) {
				continue // an inflight, failed or rolled back write
			}
			if err := checkBlock(lf.Path, blk); err != nil {
				f.Close()
				return err
			}
			switch blk.Type {
			case hudilog.CommandBlock:
				target := blk.Header[hudilog.TargetInstantTime]
				n := 0
				for _, b := range blocks {
					if b.blk.Instant() != target {
						blocks[n] = b
						n++
					} else {
						held -= int64(len(b.blk.Content))
					}
				}
				blocks = blocks[:n]
				continue
			}
			held += int64(len(blk.Content))
			if h.budget > 0 && held > h.budget {
				f.Close()
				return fmt.Errorf("%s: %w: log blocks of %d bytes, over the budget of %d bytes", lf.Path, ErrMergeBudget, held, h.budget)
			}
			blocks = append(blocks, logBlock{file: lf.Path, blk: blk})
		}
		f.Close()
	}
	var keyBytes int64
	for _, b := range blocks {
		blkName := fmt.Sprintf("%s (%s block at offset %d)", b.file, b.blk.Type, b.blk.Offset)
		if b.blk.Type == hudilog.DeleteBlock {
			dels, err := hudilog.DeleteRecords(b.blk, b.file)
			if err != nil {
				return err
			}
			for _, d := range dels {
				keyBytes += int64(len(d.Key)) + stringKeyBytes + 40
				m.applyDelete(d)
			}
		} else {
			ws := schemaOf[b.blk.Instant()]
			if ws == nil { // archived: its own header schema, aligned by name
				var err error
				like := &schema.Schema{Fields: append(append([]*schema.Field(nil), inner.ReadSchema.Fields...), fieldsOf(inner.WriterSchema)...)}
				if ws, err = hudi.AlignAvroSchema(b.blk.Header[hudilog.Schema], like); err != nil {
					return fmt.Errorf("%s: %w", blkName, err)
				}
			}
			o := inner
			o.Name = blkName
			if m.fileCol >= 0 {
				// A log record's _file is its log file, not the base file.
				o.Constants = withConstantValue(o.Constants, m.fileID, b.file)
			}
			o.WriterSchema = withKeyField(ws, &schema.Field{ID: h.slice.KeyFieldID, Name: hudiKeyName, Type: schema.String})
			var data []byte
			if b.blk.Type == hudilog.AvroDataBlock {
				var err error
				if data, _, err = hudilog.AvroContainer(b.blk, b.file); err != nil {
					return err
				}
			} else {
				data = b.blk.Content
			}
			n, err := m.readDataBlock(ctx, data, o, b.file)
			if err != nil {
				return err
			}
			held += n
		}
		held -= int64(len(b.blk.Content)) // decoded: its batches count instead
		b.blk.Content = nil
		if h.budget > 0 && held+keyBytes > h.budget {
			return fmt.Errorf("%s: %w: log records of about %d bytes, over the budget of %d bytes", b.file, ErrMergeBudget, held+keyBytes, h.budget)
		}
	}
	return nil
}

func fieldsOf(s *schema.Schema) []*schema.Field {
	if s == nil {
		return nil
	}
	return s.Fields
}

// checkBlock refuses the blocks the merge does not read.
func checkBlock(file string, blk *hudilog.Block) error {
	switch {
	case blk.Type == hudilog.HFileDataBlock || blk.Type == hudilog.CDCDataBlock:
		return fmt.Errorf("%s: %w: %s block at offset %d", file, ErrUnsupportedLog, blk.Type, blk.Offset)
	case blk.Header[hudilog.IsPartial] == "true":
		return fmt.Errorf("%s: %w: partial-update block at offset %d", file, ErrUnsupportedLog, blk.Offset)
	case blk.Header[hudilog.CompactedBlockTimes] != "":
		return fmt.Errorf("%s: %w: log-compacted block at offset %d (COMPACTED_BLOCK_TIMES)", file, ErrUnsupportedLog, blk.Offset)
	case blk.Type == hudilog.CommandBlock && blk.Header[hudilog.CommandBlockType] != hudilog.RollbackCommand:
		return fmt.Errorf("%s: %w: command block type %q at offset %d", file, ErrUnsupportedLog, blk.Header[hudilog.CommandBlockType], blk.Offset)
	case blk.Type == hudilog.CommandBlock && blk.Header[hudilog.TargetInstantTime] == "":
		return fmt.Errorf("%s: %w: rollback block at offset %d without a target instant", file, ErrCorruptLog, blk.Offset)
	}
	return nil
}

// readDataBlock decodes a data block's records (an Avro container or a
// Parquet file in data) in the merge schema and merges each into the key
// map. It returns the bytes of the batches it keeps. A record's _pos is its
// index among the records of the data blocks of logFile read so far, from
// 0 (with _file the log file, the pair names one record, never a base row).
func (m *hudiMerge) readDataBlock(ctx context.Context, data []byte, o Options, logFile string) (int64, error) {
	rr, err := Open(ctx, bytes.NewReader(data), int64(len(data)), o)
	if err != nil {
		return 0, err
	}
	defer rr.Release()
	var n int64
	for rr.Next() {
		rec := rr.RecordBatch()
		rec.Retain()
		if m.posCol >= 0 {
			rec = setPositions(rec, m.posCol, m.logPos[logFile], m.mem)
		}
		m.logPos[logFile] += rec.NumRows()
		b := int32(len(m.logs))
		m.logs = append(m.logs, rec)
		n += recordBytes(rec)
		keys, ok := rec.Column(m.keyCol).(*array.String)
		if !ok {
			return n, fmt.Errorf("%s: %w: record key column of type %s", o.Name, ErrCorruptLog, rec.Column(m.keyCol).DataType())
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			if keys.IsNull(i) {
				return n, fmt.Errorf("%s: %w: record %d has no %s", o.Name, ErrCorruptLog, i, hudiKeyName)
			}
			m.applyRecord(keys.Value(i), mergeEntry{batch: b, row: int32(i), del: m.isDeleted(rec, i), ord: m.ords(rec, i)})
		}
	}
	return n, rr.Err()
}

func (m *hudiMerge) ords(rec arrow.RecordBatch, i int) []ordValue {
	if len(m.ordCols) == 0 {
		return nil
	}
	out := make([]ordValue, len(m.ordCols))
	for j, c := range m.ordCols {
		out[j] = ordAt(rec.Column(c), i)
	}
	return out
}

func (m *hudiMerge) isDeleted(rec arrow.RecordBatch, i int) bool {
	if m.delCol < 0 {
		return false
	}
	c, ok := rec.Column(m.delCol).(*array.Boolean)
	return ok && c.IsValid(i) && c.Value(i)
}

// applyRecord merges a log data record into the map: it replaces the
// key's record unless the merge orders by event time and the current
// (data) record has a higher ordering value (Hudi's preCombine; a later
// record wins a tie and always over a delete).
func (m *hudiMerge) applyRecord(key string, e mergeEntry) {
	i, ok := m.byKey[key]
	if !ok {
		m.byKey[key] = int32(len(m.entries))
		m.entries = append(m.entries, e)
		return
	}
	cur := &m.entries[i]
	if m.mode != "commit-time" && !cur.fromDelete && cmpOrds(cur.ord, e.ord) > 0 {
		return
	}
	*cur = e
}

// applyDelete merges a delete block's record: it deletes the key unless
// the current record has a higher ordering value of the same type (Hudi's
// processNextDeletedRecord; the merge by commit time always deletes).
func (m *hudiMerge) applyDelete(d hudilog.DeleteRecord) {
	e := mergeEntry{batch: -1, del: true, fromDelete: true}
	if len(m.ordCols) > 0 {
		if v, ok := deleteOrd(d.Ordering, m.ordType()); ok {
			e.ord = []ordValue{v}
		}
	}
	i, ok := m.byKey[d.Key]
	if !ok {
		m.byKey[d.Key] = int32(len(m.entries))
		m.entries = append(m.entries, e)
		return
	}
	cur := &m.entries[i]
	if m.mode != "commit-time" && e.ord != nil && !cur.fromDelete && len(cur.ord) > 0 && cmpOrd(cur.ord[0], e.ord[0]) > 0 {
		return
	}
	*cur = e
}

// ordType is the Arrow type of the first ordering column (null when
// there is none).
func (m *hudiMerge) ordType() arrow.DataType { return m.ordArrow }

// Schema returns the read schema's Arrow form.
func (m *hudiMerge) Schema() *arrow.Schema { return m.read }

// Next advances to the next merged batch.
func (m *hudiMerge) Next() bool {
	if m.cur != nil {
		m.cur.Release()
		m.cur = nil
	}
	for m.err == nil {
		if err := m.ctx.Err(); err != nil {
			m.err = err
			return false
		}
		var src arrow.RecordBatch
		var idx []int32
		if m.base != nil {
			if !m.base.Next() {
				if err := m.base.Err(); err != nil {
					m.err = err
					return false
				}
				m.base.Release()
				m.base = nil
				continue
			}
			src = m.base.RecordBatch()
			m.stats.add(rowsRead, src.NumRows()) // the base file's rows, decoded before the merge
			var err error
			if idx, err = m.baseRows(src); err != nil {
				m.err = err
				return false
			}
		} else {
			if m.logAt >= len(m.logs) {
				return false
			}
			src = m.logs[m.logAt]
			idx = m.logRows(src, int32(m.logAt))
			m.logAt++
		}
		if len(idx) == 0 {
			continue
		}
		out, err := m.take(src, idx)
		if err != nil {
			m.err = err
			return false
		}
		if m.filter != nil {
			if out, err = applyFilter(m.ctx, m.filter, out, m.mem, m.stats); err != nil {
				m.err = err
				return false
			}
			if out == nil {
				continue
			}
		}
		m.cur = out
		return true
	}
	return false
}

// baseRows returns the rows of a base batch the logs leave: those whose
// key has no log record, and those whose log record loses to them by
// ordering value in the event-time merge (which then marks it done).
func (m *hudiMerge) baseRows(rec arrow.RecordBatch) ([]int32, error) {
	keys, ok := rec.Column(m.keyCol).(*array.String)
	if !ok {
		return nil, fmt.Errorf("%s: %w: record key column of type %s", m.name, ErrCorruptLog, rec.Column(m.keyCol).DataType())
	}
	n := int(rec.NumRows())
	idx := make([]int32, 0, n)
	for i := 0; i < n; i++ {
		if keys.IsNull(i) {
			return nil, fmt.Errorf("%s: %w: row %d has no %s (a table written with hoodie.populate.meta.fields=false is not merged)", m.name, ErrCorruptLog, i, hudiKeyName)
		}
		j, ok := m.byKey[keys.Value(i)]
		if !ok {
			idx = append(idx, int32(i))
			continue
		}
		e := &m.entries[j]
		if e.done {
			continue
		}
		if m.mode == "event-time" && len(m.ordCols) > 0 {
			bo := m.ords(rec, i)
			baseWins := false
			if e.fromDelete {
				baseWins = e.ord != nil && cmpOrd(bo[0], e.ord[0]) > 0
			} else {
				baseWins = cmpOrds(bo, e.ord) > 0
			}
			if baseWins {
				e.done = true
				idx = append(idx, int32(i))
				continue
			}
		}
	}
	return idx, nil
}

// logRows returns the rows of log batch b that hold the final record of
// their key, when it is not a delete and the base did not win over it.
func (m *hudiMerge) logRows(rec arrow.RecordBatch, b int32) []int32 {
	keys := rec.Column(m.keyCol).(*array.String)
	var idx []int32
	for i := 0; i < int(rec.NumRows()); i++ {
		e := &m.entries[m.byKey[keys.Value(i)]]
		if e.batch == b && e.row == int32(i) && !e.del && !e.done {
			idx = append(idx, int32(i))
		}
	}
	return idx
}

// take returns rows idx of rec, the read schema's columns only.
func (m *hudiMerge) take(rec arrow.RecordBatch, idx []int32) (arrow.RecordBatch, error) {
	n := int(rec.NumRows())
	if len(idx) == n {
		cols := make([]arrow.Array, m.nOut)
		for i := range cols {
			cols[i] = rec.Column(i)
		}
		return array.NewRecordBatch(m.read, cols, int64(n)), nil
	}
	ind := make([]int64, len(idx))
	for i, j := range idx {
		ind[i] = int64(j)
	}
	cols := make([]arrow.Array, 0, m.nOut)
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	for i := 0; i < m.nOut; i++ {
		c, err := arrowtake.Take(m.mem, rec.Column(i), ind)
		if err != nil {
			return nil, fmt.Errorf("%s: merge: column %s: %w", m.name, m.read.Field(i).Name, err)
		}
		cols = append(cols, c)
	}
	return array.NewRecordBatch(m.read, cols, int64(len(idx))), nil
}

// RecordBatch returns the current batch, valid until the next Next.
func (m *hudiMerge) RecordBatch() arrow.RecordBatch { return m.cur }

// Record returns the current batch (the deprecated name).
func (m *hudiMerge) Record() arrow.RecordBatch { return m.cur }

// Err returns the error that ended the read, if any.
func (m *hudiMerge) Err() error {
	if m.err != nil && !errors.Is(m.err, context.Canceled) {
		return withFile(m.name, m.err)
	}
	return m.err
}

// Retain adds a reference.
func (m *hudiMerge) Retain() { m.refs++ }

// Release drops a reference; the last releases every batch and closes the
// base file.
func (m *hudiMerge) Release() {
	m.refs--
	if m.refs > 0 || m.released {
		return
	}
	m.released = true
	if m.cur != nil {
		m.cur.Release()
		m.cur = nil
	}
	if m.base != nil {
		m.base.Release()
		m.base = nil
	}
	for _, l := range m.logs {
		l.Release()
	}
	m.logs = nil
	if m.closer != nil {
		m.closer.Close()
	}
}

// planHudiLogs builds the projection plan of a file slice without a base
// file: that of its first data block of a completed instant, read in the
// schema its instant wrote with (what `lakecat files` and `lakecat plan`
// report for the slice).
func planHudiLogs(ctx context.Context, fsys storage.FS, task table.Task, o Options) (*project.Plan, error) {
	sl := task.Hudi
	key := &schema.Field{ID: sl.KeyFieldID, Name: hudiKeyName, Type: schema.String}
	for _, lf := range sl.LogFiles {
		f, err := fsys.Open(ctx, lf.Path)
		if err != nil {
			return nil, pathError(lf.Path, err)
		}
		lr := hudilog.NewReader(f, f.Size(), lf.Path, hudilog.Limits{})
		for {
			blk, err := lr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				f.Close()
				return nil, err
			}
			if blk.Type != hudilog.AvroDataBlock && blk.Type != hudilog.ParquetDataBlock {
				continue
			}
			var ws *schema.Schema
			for _, in := range sl.Instants {
				if in.Time == blk.Instant() {
					ws = sl.Schemas[in.Schema]
				}
			}
			if ws == nil {
				continue
			}
			f.Close()
			data := blk.Content
			if blk.Type == hudilog.AvroDataBlock {
				if data, _, err = hudilog.AvroContainer(blk, lf.Path); err != nil {
					return nil, err
				}
			}
			o.Name = fmt.Sprintf("%s (%s block at offset %d)", lf.Path, blk.Type, blk.Offset)
			o.WriterSchema, o.hudi = withKeyField(ws, key), nil
			return Plan(bytes.NewReader(data), int64(len(data)), o)
		}
		f.Close()
	}
	return nil, fmt.Errorf("%s: %w: no data block of a completed instant in the file slice's log files", task.Path, ErrCorruptLog)
}
