package merge

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/internal/arrowtake"
)

// Run is one sorted run: batches in ascending key order, every batch in
// the schema given to [NewReader].
type Run interface {
	// Name names the run in errors (its data file).
	Name() string
	// Next returns the run's next batch, which the caller releases, or
	// io.EOF after the last.
	Next() (arrow.RecordBatch, error)
	// Close releases the run's resources.
	Close() error
}

// Options configure [NewReader].
type Options struct {
	// BatchRows is the number of rows per output batch (0: 8192).
	BatchRows int
	// Allocator allocates output batches (nil: memory.DefaultAllocator).
	Allocator memory.Allocator
	// MemoryBytes bounds the bytes of the source batches the merge holds
	// at once (0: no bound; bytes of the buffers, counted as
	// [Reader.HeldBytes] does): the current batch of each run and the
	// batches the pending output rows come from. When the held bytes pass
	// it the merge emits the rows it has, so an output batch may have
	// fewer than BatchRows rows. The held bytes stay within MemoryBytes
	// plus the batches the last key group loaded (one per run, unless a
	// key repeats over a whole batch); the floor is one batch per run,
	// and a bound below it is exceeded, not an error.
	MemoryBytes int64
}

type ref struct{ src, row int32 }

type entry struct {
	ref
	rec  arrow.RecordBatch
	kind int8
	seq  int64
}

type cursor struct {
	run  Run
	idx  int
	rec  arrow.RecordBatch
	keys []arrow.Array
	kind []int8
	seq  []int64
	// bytes is rec's size, counted in Reader.heldBytes while the cursor
	// is on it or it is held.
	bytes int64
	// i64 holds the key's values when the key is one non-null BIGINT
	// column (the common case), compared without the generic path.
	i64  []int64
	row  int
	n    int
	held int32 // index of rec in held, or -1
}

// Reader is the merged rows of its runs, one row per key in ascending key
// order, as an array.RecordReader. A batch is valid until the next call
// to Next; Retain it to keep it. Check Err after Next returns false.
type Reader struct {
	refs      int64
	mem       memory.Allocator
	schema    *arrow.Schema
	spec      Spec
	keyCmp    []compareFunc
	seqCmp    []compareFunc
	runs      []Run
	heap      []*cursor
	batchRows int
	perColumn bool

	held      []arrow.RecordBatch
	heldOwn   []int64 // per held batch: its bytes once no cursor is on it (0 while one is)
	maxBytes  int64
	heldBytes int64 // bytes of the distinct source batches held (cursors' and held)
	peakBytes int64
	rows      []ref   // whole-row mode: the source of each output row
	cols      [][]ref // per-column mode: each column's sources (src -1: null)
	accs      []*accumulator
	builder   []array.Builder
	nout      int
	group     []entry
	state     []ref
	groupAt   []int // per sequence group: the group entry of its current values, or -1
	firstSet  []bool
	cmps      []compareFunc

	cur  arrow.RecordBatch
	err  error
	done bool
}

