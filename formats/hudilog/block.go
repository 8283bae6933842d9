package hudilog

import (
	"encoding/binary"
	"errors"
	"io"
	"strconv"
)

// Magic starts every block.
const Magic = "#HUDI#"

// BlockType is a block's type (HoodieLogBlockType's ordinal).
type BlockType int32

// The block types.
const (
	CommandBlock     BlockType = 0
	DeleteBlock      BlockType = 1
	CorruptBlock     BlockType = 2
	AvroDataBlock    BlockType = 3
	HFileDataBlock   BlockType = 4
	ParquetDataBlock BlockType = 5
	CDCDataBlock     BlockType = 6
)

func (t BlockType) String() string {
	switch t {
	case CommandBlock:
		return "command"
	case DeleteBlock:
		return "delete"
	case CorruptBlock:
		return "corrupt"
	case AvroDataBlock:
		return "avro data"
	case HFileDataBlock:
		return "hfile data"
	case ParquetDataBlock:
		return "parquet data"
	case CDCDataBlock:
		return "cdc data"
	}
	return "type " + strconv.Itoa(int(t))
}

// HeaderKey is a key of a block's header or footer (HeaderMetadataType's
// ordinal).
type HeaderKey int32

// The header keys.
const (
	InstantTime           HeaderKey = 0
	TargetInstantTime     HeaderKey = 1
	Schema                HeaderKey = 2
	CommandBlockType      HeaderKey = 3
	CompactedBlockTimes   HeaderKey = 4
	RecordPositions       HeaderKey = 5
	BlockIdentifier       HeaderKey = 6
	IsPartial             HeaderKey = 7
	BaseFileInstantOfPosi HeaderKey = 8
)

// RollbackCommand is the COMMAND_BLOCK_TYPE of a rollback command block.
const RollbackCommand = "0"

// logFormatVersion is the only log format version read: the one with a
// header, a content size, a footer and the reverse pointer.
const logFormatVersion = 1

// Block is one block of a log file.
type Block struct {
	// Offset is the byte offset of the block's magic in the file.
	Offset int64
	// Type is the block type.
	Type BlockType
	// Header and Footer are the block's metadata maps.
	Header, Footer map[HeaderKey]string
	// Content is the block's content (it aliases no buffer of the reader).
	Content []byte
	// ContentOffset is the byte offset of Content in the file.
	ContentOffset int64
}

// Instant returns the INSTANT_TIME header: the instant that wrote the
// block.
func (b *Block) Instant() string { return b.Header[InstantTime] }

// Reader reads the blocks of one log file in order.
type Reader struct {
	r      io.ReaderAt
	size   int64
	name   string
	limits Limits
	off    int64
	err    error
}

// NewReader returns a reader of the log file r of size bytes, named name in
// errors.
func NewReader(r io.ReaderAt, size int64, name string, limits Limits) *Reader {
	return &Reader{r: r, size: size, name: name, limits: limits}
}

// Next returns the next block, or io.EOF after the last. A block that does
// not follow the format (a bad magic, a size beyond the file or the cap, a
// metadata map or content that overruns the block, a reverse pointer that
// disagrees) returns a [*CorruptError]; the reader then stops. Hudi's own
// reader skips such a block as a "corrupt block" left by a failed writer;
// this one does not guess which blocks a failed writer left.
func (r *Reader) Next() (*Block, error) {
	if r.err != nil {
		return nil, r.err
	}
	b, err := r.next()
	if err != nil {
		r.err = err
	}
	return b, err
}

