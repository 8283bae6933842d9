package schema

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestParseNameMapping(t *testing.T) {
	in := `[{"field-id":1,"names":["id","record_id"]},{"field-id":2,"names":["data"]},` +
		`{"field-id":3,"names":["location"],"fields":[{"field-id":4,"names":["latitude","lat"]},{"field-id":5,"names":["longitude","long"]}]},` +
		`{"names":["legacy_col"]},{"field-id":6,"names":[]},{"field-id":7,"names":["a.b"]}]`
	m, err := ParseNameMapping([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := NameMapping{
		{FieldID: intp(1), Names: []string{"id", "record_id"}},
		{FieldID: intp(2), Names: []string{"data"}},
		{FieldID: intp(3), Names: []string{"location"}, Fields: []MappedField{
			{FieldID: intp(4), Names: []string{"latitude", "lat"}},
			{FieldID: intp(5), Names: []string{"longitude", "long"}},
		}},
		{Names: []string{"legacy_col"}},
		{FieldID: intp(6), Names: []string{}},
		{FieldID: intp(7), Names: []string{"a.b"}},
	}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("got %+v", m)
	}
	out, err := MarshalNameMapping(m)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Fatalf("round trip\n got %s\nwant %s", out, in)
	}
	if f := m.Find("location", "lat"); f == nil || *f.FieldID != 4 {
		t.Fatalf("Find(location, lat) = %+v", f)
	}
	if m.Find("a", "b") != nil || m.Find("a.b") == nil {
		t.Fatal("a dotted name must be matched literally")
	}
	// "names" absent and "field-id": null are accepted too.
	m, err = ParseNameMapping([]byte(`[{"field-id":null},{"names":null,"fields":null}]`))
	if err != nil || len(m) != 2 || m[0].FieldID != nil || len(m[1].Names) != 0 {
		t.Fatalf("lenient entries: %+v %v", m, err)
	}
	for _, bad := range []string{`{}`, `null`, `[1]`, `[{"field-id":1.5,"names":["a"]}]`, `[{"names":"a"}]`, `[{"names":[1]}]`, `[{"names":["a"],"fields":{}}]`, `[`} {
		if _, err := ParseNameMapping([]byte(bad)); !errors.Is(err, ErrInvalidSchema) {
			t.Errorf("%s: error %v, want ErrInvalidSchema", bad, err)
		}
	}
}

// fileField makes an id-less file field.
func fileField(name string, typ Type, required bool) *Field {
	return &Field{ID: NoID, Name: name, Type: typ, Required: required}
}

func ids(s *Schema) map[string]int {
	out := map[string]int{}
	Walk(s.Fields, func(path []string, f *Field) bool {
		p := ""
		for i, n := range path {
			if i > 0 {
				p += "/"
			}
			p += n
		}
		out[p] = f.ID
		return true
	})
	return out
}

// TestCaseA13: a Parquet map whose repeated group is called "map" is
// normalized to key/value in the file tree, so the mapping's key→8 and
// value→9 apply.
func TestCaseA13(t *testing.T) {
	file := New(0, fileField("properties", &MapType{Key: fileField(KeyName, String, true), Value: fileField(ValueName, String, false)}, false))
	m, err := ParseNameMapping([]byte(`[{"field-id":1,"names":["properties"],"fields":[{"field-id":8,"names":["key"]},{"field-id":9,"names":["value"]}]}]`))
	if err != nil {
		t.Fatal(err)
	}
	got := m.Apply(file)
	want := map[string]int{"properties": 1, "properties/key": 8, "properties/value": 9}
	if !reflect.DeepEqual(ids(got), want) {
		t.Fatalf("ids %v, want %v", ids(got), want)
	}
	if file.Fields[0].ID != NoID || file.Fields[0].Type.(*MapType).Key.ID != NoID {
		t.Fatal("Apply changed its input")
	}
	// A mapping that names key and value otherwise is matched by position.
	m2, _ := ParseNameMapping([]byte(`[{"field-id":1,"names":["properties"],"fields":[{"field-id":8,"names":["k"]},{"field-id":9,"names":["v"]}]}]`))
	if g := ids(m2.Apply(file)); !reflect.DeepEqual(g, want) {
		t.Fatalf("positional key/value: %v", g)
	}
}

