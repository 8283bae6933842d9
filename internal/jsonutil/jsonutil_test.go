package jsonutil

import "testing"

func TestEqual(t *testing.T) {
	a := []byte(`{"a":1,"b":[1,"x"]}`)
	if eq, err := Equal(a, []byte(`{"b":[1.0,"x"],"a":1e0}`)); !eq || err != nil {
		t.Fatalf("equal values compare unequal (%v)", err)
	}
	for _, o := range []string{`{"a":2,"b":[1,"x"]}`, `{"a":1,"b":["x",1]}`, `{"a":1,"b":[1,"x"],"c":null}`, `{"a":"1","b":[1,"x"]}`} {
		if eq, err := Equal(a, []byte(o)); eq || err != nil {
			t.Fatalf("%s compares equal (%v)", o, err)
		}
	}
	for _, bad := range []string{``, `{`, `1 2`} {
		if _, err := Equal(a, []byte(bad)); err == nil {
			t.Fatalf("%q: no error", bad)
		}
	}
}
