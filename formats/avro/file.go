package avro

import (
	"bytes"
	"compress/bzip2"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"

	"github.com/lakecat/lakecat/schema"
)

// Magic is the first four bytes of an Avro object container file.
const Magic = "Obj\x01"

// Option configures [Open].
type Option func(*config)

type config struct{ name string }

// WithName names the file in errors.
func WithName(name string) Option { return func(c *config) { c.name = name } }

// File is an open Avro object container file.
type File struct {
	r       io.ReaderAt
	size    int64
	name    string
	codec   string
	sync    [16]byte
	dataOff int64 // offset of the first block
	schema  *schema.Schema
	nodes   []*node
	meta    map[string][]byte
	numRows int64 // -1 until counted
	recMin  int   // fewest bytes one record takes
}

// Open reads the container header of the file r of size bytes: the magic,
// the metadata map (avro.schema, avro.codec) and the sync marker. Data
// blocks are read by the batch reader. It returns an error matching
// [ErrCorrupt] for a malformed header or schema, and [ErrUnsupported] for an
// unknown codec or a schema this package does not map.
func Open(r io.ReaderAt, size int64, opts ...Option) (*File, error) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	f, as, err := openHeader(r, size, c.name)
	if err != nil {
		return nil, err
	}
	f.schema, f.nodes, err = convertSchema(as)
	if err != nil && c.name != "" {
		return nil, fmt.Errorf("%s: %w", c.name, err)
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}

// CheckContainer reads the whole Avro object container file r of size
// bytes, named name in errors, under this package's caps without decoding a
// record: the header (at most 16 MiB), then every block's header, sync
// marker and decompressed bytes (at most 64 MiB a block, compressed or
// decompressed, and no more records than those bytes can hold), counting
// decompressed bytes without keeping them. [File.Records] runs this check
// on a compressed file before decoding it; a decoder without such caps can
// likewise read checked bytes without being asked for more. Errors match
// [ErrCorrupt], or [ErrUnsupported] for an unknown codec.
func CheckContainer(r io.ReaderAt, size int64, name string) error {
	f, _, err := openHeader(r, size, name)
	if err != nil {
		return err
	}
	return f.check()
}

// check is [CheckContainer] on the blocks of f.
func (f *File) check() error {
	var raw []byte
	var zd *zstd.Decoder
	defer func() {
		if zd != nil {
			zd.Close()
		}
	}()
	for off := f.dataOff; off < f.size; {
		cnt, size, hdr, err := f.blockHeader(off)
		if err != nil {
			return err
		}
		raw = grow(raw, int(size)+16)
		if _, err := f.r.ReadAt(raw, off+int64(hdr)); err != nil && err != io.EOF {
			return fmt.Errorf("avro: %s: %w", f.name, err)
		}
		if !bytes.Equal(raw[size:], f.sync[:]) {
			return corruptf(f.name, off+int64(hdr)+size, "block", "sync marker does not match the header's")
		}
		n, err := f.decodedLen(off, raw[:size], &zd)
		if err != nil {
			return err
		}
		if cnt > n/int64(f.recMin) {
			return corruptf(f.name, off, "block", "%d records cannot fit in %d bytes", cnt, n)
		}
		off += int64(hdr) + size + 16
	}
	return nil
}

