// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// mergeGaps collects the gaps of the facts, the network and the DNS view
// into one set (the first reason per resource wins).
func mergeGaps(f *model.Facts) model.Gaps {
	all := model.Gaps{}
	for _, g := range []model.Gaps{f.Gaps, networkGaps(f.Network), dnsGaps(f.DNS)} {
		for _, gap := range g.Sorted() {
			all.Add(gap)
		}
	}
	if f.RoleAssignmentsGap != nil {
		all.Add(*f.RoleAssignmentsGap)
	}
	return all
}

func networkGaps(n *model.Network) model.Gaps {
	if n == nil {
		return nil
	}
	return n.Gaps
}

func dnsGaps(d *model.DNS) model.Gaps {
	if d == nil {
		return nil
	}
	return d.Gaps
}

// gapFor returns the gap recorded for id, for a resource it belongs to (a
// subnet is missing because its VNet could not be read), or for a read
// beneath it (a zone's links, a VNet's peerings), and marks it as used.
func (r *run) gapFor(id model.ResourceID) (model.Gap, bool) {
	if id.IsZero() {
		return model.Gap{}, false
	}
	for at := id; !at.IsZero(); at = at.Parent() {
		if gap, ok := r.gaps.Lookup(at); ok {
			r.used[gap.ResourceID.Key()] = true
			return gap, true
		}
	}
	prefix := id.Key() + "/"
	for _, gap := range r.gaps.Sorted() {
		if strings.HasPrefix(gap.ResourceID.Key(), prefix) {
			r.used[gap.ResourceID.Key()] = true
			return gap, true
		}
	}
	return model.Gap{}, false
}

// evidence is the finding for a fact about id that a conclusion needed but
// does not have: the recorded gap for it, or EVIDENCE_NOT_FOUND when id is
// simply not among the facts. what names the fact ("the records of zone
// privatelink.azurecr.io, …").
func (r *run) evidence(pool, endpoint string, id model.ResourceID, what string) model.Finding {
	if gap, ok := r.gapFor(id); ok {
		return gapFinding(gap, pool, endpoint, what)
	}
	// No read of it failed (that would be a gap): nothing was refused.
	return gapFinding(model.UnreadGap(id, ""), pool, endpoint, what)
}

// gapFinding turns a failed read into its evidence finding, in the words
// of pullpath_verification.
func gapFinding(gap model.Gap, pool, endpoint, what string) model.Finding {
	return pullPathWords.gapFinding(gap, pool, endpoint, what)
}

// evidenceWords are what an evidence finding says besides the gap itself,
// which depends on the data source reporting it: pullpath_verification
// speaks of the pull path and of verifying from a snapshot;
// pullpath_node_routes of the network path. Both name the resource (or
// the listing or action that failed) by model.ResourceID.Label.
type evidenceWords struct {
	snapshot  string // what is done from a snapshot: "verify", "read"
	path      string // "pull path", "network path"
	referrers string // what else breaks when the resource was deleted
	again     string // how to retry
}

var (
	pullPathWords = evidenceWords{snapshot: "verify", path: "pull path",
		referrers: "whatever referred to it (a link, a peering, a route)", again: "Run the plan again"}
	networkPathWords = evidenceWords{snapshot: "read", path: "network path",
		referrers: "whatever refers to it (a subnet, a peering, a route)", again: "Plan again"}
)

