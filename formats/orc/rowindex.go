package orc

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/lakecat/lakecat/schema"
)

// RowIndex is the row index of one stripe for some of its columns (spec
// section "Row Group Index"): per row group of [File.RowIndexStride] rows,
// each column's statistics, and its bloom filter when the writer made one
// (section "Bloom Filter Index").
type RowIndex struct {
	f      *File
	stripe int
	rows   int64 // rows of the stripe
	stride int64
	stats  map[int][]rowIndexEntry // column → row group → entry
	blooms map[int][]bloomFilter
	utf8   map[int]bool // the column's filters come from BLOOM_FILTER_UTF8
}

// ReadRowIndex reads the ROW_INDEX streams, and the BLOOM_FILTER_UTF8 or
// BLOOM_FILTER streams, of the columns of fields (fields of [File.Schema])
// in stripe i. A file without a row index (stride 0), or a column without
// index streams, gives an index that knows nothing of it. Errors match
// [ErrCorrupt] (the stripe footer or an index stream does not decode) or
// are I/O errors.
func (f *File) ReadRowIndex(i int, fields []*schema.Field) (*RowIndex, error) {
	x := &RowIndex{f: f, stripe: i, rows: f.StripeRows(i), stride: f.RowIndexStride(), stats: map[int][]rowIndexEntry{}, blooms: map[int][]bloomFilter{}, utf8: map[int]bool{}}
	if x.stride <= 0 || i < 0 || i >= f.NumStripes() {
		return x, nil
	}
	want := map[int]*node{}
	nodes := f.stats().nodes
	for _, fl := range fields {
		if n := nodes[fl]; n != nil {
			want[n.col] = n
		}
	}
	if len(want) == 0 {
		return x, nil
	}
	si := f.tail.footer.stripes[i]
	cerr := func(off uint64, section string, err error) error {
		return &CorruptError{File: f.name, Offset: int64(off), Section: fmt.Sprintf("stripe %d %s", i, section), Err: err}
	}
	dec := &decompressor{kind: f.tail.dec.kind, blockSize: f.tail.dec.blockSize}
	footOff := si.offset + si.indexLength + si.dataLength
	raw := make([]byte, si.footerLength)
	if _, err := f.r.ReadAt(raw, int64(footOff)); err != nil && err != io.EOF {
		return nil, withFile(fmt.Errorf("orc: reading stripe %d footer: %w", i, err), f.name)
	}
	fb, err := dec.decompress(nil, raw, int(f.limits.FooterBytes))
	if err != nil {
		return nil, cerr(footOff, "footer", err)
	}
	sf, err := parseStripeFooter(fb)
	if err != nil {
		return nil, cerr(footOff, "footer", err)
	}
	// Index streams come first, in the stripe's index section.
	off, end := si.offset, si.offset+si.indexLength
	for _, s := range sf.streams {
		soff := off
		if s.length > footOff-off {
			return nil, cerr(footOff, "footer", fmt.Errorf("%s stream of column %d (%d bytes) beyond the stripe", streamName(s.kind), s.column, s.length))
		}
		off += s.length
		if soff >= end {
			break
		}
		n := want[int(min(s.column, 1<<31))]
		if n == nil || (s.kind != sRowIndex && s.kind != sBloomFilter && s.kind != sBloomUTF8) {
			continue
		}
		if s.kind == sBloomFilter && x.utf8[n.col] {
			continue
		}
		section := fmt.Sprintf("column %d %s stream", s.column, streamName(s.kind))
		if int64(s.length) > f.limits.FooterBytes {
			return nil, cerr(soff, section, fmt.Errorf("%w: %d bytes above %d", ErrTooLarge, s.length, f.limits.FooterBytes))
		}
		rb := make([]byte, s.length)
		if _, err := f.r.ReadAt(rb, int64(soff)); err != nil && err != io.EOF {
			return nil, withFile(fmt.Errorf("orc: reading stripe %d: %w", i, err), f.name)
		}
		b, err := dec.decompress(nil, rb, int(f.limits.FooterBytes))
		if err != nil {
			return nil, cerr(soff, section, err)
		}
		switch s.kind {
		case sRowIndex:
			entries, err := parseRowIndex(b, x.groups())
			if err != nil {
				return nil, cerr(soff, section, err)
			}
			x.stats[n.col] = entries
		default:
			bfs, err := parseBloomIndex(b, x.groups())
			if err != nil {
				// Not the spec's BloomFilterIndex (Hive development
				// versions wrote another layout): no bloom filter.
				delete(x.blooms, n.col)
				continue
			}
			x.blooms[n.col] = bfs
			x.utf8[n.col] = s.kind == sBloomUTF8
		}
	}
	return x, nil
}

