package avro

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	hamba "github.com/hamba/avro/v2"

	"github.com/lakecat/lakecat/internal/testutil"
)

// treeOurs renders a parsed schema as one line per node: type, name,
// logical type, size, symbols, docs and the id attributes. A named type is
// written out the first time and as ref:name after, in both renderings.
func treeOurs(b *strings.Builder, s *Schema, indent string, seen map[string]bool) {
	if s.Name != "" {
		if seen[s.Name] {
			fmt.Fprintf(b, "%sref:%s\n", indent, s.Name)
			return
		}
		seen[s.Name] = true
	}
	logical := s.Logical
	if logical == "" {
		logical, _ = s.Prop("logicalType").(string)
	}
	if logical == "decimal" && s.Logical == "decimal" {
		logical = fmt.Sprintf("decimal(%d,%d)", s.Precision, s.Scale)
	}
	utc, _ := s.Prop("adjust-to-utc").(bool)
	fmt.Fprintf(b, "%s%s name=%s logical=%s size=%d symbols=%v utc=%v ids=%d/%d/%d\n", indent, s.Type, s.Name, logical, s.Size, s.Symbols, utc,
		propID(s.Prop("element-id")), propID(s.Prop("key-id")), propID(s.Prop("value-id")))
	in := indent + "  "
	switch s.Type {
	case "record":
		for _, f := range s.Fields {
			fmt.Fprintf(b, "%sfield %s id=%d doc=%q\n", in, f.Name, propID(f.Prop("field-id")), f.Doc)
			treeOurs(b, f.Type, in+"  ", seen)
		}
	case "array":
		treeOurs(b, s.Items, in, seen)
	case "map":
		treeOurs(b, s.Values, in, seen)
	case "union":
		for _, x := range s.Branches {
			treeOurs(b, x, in, seen)
		}
	}
}

// treeHamba renders a hamba/avro schema as treeOurs renders ours.
func treeHamba(b *strings.Builder, s hamba.Schema, indent string, seen map[string]bool) {
	if r, ok := s.(*hamba.RefSchema); ok {
		s = r.Schema()
	}
	name := ""
	if n, ok := s.(hamba.NamedSchema); ok {
		name = n.FullName()
		if seen[name] {
			fmt.Fprintf(b, "%sref:%s\n", indent, name)
			return
		}
		seen[name] = true
	}
	logical := ""
	if l, ok := s.(hamba.LogicalTypeSchema); ok && l.Logical() != nil {
		logical = string(l.Logical().Type())
		if d, ok := l.Logical().(*hamba.DecimalLogicalSchema); ok {
			logical = fmt.Sprintf("decimal(%d,%d)", d.Precision(), d.Scale())
		}
	}
	prop := func(string) any { return nil }
	if p, ok := s.(interface{ Prop(string) any }); ok {
		prop = p.Prop
	}
	if logical == "" {
		logical, _ = prop("logicalType").(string)
	}
	size, syms := 0, []string(nil)
	switch t := s.(type) {
	case *hamba.FixedSchema:
		size = t.Size()
	case *hamba.EnumSchema:
		syms = t.Symbols()
	}
	utc, _ := prop("adjust-to-utc").(bool)
	fmt.Fprintf(b, "%s%s name=%s logical=%s size=%d symbols=%v utc=%v ids=%d/%d/%d\n", indent, s.Type(), name, logical, size, syms, utc,
		propID(prop("element-id")), propID(prop("key-id")), propID(prop("value-id")))
	in := indent + "  "
	switch t := s.(type) {
	case *hamba.RecordSchema:
		for _, f := range t.Fields() {
			fmt.Fprintf(b, "%sfield %s id=%d doc=%q\n", in, f.Name(), propID(f.Prop("field-id")), f.Doc())
			treeHamba(b, f.Type(), in+"  ", seen)
		}
	case *hamba.ArraySchema:
		treeHamba(b, t.Items(), in, seen)
	case *hamba.MapSchema:
		treeHamba(b, t.Values(), in, seen)
	case *hamba.UnionSchema:
		for _, x := range t.Types() {
			treeHamba(b, x, in, seen)
		}
	}
}

func compareWithHamba(t *testing.T, name, js string) {
	t.Helper()
	want, err := hamba.ParseWithCache(js, "", &hamba.SchemaCache{})
	if err != nil {
		t.Fatalf("%s: hamba: %v", name, err)
	}
	got, err := ParseSchema(js)
	if err != nil {
		t.Fatalf("%s: ParseSchema: %v", name, err)
	}
	var w, g strings.Builder
	treeHamba(&w, want, "", map[string]bool{})
	treeOurs(&g, got, "", map[string]bool{})
	if g.String() != w.String() {
		t.Errorf("%s: field trees differ\nours:\n%s\nhamba:\n%s", name, g.String(), w.String())
	}
}

