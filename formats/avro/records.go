package avro

import (
	"context"
	"fmt"
	"iter"

	"github.com/klauspost/compress/zstd"

	"github.com/lakecat/lakecat/schema"
)

// Records returns the records of the file one at a time, each decoded into
// plain Go values: the path for metadata files (Iceberg manifests and
// manifest lists, Paimon manifests, the Hudi timeline), which are read
// record by record rather than as Arrow batches. It reads the same blocks
// under the same caps as [File.NewBatchReader] (a compressed file is first
// checked as [CheckContainer] does), and at most [MaxRecordItems] array and
// map items in one record.
//
// A record is a map from field name to value. Values take the Go form of
// their field's type in [File.Schema] (as in schema.Field): nil for null
// (a null branch of a union, or the Avro null type), bool, int32 (int,
// date in days), int64 (long; time, timestamp in microseconds, the -millis
// forms widened; the -nanos forms in nanoseconds), float32, float64, string
// (string, enum symbol), []byte (bytes, fixed), [16]byte (uuid),
// schema.DecimalValue (decimal), map[string]any (record), []any (array),
// map[string]any (Avro map), and []any of map[string]any with keys "key"
// and "value" (a map stored as an array of key/value records, Iceberg
// spec Appendix A). Byte slices are copies, kept valid after the next
// record.
//
// The iterator stops after the first error, which matches [ErrCorrupt]
// (a *CorruptError naming the file and the block's offset) for bytes that
// do not decode. ctx is checked between blocks.
func (f *File) Records(ctx context.Context) iter.Seq2[map[string]any, error] {
	return func(yield func(map[string]any, error) bool) {
		var raw, out []byte
		var zd *zstd.Decoder
		defer func() {
			if zd != nil {
				zd.Close()
			}
		}()
		// A compressed container is checked whole first, as CheckContainer
		// does: that counts each block's decompressed bytes without
		// keeping them, so a block that inflates past the cap is refused
		// before a buffer of its size is allocated.
		if f.codec != "" && f.codec != "null" {
			if err := f.check(); err != nil {
				yield(nil, err)
				return
			}
		}
		for off := f.dataOff; off < f.size; {
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			data, cnt, next, err := f.readBlock(off, &raw, out, &zd)
			if err != nil {
				yield(nil, err)
				return
			}
			if f.codec != "" && f.codec != "null" {
				out = data
			}
			cur := buf{b: data}
			for ; cnt > 0; cnt-- {
				d := recordDecoder{items: MaxRecordItems}
				rec, err := d.record(&cur, f.nodes)
				if err != nil {
					yield(nil, corruptf(f.name, off, "value", "%v", err))
					return
				}
				if !yield(rec, nil) {
					return
				}
			}
			if cur.off != len(cur.b) {
				yield(nil, corruptf(f.name, off, "block", "%d bytes left after the block's last record", len(cur.b)-cur.off))
				return
			}
			off = next
		}
	}
}

// MaxRecordItems caps the array and map items [File.Records] decodes in one
// record: 2^21. A manifest's longest arrays hold one entry per column
// (column_sizes, lower_bounds) or row group (split_offsets). Each item
// becomes a Go value of at least 16 bytes, so without the cap a block of
// 64 MiB of one-byte items would decode to gigabytes.
const MaxRecordItems = 1 << 21

// recordDecoder decodes the values of one record; items is what is left
// of its MaxRecordItems.
type recordDecoder struct{ items int64 }

func (d *recordDecoder) record(r *buf, nodes []*node) (map[string]any, error) {
	out := make(map[string]any, len(nodes))
	for _, n := range nodes {
		v, err := d.value(r, n)
		if err != nil {
			return nil, err
		}
		out[n.field.Name] = v
	}
	return out, nil
}

// count reads the item count of an array or map block and takes it from
// the record's items.
func (d *recordDecoder) count(r *buf) (int64, error) {
	n, err := r.blockCount()
	if err != nil {
		return 0, err
	}
	if d.items -= n; d.items < 0 {
		return 0, valueError(fmt.Sprintf("more than %d array or map items in one record", MaxRecordItems))
	}
	return n, nil
}

