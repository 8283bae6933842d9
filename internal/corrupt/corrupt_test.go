package corrupt

import (
	"bytes"
	"testing"
)

func TestMutantsDeterministic(t *testing.T) {
	data := bytes.Repeat([]byte("PAR1abcdefghij"), 100)
	a := Mutants("f.parquet", data, 7)
	b := Mutants("f.parquet", data, 7)
	if len(a) != len(b) || len(a) < 30 {
		t.Fatalf("%d and %d mutants", len(a), len(b))
	}
	kinds := map[string]int{}
	for i := range a {
		if a[i].Name != b[i].Name || !bytes.Equal(a[i].Data, b[i].Data) {
			t.Fatalf("mutant %d differs: %s vs %s", i, a[i].Name, b[i].Name)
		}
		if a[i].Kind != Truncate && bytes.Equal(a[i].Data, data) {
			t.Errorf("%s left the data unchanged", a[i].Name)
		}
		if a[i].Kind == Truncate && len(a[i].Data) != a[i].Offset {
			t.Errorf("%s has %d bytes", a[i].Name, len(a[i].Data))
		}
		kinds[a[i].Kind]++
	}
	for _, k := range []string{Truncate, FlipHead, FlipBody, FlipTail, MaxTail} {
		if kinds[k] == 0 {
			t.Errorf("no %s mutant", k)
		}
	}
	if c := Mutants("f.parquet", data, 8); bytes.Equal(c[len(c)-1].Data, a[len(a)-1].Data) {
		t.Error("another seed gave the same last mutant")
	}
	if got := Mutants("empty", nil, 1); len(got) != 0 {
		t.Errorf("%d mutants of an empty file", len(got))
	}
}
