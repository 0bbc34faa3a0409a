package routing

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Drift is a disagreement, for one destination, between the route Azure
// really selects (a NIC's effective route table) and the one computed from
// configuration: the model misses something (or Azure does), and computed
// verdicts for pools without an effective-route API are in doubt.
type Drift struct {
	Destination   netip.Addr
	Real          model.Route
	RealFound     bool
	Computed      model.Route
	ComputedFound bool
}

// Finding is the COVERAGE_MODEL_DRIFT finding for the drift; resource is
// the NIC whose table was compared.
func (d Drift) Finding(nic model.ResourceID) Finding {
	return d.finding(nic, "the effective routes of "+nic.Name(), "computed verdicts for this pool's scale-set or zero-node instances may be wrong")
}

// finding is the COVERAGE_MODEL_DRIFT finding on resource: whose are the
// real routes, and what the disagreement puts in doubt.
func (d Drift) finding(resource model.ResourceID, whose, doubt string) Finding {
	return newFinding(model.CoverageModelDrift, resource, "", nil,
		"for %s %s select %s, but the routes computed from configuration select %s; %s.",
		d.Destination, whose, DescribeSelection(d.Real, d.RealFound), DescribeSelection(d.Computed, d.ComputedFound), doubt)
}

// DescribeSelection names the route a table selects, "route <prefix> <next hop
// type>[ <ip>] (<origin>)", or "no route" when none matches.
func DescribeSelection(r model.Route, found bool) string {
	if !found {
		return "no route"
	}
	return routeLabel(r)
}

// CompareForDestination compares the route a real effective table (as
// NIC.Effective holds it) selects
// for dst with the computed one, by next hop type and next hop address.
// Prefixes may differ without drift (two routes can lead the same way). For
// a gateway next hop, any address of the same gateway counts as the same
// (Azure lists every active instance; the model keeps one).
func CompareForDestination(effective []model.Route, computed *Computed, dst netip.Addr) (Drift, bool) {
	d := Drift{Destination: dst.Unmap()}
	d.Real, d.RealFound = NewTable(effective).Lookup(d.Destination)
	d.Computed, d.ComputedFound = computed.Table.Lookup(d.Destination)
	return d, selectionsDiffer(d, computed)
}

// selectionsDiffer reports whether the real and the computed selection of
// d lead different ways: one drops for lack of a route and the other does
// not, or they differ in next hop type or next hop address (any address
// of the same gateway counts as the same).
func selectionsDiffer(d Drift, computed *Computed) bool {
	if d.RealFound != d.ComputedFound {
		return true
	}
	if !d.RealFound {
		return false
	}
	if !strings.EqualFold(d.Real.NextHopType, d.Computed.NextHopType) {
		return true
	}
	if d.Real.NextHopIP == d.Computed.NextHopIP || !d.Real.NextHopIP.IsValid() && !d.Computed.NextHopIP.IsValid() {
		return false
	}
	if strings.EqualFold(d.Real.NextHopType, model.NextHopVirtualNetworkGateway) && sameGateway(computed, d.Computed, d.Real.NextHopIP) {
		return false
	}
	return true
}

// sameGateway reports whether addr is one of the addresses of the gateway
// behind the computed route.
func sameGateway(c *Computed, r model.Route, addr netip.Addr) bool {
	for _, l := range c.links {
		if l.gw.ID.Equal(r.OriginID) {
			for _, a := range l.gw.PrivateIPs {
				if a == addr {
					return true
				}
			}
		}
	}
	return false
}

// CompareNIC compares a NIC's real effective route table (NIC.Effective)
// with the routes computed for its subnet, for dst. The computed table uses
// the reserved None ranges the real table shows (they vary by region and
// are not configuration). ok is false when the NIC has no effective table.
func (e *Engine) CompareNIC(nic *model.NIC, dst netip.Addr) (d Drift, drift, ok bool, err error) {
	if nic == nil || nic.Effective == nil {
		return Drift{}, false, false, nil
	}
	reserved := ReservedNoneFromEffective(nic.Effective)
	if reserved == nil {
		reserved = e.opts.reservedNone()
	}
	c, err := computeEffective(e.net, nic.SubnetID, reserved, &e.gateways)
	if err != nil {
		return Drift{}, false, false, fmt.Errorf("computing routes of %s: %w", nic.Name, err)
	}
	d, drift = CompareForDestination(nic.Effective, c, dst)
	return d, drift, true, nil
}
