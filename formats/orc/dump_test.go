package orc

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestDump prints the schema and rows of the files in ORC_DUMP (a
// colon-separated list); a debugging aid, skipped without it.
func TestDump(t *testing.T) {
	env := os.Getenv("ORC_DUMP")
	if env == "" {
		t.Skip("set ORC_DUMP to a colon-separated list of ORC files")
	}
	for _, p := range strings.Split(env, ":") {
		f := openFile(t, p)
		fmt.Printf("== %s rows=%d version=%s comp=%s\n%s\n", p, f.NumRows(), f.Version(), f.Compression(), f.Schema())
		for i, ty := range f.tail.footer.types {
			fmt.Printf("  type %d %s attrs=%v\n", i, kindName(ty.kind), ty.attrs)
		}
		br, err := f.NewBatchReader(nil, BatchOptions{Allocator: memory.NewGoAllocator()})
		if err != nil {
			t.Fatal(err)
		}
		for {
			rec, err := br.Next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			for c := 0; c < int(rec.NumCols()); c++ {
				fmt.Printf("  %s: %v\n", rec.ColumnName(c), rec.Column(c))
			}
			rec.Release()
		}
	}
}
