package routing

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Evidence against reality: effective route tables in the ARM shape of
// networkInterfaces/{nic}/effectiveRouteTable (what `az network nic
// show-effective-route-table` prints). hub_nva_*.json are the hub NVA's
// tables from the shared scenarios; the others are written after published
// dumps (default None set, VNetPeering, VNetGlobalPeering,
// VirtualNetworkGateway with active-active next hops, InterfaceEndpoint
// Active and Invalid, VirtualNetworkServiceEndpoint, UDRs overriding
// defaults). For each, the model configuration behind it is built and the
// computed table must match entry for entry.

type armEffectiveRoutes struct {
	Value []armEffectiveRoute `json:"value"`
}

type armEffectiveRoute struct {
	Source                     string   `json:"source"`
	State                      string   `json:"state"`
	AddressPrefix              []string `json:"addressPrefix"`
	NextHopIPAddress           []string `json:"nextHopIpAddress"`
	NextHopType                string   `json:"nextHopType"`
	DisableBgpRoutePropagation bool     `json:"disableBgpRoutePropagation"`
}

// entry is one prefix of an effective route, as compared.
type entry struct {
	source, state, hop string
	prefix             netip.Prefix
	nextHops           []netip.Addr
	disableBGP         bool
}

func (e entry) String() string {
	return fmt.Sprintf("%s %s %s %s %v", e.source, e.state, e.prefix, e.hop, e.nextHops)
}

func loadEffective(t *testing.T, name string) []entry {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var doc armEffectiveRoutes
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var out []entry
	for _, r := range doc.Value {
		var hops []netip.Addr
		for _, h := range r.NextHopIPAddress {
			hops = append(hops, netip.MustParseAddr(h))
		}
		for _, p := range r.AddressPrefix {
			out = append(out, entry{source: r.Source, state: r.State, hop: r.NextHopType, prefix: netip.MustParsePrefix(p), nextHops: hops, disableBGP: r.DisableBgpRoutePropagation})
		}
	}
	return out
}

// asModel is the real table as the ARM converter gives it to the model:
// one route per prefix, the first next hop address.
func asModel(entries []entry) []model.Route {
	out := make([]model.Route, len(entries))
	for i, e := range entries {
		out[i] = model.Route{Prefix: e.prefix, Source: e.source, State: e.state, NextHopType: e.hop}
		if len(e.nextHops) > 0 {
			out[i].NextHopIP = e.nextHops[0]
		}
	}
	return out
}

// matchEntries pairs each real entry with a computed route of the same
// source, state, prefix and next hop type whose next hop address is one of
// the entry's (or both have none); it returns what is left on either side.
func matchEntries(actual []entry, computed []model.Route) (onlyReal []entry, onlyComputed []model.Route) {
	left := append([]model.Route(nil), computed...)
	for _, e := range actual {
		found := -1
		for i, r := range left {
			if r.Source == e.source && r.State == e.state && r.NextHopType == e.hop && r.Prefix == e.prefix && nextHopMatches(r.NextHopIP, e.nextHops) {
				found = i
				break
			}
		}
		if found < 0 {
			onlyReal = append(onlyReal, e)
			continue
		}
		left = append(left[:found], left[found+1:]...)
	}
	return onlyReal, left
}

func nextHopMatches(a netip.Addr, hops []netip.Addr) bool {
	if !a.IsValid() {
		return len(hops) == 0
	}
	for _, h := range hops {
		if h == a {
			return true
		}
	}
	return false
}

