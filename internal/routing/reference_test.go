package routing

import (
	"net/netip"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// referenceSelect is the selection rules written as plainly as possible: a
// linear scan with no precomputation. Table must agree with it everywhere.
//
// Among the active routes that contain the address, a BGP route is out if a
// protected system route (any state) of the same or a shorter prefix also
// contains the address; of the rest, the longest prefix wins, then
// betterSamePrefix.
func referenceSelect(routes []model.Route, a netip.Addr) int {
	a = a.Unmap()
	best := -1
	for i := range routes {
		r := &routes[i]
		p := r.Prefix.Masked()
		if !p.IsValid() || !p.Contains(a) || !isActive(r) {
			continue
		}
		if isBGP(r) && protectedCovers(routes, a, p.Bits()) {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		bb := routes[best].Prefix.Bits()
		if p.Bits() > bb || (p.Bits() == bb && betterSamePrefix(r, i, &routes[best], best)) {
			best = i
		}
	}
	return best
}

func protectedCovers(routes []model.Route, a netip.Addr, maxBits int) bool {
	for i := range routes {
		r := &routes[i]
		if isProtectedSystem(r) && r.Prefix.IsValid() && r.Prefix.Bits() <= maxBits && r.Prefix.Masked().Contains(a) {
			return true
		}
	}
	return false
}