// gapFinding is the EVIDENCE_* finding of a failed read: which resource,
// why (with the RBAC action a refused read needs), and that the conclusion
// that depends on it (what) is unverified.
func (w evidenceWords) gapFinding(gap model.Gap, pool, endpoint, what string) model.Finding {
	label := gap.ResourceID.Label()
	detail := gap.Detail
	if detail != "" {
		detail = " (" + detail + ")"
	}
	unverified := fmt.Sprintf("The conclusion%s depends on %s, so it is unverified, never reachable.", forWhom(pool, endpoint), what)
	switch gap.Kind {
	case model.GapPlannedUnknown:
		return plannedUnknownFinding(gap, label, pool, endpoint, what)
	case model.GapPermissionDenied:
		perm := gap.Permission
		if perm == "" {
			perm = "the read permission for it"
		}
		if gap.Snapshot {
			msg := fmt.Sprintf("The snapshot records that reading %s (%s) was refused%s: the identity that recorded it lacks %s. %s", label, gap.ResourceID, detail, perm, unverified)
			fix := fmt.Sprintf("Record the snapshot again (record_file) with an identity that holds %s on %s (the built-in Reader role includes it). Nothing on the %s needs to change for this finding.", perm, gap.ResourceID, w.path)
			return model.NewFinding(model.EvidencePermissionDenied, pool, endpoint, gap.ResourceID, msg, fix)
		}
		msg := fmt.Sprintf("Reading %s (%s) was refused%s: the identity running the plan lacks %s. %s", label, gap.ResourceID, detail, perm, unverified)
		fix := fmt.Sprintf("Grant the identity that runs the plan %s on %s (the built-in Reader role includes it), or %s from a snapshot recorded by an identity that has it. Nothing on the %s needs to change for this finding.", perm, gap.ResourceID, w.snapshot, w.path)
		return model.NewFinding(model.EvidencePermissionDenied, pool, endpoint, gap.ResourceID, msg, fix)
	case model.GapNotFound:
		if gap.NotRead {
			return w.unreadFinding(gap, label, detail, pool, endpoint, unverified)
		}
		if gap.Snapshot {
			msg := fmt.Sprintf("The snapshot has no %s (%s)%s. %s", label, gap.ResourceID, detail, unverified)
			fix := "Check that the id is right; if the resource exists, record the snapshot again (record_file) with it, or add it to the snapshot. If it was deleted, " + w.referrers + " is broken as well."
			return model.NewFinding(model.EvidenceNotFound, pool, endpoint, gap.ResourceID, msg, fix)
		}
		msg := fmt.Sprintf("%s (%s) was not found%s: it does not exist or is not visible to the identity running the plan. %s", capitalize(label), gap.ResourceID, detail, unverified)
		fix := "Check that the resource exists and that its id is right; if it lives in another subscription, give the identity that runs the plan Reader there. If it was deleted, " + w.referrers + " is broken as well."
		return model.NewFinding(model.EvidenceNotFound, pool, endpoint, gap.ResourceID, msg, fix)
	case model.GapUnreachable:
		msg := fmt.Sprintf("Reading %s (%s) got no answer%s. %s", label, gap.ResourceID, detail, unverified)
		fix := "Check that the machine running the plan reaches Azure Resource Manager over HTTPS: its DNS, the proxy settings (HTTPS_PROXY, NO_PROXY) and a firewall on the way. Credentials are irrelevant here, and nothing on the " + w.path + " needs to change for this finding."
		return model.NewFinding(model.EvidenceUnavailable, pool, endpoint, gap.ResourceID, msg, fix)
	case model.GapUnavailable:
		if gap.Remediation != "" {
			msg := fmt.Sprintf("%s (%s) was read, but %s. %s", capitalize(label), gap.ResourceID, gap.Detail, unverified)
			return model.NewFinding(model.EvidenceUnavailable, pool, endpoint, gap.ResourceID, msg, gap.Remediation)
		}
		fallthrough
	default:
		msg := fmt.Sprintf("Reading %s (%s) kept failing after retries%s. %s", label, gap.ResourceID, detail, unverified)
		fix := w.again + "; if the failure persists, check Azure service health and Resource Manager throttling for the subscription. Nothing on the " + w.path + " needs to change for this finding."
		return model.NewFinding(model.EvidenceUnavailable, pool, endpoint, gap.ResourceID, msg, fix)
	}
}

// unreadFinding is the EVIDENCE_NOT_FOUND of a resource no read of which
// failed (model.Gap.NotRead): it is not among the facts because it was
// not read, so nothing was refused and no permission is asked for.
func (w evidenceWords) unreadFinding(gap model.Gap, label, detail, pool, endpoint, unverified string) model.Finding {
	msg := fmt.Sprintf("%s (%s) was not read%s; no read of it was refused or answered \"not found\", so whether it exists and what it holds is unknown. %s", capitalize(label), gap.ResourceID, detail, unverified)
	fix := gap.Remediation
	if fix == "" {
		fix = "No permission is missing: nothing was refused. Check in Azure that the resource exists and is what the " + w.path + " needs (the message says what is unknown for want of it); if it was deleted, " + w.referrers + " is broken as well."
	}
	return model.NewFinding(model.EvidenceNotFound, pool, endpoint, gap.ResourceID, msg, fix)
}

