package avro

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/klauspost/compress/zstd"

	"github.com/lakecat/lakecat/schema"
)

// BatchOptions configure [File.NewBatchReader].
type BatchOptions struct {
	// BatchRows is the number of rows per batch (0: [DefaultBatchRows]).
	BatchRows int
	// Allocator allocates every Arrow buffer (nil:
	// memory.DefaultAllocator).
	Allocator memory.Allocator
}

// BatchReader decodes the records of a file into Arrow record batches.
type BatchReader struct {
	f       *File
	schema  *arrow.Schema
	rb      *array.RecordBuilder
	top     []fieldDec
	rows    int
	off     int64 // next block
	cur     buf   // current block
	left    int64 // records left in the current block
	blockAt int64
	raw     []byte
	out     []byte
	zd      *zstd.Decoder
	err     error
}

// fieldDec decodes one field of a record: into a builder when projected,
// else it is skipped.
type fieldDec struct {
	dec  valueDec // nil: skip
	skip skipFn
}

// valueDec decodes one value into its builder.
type valueDec interface {
	decode(r *buf) error
}

type skipFn func(r *buf) error

// NewBatchReader returns a reader of the columns in proj, a pruned copy of
// [File.Schema] (same names and nesting, a subset of the fields at each
// struct level). Fields are matched by name path; ids in proj are ignored.
// The batches' Arrow schema is schema.ToArrowSchema(proj).
func (f *File) NewBatchReader(proj *schema.Schema, opts BatchOptions) (*BatchReader, error) {
	mem := opts.Allocator
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	rows := opts.BatchRows
	if rows <= 0 {
		rows = DefaultBatchRows
	}
	as := schema.ToArrowSchema(proj)
	rb := array.NewRecordBuilder(mem, as)
	br := &BatchReader{f: f, schema: as, rb: rb, rows: rows, off: f.dataOff}
	top, err := compileRecord(f.nodes, proj.Fields, func(i int) array.Builder { return rb.Field(i) }, "")
	if err != nil {
		rb.Release()
		return nil, err
	}
	br.top = top
	return br, nil
}

// compileRecord builds the decoders of a record's fields: those named in
// proj decode into builder(i) (i: position in proj), the others are
// skipped.
func compileRecord(nodes []*node, proj []*schema.Field, builder func(int) array.Builder, path string) ([]fieldDec, error) {
	out := make([]fieldDec, len(nodes))
	used := 0
	for i, n := range nodes {
		out[i].skip = skipper(n)
		for j, pf := range proj {
			if pf.Name != n.field.Name {
				continue
			}
			d, err := compile(n, pf, builder(j), join(path, pf.Name))
			if err != nil {
				return nil, err
			}
			out[i].dec = d
			used++
			break
		}
	}
	if used != len(proj) {
		for _, pf := range proj {
			found := false
			for _, n := range nodes {
				found = found || n.field.Name == pf.Name
			}
			if !found {
				return nil, fmt.Errorf("avro: projection field %s is not in the file", join(path, pf.Name))
			}
		}
	}
	return out, nil
}

func join(p, n string) string {
	if p == "" {
		return n
	}
	return p + "." + n
}

