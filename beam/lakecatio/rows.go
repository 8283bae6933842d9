package lakecatio

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/lakecat/lakecat"
)

func init() {
	register.DoFn2x1[[]byte, func(beam.X), error](&rowsFn{})
	register.Emitter1[beam.X]()
}

// ErrRowType is matched by the error of a [ReadRows] whose struct type
// does not fit the table: a field whose column is missing, or whose Go
// type cannot hold the column's Arrow type.
var ErrRowType = lakecat.NewSentinel(lakecat.ErrInvalidArgument, "lakecatio: row type does not fit the table")

// ReadRows reads the table as [Read] does and yields one T per row. T is a
// struct; each exported field takes the top-level column named by its
// `lakecat:"name"` tag, or else the column whose name equals the field's
// name ignoring case and underscores (OrderID takes order_id); `lakecat:"-"` skips a field. Field types:
//
//	bool; int, int8 … int64 and uint8 … uint64 (integer columns that fit);
//	float32, float64 (floating-point and integer columns); string (string
//	columns); []byte (binary columns); time.Time (date and timestamp
//	columns, in UTC); a pointer to any of these, nil for a null.
//
// A null into a field that is not a pointer leaves its zero value. A field
// that fits no column fails the read with an error matching [ErrRowType]
// naming the field, the column and its type. Register T with
// beam.RegisterType in an init function, as for any element type.
func ReadRows[T any](s beam.Scope, location string, opts ...Option) beam.PCollection {
	t := reflect.TypeFor[T]()
	batches := Read(s, location, opts...)
	return beam.ParDo(s.Scope("lakecatio.ReadRows"), &rowsFn{Type: beam.EncodedType{T: t}}, batches, beam.TypeDefinition{Var: beam.XType, T: t})
}

// rowsFn decodes batches into values of Type.
type rowsFn struct {
	Type beam.EncodedType
}

func (fn *rowsFn) ProcessElement(b []byte, emit func(beam.X)) error {
	r, err := ipc.NewReader(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("lakecatio: decoding a batch: %w", err)
	}
	defer r.Release()
	t := fn.Type.T
	for r.Next() {
		rec := r.RecordBatch()
		setters, err := rowSetters(t, rec.Schema())
		if err != nil {
			return err
		}
		for row := 0; row < int(rec.NumRows()); row++ {
			v := reflect.New(t).Elem()
			for _, s := range setters {
				if err := s.set(v.Field(s.field), rec.Column(s.col), row); err != nil {
					return fmt.Errorf("%w: field %s of %s, column %s (%s): %w", ErrRowType, t.Field(s.field).Name, t, rec.Schema().Field(s.col).Name, rec.Schema().Field(s.col).Type, err)
				}
			}
			emit(v.Interface())
		}
	}
	return r.Err()
}

type setter struct {
	field, col int
	set        func(dst reflect.Value, a arrow.Array, row int) error
}

// rowSetters matches t's fields to the columns of sch.
func rowSetters(t reflect.Type, sch *arrow.Schema) ([]setter, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%w: %s is not a struct", ErrRowType, t)
	}
	var out []setter
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, tagged := f.Tag.Lookup("lakecat")
		if name == "-" {
			continue
		}
		col := -1
		for j, af := range sch.Fields() {
			if (tagged && af.Name == name) || (!tagged && sameName(af.Name, f.Name)) {
				col = j
				break
			}
		}
		if col < 0 {
			if !tagged {
				name = f.Name
			}
			return nil, fmt.Errorf("%w: field %s of %s: no column %q", ErrRowType, f.Name, t, name)
		}
		set, err := setterFor(f.Type, sch.Field(col).Type)
		if err != nil {
			return nil, fmt.Errorf("%w: field %s (%s) of %s, column %s (%s): %w", ErrRowType, f.Name, f.Type, t, sch.Field(col).Name, sch.Field(col).Type, err)
		}
		out = append(out, setter{field: i, col: col, set: set})
	}
	return out, nil
}

var timeType = reflect.TypeFor[time.Time]()

// setterFor returns the function that stores a value of an Arrow array of
// type at into a Go value of type gt.
func setterFor(gt reflect.Type, at arrow.DataType) (func(reflect.Value, arrow.Array, int) error, error) {
	if gt.Kind() == reflect.Pointer {
		inner, err := setterFor(gt.Elem(), at)
		if err != nil {
			return nil, err
		}
		return func(dst reflect.Value, a arrow.Array, row int) error {
			if a.IsNull(row) {
				dst.SetZero()
				return nil
			}
			p := reflect.New(gt.Elem())
			if err := inner(p.Elem(), a, row); err != nil {
				return err
			}
			dst.Set(p)
			return nil
		}, nil
	}
	get, err := getterFor(gt, at)
	if err != nil {
		return nil, err
	}
	return func(dst reflect.Value, a arrow.Array, row int) error {
		if a.IsNull(row) {
			dst.SetZero()
			return nil
		}
		return get(dst, a, row)
	}, nil
}

