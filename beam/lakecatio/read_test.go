package lakecatio

import (
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/lakecat/lakecat/internal/testutil"
)

func TestReadBundledOrders(t *testing.T) {
	loc := filepath.Join(testutil.RepoRoot(t), "testdata", "orders")
	want, wantSchema, err := referenceRows(t, loc, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	p, s := beam.NewPipelineWithRoot()
	collect(s, t.Name(), Read(s, loc))
	counters, err := run(t, p)
	if err != nil {
		t.Fatal(err)
	}
	got, sch := batchRows(t, sink(t.Name()))
	sameRows(t, loc, got, want)
	sameSchema(t, loc, sch, wantSchema)
	t.Logf("%d rows; counters %v", len(got), counters)
}