// groups returns the number of row groups of the stripe.
func (x *RowIndex) groups() int {
	if x.stride <= 0 || x.rows <= 0 {
		return 0
	}
	return int((x.rows + x.stride - 1) / x.stride)
}

// NumRowGroups returns the number of row groups of the stripe: its rows
// divided by the stride, rounded up (0 without a row index).
func (x *RowIndex) NumRowGroups() int { return x.groups() }

// RowGroupRows returns the first row of row group g within the stripe and
// its number of rows.
func (x *RowIndex) RowGroupRows(g int) (first, rows int64) {
	first = int64(g) * x.stride
	return first, min(x.stride, x.rows-first)
}

// Stats returns the statistics of the column of field over row group g, as
// its ROW_INDEX entry records them; false when unknown.
func (x *RowIndex) Stats(g int, field *schema.Field) (ColumnStats, bool) {
	n := x.f.stats().nodes[field]
	if n == nil {
		return ColumnStats{}, false
	}
	entries := x.stats[n.col]
	if g < 0 || g >= len(entries) || len(entries) != x.groups() || entries[g].stats == nil {
		return ColumnStats{}, false
	}
	_, rows := x.RowGroupRows(g)
	return decodeColumnStats(entries[g].stats, n, rows)
}

// rowIndexEntry is one RowIndexEntry: the positions of the column's
// streams at the start of the row group, and its statistics message.
type rowIndexEntry struct {
	positions []uint64
	stats     []byte
}

// parseRowIndex returns the RowIndexEntry messages of a RowIndex message
// (stats aliasing b), at most groups of them, each with at most
// maxPositions positions.
func parseRowIndex(b []byte, groups int) ([]rowIndexEntry, error) {
	r := pbReader{b: b}
	msgs, ok := r.repeatedBytes(1, groups)
	if !ok {
		return nil, fmt.Errorf("more row index entries than the stripe's %d row groups", groups)
	}
	if r.err != nil {
		return nil, r.err
	}
	out := make([]rowIndexEntry, len(msgs))
	for i, e := range msgs {
		er := pbReader{b: e}
		for {
			n2, t2, ok := er.next()
			if !ok {
				break
			}
			switch n2 {
			case 1:
				if out[i].positions = er.uint64s(out[i].positions, t2); len(out[i].positions) > maxPositions {
					return nil, fmt.Errorf("row index entry %d with more than %d positions", i, maxPositions)
				}
			case 2:
				out[i].stats = er.bytes(t2)
			default:
				er.skip(n2, t2)
			}
		}
		if er.err != nil {
			return nil, er.err
		}
	}
	return out, nil
}

// bloomFilter is one ORC bloom filter (spec section "Bloom Filter Index"):
// k hash functions over a bitset of 64·len(bits) bits.
type bloomFilter struct {
	k    int
	bits []uint64
}

// maxBloomHashes caps a bloom filter's numHashFunctions: writers use fewer
// than 20 (a 1% false-positive rate needs 7).
const maxBloomHashes = 64

// parseBloomIndex decodes a BloomFilterIndex message: each BloomFilter's
// numHashFunctions and bitset, as repeated fixed64 (bitset) or as the
// little-endian bytes of utf8bitset.
func parseBloomIndex(b []byte, groups int) ([]bloomFilter, error) {
	r := pbReader{b: b}
	msgs, ok := r.repeatedBytes(1, groups)
	if !ok {
		return nil, fmt.Errorf("more bloom filters than the stripe's %d row groups", groups)
	}
	if r.err != nil {
		return nil, r.err
	}
	out := make([]bloomFilter, 0, len(msgs))
	for _, m := range msgs {
		var bf bloomFilter
		br := pbReader{b: m}
		for {
			n2, t2, ok := br.next()
			if !ok {
				break
			}
			switch n2 {
			case 1:
				bf.k = int(min(br.uint(t2), maxBloomHashes+1))
			case 2:
				if t2 == 1 { // fixed64, unpacked
					if len(br.b) < 8 {
						return nil, io.ErrUnexpectedEOF
					}
					bf.bits = append(bf.bits, binary.LittleEndian.Uint64(br.b))
					br.b = br.b[8:]
					continue
				}
				p := br.bytes(t2)
				for len(p) >= 8 {
					bf.bits = append(bf.bits, binary.LittleEndian.Uint64(p))
					p = p[8:]
				}
			case 3:
				p := br.bytes(t2)
				for len(p) >= 8 {
					bf.bits = append(bf.bits, binary.LittleEndian.Uint64(p))
					p = p[8:]
				}
			default:
				br.skip(n2, t2)
			}
		}
		if br.err != nil {
			return nil, br.err
		}
		if bf.k < 1 || bf.k > maxBloomHashes || len(bf.bits) == 0 {
			return nil, fmt.Errorf("bloom filter with %d hash functions", bf.k)
		}
		out = append(out, bf)
	}
	return out, nil
}
