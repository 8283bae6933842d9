package paimon

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/lakecat/lakecat"
)

// ErrCorruptDeletionVector is matched by errors for a deletion vector whose
// bytes do not follow Paimon's format (a bad length, magic number or CRC,
// a bitmap that does not decode).
var ErrCorruptDeletionVector = lakecat.NewSentinel(lakecat.ErrCorrupt, "paimon: corrupt deletion vector")

// ErrDeletionVectorFormat is matched by the error for a deletion vector of
// a format lakecat does not read (Paimon's 64-bit bitmap).
var ErrDeletionVectorFormat = lakecat.NewSentinel(lakecat.ErrUnsupported, "paimon: unsupported deletion vector format")

const (
	// dvMagic is BitmapDeletionVector's magic number (a 32-bit roaring
	// bitmap), big-endian.
	dvMagic = 1581511376
	// dv64Magic is Bitmap64DeletionVector's magic number, stored
	// little-endian.
	dv64Magic = 1681511377
	// maxDeletionVectorBytes caps the length a deletion vector's length
	// field may claim: a 32-bit roaring bitmap of every row of a
	// 2^31-row file is well below it.
	maxDeletionVectorBytes = 1 << 30
)

// ReadDeletionVector reads the deletion vector of one data file from a
// DELETION_VECTORS index file r (size bytes, named name in errors) at
// offset, whose index manifest entry records length (the bytes of its
// magic number and bitmap). The layout (Paimon's BitmapDeletionVector):
// a big-endian int32 length, the big-endian int32 magic number 1581511376,
// a 32-bit roaring bitmap in the portable format of the deleted row
// positions, and a big-endian CRC-32 (IEEE) of the magic number and bitmap.
// Errors match [ErrCorruptDeletionVector] or [ErrDeletionVectorFormat] and
// name the file.
func ReadDeletionVector(r io.ReaderAt, size int64, name string, offset, length int64) (*roaring.Bitmap, error) {
	if offset < 0 || length < 4 || length > maxDeletionVectorBytes || offset > size || size-offset < length+8 {
		return nil, fmt.Errorf("%w: %s: range at %d of %d bytes outside the %d-byte file", ErrCorruptDeletionVector, name, offset, length, size)
	}
	buf := make([]byte, length+8)
	if _, err := r.ReadAt(buf, offset); err != nil && err != io.EOF {
		return nil, fmt.Errorf("paimon: %s: deletion vector: %w", name, err)
	}
	bm, err := DecodeDeletionVector(buf)
	if err != nil {
		return nil, fmt.Errorf("paimon: deletion vector at offset %d: %w", offset, err)
	}
	return bm, nil
}

// DecodeDeletionVector decodes one serialized deletion vector (length,
// magic number, bitmap, CRC; see [ReadDeletionVector]) that fills b.
func DecodeDeletionVector(b []byte) (bm *roaring.Bitmap, err error) {
	if len(b) < 12 {
		return nil, fmt.Errorf("%w: %d bytes", ErrCorruptDeletionVector, len(b))
	}
	n := int64(binary.BigEndian.Uint32(b))
	if n < 4 || n > int64(len(b))-8 || n > maxDeletionVectorBytes {
		return nil, fmt.Errorf("%w: length %d in %d bytes", ErrCorruptDeletionVector, n, len(b))
	}
	body := b[4 : 4+n]
	magic := binary.BigEndian.Uint32(body)
	if magic != dvMagic {
		if binary.LittleEndian.Uint32(body) == dv64Magic {
			return nil, fmt.Errorf("%w: a 64-bit bitmap deletion vector", ErrDeletionVectorFormat)
		}
		return nil, fmt.Errorf("%w: magic number %d, not %d", ErrCorruptDeletionVector, int32(magic), dvMagic)
	}
	want := binary.BigEndian.Uint32(b[4+n:])
	if got := crc32.ChecksumIEEE(body); got != want {
		return nil, fmt.Errorf("%w: CRC %08x, the bytes give %08x", ErrCorruptDeletionVector, want, got)
	}
	defer func() {
		if r := recover(); r != nil {
			bm, err = nil, fmt.Errorf("%w: bitmap: %v", ErrCorruptDeletionVector, r)
		}
	}()
	bm = roaring.New()
	if _, err := bm.ReadFrom(bytes.NewReader(body[4:])); err != nil {
		return nil, fmt.Errorf("%w: bitmap: %v", ErrCorruptDeletionVector, err)
	}
	return bm, nil
}

// EncodeDeletionVector serializes a deletion vector of the deleted row
// positions bm in the layout [DecodeDeletionVector] reads; it returns the
// bytes and the length an index manifest records for them.
func EncodeDeletionVector(bm *roaring.Bitmap) ([]byte, int64, error) {
	var body bytes.Buffer
	binary.Write(&body, binary.BigEndian, uint32(dvMagic))
	if _, err := bm.WriteTo(&body); err != nil {
		return nil, 0, err
	}
	out := binary.BigEndian.AppendUint32(nil, uint32(body.Len()))
	out = append(out, body.Bytes()...)
	out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(body.Bytes()))
	return out, int64(body.Len()), nil
}
