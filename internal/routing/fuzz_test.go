package routing

import (
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// FuzzSelect compares Table with the linear-scan reference on route sets
// decoded from the input: 5 bytes per route (two address bytes in a small
// region so that prefixes nest, length, source, next hop+state), the rest
// are query addresses.
func FuzzSelect(f *testing.F) {
	f.Add([]byte{1, 0, 16, 0, 0, 1, 5, 24, 2, 8, 0, 0, 0, 0, 5, 1, 5, 9, 1, 6, 0})
	f.Add([]byte{0, 0, 8, 0, 6, 0, 0, 16, 1, 0, 0, 0, 24, 2, 8, 0, 0, 0, 7, 0, 3, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		if len(data) > 0 {
			n = int(data[0]) % 40
			data = data[1:]
		}
		v6 := n%2 == 1
		var routes []model.Route
		for i := 0; i < n && len(data) >= 5; i++ {
			b := data[:5]
			data = data[5:]
			var p netip.Prefix
			if v6 {
				p = netip.PrefixFrom(netip.AddrFrom16([16]byte{0xfd, 0, b[0] & 3, b[1]}), int(b[2])%41)
			} else {
				p = netip.PrefixFrom(netip.AddrFrom4([4]byte{10, b[0] & 3, b[1], 0}), int(b[2])%33)
			}
			r := model.Route{Prefix: p.Masked(), Source: testSources[int(b[3])%len(testSources)],
				NextHopType: testHops[int(b[4])%len(testHops)], State: model.RouteStateActive}
			if b[4]&0x80 != 0 {
				r.State = model.RouteStateInvalid
			}
			routes = append(routes, r)
		}
		tab := NewTable(routes)
		// The same routes with a run of them presorted (as computed tables
		// merge a gateway's routes) must select identically.
		lo, hi := 0, 0
		if len(data) >= 2 && n > 0 {
			lo, hi = int(data[0])%(len(routes)+1), int(data[1])%(len(routes)+1)
			if lo > hi {
				lo, hi = hi, lo
			}
		}
		own := append(append([]model.Route(nil), routes[:lo]...), routes[hi:]...)
		merged := buildTable(own, lo, sortBlock(append([]model.Route(nil), routes[lo:hi]...)), false)
		for len(data) >= 2 {
			var a netip.Addr
			if v6 {
				a = netip.AddrFrom16([16]byte{0xfd, 0, data[0] & 3, data[1]})
			} else {
				a = netip.AddrFrom4([4]byte{10, data[0] & 3, data[1], data[0] >> 2})
			}
			data = data[2:]
			if got, want := tab.LookupIndex(a), referenceSelect(routes, a); got != want {
				t.Fatalf("%s: table %d, reference %d; routes %v", a, got, want, routes)
			}
			if got, want := merged.LookupIndex(a), tab.LookupIndex(a); got != want {
				t.Fatalf("%s: with routes[%d:%d] presorted %d, sorted whole %d; routes %v", a, lo, hi, got, want, routes)
			}
		}
	})
}

// FuzzTrace builds a small network of up to four VNets (peerings with
// random states and flags, route tables with random UDRs to appliances,
// gateways, None, Internet; NICs with and without forwarding; private
// endpoints) and traces random destinations: Trace must terminate, never
// panic, and give a verdict consistent with its findings.
func FuzzTrace(f *testing.F) {
	f.Add([]byte{3, 0xff, 0x13, 0x55, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	f.Add([]byte{4, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &byteReader{data: data}
		net, subnets := fuzzNetwork(r)
		if len(subnets) == 0 {
			return
		}
		e := NewEngine(net, Options{MaxHops: 1 + int(r.next()%6)})
		for q := 0; q < 4; q++ {
			from := subnets[int(r.next())%len(subnets)]
			dst := netip.AddrFrom4([4]byte{10, r.next() % 6, r.next() % 4, r.next() % 8})
			if r.next()%5 == 0 {
				dst = netip.AddrFrom4([4]byte{192, 168, r.next(), 1})
			}
			res := e.Trace(from, dst)
			if len(res.Hops) > e.opts.maxHops()+1 {
				t.Fatalf("%d hops with MaxHops %d", len(res.Hops), e.opts.maxHops())
			}
			if len(res.Return.Hops) > e.opts.maxHops()+1 {
				t.Fatalf("%d return hops", len(res.Return.Hops))
			}
			if (res.Verdict == model.Unreachable) != (verdictOf(res.Findings, nil) == model.Unreachable) {
				t.Fatalf("verdict %s with findings %v", res.Verdict, res.Findings)
			}
			if res.Verdict == model.Reachable && (len(res.Gaps) > 0 || res.Arrival.Kind == ArrivalNone) {
				t.Fatalf("reachable with gaps %v or without arrival %+v", res.Gaps, res.Arrival)
			}
		}
	})
}

type byteReader struct {
	data []byte
	i    int
}

// next returns the next byte, cycling (zero when empty) so that any input
// decodes to some network.
func (r *byteReader) next() byte {
	if len(r.data) == 0 {
		return 0
	}
	b := r.data[r.i%len(r.data)]
	r.i++
	return b
}

func fuzzNetwork(r *byteReader) (*model.Network, []model.ResourceID) {
	b := newBuilder()
	nv := 1 + int(r.next()%4)
	var vnets []*model.VNet
	var subnets []*model.Subnet
	var subnetIDs []model.ResourceID
	for i := 0; i < nv; i++ {
		v := b.vnet("rg", "vnet"+string(rune('a'+i)), netip.PrefixFrom(netip.AddrFrom4([4]byte{10, byte(i), 0, 0}), 16).String())
		if r.next()%4 == 0 {
			v.AddressSpace = append(v.AddressSpace, netip.PrefixFrom(netip.AddrFrom4([4]byte{10, byte(4 + i%2), 0, 0}), 16))
		}
		vnets = append(vnets, v)
		for j := 0; j < 1+int(r.next()%3); j++ {
			s := b.subnet(v, "s"+string(rune('0'+j)), netip.PrefixFrom(netip.AddrFrom4([4]byte{10, byte(i), byte(j), 0}), 24).String())
			if r.next()%2 == 0 {
				s.PrivateEndpointNetworkPolicies = "RouteTableEnabled"
			}
			subnets = append(subnets, s)
			subnetIDs = append(subnetIDs, s.ID)
			for k := 0; k < int(r.next()%3); k++ {
				b.nic("rg", "nic-"+v.Name+s.Name+string(rune('0'+k)), s, r.next()%2 == 0, netip.AddrFrom4([4]byte{10, byte(i), byte(j), byte(4 + k)}).String())
			}
			if r.next()%3 == 0 {
				b.privateEndpoint("rg", "pe-"+v.Name+s.Name, s, netip.AddrFrom4([4]byte{10, byte(i), byte(j), 7}).String())
			}
		}
		if r.next()%3 == 0 {
			gw := b.gateway("rg", "gw"+v.Name, v, netip.AddrFrom4([4]byte{10, byte(i), 0, 30}).String(), ebgp("192.168.0.0/16", "192.168.255.1"))
			gw.LearnedKnown = r.next()%4 != 0
			gw.Advertised[ip("192.168.255.1")] = []model.GatewayRoute{{Prefix: pfx("10.0.0.0/8")}}
		}
	}
	states := []string{"Connected", "Connected", "Initiated", "Disconnected"}
	for i := 0; i < len(vnets); i++ {
		for j := i + 1; j < len(vnets); j++ {
			if r.next()%2 == 0 {
				continue
			}
			p, q := b.peer(vnets[i], vnets[j], "p"+vnets[i].Name+vnets[j].Name, "p"+vnets[j].Name+vnets[i].Name)
			for _, x := range []*model.Peering{p, q} {
				flags := r.next()
				x.State = states[int(flags)%len(states)]
				x.AllowVirtualNetworkAccess = flags&4 == 0
				x.AllowForwardedTraffic = flags&8 == 0
				x.AllowGatewayTransit = flags&16 != 0
				x.UseRemoteGateways = flags&32 != 0
				if flags&64 != 0 {
					x.RemoteAddressSpace = x.RemoteAddressSpace[:1]
				}
			}
			if r.next()%5 == 0 {
				vnets[j].Peerings = vnets[j].Peerings[:len(vnets[j].Peerings)-1]
			}
		}
	}
	hops := []string{model.NextHopVirtualAppliance, model.NextHopVirtualAppliance, model.NextHopNone, model.NextHopInternet, model.NextHopVirtualNetworkGateway, model.NextHopVnetLocal}
	for i, s := range subnets {
		if r.next()%2 == 0 {
			continue
		}
		var routes []model.Route
		for k := 0; k < 1+int(r.next()%3); k++ {
			p := netip.PrefixFrom(netip.AddrFrom4([4]byte{10, r.next() % 6, r.next() % 4, 0}), 8+int(r.next()%17)).Masked()
			h := hops[int(r.next())%len(hops)]
			u := model.Route{Name: "u" + string(rune('0'+k)), Prefix: p, NextHopType: h}
			if h == model.NextHopVirtualAppliance {
				u.NextHopIP = netip.AddrFrom4([4]byte{10, r.next() % 6, r.next() % 3, 4 + r.next()%3})
			}
			routes = append(routes, u)
		}
		b.attach(s, b.routeTable("rg", "rt"+string(rune('a'+i)), r.next()%3 == 0, routes...))
	}
	if r.next()%7 == 0 && len(subnets) > 1 {
		delete(b.net.Subnets, subnets[1].ID.Key())
	}
	return b.net, subnetIDs
}
