// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"reflect"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// A verification reports the pending evidence its paths reached in Needs
// and stays unverified until it is read; once read, the same facts verify
// as if it had been read from the start.
func TestVerifyReportsNeeds(t *testing.T) {
	transit := func() model.Facts {
		f := gatewayFacts()
		f.Network.VNet(spokeID).Peerings[0].UseRemoteGateways = true
		gw := f.Network.Gateway(hubGatewayID)
		peer := ip("192.168.255.1")
		gw.Advertised[peer] = append(gw.Advertised[peer], model.GatewayRoute{Prefix: pfx("10.1.0.0/16"), NextHop: ip("10.0.0.30"), Origin: "Igp"})
		return f
	}
	read := Run(transit())
	if read.Verdict != model.Reachable || len(read.Needs) != 0 {
		t.Fatalf("with the advertised routes read: %s, needs %v\n%s", read.Verdict, read.Needs, read.Summary)
	}

	// The same facts with the advertised routes still pending.
	f := transit()
	gw := *f.Network.Gateway(hubGatewayID)
	gw.Advertised, gw.AdvertisedKnown = nil, false
	f.Network.Gateways[hubGatewayID.Key()] = &gw
	f.Network.Pending.Add(model.AdvertisedRoutesOf(hubGatewayID))
	pending := Run(f)
	if want := []model.Evidence{model.AdvertisedRoutesOf(hubGatewayID)}; !reflect.DeepEqual(pending.Needs, want) {
		t.Errorf("needs %v, want %v", pending.Needs, want)
	}
	if pending.Verdict != model.Unverified {
		t.Errorf("verdict %s with evidence pending, want unverified", pending.Verdict)
	}

	// A registry whose paths never reach the gateway needs nothing.
	b := baselineFacts()
	b.Network.Pending.Add(model.AdvertisedRoutesOf(hubGatewayID))
	if res := Run(b); len(res.Needs) != 0 || res.Verdict != model.Reachable {
		t.Errorf("baseline with the gateway's evidence pending: %s, needs %v", res.Verdict, res.Needs)
	}
}

// A public path through Azure Firewall needs the firewall's rules: while
// they are pending the path is unverified (EGRESS_UNVERIFIED) and the need
// is reported; once read, the firewall decides. A path to a private
// endpoint never needs them.
func TestFirewallRulesNeeded(t *testing.T) {
	rules := model.FirewallRulesOf(fwID)
	f := baselineFacts()
	publicRegistry(&f)
	addFirewall(&f, "20.80.0.1")
	r := &run{f: &f, gaps: mergeGaps(&f), used: map[string]bool{}, ep: newEndpoints(&f)}
	pc := r.newPoolCtx(f.Pools[0])
	h := f.PullHosts()[0]
	fw := f.Network.Firewall(fwID)

	f.Network.Pending.Add(rules)
	fs, allowed := r.firewallDecision("system", fw, pc.subnet.Prefixes, h.Name, firewallServiceTag(f.PublicServiceTags(h)))
	if allowed || len(fs) != 1 || fs[0].Code != model.EgressUnverified || fs[0].ResourceID != fwID {
		t.Fatalf("with the rules pending: allowed %v, %+v", allowed, fs)
	}
	if want := []model.Evidence{rules}; !reflect.DeepEqual(r.needs, want) {
		t.Errorf("needs %v, want %v", r.needs, want)
	}

	f.Network.Pending.Done(rules)
	r.needs = nil
	if fs, allowed := r.firewallDecision("system", fw, pc.subnet.Prefixes, h.Name, firewallServiceTag(f.PublicServiceTags(h))); !allowed || len(fs) != 0 || len(r.needs) != 0 {
		t.Fatalf("with the rules read the policy allows the login server: %v %+v, needs %v", allowed, fs, r.needs)
	}

	// A registry behind its private endpoint: the firewall is not crossed.
	b := baselineFacts()
	addFirewall(&b, "20.80.0.1")
	b.Network.Pending.Add(rules)
	if res := Run(b); len(res.Needs) != 0 || res.Verdict != model.Reachable {
		t.Errorf("private endpoint with the firewall's rules pending: %s, needs %v", res.Verdict, res.Needs)
	}
}
