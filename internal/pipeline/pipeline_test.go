// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package pipeline_test

import (
	"context"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
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
	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/gentopo"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// counting counts the requests per path suffix after the last provider.
type counting struct {
	inner policy.Transporter
	mu    sync.Mutex
	posts map[string]int
}

func (c *counting) Do(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPost {
		c.mu.Lock()
		c.posts[req.URL.Path[strings.LastIndex(req.URL.Path, "/")+1:]]++
		c.mu.Unlock()
	}
	return c.inner.Do(req)
}

func reader(t *testing.T, o gentopo.Options) (*gather.Reader, *counting, *gentopo.Topology) {
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
	c := &counting{inner: replay, posts: map[string]int{}}
	return gather.New(azure.NewClients(azure.Options{
		Transport:  c,
		Credential: func() (azcore.TokenCredential, error) { return &fake.TokenCredential{}, nil },
		Retry:      policy.RetryOptions{MaxRetries: -1},
	})), c, topo
}

// A registry in the hub, nothing on premises: one round, and the hub
// gateway's advertised routes are never asked for; its learned routes are
// (the node subnets' security rules depend on them). The node routes of
// the same cluster traced on premises need them: a second round reads
// them, once.
func TestRoundsReadOnlyWhatThePathsReach(t *testing.T) {
	o := gentopo.Options{Pools: 3, Subnets: 2, Spokes: 2, Replicas: 2, BGPRoutes: 50, DNSZones: 1, Seed: 3}
	r, c, topo := reader(t, o)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, f, rounds, err := pipeline.Verification(ctx, r, gather.VerificationRequest{
		ClusterID: model.ResourceID(topo.ClusterID), RegistryID: model.ResourceID(topo.RegistryID)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != model.Reachable || rounds != 1 || len(res.Needs) != 0 {
		t.Fatalf("verdict %s in %d rounds, needs %v\n%s", res.Verdict, rounds, res.Needs, res.Summary)
	}
	if c.posts["getLearnedRoutes"] != 1 || c.posts["getBgpPeerStatus"] != 0 || c.posts["getAdvertisedRoutes"] != 0 {
		t.Errorf("actions sent: %v", c.posts)
	}
	// Never needed, so still pending: the gateway's advertised routes,
	// and the hub VNet's security admin rules (the registry's private
	// endpoints there are not subject to them).
	var kinds []model.EvidenceKind
	for _, e := range f.Network.Pending.Sorted() {
		kinds = append(kinds, e.Kind)
	}
	if !slices.Equal(kinds, []model.EvidenceKind{model.EvidenceAdminRules, model.EvidenceAdvertisedRoutes}) {
		t.Errorf("pending after the rounds: %v (the gateway's advertised routes and the hub's admin rules, never needed)", f.Network.Pending.Sorted())
	}

	onPrem := verify.Destination{Text: "10.128.0.9", Addr: netip.MustParseAddr("10.128.0.9")}
	nr, _, rounds, err := pipeline.NodeRoutes(ctx, r, gather.NodeRoutesRequest{ClusterID: model.ResourceID(topo.ClusterID)},
		[]verify.Destination{onPrem})
	if err != nil {
		t.Fatal(err)
	}
	if rounds != 2 || len(nr.Needs) != 0 {
		t.Errorf("node routes to on premises: %d rounds, needs %v", rounds, nr.Needs)
	}
	for _, set := range nr.Sets {
		if tr := set.Traces[0]; tr.Verdict != model.Reachable || tr.ReturnVerdict != model.Reachable {
			t.Errorf("pool %s to on premises: %s, return %s (%s)", set.Set.Pool, tr.Verdict, tr.ReturnVerdict, tr.ReturnNote)
		}
	}
	if c.posts["getLearnedRoutes"] != 1 || c.posts["getBgpPeerStatus"] != 1 || c.posts["getAdvertisedRoutes"] != 1 {
		t.Errorf("actions sent: %v (each once)", c.posts)
	}
}
