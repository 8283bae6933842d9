package reader_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
)

// TestOptionsLimits: reader.Options.Limits reach both decoders. Tiny
// limits refuse the bundled Parquet file and a real ORC file with errors
// of the documented classes; zero limits (the defaults) read them.
func TestOptionsLimits(t *testing.T) {
	pq := filepath.Join(testutil.RepoRoot(t), "testdata", "orders", "data", "00000-orders-schema0.parquet")
	orcFile := filepath.Join(testutil.RealDir(t), "apache-orc", "examples", "TestOrcFile.test1.orc")
	cases := []struct {
		file   string
		limits reader.Limits
		class  error
	}{
		{pq, reader.Limits{}, nil},
		{pq, reader.Limits{FooterBytes: 16}, lakecat.ErrCorrupt},
		{pq, reader.Limits{ColumnBytes: 16}, lakecat.ErrUnsupported},
		{orcFile, reader.Limits{}, nil},
		{orcFile, reader.Limits{FooterBytes: 16}, lakecat.ErrCorrupt},
		{orcFile, reader.Limits{ColumnBytes: 16}, lakecat.ErrCorrupt},
	}
	for _, c := range cases {
		b, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		mem := testutil.CheckedAllocator(t)
		rr, err := reader.Open(context.Background(), bytesReader(b), int64(len(b)), reader.Options{Name: filepath.Base(c.file), Allocator: mem, Limits: c.limits})
		if err == nil {
			for rr.Next() {
			}
			err = rr.Err()
			rr.Release()
		}
		if got := lakecat.ClassOf(err); got != c.class {
			t.Errorf("%s with %+v: class %v, want %v (err %v)", filepath.Base(c.file), c.limits, got, c.class, err)
		}
	}
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
