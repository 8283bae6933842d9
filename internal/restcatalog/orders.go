package restcatalog

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/lakecat/lakecat/testdata/orders"
)

// WithOrders starts a server (closed at the end of the test) whose
// warehouse is a temporary folder holding a copy of the bundled Iceberg
// table testdata/orders as namespace "db", table "orders"; it returns the
// server and the table's folder.
func WithOrders(t testing.TB, opts Options) (*Server, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "db", "orders")
	err := fs.WalkDir(orders.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := orders.FS.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	s := New(opts)
	t.Cleanup(s.Close)
	if err := s.Register([]string{"db"}, "orders", filepath.Join(dir, filepath.FromSlash(orders.MetadataPath))); err != nil {
		t.Fatal(err)
	}
	return s, dir
}
