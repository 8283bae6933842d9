package reader

import (
	"context"

	"github.com/lakecat/lakecat/schema"
)

// decodeBytes is the decode state, in bytes, a read of dec over the file
// projection proj and row groups first..first+count-1 (count 0: to the end)
// in batches of batchRows rows is expected to hold at once, from the
// footer: for Parquet formats/parquet File.DecodeBytes (for the largest row
// group, per projected column: a page, the dictionary and three batches of
// values), for ORC the largest stripe (formats/orc File.StripeBytes). Avro
// decodes one block at a time within its caps and reserves nothing. A
// footer whose sizes cannot be summed reserves nothing: the read itself
// reports the error.
func decodeBytes(dec decoder, proj *schema.Schema, first, count, batchRows int) int64 {
	switch d := dec.(type) {
	case parquetDecoder:
		n, err := d.DecodeBytes(proj, first, count, batchRows)
		if err != nil {
			return 0
		}
		return n
	case orcDecoder:
		var most int64
		from, end := 0, d.NumStripes()
		if f, e, ok := stripeRange(d, Options{firstRowGroup: first, rowGroups: count}); ok {
			from, end = f, e
		}
		for i := from; i < end; i++ {
			most = max(most, d.StripeBytes(i))
		}
		return most
	}
	return 0
}

// reserveDecode reserves the decode state of file i's reader rr from the
// caller's budget ([ScanOptions.MemoryBytes]; nothing without one) before
// anything is decoded, and returns the bytes reserved, which the caller
// releases once rr is released. A worker whose reservation does not fit
// waits until it does, or until its file is the next in order: the head
// always gets its reservation, so a budget smaller than one file's decode
// state reads one file at a time instead of deadlocking. The error is the
// scan's cancellation.
func (s *scanReader) reserveDecode(i int, rr any) (int64, error) {
	if d, isDict := rr.(*dictReader); isDict {
		rr = d.src
	}
	fr, ok := rr.(*fileReader)
	if !ok || s.pins.limit <= 0 || fr.decode == nil {
		return 0, nil
	}
	n := fr.decode()
	if n <= 0 {
		return 0, nil
	}
	if err := s.budget.reserve(s.ctx, n, func() bool { return s.headIs(i) }); err != nil {
		return 0, err
	}
	return n, nil
}

// reserve waits until n more bytes fit within the limit, or mayOverflow
// reports that the caller is the head of the order, then holds them until
// [budget.unreserve].
func (b *budget) reserve(ctx context.Context, n int64, mayOverflow func() bool) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.limit > 0 && b.used+n > b.limit && !mayOverflow() {
		if err := ctx.Err(); err != nil {
			return err
		}
		b.cond.Wait()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	b.used += n
	b.reserved += n
	b.peak = max(b.peak, b.used)
	b.peakReserved = max(b.peakReserved, b.reserved)
	b.maxReserve = max(b.maxReserve, n)
	return nil
}

// unreserve releases n bytes [budget.reserve] held.
func (b *budget) unreserve(n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	b.reserved -= n
	b.mu.Unlock()
	b.cond.Broadcast()
}
