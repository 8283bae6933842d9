// Command partitioncount counts the rows of a lakecat table per partition
// (or per value of any column) with Apache Beam: lakecatio.Read plans the
// table and reads its tasks on the workers, a DoFn counts the rows of each
// Arrow record batch per key, and stats.SumPerKey adds the counts up.
//
// On Prism, Beam's local portable runner, from the repository root:
//
//	go run -C beam ./examples/partitioncount --runner=prism --table=../testdata/orders
//	go run -C beam ./examples/partitioncount --runner=prism --table=../testdata/orders --by=channel
//
// On a portable job server (Flink, Spark) or Dataflow, see the README's
// "Scale out" section; the table must then be at a URL the workers reach
// (s3://, gs://, azblob://).
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"log"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/lakecat/lakecat/beam/lakecatio"
)

var (
	tableFlag  = flag.String("table", "", "table folder or URL (s3://, gs://, azblob://, file://)")
	byFlag     = flag.String("by", "_partition", "column to count rows by (default: the partition values)")
	whereFlag  = flag.String("where", "", "count only rows matching this filter (the syntax of lakecat cat --where)")
	outputFlag = flag.String("output", "", "write the counts to this file prefix (textio) instead of stdout")
)

func init() {
	register.DoFn2x1[[]byte, func(string, int64), error](&countFn{})
	register.Emitter2[string, int64]()
	register.Function2x1[string, int64, string](format)
	register.DoFn1x0[string](&printFn{})
}

// countFn emits, for each batch, the number of its rows per value of the
// column Column.
type countFn struct{ Column string }

func (fn *countFn) ProcessElement(b []byte, emit func(string, int64)) error {
	r, err := ipc.NewReader(bytes.NewReader(b))
	if err != nil {
		return err
	}
	defer r.Release()
	for r.Next() {
		// A read of metadata columns alone reads the table's columns too.
		idx := r.Schema().FieldIndices(fn.Column)
		if len(idx) == 0 {
			return fmt.Errorf("partitioncount: no column %q in %s", fn.Column, r.Schema())
		}
		col := r.RecordBatch().Column(idx[0])
		counts := map[string]int64{}
		for i := 0; i < col.Len(); i++ {
			counts[col.ValueStr(i)]++
		}
		for k, n := range counts {
			emit(k, n)
		}
	}
	return r.Err()
}

func format(key string, n int64) string { return fmt.Sprintf("%s\t%d", key, n) }

// printFn prints each line on the worker's standard output (with Prism,
// this process's).
type printFn struct{}

func (fn *printFn) ProcessElement(line string) { fmt.Println(line) }

func main() {
	flag.Parse()
	beam.Init()
	if *tableFlag == "" {
		log.Fatal("partitioncount: --table is required")
	}
	p, s := beam.NewPipelineWithRoot()
	opts := []lakecatio.Option{lakecatio.Columns(*byFlag)}
	if *whereFlag != "" {
		opts = append(opts, lakecatio.Where(*whereFlag))
	}
	batches := lakecatio.Read(s, *tableFlag, opts...)
	counts := stats.SumPerKey(s, beam.ParDo(s, &countFn{Column: *byFlag}, batches))
	lines := beam.ParDo(s, format, counts)
	if *outputFlag != "" {
		textio.Write(s, *outputFlag, lines)
	} else {
		beam.ParDo0(s, &printFn{}, lines)
	}
	if err := beamx.Run(context.Background(), p); err != nil {
		log.Fatalf("partitioncount: %v", err)
	}
}
