package parquet

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// The direct page path: for the column chunks of flat columns (maximum
// repetition level 0) read whole, whose pages are all ones it decodes, the
// leaf reader reads each page's bytes into one reused buffer, decodes the
// page itself and sets up the current page (definition levels, plain values or
// dictionary indices) as setupPage does for parquet-go's pages, so that
// take, takeFlat and the masked reads work unchanged on either path:
//
//   - the page bytes are decompressed from that buffer into another
//     (Snappy, ZSTD), or used in place (UNCOMPRESSED, and the levels of
//     data pages v2, which are never compressed); both buffers come from
//     a pool shared by the readers (pageBufs);
//   - definition levels (RLE / bit-packed hybrid, Encodings.md) are
//     decoded by decodeLevels, which counts the defined entries on the way
//     (no second pass over the levels to count them);
//   - PLAIN values of fixed width (INT32, INT64, INT96, FLOAT, DOUBLE,
//     FIXED_LEN_BYTE_ARRAY) are read in place from the decompressed page;
//   - RLE_DICTIONARY and PLAIN_DICTIONARY indices are decoded by
//     decodeIndices into the dictionary gathers; PLAIN dictionary pages of
//     any type but BOOLEAN are decoded here.
//
// Everything else (repeated columns, BOOLEAN columns, BYTE_ARRAY columns
// with PLAIN data pages, the DELTA_* and BYTE_STREAM_SPLIT encodings, other
// codecs, chunks whose pages the offset index cuts) takes parquet-go's page
// reader; the choice is made per column chunk, from its page headers,
// which openChunk walks before any page is read.

// pageInfo holds what the direct path needs of one page header; off is
// the file offset of the page's first byte (after its header).
type pageInfo struct {
	typ            format.PageType
	off            int64
	csize, usize   int32
	crc            int32
	numValues      int32
	enc            format.Encoding
	defLen, repLen int32
	compressed     bool // a data page v2's values section is compressed
}

// errNotDirect stops the walk of a chunk's page headers at the first page
// the direct path does not decode (see openDirect).
var errNotDirect = errors.New("parquet: page not on the direct path")

// directPages counts the data pages the direct path decoded (tests assert
// that it is taken).
var directPages atomic.Int64

// directOff turns the direct path off (tests compare both ways).
var directOff = false

// directCodec reports whether the direct path decompresses codec.
func directCodec(codec format.CompressionCodec) bool {
	switch codec {
	case format.Uncompressed, format.Snappy, format.Zstd:
		return true
	}
	return false
}

// directColumn reports whether lr's column may take the direct path: flat,
// and of a type whose values it decodes (BOOLEAN is not).
func (lr *leafReader) directColumn() bool {
	if directOff || lr.maxRep != 0 {
		return false
	}
	c := lr.conv
	switch c.op {
	case opRefuse, opBool:
		return false
	}
	return c.physWidth() > 0 || c.variable() || c.op == opDecBytes
}

// directPage reports whether the direct path decodes the page of header h,
// and records it when it does.
func (lr *leafReader) directPage(h *format.PageHeader, off int64) bool {
	p := pageInfo{typ: h.Type, off: off, csize: h.CompressedPageSize, usize: h.UncompressedPageSize, crc: h.CRC}
	plain := lr.conv.physWidth() > 0 // PLAIN data pages of fixed width
	data := func(e format.Encoding) bool {
		return e == format.Plain && plain || e == format.RLEDictionary || e == format.PlainDictionary
	}
	switch {
	case h.Type == format.DictionaryPage && h.DictionaryPageHeader.Valid:
		d := &h.DictionaryPageHeader.V
		if d.Encoding != format.Plain && d.Encoding != format.PlainDictionary {
			return false
		}
		p.numValues, p.enc = d.NumValues, d.Encoding
	case h.Type == format.DataPage && h.DataPageHeader.Valid:
		d := &h.DataPageHeader.V
		if !data(d.Encoding) || lr.maxDef > 0 && d.DefinitionLevelEncoding != format.RLE {
			return false
		}
		p.numValues, p.enc = d.NumValues, d.Encoding
	case h.Type == format.DataPageV2 && h.DataPageHeaderV2.Valid:
		d := &h.DataPageHeaderV2.V
		if !data(d.Encoding) {
			return false
		}
		p.numValues, p.enc = d.NumValues, d.Encoding
		p.defLen, p.repLen = d.DefinitionLevelsByteLength, d.RepetitionLevelsByteLength
		p.compressed = !d.IsCompressed.Valid || d.IsCompressed.V
	default:
		return false
	}
	lr.dpages = append(lr.dpages, p)
	return true
}

