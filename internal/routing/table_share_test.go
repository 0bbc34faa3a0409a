package routing

import (
	"math/rand/v2"
	"net/netip"
	"reflect"
	"slices"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// A presorted block merged into a table must give exactly the table a full
// sort gives: the same selection for every address and, when losers are
// marked, the same route states.
func TestBuildTableWithBlockMatchesFullSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	routes := randomTable10k(rng)
	// Same-prefix groups that straddle the block's edges: copies of some
	// block routes outside it, with other sources.
	for i := 0; i < 200; i++ {
		r := routes[3000+rng.IntN(4000)]
		r.Source = testSources[rng.IntN(len(testSources))]
		routes = append(routes, r)
	}
	for i := range routes {
		routes[i].Prefix = routes[i].Prefix.Masked()
	}
	addrs := make([]netip.Addr, 20000)
	for i := range addrs {
		addrs[i] = netip.AddrFrom4([4]byte{byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256))})
	}
	for _, span := range [][2]int{{0, len(routes)}, {0, 1}, {3000, 7000}, {len(routes) - 5, len(routes)}, {500, 500}} {
		for _, mark := range []bool{false, true} {
			want := buildTable(append([]model.Route(nil), routes...), 0, nil, mark)
			own := append(append([]model.Route(nil), routes[:span[0]]...), routes[span[1]:]...)
			block := routes[span[0]:span[1]:span[1]]
			before := append([]model.Route(nil), block...)
			got := buildTable(own, span[0], sortBlock(block), mark)
			if !reflect.DeepEqual(got.list(), want.list()) {
				t.Fatalf("block %v, mark %v: route states differ", span, mark)
			}
			for _, a := range addrs {
				if g, w := got.LookupIndex(a), want.LookupIndex(a); g != w {
					t.Fatalf("block %v, mark %v: %s selects %d with the block, %d without", span, mark, a, g, w)
				}
			}
			if !slices.Equal(block, before) {
				t.Fatalf("block %v, mark %v: building the table changed the shared block", span, mark)
			}
		}
	}
}

// Subnets of one VNet with the same route table and no service endpoints
// share one computed table (the spoke's node subnets behind a hub gateway
// with thousands of routes); a different route table or a service endpoint
// gets its own. Shared or not, each is what computing it alone gives.
func TestEffectiveRoutesShareTablesBetweenLikeSubnets(t *testing.T) {
	h := newHubSpoke()
	h.useTransit()
	b := h.builder
	twin := b.subnet(h.spoke, "snet-aks-2", "10.1.4.0/22")
	withRT := b.subnet(h.spoke, "snet-aks-rt", "10.1.8.0/22")
	b.attach(withRT, b.routeTable("rg-spoke", "rt-aks", false, model.Route{Name: "to-nva", Prefix: pfx("0.0.0.0/0"),
		NextHopType: model.NextHopVirtualAppliance, NextHopIP: ip("10.0.1.4")}))
	withSE := b.subnet(h.spoke, "snet-aks-se", "10.1.12.0/22")
	withSE.ServiceEndpoints = []model.ServiceEndpoint{{Service: "Microsoft.Storage", Locations: []string{"westeurope"},
		Prefixes: []netip.Prefix{pfx("20.60.0.0/16")}, PrefixesKnown: true}}

	e := NewEngine(h.net, Options{})
	get := func(s *model.Subnet) *Computed {
		t.Helper()
		c, err := e.EffectiveRoutes(s.ID)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if c.SubnetID != s.ID {
			t.Fatalf("%s: computed for %s", s.Name, c.SubnetID)
		}
		return c
	}
	aks, aks2, rt, se := get(h.aks), get(twin), get(withRT), get(withSE)
	if aks.Table != aks2.Table {
		t.Errorf("%s and %s (same VNet, no route table, no service endpoint) do not share a table", h.aks.Name, twin.Name)
	}
	if rt.Table == aks.Table || se.Table == aks.Table || rt.Table == se.Table {
		t.Errorf("a subnet with its own route table or service endpoints shares another's table")
	}
	for _, s := range []*model.Subnet{h.aks, twin, withRT, withSE} {
		alone, err := computeEffective(h.net, s.ID, ReservedNonePrefixes, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := get(s); !reflect.DeepEqual(got.Routes(), alone.Routes()) {
			t.Errorf("%s: engine routes differ from computing the subnet alone", s.Name)
		}
	}
}
