// Package corrupt makes damaged copies of data files for hardening tests:
// truncations at several offsets and bytes flipped in the head, the body
// (pages, streams) and the tail (footer, postscript) of a file. The
// mutations are a pure function of the input and a seed, so a failure can be
// reproduced from its mutant's name.
package corrupt

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sort"
)

// Kinds of mutation, as they appear in [Mutant.Kind].
const (
	// Truncate keeps the first Offset bytes.
	Truncate = "truncate"
	// FlipHead flips one byte among the first 16 (the magic, ORC's header).
	FlipHead = "flip-head"
	// FlipBody flips 1 to 4 bytes between the head and the tail: data
	// pages, ORC streams, Avro blocks.
	FlipBody = "flip-body"
	// FlipTail flips one byte among the last TailBytes: the Parquet footer
	// and its length, ORC's footer and postscript.
	FlipTail = "flip-tail"
	// MaxTail overwrites 4 bytes of the tail with 0xff: a length or count
	// field made as large as it can be.
	MaxTail = "max-tail"
)

// TailBytes is the size of the region at the end of a file that FlipTail
// and MaxTail damage.
const TailBytes = 512

// Mutant is one damaged copy of a file.
type Mutant struct {
	// Name is "<source>.<kind>@<offset>", unique among one file's mutants.
	Name string
	// Kind is one of the kind constants.
	Kind string
	// Offset is the first damaged byte (for Truncate, the new length).
	Offset int
	// Data is the damaged copy.
	Data []byte
}

// Mutants returns the damaged copies of data, named after name. The same
// name, data and seed give the same mutants. A file of n bytes gets about
// 40 mutants (fewer for tiny files: duplicates are dropped).
func Mutants(name string, data []byte, seed uint64) []Mutant {
	h := fnv.New64a()
	h.Write([]byte(name))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	n := len(data)
	var out []Mutant
	seen := map[string]bool{}
	add := func(kind string, off int, d []byte) {
		m := Mutant{Name: fmt.Sprintf("%s.%s@%d", name, kind, off), Kind: kind, Offset: off, Data: d}
		if seen[m.Name] {
			return
		}
		seen[m.Name] = true
		out = append(out, m)
	}
	// Truncations: empty, inside the magic, a third, half, and around the
	// tail where the footer length and magic live.
	cuts := []int{0, 1, 3, 4, n / 3, n / 2, n - 1, n - 2, n - 5, n - 8, n - 9, n - 12}
	for range 4 {
		if n > 0 {
			cuts = append(cuts, n-1-rng.IntN(min(n, TailBytes)))
		}
	}
	sort.Ints(cuts)
	for _, c := range cuts {
		if c >= 0 && c < n {
			add(Truncate, c, append([]byte(nil), data[:c]...))
		}
	}
	if n == 0 {
		return out
	}
	flip := func(kind string, lo, hi, count int) {
		if hi <= lo {
			return
		}
		d := append([]byte(nil), data...)
		first := lo + rng.IntN(hi-lo)
		off := first
		for i := range count {
			if i > 0 {
				off = lo + rng.IntN(hi-lo)
			}
			d[off] ^= byte(1 + rng.IntN(255))
		}
		add(kind, first, d)
	}
	tail := max(0, n-TailBytes)
	for range 2 {
		flip(FlipHead, 0, min(n, 16), 1)
	}
	for range 10 {
		flip(FlipBody, min(n, 16), tail, 1+rng.IntN(4))
	}
	for range 12 {
		flip(FlipTail, tail, n, 1)
	}
	for range 4 {
		if n < 4 {
			break
		}
		d := append([]byte(nil), data...)
		off := max(0, n-4-rng.IntN(min(n-3, TailBytes)))
		copy(d[off:off+4], []byte{0xff, 0xff, 0xff, 0xff})
		add(MaxTail, off, d)
	}
	return out
}
