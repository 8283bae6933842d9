//go:build !unix

package orc

// cpuTime is 0 where getrusage is missing: the benchmarks report no CPU
// time there.
func cpuTime() int64 { return 0 }
