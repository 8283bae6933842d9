package orc

// expand spreads the k present values held at the end of out
// (out[len(out)-k:]) over the rows where valid is 1, in order, and zeroes
// the rows where it is 0; nil valid means every row is present and out is
// left as it is. valid holds len(out) bytes, each 0 or 1 (what presence
// returns).
//
// It works in place and without a branch per row: the value read for row
// i sits at index j ≥ i, since at most len(out)-k rows before i are null,
// so no value is overwritten before it is read; at a null row j is
// greater than i (a null row is left), so the value read there and masked
// to zero is not lost either. j is clamped for the trailing null rows.
func expand[T ~int16 | ~int32 | ~int64 | ~uint16 | ~uint32 | ~uint64](out []T, valid []byte, k int) {
	if valid == nil || len(out) == 0 {
		return
	}
	last := len(out) - 1
	valid = valid[:len(out)]
	j := len(out) - k
	for i, v := range valid {
		out[i] = out[min(j, last)] & -T(v)
		j += int(v)
	}
}

// expandPairs is expand over values of two words each (decimal128: out
// holds 2·len(valid) words).
func expandPairs(out []uint64, valid []byte, k int) {
	if valid == nil || len(out) == 0 {
		return
	}
	n := len(valid)
	out = out[:2*n]
	last := n - 1
	j := n - k
	for i, v := range valid {
		m := -uint64(v)
		jj := 2 * min(j, last)
		lo, hi := out[jj], out[jj+1]
		out[2*i], out[2*i+1] = lo&m, hi&m
		j += int(v)
	}
}
