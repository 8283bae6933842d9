package reader_test

import (
	"context"
	"errors"
	"testing"

	"github.com/lakecat/lakecat"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/schema"
)

// TestTableColumnsDuplicate: TableOptions.Columns naming a column twice
// (a data column, or a metadata column) is refused by OpenTable with an
// error of class ErrInvalidArgument naming it.
func TestTableColumnsDuplicate(t *testing.T) {
	for _, c := range []struct {
		cols []string
		want string
	}{
		{[]string{"id", "id"}, `schema: column selected twice: "id"`},
		{[]string{"_pos", "id", "_pos"}, `schema: column selected twice: "_pos"`},
	} {
		tbl, err := reader.OpenTable(context.Background(), deletesDir+"pos_rowgroups", reader.TableOptions{Columns: c.cols})
		if tbl != nil || !errors.Is(err, schema.ErrDuplicateColumn) || lakecat.ClassOf(err) != lakecat.ErrInvalidArgument || err.Error() != c.want {
			t.Errorf("Columns %q: %v, %v; want %s", c.cols, tbl, err, c.want)
		}
	}
}
