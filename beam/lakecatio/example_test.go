package lakecatio_test

import (
	"bytes"
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"

	"github.com/lakecat/lakecat/beam/lakecatio"
)

func init() {
	register.Function2x1[[]byte, func(int64), error](batchRows)
	register.Function1x0[int64](printRows)
	register.Emitter1[int64]()
}

// batchRows emits the number of rows of one element of lakecatio.Read.
func batchRows(b []byte, emit func(int64)) error {
	r, err := ipc.NewReader(bytes.NewReader(b))
	if err != nil {
		return err
	}
	defer r.Release()
	for r.Next() {
		emit(r.RecordBatch().NumRows())
	}
	return r.Err()
}

func printRows(n int64) { fmt.Println("rows:", n) }

// Read the bundled orders table (an Iceberg table whose schema evolved
// twice) on Prism and count its rows where price > 2.
func ExampleRead() {
	p, s := beam.NewPipelineWithRoot()
	batches := lakecatio.Read(s, "../../testdata/orders", lakecatio.Where("price > 2"))
	rows := stats.Sum(s, beam.ParDo(s, batchRows, batches))
	beam.ParDo0(s, printRows, rows)
	if _, err := prism.Execute(context.Background(), p); err != nil {
		fmt.Println(err)
	}
	// Output: rows: 3
}
