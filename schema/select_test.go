package schema

import (
	"errors"
	"testing"

	"github.com/lakecat/lakecat"
)

func selectTestSchema(t *testing.T) *Schema {
	t.Helper()
	s, err := ParseIcebergSchema([]byte(`{"type":"struct","schema-id":3,"fields":[
		{"id":1,"name":"id","required":true,"type":"long"},
		{"id":2,"name":"name","required":false,"type":"string"},
		{"id":3,"name":"addr","required":false,"type":{"type":"struct","fields":[
			{"id":4,"name":"city","required":false,"type":"string"},
			{"id":5,"name":"zip","required":false,"type":"int"}]}},
		{"id":6,"name":"qty","required":false,"type":"int"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func topNames(s *Schema) []string {
	var out []string
	for _, f := range s.Fields {
		out = append(out, f.Name)
	}
	return out
}

// TestSelectOrder: the selected top-level columns follow the order the
// paths name them (they followed the schema's order).
func TestSelectOrder(t *testing.T) {
	s := selectTestSchema(t)
	for _, c := range []struct {
		paths []string
		want  string
	}{
		{[]string{"qty", "id"}, "[qty id]"},
		{[]string{"addr.zip", "name", "addr.city", "id"}, "[addr name id]"},
		{[]string{"NAME", "Id"}, "[name id]"},
	} {
		sel, err := Select(s, c.paths, c.paths[0] == "NAME")
		if err != nil {
			t.Fatal(err)
		}
		if got := topNames(sel); fmtNames(got) != c.want {
			t.Errorf("Select(%v): %v, want %s", c.paths, got, c.want)
		}
		if sel.ID != 3 {
			t.Errorf("schema id %d", sel.ID)
		}
	}
	sel, _ := Select(s, []string{"addr.zip", "addr.city"}, false)
	if kids := Children(sel.Fields[0].Type); len(kids) != 2 || kids[0].Name != "city" || kids[1].ID != 5 {
		t.Errorf("nested fields keep the schema's order: %v", sel)
	}
	if got := topNames(OrderBy(s, []string{"qty", "addr.city"}, false)); fmtNames(got) != "[qty addr id name]" {
		t.Errorf("OrderBy: %v", got)
	}
}

// TestSelectNotFound: an unknown column names the columns there are, at the
// level where the path failed.
func TestSelectNotFound(t *testing.T) {
	s := selectTestSchema(t)
	for _, c := range []struct{ path, want string }{
		{"nmae", `schema: column not found: "nmae" (columns: id, name, addr, qty)`},
		{"addr.zpi", `schema: column not found: "addr.zpi" (fields of addr: city, zip)`},
	} {
		_, err := Select(s, []string{"id", c.path}, false)
		if !errors.Is(err, ErrColumnNotFound) || err.Error() != c.want {
			t.Errorf("%s: %v, want %s", c.path, err, c.want)
		}
	}
}

func fmtNames(n []string) string {
	out := "["
	for i, s := range n {
		if i > 0 {
			out += " "
		}
		out += s
	}
	return out + "]"
}

// TestSelectEmptyPath: an empty or blank path is an error naming the
// columns there are, not a selection of nothing (a library caller's
// Columns: []string{""} used to read rows of no columns).
func TestSelectEmptyPath(t *testing.T) {
	s := &Schema{Fields: []*Field{{ID: 1, Name: "a", Type: Long}, {ID: 2, Name: "b", Type: String}}}
	for _, paths := range [][]string{{""}, {"a", " "}} {
		_, err := Select(s, paths, false)
		if !errors.Is(err, ErrColumnNotFound) || err.Error() != "schema: column not found: an empty column name (columns: a, b)" {
			t.Errorf("%q: %v", paths, err)
		}
	}
}

// TestSelectDuplicate: a column named twice is an invalid argument naming
// it (it was read once, silently); a path inside a struct selected whole
// is not a duplicate.
func TestSelectDuplicate(t *testing.T) {
	s := selectTestSchema(t)
	for _, c := range []struct {
		paths []string
		ci    bool
		want  string
	}{
		{[]string{"id", "id"}, false, `schema: column selected twice: "id"`},
		{[]string{"qty", " id", "id "}, false, `schema: column selected twice: "id"`},
		{[]string{"addr.zip", "name", "addr.zip"}, false, `schema: column selected twice: "addr.zip"`},
		{[]string{"name", "NAME"}, true, `schema: column selected twice: "name" and "NAME" name the same column`},
	} {
		sel, err := Select(s, c.paths, c.ci)
		if !errors.Is(err, ErrDuplicateColumn) || !errors.Is(err, lakecat.ErrInvalidArgument) || lakecat.ClassOf(err) != lakecat.ErrInvalidArgument || err.Error() != c.want || sel != nil {
			t.Errorf("Select(%q): %v, %v; want %s", c.paths, sel, err, c.want)
		}
	}
	for _, paths := range [][]string{{"addr", "addr.zip"}, {"addr.zip", "addr.city"}, {"name", "NAME"}} {
		if _, err := Select(s, paths, false); errors.Is(err, ErrDuplicateColumn) {
			t.Errorf("Select(%q): %v", paths, err)
		}
	}
}
