// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Any private DNS zone, in any subscription, can be linked to a VNet, and
// only the zone shows the link (docs/design/azure-behaviour.md D7). So "no
// zone linked to the VNet holds the name" is a conclusion only when the
// search for zones linked to that VNet covered every subscription: Azure
// Resource Graph answered for it (gather.ZonesLinkedTo). Otherwise a zone
// in a subscription that was not searched may answer, and the lookup is
// unknown, never "not linked".

// zoneSearchUnknown decides, for a lookup from vnetID that found no linked
// zone holding name (a name public DNS sends to its privatelink alias, or
// a declared host without an address), whether that absence is known. It
// returns the evidence findings when it is not:
//
//   - a zone Resource Graph found linked, named like name or a parent of
//     it, could not be read: its gap;
//   - the Resource Graph query failed: its gap;
//   - the configuration named the zone subscriptions instead
//     (zone_subscription_ids) and no zone holding name was found in
//     them: EVIDENCE_NOT_FOUND. A zone found there that holds the name but
//     is not linked is the zone the configuration points at: DNS_ZONE_NOT_LINKED
//     stands.
//
// Without a query and without named subscriptions (no private answer was
// possible when the facts were gathered) the subscriptions searched decide,
// as they did before Resource Graph.
func (r *run) zoneSearchUnknown(pc *poolCtx, h model.PullHost, vnetID model.ResourceID, name string) ([]model.Finding, bool) {
	s := r.f.DNS.LinkSearch
	var unread []model.Finding
	for _, id := range s.Unread {
		// A zone linked to some node VNet that could not be read may hold
		// name: whatever the search covered, the answer is unknown.
		if zn := strings.ToLower(id.Name()); name == zn || strings.HasSuffix(name, "."+zn) {
			unread = append(unread, r.evidence(pc.pool.Name, h.Name, id,
				fmt.Sprintf("private DNS zone %s, which Azure Resource Graph shows linked to a VNet the nodes resolve from and which may hold %s", id.Name(), name)))
		}
	}
	if len(unread) > 0 {
		return unread, true
	}
	switch {
	case s.CoveredEverywhere(vnetID):
		return nil, false
	case !s.Query.IsZero():
		if gap, ok := r.gapFor(s.Query); ok {
			return []model.Finding{r.linkSearchGapFinding(gap, pc.pool.Name, h.Name, vnetID, name)}, true
		}
		return nil, false
	case s.Declared && r.zoneHolding(name) == nil:
		return []model.Finding{r.zoneNotFoundFinding(pc, h, vnetID, name)}, true
	}
	return nil, false
}

// linkSearchGapFinding is the evidence finding of a Resource Graph query
// that failed: which zones other subscriptions link to the VNet is unknown.
// Its code follows the failure (EVIDENCE_PERMISSION_DENIED, _NOT_FOUND,
// _UNAVAILABLE), as for any read.
func (r *run) linkSearchGapFinding(gap model.Gap, pool, host string, vnetID model.ResourceID, name string) model.Finding {
	searched := strings.Join(r.f.DNS.LinkSearch.Subscriptions, ", ")
	what := fmt.Sprintf("which private DNS zones in other subscriptions than those searched (%s) are linked to the VNets whose Azure DNS answers the nodes: a zone there for a more specific name would answer instead of the zone found", searched)
	if !vnetID.IsZero() {
		what = fmt.Sprintf("whether a private DNS zone holding %s is linked to %s from a subscription other than those searched (%s)", name, r.vnetName(vnetID), searched)
	}
	f := gapFinding(gap, pool, host, what)
	if gap.Kind == model.GapPlannedUnknown || gap.Kind == model.GapUnreachable {
		// Nothing failed that a permission would fix: gapFinding already
		// says what the plan leaves unknown, or which host was unreachable.
		return f
	}
	failed := "kept failing after retries"
	switch gap.Kind {
	case model.GapPermissionDenied:
		failed = "was refused: the identity running the plan lacks " + permResourceGraphRead
	case model.GapNotFound:
		failed = "was answered with not found"
	}
	detail := ""
	if gap.Detail != "" {
		detail = " (" + gap.Detail + ")"
	}
	f.Message = fmt.Sprintf("The Azure Resource Graph query for the private DNS zone links (POST %s) %s%s. The conclusion%s depends on %s, so it is unverified, never reachable.",
		gap.ResourceID, failed, detail, forWhom(pool, host), what)
	f.Remediation = "Grant the identity that runs the plan " + permResourceGraphRead + " (part of the built-in Reader role) and Reader on the subscriptions that hold the private DNS zones; " +
		"Resource Graph returns only what the identity may read. Where Resource Graph is not allowed, name the subscriptions that hold the private DNS zones in " +
		"zone_subscription_ids: they are then searched instead. Nothing on the pull path needs to change for this finding."
	return f
}

