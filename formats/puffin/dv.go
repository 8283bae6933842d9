package puffin

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/RoaringBitmap/roaring/v2/roaring64"
)

// dvMagic is the magic of a deletion-vector-v1 blob, after its length.
var dvMagic = [4]byte{0xD1, 0xD3, 0x39, 0x64}

// BlobType is the Puffin blob type of a deletion vector.
const BlobType = "deletion-vector-v1"

// ReadDeletionVector reads the deletion-vector-v1 blob of length bytes at
// offset in the Puffin file r of size bytes and decodes it
// ([DecodeDeletionVector]). A blob that does not fit in the file, or is
// larger than [MaxDeletionVectorBytes], is an error matching [ErrCorrupt];
// read errors are returned as they are.
func ReadDeletionVector(r io.ReaderAt, size, offset, length int64) (*roaring64.Bitmap, error) {
	if offset < 0 || length < 12 || offset > size || length > size-offset {
		return nil, corruptf(-1, "location", "blob of %d bytes at offset %d does not fit in a file of %d bytes", length, offset, size)
	}
	if length > MaxDeletionVectorBytes {
		return nil, corruptf(-1, "location", "blob of %d bytes is over the %d-byte cap", length, MaxDeletionVectorBytes)
	}
	b := make([]byte, length)
	if _, err := r.ReadAt(b, offset); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("puffin: deletion vector at offset %d: %w", offset, err)
	}
	return DecodeDeletionVector(b)
}

// DecodeDeletionVector decodes a whole deletion-vector-v1 blob: a 4-byte
// big-endian length of the magic and the vector, the magic D1 D3 39 64,
// the vector as a portable 64-bit roaring bitmap (a little-endian 8-byte
// count of 32-bit bitmaps, each a little-endian 4-byte key of the high 32
// bits in ascending order and a portable 32-bit roaring bitmap of the low
// bits), and a 4-byte big-endian CRC-32 of the magic and the vector. The
// positions are the deleted rows of one data file, from 0. Any mismatch
// (length, magic, CRC, a truncated or malformed bitmap, keys out of order,
// a position ≥ 2^63) is an error matching [ErrCorrupt].
func DecodeDeletionVector(b []byte) (bm *roaring64.Bitmap, err error) {
	if len(b) < 12 {
		return nil, corruptf(0, "length", "blob of %d bytes is shorter than its 12-byte frame", len(b))
	}
	n := binary.BigEndian.Uint32(b)
	if int64(n) != int64(len(b))-8 {
		return nil, corruptf(0, "length", "length field %d, but the blob holds %d bytes of magic and vector", n, len(b)-8)
	}
	if !bytes.Equal(b[4:8], dvMagic[:]) {
		return nil, corruptf(4, "magic", "% x, want % x", b[4:8], dvMagic[:])
	}
	body := b[4 : len(b)-4]
	want := binary.BigEndian.Uint32(b[len(b)-4:])
	if got := crc32.ChecksumIEEE(body); got != want {
		return nil, corruptf(int64(len(b)-4), "crc", "CRC-32 %08x of magic and vector, the blob states %08x", got, want)
	}
	return decodeBitmap64(body[4:], 8)
}

// decodeBitmap64 decodes a portable 64-bit roaring bitmap; base is the
// offset of vec in the blob, for errors.
func decodeBitmap64(vec []byte, base int64) (bm *roaring64.Bitmap, err error) {
	defer func() {
		if r := recover(); r != nil { // roaring on bytes it did not expect
			bm, err = nil, corruptf(-1, "bitmap", "roaring decoder failed: %v", r)
		}
	}()
	if len(vec) < 8 {
		return nil, corruptf(base, "bitmap", "%d bytes, shorter than the 8-byte bitmap count", len(vec))
	}
	count := binary.LittleEndian.Uint64(vec)
	if count > maxBitmaps || count > uint64(len(vec)-8)/8 {
		return nil, corruptf(base, "bitmap", "%d 32-bit bitmaps declared in %d bytes", count, len(vec)-8)
	}
	out := roaring64.New()
	rd := bytes.NewReader(vec[8:])
	var buf []uint64
	prevKey := int64(-1)
	for i := uint64(0); i < count; i++ {
		off := base + 8 + int64(len(vec)-8-rd.Len())
		var kb [4]byte
		if _, err := io.ReadFull(rd, kb[:]); err != nil {
			return nil, corruptf(off, "bitmap", "key of bitmap %d: %v", i, io.ErrUnexpectedEOF)
		}
		key := binary.LittleEndian.Uint32(kb[:])
		if int64(key) <= prevKey {
			return nil, corruptf(off, "bitmap", "key %d of bitmap %d not above the previous key %d", key, i, prevKey)
		}
		if key > 0x7fffffff {
			return nil, corruptf(off, "bitmap", "key %d: positions of 2^63 and more", key)
		}
		prevKey = int64(key)
		inner := roaring.New()
		if _, err := inner.ReadFrom(rd); err != nil {
			return nil, corruptf(off+4, "bitmap", "32-bit bitmap %d: %v", i, err)
		}
		if err := inner.Validate(); err != nil {
			return nil, corruptf(off+4, "bitmap", "32-bit bitmap %d: %v", i, err)
		}
		it := inner.ManyIterator()
		low := make([]uint32, 4096)
		for {
			k := it.NextMany(low)
			if k == 0 {
				break
			}
			buf = buf[:0]
			for _, v := range low[:k] {
				buf = append(buf, uint64(key)<<32|uint64(v))
			}
			out.AddMany(buf)
		}
	}
	if rd.Len() != 0 {
		return nil, corruptf(base+int64(len(vec)-rd.Len()), "bitmap", "%d bytes after the last bitmap", rd.Len())
	}
	return out, nil
}

// EncodeDeletionVector returns the deletion-vector-v1 blob of the
// positions in bm (the inverse of [DecodeDeletionVector]).
func EncodeDeletionVector(bm *roaring64.Bitmap) []byte {
	// Group the positions by their high 32 bits.
	var keys []uint32
	var inners []*roaring.Bitmap
	it := bm.Iterator()
	for it.HasNext() {
		v := it.Next()
		k := uint32(v >> 32)
		if len(keys) == 0 || keys[len(keys)-1] != k {
			keys = append(keys, k)
			inners = append(inners, roaring.New())
		}
		inners[len(inners)-1].Add(uint32(v))
	}
	var vec bytes.Buffer
	vec.Write(dvMagic[:])
	var u8 [8]byte
	binary.LittleEndian.PutUint64(u8[:], uint64(len(keys)))
	vec.Write(u8[:])
	for i, k := range keys {
		var u4 [4]byte
		binary.LittleEndian.PutUint32(u4[:], k)
		vec.Write(u4[:])
		inners[i].RunOptimize()
		if _, err := inners[i].WriteTo(&vec); err != nil {
			panic(err) // a bytes.Buffer does not fail
		}
	}
	out := make([]byte, 4, 8+vec.Len())
	binary.BigEndian.PutUint32(out, uint32(vec.Len()))
	out = append(out, vec.Bytes()...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(vec.Bytes()))
}
