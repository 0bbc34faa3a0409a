// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package critpath_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/critpath"
	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/gentopo"
)

const (
	readMS   = 50
	actionMS = 2000
)

func measure(t *testing.T, o gentopo.Options) (critpath.Chain, model.Facts) {
	t.Helper()
	o.LatencyMS, o.ActionLatencyMS = readMS, actionMS
	topo, err := gentopo.Generate(o)
	if err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Parse(topo.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	q := gather.VerificationRequest{ClusterID: model.ResourceID(topo.ClusterID), RegistryID: model.ResourceID(topo.RegistryID)}
	c, res, err := critpath.Measure(ctx, s, q)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != model.Reachable {
		t.Fatalf("verdict %s\n%s", res.Verdict, res.Summary)
	}
	// The facts with everything read, for Of with other needs.
	fast := *s
	fast.Simulate = nil
	f, _, err := critpath.Gather(ctx, &fast, q)
	if err != nil {
		t.Fatal(err)
	}
	return c, f
}

// The registry is in the hub and nothing is on premises. The verdict
// depends on the hub gateway's learned routes: the cluster names the node
// subnets, the spoke VNet its peering to the hub, the hub its gateway
// (cluster → spoke → hub → getLearnedRoutes). The Resource Graph zone
// search needs nothing read (the zone names come from the registry's
// cloud) and the node VNets' forwarding rulesets only the cluster (which
// names their VNets): both run beside it, off the chain, although the
// zones the verdict uses are those linked to the VNets the rulesets and
// the nodes' DNS settings decide. What the gateway advertises is not part
// of it. The same facts with a verdict that reached the advertised routes
// wait for them after the learned routes.
func TestChainFollowsTheFacts(t *testing.T) {
	for _, gw := range []string{gentopo.GatewayVPN, gentopo.GatewayExpressRoute} {
		o := gentopo.Options{Pools: 5, Subnets: 2, Spokes: 2, Replicas: 2, BGPRoutes: 100, DNSZones: 1, Seed: 1, Gateway: gw}
		c, f := measure(t, o)
		want := time.Duration(3*readMS+(readMS+actionMS)) * time.Millisecond
		if c.Total != want || len(c.Reads) != 4 || !strings.HasSuffix(c.Reads[3].What, "/getLearnedRoutes") ||
			!strings.HasPrefix(c.Reads[1].What, "virtualNetworks/") || !strings.HasPrefix(c.Reads[2].What, "virtualNetworks/") ||
			!strings.HasPrefix(c.Reads[0].What, "managedClusters/") || c.Counted < 20 {
			t.Errorf("%s: chain %s (%d reads counted), want cluster → spoke → hub → getLearnedRoutes = %s", gw, c, c.Counted, want)
		}
		for _, r := range c.Reads {
			if strings.Contains(r.What, "ResourceGraph") || strings.Contains(r.What, "listDnsForwardingRulesets") {
				t.Errorf("%s: %s is on the chain %s", gw, r.What, c)
			}
		}
		var gwID model.ResourceID
		for _, g := range f.Network.Gateways {
			gwID = g.ID
		}
		lat := critpath.Latency{Read: readMS * time.Millisecond, Action: actionMS * time.Millisecond}
		withReturn := critpath.Of(f, []model.Evidence{model.AdvertisedRoutesOf(gwID)}, lat)
		if want := time.Duration(4*readMS+actionMS+2*(readMS+actionMS)) * time.Millisecond; withReturn.Total != want ||
			!strings.Contains(withReturn.String(), "getLearnedRoutes → POST") || !strings.Contains(withReturn.String(), "getBgpPeerStatus → POST") {
			t.Errorf("%s: with the advertised routes needed: %s, want %s", gw, withReturn, want)
		}
	}
}

// The node VNets' security admin rules need only the cluster, which names
// their VNets: beside the chain. A verdict whose path reached a point in
// the hub (an appliance, a destination there) waits for the hub's
// security admin rules after the hub's VNet is read: cluster → spoke →
// hub → the hub's admin rules (the hub's gateway left out, so that its
// learned routes, as long, do not hide it).
func TestChainWithAdminRulesOfAnotherVNet(t *testing.T) {
	o := gentopo.Options{Pools: 5, Subnets: 2, Spokes: 2, Replicas: 2, BGPRoutes: 100, DNSZones: 1, Seed: 1, Gateway: gentopo.GatewayVPN}
	_, f := measure(t, o)
	var hub model.ResourceID
	for _, g := range f.Network.Gateways {
		hub = g.VNetID
	}
	n := *f.Network
	n.Gateways = nil
	f.Network = &n
	lat := critpath.Latency{Read: readMS * time.Millisecond, Action: actionMS * time.Millisecond}
	admin := "virtualNetworks/" + hub.Name() + "/listNetworkManagerEffectiveSecurityAdminRules"
	without := critpath.Of(f, nil, lat)
	if strings.Contains(without.String(), admin) {
		t.Errorf("without the need the hub's admin rules are on the chain: %s", without)
	}
	with := critpath.Of(f, []model.Evidence{model.AdminRulesEvidenceOf(hub)}, lat)
	want := time.Duration(3*readMS+(readMS+actionMS)) * time.Millisecond
	if with.Total != want || len(with.Reads) != 4 || with.Reads[3].What != admin || !with.Reads[3].Action ||
		with.Reads[2].What != "virtualNetworks/"+hub.Name() || with.Counted != without.Counted+1 {
		t.Errorf("with the hub's admin rules needed: %s (%d reads counted, %d without), want cluster → spoke → hub → %s = %s", with, with.Counted, without.Counted, admin, want)
	}
}

// On Virtual WAN the node VNet's peering to the hub's VNet (HV_…) names no
// VNet the provider reads: the chain goes from the node VNet to the
// Resource Graph search for its hub connection, which names the hub; its
// connections (with its route tables and routing intent) decide the
// routes, and the path reaches the hub's firewall, whose policy and rule
// collection groups the verdict needs. The hub has no VPN or ExpressRoute
// gateway, so its effective routes (an action) are not read and not on the
// chain; the hub's VNet never is.
func TestChainThroughAVirtualWANHub(t *testing.T) {
	o := gentopo.Options{Pools: 5, Subnets: 2, Spokes: 2, Replicas: 2, DNSZones: 1, Seed: 1, VirtualWAN: true}
	c, f := measure(t, o)
	want := time.Duration(2*readMS+(readMS+actionMS)+readMS+3*readMS) * time.Millisecond
	s := c.String()
	if c.Total != want || len(c.Reads) != 7 || !strings.HasPrefix(c.Reads[0].What, "managedClusters/") ||
		!strings.HasPrefix(c.Reads[1].What, "virtualNetworks/vnet-spoke") || !strings.Contains(c.Reads[2].What, "ResourceGraph/resources (hub connections") ||
		!strings.HasPrefix(c.Reads[3].What, "virtualHubs/hub-bench") || !strings.HasPrefix(c.Reads[4].What, "azureFirewalls/") ||
		strings.Contains(s, "effectiveRoutes") {
		t.Errorf("chain %s, want cluster → spoke → hub connection search → hub → its firewall, policy and rule collection groups = %s", s, want)
	}
	if strings.Contains(s, "HV_") && !strings.Contains(s, "peered with HV_") {
		t.Errorf("the hub's VNet is read on the chain: %s", s)
	}
	lat := critpath.Latency{Read: readMS * time.Millisecond, Action: actionMS * time.Millisecond}
	without := critpath.Of(f, nil, lat)
	if strings.Contains(without.String(), "effectiveRoutes") || without.Total >= c.Total {
		t.Errorf("without the need: %s", without)
	}
}
