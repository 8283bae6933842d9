package orc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/protobuf/encoding/protowire"
)

// A writer of one-stripe ORC files with a row index, for the seek tests:
// every column's streams record their positions at each row group start
// as the spec's writers do (the stream offset, then the values of the
// run not yet written), and runs of varying lengths straddle the row
// group boundaries, so that positions inside runs, bytes and bits occur.

const (
	encRaw = iota
	encByteRLE
	encBoolRLE
	encIntRLE
)

// pstream is one stream being written.
type pstream struct {
	col, kind uint64
	enc       int
	signed    bool
	v2        bool
	data      []byte     // encoded bytes so far (uncompressed)
	marks     [][]uint64 // per row group: uncompressed offset, then encoder values
	ibuf      []int64
	bbuf      []byte
	cur       byte
	nbits     int
	runs      int
}

// runLen is the length of the next literal run: varying, within each
// encoding's limit.
func (s *pstream) runLen() int {
	lens := []int{5, 17, 3, 40, 128, 9}
	if s.v2 && s.enc == encIntRLE {
		lens = []int{5, 300, 3, 512, 40}
	}
	return lens[s.runs%len(lens)]
}

func (s *pstream) mark() {
	switch s.enc {
	case encRaw:
		s.marks = append(s.marks, []uint64{uint64(len(s.data))})
	case encByteRLE:
		s.marks = append(s.marks, []uint64{uint64(len(s.data)), uint64(len(s.bbuf))})
	case encBoolRLE:
		s.marks = append(s.marks, []uint64{uint64(len(s.data)), uint64(len(s.bbuf)), uint64(s.nbits)})
	case encIntRLE:
		s.marks = append(s.marks, []uint64{uint64(len(s.data)), uint64(len(s.ibuf))})
	}
}

func (s *pstream) putInt(v int64) {
	s.ibuf = append(s.ibuf, v)
	if len(s.ibuf) == s.runLen() {
		s.flushInts()
	}
}

func (s *pstream) flushInts() {
	n := len(s.ibuf)
	if n == 0 {
		return
	}
	if s.v2 {
		s.data = append(s.data, 0x40|31<<1|byte((n-1)>>8), byte(n-1))
	} else {
		s.data = append(s.data, byte(256-n))
	}
	for _, x := range s.ibuf {
		u := uint64(x)
		if s.signed {
			u = zz(x)
		}
		if s.v2 {
			s.data = binary.BigEndian.AppendUint64(s.data, u)
		} else {
			s.data = protowire.AppendVarint(s.data, u)
		}
	}
	s.ibuf = s.ibuf[:0]
	s.runs++
}

func (s *pstream) putByte(b byte) {
	s.bbuf = append(s.bbuf, b)
	if len(s.bbuf) == s.runLen() {
		s.flushBytes()
	}
}

func (s *pstream) flushBytes() {
	if n := len(s.bbuf); n > 0 {
		s.data = append(append(s.data, byte(256-n)), s.bbuf...)
		s.bbuf = s.bbuf[:0]
		s.runs++
	}
}

func (s *pstream) putBool(v bool) {
	if v {
		s.cur |= 0x80 >> uint(s.nbits)
	}
	if s.nbits++; s.nbits == 8 {
		c := s.cur
		s.cur, s.nbits = 0, 0
		s.putByte(c)
	}
}

func (s *pstream) finish() {
	switch s.enc {
	case encIntRLE:
		s.flushInts()
	case encBoolRLE:
		if s.nbits > 0 {
			c := s.cur
			s.cur, s.nbits = 0, 0
			s.putByte(c)
		}
		s.flushBytes()
	case encByteRLE:
		s.flushBytes()
	}
}

// genCol is one column of the generated file: its type, its streams in
// position order, and a function writing one value (or null) per row
// where the parent has a value.
type genCol struct {
	t       fxType
	streams []*pstream
	dict    uint64 // dictionary size, for a dictionary column
	enc     uint64
}

