package reader

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/formats/orc"
	"github.com/lakecat/lakecat/formats/parquet"
	"github.com/lakecat/lakecat/internal/recycle"
	"github.com/lakecat/lakecat/project"
	"github.com/lakecat/lakecat/schema"
)

// groupsSource decodes the row groups (Parquet) or stripes (ORC) of one
// file concurrently and yields their batches in file order. Each of
// workers goroutines takes the next group, opens a batch source over it
// alone and queues its batches; Next returns the head group's batches and
// moves on when that group is done.
//
// Memory: at most workers groups are open at once, none more than
// workers-1 ahead of the head group, and a worker on a group other than
// the head waits while the queued batches hold budget bytes or more. The
// head group's worker never waits (Next drains it), so the read cannot
// deadlock; the queued bytes stay within budget plus one batch per worker.
//
// The groups' batch readers build their batches from one shared
// [recycle.Pool], so a group decoded after a batch of an earlier group was
// released reuses that batch's buffers: a reader per group would otherwise
// start with no buffers and allocate (and, with Go's allocator, zero and
// collect) fresh ones for each group, which one reader over the whole file
// does not.
type groupsSource struct {
	groups []int // row group or stripe indices, ascending
	// open returns a source over one group. prev, when not nil, is the
	// source of the worker's previous group, read to its end: open takes
	// it over, returning it moved to group or closing it.
	open    func(ctx context.Context, group int, prev batchSource) (batchSource, error)
	before  func(group int) int64 // file rows before the group
	workers int
	budget  int64
	pool    *recycle.Pool // the groups' readers' allocator, closed by Close

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	stop   func() bool // context.AfterFunc's stop

	mu     sync.Mutex
	cond   *sync.Cond
	queues []groupQueue // one per entry of groups
	head   int          // the entry Next reads from
	next   int          // the entry the next free worker takes
	bytes  int64        // bytes of the queued batches
	closed bool
	last   int64 // file row of the first row of the batch Next returned last
}

type groupQueue struct {
	batches []arrow.RecordBatch
	// at holds, per queued batch, the file row of its first row when the
	// group's source tells it (a source that skips rows), else -1.
	at    []int64
	start int64 // file row of the first queued batch's first row
	done  bool
	err   error
}

// newGroupsSource starts the workers of a read of groups; open builds the
// batches of a group with pool, which Close closes.
func newGroupsSource(ctx context.Context, groups []int, workers int, budget int64, pool *recycle.Pool,
	open func(ctx context.Context, group int, prev batchSource) (batchSource, error), before func(group int) int64) *groupsSource {
	ctx, cancel := context.WithCancel(ctx)
	s := &groupsSource{groups: groups, open: open, before: before, workers: min(workers, len(groups)), budget: budget, pool: pool,
		ctx: ctx, cancel: cancel, queues: make([]groupQueue, len(groups))}
	s.cond = sync.NewCond(&s.mu)
	for i, g := range groups {
		s.queues[i].start = before(g)
	}
	s.stop = context.AfterFunc(ctx, func() {
		s.mu.Lock()
		s.cond.Broadcast()
		s.mu.Unlock()
	})
	for range s.workers {
		s.wg.Add(1)
		go s.work()
	}
	return s
}

func (s *groupsSource) work() {
	defer s.wg.Done()
	var src batchSource // the source of the worker's last group
	defer func() {
		if src != nil {
			src.Close()
		}
	}()
	for {
		s.mu.Lock()
		for !s.closed && s.ctx.Err() == nil && s.next < len(s.groups) && s.next >= s.head+s.workers {
			s.cond.Wait()
		}
		if s.closed || s.ctx.Err() != nil || s.next >= len(s.groups) {
			s.mu.Unlock()
			return
		}
		i := s.next
		s.next++
		s.mu.Unlock()
		src = s.readGroup(i, src)
	}
}