// TestCaseA14: the same list<struct<a long>> from writers that call the
// element "element" and "item" (or old 2-level lists "array"/"bag") reads
// with the same ids, since the file tree always names it "element"; a
// mapping written with a legacy element name applies too.
func TestCaseA14(t *testing.T) {
	file := New(0, fileField("a", &ListType{Element: fileField(ElementName, &StructType{Fields: []*Field{fileField("a", Long, false)}}, false)}, false))
	want := map[string]int{"a": 1, "a/element": 2, "a/element/a": 3}
	for _, name := range []string{"element", "item", "array", "bag", "a_tuple", "whatever"} {
		m, err := ParseNameMapping([]byte(`[{"field-id":1,"names":["a"],"fields":[{"field-id":2,"names":["` + name + `"],"fields":[{"field-id":3,"names":["a"]}]}]}]`))
		if err != nil {
			t.Fatal(err)
		}
		if g := ids(m.Apply(file)); !reflect.DeepEqual(g, want) {
			t.Errorf("element named %q: ids %v, want %v", name, g, want)
		}
	}
}

// TestCaseA15: entries without field-id and with empty names are accepted;
// legacy_col keeps no id and a column absent from the mapping is ignored.
func TestCaseA15(t *testing.T) {
	m, err := ParseNameMapping([]byte(`[{"field-id":1,"names":["id"]},{"names":["legacy_col"]},{"field-id":3,"names":[]}]`))
	if err != nil {
		t.Fatal(err)
	}
	file := New(0, fileField("id", Int, false), fileField("legacy_col", String, false), fileField("not_mapped", String, false))
	got := m.Apply(file)
	want := map[string]int{"id": 1, "legacy_col": NoID, "not_mapped": NoID}
	if !reflect.DeepEqual(ids(got), want) {
		t.Fatalf("ids %v, want %v", ids(got), want)
	}
	if got.FindByID(3) != nil {
		t.Fatal("field id 3 (empty names) was assigned")
	}
}

func TestNameMappingNeverOverridesIDs(t *testing.T) {
	file := New(0, &Field{ID: 5, Name: "a", Type: Int}, fileField("b", &StructType{Fields: []*Field{{ID: 7, Name: "c", Type: Int}, fileField("d", Int, false)}}, false))
	m, _ := ParseNameMapping([]byte(`[{"field-id":1,"names":["a"]},{"field-id":2,"names":["b"],"fields":[{"field-id":3,"names":["c"]},{"field-id":4,"names":["d"]}]}]`))
	want := map[string]int{"a": 5, "b": 2, "b/c": 7, "b/d": 4}
	if g := ids(m.Apply(file)); !reflect.DeepEqual(g, want) {
		t.Fatalf("ids %v, want %v", g, want)
	}
}

func TestNameMappingDottedNames(t *testing.T) {
	file := New(0, fileField("a.b", Int, false), fileField("a", &StructType{Fields: []*Field{fileField("b", Int, false)}}, false))
	m, _ := ParseNameMapping([]byte(`[{"field-id":1,"names":["a.b"]},{"field-id":2,"names":["a"]}]`))
	want := map[string]int{"a.b": 1, "a": 2, "a/b": NoID}
	if g := ids(m.Apply(file)); !reflect.DeepEqual(g, want) {
		t.Fatalf("ids %v, want %v", g, want)
	}
}

func TestNameMappingJSONInterfaces(t *testing.T) {
	var holder struct {
		M NameMapping `json:"m"`
	}
	if err := json.Unmarshal([]byte(`{"m":[{"field-id":1,"names":["a"]}]}`), &holder); err != nil {
		t.Fatal(err)
	}
	if len(holder.M) != 1 || *holder.M[0].FieldID != 1 {
		t.Fatalf("decoded %+v", holder.M)
	}
	b, err := json.Marshal(holder)
	if err != nil || string(b) != `{"m":[{"field-id":1,"names":["a"]}]}` {
		t.Fatalf("encoded %s %v", b, err)
	}
	if err := json.Unmarshal([]byte(`{"m":{}}`), &holder); !errors.Is(err, ErrInvalidSchema) {
		t.Fatalf("error %v", err)
	}
}

func intp(v int) *int { return &v }
