package main

import (
	"fmt"
	"io"
	"reflect"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/parquet-go/parquet-go/encoding"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/schema"
)

// formatParquet is `cat --format parquet`: the rows as one Parquet file
// (parquet-go's writer, zstd), in the read schema with its field ids
// (PARQUET:field_id of the Arrow fields), so another tool reads the
// table's current rows from a plain file.
const formatParquet = "parquet"

// errParquetType: an Arrow type --format parquet cannot write.
var errParquetType = lakecat.NewSentinel(lakecat.ErrUnsupported, "cannot write this type to Parquet")

// parquetWriter writes record batches as rows of one Parquet file.
type parquetWriter struct {
	w     *parquet.Writer
	read  *schema.Schema // the read schema: which fixed[16] fields are UUIDs, or nil
	root  []*pqNode
	nleaf int
	cols  [][]parquet.Value // per leaf column, the values of the current row
	rows  []parquet.Row
}

// pqNode is one field of the written schema, with the levels its values
// take (Dremel: a value's definition level counts the optional and
// repeated fields above and at it that are present; its repetition level,
// the repeated field it repeats at).
type pqNode struct {
	optional bool
	def      int // definition level when this field is present
	rep      int // repetition level of this field's repeated child (lists, maps)
	leaf     int // column index of a leaf, -1 otherwise
	typ      arrow.DataType
	children []*pqNode // struct fields; a list's element; a map's key and value
	firstCol int       // first and last leaf column under the node
	lastCol  int
}

func newParquetWriter(w io.Writer, sc *arrow.Schema, read *schema.Schema) (*parquetWriter, error) {
	pw := &parquetWriter{read: read}
	fields := make(orderedGroup, 0, sc.NumFields())
	for _, f := range sc.Fields() {
		n, node, err := pw.node(f, 0, 0)
		if err != nil {
			return nil, err
		}
		pw.root = append(pw.root, n)
		fields = append(fields, pqField{node, f.Name})
	}
	pw.cols = make([][]parquet.Value, pw.nleaf)
	s := parquet.NewSchema("schema", fields)
	pw.w = parquet.NewWriter(w, s, parquet.Compression(&zstd.Codec{}), parquet.CreatedBy("lakecat", "", ""))
	return pw, nil
}

// node returns the writer's node and parquet-go's node of f, whose parent
// is at definition level def and repetition level rep.
func (pw *parquetWriter) node(f arrow.Field, def, rep int) (*pqNode, parquet.Node, error) {
	n := &pqNode{optional: f.Nullable, leaf: -1, typ: f.Type, firstCol: pw.nleaf}
	if f.Nullable {
		def++
	}
	n.def = def
	var node parquet.Node
	switch t := f.Type.(type) {
	case *arrow.StructType:
		g := make(orderedGroup, 0, t.NumFields())
		for _, c := range t.Fields() {
			cn, cnode, err := pw.node(c, def, rep)
			if err != nil {
				return nil, nil, err
			}
			n.children = append(n.children, cn)
			g = append(g, pqField{cnode, c.Name})
		}
		node = g
	case *arrow.ListType:
		// <list> (LIST) { repeated group list { <element> } }: the
		// repeated group adds a definition and a repetition level.
		n.rep = rep + 1
		en, enode, err := pw.node(t.ElemField(), def+1, rep+1)
		if err != nil {
			return nil, nil, err
		}
		n.children = []*pqNode{en}
		node = parquet.List(enode)
	case *arrow.MapType:
		n.rep = rep + 1
		kn, knode, err := pw.node(t.KeyField(), def+1, rep+1)
		if err != nil {
			return nil, nil, err
		}
		vn, vnode, err := pw.node(t.ItemField(), def+1, rep+1)
		if err != nil {
			return nil, nil, err
		}
		n.children = []*pqNode{kn, vn}
		node = parquet.Map(knode, vnode)
	default:
		leaf, err := leafNode(f)
		if err != nil {
			return nil, nil, err
		}
		if pw.isUUID(f) {
			leaf = parquet.UUID()
		}
		node = leaf
		n.leaf = pw.nleaf
		pw.nleaf++
	}
	n.lastCol = pw.nleaf - 1
	if f.Nullable {
		node = parquet.Optional(node)
	} else {
		node = parquet.Required(node)
	}
	if v, ok := f.Metadata.GetValue(schema.FieldIDKey); ok {
		if id, err := strconv.Atoi(v); err == nil {
			node = parquet.FieldID(node, id)
		}
	}
	return n, node, nil
}

// isUUID reports whether f, a fixed_size_binary(16) in Arrow, is a uuid
// field of the read schema (by its field id): it is written with the UUID
// logical type.
func (pw *parquetWriter) isUUID(f arrow.Field) bool {
	if t, ok := f.Type.(*arrow.FixedSizeBinaryType); !ok || t.ByteWidth != 16 || pw.read == nil {
		return false
	}
	v, ok := f.Metadata.GetValue(schema.FieldIDKey)
	if !ok {
		return false
	}
	id, err := strconv.Atoi(v)
	if err != nil {
		return false
	}
	g := pw.read.FindByID(id)
	return g != nil && g.Type.Kind() == schema.KindUUID
}

