// Package benchutil holds what the benchmarks of several packages share.
//
// Benchmarks report work per CPU second as well as per wall second: on a
// shared, loaded machine wall time also measures the other processes, while
// the CPU time this process used is close to what an idle machine shows.
package benchutil

import (
	"testing"
	"time"
)

// Clock measures the CPU time of a benchmark loop; start it after setup.
type Clock struct{ cpu0 time.Duration }

// Start begins measuring.
func Start() Clock { return Clock{cpu0: ProcessCPUTime()} }

// ReportRate reports b.N units per wall second and per CPU second.
func (c Clock) ReportRate(b *testing.B, unit string) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), unit+"/s")
	if cpu := ProcessCPUTime() - c.cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), unit+"/cpu-s")
	}
}

// ReportCPUPerOp reports the CPU milliseconds one operation took. It
// includes the garbage collector's background work, so on an idle machine
// it is at least the wall ns/op.
func (c Clock) ReportCPUPerOp(b *testing.B) {
	if cpu := ProcessCPUTime() - c.cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}
