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
// depends on the zones linked to the VNets whose Azure DNS answers the
// nodes, which the Resource Graph search finds for exactly those VNets:
// it waits for the node VNet's forwarding rulesets (a rule could send the
// names elsewhere), which wait for what shows the nodes use Azure DNS (the
// pools' NIC settings, from the scale sets the cluster's node resource
// group lists). The hub gateway's learned routes (cluster → spoke → hub →
// getLearnedRoutes) are a shorter chain beside it; what the gateway
// advertises is not part of it. The same facts with a verdict that
// reached the advertised routes wait for them after the learned routes.
func TestChainFollowsTheFacts(t *testing.T) {
	for _, gw := range []string{gentopo.GatewayVPN, gentopo.GatewayExpressRoute} {
		o := gentopo.Options{Pools: 5, Subnets: 2, Spokes: 2, Replicas: 2, BGPRoutes: 100, DNSZones: 1, Seed: 1, Gateway: gw}
		c, f := measure(t, o)
		want := time.Duration(3*readMS+2*(readMS+actionMS)) * time.Millisecond
		if c.Total != want || len(c.Reads) != 5 || !strings.HasPrefix(c.Reads[4].What, "ResourceGraph/resources") ||
			!strings.HasSuffix(c.Reads[3].What, "/listDnsForwardingRulesets") ||
			!strings.HasPrefix(c.Reads[0].What, "managedClusters/") || c.Counted < 20 {
			t.Errorf("%s: chain %s (%d reads counted), want cluster → scale sets → NICs → listDnsForwardingRulesets → Resource Graph = %s", gw, c, c.Counted, want)
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