// leafNode is the Parquet type of a primitive Arrow field: timestamps keep
// their unit and whether they are instants (a zone: isAdjustedToUTC) or
// wall-clock times; decimals their precision and scale.
func leafNode(f arrow.Field) (parquet.Node, error) {
	switch t := f.Type.(type) {
	case *arrow.BooleanType:
		return parquet.Leaf(parquet.BooleanType), nil
	case *arrow.Int8Type:
		return parquet.Int(8), nil
	case *arrow.Int16Type:
		return parquet.Int(16), nil
	case *arrow.Int32Type:
		return parquet.Int(32), nil
	case *arrow.Int64Type:
		return parquet.Int(64), nil
	case *arrow.Float32Type:
		return parquet.Leaf(parquet.FloatType), nil
	case *arrow.Float64Type:
		return parquet.Leaf(parquet.DoubleType), nil
	case *arrow.StringType, *arrow.LargeStringType:
		return parquet.String(), nil
	case *arrow.BinaryType, *arrow.LargeBinaryType:
		return parquet.Leaf(parquet.ByteArrayType), nil
	case *extensions.UUIDType:
		return parquet.UUID(), nil
	case *arrow.FixedSizeBinaryType:
		return parquet.Leaf(parquet.FixedLenByteArrayType(t.ByteWidth)), nil
	case *arrow.Date32Type:
		return parquet.Date(), nil
	case *arrow.Time64Type:
		if t.Unit == arrow.Nanosecond {
			return parquet.TimeAdjusted(parquet.Nanosecond, false), nil
		}
		return parquet.TimeAdjusted(parquet.Microsecond, false), nil
	case *arrow.Time32Type:
		if t.Unit == arrow.Millisecond {
			return parquet.TimeAdjusted(parquet.Millisecond, false), nil
		}
	case *arrow.TimestampType:
		unit := map[arrow.TimeUnit]parquet.TimeUnit{arrow.Millisecond: parquet.Millisecond, arrow.Microsecond: parquet.Microsecond, arrow.Nanosecond: parquet.Nanosecond}[t.Unit]
		if unit != nil {
			return parquet.TimestampAdjusted(unit, t.TimeZone != ""), nil
		}
	case *arrow.Decimal128Type:
		return parquet.Decimal(int(t.Scale), int(t.Precision), parquet.FixedLenByteArrayType(decimalBytes(t.Precision))), nil
	}
	return nil, fmt.Errorf("--format parquet: column %s: %s: %w", f.Name, f.Type, errParquetType)
}

// decimalBytes is the fewest bytes whose two's complement holds every
// unscaled value of precision digits.
func decimalBytes(precision int32) int {
	for n := 1; ; n++ {
		// 2^(8n-1) > 10^precision - 1  ⇔  (8n-1)·log10(2) ≥ precision
		if float64(8*n-1)*0.30102999566398 >= float64(precision) {
			return n
		}
	}
}

func (pw *parquetWriter) Write(rec arrow.RecordBatch) error {
	pw.rows = pw.rows[:0]
	for r := 0; r < int(rec.NumRows()); r++ {
		for i := range pw.cols {
			pw.cols[i] = pw.cols[i][:0]
		}
		for i, n := range pw.root {
			if err := pw.value(n, rec.Column(i), r, 0); err != nil {
				return err
			}
		}
		var row parquet.Row
		for _, c := range pw.cols {
			row = append(row, c...)
		}
		pw.rows = append(pw.rows, row)
	}
	_, err := pw.w.WriteRows(pw.rows)
	return err
}

// value appends the values of row i of arr, of node n, at repetition level
// rep, to the leaf columns.
func (pw *parquetWriter) value(n *pqNode, arr arrow.Array, i, rep int) error {
	if arr.IsNull(i) {
		pw.nulls(n, rep, n.def-1)
		return nil
	}
	switch a := arr.(type) {
	case *array.Struct:
		for k, c := range n.children {
			if err := pw.value(c, a.Field(k), i, rep); err != nil {
				return err
			}
		}
		return nil
	case *array.Map:
		start, end := a.ValueOffsets(i)
		if start == end {
			pw.nulls(n.children[0], rep, n.def)
			pw.nulls(n.children[1], rep, n.def)
			return nil
		}
		for j := start; j < end; j++ {
			r := rep
			if j > start {
				r = n.rep
			}
			if err := pw.value(n.children[0], a.Keys(), int(j), r); err != nil {
				return err
			}
			if err := pw.value(n.children[1], a.Items(), int(j), r); err != nil {
				return err
			}
		}
		return nil
	case *array.List:
		start, end := a.ValueOffsets(i)
		if start == end {
			pw.nulls(n.children[0], rep, n.def)
			return nil
		}
		for j := start; j < end; j++ {
			r := rep
			if j > start {
				r = n.rep
			}
			if err := pw.value(n.children[0], a.ListValues(), int(j), r); err != nil {
				return err
			}
		}
		return nil
	}
	v, err := leafValue(arr, i)
	if err != nil {
		return err
	}
	pw.cols[n.leaf] = append(pw.cols[n.leaf], v.Level(rep, n.def, n.leaf))
	return nil
}