// permResourceGraphRead is the RBAC action of a Resource Graph query.
var permResourceGraphRead = model.ActionResourceGraph.Action

// zoneNotFoundFinding: the zone subscriptions were named, Resource Graph
// was not asked, and none of them holds a zone for name.
func (r *run) zoneNotFoundFinding(pc *poolCtx, h model.PullHost, vnetID model.ResourceID, name string) model.Finding {
	vnet := r.vnetName(vnetID)
	via := ""
	if name != h.Name {
		via = fmt.Sprintf(": public DNS sends it to %s", name)
	}
	zone := r.cloud.PrivateLinkZone
	if h.Kind == model.HostDeclared {
		zone = "a zone for " + name
	}
	msg := fmt.Sprintf("%s resolves %s through Azure DNS in %s%s, and no private DNS zone holding %s was found in the subscriptions searched (%s). Azure Resource Graph was not asked because zone_subscription_ids is set, so a zone in another subscription may be linked to %s; whether the nodes resolve %s privately is unverified, not \"not linked\".",
		pc.label, h.Name, vnet, via, name, strings.Join(r.f.DNS.LinkSearch.Subscriptions, ", "), vnet, h.Name)
	fix := fmt.Sprintf("Add the subscription that holds the private DNS zone linked to %s (%s) to zone_subscription_ids, or remove zone_subscription_ids so that Azure Resource Graph searches every subscription the identity can read ("+permResourceGraphRead+", part of the built-in Reader role). If no such zone exists, create %s with the private endpoint's records and link it to %s.",
		vnet, zone, zone, vnet)
	return model.NewFinding(model.EvidenceNotFound, pc.pool.Name, h.Name, vnetID, msg, fix)
}

// searchNote says, for DNS_ZONE_NOT_LINKED, how far the search for zones
// linked to vnetID went.
func (r *run) searchNote(vnetID model.ResourceID) string {
	s := r.f.DNS.LinkSearch
	switch {
	case s.CoveredEverywhere(vnetID):
		return fmt.Sprintf(" No zone holding it is linked to %s in any subscription the identity can read (Azure Resource Graph).", r.vnetName(vnetID))
	case s.Declared:
		return fmt.Sprintf(" No zone holding it is linked to %s in the subscriptions searched (%s).", r.vnetName(vnetID), strings.Join(s.Subscriptions, ", "))
	}
	return ""
}

// unnamedLinkedZones are the evidence findings of zones a planned change
// creates under a name known only after apply (model.NameKnownAfterApply)
// that the link search found linked to a VNet whose Azure DNS answers the
// nodes: such a zone may be named like name, or like a more specific
// suffix of it, and then answers instead of any zone found. A new zone
// linked only to VNets no node resolves from is never among them.
func (r *run) unnamedLinkedZones(pc *poolCtx, h model.PullHost, name string) []model.Finding {
	var out []model.Finding
	for _, id := range r.f.DNS.LinkSearch.Unread {
		if id.Name() == model.NameKnownAfterApply {
			out = append(out, r.evidence(pc.pool.Name, h.Name, id,
				fmt.Sprintf("the name of a private DNS zone the plan creates, linked to a VNet the nodes resolve from: it may be the zone that answers %s", name)))
		}
	}
	return out
}
