package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"google.golang.org/protobuf/encoding/protowire"
)

// A minimal ORC v1 writer for the benchmark data (ORC specification,
// https://orc.apache.org/specification/ORCv1/): one struct of the six
// columns, DIRECT_V2 encodings (integer RLE v2 DIRECT runs), PRESENT streams,
// snappy or zstd compression chunks, no row indexes and no statistics.
// formats/orc's fixture writer lives in its _test.go files, so it cannot be
// imported here.

const (
	orcCompNone   = 0
	orcCompSnappy = 2
	orcCompZstd   = 5

	orcStreamPresent   = 0
	orcStreamData      = 1
	orcStreamLength    = 2
	orcStreamSecondary = 5

	orcEncDirect   = 0
	orcEncDirectV2 = 2

	orcKindInt     = 3
	orcKindLong    = 4
	orcKindFloat   = 5
	orcKindDouble  = 6
	orcKindString  = 7
	orcKindStruct  = 12
	orcKindDecimal = 14

	orcBlockSize = 256 << 10
)

type orcWriter struct {
	comp uint64
	zenc *zstd.Encoder
	buf  []byte
}

// chunk compresses data into ORC compression chunks of at most
// orcBlockSize bytes, each with its 3-byte header; a chunk that does not
// shrink is stored original.
func (w *orcWriter) chunk(dst, data []byte) []byte {
	if w.comp == orcCompNone {
		return append(dst, data...)
	}
	for len(data) > 0 {
		n := min(len(data), orcBlockSize)
		in := data[:n]
		data = data[n:]
		switch w.comp {
		case orcCompSnappy:
			w.buf = snappy.Encode(w.buf[:cap(w.buf)], in)
		case orcCompZstd:
			w.buf = w.zenc.EncodeAll(in, w.buf[:0])
		}
		if len(w.buf) >= n {
			h := uint32(n)<<1 | 1
			dst = append(dst, byte(h), byte(h>>8), byte(h>>16))
			dst = append(dst, in...)
			continue
		}
		h := uint32(len(w.buf)) << 1
		dst = append(dst, byte(h), byte(h>>8), byte(h>>16))
		dst = append(dst, w.buf...)
	}
	return dst
}

// orcStripeBytes is the stripe size ORC writers default to (Apache ORC's
// orc.stripe.size, also Hive's and Spark's: 64 MiB).
const orcStripeBytes = 64 << 20

// orcStripeRows returns the rows per ORC stripe: -stripe when given, else
// as many rows as fit in orcStripeBytes of decoded data (decoded bytes for
// the whole data set). A writer sizes its stripes by their encoded bytes,
// which are fewer than the decoded ones, so these stripes are no larger
// than a real writer's: a data set under 64 MiB is one stripe, as an ORC
// writer would write it.
func (c config) orcStripeRows(decoded int64) int {
	if c.stripeRows > 0 {
		return c.stripeRows
	}
	if decoded <= 0 {
		return c.rows
	}
	perRow := max(1, decoded/int64(max(1, c.rows)))
	return int(max(1, min(int64(c.rows), orcStripeBytes/perRow)))
}

