// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"context"
	"net/netip"
	"reflect"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/pipeline"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// replayReader is a Reader over a scenario's snapshot and the replay that
// counts its requests.
func replayReader(t *testing.T, sc scenario) (*gather.Reader, *snapshot.Replay) {
	t.Helper()
	s, err := snapshot.Load(sc.snapshotPath(t))
	if err != nil {
		t.Fatal(err)
	}
	replay, err := snapshot.NewReplay(s)
	if err != nil {
		t.Fatal(err)
	}
	return gather.New(azure.NewClients(azure.Options{
		Transport:  replay,
		Credential: func() (azcore.TokenCredential, error) { return &fake.TokenCredential{}, nil },
		Retry:      policy.RetryOptions{MaxRetries: -1},
	})), replay
}

func roundsCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// TestRoundsMatchReadingEverything: for every scenario, verifying in
// rounds (evidence only some paths need is read only when a path reaches
// it) concludes exactly what verifying with every such evidence read up
// front concludes — same verdict, findings, paths and summary — and sends
// no more requests. The scenarios include both kinds of round evidence
// being needed (a return path from on premises, paths through appliances)
// and not needed.
func TestRoundsMatchReadingEverything(t *testing.T) {
	var fewer, second int
	needed := map[model.EvidenceKind]bool{}
	for _, sc := range discoverScenarios(t) {
		t.Run(sc.Name, func(t *testing.T) {
			in := scenarioInput(t, sc)
			q := gather.VerificationRequest{ClusterID: model.ResourceID(in.ClusterID), RegistryID: model.ResourceID(in.RegistryID)}
			if len(in.RegistryHosts) > 0 {
				q.Declared = &model.DeclaredRegistry{Hosts: in.RegistryHosts, Addresses: map[string]netip.Addr{}}
				for h, a := range in.RegistryAddresses {
					q.Declared.Addresses[h] = netip.MustParseAddr(a)
				}
			}

			r, replay := replayReader(t, sc)
			got, _, rounds, err := pipeline.Verification(roundsCtx(t), r, q)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Needs) != 0 {
				t.Errorf("the last round still needs %v", got.Needs)
			}
			roundRequests, _ := replay.Stats()

			er, eagerReplay := replayReader(t, sc)
			f, err := er.VerificationFacts(roundsCtx(t), q)
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range verify.Run(f).Needs {
				needed[ev.Kind] = true
			}
			er.ReadAllEvidence(roundsCtx(t), &f)
			want := verify.Run(f)
			eagerRequests, _ := eagerReplay.Stats()

			if got.Verdict != want.Verdict || got.Summary != want.Summary || !reflect.DeepEqual(got.Findings, want.Findings) ||
				!reflect.DeepEqual(got.Paths, want.Paths) {
				t.Errorf("in rounds (%d):\n%s\nwith everything read:\n%s", rounds, got.Summary, want.Summary)
			}
			if roundRequests > eagerRequests {
				t.Errorf("%d requests in rounds, %d with everything read", roundRequests, eagerRequests)
			}
			if roundRequests < eagerRequests {
				fewer++
			}
			if rounds > 1 {
				second++
			}
		})
	}
	if fewer == 0 || second == 0 {
		t.Errorf("scenarios that read less in rounds: %d, that needed a second round: %d; want both", fewer, second)
	}
	for _, kind := range []model.EvidenceKind{model.EvidenceAdvertisedRoutes, model.EvidenceApplianceNIC, model.EvidenceAdminRules} {
		if !needed[kind] {
			t.Errorf("no scenario's paths reach pending %s evidence", kind)
		}
	}
}

// TestNodeRoutesRoundsMatchReadingEverything is the same for
// pullpath_node_routes: every pool of every scenario traced to the private
// endpoint, the hub appliance and on premises.
func TestNodeRoutesRoundsMatchReadingEverything(t *testing.T) {
	var dests []verify.Destination
	for _, d := range goldenDestinations {
		dests = append(dests, verify.Destination{Text: d, Addr: netip.MustParseAddr(d)})
	}
	var fewer, second int
	for _, sc := range discoverScenarios(t) {
		t.Run(sc.Name, func(t *testing.T) {
			q := gather.NodeRoutesRequest{ClusterID: nrCluster}
			for _, d := range dests {
				q.Destinations = append(q.Destinations, d.Addr)
			}
			r, replay := replayReader(t, sc)
			got, _, rounds, err := pipeline.NodeRoutes(roundsCtx(t), r, q, dests)
			if err != nil {
				t.Fatal(err)
			}
			roundRequests, _ := replay.Stats()

			er, eagerReplay := replayReader(t, sc)
			f, err := er.NodeRouteFacts(roundsCtx(t), q)
			if err != nil {
				t.Fatal(err)
			}
			er.ReadEvidence(roundsCtx(t), f.Network, f.Network.Pending.Sorted())
			want := verify.NodeRoutes(f, dests)
			eagerRequests, _ := eagerReplay.Stats()

			if len(got.Needs) != 0 || !reflect.DeepEqual(got.Findings, want.Findings) || !reflect.DeepEqual(got.Sets, want.Sets) {
				t.Errorf("in rounds (%d) the result differs from the one with everything read (needs %v)", rounds, got.Needs)
			}
			if roundRequests > eagerRequests {
				t.Errorf("%d requests in rounds, %d with everything read", roundRequests, eagerRequests)
			}
			if roundRequests < eagerRequests {
				fewer++
			}
			if rounds > 1 {
				second++
			}
		})
	}
	if fewer == 0 || second == 0 {
		t.Errorf("scenarios that read less in rounds: %d, that needed a second round: %d; want both", fewer, second)
	}
}
