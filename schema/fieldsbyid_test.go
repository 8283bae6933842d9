package schema

import (
	"sort"
	"testing"
)

// TestFieldsByID: every field id at any depth (struct fields, list
// elements, map keys and values) maps to its field, the first in pre-order
// of a duplicated id; fields without an id are left out; the map is new on
// each call (changing it changes neither s nor FindByID) and agrees with
// FindByID.
func TestFieldsByID(t *testing.T) {
	elem := &Field{ID: 4, Name: ElementName, Type: Long, Required: true}
	key := &Field{ID: 6, Name: KeyName, Type: String, Required: true}
	val := &Field{ID: 7, Name: ValueName, Type: &StructType{Fields: []*Field{
		{ID: 8, Name: "x", Type: Int},
		{ID: 2, Name: "dup", Type: Int}, // a duplicate of the top-level id 2
	}}}
	noID := &Field{ID: NoID, Name: "noid", Type: Int}
	s := New(0,
		&Field{ID: 1, Name: "a", Type: Int},
		&Field{ID: 2, Name: "b", Type: &StructType{Fields: []*Field{{ID: 3, Name: "c", Type: &ListType{Element: elem}}}}},
		&Field{ID: 5, Name: "m", Type: &MapType{Key: key, Value: val}},
		noID)
	m := s.FieldsByID()
	var ids []int
	for id := range m {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	want := []int{1, 2, 3, 4, 5, 6, 7, 8}
	if len(ids) != len(want) {
		t.Fatalf("ids %v, want %v", ids, want)
	}
	for i, id := range want {
		if ids[i] != id {
			t.Fatalf("ids %v, want %v", ids, want)
		}
		if m[id] != s.FindByID(id) {
			t.Errorf("id %d: %s, FindByID %s", id, m[id].Name, s.FindByID(id).Name)
		}
	}
	if m[2].Name != "b" || m[4] != elem || m[6] != key || m[7] != val || m[8].Name != "x" {
		t.Errorf("fields: 2 %s, 4 %s, 6 %s, 7 %s, 8 %s", m[2].Name, m[4].Name, m[6].Name, m[7].Name, m[8].Name)
	}
	delete(m, 1)
	if n := s.FieldsByID(); len(n) != 8 || n[1] == nil || s.FindByID(1) == nil {
		t.Errorf("the map is shared: %d fields after deleting from a copy", len(n))
	}
}