// nextDirect makes the next data page of the chunk the current page,
// loading the dictionary pages before it. It returns false at the end of
// the chunk.
func (lr *leafReader) nextDirect() (bool, error) {
	for lr.dpAt < len(lr.dpages) {
		p := &lr.dpages[lr.dpAt]
		lr.dpAt++
		if p.typ == format.DictionaryPage {
			if err := lr.directDictionary(p); err != nil {
				return false, err
			}
			continue
		}
		if err := lr.setupDirect(p); err != nil {
			return false, err
		}
		directPages.Add(1)
		return true, nil
	}
	return false, nil
}

// pageBytes reads the compressed bytes of page p into lr's payload
// buffer and returns them, checking their CRC when the header has one
// (PageHeader.crc: of the bytes as stored).
func (lr *leafReader) pageBytes(p *pageInfo) ([]byte, error) {
	lr.pageRaw = growPageBuf(lr.pageRaw, int(p.csize))
	body := lr.pageRaw
	if err := readFull(lr.f.r, body, p.off); err != nil {
		return nil, readErr(lr.f.name, p.off, "page of "+lr.ln.phys.path, err)
	}
	if got := crc32.ChecksumIEEE(body); p.crc != 0 && got != uint32(p.crc) {
		// The error parquet-go's page reader gives, word for word.
		return nil, &CorruptError{File: lr.f.name, Offset: -1, Section: "page of column " + lr.ln.phys.path,
			Err: fmt.Errorf("crc32 checksum mismatch in page of column %q: want=0x%08X got=0x%08X: %w", lr.ln.phys.path, uint32(p.crc), got, pq.ErrCorrupted)}
	}
	return body, nil
}

// decompress returns src decompressed with the chunk's codec into lr's
// page buffer (src itself when the chunk is uncompressed). The output is
// sized by the length the Snappy block or ZSTD frames state, at most want
// (the page header's uncompressed size) bytes; ZSTD frames that state no
// size are decoded into at most want bytes.
func (lr *leafReader) decompress(src []byte, want int) ([]byte, error) {
	switch lr.codec {
	case format.Uncompressed:
		return src, nil
	case format.Snappy:
		n, err := snappy.DecodedLen(src)
		if err != nil {
			return nil, lr.corrupt("snappy block: %v", err)
		}
		if n > want {
			return nil, lr.corrupt("snappy block claims %d bytes, the page header %d", n, want)
		}
		out, err := snappy.Decode(lr.pageBuffer(n), src)
		if err != nil {
			return nil, lr.corrupt("snappy block: %v", err)
		}
		return out, nil
	case format.Zstd:
		n := want
		if total, ok := zstdContentSize(src); ok {
			if total > uint64(want) {
				return nil, lr.corrupt("ZSTD frames state %d bytes, the page header %d", total, want)
			}
			n = int(total)
		}
		out, err := zstdPages().DecodeAll(src, lr.pageBuffer(n)[:0])
		if err != nil {
			return nil, lr.corrupt("ZSTD page does not decode into the %d bytes the page header claims: %v", want, err)
		}
		if len(out) > want {
			return nil, lr.corrupt("ZSTD page decodes to %d bytes, the page header claims %d", len(out), want)
		}
		return out, nil
	}
	return nil, lr.corrupt("codec %v on the direct page path", lr.codec)
}

