// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gentopo_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/gentopo"
)

// gateTransport holds every request whose path contains held until each
// of want has been asked (or until the deadline), and records whether the
// wait ran out.
type gateTransport struct {
	inner policy.Transporter
	held  string
	want  []string

	mu      sync.Mutex
	asked   map[string]bool
	open    chan struct{}
	opened  bool
	expired bool
}

func (g *gateTransport) Do(req *http.Request) (*http.Response, error) {
	p := strings.ToLower(req.URL.Path)
	g.mu.Lock()
	g.asked[p] = true
	if !g.opened {
		all := true
		for _, w := range g.want {
			all = all && g.asked[w]
		}
		if all {
			g.opened = true
			close(g.open)
		}
	}
	g.mu.Unlock()
	if strings.Contains(p, g.held) {
		select {
		case <-g.open:
		case <-time.After(10 * time.Second):
			g.mu.Lock()
			g.expired = true
			g.mu.Unlock()
		}
	}
	return g.inner.Do(req)
}

// The node VNets' DNS security policies and forwarding rulesets, read
// actions of seconds each, are asked as soon as the node VNets' answers
// show they use Azure DNS, beside the scale sets' NIC lists, not after
// them: held until both were asked for every node VNet, the NIC lists
// would otherwise wait for ever (here: ten seconds).
func TestNodeVNetDNSActionsAskedBesideTheNICLists(t *testing.T) {
	o := gentopo.Defaults()
	o.BGPRoutes = 10
	var want []string
	gate := &gateTransport{held: "/networkinterfaces", asked: map[string]bool{}, open: make(chan struct{})}
	topo, r, _ := replayReaderVia(t, o, func(replay policy.Transporter) policy.Transporter {
		gate.inner = replay
		return gate
	})
	for _, id := range topo.NodeVNetIDs {
		want = append(want, strings.ToLower(string(model.DNSPoliciesAction(model.ResourceID(id)))), strings.ToLower(id+"/listDnsForwardingRulesets"))
	}
	if len(want) == 0 {
		t.Fatal("the topology has no node VNet")
	}
	gate.want = want
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := r.VerificationFacts(ctx, gather.VerificationRequest{
		ClusterID: model.ResourceID(topo.ClusterID), RegistryID: model.ResourceID(topo.RegistryID)}); err != nil {
		t.Fatal(err)
	}
	gate.mu.Lock()
	defer gate.mu.Unlock()
	if gate.expired {
		var missing []string
		for _, w := range want {
			if !gate.asked[w] {
				missing = append(missing, w)
			}
		}
		t.Errorf("the NIC lists waited ten seconds for the node VNets' DNS reads, which were asked only after them (still not asked then: %v)", missing)
	}
}
