// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gentopo_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/gentopo"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// replayReader generates a topology and returns it with a gather.Reader
// over its snapshot replay (no retries, a fake credential).
func replayReader(t *testing.T, o gentopo.Options) (*gentopo.Topology, *gather.Reader, *snapshot.Replay) {
	t.Helper()
	return replayReaderVia(t, o, nil)
}

// replayReaderVia is replayReader whose requests go through wrap(replay)
// (nil: the replay itself).
func replayReaderVia(t *testing.T, o gentopo.Options, wrap func(policy.Transporter) policy.Transporter) (*gentopo.Topology, *gather.Reader, *snapshot.Replay) {
	t.Helper()
	topo, err := gentopo.Generate(o)
	if err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Parse(topo.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	replay, err := snapshot.NewReplay(s)
	if err != nil {
		t.Fatal(err)
	}
	var transport policy.Transporter = replay
	if wrap != nil {
		transport = wrap(replay)
	}
	r := gather.New(azure.NewClients(azure.Options{
		Transport:  transport,
		Credential: func() (azcore.TokenCredential, error) { return &fake.TokenCredential{}, nil },
		Retry:      policy.RetryOptions{MaxRetries: -1},
	}))
	return topo, r, replay
}

// verifyTopology gathers the facts of a generated topology over the
// snapshot replay and verifies them.
func verifyTopology(t *testing.T, o gentopo.Options) (model.Facts, verify.Result, *snapshot.Replay) {
	t.Helper()
	topo, r, replay := replayReader(t, o)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f, err := r.VerificationFacts(ctx, gather.VerificationRequest{
		ClusterID: model.ResourceID(topo.ClusterID), RegistryID: model.ResourceID(topo.RegistryID)})
	if err != nil {
		t.Fatal(err)
	}
	if gaps := r.Gaps(); len(gaps) > 0 {
		t.Errorf("gaps: %+v", gaps)
	}
	return f, verify.Run(f), replay
}

func TestGeneratedTopologyIsReachable(t *testing.T) {
	for _, o := range []gentopo.Options{
		{Pools: 3, Subnets: 2, Spokes: 2, Replicas: 2, BGPRoutes: 50, DNSZones: 3, Seed: 7},
		{Pools: 1, Subnets: 1, Spokes: 1, Replicas: 1, BGPRoutes: 0, DNSZones: 1, Seed: 1},
		{Pools: 4, Subnets: 2, Spokes: 1, Replicas: 2, BGPRoutes: 50, DNSZones: 1, Seed: 3, Gateway: gentopo.GatewayExpressRoute},
	} {
		f, res, replay := verifyTopology(t, o)
		if res.Verdict != model.Reachable {
			t.Errorf("%+v: verdict %s\n%s", o, res.Verdict, res.Summary)
		}
		for _, fd := range res.Findings {
			if fd.Severity != model.SeverityInfo {
				t.Errorf("%+v: finding above info: %s %s: %s", o, fd.Severity, fd.Code, fd.Message)
			}
		}
		if len(f.Pools) != o.Pools {
			t.Errorf("%+v: %d pools gathered", o, len(f.Pools))
		}
		if len(f.Registry.Replicas) != o.Replicas {
			t.Errorf("%+v: %d replicas gathered", o, len(f.Registry.Replicas))
		}
		if req, distinct := replay.Stats(); req != distinct {
			t.Errorf("%+v: %d requests for %d distinct reads", o, req, distinct)
		}
	}
}

// Every cluster of a fleet sharing one hub verifies reachable, from its
// own pools on its own spokes.
func TestGeneratedFleet(t *testing.T) {
	o := gentopo.Options{Pools: 2, Subnets: 2, Spokes: 1, Replicas: 1, BGPRoutes: 20, DNSZones: 1, Seed: 5, Clusters: 3}
	topo, err := gentopo.Generate(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(topo.ClusterIDs) != 3 || topo.ClusterIDs[0] != topo.ClusterID {
		t.Fatalf("cluster ids %v", topo.ClusterIDs)
	}
	s, err := snapshot.Parse(topo.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	replay, err := snapshot.NewReplay(s)
	if err != nil {
		t.Fatal(err)
	}
	r := gather.New(azure.NewClients(azure.Options{
		Transport:  replay,
		Credential: func() (azcore.TokenCredential, error) { return &fake.TokenCredential{}, nil },
		Retry:      policy.RetryOptions{MaxRetries: -1},
	}))
	subnets := map[string]bool{}
	for _, id := range topo.ClusterIDs {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		f, err := r.VerificationFacts(ctx, gather.VerificationRequest{ClusterID: model.ResourceID(id), RegistryID: model.ResourceID(topo.RegistryID)})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if res := verify.Run(f); res.Verdict != model.Reachable || len(f.Pools) != o.Pools {
			t.Errorf("%s: verdict %s, %d pools\n%s", id, res.Verdict, len(f.Pools), res.Summary)
		}
		for _, p := range f.Pools {
			if subnets[p.SubnetID.Key()] && p.Name == "system" {
				t.Errorf("%s: system pool on subnet %s of another cluster", id, p.SubnetID)
			}
			subnets[p.SubnetID.Key()] = true
		}
	}
	if len(subnets) != o.Clusters*o.Subnets {
		t.Errorf("%d distinct pool subnets, want %d", len(subnets), o.Clusters*o.Subnets)
	}
}

func TestGenerateIsDeterministicAndValidates(t *testing.T) {
	a, err := gentopo.Generate(gentopo.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := gentopo.Generate(gentopo.Defaults())
	if string(a.Snapshot) != string(b.Snapshot) {
		t.Error("same options, different snapshots")
	}
	for _, bad := range []gentopo.Options{{}, {Pools: 1, Spokes: 2, Subnets: 1, Replicas: 1, DNSZones: 1}} {
		if _, err := gentopo.Generate(bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// On the benchmark topology and the ExpressRoute-sized one (10,000 learned
// routes each), and on the Virtual WAN one (spokes on a secured hub with
// routing intent, the registry's private endpoint in a shared-services
// spoke: the Resource Graph hub connection search, the hub and its
// children and the firewall's rules; not the hub's effective routes, since
// it has no branch gateway), a
// verification in rounds sends every request once: the
// zone search by domain, the forwarding rulesets asked beside the scale
// sets and the reads the closure and discovery make of the same resources
// share one request each.
func TestPerformanceTopologiesSendNoRequestTwice(t *testing.T) {
	if testing.Short() {
		t.Skip("generates topologies with 10,000 learned routes")
	}
	er := gentopo.Defaults()
	er.Gateway, er.Pools = gentopo.GatewayExpressRoute, 27
	vwan := gentopo.Defaults()
	vwan.VirtualWAN = true
	for name, o := range map[string]gentopo.Options{"benchmark": gentopo.Defaults(), "expressroute": er, "virtualwan": vwan} {
		t.Run(name, func(t *testing.T) {
			topo, r, replay := replayReader(t, o)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			f, err := r.VerificationFacts(ctx, gather.VerificationRequest{
				ClusterID: model.ResourceID(topo.ClusterID), RegistryID: model.ResourceID(topo.RegistryID)})
			if err != nil {
				t.Fatal(err)
			}
			res := verify.Run(f)
			for len(res.Needs) > 0 && r.ReadVerificationEvidence(ctx, &f, res.Needs) > 0 {
				res = verify.Run(f)
			}
			if res.Verdict != model.Reachable {
				t.Errorf("verdict %s\n%s", res.Verdict, res.Summary)
			}
			req, distinct := replay.Stats()
			if req != distinct || req == 0 {
				t.Errorf("%d requests for %d distinct reads", req, distinct)
			}
			var graph, rulesets, hubRoutes int
			for _, k := range replay.Requested() {
				switch {
				case k == "POST /providers/microsoft.resourcegraph/resources":
					graph++
				case strings.HasSuffix(k, "/listdnsforwardingrulesets"):
					rulesets++
				case strings.HasSuffix(k, "/virtualhubs/hub-bench/effectiveroutes"):
					hubRoutes++
				}
			}
			// The Virtual WAN hub has no VPN or ExpressRoute gateway: its
			// effective routes would only cross-check its configuration.
			if hubRoutes != 0 {
				t.Errorf("the hub's effective routes were read %d times, want none (the hub has no branch gateway)", hubRoutes)
			}
			if graph != 1 || rulesets != o.Spokes {
				t.Errorf("%d Resource Graph queries and %d forwarding ruleset lists, want 1 and %d: %v", graph, rulesets, o.Spokes, replay.Requested())
			}
			if f.DNS.LinkSearch.Query.IsZero() || len(f.DNS.LinkSearch.Everywhere) != o.Spokes {
				t.Errorf("zone link search %+v", f.DNS.LinkSearch)
			}
		})
	}
}