// TestParseSchemaRealFiles parses the schema of every Avro container in
// the real third-party files (data files, manifests, manifest lists of
// Iceberg, Paimon and Hudi writers) with ParseSchema and with hamba/avro,
// and compares the field trees: types, names, logical types, sizes,
// symbols, docs and field/element/key/value ids.
func TestParseSchemaRealFiles(t *testing.T) {
	root := testutil.RealDir(t)
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if !bytes.HasPrefix(data, []byte(Magic)) {
			return nil
		}
		f := &File{}
		if err := f.parseHeader(data); err != nil {
			t.Errorf("%s: header: %v", path, err)
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		compareWithHamba(t, rel, string(f.meta["avro.schema"]))
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d Avro schemas compared", n)
	if n < 100 {
		t.Errorf("compared %d Avro schemas, want at least 100", n)
	}
}

// TestParseSchemaSpec compares ParseSchema with hamba/avro on schemas using
// each part of the specification's "Schema Declaration".
func TestParseSchemaSpec(t *testing.T) {
	cases := map[string]string{
		"primitive":      `"long"`,
		"primitive-obj":  `{"type":"string"}`,
		"union-top":      `["null","int",{"type":"array","items":"string"}]`,
		"error":          `{"type":"error","name":"Oops","fields":[{"name":"msg","type":"string"}]}`,
		"enum":           `{"type":"enum","name":"Suit","symbols":["SPADES","HEARTS"],"default":"SPADES"}`,
		"fixed":          `{"type":"fixed","name":"md5","size":16}`,
		"map":            `{"type":"map","values":["null","long"],"value-id":7,"key-id":6}`,
		"logical":        `{"type":"record","name":"r","fields":[{"name":"d","type":{"type":"int","logicalType":"date"}},{"name":"tm","type":{"type":"int","logicalType":"time-millis"}},{"name":"tu","type":{"type":"long","logicalType":"time-micros"}},{"name":"a","type":{"type":"long","logicalType":"timestamp-millis"}},{"name":"b","type":{"type":"long","logicalType":"timestamp-micros","adjust-to-utc":false}},{"name":"c","type":{"type":"long","logicalType":"local-timestamp-millis"}},{"name":"e","type":{"type":"long","logicalType":"local-timestamp-micros"}},{"name":"u","type":{"type":"string","logicalType":"uuid"}},{"name":"fu","type":{"type":"fixed","name":"fu16","size":16,"logicalType":"uuid"}},{"name":"dur","type":{"type":"fixed","name":"dur12","size":12,"logicalType":"duration"}},{"name":"db","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}},{"name":"df","type":{"type":"fixed","name":"dec5","size":5,"logicalType":"decimal","precision":11}}]}`,
		"bad-decimal":    `{"type":"record","name":"r","fields":[{"name":"s","type":{"type":"bytes","logicalType":"decimal","precision":2,"scale":3}},{"name":"f","type":{"type":"fixed","name":"d2","size":2,"logicalType":"decimal","precision":9}}]}`,
		"namespaces":     `{"type":"record","name":"a.b.Outer","aliases":["Old"],"fields":[{"name":"in","aliases":["was"],"type":{"type":"record","name":"Inner","fields":[{"name":"x","type":"int"}]}},{"name":"again","type":"Inner"},{"name":"full","type":"a.b.Inner"},{"name":"other","type":{"type":"record","name":"Leaf","namespace":"c","fields":[{"name":"y","type":{"type":"enum","name":"E","symbols":["A"]}},{"name":"z","type":"E"}]}},{"name":"w","type":"c.E"}]}`,
		"recursive":      `{"type":"record","name":"Node","fields":[{"name":"v","type":"int"},{"name":"next","type":["null","Node"]},{"name":"kids","type":{"type":"array","items":"Node"}}]}`,
		"iceberg-intmap": `{"type":"record","name":"r","fields":[{"name":"m","field-id":1,"type":{"type":"array","logicalType":"map","items":{"type":"record","name":"k2_v3","fields":[{"name":"key","type":"int","field-id":2},{"name":"value","type":"string","field-id":3}]}}},{"name":"l","field-id":4,"doc":"a list","type":{"type":"array","items":"long","element-id":5}}]}`,
	}
	for name, js := range cases {
		compareWithHamba(t, name, js)
	}
}

// TestParseSchemaErrors: malformed schemas are errors, as hamba/avro
// finds them.
func TestParseSchemaErrors(t *testing.T) {
	for name, js := range map[string]string{
		"json":          `{"type":`,
		"trailing":      `"int" "long"`,
		"unknown":       `"nope"`,
		"no-type":       `{"name":"x"}`,
		"no-fields":     `{"type":"record","name":"r"}`,
		"dup-name":      `{"type":"record","name":"r","fields":[{"name":"a","type":{"type":"fixed","name":"r","size":1}}]}`,
		"dup-field":     `{"type":"record","name":"r","fields":[{"name":"a","type":"int"},{"name":"a","type":"int"}]}`,
		"bad-name":      `{"type":"record","name":"1r","fields":[]}`,
		"union-union":   `["null",["int"]]`,
		"union-twice":   `["int","int"]`,
		"fixed-size":    `{"type":"fixed","name":"f","size":-1}`,
		"enum-dup":      `{"type":"enum","name":"e","symbols":["A","A"]}`,
		"array-noitems": `{"type":"array"}`,
		"field-notype":  `{"type":"record","name":"r","fields":[{"name":"a"}]}`,
	} {
		if _, err := ParseSchema(js); err == nil {
			t.Errorf("%s: ParseSchema(%s) = nil error", name, js)
		}
		if _, err := hamba.ParseWithCache(js, "", &hamba.SchemaCache{}); err == nil {
			t.Logf("%s: hamba accepts %s", name, js)
		}
	}
	deep := strings.Repeat(`{"type":"array","items":`, 2000) + `"int"` + strings.Repeat(`}`, 2000)
	if _, err := ParseSchema(deep); err == nil {
		t.Errorf("a schema nested 2000 levels parsed")
	}
}

// FuzzParseSchema: ParseSchema never panics, and a schema both it and
// hamba/avro accept gives the same field tree.
func FuzzParseSchema(f *testing.F) {
	for _, js := range []string{
		`"int"`, `["null","string"]`,
		`{"type":"record","name":"a.R","fields":[{"name":"x","type":["null",{"type":"fixed","name":"F","size":4,"logicalType":"decimal","precision":7,"scale":2}],"field-id":1},{"name":"y","type":"F"}]}`,
		`{"type":"map","values":{"type":"array","items":{"type":"long","logicalType":"timestamp-micros","adjust-to-utc":false},"element-id":3},"key-id":1,"value-id":2}`,
		`{"type":"enum","name":"E","namespace":"n","symbols":["A","B"],"aliases":["Old"]}`,
	} {
		f.Add(js)
	}
	f.Fuzz(func(t *testing.T, js string) {
		got, err := ParseSchema(js)
		if err != nil {
			return
		}
		if caseFolded(js) {
			return // hamba/avro matches attribute names in any case; the spec does not
		}
		want, err := hamba.ParseWithCache(js, "", &hamba.SchemaCache{})
		if err != nil {
			return
		}
		var w, g strings.Builder
		treeHamba(&w, want, "", map[string]bool{})
		treeOurs(&g, got, "", map[string]bool{})
		if g.String() != w.String() {
			t.Errorf("field trees differ\nours:\n%s\nhamba:\n%s", g.String(), w.String())
		}
	})
}

// caseFolded reports whether js has an object key that is a schema
// attribute name in another case ("Type", "nAmespace").
func caseFolded(js string) bool {
	var v any
	if json.Unmarshal([]byte(js), &v) != nil {
		return false
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch t := v.(type) {
		case []any:
			for _, x := range t {
				if walk(x) {
					return true
				}
			}
		case map[string]any:
			for k, x := range t {
				switch l := strings.ToLower(k); l {
				case "type", "name", "namespace", "aliases", "doc", "fields", "symbols", "size", "items", "values", "default",
					"logicaltype", "precision", "scale", "order":
					if k != l && !(l == "logicaltype" && k == "logicalType") {
						return true
					}
				}
				if walk(x) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// TestSchemaReferencedManyTimes: 60 records each holding two fields of the
// one before would expand to 2^60 fields. The conversion refuses it with
// ErrUnsupported, and the minimum record size and the skip functions are
// computed once per record type.
func TestSchemaReferencedManyTimes(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"record","name":"R60","fields":[`)
	for i := 59; i >= 0; i-- {
		if i == 0 {
			b.WriteString(`{"name":"a","type":{"type":"record","name":"R0","fields":[{"name":"x","type":"long"}]}},{"name":"b","type":"R0"}`)
			break
		}
		fmt.Fprintf(&b, `{"name":"a","type":{"type":"record","name":"R%d","fields":[`, i)
	}
	for i := 1; i < 60; i++ {
		fmt.Fprintf(&b, `]}},{"name":"b","type":"R%d"}`, i)
	}
	b.WriteString(`]}`)
	s, err := ParseSchema(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := convertSchema(s); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("convertSchema: %v, want ErrUnsupported", err)
	}
	if got := minBytes(s, 0); got != maxHeaderBytes {
		t.Errorf("minBytes = %d, want the cap %d", got, maxHeaderBytes)
	}
	if err := skipType(s)(&buf{b: []byte{2}}); err == nil {
		t.Errorf("skipping 2^60 longs in one byte succeeded")
	}
}
