package orc

// fillChunk is how many values fillInts decodes into its int64 scratch at
// a time before narrowing them: 32 KiB, so the scratch stays in cache.
const fillChunk = 4096

// fillInts decodes len(out) values of r into out, narrowing each from the
// int64 the run-length encodings produce, through scratch (grown to at most
// fillChunk values and returned for reuse). The decoders check no range:
// a value wider than T wraps, as Java's reader casts.
func fillInts[T int8 | int16 | int32](r intReader, out []T, scratch []int64) ([]int64, error) {
	scratch = grow(scratch, min(len(out), fillChunk))
	for len(out) > 0 {
		m := min(len(out), len(scratch))
		got, err := r.fill(scratch[:m])
		for i, v := range scratch[:got] {
			out[i] = T(v)
		}
		if err != nil {
			return scratch, err
		}
		out = out[m:]
	}
	return scratch, nil
}

// expand spreads the k present values held at the end of out
// (out[len(out)-k:]) over the rows where valid is 1, in order, and zeroes
// the rows where it is 0; nil valid means every row is present and out is
// left as it is. It works in place: the value read for row i sits at an
// index at least i, since at most len(out)-k rows before i are null, so no
// value is overwritten before it is read. len(valid) is len(out).
func expand[T any](out []T, valid []byte, k int) {
	if valid == nil {
		return
	}
	var zero T
	j := len(out) - k
	for i, v := range valid {
		if v != 0 {
			out[i] = out[j]
			j++
		} else {
			out[i] = zero
		}
	}
}
