package routing

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Human-readable pieces of a hop, e.g.
// "subnet vnet-spoke/snet-aks → route 10.0.0.0/16 VNetPeering (peering spoke-to-hub) → vnet-hub/snet-pe (private endpoint pe-acr 10.0.2.5)".

// SubnetLabel is "vnet/subnet", how hops and messages name a subnet.
func SubnetLabel(id model.ResourceID) string {
	return id.Parent().Name() + "/" + id.Name()
}

// routeLabel is "route <prefix> <next hop type>[ <ip>] (<origin>)".
func routeLabel(r model.Route) string {
	var b strings.Builder
	b.WriteString("route ")
	if r.Prefix.IsValid() {
		b.WriteString(r.Prefix.String())
	} else {
		b.WriteString(r.ServiceTag)
	}
	b.WriteString(" ")
	b.WriteString(r.NextHopType)
	if r.NextHopIP.IsValid() {
		b.WriteString(" ")
		b.WriteString(r.NextHopIP.String())
	}
	if r.Origin != "" {
		fmt.Fprintf(&b, " (%s)", r.Origin)
	} else if r.Source != "" {
		fmt.Fprintf(&b, " (%s)", strings.ToLower(r.Source))
	}
	return b.String()
}

// hopText joins the three parts of a hop.
func hopText(subnet model.ResourceID, r *model.Route, outcome string) string {
	if r == nil {
		return fmt.Sprintf("subnet %s → %s", SubnetLabel(subnet), outcome)
	}
	return fmt.Sprintf("subnet %s → %s → %s", SubnetLabel(subnet), routeLabel(*r), outcome)
}

// prefixList is "10.0.0.0/16, 10.5.0.0/16" or "(none)".
func prefixList(ps []netip.Prefix) string {
	if len(ps) == 0 {
		return "(none)"
	}
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, ", ")
}

// familyPrefixes are the prefixes of a's address family.
func familyPrefixes(ps []netip.Prefix, a netip.Addr) []netip.Prefix {
	var out []netip.Prefix
	for _, p := range ps {
		if p.Addr().Is4() == a.Unmap().Is4() {
			out = append(out, p)
		}
	}
	return out
}
