package reader

import (
	"context"
	"errors"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakecat/lakecat/schema"
)

// FileTask is one data file of a scan.
type FileTask struct {
	// Name names the file in errors.
	Name string
	// Open opens the file for ranged reads; close is called when the file is
	// done (it may be nil).
	Open func(ctx context.Context) (r io.ReaderAt, size int64, close func() error, err error)
	// Options read the file: each file has its own writer schema, name
	// mapping and constants; every task of one scan must share one
	// ReadSchema (the one in [ScanOptions]).
	Options Options
}

// ScanOptions configure [ScanFiles].
type ScanOptions struct {
	// Workers is the number of files decoded at once (0: GOMAXPROCS).
	Workers int
	// MemoryBytes bounds the bytes of decoded batches waiting to be read,
	// the one the caller holds included (0: [DefaultQueueBytes] bounds the
	// batches and nothing bounds equality delete key sets). Each file's
	// queue is bounded by these bytes, not by a count of batches (up to 64
	// per file), so a worker ahead of the reader keeps decoding while the
	// budget has room. The file whose batches are next in order may go
	// over it by one batch when none of its batches is waiting, so a
	// budget smaller than one batch still makes progress and the batches
	// held stay within MemoryBytes plus one batch. In [ScanTasks] the
	// equality delete key sets of the scan count against it too, for the
	// scan's life ([KeySetBudgetError] when they alone exceed it).
	//
	// With a bound, each worker also reserves its file's decode state from
	// it before decoding (page buffers, dictionary, batch scratch; estimated
	// from the footer: Parquet's File.DecodeBytes, the largest stripe for
	// ORC, nothing for Avro) and holds it until the file is decoded. A
	// worker whose reservation does not fit waits, so a small bound runs
	// fewer files at once than Workers; the file next in order always gets
	// its reservation. The bytes held stay within MemoryBytes plus that
	// file's reservation plus one batch. Outside it: the footers, delete
	// files being loaded, parquet-go's page reader state and Go's garbage.
	MemoryBytes int64
	// Progress, when set, is called from Next (on the reader's goroutine)
	// after each batch and after each file.
	Progress func(ScanProgress)
}

// ScanProgress is the state of a scan as its reader has consumed it.
type ScanProgress struct {
	// FilesDone and FilesTotal count data files: done means every batch of
	// the file was read.
	FilesDone, FilesTotal int
	// Rows is the number of rows returned so far.
	Rows int64
	// FileBytes is the total size in bytes of the files done.
	FileBytes int64
	// Started is when the scan started.
	Started time.Time
}

// ScanFiles reads the tasks concurrently and yields their batches in task
// order: all of task 0's batches, then task 1's, and so on, whatever order
// the workers finish in. Every batch is in the read schema of the tasks'
// Options. The first error (of any file) ends the scan: Next returns false
// and Err returns it, naming the file. Cancelling ctx, or releasing the
// reader early, stops every worker and releases every batch not yet read;
// no goroutine outlives Release.
func ScanFiles(ctx context.Context, tasks []FileTask, opts ScanOptions) (array.RecordReader, error) {
	return scanFiles(ctx, tasks, opts, newBudget(opts.MemoryBytes), nil)
}