// readGroup queues the batches of entry i of groups, read by a source that
// open makes of prev, and returns that source (nil after a decoding error:
// a source that failed is not moved to another group).
func (s *groupsSource) readGroup(i int, prev batchSource) batchSource {
	finish := func(err error) {
		s.mu.Lock()
		s.queues[i].done, s.queues[i].err = true, err
		s.cond.Broadcast()
		s.mu.Unlock()
	}
	src, err := s.open(s.ctx, s.groups[i], prev)
	if err != nil {
		finish(err)
		return nil
	}
	for {
		b, err := src.Next(s.ctx)
		if errors.Is(err, io.EOF) {
			if g, ok := src.(interface{ groupDone() }); ok {
				g.groupDone() // before Next can pass the group
			}
			finish(nil)
			return src
		}
		if err != nil {
			src.Close()
			finish(err)
			return nil
		}
		n := recordBytes(b)
		s.mu.Lock()
		for !s.closed && s.ctx.Err() == nil && i != s.head && s.bytes >= s.budget {
			s.cond.Wait()
		}
		if s.closed || s.ctx.Err() != nil {
			s.mu.Unlock()
			b.Release()
			finish(s.ctx.Err())
			return src
		}
		s.queues[i].batches = append(s.queues[i].batches, b)
		s.queues[i].at = append(s.queues[i].at, sourceBatchStart(src))
		s.bytes += n
		s.cond.Broadcast()
		s.mu.Unlock()
	}
}

// Next returns the next batch in file order, or io.EOF after the last.
func (s *groupsSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if s.head >= len(s.queues) {
			return nil, io.EOF
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := s.ctx.Err(); err != nil {
			return nil, err
		}
		q := &s.queues[s.head]
		if len(q.batches) > 0 {
			b := q.batches[0]
			q.batches[0] = nil
			q.batches = q.batches[1:]
			s.bytes -= recordBytes(b)
			s.last = q.start
			if at := q.at[0]; at >= 0 {
				s.last = at
			}
			q.at = q.at[1:]
			q.start = s.last + b.NumRows()
			s.cond.Broadcast()
			return b, nil
		}
		if q.done {
			if q.err != nil {
				return nil, q.err
			}
			s.head++
			s.cond.Broadcast()
			continue
		}
		if ctx != s.ctx {
			// Wake on the caller's cancellation too.
			stop := context.AfterFunc(ctx, func() {
				s.mu.Lock()
				s.cond.Broadcast()
				s.mu.Unlock()
			})
			s.cond.Wait()
			stop()
			continue
		}
		s.cond.Wait()
	}
}

func (s *groupsSource) batchStart() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// Close stops the workers, waits for them and releases the batches still
// queued.
func (s *groupsSource) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.cond.Broadcast()
	s.mu.Unlock()
	s.cancel()
	s.wg.Wait()
	s.stop()
	for i := range s.queues {
		for _, b := range s.queues[i].batches {
			b.Release()
		}
		s.queues[i].batches = nil
	}
	s.pool.Close()
	return nil
}

