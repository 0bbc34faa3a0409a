// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
)

// Measurement hooks for scripts/bench.sh, off unless their environment
// variable is set; they are not part of the provider's schema.

// envMaxConcurrentReads bounds the ARM requests one data source read has in
// flight (gather.Reader.SetConcurrency); unset or invalid means
// gather.DefaultConcurrency.
const envMaxConcurrentReads = "PULLPATH_MAX_CONCURRENT_READS"

// envBenchStatsFile names a file that, in snapshot mode, receives after
// every data source read one JSON line with the replay's request counts:
// {"pid":…,"requests":…,"distinct":…}.
const envBenchStatsFile = "PULLPATH_BENCH_STATS_FILE"

// readConcurrency is the request bound of a data source read.
func readConcurrency() int {
	if n, err := strconv.Atoi(strings.TrimSpace(os.Getenv(envMaxConcurrentReads))); err == nil && n >= 1 {
		return n
	}
	return gather.DefaultConcurrency
}

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