// nulls appends a null at definition level def to every leaf column under n.
func (pw *parquetWriter) nulls(n *pqNode, rep, def int) {
	for c := n.firstCol; c <= n.lastCol; c++ {
		pw.cols[c] = append(pw.cols[c], parquet.NullValue().Level(rep, def, c))
	}
}

func leafValue(arr arrow.Array, i int) (parquet.Value, error) {
	switch a := arr.(type) {
	case *array.Boolean:
		return parquet.BooleanValue(a.Value(i)), nil
	case *array.Int8:
		return parquet.Int32Value(int32(a.Value(i))), nil
	case *array.Int16:
		return parquet.Int32Value(int32(a.Value(i))), nil
	case *array.Int32:
		return parquet.Int32Value(a.Value(i)), nil
	case *array.Int64:
		return parquet.Int64Value(a.Value(i)), nil
	case *array.Float32:
		return parquet.FloatValue(a.Value(i)), nil
	case *array.Float64:
		return parquet.DoubleValue(a.Value(i)), nil
	case *array.String:
		return parquet.ByteArrayValue([]byte(a.Value(i))), nil
	case *array.LargeString:
		return parquet.ByteArrayValue([]byte(a.Value(i))), nil
	case *array.Binary:
		return parquet.ByteArrayValue(a.Value(i)), nil
	case *array.LargeBinary:
		return parquet.ByteArrayValue(a.Value(i)), nil
	case *extensions.UUIDArray:
		b := a.Storage().(*array.FixedSizeBinary).Value(i)
		return parquet.FixedLenByteArrayValue(b), nil
	case *array.FixedSizeBinary:
		return parquet.FixedLenByteArrayValue(a.Value(i)), nil
	case *array.Date32:
		return parquet.Int32Value(int32(a.Value(i))), nil
	case *array.Time32:
		return parquet.Int32Value(int32(a.Value(i))), nil
	case *array.Time64:
		return parquet.Int64Value(int64(a.Value(i))), nil
	case *array.Timestamp:
		return parquet.Int64Value(int64(a.Value(i))), nil
	case *array.Decimal128:
		t := a.DataType().(*arrow.Decimal128Type)
		return parquet.FixedLenByteArrayValue(decimalBigEndian(a.Value(i), decimalBytes(t.Precision))), nil
	}
	return parquet.Value{}, fmt.Errorf("--format parquet: %s: %w", arr.DataType(), errParquetType)
}

// decimalBigEndian is v's two's complement in n big-endian bytes (the
// Parquet DECIMAL fixed_len_byte_array encoding).
func decimalBigEndian(v decimal128.Num, n int) []byte {
	var full [16]byte
	hi, lo := uint64(v.HighBits()), v.LowBits()
	for k := 0; k < 8; k++ {
		full[7-k] = byte(hi >> (8 * k))
		full[15-k] = byte(lo >> (8 * k))
	}
	return append([]byte(nil), full[16-n:]...)
}

func (pw *parquetWriter) Close() error { return pw.w.Close() }

// orderedGroup is a Parquet group whose fields keep the order given
// (parquet.Group, a map, sorts them by name; a table's columns have an
// order of their own).
type orderedGroup []parquet.Field

func (g orderedGroup) ID() int                     { return 0 }
func (g orderedGroup) String() string              { return "group" }
func (g orderedGroup) Type() parquet.Type          { return parquet.Group{}.Type() }
func (g orderedGroup) Optional() bool              { return false }
func (g orderedGroup) Repeated() bool              { return false }
func (g orderedGroup) Required() bool              { return true }
func (g orderedGroup) Leaf() bool                  { return false }
func (g orderedGroup) Fields() []parquet.Field     { return g }
func (g orderedGroup) Encoding() encoding.Encoding { return nil }
func (g orderedGroup) Compression() compress.Codec { return nil }
func (g orderedGroup) GoType() reflect.Type        { return reflect.TypeFor[map[string]any]() }

// pqField names a node inside an orderedGroup.
type pqField struct {
	parquet.Node
	name string
}

func (f pqField) Name() string { return f.name }
func (f pqField) Value(base reflect.Value) reflect.Value {
	return base.MapIndex(reflect.ValueOf(f.name))
}