// parallelGroups returns a [groupsSource] over the row groups (Parquet) or
// stripes (ORC) that the read of dec needs, or nil when the read has fewer
// than two of them or the format has none (Avro), leaving the read to one
// sequential source. The row group filter's statistics are counted here
// when it runs.
func parallelGroups(ctx context.Context, dec decoder, p *project.Plan, filter *expr.Bound, opts Options, n int, mem memory.Allocator) batchSource {
	budget := opts.MemoryBytes
	if budget <= 0 {
		budget = DefaultQueueBytes
	}
	proj := p.FileProjection()
	switch d := dec.(type) {
	case parquetDecoder:
		var groups []int
		var rg *rowGroupFilter
		if filter != nil {
			g := newRowGroupFilter(d.File, filter, p.FileSchema(), p.ReadSchema(), opts.Constants, opts.posFieldID())
			var err error
			groups, err = g.keptRowGroups(opts.firstRowGroup, opts.rowGroups, opts.Stats)
			if err != nil {
				return errSource{err}
			}
			if len(groups) < 2 {
				rs := &rowGroupsSource{file: d.File, proj: proj, n: n, mem: mem, kept: groups}
				if err := rs.withPageSkips(g, opts.Stats); err != nil {
					return errSource{err}
				}
				return rs
			}
			rg = g
		} else {
			first, end := opts.firstRowGroup, d.NumRowGroups()
			if opts.rowGroups > 0 {
				end = first + opts.rowGroups
			}
			if first < 0 || end > d.NumRowGroups() || end-first < 2 {
				return nil // one group, or a range the sequential path reports
			}
			for i := first; i < end; i++ {
				groups = append(groups, i)
			}
		}
		starts := rowStarts(d.NumRowGroups(), d.RowGroupRows)
		dict := decoderDictionary(dec, p, opts, filter, nil)
		pool := groupsPool(mem, proj, opts.Workers)
		return newGroupsSource(ctx, groups, opts.Workers, budget, pool,
			func(ctx context.Context, g int, prev batchSource) (batchSource, error) {
				if prev != nil {
					prev.Close()
				}
				var skip *roaring64.Bitmap
				if rg != nil {
					var err error
					if skip, err = rg.pageSkips(g, starts[g], opts.Stats); err != nil {
						return nil, err
					}
				}
				br, err := d.NewBatchReader(proj, parquet.BatchOptions{BatchRows: n, Allocator: pool, FirstRowGroup: g, RowGroups: 1, Skip: skip, DictionaryFields: dict})
				if err != nil {
					return nil, err
				}
				if skip == nil {
					return br, nil
				}
				return &pageSkipReader{br: br, stats: opts.Stats}, nil
			},
			func(g int) int64 { return starts[g] })
	case orcDecoder:
		first, end, ok := stripeRange(d, opts)
		if !ok || end-first < 2 || (!opts.stripes && (opts.firstRowGroup > 0 || opts.rowGroups > 0)) {
			return nil
		}
		var groups []int
		var rg *stripeFilter
		if filter != nil {
			src := newOrcFilteredSource(d.File, filter, p, opts, n, mem)
			if len(src.kept) < 2 {
				return src
			}
			groups, rg = src.kept, src.g
		} else {
			groups = make([]int, 0, end-first)
			for i := first; i < end; i++ {
				groups = append(groups, i)
			}
		}
		starts := rowStarts(d.NumStripes(), d.StripeRows)
		pool := groupsPool(mem, proj, opts.Workers)
		return newGroupsSource(ctx, groups, opts.Workers, budget, pool,
			func(ctx context.Context, g int, prev batchSource) (batchSource, error) {
				var skip []orc.RowRange
				if rg != nil {
					var err error
					if skip, err = rg.rowGroupSkips(g, 1, opts.Stats); err != nil {
						if prev != nil {
							prev.Close()
						}
						return nil, err
					}
				}
				if sr, ok := prev.(*stripeReader); ok {
					if err := sr.SetStripes(g, 1, skip); err != nil {
						sr.Close()
						return nil, err
					}
					return sr, nil
				}
				br, err := d.NewBatchReader(proj, orc.BatchOptions{BatchRows: n, Allocator: pool, FirstStripe: g, Stripes: 1, Skip: skip})
				if err != nil {
					return nil, err
				}
				return &stripeReader{BatchReader: br, stats: opts.Stats}, nil
			},
			func(g int) int64 { return starts[g] })
	}
	return nil
}

// stripeReader is one worker's ORC batch reader in a parallel read, moved
// from stripe to stripe ([orc.BatchReader.SetStripes]) so that its stream
// buffers and decompressor serve every stripe the worker reads.
type stripeReader struct {
	*orc.BatchReader
	stats   *ScanStats
	counted orc.SkipCounts // the part of SkipCounts added to stats
}

// groupDone adds to stats what the reader's row index skips passed over
// since it last did ([countOrcSkips]), as a sequential read counts a
// stripe range's when it ends: before the read returns its last batch.
func (r *stripeReader) groupDone() {
	c := r.SkipCounts()
	countOrcSkips(r.stats, orc.SkipCounts{RowsSeeked: c.RowsSeeked - r.counted.RowsSeeked,
		RowsDropped: c.RowsDropped - r.counted.RowsDropped, BytesSeeked: c.BytesSeeked - r.counted.BytesSeeked})
	r.counted = c
}

// Close counts what the stripe being read skipped so far and closes the
// reader.
func (r *stripeReader) Close() error {
	r.groupDone()
	return r.BatchReader.Close()
}

// groupsPool returns the pool the batch readers of a parallel read of proj
// with workers workers share. It keeps the buffers of about two batches
// per worker and of the queued ones (three per column, nested leaves
// aside); a pool never holds more than the batches released had, so the
// cap only bounds how long idle buffers are kept before Close.
func groupsPool(mem memory.Allocator, proj *schema.Schema, workers int) *recycle.Pool {
	cols := 1
	if proj != nil {
		cols = max(1, len(proj.Fields))
	}
	return recycle.New(mem, 4*(workers+1)*(8+3*cols))
}

// rowStarts returns the file row of the first row of each of n groups.
func rowStarts(n int, rows func(int) int64) []int64 {
	out := make([]int64, n)
	var at int64
	for i := range n {
		out[i] = at
		at += rows(i)
	}
	return out
}

// sourceBatchStart returns the file row of the first row of the batch src
// returned last, when src tells it ([orc.BatchReader.BatchStart]), else -1.
func sourceBatchStart(src batchSource) int64 {
	if ps, ok := src.(interface{ BatchStart() int64 }); ok {
		return ps.BatchStart()
	}
	return -1
}
