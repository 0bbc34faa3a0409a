//go:build unix

package benchutil

import (
	"syscall"
	"time"
)

// ProcessCPUTime is the CPU time this process has used (user + system).
func ProcessCPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