// zoneSearchEvidence: some subscription's private DNS zones could not be
// listed, so a zone that would answer may exist unseen.
func (r *run) zoneSearchEvidence(pc *poolCtx, h model.PullHost) []model.Finding {
	what := "the complete list of private DNS zones"
	var out []model.Finding
	for _, gap := range dnsGaps(r.f.DNS).Sorted() {
		r.used[gap.ResourceID.Key()] = true
		out = append(out, gapFinding(gap, pc.pool.Name, h.Name, what))
	}
	if len(out) == 0 {
		msg := fmt.Sprintf("The private DNS zones of some subscription could not be listed, so a zone that answers %s for %s may exist unseen; its resolution is unverified.", h.Name, pc.pool.Name)
		fix := "Grant the identity that runs the plan Microsoft.Network/privateDnsZones/read in every subscription that holds private DNS zones (pass them in zone_subscription_ids), then plan again."
		out = append(out, model.NewFinding(model.EvidenceUnavailable, pc.pool.Name, h.Name, "", msg, fix))
	}
	return out
}

// settleSpeculativeReads marks the gaps of speculative reads, and of reads
// beneath them (a firewall policy's rule collection groups), as consumed:
// gather read them before anyone knew whether a flow would need them (the
// public IPs of every way out a public flow might take, the Azure Firewall
// a route for public addresses points to), and a failure that no
// conclusion used changes nothing.
func (r *run) settleSpeculativeReads() {
	for _, id := range r.f.Network.SpeculativeReads {
		if id.IsZero() {
			continue
		}
		prefix := id.Key() + "/"
		for _, gap := range r.gaps.Sorted() {
			if k := gap.ResourceID.Key(); k == id.Key() || strings.HasPrefix(k, prefix) {
				r.used[k] = true
			}
		}
	}
}

// unusedGapFindings reports the gaps no rule consumed, once each and
// without a pool: gather records a gap only for a read the pull path
// needed, so a missing fact never silently counts as reachable.
func (r *run) unusedGapFindings() []model.Finding {
	var out []model.Finding
	for _, gap := range r.gaps.Sorted() {
		switch {
		case r.used[gap.ResourceID.Key()]:
		case r.f.DNS != nil && !r.f.DNS.LinkSearch.Query.IsZero() && gap.ResourceID.Equal(r.f.DNS.LinkSearch.Query):
			out = append(out, r.linkSearchGapFinding(gap, "", "", "", ""))
		default:
			out = append(out, gapFinding(gap, "", "", "this fact, which the pull path needs"))
		}
	}
	return out
}

