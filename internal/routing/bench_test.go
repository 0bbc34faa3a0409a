package routing

import (
	"math/rand/v2"
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/benchutil"
)

// randomTable10k is 10,000 random routes over the whole IPv4 space, with
// every source and next hop type, plus the defaults.
func randomTable10k(rng *rand.Rand) []model.Route {
	routes := defaultRoutes([]netip.Prefix{pfx("10.1.0.0/16")}, ReservedNonePrefixes, nil)
	for len(routes) < 10000 {
		a := netip.AddrFrom4([4]byte{byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256))})
		routes = append(routes, model.Route{
			Prefix: netip.PrefixFrom(a, 8+rng.IntN(25)).Masked(), Source: testSources[rng.IntN(3)],
			NextHopType: testHops[rng.IntN(len(testHops))], State: model.RouteStateActive,
		})
	}
	return routes
}

func BenchmarkLookup10k(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 7))
	tab := NewTable(randomTable10k(rng))
	addrs := make([]netip.Addr, 4096)
	for i := range addrs {
		addrs[i] = netip.AddrFrom4([4]byte{byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256))})
	}
	b.ReportAllocs()
	b.ResetTimer()
	clock := benchutil.Start()
	found := 0
	for i := 0; i < b.N; i++ {
		if _, ok := tab.Lookup(addrs[i&4095]); ok {
			found++
		}
	}
	b.StopTimer()
	if found == 0 {
		b.Fatal("no route found")
	}
	clock.ReportRate(b, "lookups")
}

func BenchmarkLookup10kIPv6(b *testing.B) {
	rng := rand.New(rand.NewPCG(8, 8))
	var routes []model.Route
	for len(routes) < 10000 {
		var a [16]byte
		a[0], a[1], a[2], a[3] = 0xfd, byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256))
		routes = append(routes, model.Route{Prefix: netip.PrefixFrom(netip.AddrFrom16(a), 16+rng.IntN(49)).Masked(),
			Source: testSources[rng.IntN(3)], NextHopType: testHops[rng.IntN(len(testHops))]})
	}
	tab := NewTable(routes)
	addrs := make([]netip.Addr, 4096)
	for i := range addrs {
		var a [16]byte
		a[0], a[1], a[2], a[3], a[15] = 0xfd, byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256)), 1
		addrs[i] = netip.AddrFrom16(a)
	}
	b.ReportAllocs()
	b.ResetTimer()
	clock := benchutil.Start()
	for i := 0; i < b.N; i++ {
		tab.Lookup(addrs[i&4095])
	}
	b.StopTimer()
	clock.ReportRate(b, "lookups")
}

func BenchmarkNewTable10k(b *testing.B) {
	routes := randomTable10k(rand.New(rand.NewPCG(7, 7)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		NewTable(routes)
	}
}

// BenchmarkTraceHubSpoke traces the scenario topology (spoke → hub private
// endpoint, with return check) on a warm engine, as the verification data
// source does for every pool × hostname.
func BenchmarkTraceHubSpoke(b *testing.B) {
	h := newHubSpoke()
	h.useTransit()
	_, app, _ := withSpoke2(h)
	viaNVA(h, app)
	e := NewEngine(h.net, Options{})
	dsts := []netip.Addr{ip("10.0.2.5"), ip("10.0.2.6"), ip("192.168.10.20"), ip("10.2.1.4")}
	for _, d := range dsts {
		if res := e.Trace(h.aks.ID, d); res.Verdict != model.Reachable {
			b.Fatalf("%s: %s %v", d, res.Verdict, res.Findings)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	clock := benchutil.Start()
	for i := 0; i < b.N; i++ {
		e.Trace(h.aks.ID, dsts[i%len(dsts)])
	}
	b.StopTimer()
	clock.ReportRate(b, "traces")
}
