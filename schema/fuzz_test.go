package schema

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/internal/realdata"
)

// Fuzz targets for every decoder of this package. Each checks that the
// decoder never panics, that its errors match ErrInvalidSchema, and that
// whatever it accepts encodes, decodes again and encodes to the same bytes.
// The committed seed corpora (testdata/fuzz) are synthetic; the real files
// under ../shared/testdata/real are added as seeds when present.

// addRealSeeds adds as seeds the files under the real folder that keep
// returns true for (at most max files, at most 256 KiB each).
func addRealSeeds(f *testing.F, keep func(path string, data []byte) bool, max int) {
	root := realSeedDir()
	if root == "" {
		return
	}
	n := 0
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || n >= max {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > 256<<10 {
			return nil
		}
		b, err := os.ReadFile(p)
		if err == nil && keep(filepath.ToSlash(p), b) {
			f.Add(b)
			n++
		}
		return nil
	})
}

// realSeedDir is realDir without skipping: "" when absent.
func realSeedDir() string { return realdata.Present() }

func checkErr(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, ErrInvalidSchema) {
		t.Fatalf("error %v (%T) does not match ErrInvalidSchema", err, err)
	}
}

func FuzzParseIcebergSchema(f *testing.F) {
	f.Add([]byte(allTypesSchema))
	f.Add([]byte(`{"type":"struct","fields":[]}`))
	addRealSeeds(f, func(p string, b []byte) bool {
		return strings.HasSuffix(p, ".json") && bytes.Contains(b, []byte(`"format-version"`))
	}, 100)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseIcebergSchema(data)
		if err != nil {
			checkErr(t, err)
			return
		}
		out, err := MarshalIcebergSchema(s)
		if err != nil {
			t.Fatalf("accepted schema does not encode: %v", err)
		}
		s2, err := ParseIcebergSchema(out)
		if err != nil {
			t.Fatalf("encoded schema does not decode: %v\n%s", err, out)
		}
		out2, err := MarshalIcebergSchema(s2)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("encoding is not stable: %v\n%s\n%s", err, out, out2)
		}
		if len(s.Fields) != len(s2.Fields) || s.ID != s2.ID {
			t.Fatal("re-decoded schema differs")
		}
	})
}

func FuzzParsePaimonSchema(f *testing.F) {
	f.Add([]byte(paimonDocExample))
	f.Add([]byte(`{"id":0,"fields":[{"id":0,"name":"a","type":{"type":"ROW","fields":[{"id":1,"name":"b","type":{"type":"MULTISET","element":"INT"}}]},"description":"","defaultValue":"1"}]}`))
	addRealSeeds(f, func(p string, _ []byte) bool { return schemaFileName.MatchString(p) }, 100)
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePaimonSchema(data)
		if err != nil {
			checkErr(t, err)
			return
		}
		out, err := MarshalPaimonSchema(p)
		if err != nil {
			t.Fatalf("accepted schema does not encode: %v", err)
		}
		p2, err := ParsePaimonSchema(out)
		if err != nil {
			t.Fatalf("encoded schema does not decode: %v\n%s", err, out)
		}
		out2, err := MarshalPaimonSchema(p2)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("encoding is not stable: %v\n%s\n%s", err, out, out2)
		}
		if !p.Schema().Equal(p2.Schema()) {
			t.Fatal("re-decoded schema differs")
		}
	})
}

func FuzzParsePaimonType(f *testing.F) {
	for _, s := range []string{`BIGINT NOT NULL`, `DECIMAL(10, 2)`, `TIMESTAMP(3) WITH LOCAL TIME ZONE`, `ROW<a INT 'c', b ARRAY<MAP<INT, STRING>>>`,
		`"VARCHAR(2147483647)"`, `{"type":"MAP NOT NULL","key":"VARCHAR(20)","value":{"type":"VECTOR","element":"FLOAT","length":4}}`,
		`{"type":"ROW","fields":[{"id":0,"name":"a","type":{"type":"MULTISET","element":"TIME(3)"}}]}`} {
		f.Add([]byte(s))
	}
	addRealSeeds(f, func(p string, _ []byte) bool {
		return strings.Contains(p, "paimon-rust") && strings.HasSuffix(p, "_type.json")
	}, 50)
	f.Fuzz(func(t *testing.T, data []byte) {
		typ, nn, err := ParsePaimonType(data)
		if err != nil {
			checkErr(t, err)
			return
		}
		out, err := MarshalPaimonType(typ, nn)
		if err != nil {
			// Only a ROW in string form (fields without ids) may not encode.
			checkErr(t, err)
			return
		}
		typ2, nn2, err := ParsePaimonType(out)
		if err != nil {
			t.Fatalf("encoded type does not decode: %v\n%s", err, out)
		}
		if !Equal(typ, typ2) || nn != nn2 {
			t.Fatalf("round trip changed the type: %v → %s → %v", typ, out, typ2)
		}
	})
}

func FuzzParseNameMapping(f *testing.F) {
	f.Add([]byte(`[{"field-id":1,"names":["id","record_id"]},{"field-id":3,"names":["location"],"fields":[{"field-id":4,"names":["lat"]}]},{"names":["legacy_col"]},{"field-id":6,"names":[]}]`))
	f.Add([]byte(`[{"field-id":1,"names":["properties"],"fields":[{"field-id":8,"names":["key"]},{"field-id":9,"names":["value"]}]}]`))
	addRealNameMappings(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseNameMapping(data)
		if err != nil {
			checkErr(t, err)
			return
		}
		out, err := MarshalNameMapping(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := ParseNameMapping(out)
		if err != nil {
			t.Fatalf("encoded mapping does not decode: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(m, m2) {
			t.Fatalf("round trip changed the mapping: %s", out)
		}
		file := New(0, fileField("id", Int, false), fileField("properties", &MapType{Key: fileField(KeyName, String, true), Value: fileField(ValueName, NewList(NoID, Int, false), false)}, false))
		_ = m.Apply(file)
	})
}
