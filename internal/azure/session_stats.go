// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package azure

// ReplayStats reports, in snapshot mode, the requests the snapshot replay
// answered and how many distinct method+path pairs they were (a duplicate
// request shows as requests > distinct). ok is false outside snapshot mode.
func (s *Session) ReplayStats() (requests, distinct int, ok bool) {
	if s == nil || s.replay == nil {
		return 0, 0, false
	}
	requests, distinct = s.replay.Stats()
	return requests, distinct, true
}

// ReplayRequested returns, in snapshot mode, the distinct requests the
// replay answered so far ("METHOD /path", lower-case path), sorted; nil
// outside snapshot mode.
func (s *Session) ReplayRequested() []string {
	if s == nil || s.replay == nil {
		return nil
	}
	return s.replay.Requested()
}
