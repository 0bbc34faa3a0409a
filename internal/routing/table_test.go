package routing

import (
	"math/rand/v2"
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

func pfx(s string) netip.Prefix { return netip.MustParsePrefix(s) }
func ip(s string) netip.Addr    { return netip.MustParseAddr(s) }

func sys(prefix, hop string) model.Route {
	return model.Route{Prefix: pfx(prefix), NextHopType: hop, Source: model.RouteSourceDefault, State: model.RouteStateActive}
}
func bgp(prefix, nh string) model.Route {
	return model.Route{Prefix: pfx(prefix), NextHopType: model.NextHopVirtualNetworkGateway, NextHopIP: ip(nh), Source: model.RouteSourceGateway, State: model.RouteStateActive}
}
func udr(name, prefix, hop, nh string) model.Route {
	r := model.Route{Name: name, Prefix: pfx(prefix), NextHopType: hop, Source: model.RouteSourceUser, State: model.RouteStateActive}
	if nh != "" {
		r.NextHopIP = ip(nh)
	}
	return r
}
func invalid(r model.Route) model.Route { r.State = model.RouteStateInvalid; return r }

// TestTableSelection covers each selection rule with a case where it
// decides (positive) and a case where it must not (negative).
func TestTableSelection(t *testing.T) {
	type pick struct {
		addr string
		want int // index into routes, -1 for no route
	}
	cases := []struct {
		name   string
		routes []model.Route
		picks  []pick
	}{
		{"longest prefix wins; outside it the shorter one", []model.Route{
			sys("0.0.0.0/0", model.NextHopInternet), sys("10.0.0.0/8", model.NextHopNone), sys("10.1.0.0/16", model.NextHopVnetLocal),
		}, []pick{{"10.1.2.3", 2}, {"10.2.0.1", 1}, {"8.8.8.8", 0}}},
		{"same prefix: UDR beats BGP beats system", []model.Route{
			sys("192.168.0.0/16", model.NextHopNone), bgp("192.168.0.0/16", "10.0.0.30"), udr("onprem", "192.168.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4"),
		}, []pick{{"192.168.1.1", 2}}},
		{"same prefix without UDR: BGP beats the default None", []model.Route{
			sys("192.168.0.0/16", model.NextHopNone), bgp("192.168.0.0/16", "10.0.0.30"),
		}, []pick{{"192.168.1.1", 1}}},
		{"a more specific BGP route cannot override the VNet's own space", []model.Route{
			sys("10.1.0.0/16", model.NextHopVnetLocal), bgp("10.1.5.0/24", "10.0.0.30"), sys("0.0.0.0/0", model.NextHopInternet),
		}, []pick{{"10.1.5.9", 0}}},
		{"nor a peering, nor a service endpoint, nor at the same prefix", []model.Route{
			sys("10.0.0.0/16", model.NextHopVNetPeering), bgp("10.0.2.0/24", "10.0.0.30"),
			sys("20.60.0.0/16", model.NextHopServiceEndpoint), bgp("0.0.0.0/0", "10.0.0.30"), bgp("20.60.1.0/24", "10.0.0.30"),
			sys("10.3.0.0/16", model.NextHopVNetGlobalPeering), bgp("10.3.0.0/16", "10.0.0.30"),
		}, []pick{{"10.0.2.7", 0}, {"20.60.1.1", 2}, {"10.3.9.9", 5}}},
		{"a BGP route outside protected space is selected (negative of the exception)", []model.Route{
			sys("10.1.0.0/16", model.NextHopVnetLocal), bgp("10.2.0.0/16", "10.0.0.30"), bgp("0.0.0.0/0", "10.0.0.30"),
			sys("0.0.0.0/0", model.NextHopInternet), sys("10.0.0.0/8", model.NextHopNone),
		}, []pick{{"10.2.3.4", 1}, {"8.8.8.8", 2}, {"10.9.0.1", 4}}},
		{"a BGP route more specific than a default None or Internet route wins", []model.Route{
			sys("10.0.0.0/8", model.NextHopNone), bgp("10.50.0.0/16", "10.0.0.30"),
		}, []pick{{"10.50.0.1", 1}, {"10.51.0.1", 0}}},
		{"a UDR more specific than the VNet's space overrides it", []model.Route{
			sys("10.1.0.0/16", model.NextHopVnetLocal), udr("to-fw", "10.1.8.0/24", model.NextHopVirtualAppliance, "10.0.1.4"),
		}, []pick{{"10.1.8.1", 1}, {"10.1.9.1", 0}}},
		{"a UDR at the VNet's prefix overrides it and still shields it from BGP", []model.Route{
			invalid(sys("10.1.0.0/16", model.NextHopVnetLocal)), udr("all", "10.1.0.0/16", model.NextHopVirtualAppliance, "10.0.1.4"), bgp("10.1.5.0/24", "10.0.0.30"),
		}, []pick{{"10.1.5.1", 1}, {"10.1.6.1", 1}}},
		{"Invalid routes are ignored", []model.Route{
			sys("0.0.0.0/0", model.NextHopInternet), invalid(sys("10.0.2.5/32", model.NextHopInterfaceEndpoint)), udr("hub", "10.0.0.0/16", model.NextHopNone, ""),
		}, []pick{{"10.0.2.5", 2}, {"10.0.2.6", 2}}},
		{"an active /32 beats a broader UDR (negative of the above)", []model.Route{
			sys("10.0.2.5/32", model.NextHopInterfaceEndpoint), udr("hub", "10.0.0.0/16", model.NextHopNone, ""),
		}, []pick{{"10.0.2.5", 0}, {"10.0.2.6", 1}}},
		{"no route: no selection", []model.Route{sys("10.0.0.0/8", model.NextHopNone)}, []pick{{"11.0.0.1", -1}, {"2001:db8::1", -1}}},
		{"IPv6 longest prefix and the BGP exception", []model.Route{
			sys("::/0", model.NextHopInternet), sys("fd00:10::/48", model.NextHopVnetLocal), bgp("fd00:10:0:5::/64", "10.0.0.30"), bgp("fd00:20::/48", "10.0.0.30"),
		}, []pick{{"fd00:10:0:5::1", 1}, {"fd00:20::1", 3}, {"2001:db8::1", 0}}},
		{"IPv4-mapped IPv6 addresses are looked up as IPv4", []model.Route{sys("10.0.0.0/8", model.NextHopNone)}, []pick{{"::ffff:10.1.2.3", 0}}},
		{"unmasked prefixes are masked; edges of the space", []model.Route{
			{Prefix: netip.PrefixFrom(ip("10.1.2.3"), 16), NextHopType: model.NextHopVnetLocal, Source: model.RouteSourceDefault},
			sys("255.255.255.255/32", model.NextHopNone), sys("0.0.0.0/32", model.NextHopNone),
		}, []pick{{"10.1.0.0", 0}, {"10.1.255.255", 0}, {"10.2.0.0", -1}, {"255.255.255.255", 1}, {"255.255.255.254", -1}, {"0.0.0.0", 2}, {"0.0.0.1", -1}}},
		{"service-tag routes are kept but never match", []model.Route{
			{Name: "tag", ServiceTag: "AzureCloud", NextHopType: model.NextHopInternet, Source: model.RouteSourceUser},
		}, []pick{{"20.0.0.1", -1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tab := NewTable(c.routes)
			for _, p := range c.picks {
				got := tab.LookupIndex(ip(p.addr))
				if got != p.want {
					t.Errorf("%s: got route %d, want %d", p.addr, got, p.want)
				}
				if ref := referenceSelect(c.routes, ip(p.addr)); ref != p.want {
					t.Errorf("%s: reference got %d, want %d (test case wrong?)", p.addr, ref, p.want)
				}
			}
		})
	}
}

// TestTableAgainstReferenceRandom compares Table with the reference on
// random nested route sets: a fast deterministic cousin of FuzzSelect.
func TestTableAgainstReferenceRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 300; round++ {
		routes := randomRoutes(rng, 1+rng.IntN(60), round%3 == 0)
		tab := NewTable(routes)
		for q := 0; q < 200; q++ {
			a := randomAddrNear(rng, routes, round%3 == 0)
			if got, want := tab.LookupIndex(a), referenceSelect(routes, a); got != want {
				t.Fatalf("round %d addr %s: table %d, reference %d\nroutes: %v", round, a, got, want, routes)
			}
		}
	}
}

var testSources = []string{model.RouteSourceDefault, model.RouteSourceUser, model.RouteSourceGateway, "Unknown"}
var testHops = []string{model.NextHopVnetLocal, model.NextHopVNetPeering, model.NextHopVNetGlobalPeering, model.NextHopServiceEndpoint,
	model.NextHopInterfaceEndpoint, model.NextHopInternet, model.NextHopNone, model.NextHopVirtualAppliance, model.NextHopVirtualNetworkGateway}

// randomRoutes draws routes from a small address region so that prefixes
// nest and collide often.
func randomRoutes(rng *rand.Rand, n int, v6 bool) []model.Route {
	routes := make([]model.Route, n)
	for i := range routes {
		var a netip.Addr
		var bits int
		if v6 {
			b := [16]byte{0xfd, 0, 0, byte(rng.IntN(4))}
			b[4] = byte(rng.IntN(256))
			a, bits = netip.AddrFrom16(b), rng.IntN(49)
		} else {
			a, bits = netip.AddrFrom4([4]byte{10, byte(rng.IntN(4)), byte(rng.IntN(256)), byte(rng.IntN(256))}), rng.IntN(33)
		}
		routes[i] = model.Route{
			Prefix: netip.PrefixFrom(a, bits).Masked(), Source: testSources[rng.IntN(len(testSources))],
			NextHopType: testHops[rng.IntN(len(testHops))], State: model.RouteStateActive,
		}
		if rng.IntN(5) == 0 {
			routes[i].State = model.RouteStateInvalid
		}
	}
	return routes
}

func randomAddrNear(rng *rand.Rand, routes []model.Route, v6 bool) netip.Addr {
	if len(routes) > 0 && rng.IntN(2) == 0 {
		p := routes[rng.IntN(len(routes))].Prefix
		a := p.Addr()
		for k := rng.IntN(3); k > 0; k-- {
			a = a.Prev()
		}
		if !a.IsValid() {
			a = p.Addr()
		}
		return a
	}
	if v6 {
		return netip.AddrFrom16([16]byte{0xfd, 0, 0, byte(rng.IntN(4)), byte(rng.IntN(256)), byte(rng.IntN(256))})
	}
	return netip.AddrFrom4([4]byte{10, byte(rng.IntN(4)), byte(rng.IntN(256)), byte(rng.IntN(256))})
}

// TestLargeTableAgainstReference exercises the bucket index: thousands of
// routes over the whole space and concentrated in 10.0.0.0/8, IPv4 and
// IPv6, checked against the reference.
func TestLargeTableAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	routes := randomTable10k(rng)[:1200]
	for i := 0; i < 600; i++ {
		a := netip.AddrFrom4([4]byte{10, byte(rng.IntN(256)), byte(rng.IntN(256)), 0})
		routes = append(routes, model.Route{Prefix: netip.PrefixFrom(a, 8+rng.IntN(25)).Masked(), Source: testSources[rng.IntN(4)],
			NextHopType: testHops[rng.IntN(len(testHops))], State: model.RouteStateActive})
	}
	for i := 0; i < 300; i++ {
		var a [16]byte
		a[0], a[1], a[2], a[3] = 0xfd, byte(rng.IntN(4)), byte(rng.IntN(256)), byte(rng.IntN(256))
		routes = append(routes, model.Route{Prefix: netip.PrefixFrom(netip.AddrFrom16(a), rng.IntN(49)).Masked(), Source: testSources[rng.IntN(4)],
			NextHopType: testHops[rng.IntN(len(testHops))], State: model.RouteStateActive})
	}
	tab := NewTable(routes)
	for q := 0; q < 1500; q++ {
		var a netip.Addr
		switch q % 3 {
		case 0:
			a = netip.AddrFrom4([4]byte{byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256))})
		case 1:
			a = randomAddrNear(rng, routes, false)
		default:
			var b [16]byte
			b[0], b[1], b[2], b[3], b[4] = 0xfd, byte(rng.IntN(4)), byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256))
			a = netip.AddrFrom16(b)
		}
		if got, want := tab.LookupIndex(a), referenceSelect(routes, a); got != want {
			t.Fatalf("%s: table %d, reference %d", a, got, want)
		}
	}
	for _, a := range []string{"0.0.0.0", "255.255.255.255", "10.0.0.0", "10.255.255.255", "::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"} {
		if got, want := tab.LookupIndex(ip(a)), referenceSelect(routes, ip(a)); got != want {
			t.Fatalf("%s: table %d, reference %d", a, got, want)
		}
	}
}
