// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"os"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
)

// Measurement hook for scripts/bench.sh, off unless its environment
// variable is set; it is not part of the provider's schema.

// envBenchStatsFile names a file that, in snapshot mode, receives after
// every data source read one JSON line with the replay's request counts:
// {"pid":…,"requests":…,"distinct":…}.
const envBenchStatsFile = "PULLPATH_BENCH_STATS_FILE"

// writeBenchStats appends the replay's counts to the bench stats file, if
// one is named and the session replays a snapshot. Errors are ignored: the
// file is a measurement aid, never a reason to fail a read.
func writeBenchStats(s *azure.Session) {
	path := os.Getenv(envBenchStatsFile)
	if path == "" {
		return
	}
	requests, distinct, ok := s.ReplayStats()
	if !ok {
		return
	}
	line, _ := json.Marshal(map[string]int{"pid": os.Getpid(), "requests": requests, "distinct": distinct})
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return
	}
	_, _ = f.Write(append(line, '\n'))
	_ = f.Close()
}
