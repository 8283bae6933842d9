package avro

import (
	"encoding/binary"
	"math"
)

// buf is a cursor over decoded bytes (a block, or the header). Every read
// checks the bytes remaining; errors are errShort or a value error.
type buf struct {
	b   []byte
	off int
}

func (r *buf) long() (int64, error) {
	var u uint64
	var shift uint
	for i := 0; i < 10; i++ {
		if r.off >= len(r.b) {
			return 0, errShort
		}
		c := r.b[r.off]
		r.off++
		u |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return int64(u>>1) ^ -int64(u&1), nil
		}
		shift += 7
	}
	return 0, errVarint
}

func (r *buf) int() (int32, error) {
	v, err := r.long()
	if err != nil {
		return 0, err
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, errIntRange
	}
	return int32(v), nil
}

func (r *buf) boolean() (bool, error) {
	if r.off >= len(r.b) {
		return false, errShort
	}
	c := r.b[r.off]
	r.off++
	if c > 1 {
		return false, errBool
	}
	return c == 1, nil
}

func (r *buf) float() (float32, error) {
	if len(r.b)-r.off < 4 {
		return 0, errShort
	}
	v := math.Float32frombits(binary.LittleEndian.Uint32(r.b[r.off:]))
	r.off += 4
	return v, nil
}

func (r *buf) double() (float64, error) {
	if len(r.b)-r.off < 8 {
		return 0, errShort
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.b[r.off:]))
	r.off += 8
	return v, nil
}

// bytes returns the next length-prefixed bytes (a view, not a copy).
func (r *buf) bytes() ([]byte, error) {
	n, err := r.long()
	if err != nil {
		return nil, err
	}
	if n < 0 || n > int64(len(r.b)-r.off) {
		return nil, errLength
	}
	v := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	return v, nil
}

func (r *buf) fixed(n int) ([]byte, error) {
	if len(r.b)-r.off < n {
		return nil, errShort
	}
	v := r.b[r.off : r.off+n]
	r.off += n
	return v, nil
}

func (r *buf) skip(n int) error {
	if len(r.b)-r.off < n {
		return errShort
	}
	r.off += n
	return nil
}

// blockCount reads the item count of an array or map block. A negative
// count is followed by the block's size in bytes (Avro spec, "Complex
// Types"), which is read and ignored.
func (r *buf) blockCount() (int64, error) {
	n, err := r.long()
	if err != nil {
		return 0, err
	}
	if n < 0 {
		if n == math.MinInt64 {
			return 0, errLength
		}
		n = -n
		if _, err := r.long(); err != nil {
			return 0, err
		}
	}
	// Items of every type Iceberg writes take at least one byte, so a
	// count above the bytes left is corrupt (an array of a zero-byte type,
	// such as null, longer than the rest of its block is refused too).
	if n > int64(len(r.b)-r.off) {
		return 0, errLength
	}
	return n, nil
}

type valueError string

func (e valueError) Error() string { return string(e) }

const (
	errVarint   = valueError("varint longer than 10 bytes")
	errIntRange = valueError("int out of the 32-bit range")
	errBool     = valueError("boolean byte not 0 or 1")
	errLength   = valueError("length negative or past the end of the block")
)
