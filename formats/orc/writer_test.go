package orc

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	"google.golang.org/protobuf/encoding/protowire"
)

// A minimal ORC writer for test fixtures: the caller states the types and
// the already encoded streams of one stripe; the writer compresses them,
// and writes the stripe footer, file footer and postscript. No independent
// ORC reader is available here, so every fixture's decoded values are
// checked against values stated by hand in the tests.

type fxType struct {
	kind       uint64
	sub        []uint32
	names      []string
	attrs      [][2]string
	prec, scal uint64
	maxLen     uint64
}

type fxStream struct {
	col, kind uint64
	data      []byte
}

type fxFile struct {
	types   []fxType
	enc     []uint64 // column encoding kind per column
	dict    map[int]uint64
	streams []fxStream
	rows    uint64
	comp    uint64
	block   int // compression block size in bytes
	tz      string
	version []uint32
	// compressed marks the streams (by index) whose data is already in
	// compression chunks.
	compressed map[int]bool
}

func pbVarint(b []byte, num protowire.Number, v uint64) []byte {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func pbBytes(b []byte, num protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

// compressFx splits data into chunks of fx.block bytes, each with its
// 3-byte header; a chunk that does not shrink is stored original.
func (fx *fxFile) compress(t testing.TB, data []byte) []byte {
	if fx.comp == compNone {
		return data
	}
	var out []byte
	for len(data) > 0 {
		n := min(len(data), fx.block)
		chunk := data[:n]
		data = data[n:]
		var c []byte
		switch fx.comp {
		case compZlib:
			var buf bytes.Buffer
			w, _ := flate.NewWriter(&buf, flate.BestCompression)
			w.Write(chunk)
			w.Close()
			c = buf.Bytes()
		case compZstd:
			enc, _ := zstd.NewWriter(nil)
			c = enc.EncodeAll(chunk, nil)
			enc.Close()
		case compSnappy:
			c = snappy.Encode(nil, chunk)
		case compLZ4:
			c = make([]byte, lz4.CompressBlockBound(len(chunk)))
			m, err := lz4.CompressBlock(chunk, c, nil)
			if err != nil {
				t.Fatal(err)
			}
			c = c[:m]
		default:
			t.Fatalf("codec %d", fx.comp)
		}
		if len(c) == 0 || len(c) >= len(chunk) {
			h := len(chunk)<<1 | 1
			out = append(out, byte(h), byte(h>>8), byte(h>>16))
			out = append(out, chunk...)
		} else {
			h := len(c) << 1
			out = append(out, byte(h), byte(h>>8), byte(h>>16))
			out = append(out, c...)
		}
	}
	return out
}

func (fx *fxFile) bytes(t testing.TB) []byte {
	out := []byte(magic)
	var sf []byte
	var dataLen uint64
	for i, s := range fx.streams {
		c := s.data
		if !fx.compressed[i] {
			c = fx.compress(t, s.data)
		}
		out = append(out, c...)
		dataLen += uint64(len(c))
		var m []byte
		m = pbVarint(m, 1, s.kind)
		m = pbVarint(m, 2, s.col)
		m = pbVarint(m, 3, uint64(len(c)))
		sf = pbBytes(sf, 1, m)
	}
	for i, e := range fx.enc {
		var m []byte
		m = pbVarint(m, 1, e)
		if d, ok := fx.dict[i]; ok {
			m = pbVarint(m, 2, d)
		}
		sf = pbBytes(sf, 2, m)
	}
	if fx.tz != "" {
		sf = pbBytes(sf, 3, []byte(fx.tz))
	}
	sfc := fx.compress(t, sf)
	out = append(out, sfc...)
	var si []byte
	si = pbVarint(si, 1, 3)
	si = pbVarint(si, 2, 0)
	si = pbVarint(si, 3, dataLen)
	si = pbVarint(si, 4, uint64(len(sfc)))
	si = pbVarint(si, 5, fx.rows)
	var ft []byte
	ft = pbVarint(ft, 1, 3)
	ft = pbVarint(ft, 2, uint64(len(out))-3)
	ft = pbBytes(ft, 3, si)
	for _, ty := range fx.types {
		var m []byte
		m = pbVarint(m, 1, ty.kind)
		if len(ty.sub) > 0 {
			var p []byte
			for _, s := range ty.sub {
				p = protowire.AppendVarint(p, uint64(s))
			}
			m = pbBytes(m, 2, p)
		}
		for _, n := range ty.names {
			m = pbBytes(m, 3, []byte(n))
		}
		if ty.maxLen > 0 {
			m = pbVarint(m, 4, ty.maxLen)
		}
		if ty.kind == kDecimal {
			m = pbVarint(m, 5, ty.prec)
			m = pbVarint(m, 6, ty.scal)
		}
		for _, a := range ty.attrs {
			var kv []byte
			kv = pbBytes(kv, 1, []byte(a[0]))
			kv = pbBytes(kv, 2, []byte(a[1]))
			m = pbBytes(m, 7, kv)
		}
		ft = pbBytes(ft, 4, m)
	}
	ft = pbVarint(ft, 6, fx.rows)
	ftc := fx.compress(t, ft)
	out = append(out, ftc...)
	var ps []byte
	ps = pbVarint(ps, 1, uint64(len(ftc)))
	ps = pbVarint(ps, 2, fx.comp)
	if fx.comp != compNone {
		ps = pbVarint(ps, 3, uint64(fx.block))
	}
	ver := fx.version
	if ver == nil {
		ver = []uint32{0, 12}
	}
	var vp []byte
	for _, v := range ver {
		vp = protowire.AppendVarint(vp, uint64(v))
	}
	ps = pbBytes(ps, 4, vp)
	ps = pbVarint(ps, 5, 0)
	ps = pbBytes(ps, 8000, []byte(magic))
	out = append(out, ps...)
	return append(out, byte(len(ps)))
}

// Stream encoders (spec section "Run Length Encoding"), literal runs only
// unless stated.

func encBytes(v []byte) []byte {
	var out []byte
	for len(v) > 0 {
		n := min(len(v), 128)
		out = append(out, byte(256-n))
		out = append(out, v[:n]...)
		v = v[n:]
	}
	return out
}

func encBools(v ...int) []byte {
	b := make([]byte, (len(v)+7)/8)
	for i, x := range v {
		if x != 0 {
			b[i/8] |= 0x80 >> uint(i%8)
		}
	}
	return encBytes(b)
}

func zz(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// encV1 writes integer RLE v1 literal runs.
func encV1(signed bool, v ...int64) []byte {
	var out []byte
	for len(v) > 0 {
		n := min(len(v), 128)
		out = append(out, byte(256-n))
		for _, x := range v[:n] {
			u := uint64(x)
			if signed {
				u = zz(x)
			}
			out = protowire.AppendVarint(out, u)
		}
		v = v[n:]
	}
	return out
}

// encV2 writes integer RLE v2 DIRECT runs of 64-bit values.
func encV2(signed bool, v ...int64) []byte {
	var out []byte
	for len(v) > 0 {
		n := min(len(v), 512)
		out = append(out, 0x40|31<<1|byte((n-1)>>8), byte(n-1))
		for _, x := range v[:n] {
			u := uint64(x)
			if signed {
				u = zz(x)
			}
			out = binary.BigEndian.AppendUint64(out, u)
		}
		v = v[n:]
	}
	return out
}

func encDoubles(v ...float64) []byte {
	var out []byte
	for _, x := range v {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(x))
	}
	return out
}

func encVarints(v ...int64) []byte {
	var out []byte
	for _, x := range v {
		out = protowire.AppendVarint(out, zz(x))
	}
	return out
}

// encNanos applies the trailing-zero encoding to nanoseconds.
func encNanos(ns int64) int64 {
	if ns == 0 {
		return 0
	}
	z := 0
	for ns%10 == 0 && z < 8 {
		ns /= 10
		z++
	}
	if z < 2 {
		for ; z > 0; z-- {
			ns *= 10
		}
		return ns << 3
	}
	return ns<<3 | int64(z-1)
}

func protowireNum(n uint64) protowire.Number { return protowire.Number(n) }
