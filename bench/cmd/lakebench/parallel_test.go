package main

import (
	"testing"
	"time"
)

// TestParallelRows pairs W=1 and W=2 variants by codec and name and gives
// per-round ratios: least and median, wall and CPU, and CPU ns/row.
func TestParallelRows(t *testing.T) {
	ms := func(xs ...int) []time.Duration {
		out := make([]time.Duration, len(xs))
		for i, x := range xs {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	vs := []*variant{
		{name: "lakecat/rowgroups/1", codec: "zstd", rows: 1000, times: ms(100, 200, 100), cpu: ms(100, 100, 100), heap: []uint64{1e6, 3e6, 2e6}},
		{name: "lakecat/rowgroups/2", codec: "zstd", rows: 1000, times: ms(50, 60, 80), cpu: ms(110, 100, 130), heap: []uint64{4e6, 4e6, 4e6}},
		{name: "lakecat/plain", codec: "zstd", rows: 1000, times: ms(1), cpu: ms(1)},
		{name: "lakecat/files/1", codec: "zstd", rows: 1000, times: ms(1), cpu: ms(1)}, // no W=2: no row
	}
	rows := parallelRows(vs)
	if len(rows) != 1 {
		t.Fatalf("%d rows, want 1: %+v", len(rows), rows)
	}
	r := rows[0]
	want := parallelRow{name: "lakecat/rowgroups", codec: "zstd",
		ratioMin: 0.3, ratioMed: 0.5, // 0.5, 0.3, 0.8
		cpu1Min: 100_000, cpu1Med: 100_000, cpu2Min: 100_000, cpu2Med: 110_000,
		wall1Min: 100, wall2Min: 50, wall1Med: 100, wall2Med: 60,
		cpuRatioMin: 1.0, cpuRatioMed: 1.1, heap1: 2, heap2: 4}
	near := func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
	if r.name != want.name || r.codec != want.codec || !near(r.ratioMin, want.ratioMin) || !near(r.ratioMed, want.ratioMed) ||
		!near(r.cpu1Min, want.cpu1Min) || !near(r.cpu1Med, want.cpu1Med) || !near(r.cpu2Min, want.cpu2Min) || !near(r.cpu2Med, want.cpu2Med) ||
		!near(r.wall1Min, want.wall1Min) || !near(r.wall2Min, want.wall2Min) || !near(r.wall1Med, want.wall1Med) || !near(r.wall2Med, want.wall2Med) ||
		!near(r.cpuRatioMin, want.cpuRatioMin) || !near(r.cpuRatioMed, want.cpuRatioMed) || !near(r.heap1, want.heap1) || !near(r.heap2, want.heap2) {
		t.Errorf("got  %+v\nwant %+v", r, want)
	}
}