// pageBuffer returns lr's page buffer with length n, grown when too small.
func (lr *leafReader) pageBuffer(n int) []byte {
	lr.pageBuf = growPageBuf(lr.pageBuf, n)
	return lr.pageBuf
}

// pageBufs recycles the page buffers of the direct path between readers:
// pool c holds buffers of at least 1<<c bytes.
var pageBufs [31]sync.Pool

// growPageBuf returns b with length n when its capacity allows, else
// gives b back to pageBufs and returns a buffer of at least n bytes from
// them (a new one of the next power of two when they have none).
func growPageBuf(b []byte, n int) []byte {
	if cap(b) >= n {
		return b[:n]
	}
	putPageBuf(b)
	c := max(bits.Len(uint(n-1)), 12)
	if c >= len(pageBufs) {
		return make([]byte, n)
	}
	if v, ok := pageBufs[c].Get().(*[]byte); ok {
		return (*v)[:n]
	}
	return make([]byte, n, 1<<c)
}

// putPageBuf gives b to pageBufs.
func putPageBuf(b []byte) {
	if cap(b) < 1<<12 {
		return
	}
	c := bits.Len(uint(cap(b))) - 1
	if c >= len(pageBufs) {
		return
	}
	b = b[:0]
	pageBufs[c].Put(&b)
}

// releaseDirect gives the page buffers of lr back to pageBufs.
func (lr *leafReader) releaseDirect() {
	for _, b := range []*[]byte{&lr.pageRaw, &lr.pageBuf, &lr.defBuf, &lr.idxBuf} {
		putPageBuf(*b)
		*b = nil
	}
	lr.def, lr.idx = nil, nil
}

// zstdPages returns the ZSTD decoder of the direct page path, shared by
// every reader (DecodeAll is safe for concurrent use), decoding at most as
// many pages at once as there are processors, never past its
// destination's capacity.
var zstdPages = sync.OnceValue(func() *zstd.Decoder {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(runtime.GOMAXPROCS(0)), zstd.WithDecodeAllCapLimit(true))
	if err != nil {
		panic(err) // only for invalid options
	}
	return d
})