// writeORC writes ds as an ORC file with stripes of at most stripeRows
// rows. Field ids go into the "iceberg.id" type attributes.
func writeORC(ds *dataset, codec string, stripeRows int) ([]byte, error) {
	w := &orcWriter{comp: orcCompSnappy}
	if codec == "zstd" {
		w.comp = orcCompZstd
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
		if err != nil {
			return nil, err
		}
		defer enc.Close()
		w.zenc = enc
	}
	out := []byte("ORC")
	var stripes [][]byte
	for lo := 0; lo < ds.n; lo += stripeRows {
		hi := min(ds.n, lo+stripeRows)
		part := ds.slice(lo, hi)
		type stream struct {
			col, kind uint64
			data      []byte
		}
		var streams []stream
		add := func(col, kind uint64, raw []byte) {
			streams = append(streams, stream{col, kind, w.chunk(nil, raw)})
		}
		for c := 0; c < 6; c++ {
			col := uint64(c + 1)
			valid := part.valid[c]
			add(col, orcStreamPresent, orcPresent(valid))
			switch c {
			case 0:
				vals := make([]int64, 0, part.n)
				for r, ok := range valid {
					if ok {
						vals = append(vals, int64(part.i[r]))
					}
				}
				add(col, orcStreamData, rleV2Direct(nil, vals, true))
			case 1:
				vals := make([]int64, 0, part.n)
				for r, ok := range valid {
					if ok {
						vals = append(vals, part.l[r])
					}
				}
				add(col, orcStreamData, rleV2Direct(nil, vals, true))
			case 2:
				var b []byte
				for r, ok := range valid {
					if ok {
						b = binary.LittleEndian.AppendUint32(b, math.Float32bits(part.f[r]))
					}
				}
				add(col, orcStreamData, b)
			case 3:
				var b []byte
				for r, ok := range valid {
					if ok {
						b = binary.LittleEndian.AppendUint64(b, math.Float64bits(part.d[r]))
					}
				}
				add(col, orcStreamData, b)
			case 4:
				var b []byte
				lens := make([]int64, 0, part.n)
				for r, ok := range valid {
					if ok {
						b = append(b, part.s[r]...)
						lens = append(lens, int64(len(part.s[r])))
					}
				}
				add(col, orcStreamData, b)
				add(col, orcStreamLength, rleV2Direct(nil, lens, false))
			case 5:
				var b []byte
				scales := make([]int64, 0, part.n)
				for r, ok := range valid {
					if ok {
						b = binary.AppendVarint(b, part.dec[r]) // zigzag base-128
						scales = append(scales, 2)
					}
				}
				add(col, orcStreamData, b)
				add(col, orcStreamSecondary, rleV2Direct(nil, scales, true))
			}
		}
		// Stripe footer: streams, then one encoding per column.
		var sf []byte
		var dataLen uint64
		for _, s := range streams {
			var sb []byte
			sb = protowire.AppendTag(sb, 1, protowire.VarintType)
			sb = protowire.AppendVarint(sb, s.kind)
			sb = protowire.AppendTag(sb, 2, protowire.VarintType)
			sb = protowire.AppendVarint(sb, s.col)
			sb = protowire.AppendTag(sb, 3, protowire.VarintType)
			sb = protowire.AppendVarint(sb, uint64(len(s.data)))
			sf = protowire.AppendTag(sf, 1, protowire.BytesType)
			sf = protowire.AppendBytes(sf, sb)
			dataLen += uint64(len(s.data))
		}
		for c := 0; c <= 6; c++ {
			enc := uint64(orcEncDirectV2)
			if c == 0 {
				enc = orcEncDirect
			}
			var eb []byte
			eb = protowire.AppendTag(eb, 1, protowire.VarintType)
			eb = protowire.AppendVarint(eb, enc)
			sf = protowire.AppendTag(sf, 2, protowire.BytesType)
			sf = protowire.AppendBytes(sf, eb)
		}
		sf = protowire.AppendTag(sf, 3, protowire.BytesType)
		sf = protowire.AppendBytes(sf, []byte("UTC"))
		sfc := w.chunk(nil, sf)

		var si []byte
		si = protowire.AppendTag(si, 1, protowire.VarintType)
		si = protowire.AppendVarint(si, uint64(len(out)))
		si = protowire.AppendTag(si, 2, protowire.VarintType)
		si = protowire.AppendVarint(si, 0)
		si = protowire.AppendTag(si, 3, protowire.VarintType)
		si = protowire.AppendVarint(si, dataLen)
		si = protowire.AppendTag(si, 4, protowire.VarintType)
		si = protowire.AppendVarint(si, uint64(len(sfc)))
		si = protowire.AppendTag(si, 5, protowire.VarintType)
		si = protowire.AppendVarint(si, uint64(part.n))
		stripes = append(stripes, si)
		for _, s := range streams {
			out = append(out, s.data...)
		}
		out = append(out, sfc...)
	}

	// Footer: types (a struct and six primitives), stripes, row count.
	contentLength := uint64(len(out) - 3)
	var ft []byte
	ft = protowire.AppendTag(ft, 1, protowire.VarintType)
	ft = protowire.AppendVarint(ft, 3)
	ft = protowire.AppendTag(ft, 2, protowire.VarintType)
	ft = protowire.AppendVarint(ft, contentLength)
	for _, si := range stripes {
		ft = protowire.AppendTag(ft, 3, protowire.BytesType)
		ft = protowire.AppendBytes(ft, si)
	}
	names := []string{"i", "l", "f", "d", "s", "dec"}
	kinds := []uint64{orcKindInt, orcKindLong, orcKindFloat, orcKindDouble, orcKindString, orcKindDecimal}
	{
		var tb []byte
		tb = protowire.AppendTag(tb, 1, protowire.VarintType)
		tb = protowire.AppendVarint(tb, orcKindStruct)
		var sub []byte
		for c := range names {
			sub = protowire.AppendVarint(sub, uint64(c+1))
		}
		tb = protowire.AppendTag(tb, 2, protowire.BytesType)
		tb = protowire.AppendBytes(tb, sub)
		for _, n := range names {
			tb = protowire.AppendTag(tb, 3, protowire.BytesType)
			tb = protowire.AppendBytes(tb, []byte(n))
		}
		ft = protowire.AppendTag(ft, 4, protowire.BytesType)
		ft = protowire.AppendBytes(ft, tb)
	}
	for c, k := range kinds {
		var tb []byte
		tb = protowire.AppendTag(tb, 1, protowire.VarintType)
		tb = protowire.AppendVarint(tb, k)
		if k == orcKindDecimal {
			tb = protowire.AppendTag(tb, 5, protowire.VarintType)
			tb = protowire.AppendVarint(tb, 18)
			tb = protowire.AppendTag(tb, 6, protowire.VarintType)
			tb = protowire.AppendVarint(tb, 2)
		}
		var kv []byte
		kv = protowire.AppendTag(kv, 1, protowire.BytesType)
		kv = protowire.AppendBytes(kv, []byte("iceberg.id"))
		kv = protowire.AppendTag(kv, 2, protowire.BytesType)
		kv = protowire.AppendBytes(kv, []byte(fmt.Sprint(c+1)))
		tb = protowire.AppendTag(tb, 7, protowire.BytesType)
		tb = protowire.AppendBytes(tb, kv)
		ft = protowire.AppendTag(ft, 4, protowire.BytesType)
		ft = protowire.AppendBytes(ft, tb)
	}
	ft = protowire.AppendTag(ft, 6, protowire.VarintType)
	ft = protowire.AppendVarint(ft, uint64(ds.n))
	ft = protowire.AppendTag(ft, 8, protowire.VarintType)
	ft = protowire.AppendVarint(ft, 0)
	footer := w.chunk(nil, ft)
	out = append(out, footer...)

	var ps []byte
	ps = protowire.AppendTag(ps, 1, protowire.VarintType)
	ps = protowire.AppendVarint(ps, uint64(len(footer)))
	ps = protowire.AppendTag(ps, 2, protowire.VarintType)
	ps = protowire.AppendVarint(ps, w.comp)
	ps = protowire.AppendTag(ps, 3, protowire.VarintType)
	ps = protowire.AppendVarint(ps, orcBlockSize)
	ps = protowire.AppendTag(ps, 4, protowire.BytesType)
	ps = protowire.AppendBytes(ps, protowire.AppendVarint(protowire.AppendVarint(nil, 0), 12))
	ps = protowire.AppendTag(ps, 5, protowire.VarintType)
	ps = protowire.AppendVarint(ps, 0)
	ps = protowire.AppendTag(ps, 6, protowire.VarintType)
	ps = protowire.AppendVarint(ps, 9)
	ps = protowire.AppendTag(ps, 8000, protowire.BytesType)
	ps = protowire.AppendBytes(ps, []byte("ORC"))
	if len(ps) > 255 {
		return nil, fmt.Errorf("orc postscript of %d bytes", len(ps))
	}
	out = append(out, ps...)
	out = append(out, byte(len(ps)))
	return out, nil
}

