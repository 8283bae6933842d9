package reader_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lakecat/lakecat/reader"
)

// TestListOnly: TableOptions.ListOnly opens a table of any format for
// listing: a Paimon primary-key table is not refused and keeps its table
// schema (no system columns, which only Raw adds), an Iceberg table accepts
// it (it once had to be given the Paimon-only Raw, which Iceberg refuses),
// and Scan refuses to read rows.
func TestListOnly(t *testing.T) {
	root := filepath.Join("..", "testdata")
	cases := []struct {
		dir        string
		files      int
		readFields string
	}{
		{filepath.Join(root, "orders"), 3, "order_shop_id order_id customer price amount note channel"},
		{filepath.Join(root, "paimon_orders"), 14, "order_id customer_name order_user_id order_shop_id quantity note"},
	}
	for _, c := range cases {
		tbl, err := reader.OpenTable(context.Background(), c.dir, reader.TableOptions{ListOnly: true})
		if err != nil {
			t.Fatalf("%s: %v", c.dir, err)
		}
		var names []string
		for _, f := range tbl.ReadSchema.Fields {
			names = append(names, f.Name)
		}
		if len(tbl.Files) != c.files || strings.Join(names, " ") != c.readFields {
			t.Errorf("%s: %d files, read schema %v; want %d, %s", c.dir, len(tbl.Files), names, c.files, c.readFields)
		}
		if _, err := tbl.Scan(context.Background()); !errors.Is(err, reader.ErrListOnly) {
			t.Errorf("%s: Scan: %v, want ErrListOnly", c.dir, err)
		}
	}
	// Without ListOnly the primary-key table reads merged.
	if _, err := reader.OpenTable(context.Background(), filepath.Join(root, "paimon_orders"), reader.TableOptions{}); err != nil {
		t.Errorf("paimon_orders without ListOnly: %v", err)
	}
}