func (d *recordDecoder) value(r *buf, n *node) (any, error) {
	switch {
	case n.nullIdx >= 0:
		i, err := r.long()
		if err != nil {
			return nil, err
		}
		if i == int64(n.nullIdx) {
			return nil, nil
		}
		if i < 0 || i > 1 {
			return nil, valueError(fmt.Sprintf("union branch %d out of range", i))
		}
	case n.nullIdx == -2:
		i, err := r.long()
		if err != nil {
			return nil, err
		}
		if i != 0 {
			return nil, valueError(fmt.Sprintf("union branch %d out of range", i))
		}
	}
	t := n.field.Type
	switch t.Kind() {
	case schema.KindUnknown:
		return nil, nil
	case schema.KindBoolean:
		return r.boolean()
	case schema.KindInt, schema.KindDate:
		return r.int()
	case schema.KindLong, schema.KindTime, schema.KindTimestamp, schema.KindTimestampTz, schema.KindTimestampNs, schema.KindTimestampTzNs:
		v, err := r.long()
		if n.conv == convMillis {
			v *= 1000
		}
		return v, err
	case schema.KindFloat:
		return r.float()
	case schema.KindDouble:
		return r.double()
	case schema.KindString:
		if n.conv == convEnum {
			i, err := r.int()
			if err != nil {
				return nil, err
			}
			syms := n.avro.Symbols
			if i < 0 || int(i) >= len(syms) {
				return nil, valueError(fmt.Sprintf("enum index %d out of range", i))
			}
			return syms[i], nil
		}
		b, err := r.bytes()
		return string(b), err
	case schema.KindBinary:
		b, err := r.bytes()
		return append([]byte(nil), b...), err
	case schema.KindFixed:
		b, err := r.fixed(n.avro.Size)
		return append([]byte(nil), b...), err
	case schema.KindUUID:
		var u [16]byte
		if n.conv == convUUIDString {
			b, err := r.bytes()
			if err != nil {
				return nil, err
			}
			if !parseUUID(b, &u) {
				return nil, valueError(fmt.Sprintf("uuid string %q", b))
			}
			return u, nil
		}
		b, err := r.fixed(16)
		copy(u[:], b)
		return u, err
	case schema.KindDecimal:
		var b []byte
		var err error
		if n.conv == convDecimalFix {
			b, err = r.fixed(n.avro.Size)
		} else {
			b, err = r.bytes()
		}
		if err != nil {
			return nil, err
		}
		v, ok := decimalFromBE(b)
		if !ok {
			return nil, valueError(fmt.Sprintf("decimal of %d bytes is wider than 128 bits", len(b)))
		}
		return schema.DecimalValue{Hi: v.HighBits(), Lo: v.LowBits()}, nil
	case schema.KindStruct:
		return d.record(r, n.children)
	case schema.KindList:
		var out []any
		for {
			c, err := d.count(r)
			if err != nil || c == 0 {
				if out == nil && err == nil {
					out = []any{}
				}
				return out, err
			}
			for ; c > 0; c-- {
				v, err := d.value(r, n.children[0])
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
		}
	case schema.KindMap:
		if n.arrayMap {
			var out []any
			for {
				c, err := d.count(r)
				if err != nil || c == 0 {
					if out == nil && err == nil {
						out = []any{}
					}
					return out, err
				}
				for ; c > 0; c-- {
					kv, err := d.record(r, n.children)
					if err != nil {
						return nil, err
					}
					out = append(out, kv)
				}
			}
		}
		out := map[string]any{}
		for {
			c, err := d.count(r)
			if err != nil || c == 0 {
				return out, err
			}
			for ; c > 0; c-- {
				k, err := r.bytes()
				if err != nil {
					return nil, err
				}
				v, err := d.value(r, n.children[1])
				if err != nil {
					return nil, err
				}
				out[string(k)] = v
			}
		}
	}
	return nil, unsupportedf("%s: type %s has no record value", n.field.Name, t)
}