// openHeader reads the header of Open and parses its Avro schema.
func openHeader(r io.ReaderAt, size int64, name string) (*File, *Schema, error) {
	c := config{name: name}
	f := &File{r: r, size: size, name: c.name, numRows: -1}
	if size < int64(len(Magic))+1+16 {
		return nil, nil, corruptf(c.name, 0, "magic", "file of %d bytes is too short for an Avro container", size)
	}
	// Read the header in growing chunks until it parses (the schema JSON
	// may be large), up to maxHeaderBytes.
	n := int64(64 << 10)
	for {
		n = min(n, size, maxHeaderBytes)
		b := make([]byte, n)
		if _, err := r.ReadAt(b, 0); err != nil && err != io.EOF {
			return nil, nil, fmt.Errorf("avro: %s: reading header: %w", c.name, err)
		}
		if string(b[:4]) != Magic {
			return nil, nil, corruptf(c.name, 0, "magic", "magic %q, want %q", b[:4], Magic)
		}
		err := f.parseHeader(b)
		if err == nil {
			break
		}
		if err != errShort || n == size || n == maxHeaderBytes {
			if err == errShort && n == maxHeaderBytes {
				return nil, nil, corruptf(c.name, 0, "header", "header larger than the %d-byte cap", maxHeaderBytes)
			}
			return nil, nil, corruptf(c.name, 4, "header", "%v", err)
		}
		n *= 4
	}
	switch f.codec {
	case "", "null", "deflate", "snappy", "zstandard", "bzip2":
	default:
		return nil, nil, unsupportedf("%s: codec %q", c.name, f.codec)
	}
	as, err := ParseSchema(string(f.meta["avro.schema"]))
	if err != nil {
		return nil, nil, corruptf(c.name, 4, "schema", "%v", err)
	}
	f.recMin = max(minBytes(as, 0), 1)
	return f, as, nil
}

// parseHeader reads the metadata map and the sync marker from b, which
// starts with the magic.
func (f *File) parseHeader(b []byte) error {
	r := &buf{b: b, off: 4}
	meta := map[string][]byte{}
	for {
		cnt, err := r.blockCount()
		if err != nil {
			return err
		}
		if cnt == 0 {
			break
		}
		for i := int64(0); i < cnt; i++ {
			k, err := headerBytes(r)
			if err != nil {
				return err
			}
			v, err := headerBytes(r)
			if err != nil {
				return err
			}
			meta[string(k)] = bytes.Clone(v)
		}
	}
	s, err := r.fixed(16)
	if err != nil {
		return err
	}
	if _, ok := meta["avro.schema"]; !ok {
		return valueError("no avro.schema in the header")
	}
	copy(f.sync[:], s)
	f.meta, f.codec, f.dataOff = meta, string(meta["avro.codec"]), int64(r.off)
	return nil
}

// headerBytes returns the next length-prefixed header key or value. A
// length within maxHeaderBytes that runs past the bytes read so far is
// errShort (openHeader reads more); a negative length or one past the
// cap is errLength (corrupt).
func headerBytes(r *buf) ([]byte, error) {
	n, err := r.long()
	if err != nil {
		return nil, err
	}
	if n < 0 || n > maxHeaderBytes {
		return nil, errLength
	}
	if n > int64(len(r.b)-r.off) {
		return nil, errShort
	}
	v := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	return v, nil
}

// Schema returns the file schema: ids from the Avro field-id, element-id,
// key-id and value-id properties, schema.NoID where absent.
func (f *File) Schema() *schema.Schema { return f.schema }

// Metadata returns the value of a header metadata key ("avro.schema",
// "avro.codec", or a writer's own keys), or nil.
func (f *File) Metadata(key string) []byte { return f.meta[key] }

// Codec returns the block codec ("null" when none is named).
func (f *File) Codec() string {
	if f.codec == "" {
		return "null"
	}
	return f.codec
}

// NumRows returns the number of records, counted from the block headers
// (an Avro container does not store the total): the first call reads every
// block header (a few bytes per block); a malformed block gives -1 (the
// batch reader reports the error).
func (f *File) NumRows() int64 {
	if f.numRows >= 0 {
		return f.numRows
	}
	var total int64
	off := f.dataOff
	for off < f.size {
		cnt, size, hdr, err := f.blockHeader(off)
		if err != nil {
			return -1
		}
		total += cnt
		off += int64(hdr) + size + 16
	}
	f.numRows = total
	return total
}

