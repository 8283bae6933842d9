package paimon

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/formats/orc"
	"github.com/lakecat/lakecat/table/internal/avrorec"
)

// ErrCorruptManifest is matched by errors for manifest lists, manifests and
// index manifests that cannot be decoded.
var ErrCorruptManifest = lakecat.NewSentinel(lakecat.ErrCorrupt, "paimon: corrupt manifest")

// readRecords decodes every row of a manifest-like file (Avro object
// container or ORC; detected by the magic bytes, whatever manifest.format
// says) into generic records: field name → value, with integers as int32
// or int64, strings, []byte, nested records as map[string]any and arrays
// as []any (formats/avro.File.Records' form for Avro).
func readRecords(data []byte) ([]map[string]any, error) {
	switch {
	case bytes.HasPrefix(data, []byte("Obj\x01")):
		return readAvroRecords(data)
	case bytes.HasPrefix(data, []byte("ORC")):
		return readORCRecords(data)
	}
	return nil, fmt.Errorf("%w: neither Avro nor ORC", ErrCorruptManifest)
}

func readAvroRecords(data []byte) (out []map[string]any, err error) {
	f, err := avrorec.Open(data, "manifest")
	if err != nil {
		return nil, avrorec.OpenError(ErrCorruptManifest, "paimon: manifest", err)
	}
	for rec, err := range f.Records(context.Background()) {
		if err != nil {
			return nil, fmt.Errorf("%w: record %d: %v", ErrCorruptManifest, len(out), err)
		}
		out = append(out, rec)
	}
	return out, nil
}

// readORCRecords decodes an ORC manifest (Paimon's manifest.format = orc)
// with formats/orc and turns the Arrow columns into generic records.
func readORCRecords(data []byte) ([]map[string]any, error) {
	f, err := orc.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorruptManifest, err)
	}
	br, err := f.NewBatchReader(f.Schema(), orc.BatchOptions{})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorruptManifest, err)
	}
	defer br.Close()
	var out []map[string]any
	for {
		rec, err := br.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrCorruptManifest, err)
		}
		sch := rec.Schema()
		for row := 0; row < int(rec.NumRows()); row++ {
			m := make(map[string]any, len(sch.Fields()))
			for c, fld := range sch.Fields() {
				m[fld.Name] = arrowValue(rec.Column(c), row)
			}
			out = append(out, m)
		}
		rec.Release()
	}
	return out, nil
}

// arrowValue returns the value at row i of a as a generic value.
func arrowValue(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch x := a.(type) {
	case *array.Boolean:
		return x.Value(i)
	case *array.Int8:
		return int32(x.Value(i))
	case *array.Int16:
		return int32(x.Value(i))
	case *array.Int32:
		return x.Value(i)
	case *array.Int64:
		return x.Value(i)
	case *array.Float32:
		return x.Value(i)
	case *array.Float64:
		return x.Value(i)
	case *array.String:
		return x.Value(i)
	case *array.LargeString:
		return x.Value(i)
	case *array.Binary:
		return append([]byte(nil), x.Value(i)...)
	case *array.LargeBinary:
		return append([]byte(nil), x.Value(i)...)
	case *array.Timestamp:
		return int64(x.Value(i))
	case *array.Date32:
		return int32(x.Value(i))
	case *array.Struct:
		st := x.DataType().(*arrow.StructType)
		m := make(map[string]any, x.NumField())
		for f := 0; f < x.NumField(); f++ {
			m[st.Field(f).Name] = arrowValue(x.Field(f), i)
		}
		return m
	case *array.List:
		start, end := x.ValueOffsets(i)
		vals := x.ListValues()
		out := make([]any, 0, end-start)
		for j := start; j < end; j++ {
			out = append(out, arrowValue(vals, int(j)))
		}
		return out
	}
	return fmt.Sprintf("unsupported arrow type %s", a.DataType())
}
