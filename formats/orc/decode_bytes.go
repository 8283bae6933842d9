package orc

// StripeBytes returns the size in bytes of stripe i in the file (0 ≤ i <
// [File.NumStripes]): its index, data and footer lengths (spec section
// "Stripe Information"), the most a batch reader reads of it. It bounds
// the compressed bytes the reader holds for the stripe whatever the
// projection; streams decompress chunk by chunk as they are consumed.
func (f *File) StripeBytes(i int) int64 {
	si := f.tail.footer.stripes[i]
	n := si.indexLength + si.dataLength + si.footerLength
	if n > 1<<62 {
		return 1 << 62
	}
	return int64(n)
}
