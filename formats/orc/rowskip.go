package orc

import "fmt"

// RowRange is the range [Start, End) of rows of a file, counted from its
// first row.
type RowRange struct{ Start, End int64 }

// BatchStart returns the file row of the first row of the batch Next
// returned last (rows of skipped ranges and of stripes before
// [BatchOptions.FirstStripe] count).
func (r *BatchReader) BatchStart() int64 { return r.last }

// setSkip checks and keeps the skipped ranges of opts, and sets the file
// row the reader starts at.
func (r *BatchReader) setSkip(opts BatchOptions) error {
	for i := 0; i < opts.FirstStripe; i++ {
		r.at += r.f.StripeRows(i)
	}
	var prev int64
	for i, sr := range opts.Skip {
		if sr.Start < prev || sr.End < sr.Start || (i > 0 && sr.Start < opts.Skip[i-1].End) {
			return fmt.Errorf("orc: skipped row ranges not ascending and disjoint at %d: [%d, %d)", i, sr.Start, sr.End)
		}
		prev = sr.End
	}
	r.skip = opts.Skip
	return nil
}

// dropSkipped decodes and drops the rows of the loaded stripe that a
// skipped range starting at or before the current row covers (at most one
// batch of them per call, none past the stripe's end), and reports whether
// it dropped any. The values are decoded, not seeked over: the output is
// exact whatever the streams' encodings.
func (r *BatchReader) dropSkipped() (bool, error) {
	for len(r.skip) > 0 && r.skip[0].End <= r.at {
		r.skip = r.skip[1:]
	}
	if len(r.skip) == 0 || r.skip[0].Start > r.at || r.left == 0 {
		return false, nil
	}
	n := int(min(r.skip[0].End-r.at, r.left, int64(r.rows)))
	for _, c := range r.cols {
		d, err := c.next(n, nil)
		if err != nil {
			return false, r.wrap(err)
		}
		d.Release()
	}
	r.left -= int64(n)
	r.at += int64(n)
	return true, nil
}

// untilSkip shortens a batch of n rows so that it ends where the next
// skipped range starts.
func (r *BatchReader) untilSkip(n int) int {
	if len(r.skip) > 0 && r.skip[0].Start > r.at && r.skip[0].Start-r.at < int64(n) {
		return int(r.skip[0].Start - r.at)
	}
	return n
}
