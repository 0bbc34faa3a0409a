// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/routing"
	"github.com/pullpath/terraform-provider-pullpath/internal/security"
)

// publicStandIn stands for an Internet address Resource Manager does not
// name (a registry's public address, its blob storage). It is a
// documentation address (RFC 5737, TEST-NET-2) that no Azure default None
// route and no sensible user-defined route covers, so the flow takes the
// route any Internet address without a more specific route takes: the
// default route. A user-defined route addressed by a service tag (whose
// members may include the real address) makes the route engine report the
// flow unverified instead. Messages never show the stand-in.
var publicStandIn = netip.MustParseAddr("198.51.100.200")

// RoutingTracer answers route queries with the route engine of package
// routing: routes computed from configuration, the path hop by hop, the
// return path, and, for pools whose NICs have a real effective route
// table, a comparison of the two (COVERAGE_MODEL_DRIFT). Not safe for
// concurrent use; a verification is sequential.
type RoutingTracer struct {
	opts    routing.Options
	net     *model.Network
	engines map[netip.Addr]*routing.Engine // by flow source address
	spaces  spaceMemo                      // VirtualNetwork tag space by VNet
}

// NewRoutingTracer returns a tracer with the route engine's options
// (Options.Source is set per flow to an address of the pool).
func NewRoutingTracer(opts routing.Options) *RoutingTracer {
	return &RoutingTracer{opts: opts}
}

// Trace implements Tracer.
func (t *RoutingTracer) Trace(n *model.Network, q RouteQuery) RouteResult {
	dst := q.Dest
	if q.Public {
		dst = publicStandIn
	}
	source, nic := poolSource(q, n)
	// One engine for every flow: its computed route tables do not depend on
	// the source address, which TraceFrom takes per flow.
	engine := t.engine(n, netip.Addr{})
	var res routing.Result
	if source.IsValid() {
		res = engine.TraceFrom(q.SubnetID, source, dst)
	} else {
		res = engine.Trace(q.SubnetID, dst)
	}

	out := RouteResult{Source: RouteSourceComputed, Gaps: res.Gaps, Needs: res.Needs}
	out.Hops = res.Path()
	for _, f := range res.Findings {
		out.Findings = append(out.Findings, f.ToModel("", ""))
	}
	if d, drift, ok, err := engine.CompareNIC(nic, dst); ok && err == nil {
		if drift {
			out.Findings = append(out.Findings, d.Finding(nic.ID).ToModel("", ""))
		} else {
			out.Source = RouteSourceEffective
		}
	}
	checkSecurity(n, q, res, &out, func(id model.ResourceID) security.Space { return t.spaces.get(n, id) })
	if q.Public {
		hidePublicStandIn(&out)
	}
	return out
}

// engine returns the engine for flows from source (an invalid source lets
// the engine pick the subnet's first host address).
func (t *RoutingTracer) engine(n *model.Network, source netip.Addr) *routing.Engine {
	if t.net != n {
		t.net, t.engines = n, map[netip.Addr]*routing.Engine{}
	}
	if e, ok := t.engines[source]; ok {
		return e
	}
	opts := t.opts
	opts.Source = source
	e := routing.NewEngine(n, opts)
	t.engines[source] = e
	return e
}

// poolSource is the pool's first node address in the query's subnet and
// the NIC it belongs to; with no node (a pool at zero nodes) both are zero.
func poolSource(q RouteQuery, n *model.Network) (netip.Addr, *model.NIC) {
	if q.Pool == nil {
		return netip.Addr{}, nil
	}
	nics := append([]*model.NIC(nil), q.Pool.NICs...)
	for _, id := range q.Pool.NICIDs {
		if nic := n.NIC(id); nic != nil {
			nics = append(nics, nic)
		}
	}
	for _, nic := range nics {
		if nic == nil || !nic.SubnetID.Equal(q.SubnetID) || len(nic.PrivateIPs) == 0 {
			continue
		}
		return nic.PrivateIPs[0], nic
	}
	return netip.Addr{}, nil
}

// hidePublicStandIn rewrites the stand-in address out of hops and messages.
func hidePublicStandIn(out *RouteResult) {
	stand := publicStandIn.String()
	const words = "the registry's public address"
	for i, h := range out.Hops {
		out.Hops[i] = strings.ReplaceAll(h, stand, words)
	}
	for i := range out.Findings {
		out.Findings[i].Message = strings.ReplaceAll(out.Findings[i].Message, stand, words)
		out.Findings[i].Remediation = strings.ReplaceAll(out.Findings[i].Remediation, stand, words)
	}
	for i := range out.Gaps {
		out.Gaps[i].Detail = strings.ReplaceAll(out.Gaps[i].Detail, stand, words)
	}
}