// NewReader returns the merge of runs, batches of schema s, by spec. It
// owns the runs and closes them when released. Errors: [ErrSpec] for a
// spec that does not fit s; while reading, [ErrUnsorted] naming a run
// whose keys go down, [ErrRetract] for a retract the engine refuses, and
// the runs' own errors.
func NewReader(s *arrow.Schema, runs []Run, spec Spec, opts Options) (*Reader, error) {
	if err := spec.check(s); err != nil {
		for _, r := range runs {
			r.Close()
		}
		return nil, err
	}
	if spec.Engine == "" {
		spec.Engine = Deduplicate
	}
	r := &Reader{refs: 1, mem: opts.Allocator, schema: s, spec: spec, runs: runs, batchRows: opts.BatchRows, maxBytes: opts.MemoryBytes}
	if r.mem == nil {
		r.mem = memory.DefaultAllocator
	}
	if r.batchRows <= 0 {
		r.batchRows = 8192
	}
	for _, c := range spec.Keys {
		f, err := comparator(s.Field(c).Type)
		if err != nil {
			r.closeRuns()
			return nil, fmt.Errorf("key column %s: %w", s.Field(c).Name, err)
		}
		r.keyCmp = append(r.keyCmp, f)
	}
	for _, c := range spec.Sequence {
		f, err := comparator(s.Field(c).Type)
		if err != nil {
			r.closeRuns()
			return nil, fmt.Errorf("sequence field %s: %w", s.Field(c).Name, err)
		}
		r.seqCmp = append(r.seqCmp, f)
	}
	r.perColumn = spec.Engine == PartialUpdate || spec.Engine == Aggregation
	if r.perColumn {
		r.cols = make([][]ref, s.NumFields())
		r.state = make([]ref, s.NumFields())
		r.accs = make([]*accumulator, s.NumFields())
		r.builder = make([]array.Builder, s.NumFields())
		if spec.Engine == Aggregation {
			for c := range r.accs {
				if a := spec.aggregate(c); computed(a.Function) {
					r.accs[c] = &accumulator{agg: a}
					r.builder[c] = array.NewBuilder(r.mem, s.Field(c).Type)
				}
			}
		}
	}
	for i, run := range runs {
		c := &cursor{run: run, idx: i, held: -1}
		ok, err := r.load(c)
		if err != nil {
			r.closeRuns()
			return nil, err
		}
		if ok {
			r.heap = append(r.heap, c)
		}
	}
	for i := len(r.heap)/2 - 1; i >= 0; i-- {
		r.down(i)
	}
	return r, nil
}

func (r *Reader) closeRuns() {
	for _, c := range r.heap {
		if c.rec != nil {
			c.rec.Release()
			c.rec = nil
			r.heldBytes -= c.bytes
		}
	}
	r.heap = nil
	for _, run := range r.runs {
		run.Close()
	}
	r.runs = nil
}