// setupDirect makes data page p (v1 or v2) the current page: its
// definition levels decoded (Parquet format, "Data Pages": a v1 page
// compresses a 4-byte little-endian length and the levels together with
// the values; a v2 page stores the levels uncompressed before the
// values, with their lengths in the header), its plain values in place or
// its dictionary indices decoded.
func (lr *leafReader) setupDirect(p *pageInfo) error {
	lr.pos, lr.vpos = 0, 0
	lr.def, lr.rep = nil, nil
	lr.idx, lr.raw, lr.offs = nil, nil, nil
	lr.pageFull = false
	lr.dictPage = false
	body, err := lr.pageBytes(p)
	if err != nil {
		return err
	}
	if p.numValues < 0 {
		return lr.corrupt("data page at offset %d claims %d values", p.off, p.numValues)
	}
	n := int(p.numValues)
	var levels, values []byte
	if p.typ == format.DataPage {
		data, err := lr.decompress(body, int(p.usize))
		if err != nil {
			return err
		}
		values = data
		if lr.maxDef > 0 {
			if len(data) < 4 {
				return lr.corrupt("data page at offset %d: %d bytes, no room for its definition levels' length", p.off, len(data))
			}
			l := binary.LittleEndian.Uint32(data)
			if uint64(l) > uint64(len(data)-4) {
				return lr.corrupt("data page at offset %d: definition levels of %d bytes, %d remain", p.off, l, len(data)-4)
			}
			levels, values = data[4:4+l], data[4+l:]
		}
	} else {
		rl, dl := int64(p.repLen), int64(p.defLen)
		if rl < 0 || dl < 0 || rl+dl > int64(len(body)) || rl+dl > int64(p.usize) {
			return lr.corrupt("data page v2 at offset %d: levels of %d and %d bytes in a page of %d", p.off, rl, dl, len(body))
		}
		levels, values = body[rl:rl+dl], body[rl+dl:]
		if p.compressed && len(values) > 0 {
			if values, err = lr.decompress(values, int(int64(p.usize)-rl-dl)); err != nil {
				return err
			}
		}
	}
	defined := n
	if lr.maxDef > 0 {
		lr.defBuf = growPageBuf(lr.defBuf, n)
		lr.def, defined, err = decodeLevels(lr.defBuf[:0], levels, bits.Len8(lr.maxDef), n, lr.maxDef)
		if err != nil {
			return lr.corrupt("definition levels of the data page at offset %d: %v", p.off, err)
		}
		lr.pageFull = defined == n
	}
	lr.nEntries = n
	if p.enc == format.Plain {
		pw := lr.conv.physWidth()
		if defined > len(values)/pw {
			return lr.corrupt("data page at offset %d: %d PLAIN values of %d bytes in %d bytes", p.off, defined, pw, len(values))
		}
		lr.raw = values[:defined*pw]
		return nil
	}
	lr.dictPage = true
	if !lr.hasDict {
		return lr.corrupt("dictionary-encoded data page at offset %d without a dictionary page before it", p.off)
	}
	if defined == 0 {
		return nil
	}
	if len(values) < 1 {
		return lr.corrupt("dictionary-encoded data page at offset %d without its indices' bit width", p.off)
	}
	lr.idxBuf = growPageBuf(lr.idxBuf, 4*defined)
	lr.idx, err = decodeIndices(arrow.Int32Traits.CastFromBytes(lr.idxBuf)[:0], values[1:], int(values[0]), defined)
	if err != nil {
		return lr.corrupt("dictionary indices of the data page at offset %d: %v", p.off, err)
	}
	return nil
}

// directDictionary decodes dictionary page p (PLAIN: fixed-width values
// one after another, byte arrays each after a 4-byte little-endian
// length; Encodings.md "Plain") and makes it the chunk's dictionary.
func (lr *leafReader) directDictionary(p *pageInfo) error {
	body, err := lr.pageBytes(p)
	if err != nil {
		return err
	}
	data, err := lr.decompress(body, int(p.usize))
	if err != nil {
		return err
	}
	if p.numValues < 0 {
		return lr.corrupt("dictionary page at offset %d claims %d values", p.off, p.numValues)
	}
	n := int(p.numValues)
	if pw := lr.conv.physWidth(); pw > 0 {
		if n > len(data)/pw {
			return lr.corrupt("dictionary page at offset %d: %d values of %d bytes in %d bytes", p.off, n, pw, len(data))
		}
		return lr.setDictionary(data[:n*pw], nil, n)
	}
	if n > len(data)/4 {
		return lr.corrupt("dictionary page at offset %d: %d byte arrays in %d bytes", p.off, n, len(data))
	}
	offs := append(lr.dictU32[:0], 0)
	raw := lr.dictRaw[:0]
	pos := 0
	for range n {
		if len(data)-pos < 4 {
			return lr.corrupt("dictionary page at offset %d: byte array length past its end", p.off)
		}
		l := binary.LittleEndian.Uint32(data[pos:])
		pos += 4
		if uint64(l) > uint64(len(data)-pos) {
			return lr.corrupt("dictionary page at offset %d: byte array of %d bytes, %d remain", p.off, l, len(data)-pos)
		}
		raw = append(raw, data[pos:pos+int(l)]...)
		pos += int(l)
		offs = append(offs, uint32(len(raw)))
	}
	lr.dictU32, lr.dictRaw = offs, raw
	return lr.setDictionary(raw, offs, n)
}
