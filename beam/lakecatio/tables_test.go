package lakecatio

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/lakecat/lakecat/internal/testutil"
	"github.com/lakecat/lakecat/reader"
	"github.com/lakecat/lakecat/storage"
	"github.com/lakecat/lakecat/table"
)

// tableDirs returns every table folder under root: the folders table.Detect
// recognises, not descending into a table.
func tableDirs(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if _, err := table.Detect(context.Background(), storage.OSFS{}, p); err == nil {
			out = append(out, p)
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReadEveryTable reads every bundled table and every real table in
// ../shared/testdata/real that the reader library reads, all in one
// pipeline, and compares each with the library's rows (those of `lakecat
// cat TABLE`) as multisets. Tables the library refuses as needing a merge
// (a Paimon primary-key table, a Hudi table with log files) must be
// refused by the pipeline with the same error.
func TestReadEveryTable(t *testing.T) {
	dirs := tableDirs(t, filepath.Join(testutil.RepoRoot(t), "testdata"))
	dirs = append(dirs, tableDirs(t, testutil.RealDir(t))...)
	type ref struct {
		loc    string
		rows   []string
		schema *arrow.Schema
	}
	p, s := beam.NewPipelineWithRoot()
	var reads []ref
	var refused []string
	unread := 0
	for _, d := range dirs {
		rows, sch, err := referenceRows(t, d, nil, "")
		switch {
		case errors.Is(err, reader.ErrPrimaryKeyTable) || errors.Is(err, reader.ErrMergeOnRead):
			refused = append(refused, d)
			continue
		case err != nil:
			t.Logf("lakecat does not read %s: %v", d, err)
			unread++
			continue
		}
		reads = append(reads, ref{loc: d, rows: rows, schema: sch})
		collect(s, d, Read(s.Scope(filepath.Base(d)), d))
	}
	if _, err := run(t, p); err != nil {
		t.Fatal(err)
	}
	rowsSeen := 0
	for _, r := range reads {
		got, sch := batchRows(t, sink(r.loc))
		sameRows(t, r.loc, got, r.rows)
		sameSchema(t, r.loc, sch, r.schema)
		rowsSeen += len(got)
	}
	t.Logf("%d tables read (%d rows), %d refused as needing a merge, %d that lakecat does not read", len(reads), rowsSeen, len(refused), unread)
	if len(reads) < 10 {
		t.Errorf("only %d tables read: the walk found too few", len(reads))
	}
	for _, d := range refused {
		t.Run("refused/"+filepath.Base(d), func(t *testing.T) {
			_, _, want := referenceRows(t, d, nil, "")
			p, s := beam.NewPipelineWithRoot()
			collect(s, d, Read(s, d))
			_, err := run(t, p)
			if err == nil {
				t.Fatalf("%s: the pipeline read a table the library refuses", d)
			}
			if !strings.Contains(err.Error(), want.Error()) {
				t.Errorf("%s: pipeline error\n %v\nwant it to contain the library's\n %v", d, err, want)
			}
		})
	}
}
