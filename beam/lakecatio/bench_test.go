package lakecatio

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/lakecat/lakecat/reader"
)

// benchTable writes the 200-file table once, under $LAKECAT_BEAM_BENCH_DIR
// (default: the temporary folder), so that `lakecat cat` can read it too.
func benchTable(b *testing.B) (string, uint64) {
	dir := os.Getenv("LAKECAT_BEAM_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "lakecat-beam-bench")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "metadata")); err == nil {
		return dir, 0
	}
	d, sum, _ := writeBigTable(b, dir, 200, 50000)
	return d, sum
}

// BenchmarkPrismRead is the Prism pipeline over the 200-file table: Read
// and a DoFn decoding each element and summing its ids.
func BenchmarkPrismRead(b *testing.B) {
	dir, _ := benchTable(b)
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		p, s := beam.NewPipelineWithRoot()
		beam.ParDo0(s, &checksumFn{Key: "bench"}, Read(s, dir))
		if _, err := prismRun(p); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(200*50000*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkLibraryScan is the library's scan of the same table (what
// `lakecat cat` runs before printing) with 2 workers, encoding each batch
// as Read does.
func BenchmarkLibraryScan(b *testing.B) {
	dir, _ := benchTable(b)
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		t, err := reader.OpenTable(context.Background(), dir, reader.TableOptions{Workers: 2})
		if err != nil {
			b.Fatal(err)
		}
		rr, err := t.Scan(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		for rr.Next() {
			if err := encodeBatches(rr.RecordBatch(), DefaultMaxBatchBytes, func([]byte) error { return nil }); err != nil {
				b.Fatal(err)
			}
		}
		if err := rr.Err(); err != nil {
			b.Fatal(err)
		}
		rr.Release()
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(200*50000*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// cpuTime is the CPU time (user and system) the process has used: the
// Prism runner runs in the benchmark's process, so a pipeline's CPU time
// is all in it.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU seconds per run since start (cpu-s/op) and the
// rows per CPU second (rows/cpu-s).
func reportCPU(b *testing.B, start time.Duration) {
	d := (cpuTime() - start).Seconds()
	b.ReportMetric(d/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(200*50000*b.N)/d, "rows/cpu-s")
}
