package routing

import (
	"math/bits"
	"net/netip"
)

// u128 is an address as an unsigned integer, so that prefixes become
// intervals [start, end] that sort and compare without allocation. IPv4
// addresses use the low 32 bits.
type u128 struct{ hi, lo uint64 }

func (a u128) less(b u128) bool { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo) }

func (a u128) lessEq(b u128) bool { return !b.less(a) }

// addOne is a+1; callers never pass the all-ones value.
func (a u128) addOne() u128 {
	lo, carry := bits.Add64(a.lo, 1, 0)
	return u128{a.hi + carry, lo}
}

// hostMask has the low n bits set (0 ≤ n ≤ 128).
func hostMask(n int) u128 {
	switch {
	case n <= 0:
		return u128{}
	case n < 64:
		return u128{0, 1<<uint(n) - 1}
	case n == 64:
		return u128{0, ^uint64(0)}
	case n < 128:
		return u128{1<<uint(n-64) - 1, ^uint64(0)}
	default:
		return u128{^uint64(0), ^uint64(0)}
	}
}

// key4 is an IPv4 address as an integer.
func key4(a netip.Addr) uint32 {
	b := a.As4()
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

// key6 is an IPv6 address as an integer.
func key6(a netip.Addr) u128 {
	b := a.As16()
	var hi, lo uint64
	for i := 0; i < 8; i++ {
		hi = hi<<8 | uint64(b[i])
		lo = lo<<8 | uint64(b[8+i])
	}
	return u128{hi, lo}
}

// prefixRange is the first and last address of a masked prefix, in its
// family's integer space (IPv4 in the low 32 bits).
func prefixRange(p netip.Prefix) (start, end u128) {
	p = p.Masked()
	if p.Addr().Is4() {
		start = u128{0, uint64(key4(p.Addr()))}
		m := hostMask(32 - p.Bits())
		return start, u128{0, start.lo | m.lo}
	}
	start = key6(p.Addr())
	m := hostMask(128 - p.Bits())
	return start, u128{start.hi | m.hi, start.lo | m.lo}
}

// covers reports whether outer contains all of inner (equal counts).
func covers(outer, inner netip.Prefix) bool {
	return outer.IsValid() && inner.IsValid() && outer.Addr().BitLen() == inner.Addr().BitLen() &&
		outer.Bits() <= inner.Bits() && outer.Contains(inner.Addr())
}

// anyContains reports whether one of the prefixes contains the address.
func anyContains(prefixes []netip.Prefix, a netip.Addr) bool {
	for _, p := range prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// isDefaultRoute reports whether p is 0.0.0.0/0 or ::/0.
func isDefaultRoute(p netip.Prefix) bool { return p.IsValid() && p.Bits() == 0 }

// sharedAddressSpace is RFC 6598 (carrier-grade NAT), which Azure treats
// like RFC 1918: a default None route, and not an Internet destination.
var sharedAddressSpace = netip.MustParsePrefix("100.64.0.0/10")

// IsPrivate reports whether an address can only be reached inside a private
// network: RFC 1918, RFC 6598 (100.64.0.0/10) and IPv6 unique local
// (fc00::/7). A route with next hop Internet does not reach such an address.
func IsPrivate(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsPrivate() || sharedAddressSpace.Contains(a)
}