type genFile struct {
	cols []*genCol
	rows int
	v2   bool
}

func (g *genFile) add(t fxType, enc uint64) *genCol {
	c := &genCol{t: t, enc: enc}
	g.cols = append(g.cols, c)
	return c
}

func (g *genFile) stream(c *genCol, kind uint64, enc int, signed bool) *pstream {
	s := &pstream{col: uint64(len(g.cols) - 1), kind: kind, enc: enc, signed: signed, v2: g.v2}
	for i, cc := range g.cols {
		if cc == c {
			s.col = uint64(i)
		}
	}
	c.streams = append(c.streams, s)
	return s
}

// genSeekFile writes a file of rows rows in row groups of stride rows with
// a long, a boolean, a tinyint, a double, a direct and a dictionary
// string, a decimal, a timestamp, a list, a map, a struct and a union
// column, all
// but the first with nulls, in RLE v1 or v2, with codec comp (chunks of
// block bytes).
func genSeekFile(t testing.TB, rows, stride int, v2 bool, comp uint64, block int, seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	g := &genFile{rows: rows, v2: v2}
	direct, dictEnc := uint64(encDirect), uint64(encDictionary)
	if v2 {
		direct, dictEnc = encDirectV2, encDictionaryV2
	}
	names := []string{"id", "b", "t", "d", "s", "k", "dec", "ts", "l", "m", "st", "u"}
	root := g.add(fxType{kind: kStruct, names: names}, encDirect)
	_ = root
	idC := g.add(fxType{kind: kLong}, direct)
	idS := g.stream(idC, sData, encIntRLE, true)
	type nullable struct {
		c       *genCol
		present *pstream
	}
	withPresent := func(t fxType, enc uint64) nullable {
		c := g.add(t, enc)
		return nullable{c, g.stream(c, sPresent, encBoolRLE, false)}
	}
	bC := withPresent(fxType{kind: kBoolean}, encDirect)
	bS := g.stream(bC.c, sData, encBoolRLE, false)
	tC := withPresent(fxType{kind: kByte}, encDirect)
	tS := g.stream(tC.c, sData, encByteRLE, false)
	dC := withPresent(fxType{kind: kDouble}, encDirect)
	dS := g.stream(dC.c, sData, encRaw, false)
	sC := withPresent(fxType{kind: kString}, direct)
	sData_ := g.stream(sC.c, sData, encRaw, false)
	sLen := g.stream(sC.c, sLength, encIntRLE, false)
	kC := withPresent(fxType{kind: kString}, dictEnc)
	kIdx := g.stream(kC.c, sData, encIntRLE, false)
	decC := withPresent(fxType{kind: kDecimal, prec: 20, scal: 3}, direct)
	decS := g.stream(decC.c, sData, encRaw, false)
	decScale := g.stream(decC.c, sSecondary, encIntRLE, true)
	tsC := withPresent(fxType{kind: kTimestamp}, direct)
	tsSec := g.stream(tsC.c, sData, encIntRLE, true)
	tsNano := g.stream(tsC.c, sSecondary, encIntRLE, false)
	lC := withPresent(fxType{kind: kList, sub: []uint32{10}}, direct)
	lLen := g.stream(lC.c, sLength, encIntRLE, false)
	leC := withPresent(fxType{kind: kInt}, direct)
	leS := g.stream(leC.c, sData, encIntRLE, true)
	mC := withPresent(fxType{kind: kMap, sub: []uint32{12, 13}}, direct)
	mLen := g.stream(mC.c, sLength, encIntRLE, false)
	mkC := g.add(fxType{kind: kString}, direct)
	mkData := g.stream(mkC, sData, encRaw, false)
	mkLen := g.stream(mkC, sLength, encIntRLE, false)
	mvC := withPresent(fxType{kind: kInt}, direct)
	mvS := g.stream(mvC.c, sData, encIntRLE, true)
	stC := withPresent(fxType{kind: kStruct, names: []string{"a", "b"}, sub: []uint32{15, 16}}, encDirect)
	saC := withPresent(fxType{kind: kInt}, direct)
	saS := g.stream(saC.c, sData, encIntRLE, true)
	sbC := withPresent(fxType{kind: kString}, direct)
	sbData := g.stream(sbC.c, sData, encRaw, false)
	sbLen := g.stream(sbC.c, sLength, encIntRLE, false)
	uC := withPresent(fxType{kind: kUnion, sub: []uint32{18, 19}}, encDirect)
	uTag := g.stream(uC.c, sData, encByteRLE, false)
	uiC := withPresent(fxType{kind: kInt}, direct)
	uiS := g.stream(uiC.c, sData, encIntRLE, true)
	usC := withPresent(fxType{kind: kString}, direct)
	usData := g.stream(usC.c, sData, encRaw, false)
	usLen := g.stream(usC.c, sLength, encIntRLE, false)
	root.t.sub = []uint32{1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 14, 17}

	dict := []string{"apple", "banana", "cherry", "a much longer dictionary entry than sixteen bytes", "", "z"}
	kC.c.dict = uint64(len(dict))
	present := func(n nullable, p float64) bool {
		v := rng.Float64() >= p
		n.present.putBool(v)
		return v
	}
	str := func(data, lens *pstream, s string) {
		data.data = append(data.data, s...)
		lens.putInt(int64(len(s)))
	}
	// Runs of equal values and of nulls, so that whole row groups are
	// null or constant sometimes.
	for r := range rows {
		if r%stride == 0 {
			for _, c := range g.cols {
				for _, s := range c.streams {
					s.mark()
				}
			}
		}
		nullP := 0.2
		if (r/stride)%5 == 3 {
			nullP = 1 // a row group of nulls
		}
		idS.putInt(int64(r)*3 - 1000)
		if present(bC, nullP) {
			bS.putBool(rng.IntN(3) == 0)
		}
		if present(tC, nullP) {
			tS.putByte(byte(rng.IntN(256)))
		}
		if present(dC, nullP) {
			dS.data = binary.LittleEndian.AppendUint64(dS.data, math.Float64bits(rng.NormFloat64()*1e6))
		}
		if present(sC, nullP) {
			str(sData_, sLen, fmt.Sprintf("row %d %s", r, bytes.Repeat([]byte("x"), rng.IntN(30))))
		}
		if present(kC, nullP) {
			kIdx.putInt(int64(rng.IntN(len(dict))))
		}
		if present(decC, nullP) {
			decS.data = protowire.AppendVarint(decS.data, zz(rng.Int64()>>rng.IntN(60)))
			decScale.putInt(3)
		}
		if present(tsC, nullP) {
			tsSec.putInt(rng.Int64N(2_000_000_000) - 1_000_000_000)
			tsNano.putInt(encNanos(rng.Int64N(1_000_000_000)))
		}
		if present(lC, nullP) {
			n := rng.IntN(5)
			lLen.putInt(int64(n))
			for range n {
				if present(leC, 0.3) {
					leS.putInt(rng.Int64N(1000) - 500)
				}
			}
		}
		if present(mC, nullP) {
			n := rng.IntN(4)
			mLen.putInt(int64(n))
			for j := range n {
				str(mkData, mkLen, fmt.Sprintf("k%d", j))
				if present(mvC, 0.3) {
					mvS.putInt(int64(r + j))
				}
			}
		}
		if present(stC, nullP) {
			if present(saC, 0.3) {
				saS.putInt(int64(r))
			}
			if present(sbC, 0.3) {
				str(sbData, sbLen, fmt.Sprintf("s%d", r%7))
			}
		}
		if present(uC, nullP) {
			if rng.IntN(2) == 0 {
				uTag.putByte(0)
				if present(uiC, 0.3) {
					uiS.putInt(int64(-r))
				}
			} else {
				uTag.putByte(1)
				if present(usC, 0.3) {
					str(usData, usLen, fmt.Sprintf("u%d", r))
				}
			}
		}
	}
	return g.bytes(t, comp, block, stride, dict)
}

