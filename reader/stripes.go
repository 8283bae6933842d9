package reader

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/lakecat/lakecat/formats/orc"
	"github.com/lakecat/lakecat/schema"
)

// checkRange refuses a range of row groups of a file that is not Parquet
// ([ErrRowGroupRange]) and a range of stripes of a file that is not ORC
// ([ErrStripeRange]): a task's range is in the units of the format its
// table named.
func checkRange(dec decoder, opts Options) error {
	if opts.firstRowGroup == 0 && opts.rowGroups == 0 {
		return nil
	}
	_, isORC := dec.(orcDecoder)
	_, isParquet := dec.(parquetDecoder)
	switch {
	case opts.stripes && !isORC:
		return fmt.Errorf("stripes [%d, +%d): %w", opts.firstRowGroup, opts.rowGroups, ErrStripeRange)
	case !opts.stripes && !isParquet:
		return fmt.Errorf("row groups [%d, +%d): %w", opts.firstRowGroup, opts.rowGroups, ErrRowGroupRange)
	}
	return nil
}

// rowGroupBatches reads count stripes from first (count 0: every stripe
// from first on); the rows of the stripes before first count for _pos.
func (d orcDecoder) rowGroupBatches(proj *schema.Schema, n int, mem memory.Allocator, first, count int) (batchSource, int64, error) {
	var before int64
	for i := 0; i < first && i < d.NumStripes(); i++ {
		before += d.StripeRows(i)
	}
	br, err := d.NewBatchReader(proj, orc.BatchOptions{BatchRows: n, Allocator: mem, FirstStripe: first, Stripes: count})
	if err != nil {
		return nil, 0, err
	}
	return br, before, nil
}

// stripeRange returns the stripes [first, end) of d that opts selects, or
// false for a range outside the file (the sequential path reports it).
func stripeRange(d orcDecoder, opts Options) (first, end int, ok bool) {
	first, end = opts.firstRowGroup, d.NumStripes()
	if opts.rowGroups > 0 {
		end = first + opts.rowGroups
	}
	return first, end, first >= 0 && first <= end && end <= d.NumStripes()
}
