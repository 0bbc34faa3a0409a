// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"net/netip"
	"slices"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/ids"
)

// InboundEndpointType is the resource type of a DNS private resolver's
// inbound endpoint, in lower case.
const InboundEndpointType = "microsoft.network/dnsresolvers/inboundendpoints"

// ResolverEndpointQuery is the Azure Resource Graph search for DNS private
// resolver inbound endpoints holding some addresses: the DNS server
// addresses the nodes use that no VNet read explains (a resolver in a VNet
// the network's closure does not reach, or in another subscription). It is
// the one place that says what the query is. Gather sends its KQL text;
// the what-if overlay recognises the request by that same text and
// evaluates the planned inbound endpoints with Row, so neither side parses
// KQL.
type ResolverEndpointQuery struct {
	// Addresses are the addresses asked for, in their canonical text
	// form, sorted, each once.
	Addresses []string
}

// NewResolverEndpointQuery is the query for the inbound endpoints holding
// one of addrs.
func NewResolverEndpointQuery(addrs []netip.Addr) ResolverEndpointQuery {
	var out []string
	for _, a := range addrs {
		if a.IsValid() {
			out = append(out, a.Unmap().String())
		}
	}
	slices.Sort(out)
	return ResolverEndpointQuery{Addresses: slices.Compact(out)}
}

// IsZero reports a query that asks for nothing (it is never sent).
func (q ResolverEndpointQuery) IsZero() bool { return len(q.Addresses) == 0 }

// KQL is the query's text. Each row is an inbound endpoint: its id and
// ipConfigurations (as ARM shows them: privateIpAddress, subnet).
func (q ResolverEndpointQuery) KQL() string {
	quoted := make([]string, len(q.Addresses))
	for i, a := range q.Addresses {
		quoted[i] = KQLString(a)
	}
	return "resources\n" +
		"| where type =~ '" + InboundEndpointType + "'\n" +
		"| mv-expand ipc = properties.ipConfigurations\n" +
		"| where tostring(ipc.privateIpAddress) in (" + strings.Join(quoted, ", ") + ")\n" +
		"| summarize by id, ipConfigurations = tostring(properties.ipConfigurations)\n" +
		"| extend ipConfigurations = parse_json(ipConfigurations)\n" +
		"| project id, ipConfigurations"
}

// RowType is the type of the resources its rows are (GraphSearch).
func (ResolverEndpointQuery) RowType() string { return InboundEndpointType }

// What names what the query finds (GraphSearch).
func (ResolverEndpointQuery) What() string {
	return "the DNS private resolver inbound endpoints"
}

// Base is the inbound endpoint as a row shows it: its ipConfigurations
// (GraphSearch).
func (ResolverEndpointQuery) Base(row map[string]any) map[string]any {
	cfgs, ok := row["ipConfigurations"]
	if !ok {
		cfgs = propsOf(row)["ipConfigurations"]
	}
	return map[string]any{"properties": map[string]any{"ipConfigurations": cfgs}}
}

// Row is the row the query answers for the inbound endpoint id whose
// ARM body is body, and whether the query includes it (one of its
// ipConfigurations holds an address asked for; GraphSearch).
func (q ResolverEndpointQuery) Row(id string, body map[string]any) (map[string]any, bool) {
	if !strings.EqualFold(TypeOf(id), InboundEndpointType) {
		return nil, false
	}
	cfgs, _ := propsOf(body)["ipConfigurations"].([]any)
	for _, a := range RowEndpointAddresses(map[string]any{"ipConfigurations": cfgs}) {
		if _, found := slices.BinarySearch(q.Addresses, a.String()); found {
			return map[string]any{"id": id, "ipConfigurations": cfgs}, true
		}
	}
	return nil, false
}

// Asks reports whether a is one of the addresses asked for.
func (q ResolverEndpointQuery) Asks(a netip.Addr) bool {
	_, found := slices.BinarySearch(q.Addresses, a.Unmap().String())
	return a.IsValid() && found
}

// RowEndpointAddresses are the addresses of a row of the query's answer
// (ipConfigurations[].privateIpAddress, or properties.ipConfigurations
// when the row is the whole resource); an address that does not parse is
// left out.
func RowEndpointAddresses(row map[string]any) []netip.Addr {
	cfgs, ok := row["ipConfigurations"].([]any)
	if !ok {
		cfgs, _ = propsOf(row)["ipConfigurations"].([]any)
	}
	var out []netip.Addr
	for _, c := range cfgs {
		m, _ := c.(map[string]any)
		s, _ := m["privateIpAddress"].(string)
		if a, err := netip.ParseAddr(strings.TrimSpace(s)); err == nil {
			out = append(out, a.Unmap())
		}
	}
	return out
}

// TypeOf is the resource type of an ARM id in lower case
// ("microsoft.network/dnsresolvers/inboundendpoints"), "" when it has none.
func TypeOf(id string) string {
	p, ok := ids.ReadPath(id)
	if !ok {
		return ""
	}
	return strings.ToLower(p.Type())
}