func TestComputedMatchesRealEffectiveRoutes(t *testing.T) {
	cases := []struct {
		file  string
		build func() (*model.Network, model.ResourceID)
	}{
		{"hub_nva_baseline.json", func() (*model.Network, model.ResourceID) {
			h := newHubSpoke()
			return h.net, h.nvaSubnet.ID
		}},
		{"hub_nva_peering_initiated.json", func() (*model.Network, model.ResourceID) {
			h := newHubSpoke()
			h.hub.Peerings = nil
			h.spokeToHub.State = "Initiated"
			return h.net, h.nvaSubnet.ID
		}},
		{"spoke_forced_tunnel_service_endpoint.json", func() (*model.Network, model.ResourceID) {
			h := newHubSpoke()
			h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", false, udr("default-to-nva", "0.0.0.0/0", model.NextHopVirtualAppliance, "10.0.1.4")))
			h.aks.ServiceEndpoints = []model.ServiceEndpoint{{Service: "Microsoft.Storage", Locations: []string{"westeurope"}, PrefixesKnown: true,
				Prefixes: []netip.Prefix{pfx("13.69.40.0/24"), pfx("20.38.108.0/23"), pfx("20.60.0.0/17"), pfx("52.239.140.0/22")}}}
			return h.net, h.aks.ID
		}},
		{"spoke_gateway_transit_active_active.json", func() (*model.Network, model.ResourceID) {
			h := newHubSpoke()
			h.useTransit()
			h.gw.PrivateIPs = []netip.Addr{ip("10.0.0.4"), ip("10.0.0.5")}
			h.gw.Learned = append(h.gw.Learned, ebgp("172.16.10.0/24", "192.168.255.1"),
				model.GatewayRoute{Prefix: pfx("192.168.0.0/16"), SourcePeer: ip("10.0.0.5"), Origin: "IBgp"}) // the other instance
			h.net.PrivateEndpoints = map[string]*model.PrivateEndpoint{}
			h.privateEndpoint("rg-hub", "pe-acr", h.peSubnet, "10.0.2.5")
			return h.net, h.aks.ID
		}},
		{"spoke_bgp_disabled_firewall_pe_invalid.json", func() (*model.Network, model.ResourceID) {
			h := newHubSpoke()
			h.useTransit()
			h.subnet(h.hub, "AzureFirewallSubnet", "10.0.4.0/26")
			h.peSubnet.PrivateEndpointNetworkPolicies = "RouteTableEnabled"
			h.attach(h.aks, h.routeTable("rg-spoke", "rt-aks", true, udr("hub-via-fw", "10.0.0.0/16", model.NextHopVirtualAppliance, "10.0.4.4")))
			return h.net, h.aks.ID
		}},
		{"vnet_owns_private_ranges_global_peering.json", func() (*model.Network, model.ResourceID) {
			b := newBuilder()
			big := b.vnet("rg-big", "vnet-big", "10.0.0.0/8", "100.64.0.0/10", "192.168.1.0/24")
			s := b.subnet(big, "snet-nodes", "10.20.0.0/16")
			far := b.vnet("rg-far", "vnet-far", "172.20.0.0/16")
			far.Location = "eastus"
			p1, p2 := b.peer(big, far, "big-to-far", "far-to-big")
			p1.Global, p2.Global = true, true
			return b.net, s.ID
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			actual := loadEffective(t, c.file)
			net, subnet := c.build()
			opts := Options{ReservedNone: ReservedNoneFromEffective(asModel(actual))}
			comp, err := NewEngine(net, opts).EffectiveRoutes(subnet)
			if err != nil {
				t.Fatal(err)
			}
			if len(comp.Gaps) > 0 {
				t.Errorf("unexpected gaps: %v", comp.Gaps)
			}
			onlyReal, onlyComputed := matchEntries(actual, comp.Routes())
			for _, e := range onlyReal {
				t.Errorf("real entry not computed: %s", e)
			}
			for _, r := range onlyComputed {
				t.Errorf("computed entry not in the real table: %s %s %s %s %s (%s)", r.Source, r.State, r.Prefix, r.NextHopType, r.NextHopIP, r.Origin)
			}
			wantDisable := comp.RouteTable() != nil && comp.RouteTable().DisableBGPRoutePropagation
			for _, e := range actual {
				if e.disableBGP != wantDisable {
					t.Errorf("entry %s: disableBgpRoutePropagation %v, computed route table says %v", e, e.disableBGP, wantDisable)
				}
			}
			// Selection agrees for addresses around every prefix.
			realRoutes := asModel(actual)
			for _, probe := range probes(actual) {
				if d, drift := CompareForDestination(realRoutes, comp, probe); drift {
					t.Errorf("%s: real selects %s, computed %s", probe, DescribeSelection(d.Real, d.RealFound), DescribeSelection(d.Computed, d.ComputedFound))
				}
			}
		})
	}
}

// The default reserved set is the part every published variant shares:
// without calibration, a computed table differs from a real one only by
// that variant's extra ranges.
func TestDefaultReservedSetIsCommonToVariants(t *testing.T) {
	for _, c := range []struct {
		file  string
		extra []netip.Prefix
	}{
		{"hub_nva_baseline.json", ReservedNoneLegacy},
		{"spoke_forced_tunnel_service_endpoint.json", ReservedNoneCurrent},
	} {
		actual := loadEffective(t, c.file)
		var extraInReal []string
		for _, e := range actual {
			if e.source == "Default" && e.hop == "None" && !containsPrefix(PrivateNonePrefixes, e.prefix) && !containsPrefix(ReservedNonePrefixes, e.prefix) {
				extraInReal = append(extraInReal, e.prefix.String())
				if !containsPrefix(c.extra, e.prefix) {
					t.Errorf("%s: %s is in neither the common set nor the variant", c.file, e.prefix)
				}
			}
		}
		sort.Strings(extraInReal)
		if len(extraInReal) == 0 {
			t.Errorf("%s: expected variant ranges", c.file)
		}
		for _, p := range ReservedNonePrefixes {
			found := false
			for _, e := range actual {
				found = found || (e.prefix == p && e.hop == "None")
			}
			if !found {
				t.Errorf("%s lacks common reserved range %s", c.file, p)
			}
		}
		t.Logf("%s variant ranges: %s", c.file, strings.Join(extraInReal, " "))
	}
}

// probes are addresses at, inside and just outside every prefix of a table.
func probes(entries []entry) []netip.Addr {
	var out []netip.Addr
	for _, e := range entries {
		start, end := prefixRange(e.prefix)
		a := e.prefix.Masked().Addr()
		out = append(out, a, a.Next())
		if p := a.Prev(); p.IsValid() {
			out = append(out, p)
		}
		if e.prefix.Addr().Is4() && end != start {
			last := netip.AddrFrom4([4]byte{byte(end.lo >> 24), byte(end.lo >> 16), byte(end.lo >> 8), byte(end.lo)})
			out = append(out, last)
			if n := last.Next(); n.IsValid() {
				out = append(out, n)
			}
		}
	}
	return out
}