func (r *Reader) next() (*Block, error) {
	start := r.off
	if start >= r.size {
		return nil, io.EOF
	}
	var head [len(Magic) + 8 + 4 + 4]byte
	if r.size-start < int64(len(head)) {
		return nil, corruptf(r.name, start, "block", "%d bytes left, too few for a block header", r.size-start)
	}
	if err := r.readAt(head[:], start); err != nil {
		return nil, err
	}
	if string(head[:len(Magic)]) != Magic {
		return nil, corruptf(r.name, start, "magic", "%q, want %q", head[:len(Magic)], Magic)
	}
	size := int64(binary.BigEndian.Uint64(head[6:]))
	bodyAt := start + int64(len(Magic)) + 8
	if size < 4+4+4+8+4+8 || size > r.size-bodyAt {
		return nil, corruptf(r.name, start+6, "block", "block size %d outside [32, %d] (the bytes left)", size, r.size-bodyAt)
	}
	if size > r.limits.blockBytes() {
		return nil, corruptf(r.name, start+6, "block", "block size %d above the %d-byte cap", size, r.limits.blockBytes())
	}
	version := int32(binary.BigEndian.Uint32(head[14:]))
	if version != logFormatVersion {
		return nil, unsupportedf(r.name, start+14, "log format version %d (this reader reads version %d)", version, logFormatVersion)
	}
	body := make([]byte, size)
	if err := r.readAt(body, bodyAt); err != nil {
		return nil, err
	}
	c := cursor{b: body, base: bodyAt, name: r.name}
	c.off = 4 // the version, read above
	typ := BlockType(c.int32("block"))
	blk := &Block{Offset: start, Type: typ}
	blk.Header = c.metadata("header")
	n := c.int64("content")
	if c.err == nil && (n < 0 || n > int64(len(body)-c.off)) {
		c.fail("content", "content size %d, %d bytes left in the block", n, len(body)-c.off)
	}
	if c.err == nil {
		blk.ContentOffset = bodyAt + int64(c.off)
		blk.Content = body[c.off : c.off+int(n) : c.off+int(n)]
		c.off += int(n)
	}
	blk.Footer = c.metadata("footer")
	total := c.int64("block")
	if c.err != nil {
		return nil, c.err
	}
	if c.off != len(body) {
		return nil, corruptf(r.name, bodyAt+int64(c.off), "block", "%d bytes after the reverse pointer, inside the block size", len(body)-c.off)
	}
	// The reverse pointer counts the block up to itself, magic included.
	if want := int64(len(Magic)) + size; total != want {
		return nil, corruptf(r.name, bodyAt+int64(c.off)-8, "block", "reverse pointer %d, want %d", total, want)
	}
	switch typ {
	case CommandBlock, DeleteBlock, AvroDataBlock, ParquetDataBlock, HFileDataBlock, CDCDataBlock:
	default:
		return nil, corruptf(r.name, bodyAt+4, "block", "unknown block type %d", int32(typ))
	}
	r.off = bodyAt + size
	return blk, nil
}

func (r *Reader) readAt(p []byte, off int64) error {
	n, err := r.r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return corruptf(r.name, off+int64(n), "block", "file ends %d bytes early", len(p)-n)
	}
	return err
}

// cursor reads big-endian integers and metadata maps from a block's bytes;
// the first failure sticks.
type cursor struct {
	b    []byte
	off  int
	base int64 // file offset of b[0]
	name string
	err  error
}

func (c *cursor) fail(section, format string, args ...any) {
	if c.err == nil {
		c.err = corruptf(c.name, c.base+int64(c.off), section, format, args...)
	}
}

func (c *cursor) int32(section string) int32 {
	if c.err != nil {
		return 0
	}
	if len(c.b)-c.off < 4 {
		c.fail(section, "block ends inside a 4-byte integer")
		return 0
	}
	v := int32(binary.BigEndian.Uint32(c.b[c.off:]))
	c.off += 4
	return v
}

func (c *cursor) int64(section string) int64 {
	if c.err != nil {
		return 0
	}
	if len(c.b)-c.off < 8 {
		c.fail(section, "block ends inside an 8-byte integer")
		return 0
	}
	v := int64(binary.BigEndian.Uint64(c.b[c.off:]))
	c.off += 8
	return v
}

func (c *cursor) metadata(section string) map[HeaderKey]string {
	n := c.int32(section)
	if c.err != nil {
		return nil
	}
	if n < 0 || n > maxMetadataEntries || int(n) > (len(c.b)-c.off)/8 {
		c.fail(section, "%d entries (at most %d, and 8 bytes each)", n, maxMetadataEntries)
		return nil
	}
	m := make(map[HeaderKey]string, n)
	for i := int32(0); i < n; i++ {
		k := HeaderKey(c.int32(section))
		l := c.int32(section)
		if c.err != nil {
			return nil
		}
		if l < 0 || int(l) > len(c.b)-c.off {
			c.fail(section, "entry %d of %d bytes, %d left in the block", k, l, len(c.b)-c.off)
			return nil
		}
		m[k] = string(c.b[c.off : c.off+int(l)])
		c.off += int(l)
	}
	return m
}
