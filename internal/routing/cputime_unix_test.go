//go:build unix

package routing

import (
	"syscall"
	"time"
)

// processCPUTime is the CPU time this process has used. Benchmarks report
// throughput per CPU second as well as per wall second, because wall time
// on a shared, loaded machine measures the other processes.
func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
