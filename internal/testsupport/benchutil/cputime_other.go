//go:build !unix

package benchutil

import "time"

// ProcessCPUTime is not measured on this platform.
func ProcessCPUTime() time.Duration { return 0 }