// compile builds the decoder of node n, projected as pf, into builder b.
func compile(n *node, pf *schema.Field, b array.Builder, path string) (valueDec, error) {
	if pf.Type.Kind() != n.field.Type.Kind() {
		return nil, fmt.Errorf("avro: projection changes the type of %s from %s to %s", path, n.field.Type, pf.Type)
	}
	var inner valueDec
	switch n.field.Type.Kind() {
	case schema.KindStruct:
		sb := b.(*array.StructBuilder)
		kids, err := compileRecord(n.children, pf.Type.(*schema.StructType).Fields, func(i int) array.Builder { return sb.FieldBuilder(i) }, path)
		if err != nil {
			return nil, err
		}
		inner = &structDec{b: sb, fields: kids}
	case schema.KindList:
		lb := b.(*array.ListBuilder)
		e, err := compile(n.children[0], pf.Type.(*schema.ListType).Element, lb.ValueBuilder(), path+".element")
		if err != nil {
			return nil, err
		}
		inner = &listDec{b: lb, elem: e}
	case schema.KindMap:
		mb := b.(*array.MapBuilder)
		mt := pf.Type.(*schema.MapType)
		k, err := compile(n.children[0], mt.Key, mb.KeyBuilder(), path+".key")
		if err != nil {
			return nil, err
		}
		v, err := compile(n.children[1], mt.Value, mb.ItemBuilder(), path+".value")
		if err != nil {
			return nil, err
		}
		inner = &mapDec{b: mb, key: k, val: v, arrayMap: n.arrayMap}
	default:
		d, err := primitiveDec(n, b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		inner = d
	}
	switch {
	case n.nullIdx >= 0:
		return &nullableDec{nullIdx: int64(n.nullIdx), b: b, inner: inner}, nil
	case n.nullIdx == -2:
		return &nullableDec{nullIdx: -1, b: b, inner: inner}, nil
	}
	return inner, nil
}

func primitiveDec(n *node, b array.Builder) (valueDec, error) {
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		return boolDec{bb}, nil
	case *array.Int32Builder:
		return int32Dec{bb}, nil
	case *array.Date32Builder:
		return date32Dec{bb}, nil
	case *array.Int64Builder:
		return int64Dec{bb}, nil
	case *array.Time64Builder:
		return time64Dec{bb}, nil
	case *array.TimestampBuilder:
		mul := int64(1)
		if n.conv == convMillis {
			mul = 1000
		}
		return tsDec{bb, mul}, nil
	case *array.Float32Builder:
		return float32Dec{bb}, nil
	case *array.Float64Builder:
		return float64Dec{bb}, nil
	case *array.StringBuilder:
		if n.conv == convEnum {
			return enumDec{bb, n.avro.Symbols}, nil
		}
		return stringDec{bb}, nil
	case *array.BinaryBuilder:
		return binaryDec{bb}, nil
	case *array.FixedSizeBinaryBuilder:
		if n.conv == convUUIDString {
			return uuidStringDec{bb}, nil
		}
		return fixedDec{bb, n.avro.Size}, nil
	case *array.Decimal128Builder:
		size := -1
		if n.conv == convDecimalFix {
			size = n.avro.Size
		}
		return decimalDec{bb, size}, nil
	case *array.NullBuilder:
		return nullDec{bb}, nil
	}
	return nil, unsupportedf("no decoder for Arrow builder %T", b)
}

// Schema returns the Arrow schema of the batches.
func (br *BatchReader) Schema() *arrow.Schema { return br.schema }

