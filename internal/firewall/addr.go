// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package firewall

import (
	"net/netip"
	"sort"
	"strings"
)

var (
	allV4 = netip.MustParsePrefix("0.0.0.0/0")
	allV6 = netip.MustParsePrefix("::/0")
)

// parseAddress parses one address entry of a rule or an IP group as Azure
// accepts it: "*", an address, a CIDR, or a range "a-b". ok is false for
// anything else (a service tag, a typo).
func parseAddress(s string) (set []netip.Prefix, ok bool) {
	s = strings.TrimSpace(s)
	switch {
	case s == "*":
		return []netip.Prefix{allV4, allV6}, true
	case strings.Contains(s, "/"):
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return nil, false
		}
		return []netip.Prefix{normPrefix(p)}, true
	case strings.Contains(s, "-"):
		from, to, _ := strings.Cut(s, "-")
		a, err1 := netip.ParseAddr(strings.TrimSpace(from))
		b, err2 := netip.ParseAddr(strings.TrimSpace(to))
		a, b = a.Unmap(), b.Unmap()
		if err1 != nil || err2 != nil || a.Is4() != b.Is4() || b.Less(a) {
			return nil, false
		}
		return rangePrefixes(a, b), true
	default:
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, false
		}
		a = a.Unmap()
		return []netip.Prefix{netip.PrefixFrom(a, a.BitLen())}, true
	}
}

func normPrefix(p netip.Prefix) netip.Prefix {
	a := p.Addr()
	bits := p.Bits()
	if a.Is4In6() {
		a = a.Unmap()
		bits -= 96
		if bits < 0 {
			bits = 0
		}
	}
	return netip.PrefixFrom(a, bits).Masked()
}

// rangePrefixes is the smallest list of prefixes that covers a..b exactly.
func rangePrefixes(a, b netip.Addr) []netip.Prefix {
	var out []netip.Prefix
	for {
		bits := a.BitLen()
		// Widen while the prefix starts at a and ends at or before b.
		for bits > 0 {
			p := netip.PrefixFrom(a, bits-1).Masked()
			if p.Addr() != a || b.Less(lastAddr(p)) {
				break
			}
			bits--
		}
		p := netip.PrefixFrom(a, bits)
		out = append(out, p)
		last := lastAddr(p)
		if !last.Less(b) {
			return out
		}
		a = last.Next()
	}
}

// lastAddr is the highest address of p.
func lastAddr(p netip.Prefix) netip.Addr {
	a := p.Masked().Addr()
	if a.Is4() {
		b := a.As4()
		for i := p.Bits(); i < 32; i++ {
			b[i/8] |= 1 << (7 - i%8)
		}
		return netip.AddrFrom4(b)
	}
	b := a.As16()
	for i := p.Bits(); i < 128; i++ {
		b[i/8] |= 1 << (7 - i%8)
	}
	return netip.AddrFrom16(b)
}

// halves splits p (not a single address) into its two halves.
func halves(p netip.Prefix) (netip.Prefix, netip.Prefix) {
	bits := p.Bits() + 1
	lo := netip.PrefixFrom(p.Masked().Addr(), bits)
	hiAddr := p.Masked().Addr()
	if hiAddr.Is4() {
		b := hiAddr.As4()
		b[(bits-1)/8] |= 1 << (7 - (bits-1)%8)
		hiAddr = netip.AddrFrom4(b)
	} else {
		b := hiAddr.As16()
		b[(bits-1)/8] |= 1 << (7 - (bits-1)%8)
		hiAddr = netip.AddrFrom16(b)
	}
	return lo, netip.PrefixFrom(hiAddr, bits)
}

// split divides p by the set: the parts of p inside it and outside it,
// each as disjoint prefixes.
func split(p netip.Prefix, set []netip.Prefix) (inside, outside []netip.Prefix) {
	var inner []netip.Prefix
	for _, s := range set {
		switch {
		case s.Addr().Is4() != p.Addr().Is4():
		case s.Bits() <= p.Bits() && s.Contains(p.Addr()):
			return []netip.Prefix{p}, nil
		case s.Bits() > p.Bits() && p.Contains(s.Addr()):
			inner = append(inner, s.Masked())
		}
	}
	if len(inner) == 0 {
		return nil, []netip.Prefix{p}
	}
	inner = dedupe(inner)
	outside = []netip.Prefix{p}
	for _, q := range inner {
		var next []netip.Prefix
		for _, o := range outside {
			next = append(next, subtract(o, q)...)
		}
		outside = next
	}
	return inner, outside
}

// subtract is p without q.
func subtract(p, q netip.Prefix) []netip.Prefix {
	switch {
	case q.Bits() <= p.Bits() && q.Contains(p.Addr()):
		return nil
	case q.Bits() > p.Bits() && p.Contains(q.Addr()):
		var out []netip.Prefix
		cur := p
		for cur.Bits() < q.Bits() {
			lo, hi := halves(cur)
			if lo.Contains(q.Addr()) {
				out = append(out, hi)
				cur = lo
			} else {
				out = append(out, lo)
				cur = hi
			}
		}
		return out
	default:
		return []netip.Prefix{p}
	}
}

// dedupe sorts prefixes and drops those inside another of the list.
func dedupe(ps []netip.Prefix) []netip.Prefix {
	sortPrefixes(ps)
	var out []netip.Prefix
	for _, p := range ps {
		covered := false
		for _, o := range out {
			covered = covered || (o.Addr().Is4() == p.Addr().Is4() && o.Bits() <= p.Bits() && o.Contains(p.Addr()))
		}
		if !covered {
			out = append(out, p)
		}
	}
	return out
}

func sortPrefixes(ps []netip.Prefix) {
	sort.Slice(ps, func(i, j int) bool {
		if c := ps[i].Addr().Compare(ps[j].Addr()); c != 0 {
			return c < 0
		}
		return ps[i].Bits() < ps[j].Bits()
	})
}

// nonPublic are the ranges that hold no public Internet address.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("127.0.0.0/8"),
	netip.MustParsePrefix("169.254.0.0/16"),
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("224.0.0.0/3"),
	netip.MustParsePrefix("::1/128"),
	netip.MustParsePrefix("fc00::/7"),
	netip.MustParsePrefix("fe80::/10"),
}

// publicAddressIn answers whether a public address Resource Manager does
// not show lies in the address set: yes when the set spans every address
// of the families the nodes use, no when it holds only non-public space,
// unknown otherwise.
func publicAddressIn(set []netip.Prefix, v4, v6 bool) match {
	hasAll4, hasAll6 := false, false
	onlyNonPublic := true
	for _, p := range set {
		if p == allV4 {
			hasAll4 = true
		}
		if p == allV6 {
			hasAll6 = true
		}
		inside := false
		for _, np := range nonPublic {
			inside = inside || (np.Addr().Is4() == p.Addr().Is4() && np.Bits() <= p.Bits() && np.Contains(p.Addr()))
		}
		onlyNonPublic = onlyNonPublic && inside
	}
	switch {
	case (hasAll4 || !v4) && (hasAll6 || !v6) && (v4 || v6):
		return yes
	case onlyNonPublic:
		return no
	default:
		return unknown
	}
}