// bytes assembles the file: the index section (one ROW_INDEX stream per
// column), the data streams, the stripe footer, footer and postscript.
func (g *genFile) bytes(t testing.TB, comp uint64, block, stride int, dict []string) []byte {
	fx := &fxFile{comp: comp, block: block}
	type out struct {
		kind, col uint64
		data      []byte
	}
	var index, data []out
	// The data streams compressed, with the compressed offset of each
	// chunk, to turn uncompressed offsets into positions.
	pos := make([][][]uint64, len(g.cols)) // column → group → positions
	for ci, c := range g.cols {
		pos[ci] = make([][]uint64, (g.rows+stride-1)/stride)
		for _, s := range c.streams {
			s.finish()
			cdata := fx.compress(t, s.data)
			var chunkOff []uint64
			if comp != compNone {
				for p := 0; p < len(cdata); {
					chunkOff = append(chunkOff, uint64(p))
					h := int(cdata[p]) | int(cdata[p+1])<<8 | int(cdata[p+2])<<16
					p += 3 + h>>1
				}
				chunkOff = append(chunkOff, uint64(len(cdata)))
			}
			for gi, m := range s.marks {
				u := m[0]
				if comp == compNone {
					pos[ci][gi] = append(pos[ci][gi], u)
				} else {
					k := u / uint64(block)
					pos[ci][gi] = append(pos[ci][gi], chunkOff[min(int(k), len(chunkOff)-1)], u%uint64(block))
				}
				pos[ci][gi] = append(pos[ci][gi], m[1:]...)
			}
			data = append(data, out{s.kind, s.col, cdata})
		}
		if c.dict > 0 {
			var lens []int64
			var dd []byte
			for _, d := range dict {
				lens = append(lens, int64(len(d)))
				dd = append(dd, d...)
			}
			ls := &pstream{enc: encIntRLE, v2: g.v2}
			for _, l := range lens {
				ls.putInt(l)
			}
			ls.finish()
			data = append(data, out{sLength, uint64(ci), fx.compress(t, ls.data)}, out{sDictionaryData, uint64(ci), fx.compress(t, dd)})
		}
		var ri []byte
		for _, p := range pos[ci] {
			var e, packed []byte
			for _, v := range p {
				packed = protowire.AppendVarint(packed, v)
			}
			if len(p) > 0 {
				e = pbBytes(e, 1, packed)
			}
			ri = pbBytes(ri, 1, e)
		}
		index = append(index, out{sRowIndex, uint64(ci), fx.compress(t, ri)})
	}
	file := []byte(magic)
	var sf []byte
	var indexLen, dataLen uint64
	for i, s := range append(index, data...) {
		file = append(file, s.data...)
		if i < len(index) {
			indexLen += uint64(len(s.data))
		} else {
			dataLen += uint64(len(s.data))
		}
		var m []byte
		m = pbVarint(m, 1, s.kind)
		m = pbVarint(m, 2, s.col)
		m = pbVarint(m, 3, uint64(len(s.data)))
		sf = pbBytes(sf, 1, m)
	}
	for _, c := range g.cols {
		var m []byte
		m = pbVarint(m, 1, c.enc)
		if c.dict > 0 {
			m = pbVarint(m, 2, c.dict)
		}
		sf = pbBytes(sf, 2, m)
	}
	sfc := fx.compress(t, sf)
	file = append(file, sfc...)
	var si []byte
	si = pbVarint(si, 1, 3)
	si = pbVarint(si, 2, indexLen)
	si = pbVarint(si, 3, dataLen)
	si = pbVarint(si, 4, uint64(len(sfc)))
	si = pbVarint(si, 5, uint64(g.rows))
	var ft []byte
	ft = pbVarint(ft, 1, 3)
	ft = pbVarint(ft, 2, uint64(len(file))-3)
	ft = pbBytes(ft, 3, si)
	for _, c := range g.cols {
		var m []byte
		m = pbVarint(m, 1, c.t.kind)
		if len(c.t.sub) > 0 {
			var p []byte
			for _, s := range c.t.sub {
				p = protowire.AppendVarint(p, uint64(s))
			}
			m = pbBytes(m, 2, p)
		}
		for _, n := range c.t.names {
			m = pbBytes(m, 3, []byte(n))
		}
		if c.t.kind == kDecimal {
			m = pbVarint(m, 5, c.t.prec)
			m = pbVarint(m, 6, c.t.scal)
		}
		ft = pbBytes(ft, 4, m)
	}
	ft = pbVarint(ft, 6, uint64(g.rows))
	ft = pbVarint(ft, 8, uint64(stride))
	ftc := fx.compress(t, ft)
	file = append(file, ftc...)
	var ps []byte
	ps = pbVarint(ps, 1, uint64(len(ftc)))
	ps = pbVarint(ps, 2, comp)
	if comp != compNone {
		ps = pbVarint(ps, 3, uint64(block))
	}
	ps = pbBytes(ps, 4, []byte{0, 12})
	ps = pbVarint(ps, 5, 0)
	ps = pbBytes(ps, 8000, []byte(magic))
	file = append(file, ps...)
	return append(file, byte(len(ps)))
}