// Next decodes the next batch of at most BatchRows rows. It returns io.EOF
// after the last batch; the caller releases the batch. ctx is checked
// between blocks.
func (br *BatchReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if br.err != nil {
		return nil, br.err
	}
	rows := 0
	for rows < br.rows {
		if br.left == 0 {
			if br.cur.off != len(br.cur.b) {
				br.err = corruptf(br.f.name, br.blockAt, "block", "%d bytes left after the block's last record", len(br.cur.b)-br.cur.off)
				return nil, br.err
			}
			if br.off >= br.f.size {
				break
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			data, cnt, next, err := br.f.readBlock(br.off, &br.raw, br.out, &br.zd)
			if err != nil {
				br.err = err
				return nil, err
			}
			if br.f.codec != "" && br.f.codec != "null" {
				br.out = data
			}
			br.blockAt, br.cur, br.left, br.off = br.off, buf{b: data}, cnt, next
			continue
		}
		for _, fd := range br.top {
			var err error
			if fd.dec != nil {
				err = fd.dec.decode(&br.cur)
			} else {
				err = fd.skip(&br.cur)
			}
			if err != nil {
				br.err = br.valueErr(err)
				return nil, br.err
			}
		}
		br.left--
		rows++
	}
	if rows == 0 {
		return nil, io.EOF
	}
	return br.rb.NewRecordBatch(), nil
}

func (br *BatchReader) valueErr(err error) error {
	var ve valueError
	if errors.As(err, &ve) || errors.Is(err, errShort) {
		return corruptf(br.f.name, br.blockAt, "value", "%v", err)
	}
	return err
}

// Close releases the builders and buffers.
func (br *BatchReader) Close() error {
	if br.rb != nil {
		br.rb.Release()
		br.rb = nil
	}
	if br.zd != nil {
		br.zd.Close()
		br.zd = nil
	}
	br.raw, br.out = nil, nil
	if br.err == nil {
		br.err = errors.New("avro: batch reader closed")
	}
	return nil
}

type nullableDec struct {
	nullIdx int64 // -1: a one-branch union, never null
	b       array.Builder
	inner   valueDec
}

func (d *nullableDec) decode(r *buf) error {
	i, err := r.long()
	if err != nil {
		return err
	}
	switch {
	case i == d.nullIdx:
		d.b.AppendNull()
		return nil
	case i < 0 || i > 1 || (d.nullIdx < 0 && i != 0):
		return valueError(fmt.Sprintf("union branch %d out of range", i))
	}
	return d.inner.decode(r)
}

type structDec struct {
	b      *array.StructBuilder
	fields []fieldDec
}

func (d *structDec) decode(r *buf) error {
	d.b.Append(true)
	for _, fd := range d.fields {
		var err error
		if fd.dec != nil {
			err = fd.dec.decode(r)
		} else {
			err = fd.skip(r)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

type listDec struct {
	b    *array.ListBuilder
	elem valueDec
}

func (d *listDec) decode(r *buf) error {
	d.b.Append(true)
	for {
		n, err := r.blockCount()
		if err != nil || n == 0 {
			return err
		}
		for ; n > 0; n-- {
			if err := d.elem.decode(r); err != nil {
				return err
			}
		}
	}
}

type mapDec struct {
	b        *array.MapBuilder
	key, val valueDec
	arrayMap bool
}

func (d *mapDec) decode(r *buf) error {
	d.b.Append(true)
	for {
		n, err := r.blockCount()
		if err != nil || n == 0 {
			return err
		}
		for ; n > 0; n-- {
			if err := d.key.decode(r); err != nil {
				return err
			}
			if err := d.val.decode(r); err != nil {
				return err
			}
		}
	}
}

type boolDec struct{ b *array.BooleanBuilder }

func (d boolDec) decode(r *buf) error {
	v, err := r.boolean()
	if err == nil {
		d.b.Append(v)
	}
	return err
}

type int32Dec struct{ b *array.Int32Builder }

func (d int32Dec) decode(r *buf) error {
	v, err := r.int()
	if err == nil {
		d.b.Append(v)
	}
	return err
}

type date32Dec struct{ b *array.Date32Builder }

func (d date32Dec) decode(r *buf) error {
	v, err := r.int()
	if err == nil {
		d.b.Append(arrow.Date32(v))
	}
	return err
}

type int64Dec struct{ b *array.Int64Builder }

func (d int64Dec) decode(r *buf) error {
	v, err := r.long()
	if err == nil {
		d.b.Append(v)
	}
	return err
}

type time64Dec struct{ b *array.Time64Builder }

func (d time64Dec) decode(r *buf) error {
	v, err := r.long()
	if err == nil {
		d.b.Append(arrow.Time64(v))
	}
	return err
}

type tsDec struct {
	b   *array.TimestampBuilder
	mul int64
}

func (d tsDec) decode(r *buf) error {
	v, err := r.long()
	if err == nil {
		d.b.Append(arrow.Timestamp(v * d.mul))
	}
	return err
}

type float32Dec struct{ b *array.Float32Builder }

func (d float32Dec) decode(r *buf) error {
	v, err := r.float()
	if err == nil {
		d.b.Append(v)
	}
	return err
}

type float64Dec struct{ b *array.Float64Builder }

func (d float64Dec) decode(r *buf) error {
	v, err := r.double()
	if err == nil {
		d.b.Append(v)
	}
	return err
}

type stringDec struct{ b *array.StringBuilder }

func (d stringDec) decode(r *buf) error {
	v, err := r.bytes()
	if err == nil {
		d.b.BinaryBuilder.Append(v)
	}
	return err
}

type binaryDec struct{ b *array.BinaryBuilder }

func (d binaryDec) decode(r *buf) error {
	v, err := r.bytes()
	if err == nil {
		d.b.Append(v)
	}
	return err
}

type enumDec struct {
	b       *array.StringBuilder
	symbols []string
}

func (d enumDec) decode(r *buf) error {
	i, err := r.int()
	if err != nil {
		return err
	}
	if i < 0 || int(i) >= len(d.symbols) {
		return valueError(fmt.Sprintf("enum index %d out of range", i))
	}
	d.b.Append(d.symbols[i])
	return nil
}

type fixedDec struct {
	b    *array.FixedSizeBinaryBuilder
	size int
}

func (d fixedDec) decode(r *buf) error {
	v, err := r.fixed(d.size)
	if err == nil {
		d.b.Append(v)
	}
	return err
}

type uuidStringDec struct{ b *array.FixedSizeBinaryBuilder }

func (d uuidStringDec) decode(r *buf) error {
	v, err := r.bytes()
	if err != nil {
		return err
	}
	var u [16]byte
	if !parseUUID(v, &u) {
		return valueError(fmt.Sprintf("uuid string %q", v))
	}
	d.b.Append(u[:])
	return nil
}

func parseUUID(s []byte, u *[16]byte) bool {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return false
	}
	j := 0
	for i := 0; i < 36; {
		if s[i] == '-' {
			i++
			continue
		}
		hi, ok1 := unhex(s[i])
		lo, ok2 := unhex(s[i+1])
		if !ok1 || !ok2 {
			return false
		}
		u[j] = hi<<4 | lo
		j++
		i += 2
	}
	return true
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

type decimalDec struct {
	b    *array.Decimal128Builder
	size int // fixed size, -1 for bytes
}

func (d decimalDec) decode(r *buf) error {
	var v []byte
	var err error
	if d.size >= 0 {
		v, err = r.fixed(d.size)
	} else {
		v, err = r.bytes()
	}
	if err != nil {
		return err
	}
	n, ok := decimalFromBE(v)
	if !ok {
		return valueError(fmt.Sprintf("decimal of %d bytes is wider than 128 bits", len(v)))
	}
	d.b.Append(n)
	return nil
}

// decimalFromBE converts big-endian two's complement bytes to a 128-bit
// value.
func decimalFromBE(v []byte) (decimal128.Num, bool) {
	if len(v) == 0 {
		return decimal128.Num{}, true
	}
	if len(v) > 16 {
		// Allowed only when the extra leading bytes are sign extension.
		pad := byte(0)
		if v[0]&0x80 != 0 {
			pad = 0xff
		}
		for _, c := range v[:len(v)-16] {
			if c != pad {
				return decimal128.Num{}, false
			}
		}
		v = v[len(v)-16:]
	}
	var hi, lo uint64
	neg := v[0]&0x80 != 0
	if neg {
		hi, lo = ^uint64(0), ^uint64(0)
	}
	for _, c := range v {
		hi = hi<<8 | lo>>56
		lo = lo<<8 | uint64(c)
	}
	return decimal128.New(int64(hi), lo), true
}

type nullDec struct{ b *array.NullBuilder }

func (d nullDec) decode(r *buf) error {
	d.b.AppendNull()
	return nil
}

// skipper returns the function that steps over a value of node n.
func skipper(n *node) skipFn {
	s := skipType(n.avro)
	if n.nullIdx == -1 {
		return s
	}
	nullIdx := int64(n.nullIdx)
	return func(r *buf) error {
		i, err := r.long()
		if err != nil {
			return err
		}
		if i == nullIdx {
			return nil
		}
		if i < 0 || i > 1 {
			return valueError(fmt.Sprintf("union branch %d out of range", i))
		}
		return s(r)
	}
}

// skipType returns how to skip a value of s. A recursive named type is
// skipped through a function built once per type.
func skipType(s *Schema) skipFn {
	return skipTypeMemo(s, map[*Schema]*skipFn{})
}

func skipTypeMemo(s *Schema, memo map[*Schema]*skipFn) skipFn {
	switch s.Type {
	case "null":
		return func(*buf) error { return nil }
	case "boolean":
		return func(r *buf) error { return r.skip(1) }
	case "int", "long", "enum":
		return func(r *buf) error { _, err := r.long(); return err }
	case "float":
		return func(r *buf) error { return r.skip(4) }
	case "double":
		return func(r *buf) error { return r.skip(8) }
	case "bytes", "string":
		return func(r *buf) error { _, err := r.bytes(); return err }
	case "fixed":
		n := s.Size
		return func(r *buf) error { return r.skip(n) }
	case "record":
		if p, ok := memo[s]; ok {
			return func(r *buf) error { return (*p)(r) }
		}
		fn := new(skipFn)
		memo[s] = fn
		var fs []skipFn
		for _, f := range s.Fields {
			fs = append(fs, skipTypeMemo(f.Type, memo))
		}
		*fn = func(r *buf) error {
			for _, f := range fs {
				if err := f(r); err != nil {
					return err
				}
			}
			return nil
		}
		return *fn
	case "array":
		item := skipTypeMemo(s.Items, memo)
		return func(r *buf) error { return skipBlocks(r, item) }
	case "map":
		val := skipTypeMemo(s.Values, memo)
		return func(r *buf) error {
			return skipBlocks(r, func(r *buf) error {
				if _, err := r.bytes(); err != nil {
					return err
				}
				return val(r)
			})
		}
	case "union":
		var bs []skipFn
		for _, b := range s.Branches {
			bs = append(bs, skipTypeMemo(b, memo))
		}
		return func(r *buf) error {
			i, err := r.long()
			if err != nil {
				return err
			}
			if i < 0 || i >= int64(len(bs)) {
				return valueError(fmt.Sprintf("union branch %d out of range", i))
			}
			return bs[i](r)
		}
	}
	return func(*buf) error { return valueError("cannot skip type " + s.Type) }
}

func skipBlocks(r *buf, item skipFn) error {
	for {
		n, err := r.long()
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		if n < 0 {
			size, err := r.long()
			if err != nil {
				return err
			}
			if size < 0 || size > int64(len(r.b)-r.off) {
				return errLength
			}
			r.off += int(size)
			continue
		}
		if n > int64(len(r.b)-r.off) {
			return errLength
		}
		for ; n > 0; n-- {
			if err := item(r); err != nil {
				return err
			}
		}
	}
}
