// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package firewall

// match is a three-valued answer: does a rule (or one of its conditions)
// match the flow.
type match int

const (
	no match = iota
	yes
	unknown
)

func (m match) String() string {
	switch m {
	case yes:
		return "yes"
	case no:
		return "no"
	default:
		return "unknown"
	}
}

func boolMatch(b bool) match {
	if b {
		return yes
	}
	return no
}

// and is the conjunction: no wins, then unknown.
func and(ms ...match) match {
	out := yes
	for _, m := range ms {
		switch m {
		case no:
			return no
		case unknown:
			out = unknown
		}
	}
	return out
}

// or is the disjunction: yes wins, then unknown.
func or(ms ...match) match {
	out := no
	for _, m := range ms {
		switch m {
		case yes:
			return yes
		case unknown:
			out = unknown
		}
	}
	return out
}