// TestSeekGenerated: on generated files of every column kind the decoder
// seeks (nulls in PRESENT streams, direct and dictionary strings,
// decimals, timestamps, booleans, tinyints, doubles, lists, maps, structs,
// unions;
// RLE v1 and v2; uncompressed and in chunks that straddle row groups),
// seeking gives exactly the batches of decoding and dropping, every
// column seeks, and the whole file reads back its generated ids.
func TestSeekGenerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 16))
	tot := seekTotals{fallback: map[string]bool{}}
	for _, c := range []struct {
		v2    bool
		comp  uint64
		block int
	}{{false, compNone, 0}, {true, compNone, 0}, {false, compZlib, 1000}, {true, compSnappy, 777}, {true, compZstd, 4096}} {
		name := fmt.Sprintf("gen v2=%v codec %s block %d", c.v2, compName(c.comp), c.block)
		data := genSeekFile(t, 2345, 100, c.v2, c.comp, c.block, uint64(c.block))
		f, err := Open(bytes.NewReader(data), int64(len(data)), WithFileName(name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		all, err := readSkipping(f, memory.NewGoAllocator(), 0, nil, true)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(all.recs) != 1 || all.recs[0].NumRows() != 2345 || all.recs[0].NumCols() != 12 {
			t.Fatalf("%s: %d batches", name, len(all.recs))
		}
		ids := all.recs[0].Column(0)
		if s := fmt.Sprint(ids); !bytes.HasPrefix([]byte(s), []byte("[-1000 -997 -994 ")) || !bytes.HasSuffix([]byte(s), []byte(" 6026 6029 6032]")) {
			t.Errorf("%s: ids %.60s", name, s)
		}
		all.release()
		before := tot.seekedRows
		seekDiff(t, name, data, rng, 6, &tot)
		if tot.seekedRows == before {
			t.Errorf("%s: nothing seeked", name)
		}
	}
	if len(tot.fallback) > 0 {
		t.Errorf("columns not seekable: %v", tot.fallback)
	}
	t.Logf("%d files, %d reads: %d rows seeked, %d decoded and dropped, %d bytes seeked; streams compared with the row index %d exactly, %d past a run's start",
		tot.files, tot.reads, tot.seekedRows, tot.droppedRows, tot.bytes, tot.compared[0], tot.compared[1])
	if tot.compared[0] == 0 || tot.compared[1] == 0 {
		t.Errorf("streams compared with the row index: %v", tot.compared)
	}
}