// getterFor is setterFor for a non-null value.
func getterFor(gt reflect.Type, at arrow.DataType) (func(reflect.Value, arrow.Array, int) error, error) {
	switch {
	case gt == timeType:
		switch t := at.(type) {
		case *arrow.TimestampType:
			unit := t.Unit
			return func(dst reflect.Value, a arrow.Array, row int) error {
				dst.Set(reflect.ValueOf(a.(*array.Timestamp).Value(row).ToTime(unit).UTC()))
				return nil
			}, nil
		case *arrow.Date32Type:
			return func(dst reflect.Value, a arrow.Array, row int) error {
				dst.Set(reflect.ValueOf(a.(*array.Date32).Value(row).ToTime().UTC()))
				return nil
			}, nil
		case *arrow.Date64Type:
			return func(dst reflect.Value, a arrow.Array, row int) error {
				dst.Set(reflect.ValueOf(a.(*array.Date64).Value(row).ToTime().UTC()))
				return nil
			}, nil
		}
	case gt.Kind() == reflect.Bool:
		if at.ID() == arrow.BOOL {
			return func(dst reflect.Value, a arrow.Array, row int) error {
				dst.SetBool(a.(*array.Boolean).Value(row))
				return nil
			}, nil
		}
	case gt.Kind() == reflect.String:
		switch at.ID() {
		case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
			return func(dst reflect.Value, a arrow.Array, row int) error {
				dst.SetString(a.ValueStr(row))
				return nil
			}, nil
		}
	case gt.Kind() == reflect.Slice && gt.Elem().Kind() == reflect.Uint8:
		switch a := at.ID(); a {
		case arrow.BINARY, arrow.LARGE_BINARY, arrow.FIXED_SIZE_BINARY:
			return func(dst reflect.Value, arr arrow.Array, row int) error {
				var b []byte
				switch x := arr.(type) {
				case *array.Binary:
					b = x.Value(row)
				case *array.LargeBinary:
					b = x.Value(row)
				case *array.FixedSizeBinary:
					b = x.Value(row)
				}
				dst.SetBytes(append([]byte(nil), b...))
				return nil
			}, nil
		}
	case gt.Kind() >= reflect.Int && gt.Kind() <= reflect.Int64:
		if get := intValue(at); get != nil {
			return func(dst reflect.Value, a arrow.Array, row int) error {
				v, ok := get(a, row)
				if !ok || dst.OverflowInt(v) {
					return fmt.Errorf("value at row %d does not fit", row)
				}
				dst.SetInt(v)
				return nil
			}, nil
		}
	case gt.Kind() >= reflect.Uint && gt.Kind() <= reflect.Uint64:
		if get := intValue(at); get != nil {
			return func(dst reflect.Value, a arrow.Array, row int) error {
				v, ok := get(a, row)
				if !ok || v < 0 || dst.OverflowUint(uint64(v)) {
					return fmt.Errorf("value at row %d does not fit", row)
				}
				dst.SetUint(uint64(v))
				return nil
			}, nil
		}
	case gt.Kind() == reflect.Float32 || gt.Kind() == reflect.Float64:
		switch at.ID() {
		case arrow.FLOAT32:
			return func(dst reflect.Value, a arrow.Array, row int) error {
				dst.SetFloat(float64(a.(*array.Float32).Value(row)))
				return nil
			}, nil
		case arrow.FLOAT64:
			return func(dst reflect.Value, a arrow.Array, row int) error {
				dst.SetFloat(a.(*array.Float64).Value(row))
				return nil
			}, nil
		}
		if get := intValue(at); get != nil {
			return func(dst reflect.Value, a arrow.Array, row int) error {
				v, _ := get(a, row)
				dst.SetFloat(float64(v))
				return nil
			}, nil
		}
	}
	return nil, fmt.Errorf("a Go %s cannot hold it", gt)
}

// intValue returns the reader of an integer Arrow type's values as int64
// (false for a uint64 above the int64 range), or nil for another type.
func intValue(at arrow.DataType) func(arrow.Array, int) (int64, bool) {
	switch at.ID() {
	case arrow.INT8:
		return func(a arrow.Array, i int) (int64, bool) { return int64(a.(*array.Int8).Value(i)), true }
	case arrow.INT16:
		return func(a arrow.Array, i int) (int64, bool) { return int64(a.(*array.Int16).Value(i)), true }
	case arrow.INT32:
		return func(a arrow.Array, i int) (int64, bool) { return int64(a.(*array.Int32).Value(i)), true }
	case arrow.INT64:
		return func(a arrow.Array, i int) (int64, bool) { return a.(*array.Int64).Value(i), true }
	case arrow.UINT8:
		return func(a arrow.Array, i int) (int64, bool) { return int64(a.(*array.Uint8).Value(i)), true }
	case arrow.UINT16:
		return func(a arrow.Array, i int) (int64, bool) { return int64(a.(*array.Uint16).Value(i)), true }
	case arrow.UINT32:
		return func(a arrow.Array, i int) (int64, bool) { return int64(a.(*array.Uint32).Value(i)), true }
	case arrow.UINT64:
		return func(a arrow.Array, i int) (int64, bool) {
			v := a.(*array.Uint64).Value(i)
			return int64(v), v <= 1<<63-1
		}
	}
	return nil
}

// sameName reports whether a column name and a Go field name are the same
// ignoring case and underscores.
func sameName(column, field string) bool {
	strip := func(s string) string { return strings.ReplaceAll(s, "_", "") }
	return strings.EqualFold(strip(column), strip(field))
}