// load reads c's next non-empty batch, checking that its first key is not
// below the last key of the batch before; it reports false at the end of
// the run.
func (r *Reader) load(c *cursor) (bool, error) {
	prev, prevKeys, prevN := c.rec, c.keys, c.n
	if prev != nil {
		if c.held >= 0 {
			r.heldOwn[c.held] = c.bytes // held on: counted until reset
		} else {
			r.heldBytes -= c.bytes
		}
	}
	c.rec = nil // an error below leaves the cursor on no batch
	defer func() {
		if prev != nil {
			prev.Release()
		}
	}()
	for {
		rec, err := c.run.Next()
		if errors.Is(err, io.EOF) {
			c.rec, c.keys, c.n = nil, nil, 0
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if !rec.Schema().Equal(r.schema) {
			rec.Release()
			return false, fmt.Errorf("%s: %w: batch schema %s differs from the merge schema %s", c.run.Name(), ErrSpec, rec.Schema(), r.schema)
		}
		if rec.NumRows() == 0 {
			rec.Release()
			continue
		}
		c.rec, c.n, c.row, c.held = rec, int(rec.NumRows()), 0, -1
		c.bytes = batchBytes(rec)
		r.heldBytes += c.bytes
		r.peakBytes = max(r.peakBytes, r.heldBytes)
		c.keys = c.keys[:0:0]
		for _, k := range r.spec.Keys {
			c.keys = append(c.keys, rec.Column(k))
		}
		c.kind = rec.Column(r.spec.ValueKind).(*array.Int8).Int8Values()
		c.seq = rec.Column(r.spec.SequenceNumber).(*array.Int64).Int64Values()
		c.i64 = nil
		if k, ok := c.keys[0].(*array.Int64); ok && len(c.keys) == 1 && k.NullN() == 0 {
			c.i64 = k.Int64Values()
			// The order within the batch is checked here, once, so step
			// need not compare each row with the one before.
			for i := 1; i < len(c.i64); i++ {
				if c.i64[i-1] > c.i64[i] {
					c.rec.Release()
					c.rec, c.keys, c.n = nil, nil, 0
					r.heldBytes -= c.bytes
					return false, fmt.Errorf("%s: %w: row %d of a batch has a key below the row before it", c.run.Name(), ErrUnsorted, i)
				}
			}
		}
		if prev != nil && compareKeys(r.keyCmp, prevKeys, prevN-1, c.keys, 0) > 0 {
			return false, fmt.Errorf("%s: %w: the key at the start of a batch is below the one before it", c.run.Name(), ErrUnsorted)
		}
		return true, nil
	}
}

func compareKeys(cmps []compareFunc, a []arrow.Array, i int, b []arrow.Array, j int) int {
	for k, f := range cmps {
		if c := f(a[k], i, b[k], j); c != 0 {
			return c
		}
	}
	return 0
}

func (r *Reader) less(a, b *cursor) bool {
	c := r.cmpRows(a, a.row, b, b.row)
	return c < 0 || c == 0 && a.idx < b.idx
}

// cmpRows compares the key of row i of cursor a with row j of cursor b.
func (r *Reader) cmpRows(a *cursor, i int, b *cursor, j int) int {
	if a.i64 != nil && b.i64 != nil {
		x, y := a.i64[i], b.i64[j]
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	return compareKeys(r.keyCmp, a.keys, i, b.keys, j)
}

func (r *Reader) down(i int) {
	h := r.heap
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if l+1 < len(h) && r.less(h[l+1], h[l]) {
			m = l + 1
		}
		if !r.less(h[m], h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// popRoot removes the heap's root (an exhausted cursor).
func (r *Reader) popRoot() {
	n := len(r.heap) - 1
	r.heap[0] = r.heap[n]
	r.heap[n] = nil
	r.heap = r.heap[:n]
	if n > 0 {
		r.down(0)
	}
}

// hold returns the index in held of c's batch, retaining it there.
func (r *Reader) hold(c *cursor) int32 {
	if c.held < 0 {
		c.rec.Retain()
		r.held = append(r.held, c.rec)
		r.heldOwn = append(r.heldOwn, 0)
		c.held = int32(len(r.held) - 1)
	}
	return c.held
}

// step moves the root cursor c to its next row (row, in a batch), fixing
// the heap; it checks the run's order within the batch.
func (r *Reader) step(c *cursor) error {
	c.row++
	if c.row < c.n {
		if c.i64 == nil && r.cmpRows(c, c.row-1, c, c.row) > 0 {
			return fmt.Errorf("%s: %w: row %d of a batch has a key below the row before it", c.run.Name(), ErrUnsorted, c.row)
		}
		r.down(0)
		return nil
	}
	ok, err := r.load(c)
	if err != nil {
		return err
	}
	if !ok {
		r.popRoot()
		return nil
	}
	r.down(0)
	return nil
}

func retract(kind int8) bool { return kind == UpdateBefore || kind == Delete }

// fill merges keys until a batch's worth of rows is pending, too many
// source batches (or bytes, over Options.MemoryBytes) are held, or the
// runs are exhausted.
func (r *Reader) fill() error {
	maxHeld := 2*len(r.runs) + 8
	for r.nout < r.batchRows && len(r.heap) > 0 && len(r.held) < maxHeld && (r.maxBytes <= 0 || r.nout == 0 || r.heldBytes <= r.maxBytes) {
		c := r.heap[0]
		if !r.perColumn {
			n, err := r.stretch(c)
			if err != nil {
				return err
			}
			if n > 0 {
				continue
			}
		}
		if err := r.mergeGroup(); err != nil {
			return err
		}
	}
	return nil
}

// stretch emits the rows of the root cursor c whose keys are below every
// other run's current key and unique in c (whole-row engines only): each
// is its own key group. It returns how many rows it consumed.
func (r *Reader) stretch(c *cursor) (int, error) {
	var next *cursor
	if len(r.heap) > 1 {
		next = r.heap[1]
		if len(r.heap) > 2 && r.less(r.heap[2], next) {
			next = r.heap[2]
		}
	}
	start := c.row
	end := start
	limit := min(c.n, start+r.batchRows-r.nout)
	for end < limit {
		if next != nil && r.cmpRows(c, end, next, next.row) >= 0 {
			break
		}
		if end+1 < c.n {
			d := r.cmpRows(c, end, c, end+1)
			if d > 0 {
				return 0, fmt.Errorf("%s: %w: row %d of a batch has a key below the row before it", c.run.Name(), ErrUnsorted, end+1)
			}
			if d == 0 {
				break // a key repeated in the run: a group
			}
		}
		end++
	}
	if end == start {
		return 0, nil
	}
	src := r.hold(c)
	for i := start; i < end; i++ {
		if retract(c.kind[i]) {
			if r.spec.Engine == FirstRow && !r.spec.IgnoreDelete {
				return 0, r.retractError(c.run.Name(), c.kind[i])
			}
			continue
		}
		r.rows = append(r.rows, ref{src, int32(i)})
		r.nout++
	}
	c.row = end - 1
	if err := r.step(c); err != nil {
		return 0, err
	}
	return end - start, nil
}

func (r *Reader) retractError(name string, kind int8) error {
	k := "-U"
	if kind == Delete {
		k = "-D"
	}
	return fmt.Errorf("%s: %w: the %s merge engine got a %s record; set ignore-delete to drop retracts", name, ErrRetract, r.spec.Engine, k)
}

// mergeGroup collects every record of the root's key from all runs and
// merges them.
func (r *Reader) mergeGroup() error {
	g := r.group[:0]
	c := r.heap[0]
	src := r.hold(c)
	key := cursor{keys: c.keys, i64: c.i64}
	keyRow := c.row
	first := c.run.Name()
	i64, keyVal := c.i64 != nil, int64(0)
	if i64 {
		keyVal = c.i64[keyRow]
	}
	for len(r.heap) > 0 {
		c := r.heap[0]
		if len(g) > 0 {
			if i64 && c.i64 != nil {
				if c.i64[c.row] != keyVal {
					break
				}
			} else if r.cmpRows(c, c.row, &key, keyRow) != 0 {
				break
			}
		}
		if len(g) > 0 {
			src = r.hold(c)
		}
		g = append(g, entry{ref: ref{src, int32(c.row)}, rec: c.rec, kind: c.kind[c.row], seq: c.seq[c.row]})
		if err := r.step(c); err != nil {
			r.group = g
			return err
		}
	}
	r.group = g
	r.order(g)
	switch r.spec.Engine {
	case Deduplicate:
		for i := len(g) - 1; i >= 0; i-- {
			if retract(g[i].kind) {
				if r.spec.IgnoreDelete {
					continue
				}
				return nil
			}
			r.rows = append(r.rows, g[i].ref)
			r.nout++
			return nil
		}
	case FirstRow:
		out := -1
		for i, e := range g {
			if retract(e.kind) {
				if r.spec.IgnoreDelete {
					continue
				}
				return r.retractError(first, e.kind)
			}
			if out < 0 {
				out = i
			}
		}
		if out >= 0 {
			r.rows = append(r.rows, g[out].ref)
			r.nout++
		}
	case PartialUpdate:
		return r.partialUpdate(g, first)
	case Aggregation:
		return r.aggregate(g, first)
	}
	return nil
}

// order sorts a key's records by compareEntries; records arrive in run
// order, newest run first as planned, so a reversal usually does it.
func (r *Reader) order(g []entry) {
	if len(g) < 2 {
		return
	}
	asc, desc := true, true
	for i := 1; i < len(g) && (asc || desc); i++ {
		var c int
		if len(r.seqCmp) == 0 {
			c = cmp.Compare(g[i-1].seq, g[i].seq) // compareEntries, inlined
		} else {
			c = r.compareEntries(g[i-1], g[i])
		}
		asc = asc && c <= 0
		desc = desc && c > 0
	}
	switch {
	case asc:
	case desc:
		slices.Reverse(g)
	default:
		slices.SortStableFunc(g, r.compareEntries)
	}
}

// compareEntries orders a key's records: by the user sequence fields, then
// the sequence number.
func (r *Reader) compareEntries(a, b entry) int {
	for i, f := range r.seqCmp {
		col := r.spec.Sequence[i]
		if c := f(a.rec.Column(col), int(a.row), b.rec.Column(col), int(b.row)); c != 0 {
			return c
		}
	}
	switch {
	case a.seq < b.seq:
		return -1
	case a.seq > b.seq:
		return 1
	}
	return 0
}

// partialUpdate merges g by Paimon's partial-update rules (Paimon docs,
// "Partial Update"): each field takes the last non-null value; a sequence
// group's fields take the values of the record with the highest group
// sequence (nulls included), records whose group sequence is all null
// leaving the group alone.
func (r *Reader) partialUpdate(g []entry, name string) error {
	st := r.state
	for i := range st {
		st[i] = ref{-1, 0}
	}
	inGroup := make([]bool, len(st))
	for _, sg := range r.spec.SequenceGroups {
		for _, c := range append(append([]int(nil), sg.Sequence...), sg.Fields...) {
			inGroup[c] = true
		}
	}
	if cap(r.groupAt) < len(r.spec.SequenceGroups) {
		r.groupAt = make([]int, len(r.spec.SequenceGroups))
	}
	groupAt := r.groupAt[:len(r.spec.SequenceGroups)]
	for i := range groupAt {
		groupAt[i] = -1
	}
	started := false
	last := -1
	for gi, e := range g {
		if retract(e.kind) {
			switch {
			case r.spec.IgnoreDelete:
				continue
			case r.spec.RemoveRecordOnDelete && e.kind == Delete:
				for i := range st {
					st[i] = ref{-1, 0}
				}
				for i := range groupAt {
					groupAt[i] = -1
				}
				started = false
				continue
			case len(r.spec.SequenceGroups) > 0:
				for si, sg := range r.spec.SequenceGroups {
					if r.groupNull(e, sg) || groupAt[si] >= 0 && r.compareGroup(e, g[groupAt[si]], sg) < 0 {
						continue
					}
					for _, c := range sg.Fields {
						st[c] = ref{-1, 0}
					}
				}
				continue
			}
			return r.retractError(name, e.kind)
		}
		started = true
		last = gi
		for c := range st {
			if inGroup[c] {
				continue
			}
			if !e.rec.Column(c).IsNull(int(e.row)) {
				st[c] = e.ref
			}
		}
		for si, sg := range r.spec.SequenceGroups {
			if r.groupNull(e, sg) || groupAt[si] >= 0 && r.compareGroup(e, g[groupAt[si]], sg) < 0 {
				continue
			}
			groupAt[si] = gi
			for _, c := range sg.Sequence {
				st[c] = e.ref
			}
			for _, c := range sg.Fields {
				st[c] = e.ref
			}
		}
	}
	if !started {
		return nil
	}
	for _, c := range r.spec.Keys {
		st[c] = g[last].ref
	}
	st[r.spec.SequenceNumber], st[r.spec.ValueKind] = g[last].ref, g[last].ref
	for c := range st {
		r.cols[c] = append(r.cols[c], st[c])
	}
	r.nout++
	return nil
}

func (r *Reader) groupNull(e entry, sg SequenceGroup) bool {
	for _, c := range sg.Sequence {
		if !e.rec.Column(c).IsNull(int(e.row)) {
			return false
		}
	}
	return true
}

func (r *Reader) compareGroup(a, b entry, sg SequenceGroup) int {
	for _, c := range sg.Sequence {
		f := r.colCmp(c)
		if f == nil {
			return 0
		}
		if d := f(a.rec.Column(c), int(a.row), b.rec.Column(c), int(b.row)); d != 0 {
			return d
		}
	}
	return 0
}

// aggregate folds g column by column with each column's aggregate
// function (Paimon docs, "Aggregation"); key and system columns take the
// last record's values.
func (r *Reader) aggregate(g []entry, name string) error {
	st := r.state
	for i := range st {
		st[i] = ref{-1, 0}
		if r.accs[i] != nil {
			r.accs[i].reset()
		}
	}
	firstSet := r.firstSet[:0]
	for range st {
		firstSet = append(firstSet, false)
	}
	r.firstSet = firstSet
	started := false
	last := -1
	for gi, e := range g {
		rt := retract(e.kind)
		if rt && r.spec.IgnoreDelete {
			continue
		}
		if rt && r.spec.RemoveRecordOnDelete && e.kind == Delete {
			for i := range st {
				st[i] = ref{-1, 0}
				if r.accs[i] != nil {
					r.accs[i].reset()
				}
			}
			started, last = false, -1
			continue
		}
		started = true
		last = gi
		for c := range st {
			a := r.spec.aggregate(c)
			col := e.rec.Column(c)
			null := col.IsNull(int(e.row))
			if rt && a.IgnoreRetract {
				continue
			}
			switch a.Function {
			case "":
			case "last_value":
				if rt {
					st[c] = ref{-1, 0}
				} else {
					st[c] = e.ref
				}
			case "last_non_null_value":
				if rt {
					if !null {
						st[c] = ref{-1, 0}
					}
				} else if !null {
					st[c] = e.ref
				}
			case "first_value", "first_non_null_value", "min", "max":
				if rt {
					return fmt.Errorf("%s: %w: aggregate function %s of column %s cannot retract; set fields.%s.ignore-retract",
						name, ErrRetract, a.Function, r.schema.Field(c).Name, r.schema.Field(c).Name)
				}
				switch a.Function {
				case "first_value":
					if !firstSet[c] {
						firstSet[c] = true
						st[c] = e.ref
					}
				case "first_non_null_value":
					if st[c].src < 0 && !null {
						st[c] = e.ref
					}
				default:
					if null {
						continue
					}
					if st[c].src < 0 {
						st[c] = e.ref
						continue
					}
					f := r.colCmp(c)
					w := r.entryOf(g, st[c])
					d := f(col, int(e.row), w.rec.Column(c), int(w.row))
					if a.Function == "min" && d < 0 || a.Function == "max" && d > 0 {
						st[c] = e.ref
					}
				}
			default:
				if !r.accs[c].add(col, int(e.row), rt) {
					return fmt.Errorf("%s: %w: aggregate function %s of column %s cannot retract; set fields.%s.ignore-retract",
						name, ErrRetract, a.Function, r.schema.Field(c).Name, r.schema.Field(c).Name)
				}
			}
		}
	}
	if !started {
		return nil
	}
	for _, c := range r.spec.Keys {
		st[c] = g[last].ref
	}
	st[r.spec.SequenceNumber], st[r.spec.ValueKind] = g[last].ref, g[last].ref
	for c := range st {
		if r.accs[c] != nil {
			r.accs[c].appendTo(r.builder[c])
			continue
		}
		r.cols[c] = append(r.cols[c], st[c])
	}
	r.nout++
	return nil
}

// colCmp returns the comparison of column c's type (nil for a type
// without one, which check refused where it matters).
func (r *Reader) colCmp(c int) compareFunc {
	if r.cmps == nil {
		r.cmps = make([]compareFunc, r.schema.NumFields())
	}
	if r.cmps[c] == nil {
		r.cmps[c], _ = comparator(r.schema.Field(c).Type)
	}
	return r.cmps[c]
}

func (r *Reader) entryOf(g []entry, x ref) entry {
	for _, e := range g {
		if e.ref == x {
			return e
		}
	}
	return entry{}
}

// Next merges the next batch, releasing the previous one.
func (r *Reader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	for r.err == nil && !r.done {
		if err := r.fill(); err != nil {
			r.err = err
			r.reset()
			return false
		}
		exhausted := len(r.heap) == 0
		if r.nout > 0 {
			rec, err := r.build()
			r.reset()
			if err != nil {
				r.err = err
				return false
			}
			r.done = exhausted
			r.cur = rec
			return true
		}
		r.reset()
		r.done = exhausted
	}
	return false
}

// reset drops the pending rows and releases the held batches.
func (r *Reader) reset() {
	r.rows = r.rows[:0]
	for c := range r.cols {
		r.cols[c] = r.cols[c][:0]
	}
	r.nout = 0
	for i, b := range r.held {
		b.Release()
		r.heldBytes -= r.heldOwn[i]
	}
	clear(r.held)
	r.held = r.held[:0]
	r.heldOwn = r.heldOwn[:0]
	for _, c := range r.heap {
		c.held = -1
	}
}

// build makes the pending rows a batch.
func (r *Reader) build() (arrow.RecordBatch, error) {
	n := r.nout
	if !r.perColumn {
		if src, off, ok := stretchOf(r.rows); ok {
			return r.held[src].NewSlice(int64(off), int64(off)+int64(n)), nil
		}
	}
	cols := make([]arrow.Array, r.schema.NumFields())
	release := func() {
		for _, a := range cols {
			if a != nil {
				a.Release()
			}
		}
	}
	var idx []int64
	parts := make([]arrow.Array, len(r.held))
	for c := range cols {
		if r.perColumn && r.builder[c] != nil {
			cols[c] = r.builder[c].NewArray()
			continue
		}
		refs := r.rows
		if r.perColumn {
			refs = r.cols[c]
		}
		for i, b := range r.held {
			parts[i] = b.Column(c)
		}
		if a, ok := gather(r.mem, r.schema.Field(c).Type, parts, refs); ok {
			cols[c] = a
			continue
		}
		if !r.perColumn && idx == nil {
			idx = r.indices(r.rows)
		}
		var cidx []int64
		if !r.perColumn {
			cidx = idx
		}
		a, err := r.take(c, refs, cidx)
		if err != nil {
			release()
			return nil, err
		}
		cols[c] = a
	}
	rec := array.NewRecordBatch(r.schema, cols, int64(n))
	release()
	return rec, nil
}

// stretchOf reports whether refs are consecutive rows of one batch.
func stretchOf(refs []ref) (src, off int32, ok bool) {
	if len(refs) == 0 {
		return 0, 0, false
	}
	src, off = refs[0].src, refs[0].row
	for i, x := range refs {
		if x.src != src || x.row != off+int32(i) {
			return 0, 0, false
		}
	}
	return src, off, true
}

// indices turns refs into take indices over the held batches laid end to
// end (src -1: index -1, a null row).
func (r *Reader) indices(refs []ref) []int64 {
	offs := make([]int64, len(r.held))
	var total int64
	for i, b := range r.held {
		offs[i] = total
		total += b.NumRows()
	}
	out := make([]int64, len(refs))
	for i, x := range refs {
		if x.src < 0 {
			out[i] = -1
			continue
		}
		out[i] = offs[x.src] + int64(x.row)
	}
	return out
}

// take gathers column c's values for refs (idx, when not nil, is
// r.indices(refs)).
func (r *Reader) take(c int, refs []ref, idx []int64) (arrow.Array, error) {
	if idx == nil {
		idx = r.indices(refs)
	}
	var values arrow.Array
	if len(r.held) == 1 {
		values = r.held[0].Column(c)
		values.Retain()
	} else {
		parts := make([]arrow.Array, len(r.held))
		for i, b := range r.held {
			parts[i] = b.Column(c)
		}
		var err error
		if values, err = array.Concatenate(parts, r.mem); err != nil {
			return nil, err
		}
	}
	defer values.Release()
	out, err := arrowtake.Take(r.mem, values, idx)
	if err != nil {
		return nil, fmt.Errorf("merge: column %s: %w", r.schema.Field(c).Name, err)
	}
	return out, nil
}

// HeldBytes returns the bytes of the source batches the merge holds now
// and the most it has held at once: the sizes of their buffers (each
// distinct batch once; slices of one buffer counted whole), the figure
// Options.MemoryBytes bounds. The output batch, which shares or copies
// their values, is not included.
func (r *Reader) HeldBytes() (now, peak int64) { return r.heldBytes, r.peakBytes }

// batchBytes is the size in bytes of the buffers rec holds.
func batchBytes(rec arrow.RecordBatch) int64 {
	var n int64
	var walk func(d arrow.ArrayData)
	walk = func(d arrow.ArrayData) {
		for _, b := range d.Buffers() {
			if b != nil {
				n += int64(b.Len())
			}
		}
		for _, c := range d.Children() {
			walk(c)
		}
	}
	for _, c := range rec.Columns() {
		walk(c.Data())
	}
	return n
}

// Schema is the batches' schema (the runs' schema).
func (r *Reader) Schema() *arrow.Schema { return r.schema }

// RecordBatch returns the current batch.
func (r *Reader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch (the deprecated name of array.RecordReader).
func (r *Reader) Record() arrow.RecordBatch { return r.cur }

// Err returns the error that ended the merge, or nil.
func (r *Reader) Err() error { return r.err }

// Retain adds a reference.
func (r *Reader) Retain() { atomic.AddInt64(&r.refs, 1) }

// Release drops a reference; the last releases every batch and closes the
// runs.
func (r *Reader) Release() {
	if atomic.AddInt64(&r.refs, -1) != 0 {
		return
	}
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	r.reset()
	for _, b := range r.builder {
		if b != nil {
			b.Release()
		}
	}
	r.closeRuns()
}