// blockHeader reads the record count and byte size of the block at off and
// the length in bytes of those two varints.
func (f *File) blockHeader(off int64) (count, size int64, hdrLen int, err error) {
	var b [20]byte
	n := min(int64(len(b)), f.size-off)
	if _, err := f.r.ReadAt(b[:n], off); err != nil && err != io.EOF {
		return 0, 0, 0, fmt.Errorf("avro: %s: %w", f.name, err)
	}
	r := &buf{b: b[:n]}
	if count, err = r.long(); err == nil {
		size, err = r.long()
	}
	if err != nil {
		return 0, 0, 0, corruptf(f.name, off, "block", "header: %v", err)
	}
	switch {
	case count < 0 || count > maxBlockRows:
		return 0, 0, 0, corruptf(f.name, off, "block", "record count %d", count)
	case size < 0 || size > maxBlockBytes || size+int64(r.off)+16 > f.size-off:
		return 0, 0, 0, corruptf(f.name, off, "block", "size %d bytes (%d bytes left in the file)", size, f.size-off)
	}
	return count, size, r.off, nil
}

// readBlock reads the block at off, checks its sync marker and returns its
// decompressed bytes, its record count and the offset of the next block.
func (f *File) readBlock(off int64, rawBuf *[]byte, dst []byte, zd **zstd.Decoder) ([]byte, int64, int64, error) {
	cnt, size, hdr, err := f.blockHeader(off)
	if err != nil {
		return nil, 0, 0, err
	}
	raw := grow(*rawBuf, int(size)+16)
	*rawBuf = raw
	if _, err := f.r.ReadAt(raw, off+int64(hdr)); err != nil && err != io.EOF {
		return nil, 0, 0, fmt.Errorf("avro: %s: %w", f.name, err)
	}
	if !bytes.Equal(raw[size:], f.sync[:]) {
		return nil, 0, 0, corruptf(f.name, off+int64(hdr)+size, "block", "sync marker does not match the header's")
	}
	data := raw[:size]
	next := off + int64(hdr) + size + 16
	out, err := f.decompress(off, data, dst, zd)
	if err != nil {
		return nil, 0, 0, err
	}
	// Every record takes at least recMin bytes (1 for a record that could
	// take none, which Iceberg never writes): a count the bytes cannot
	// hold is corrupt, and a decoder never loops over empty records.
	if cnt > int64(len(out))/int64(f.recMin) {
		return nil, 0, 0, corruptf(f.name, off, "block", "%d records cannot fit in %d bytes", cnt, len(out))
	}
	return out, cnt, next, nil
}

// decompress returns the decompressed bytes of the block at off.
func (f *File) decompress(off int64, data, dst []byte, zd **zstd.Decoder) ([]byte, error) {
	switch f.codec {
	case "", "null":
		return data, nil
	case "deflate":
		out, err := readCapped(flate.NewReader(bytes.NewReader(data)), dst)
		if err != nil {
			return nil, corruptf(f.name, off, "block", "deflate: %v", err)
		}
		return out, nil
	case "bzip2":
		out, err := readCapped(bzip2.NewReader(bytes.NewReader(data)), dst)
		if err != nil {
			return nil, corruptf(f.name, off, "block", "bzip2: %v", err)
		}
		return out, nil
	case "snappy":
		// Snappy block followed by the CRC-32 (big-endian) of the
		// uncompressed bytes (Avro spec, "Required Codecs").
		if len(data) < 4 {
			return nil, corruptf(f.name, off, "block", "snappy block of %d bytes", len(data))
		}
		body, sum := data[:len(data)-4], binary.BigEndian.Uint32(data[len(data)-4:])
		n, err := s2.DecodedLen(body)
		if err != nil {
			return nil, corruptf(f.name, off, "block", "snappy: %v", err)
		}
		if n > maxBlockBytes {
			return nil, corruptf(f.name, off, "block", "snappy: decoded length %d over the %d-byte cap", n, maxBlockBytes)
		}
		out, err := s2.Decode(grow(dst, n), body)
		if err != nil {
			return nil, corruptf(f.name, off, "block", "snappy: %v", err)
		}
		if crc32.ChecksumIEEE(out) != sum {
			return nil, corruptf(f.name, off, "block", "snappy: CRC-32 mismatch")
		}
		return out, nil
	case "zstandard":
		if *zd == nil {
			d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxBlockBytes))
			if err != nil {
				return nil, err
			}
			*zd = d
		}
		if err := (*zd).Reset(bytes.NewReader(data)); err != nil {
			return nil, corruptf(f.name, off, "block", "zstandard: %v", err)
		}
		out, err := readCapped(*zd, dst)
		if err != nil {
			return nil, corruptf(f.name, off, "block", "zstandard: %v", err)
		}
		return out, nil
	}
	return nil, unsupportedf("codec %q", f.codec)
}