// scanFiles is [ScanFiles] with the budget b of opts.MemoryBytes, which
// the scan's equality key sets may hold bytes of ([deleteCache]); done,
// when set, is called once the scan has ended and every worker returned.
func scanFiles(ctx context.Context, tasks []FileTask, opts ScanOptions, b *budget, done func()) (array.RecordReader, error) {
	var read *arrow.Schema
	if len(tasks) > 0 {
		if tasks[0].Options.ReadSchema == nil {
			return nil, errors.New("reader: ScanFiles needs Options.ReadSchema")
		}
		read = schema.ToArrowSchema(tasks[0].Options.ReadSchema)
		if tasks[0].Options.Dictionary {
			read = DictionarySchema(read)
		}
	} else {
		read = arrow.NewSchema(nil, nil)
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &scanReader{
		refs:    1,
		ctx:     ctx,
		cancel:  cancel,
		schema:  read,
		results: make([]chan scanItem, len(tasks)),
		sizes:   make([]int64, len(tasks)),
		budget:  b,
		onProg:  opts.Progress,
		done:    done,
		prog:    ScanProgress{FilesTotal: len(tasks), Started: time.Now()},
	}
	if b.limit <= 0 {
		// Equality key sets stay unbounded in b; the batches waiting get
		// the default bound.
		s.budget = newBudget(DefaultQueueBytes)
	}
	s.pins = b
	qc := queueBatches(len(tasks))
	for i := range s.results {
		s.results[i] = make(chan scanItem, qc)
	}
	s.wg.Add(1)
	go s.dispatch(tasks, workers)
	return s, nil
}

// DefaultQueueBytes bounds the bytes of decoded batches a scan holds
// waiting to be read when [ScanOptions.MemoryBytes] is 0.
const DefaultQueueBytes = 64 << 20

// maxQueueBatches is the most batches one file's queue holds (its bytes
// are bounded by the scan's budget); maxQueueSlots bounds the queue slots
// of a scan of many files, allocated up front (each a few words).
const (
	maxQueueBatches = 64
	maxQueueSlots   = 1 << 16
)

// queueBatches is the capacity of each file's queue in a scan of n files:
// maxQueueBatches, less for scans of very many files, never below 2.
func queueBatches(n int) int {
	return min(maxQueueBatches, max(2, maxQueueSlots/max(n, 1)))
}

type scanItem struct {
	rec   arrow.RecordBatch
	bytes int64
	err   error
}

type scanReader struct {
	refs    int64
	ctx     context.Context
	cancel  context.CancelFunc
	schema  *arrow.Schema
	results []chan scanItem
	sizes   []int64 // file sizes, written by each worker before it closes its queue
	onProg  func(ScanProgress)
	prog    ScanProgress
	head    int
	cur     scanItem
	err     error
	budget  *budget // the batches waiting: the caller's, or DefaultQueueBytes when it has no limit
	pins    *budget // the caller's budget, which equality key sets are pinned in
	done    func()
	wg      sync.WaitGroup
	once    sync.Once
}

func (s *scanReader) dispatch(tasks []FileTask, workers int) {
	defer s.wg.Done()
	slots := make(chan struct{}, workers)
	for i := range tasks {
		select {
		case slots <- struct{}{}:
		case <-s.ctx.Done():
			for j := i; j < len(tasks); j++ {
				close(s.results[j])
			}
			return
		}
		s.wg.Add(1)
		go func(i int) {
			defer s.wg.Done()
			defer func() { <-slots }()
			s.readFile(i, tasks[i])
		}(i)
	}
}

func (s *scanReader) readFile(i int, t FileTask) {
	out := s.results[i]
	defer close(out)
	send := func(it scanItem) bool {
		select {
		case out <- it:
			return true
		case <-s.ctx.Done():
			if it.rec != nil {
				it.rec.Release()
				s.budget.release(it.bytes)
			}
			return false
		}
	}
	rr, closeFn, err := s.openFile(i, t)
	if closeFn != nil {
		defer closeFn()
	}
	if err != nil {
		send(scanItem{err: err})
		return
	}
	// The decoder's state is reserved from the caller's budget before
	// anything is decoded, and held until the file's reader is released.
	own, err := s.reserveDecode(i, rr)
	if err != nil {
		rr.Release()
		return
	}
	defer s.budget.unreserve(own)
	defer rr.Release()
	for rr.Next() {
		rec := rr.RecordBatch()
		n := recordBytes(rec)
		// The file being read may go over the budget by one batch, and
		// only when none of its batches is waiting: the scan never
		// deadlocks and the bytes held stay within budget + its
		// reservation + one batch.
		if err := s.budget.acquire(s.ctx, n, own, func() bool { return s.headIs(i) && len(out) == 0 }); err != nil {
			return
		}
		rec.Retain()
		if !send(scanItem{rec: rec, bytes: n}) {
			return
		}
	}
	if err := rr.Err(); err != nil && s.ctx.Err() == nil {
		send(scanItem{err: err})
	}
}

// openFile opens task i: a file task through its Open function, a task
// that reads several files (a merge, Options.open) through its own.
// The file's close function, when not nil, is called after the reader is
// released.
func (s *scanReader) openFile(i int, t FileTask) (array.RecordReader, func() error, error) {
	if t.Options.open != nil {
		s.sizes[i] = t.Options.openSize
		rr, err := t.Options.open(s.ctx)
		if err == nil && t.Options.Dictionary {
			rr = newDictReader(rr, t.Options.Allocator)
		}
		return rr, nil, err
	}
	r, size, closeFn, err := t.Open(s.ctx)
	if err != nil {
		return nil, nil, pathError(fileLabel(t.Name), err)
	}
	s.sizes[i] = size
	opts := t.Options
	if opts.Name == "" {
		opts.Name = t.Name
	}
	rr, err := Open(s.ctx, r, size, opts)
	return rr, closeFn, err
}

func (s *scanReader) headIs(i int) bool { return int(atomic.LoadInt64(&s.budget.head)) == i }

func (s *scanReader) Retain() { atomic.AddInt64(&s.refs, 1) }

// Release stops the scan (if still running), releases every batch and waits
// for the workers to finish.
func (s *scanReader) Release() {
	if atomic.AddInt64(&s.refs, -1) != 0 {
		return
	}
	s.stop()
}

func (s *scanReader) stop() {
	s.once.Do(func() {
		s.releaseCur()
		s.cancel()
		s.budget.wake()
		// Workers blocked on a full queue see the cancellation and return;
		// every queue is closed (by its worker or the dispatcher) before
		// Wait returns, so the drain below ends.
		s.wg.Wait()
		for _, ch := range s.results {
			for it := range ch {
				if it.rec != nil {
					it.rec.Release()
				}
			}
		}
		s.pins.unpin()
		if s.done != nil {
			s.done()
		}
	})
}

func (s *scanReader) releaseCur() {
	if s.cur.rec != nil {
		s.cur.rec.Release()
		s.budget.release(s.cur.bytes)
		s.cur = scanItem{}
	}
}

func (s *scanReader) Schema() *arrow.Schema { return s.schema }

// Next returns the next batch in task order, releasing the previous one.
func (s *scanReader) Next() bool {
	s.releaseCur()
	if s.err != nil {
		return false
	}
	for s.head < len(s.results) {
		select {
		case it, ok := <-s.results[s.head]:
			if !ok {
				// A canceled scan closes the queues of the files it did
				// not finish: never count those as read.
				if err := s.ctx.Err(); err != nil {
					s.err = err
					return false
				}
				s.prog.FilesDone++
				s.prog.FileBytes += s.sizes[s.head]
				s.head++
				atomic.StoreInt64(&s.budget.head, int64(s.head))
				s.budget.wake()
				if s.onProg != nil {
					s.onProg(s.prog)
				}
				continue
			}
			if it.err != nil {
				s.err = it.err
				s.cancel()
				return false
			}
			s.cur = it
			if s.budget.limit > 0 {
				s.budget.wake() // the head's queue may have emptied
			}
			s.prog.Rows += it.rec.NumRows()
			if s.onProg != nil {
				s.onProg(s.prog)
			}
			return true
		case <-s.ctx.Done():
			s.err = s.ctx.Err()
			return false
		}
	}
	return false
}

func (s *scanReader) RecordBatch() arrow.RecordBatch { return s.cur.rec }

// Record is RecordBatch (the deprecated name of array.RecordReader).
func (s *scanReader) Record() arrow.RecordBatch { return s.cur.rec }

func (s *scanReader) Err() error { return s.err }

// budget bounds the bytes of batches decoded but not yet read, and of the
// equality key sets the scan holds (pinned, for the scan's life). The file
// at the head of the order passes when it has no batch waiting, so the scan
// cannot deadlock; pinned bytes never wait, they fail when over the limit
// ([budget.pin]), so the head still passes when they are within it.
type budget struct {
	mu     sync.Mutex
	cond   *sync.Cond
	used   int64 // pinned included
	pinned int64
	peak   int64 // highest used, for tests and diagnostics
	limit  int64
	head   int64 // index of the task being read, read atomically

	// reserved is the decoders' state the workers hold ([budget.reserve]),
	// included in used; peakReserved is its highest value and maxReserve
	// the largest single reservation.
	reserved, peakReserved, maxReserve int64
}

func newBudget(limit int64) *budget {
	b := &budget{limit: limit}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// acquire waits until n more bytes fit: within the limit, or, for the file
// at the head of the order with no batch waiting (mayOverflow), whenever
// the bytes held less its own decode reservation own are within the limit.
// Other files never go over the limit, so the bytes held never exceed
// limit + the head's reservation + one batch, and the head, whose batches
// the reader drains, always gets through.
func (b *budget) acquire(ctx context.Context, n, own int64, mayOverflow func() bool) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.limit > 0 && b.used+n > b.limit && !(b.used-own <= b.limit && mayOverflow()) {
		if err := ctx.Err(); err != nil {
			return err
		}
		b.cond.Wait()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	b.used += n
	if b.used > b.peak {
		b.peak = b.used
	}
	return nil
}

// peakBytes returns the highest number of bytes held at once.
func (b *budget) peakBytes() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peak
}

// fits reports whether n more pinned bytes would stay within the limit
// (always, without one), and the bytes pinned now.
func (b *budget) fits(n int64) (ok bool, pinned, limit int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.limit <= 0 || b.pinned+n <= b.limit, b.pinned, b.limit
}

// pin holds n bytes until the scan ends, unless they do not fit.
func (b *budget) pin(n int64) (ok bool, pinned, limit int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.limit > 0 && b.pinned+n > b.limit {
		return false, b.pinned, b.limit
	}
	b.pinned += n
	b.used += n
	b.peak = max(b.peak, b.used)
	return true, b.pinned, b.limit
}

// unpinBytes releases n pinned bytes (at most those pinned).
func (b *budget) unpinBytes(n int64) {
	b.mu.Lock()
	n = min(n, b.pinned)
	b.pinned -= n
	b.used -= n
	b.mu.Unlock()
	b.cond.Broadcast()
}

// unpin releases every pinned byte (the scan has ended).
func (b *budget) unpin() {
	b.mu.Lock()
	b.used -= b.pinned
	b.pinned = 0
	b.mu.Unlock()
	b.cond.Broadcast()
}

func (b *budget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	b.cond.Broadcast()
}

func (b *budget) wake() {
	b.mu.Lock()
	b.mu.Unlock()
	b.cond.Broadcast()
}

// recordBytes is the size in bytes of the buffers a batch holds (shared
// buffers counted once per reference).
func recordBytes(rec arrow.RecordBatch) int64 {
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
