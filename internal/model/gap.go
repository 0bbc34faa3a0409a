package model

import "sort"

// GapKind says why a fact is missing.
type GapKind string

const (
	// GapPermissionDenied: the read was refused (403).
	GapPermissionDenied GapKind = "permission_denied"
	// GapNotFound: the resource does not exist or is not visible (404).
	GapNotFound GapKind = "not_found"
	// GapUnavailable: the read kept failing (5xx, throttling, timeout).
	GapUnavailable GapKind = "unavailable"
	// GapUnreachable: the read got no answer: the network between the
	// provider and Azure Resource Manager failed (DNS, connection, TLS or
	// proxy). Detail says which host and why.
	GapUnreachable GapKind = "unreachable"
	// GapPlannedUnknown: a planned change (planned_changes_file) sets a
	// value of the resource that is known only after apply.
	GapPlannedUnknown GapKind = "planned_unknown"
)

// Gap is a read that failed: the evidence that a conclusion lacks.
type Gap struct {
	ResourceID ResourceID
	Kind       GapKind
	// Permission is the action string a 403 needs, e.g.
	// Microsoft.Network/virtualNetworks/read.
	Permission string
	// Detail is the error Azure gave, for the message.
	Detail string
	// Snapshot: the answer came from snapshot_file (the snapshot has no
	// such resource, or records the refusal), not from Azure.
	Snapshot bool
	// Planned is the address of the planned change behind a
	// GapPlannedUnknown (several: ", "-joined).
	Planned string
	// Remediation, when set, marks a gap that is no failed read: the
	// resource was read, but what it shows (Detail) leaves the routes
	// unknown, and Remediation says what the user can do about it (a
	// GapUnavailable, reported as EVIDENCE_UNAVAILABLE with these words
	// instead of a retry).
	Remediation string
	// NotRead marks a GapNotFound that no request stands behind: the
	// resource is not among the facts and no read of it failed (the
	// provider did not read it on this path, or could not: a Virtual WAN
	// hub's VNet is Microsoft's). Nothing was refused, so its finding
	// never asks for a permission.
	NotRead bool
}

// UnreadGap is the gap of a resource a conclusion needs that is not among
// the facts although no read of it failed: detail says what is unknown
// for want of it.
func UnreadGap(id ResourceID, detail string) Gap {
	return Gap{ResourceID: id, Kind: GapNotFound, Detail: detail, NotRead: true}
}

// Gaps are the failed reads, keyed by resource id key.
type Gaps map[string]Gap

// Add records a gap (the first reason for an id wins).
func (g Gaps) Add(gap Gap) {
	if _, ok := g[gap.ResourceID.Key()]; !ok {
		g[gap.ResourceID.Key()] = gap
	}
}

// Lookup returns the gap for an id.
func (g Gaps) Lookup(id ResourceID) (Gap, bool) {
	return lookupKey(g, id)
}

// Sorted returns the gaps ordered by id, for deterministic output.
func (g Gaps) Sorted() []Gap {
	out := make([]Gap, 0, len(g))
	for _, gap := range g {
		out = append(out, gap)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ResourceID.Key() < out[j].ResourceID.Key() })
	return out
}
