// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/routing"
	"github.com/pullpath/terraform-provider-pullpath/internal/security"
)

// publicStandIn stands for an Internet address Resource Manager does not
// name (a registry's public address, its blob storage): the route engine's
// routing.PublicStandIn, which takes the default route. Routes expanded
// from service tags (user-defined routes by tag, service endpoints) that
// may hold the real address make the route engine report the flow
// unverified where they would send it elsewhere; so does a user-defined
// route addressed by a service tag whose members are unknown. Messages
// never show the stand-in.
var publicStandIn = routing.PublicStandIn

// RoutingTracer answers route queries with the route engine of package
// routing: the path hop by hop and the return path, with routes computed
// from configuration, or, for pools whose NICs have a real effective route
// table, with that table for the first hop and the computed routes as the
// comparison (COVERAGE_MODEL_DRIFT). Not safe for
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
	switch {
	case nic != nil && nic.Effective != nil:
		// Azure reported what it programs for a node: trace with it; the
		// computed routes are the comparison (COVERAGE_MODEL_DRIFT).
		res = engine.TraceEffective(nic, source, dst)
	case source.IsValid():
		res = engine.TraceFrom(q.SubnetID, source, dst)
	default:
		res = engine.Trace(q.SubnetID, dst)
	}

	res, fw := applyFirewalls(n, engine, q, res)

	out := RouteResult{Source: RouteSourceComputed, Gaps: res.Gaps, Needs: res.Needs}
	if res.Effective {
		out.Source = RouteSourceEffective
	}
	out.Hops = res.Path()
	out.Steps = res.Steps()
	for _, f := range res.Findings {
		out.Findings = append(out.Findings, f.ToModel("", ""))
	}
	checkSecurity(n, q, res, fw.nat, &out, func(id model.ResourceID) security.Space { return t.spaces.get(n, id) })
	out.Findings = append(out.Findings, fw.findings...)
	out.Gaps = append(out.Gaps, fw.gaps...)
	for _, ev := range fw.needs {
		out.Needs = model.AddNeed(out.Needs, ev)
	}
	out.Inspected = fw.inspected
	out.Exit = exitOf(res)
	if q.Public {
		hidePublicStandIn(&out, q.Host)
	}
	return out
}

// exitOf says where the route engine's forward path left, for a flow whose
// route delivered it.
func exitOf(res routing.Result) Exit {
	var e Exit
	if len(res.Hops) == 0 {
		return e
	}
	first, last := res.Hops[0], res.Hops[len(res.Hops)-1]
	if first.HasRoute {
		e.FirstRoute = routeWords(first.Route)
	}
	switch res.Arrival.Kind {
	case routing.ArrivalInternet:
		e.Kind = ExitInternet
	case routing.ArrivalOnPremises:
		e.Kind, e.GatewayID = ExitOnPremises, res.Arrival.GatewayID
	case routing.ArrivalServiceEndpoint:
		e.Kind = ExitServiceEndpoint
	default:
		return Exit{}
	}
	e.SubnetID = last.SubnetID
	if last.HasRoute {
		e.Route = routeWords(last.Route)
	}
	for _, a := range res.Appliances {
		e.Appliances = append(e.Appliances, ExitAppliance{IP: a.IP, SubnetID: a.SubnetID, NICID: a.NICID, Label: a.Label})
	}
	return e
}

// routeWords is a selected route in words: what put it there and where it
// sends the flow, e.g. "route table rt-aks route to-fw: 0.0.0.0/0 →
// VirtualAppliance 10.0.4.4".
func routeWords(r model.Route) string {
	what := r.Origin
	switch what {
	case "default":
		what = "Azure's default route"
	case "":
		what = r.Source + " route"
	}
	dest := r.Prefix.String()
	if r.ServiceTag != "" {
		dest = r.ServiceTag
	}
	hop := r.NextHopType
	if r.NextHopIP.IsValid() {
		hop += " " + r.NextHopIP.String()
	}
	return fmt.Sprintf("%s: %s → %s", what, dest, hop)
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
// the NIC it belongs to (the network's copy, with its effective route table
// when Azure gave one); with no node (a pool at zero nodes) both are zero.
func poolSource(q RouteQuery, n *model.Network) (netip.Addr, *model.NIC) {
	if q.Pool == nil {
		return netip.Addr{}, nil
	}
	// The network's copy of a NIC carries its effective route table (the
	// pool's copy is the NIC as the cluster was read): prefer it.
	var nics []*model.NIC
	for _, nic := range q.Pool.NICs {
		if nic != nil {
			if have := n.NIC(nic.ID); have != nil {
				nic = have
			}
		}
		nics = append(nics, nic)
	}
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

// hidePublicStandIn rewrites the stand-in address out of hops and
// messages: it becomes the public address of host.
func hidePublicStandIn(out *RouteResult, host string) {
	stand := publicStandIn.String()
	words := "the registry's public address"
	if host != "" {
		words = "the public address of " + host
	}
	for i, h := range out.Hops {
		out.Hops[i] = strings.ReplaceAll(h, stand, words)
	}
	for i, s := range out.Steps {
		s.Label = strings.ReplaceAll(s.Label, stand, words)
		s.Route = strings.ReplaceAll(s.Route, stand, words)
		if s.Address == stand {
			s.Address = ""
		}
		out.Steps[i] = s
	}
	for i := range out.Findings {
		out.Findings[i].Message = strings.ReplaceAll(out.Findings[i].Message, stand, words)
		out.Findings[i].Remediation = strings.ReplaceAll(out.Findings[i].Remediation, stand, words)
	}
	for i := range out.Gaps {
		out.Gaps[i].Detail = strings.ReplaceAll(out.Gaps[i].Detail, stand, words)
	}
}
