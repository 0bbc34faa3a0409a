package routing

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Source translation on the return path (docs/design/azure-behaviour.md,
// "Azure Firewall: a stateful device on every path"): replies go to the
// source address the destination saw. An appliance that translates the
// flow's source to its own address (an Azure Firewall's application
// rules always, its network rules outside its SNAT private ranges) gets
// the replies, and forwards them to the node from its own subnet; a flow
// it does not translate comes back by the destination's own return route
// (a private endpoint's replies ignore route tables), which may bypass it.
// What an appliance does is not the route engine's to decide: the caller
// says it per appliance (NATFunc), and ReturnWithNAT judges the return
// path again with that knowledge.

// SourceNAT is what an appliance on the forward path does to the flow's
// source address.
type SourceNAT int

// Source translations.
const (
	// NATAssumedNone: nothing is known; the appliance is taken to forward
	// without translation (a virtual machine appliance: its operating
	// system's NAT is not in Resource Manager). Replies from a private
	// endpoint are then unverified, and a bypassing return route is
	// asymmetric.
	NATAssumedNone SourceNAT = iota
	// NATNone: the appliance is known to keep the node's address.
	NATNone
	// NATTranslated: the appliance translates the source to its own
	// address.
	NATTranslated
	// NATUnknown: whether the appliance translates could not be
	// determined (an Azure Firewall whose rules or SNAT ranges decide
	// nothing certain).
	NATUnknown
)

// NATFunc answers, for an appliance the forward path crossed, what it
// does to the flow's source, and why (in words, for messages). A nil
// NATFunc answers NATAssumedNone for every appliance.
type NATFunc func(a Appliance) (SourceNAT, string)

func (f NATFunc) of(a Appliance) (SourceNAT, string) {
	if f == nil {
		return NATAssumedNone, ""
	}
	return f(a)
}

// forwardPart is the forward path's conclusions, kept so that the return
// path can be judged again (ReturnWithNAT).
type forwardPart struct {
	findings, suspected []Finding
	gaps                []model.Gap
	needs               []model.Evidence
}

func snapshotForward(res *Result) *forwardPart {
	return &forwardPart{
		findings:  append([]Finding(nil), res.Findings...),
		suspected: append([]Finding(nil), res.Suspected...),
		gaps:      append([]model.Gap(nil), res.Gaps...),
		needs:     append([]model.Evidence(nil), res.Needs...),
	}
}

// ReturnWithNAT judges the return path of a traced flow again, knowing
// what each appliance of its forward path does to the source address
// (nat). A result whose return path was not checked (the forward path
// failed or did not arrive) comes back unchanged.
func (e *Engine) ReturnWithNAT(res Result, nat NATFunc) Result {
	if res.fwd == nil {
		return res
	}
	out := res
	out.Findings = append([]Finding(nil), res.fwd.findings...)
	out.Suspected = append([]Finding(nil), res.fwd.suspected...)
	out.Gaps = append([]model.Gap(nil), res.fwd.gaps...)
	out.Needs = append([]model.Evidence(nil), res.fwd.needs...)
	out.Return = ReturnPath{}
	e.checkReturn(&out, nat)
	out.Verdict = verdictOf(out.Findings, out.Gaps)
	return out
}

// lastTranslating is the index of the last forward appliance that
// translates the source (the address the destination sees), or -1.
func lastTranslating(apps []Appliance, nat NATFunc) int {
	for i := len(apps) - 1; i >= 0; i-- {
		if n, _ := nat.of(apps[i]); n == NATTranslated {
			return i
		}
	}
	return -1
}

// returnToTranslator: appliance k translated the source, so the
// destination replies to k's address: from a private endpoint straight
// there, from a NIC or subnet by its subnet's routes, from on-premises
// through the gateway (which must advertise a prefix holding k's address).
// The replies must cross the appliances after k; k then forwards them to
// the node with its own subnet's routes, crossing the appliances before
// it.
func (e *Engine) returnToTranslator(res *Result, k int, nat NATFunc) {
	t := res.Appliances[k]
	before, after := res.Appliances[:k], res.Appliances[k+1:]
	res.Return = ReturnPath{Checked: true, Verdict: model.Reachable}
	switch res.Arrival.Kind {
	case ArrivalPrivateEndpoint:
		if len(after) > 0 {
			if f, ok := e.endpointBypass(res, after, t.IP, nat); ok {
				res.Findings = appendFinding(res.Findings, f)
				res.Return.Verdict, res.Return.Note = verdictOfCode(f.Code), f.Message
				return
			}
		}
	case ArrivalNIC, ArrivalSubnet:
		if u := res.Arrival.Unattributed; !u.IsZero() && len(after) > 0 {
			res.Gaps = appendGap(res.Gaps, gapFor(e.net, u, model.GapNotFound, fmt.Sprintf(
				"private endpoint %s of %s was not read (or its addresses were not): %s may be its address, whose replies bypass route tables, so the return path is unknown",
				u.Name(), SubnetLabel(res.Arrival.SubnetID), res.Destination)))
			res.Return = ReturnPath{Verdict: model.Unverified, Note: "the return path depends on whether " + res.Destination.String() + " is a private endpoint that was not read"}
			return
		}
		back := e.traceBackTo(res, res.Arrival.SubnetID, res.Destination, t.IP, false)
		if !e.judgeBack(res, back, after, nat) {
			return
		}
	case ArrivalOnPremises:
		if e.returnFromBranch(res, []netip.Prefix{netip.PrefixFrom(t.IP, t.IP.BitLen())}) {
			return
		}
		e.returnFromOnPremises(res, t.IP, []netip.Prefix{netip.PrefixFrom(t.IP, t.IP.BitLen())}, after, nat)
		if res.Return.Verdict != model.Reachable {
			return
		}
	default:
		e.checkReturn(res, nil)
		return
	}
	// From the translator back: each translating appliance forwards the
	// replies to the source it received, which is the address of the
	// translator before it (a first Azure Firewall that translated the
	// flow before a second one did), or the node's. The replies must
	// cross the appliances in between.
	note := fmt.Sprintf("%s translates the source to %s, so replies return to it", t.Label, t.IP)
	for cur := k; ; {
		j := lastTranslating(before, nat)
		target, between := res.Source, before
		if j >= 0 {
			target, between = before[j].IP, before[j+1:]
		}
		back := e.traceBackTo(res, res.Appliances[cur].SubnetID, res.Destination, target, false)
		if !e.judgeBack(res, back, between, nat) {
			return
		}
		if j < 0 {
			break
		}
		note += fmt.Sprintf("; it forwards them to %s, which translated the source before it", before[j].Label)
		cur, before = j, before[:j]
	}
	res.Return.Note = fmt.Sprintf("%s, and it forwards them to %s", note, res.Source)
}

// endpointBypass: replies from a private endpoint ignore route tables and
// go straight to target, bypassing the appliances apps the forward path
// crossed after the address the endpoint saw. When each of them is known
// not to translate, the flow is RETURN_ROUTE_ASYMMETRIC; when whether one
// translates is unknown, RETURN_ROUTE_UNVERIFIED; when nothing is known
// of them (ok false), the caller reports as it always has.
func (e *Engine) endpointBypass(res *Result, apps []Appliance, target netip.Addr, nat NATFunc) (Finding, bool) {
	if f, ok := e.translationUnknown(res, apps, nat); ok {
		return f, true
	}
	for _, a := range apps {
		if n, _ := nat.of(a); n != NATNone {
			return Finding{}, false
		}
	}
	return newFinding(model.ReturnRouteAsymmetric, e.applianceResource(apps[0]), res.From, nil,
		"traffic from %s to private endpoint %s (%s) is asymmetric: the forward path crosses %s, but replies from a private endpoint ignore route tables and go straight to %s, the source address it saw, bypassing it; a stateful appliance sees only half of the flow and drops it.%s",
		res.Source, res.Arrival.PrivateEndpointID.Name(), res.Destination, labels(apps), target, e.firewallFix(apps, nat)), true
}

// translationUnknown is RETURN_ROUTE_UNVERIFIED when whether an appliance
// the replies bypass translates the flow is unknown: if it does, replies
// come back through it; if not, the flow is asymmetric.
func (e *Engine) translationUnknown(res *Result, bypassed []Appliance, nat NATFunc) (Finding, bool) {
	for _, a := range bypassed {
		n, why := nat.of(a)
		if n != NATUnknown {
			continue
		}
		return newFinding(model.ReturnRouteUnverified, e.applianceResource(a), res.From, nil,
			"the forward path from %s to %s crosses %s, which the replies bypass, and whether it translates the flow's source (so that replies return to it) is unknown: %s. If it does not, the flow is asymmetric and fails.",
			res.Source, res.Destination, a.Label, why), true
	}
	return Finding{}, false
}

// firewallFix says, for the Azure Firewalls among the bypassed
// appliances, why they keep the node address and what would bring the
// replies back through them.
func (e *Engine) firewallFix(bypassed []Appliance, nat NATFunc) string {
	var b strings.Builder
	for _, a := range bypassed {
		fw := e.net.FirewallByPrivateIP(a.IP)
		if fw == nil {
			continue
		}
		_, why := nat.of(a)
		if why != "" {
			why = " (" + why + ")"
		}
		fmt.Fprintf(&b, " Azure Firewall %s does not translate the source of this flow%s: allowing it by an application rule (which always translates the source to the firewall's address), or having the firewall translate it (SNAT: a destination outside its SNAT private ranges), would bring the replies back through the firewall; so would a route on the destination's subnet that sends the node prefixes to %s, where the destination's replies follow route tables.", fw.Name, why, a.IP)
	}
	return b.String()
}

// applianceResource is what names an appliance in a finding: the Azure
// Firewall that holds its address, its NIC, else its subnet.
func (e *Engine) applianceResource(a Appliance) model.ResourceID {
	if fw := e.net.FirewallByPrivateIP(a.IP); fw != nil {
		return fw.ID
	}
	if !a.NICID.IsZero() {
		return a.NICID
	}
	return a.SubnetID
}

// withoutAddr drops the appliance at addr: a reply addressed to an
// appliance that a route sends to that same appliance arrives there.
func withoutAddr(apps []Appliance, addr netip.Addr) []Appliance {
	var out []Appliance
	for _, a := range apps {
		if a.IP != addr {
			out = append(out, a)
		}
	}
	return out
}

func verdictOfCode(c model.Code) model.Verdict {
	if model.Catalogue[c].Severity == model.SeverityError {
		return model.Unreachable
	}
	return model.Unverified
}
