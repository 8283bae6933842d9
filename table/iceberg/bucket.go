package iceberg

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"strings"

	"github.com/lakecat/lakecat/expr"
	"github.com/lakecat/lakecat/schema"
)

// The bucket[N] transform (Iceberg table spec, "Bucket Transform Details"
// and "Appendix B: 32-bit Hash Requirements"): the 32-bit Murmur3 hash,
// x86 variant, seed 0, of the value's bytes, its sign bit cleared, modulo
// N. An equality on the source column rules out every partition whose
// bucket is not that of a literal.

// murmur3 returns the 32-bit Murmur3 hash (x86 variant, seed 0) of b.
func murmur3(b []byte) uint32 {
	const c1, c2 = 0xcc9e2d51, 0x1b873593
	var h uint32
	n := len(b)
	for len(b) >= 4 {
		k := binary.LittleEndian.Uint32(b)
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
		h = bits.RotateLeft32(h, 13)
		h = h*5 + 0xe6546b64
		b = b[4:]
	}
	var k uint32
	switch len(b) {
	case 3:
		k ^= uint32(b[2]) << 16
		fallthrough
	case 2:
		k ^= uint32(b[1]) << 8
		fallthrough
	case 1:
		k ^= uint32(b[0])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
	}
	h ^= uint32(n)
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// bucketCount returns N of a bucket[N] transform.
func bucketCount(transform string) (int, bool) {
	if !strings.HasPrefix(transform, "bucket[") || !strings.HasSuffix(transform, "]") {
		return 0, false
	}
	n, err := strconv.Atoi(transform[len("bucket[") : len(transform)-1])
	return n, err == nil && n > 0
}

// hashClass names how a source type's values are hashed: types of one
// class hash a value the same way (int and long as a long; timestamps of
// either unit in microseconds; string, binary and fixed by their bytes;
// decimals of one scale by their unscaled value); "" for a type that is
// not hashed here.
func hashClass(t schema.PrimitiveType) string {
	switch t.K {
	case schema.KindInt, schema.KindLong:
		return "long"
	case schema.KindDate:
		return "date"
	case schema.KindTime:
		return "time"
	case schema.KindTimestamp, schema.KindTimestampTz, schema.KindTimestampNs, schema.KindTimestampTzNs:
		return "timestamp"
	case schema.KindString, schema.KindBinary, schema.KindFixed:
		return "bytes"
	case schema.KindUUID:
		return "uuid"
	case schema.KindDecimal:
		return "decimal/" + strconv.Itoa(t.Scale)
	}
	return ""
}

// bucketHash returns the Appendix B hash of v, a value of type t in its Go
// form ([schema.Field]); ok is false for a value not hashed here.
func bucketHash(t schema.PrimitiveType, v any) (uint32, bool) {
	var b [16]byte
	switch t.K {
	case schema.KindInt, schema.KindLong, schema.KindDate, schema.KindTime, schema.KindTimestamp, schema.KindTimestampTz:
		i, ok := asInt64(v)
		if !ok {
			return 0, false
		}
		binary.LittleEndian.PutUint64(b[:], uint64(i))
		return murmur3(b[:8]), true
	case schema.KindTimestampNs, schema.KindTimestampTzNs:
		// Nanoseconds are hashed as microseconds (rounded down), so a
		// value hashes alike in either unit.
		i, ok := v.(int64)
		if !ok {
			return 0, false
		}
		us := i / 1000
		if i%1000 < 0 {
			us--
		}
		binary.LittleEndian.PutUint64(b[:], uint64(us))
		return murmur3(b[:8]), true
	case schema.KindString:
		s, ok := v.(string)
		return murmur3([]byte(s)), ok
	case schema.KindBinary, schema.KindFixed:
		p, ok := v.([]byte)
		return murmur3(p), ok
	case schema.KindUUID:
		u, ok := v.([16]byte)
		return murmur3(u[:]), ok
	case schema.KindDecimal:
		d, ok := v.(schema.DecimalValue)
		if !ok {
			return 0, false
		}
		// The unscaled value's minimal big-endian two's complement bytes.
		binary.BigEndian.PutUint64(b[:8], uint64(d.Hi))
		binary.BigEndian.PutUint64(b[8:], d.Lo)
		i := 0
		for i < 15 && ((b[i] == 0 && b[i+1]&0x80 == 0) || (b[i] == 0xff && b[i+1]&0x80 != 0)) {
			i++
		}
		return murmur3(b[i:]), true
	}
	return 0, false
}

// bucketOf returns bucket_N of v: (hash & MaxInt32) % N.
func bucketOf(t schema.PrimitiveType, v any, n int) (int64, bool) {
	h, ok := bucketHash(t, v)
	if !ok {
		return 0, false
	}
	return int64(h&0x7fffffff) % int64(n), true
}

// bucketMayMatch decides source op vals for a partition of bucket value p
// under bucket[n]: = and IN rule the partition out when no literal falls
// in its bucket; other operators say nothing (known false).
func bucketMayMatch(n int, st schema.PrimitiveType, p any, op expr.Op, vals []any) (mayMatch, known bool) {
	if op != expr.Eq && op != expr.In {
		return true, false
	}
	if p == nil {
		return false, true // every source value of the partition is null
	}
	pb, ok := asInt64(p)
	if !ok {
		return true, false
	}
	for _, v := range vals {
		b, ok := bucketOf(st, v, n)
		if !ok {
			return true, false
		}
		if b == pb {
			return true, true
		}
	}
	return false, true
}

// stableHash reports whether every schema of the table that has field id
// hashes its values as type st does: a source column promoted across hash
// classes (date to timestamp) has partitions bucketed under its old type,
// so its buckets are not used.
func (s *Scan) stableHash(id int, st schema.PrimitiveType) bool {
	c := hashClass(st)
	if c == "" {
		return false
	}
	if s.Metadata == nil {
		return true
	}
	for _, sch := range s.Metadata.Schemas {
		f := sch.FindByID(id)
		if f == nil {
			continue
		}
		pt, ok := f.Type.(schema.PrimitiveType)
		if !ok || hashClass(pt) != c {
			return false
		}
	}
	return true
}