func forWhom(pool, endpoint string) string {
	switch {
	case pool != "" && endpoint != "":
		return fmt.Sprintf(" for node pool %s and %s", pool, endpoint)
	case pool != "":
		return " for node pool " + pool
	case endpoint != "":
		return " for " + endpoint
	default:
		return ""
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// plannedUnknownFinding is COVERAGE_PLANNED_VALUE_UNKNOWN: the plan of
// planned_changes_file sets a value the conclusion depends on that is known
// only after apply (Gap.Detail names it, Gap.Planned the change).
func plannedUnknownFinding(gap model.Gap, label, pool, endpoint, what string) model.Finding {
	change := gap.Planned
	if change == "" {
		change = "a planned change"
	}
	msg := fmt.Sprintf("After the planned changes, %s (%s) depends on a value known only after apply: %s. The conclusion%s depends on %s, so it is unverified, never reachable.",
		label, gap.ResourceID, gap.Detail, forWhom(pool, endpoint), what)
	fix := fmt.Sprintf("Nothing is wrong yet. Verify again after %s is applied (the value is then known), or give the value literally in the configuration "+
		"instead of from a resource created in the same plan (for example a private endpoint's address), so the plan shows it. "+
		"Granting permissions or refreshing the plan file will not help: the value does not exist before apply.", change)
	f := model.NewFinding(model.CoveragePlannedUnknown, pool, endpoint, gap.ResourceID, msg, fix)
	f.PlannedChange = gap.Planned
	return f
}

// planNotAppliedFinding is COVERAGE_PLANNED_CHANGE_UNSUPPORTED: the planned
// changes read as they are now, listed with why.
func planNotAppliedFinding(ps []model.PlannedProblem) model.Finding {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.Address
		if p.Reason != "" {
			parts[i] += " (" + p.Reason + ")"
		}
	}
	msg := fmt.Sprintf("The plan in planned_changes_file changes %d resource(s) the provider does not apply to what it reads: %s. "+
		"They are read as they are now, so whatever the plan does to them is not part of this verification.", len(ps), strings.Join(parts, "; "))
	fix := "If these resources cannot affect the pull path (a storage account, a tag), nothing to do. If they can, verify again after apply, " +
		"or express the change with a translated resource type (the azurerm types of the pull path, or azapi_resource with its ARM body). " +
		"Re-running the plan will not help: these changes are read as they are now every time."
	return model.NewFinding(model.CoveragePlannedUnsupported, "", "", "", msg, fix)
}

// planOffPathFinding: the plan changes Azure resources, and no read of the
// verification met one of them, so the verdict is Azure's as it is now.
// When the plan's subscriptions and the verification's have nothing in
// common, the plan file is probably the wrong one, and the message says so.
func planOffPathFinding(p model.PlanOffPath) model.Finding {
	switch p.NoChanges {
	case "empty":
		return model.NewFinding(model.CoveragePlannedOffPath, "", "", "",
			"The plan in planned_changes_file changes no resource (Terraform found nothing to do): the verdict is the one of Azure as it is now.",
			"Nothing to do when the network configuration has no pending change. If this pull request changes the network, check that planned_changes_file is the JSON of its saved plan (terraform show -json tfplan), not of another run.")
	case "refresh-only":
		return model.NewFinding(model.CoveragePlannedOffPath, "", "", "",
			"The plan in planned_changes_file changes no resource: it only records what changed outside Terraform (a refresh-only plan, or a plan whose configuration already matches that drift), so the verdict is the one of Azure as it is now.",
			"To check a network change, give the JSON of a normal plan (terraform plan -out tfplan, without -refresh-only; then terraform show -json tfplan).")
	}
	msg := fmt.Sprintf("None of the %d Azure resource change(s) of the plan in planned_changes_file is on these pull paths: "+
		"no read of this verification met one of them, so the verdict is the one of Azure as it is now.", p.Changes)
	fix := "Nothing to do when the plan is about other resources."
	if len(p.PlanSubscriptions) > 0 && len(p.ReadSubscriptions) > 0 && !sharesAny(p.PlanSubscriptions, p.ReadSubscriptions) {
		msg += fmt.Sprintf(" The plan changes resources in subscription(s) %s only; this verification read subscription(s) %s.",
			strings.Join(p.PlanSubscriptions, ", "), strings.Join(p.ReadSubscriptions, ", "))
		fix = "Check that planned_changes_file is the saved plan (terraform show -json tfplan) of the configuration that owns this cluster's network, " +
			"and that its azurerm provider targets the subscription of that network."
	}
	return model.NewFinding(model.CoveragePlannedOffPath, "", "", "", msg, fix)
}

// sharesAny reports whether a and b have a subscription id in common
// (case-insensitively).
func sharesAny(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if strings.EqualFold(x, y) {
				return true
			}
		}
	}
	return false
}

// planDriftFindings: a pool whose effective routes disagreed with its
// computed routes before the planned changes, and whose routes are computed
// after them, gets COVERAGE_PLANNED_VALUE_UNKNOWN on every path: what Azure
// will program after apply is unknown, and the computation is known to miss
// something it programs now.
func (r *run) planDriftFindings() []model.Finding {
	if len(r.f.PlanDrift) == 0 {
		return nil
	}
	var out []model.Finding
	for i, p := range r.paths {
		drift, drifted := r.f.PlanDrift[p.NodePool]
		if !drifted || p.RouteSource != RouteSourceComputed {
			continue
		}
		if p.Verdict == model.Reachable {
			r.paths[i].Verdict = model.Unverified
		}
		if drift.Gap != nil {
			r.used[drift.Gap.ResourceID.Key()] = true
			out = append(out, gapFinding(*drift.Gap, p.NodePool, p.Host, "the effective routes of node pool "+p.NodePool+
				" before the planned changes, which say whether its routes computed after them can be trusted"))
			r.pathFindings[i] = append(r.pathFindings[i], out[len(out)-1])
			continue
		}
		why := drift.Why
		msg := fmt.Sprintf("Node pool %s → %s: after the planned changes its routes are computed from configuration, because the effective route table Azure has describes the network before them; but before the plan the effective routes disagreed with the computed ones (%s). What Azure will program for %s after apply is unknown, so the path is unverified, never reachable.",
			p.NodePool, p.Host, why, p.Host)
		fix := "Explain the drift first (see COVERAGE_MODEL_DRIFT without planned_changes_file: routes learned over BGP, a change still propagating), or verify again after apply, when the effective route table describes the planned network. Granting permissions will not help."
		out = append(out, model.NewFinding(model.CoveragePlannedUnknown, p.NodePool, p.Host, "", msg, fix))
		r.pathFindings[i] = append(r.pathFindings[i], out[len(out)-1])
	}
	return out
}