// orcPresent encodes a PRESENT stream: bits MSB first (1 = present) as
// byte RLE literal runs of at most 128 bytes.
func orcPresent(valid []bool) []byte {
	packed := make([]byte, (len(valid)+7)/8)
	for r, ok := range valid {
		if ok {
			packed[r/8] |= 0x80 >> (r % 8)
		}
	}
	out := make([]byte, 0, len(packed)+len(packed)/128+1)
	for len(packed) > 0 {
		n := min(128, len(packed))
		out = append(out, byte(-n))
		out = append(out, packed[:n]...)
		packed = packed[n:]
	}
	return out
}

// rleV2Direct encodes vals as integer RLE v2 DIRECT runs of up to 512
// values (zigzag for signed columns), big-endian bit packing at the
// closest fixed width.
func rleV2Direct(dst []byte, vals []int64, signed bool) []byte {
	u := make([]uint64, 512)
	for len(vals) > 0 {
		n := min(512, len(vals))
		var maxU uint64
		for j, v := range vals[:n] {
			x := uint64(v)
			if signed {
				x = uint64(v<<1) ^ uint64(v>>63)
			}
			u[j] = x
			maxU |= x
		}
		vals = vals[n:]
		width, code := closestFixedBits(bits.Len64(maxU))
		dst = append(dst, byte(1<<6|code<<1|(n-1)>>8), byte((n-1)&0xff))
		var acc uint64
		var accBits int
		for _, x := range u[:n] {
			for left := width; left > 0; {
				take := min(left, 8-accBits)
				bitsOut := (x >> (left - take)) & (1<<take - 1)
				acc = acc<<take | bitsOut
				accBits += take
				left -= take
				if accBits == 8 {
					dst = append(dst, byte(acc))
					acc, accBits = 0, 0
				}
			}
		}
		if accBits > 0 {
			dst = append(dst, byte(acc<<(8-accBits)))
		}
	}
	return dst
}

// closestFixedBits returns the bit width a DIRECT run uses for values of n
// significant bits and its 5-bit width code.
func closestFixedBits(n int) (width, code int) {
	switch {
	case n <= 1:
		return 1, 0
	case n <= 24:
		return n, n - 1
	case n <= 26:
		return 26, 24
	case n <= 28:
		return 28, 25
	case n <= 30:
		return 30, 26
	case n <= 32:
		return 32, 27
	case n <= 40:
		return 40, 28
	case n <= 48:
		return 48, 29
	case n <= 56:
		return 56, 30
	}
	return 64, 31
}