// decodedLen returns the decompressed length of the block at off, data
// being its compressed bytes, streaming the decompression into nothing so
// that checking a block of up to maxBlockBytes costs a few buffers (for
// Snappy the length its preamble states, which is what a decoder
// allocates).
func (f *File) decodedLen(off int64, data []byte, zd **zstd.Decoder) (int64, error) {
	var r io.Reader
	switch f.codec {
	case "", "null":
		return int64(len(data)), nil
	case "deflate":
		r = flate.NewReader(bytes.NewReader(data))
	case "bzip2":
		r = bzip2.NewReader(bytes.NewReader(data))
	case "snappy":
		if len(data) < 4 {
			return 0, corruptf(f.name, off, "block", "snappy block of %d bytes", len(data))
		}
		n, err := s2.DecodedLen(data[:len(data)-4])
		if err != nil {
			return 0, corruptf(f.name, off, "block", "snappy: %v", err)
		}
		if n > maxBlockBytes {
			return 0, corruptf(f.name, off, "block", "snappy: decoded length %d over the %d-byte cap", n, maxBlockBytes)
		}
		return int64(n), nil
	case "zstandard":
		if *zd == nil {
			d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxBlockBytes))
			if err != nil {
				return 0, err
			}
			*zd = d
		}
		if err := (*zd).Reset(bytes.NewReader(data)); err != nil {
			return 0, corruptf(f.name, off, "block", "zstandard: %v", err)
		}
		r = *zd
	default:
		return 0, unsupportedf("codec %q", f.codec)
	}
	n, err := io.Copy(io.Discard, io.LimitReader(r, maxBlockBytes+1))
	if err == nil && n > maxBlockBytes {
		err = fmt.Errorf("decompressed block over the %d-byte cap", maxBlockBytes)
	}
	if err != nil {
		return 0, corruptf(f.name, off, "block", "%s: %v", f.codec, err)
	}
	return n, nil
}

func grow(b []byte, n int) []byte {
	if cap(b) >= n {
		return b[:n]
	}
	return make([]byte, n)
}

// readCapped reads r to its end into dst's storage, growing it by doubling
// but never past maxBlockBytes+1, so a block that decompresses past the cap
// costs at most the cap (plus one copy while growing) before it is refused.
func readCapped(r io.Reader, dst []byte) ([]byte, error) {
	buf := dst[:0]
	if cap(buf) == 0 {
		buf = make([]byte, 0, 64<<10)
	}
	for {
		if len(buf) == cap(buf) {
			if len(buf) > maxBlockBytes {
				return nil, fmt.Errorf("decompressed block over the %d-byte cap", maxBlockBytes)
			}
			nb := make([]byte, len(buf), min(2*cap(buf), maxBlockBytes+1))
			copy(nb, buf)
			buf = nb
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			if len(buf) > maxBlockBytes {
				return nil, fmt.Errorf("decompressed block over the %d-byte cap", maxBlockBytes)
			}
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
