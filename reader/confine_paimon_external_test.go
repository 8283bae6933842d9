package reader_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"
	"github.com/parquet-go/parquet-go"

	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
	"github.com/lakecat/lakecat/table/paimon/paimonwrite"
)

// setExternalPath rewrites the one data manifest of the Paimon table at
// root so that every entry's _EXTERNAL_PATH is ext, as Paimon writes it for
// a table with data-file.external-paths.
func setExternalPath(t *testing.T, root, ext string) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(root, "manifest", "manifest-*"))
	if err != nil {
		t.Fatal(err)
	}
	done := 0
	for _, p := range names {
		if strings.Contains(filepath.Base(p), "manifest-list") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := ocf.NewDecoder(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		sch, err := avro.Parse(string(dec.Metadata()["avro.schema"]))
		if err != nil {
			t.Fatal(err)
		}
		var recs []map[string]any
		for dec.HasNext() {
			var r map[string]any
			if err := dec.Decode(&r); err != nil {
				t.Fatal(err)
			}
			r["_FILE"].(map[string]any)["_EXTERNAL_PATH"] = ext
			recs = append(recs, r)
		}
		var buf bytes.Buffer
		enc, err := ocf.NewEncoderWithSchema(sch, &buf)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if err := enc.Encode(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := enc.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		done++
	}
	if done != 1 {
		t.Fatalf("%d data manifests rewritten, want 1", done)
	}
}

// TestConfinedPaimonExternalPath: a Paimon data file stored under an
// external path (data-file.external-paths: the manifest entry's
// _EXTERNAL_PATH, a file: URI outside the table folder) is refused by
// default, naming the path, and read with AllowPaths naming the external
// folder, to the file's row.
func TestConfinedPaimonExternalPath(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "t")
	w := &paimonwrite.Writer{Dir: root, TimeMillis: 1}
	fields := []*schema.Field{{ID: 0, Name: "id", Type: schema.Long, Required: true}, {ID: 1, Name: "v", Type: schema.String}}
	if err := w.WriteSchema(schema.NewPaimonSchema(0, fields, nil, nil, map[string]string{"bucket": "-1"})); err != nil {
		t.Fatal(err)
	}
	in, err := w.DataFilePath(0, "data-a.parquet")
	if err != nil {
		t.Fatal(err)
	}
	v := "far"
	if err := parquet.WriteFile(in, []confineRow{{ID: 7, V: &v}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(0, []paimonwrite.DataFile{{Name: "data-a.parquet", Bucket: 0, TotalBuckets: -1, RowCount: 1}}); err != nil {
		t.Fatal(err)
	}
	ext := filepath.Join(dir, "external", "bucket-0")
	if err := os.MkdirAll(ext, 0o755); err != nil {
		t.Fatal(err)
	}
	far := filepath.Join(ext, "data-a.parquet")
	if err := os.Rename(in, far); err != nil {
		t.Fatal(err)
	}
	setExternalPath(t, root, "file:"+far)

	wantRefused(t, readErr(t, root, reader.TableOptions{}), far, "outside the table location")

	got := strings.Join(tableRows(t, root, reader.TableOptions{AllowPaths: []string{filepath.Join(dir, "external")}}, true), "\n")
	if want := `{"id":7,"v":"far"}`; got != want {
		t.Errorf("rows with the external folder allowed:\n got %s\nwant %s", got, want)
	}
}
