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
	r.noSeek = opts.noSeek
	return nil
}

// SkipCounts counts what a [BatchReader] did with the rows of
// [BatchOptions.Skip] so far.
type SkipCounts struct {
	// RowsSeeked counts the skipped rows no column decoded: every column
	// was put past them by the row index positions, or they were the rest
	// of a stripe, or a whole stripe (not read).
	RowsSeeked int64
	// RowsDropped counts the skipped rows some column decoded and dropped:
	// without a row index, within a row group, or in a column whose
	// positions in the index have another shape than the reader expects.
	RowsDropped int64
	// BytesSeeked is the size of what the reader did not decompress nor
	// decode for the seeked rows: the compressed stream bytes of the
	// needed columns between the row index positions of the row groups
	// skipped, and the data section of each stripe skipped whole (not
	// read).
	BytesSeeked int64
}

// SkipCounts returns the counts of the rows skipped so far.
func (r *BatchReader) SkipCounts() SkipCounts { return r.counts }

// skipStripe reports whether the skipped ranges cover every row of stripe
// i, the next to load (r.at is its first row), and if so passes over it
// without reading it.
func (r *BatchReader) skipStripe(i int) bool {
	if r.noSeek {
		return false
	}
	rows := r.f.StripeRows(i)
	for len(r.skip) > 0 && r.skip[0].End <= r.at {
		r.skip = r.skip[1:]
	}
	if len(r.skip) == 0 || r.skip[0].Start > r.at || r.skip[0].End < r.at+rows || rows == 0 {
		return false
	}
	r.at += rows
	r.counts.RowsSeeked += rows
	r.counts.BytesSeeked += int64(min(r.f.tail.footer.stripes[i].dataLength, 1<<62))
	return true
}

// loadIndex reads the row index positions of the stripe just loaded (its
// footer sf) when a skipped range reaches into it, and decides which
// columns seek by them.
func (r *BatchReader) loadIndex(i int, sf *stripeFooter) error {
	r.index, r.seekCols, r.seeked = nil, r.seekCols[:0], r.seeked[:0]
	if r.noSeek || r.f.RowIndexStride() <= 0 {
		return nil
	}
	end := r.at + r.left
	k := 0
	for k < len(r.skip) && r.skip[k].End <= r.at {
		k++
	}
	if k == len(r.skip) || r.skip[k].Start >= end {
		return nil
	}
	x, err := r.readIndex(i, sf, &r.st)
	if err != nil || x == nil {
		return err
	}
	r.index = x
	for _, c := range r.cols {
		r.seekCols = append(r.seekCols, seekable(c, x))
		r.seeked = append(r.seeked, false)
	}
	return nil
}

// dropSkipped passes over the rows of the loaded stripe that a skipped
// range starting at or before the current row covers, and reports whether
// it passed over any: up to the last row group start in the range by
// seeking (seekSkipped), else by decoding and dropping at most one batch
// of rows (none past the stripe's end), which is exact whatever the
// streams' encodings.
func (r *BatchReader) dropSkipped() (bool, error) {
	for len(r.skip) > 0 && r.skip[0].End <= r.at {
		r.skip = r.skip[1:]
	}
	if len(r.skip) == 0 || r.skip[0].Start > r.at || r.left == 0 {
		return false, nil
	}
	if !r.noSeek {
		if ok, err := r.seekSkipped(); ok || err != nil {
			return ok, err
		}
	}
	n := int(min(r.skip[0].End-r.at, r.left, int64(r.rows)))
	for _, c := range r.cols {
		if err := r.drop(c, n); err != nil {
			return false, err
		}
	}
	r.left -= int64(n)
	r.at += int64(n)
	r.counts.RowsDropped += int64(n)
	return true, r.checkStripeEnd()
}

// checkGroup compares the decoders of the seekable columns with the row
// index positions of the row group the reader is at, when it is at the
// start of one (not the first) that it reached by decoding: a damaged
// position an earlier seek used (one that still lies in its stream) has
// put some decoder elsewhere, and is reported rather than read as other
// values (see [checkColumn] for what is compared).
func (r *BatchReader) checkGroup(start int64) error {
	x := r.index
	if x == nil || r.at <= start || (r.at-start)%x.stride != 0 {
		return nil
	}
	g := int((r.at - start) / x.stride)
	if g >= x.groups {
		return nil
	}
	for i, c := range r.cols {
		if r.seekCols[i] {
			if err := checkColumn(c, x, g, false, &r.compared); err != nil {
				return r.wrap(err)
			}
		}
	}
	return nil
}

// checkStripeEnd compares the decoders of every column of the loaded
// stripe with their streams' ends once its last row is decoded, whether
// the rows were read, dropped or passed over by a seek: every stream is
// then read to its end, save the padding of its last run or byte (spec
// section "Stripes": a stream holds the encoded values of the stripe's
// rows and nothing else). A stream left short of its end (bytes a damaged
// length or run header made the decoder pass by, values cut short) or
// read past it (a seek by a damaged position) is [ErrCorrupt] naming the
// stripe, column and stream.
func (r *BatchReader) checkStripeEnd() error {
	if r.left != 0 {
		return nil
	}
	x := r.index
	if x == nil {
		// At the end only the stripe's streams are compared, no
		// positions read.
		r.ends = stripeIndex{st: &r.st}
		x = &r.ends
	}
	for _, c := range r.cols {
		if err := checkColumn(c, x, 0, true, &r.compared); err != nil {
			return r.wrap(err)
		}
	}
	return nil
}

// drop decodes and drops n rows of top-level column c.
func (r *BatchReader) drop(c column, n int) error {
	d, err := c.next(n, nil)
	if err != nil {
		return r.wrap(err)
	}
	d.Release()
	return nil
}

// seekSkipped passes over the skipped rows from the current one to the
// stripe's end, when the range reaches it, or to the start of the last
// row group of the row index that begins within the range, putting each
// seekable column there by the index positions and decoding and dropping
// the rows of the others. false means there is no such row group.
func (r *BatchReader) seekSkipped() (bool, error) {
	start := r.at - (r.f.StripeRows(r.st.idx) - r.left)
	end := r.at + r.left
	target := min(r.skip[0].End, end)
	x := r.index
	from := 0
	if x != nil {
		from = int((r.at - start) / x.stride)
	}
	if err := r.checkGroup(start); err != nil {
		return false, err
	}
	if target == end {
		if x != nil {
			for i, c := range r.cols {
				if r.seekCols[i] {
					if err := seekColumn(c, x, from, -1, &r.counts.BytesSeeked); err != nil {
						return false, r.wrap(err)
					}
				}
			}
		}
		r.counts.RowsSeeked += r.left
		r.at, r.left = end, 0
		return true, nil
	}
	if x == nil {
		return false, nil
	}
	g := int((target - start) / x.stride)
	gStart := start + int64(g)*x.stride
	if gStart <= r.at || g >= x.groups {
		return false, nil
	}
	n := gStart - r.at
	all := true
	for i, c := range r.cols {
		if r.seekCols[i] {
			if err := seekColumn(c, x, from, g, &r.counts.BytesSeeked); err != nil {
				return false, r.wrap(err)
			}
			r.seeked[i] = true
			continue
		}
		all = false
		for left := n; left > 0; {
			k := min(left, int64(r.rows))
			if err := r.drop(c, int(k)); err != nil {
				return false, err
			}
			left -= k
		}
	}
	if all {
		r.counts.RowsSeeked += n
	} else {
		r.counts.RowsDropped += n
	}
	r.at += n
	r.left -= n
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
