// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package security

import (
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

const sub = "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.Network/"

var (
	asgNodes = model.ResourceID(sub + "applicationSecurityGroups/asg-nodes")
	asgACR   = model.ResourceID(sub + "applicationSecurityGroups/asg-acr")
	asgOther = model.ResourceID(sub + "applicationSecurityGroups/asg-other")
)

func pfxs(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// spokeSpace: the spoke 10.1.0.0/16, the peered hub 10.0.0.0/16 and an
// on-premises 192.168.0.0/16 learned by the hub gateway.
var spokeSpace = Space{VirtualNetwork: pfxs("10.1.0.0/16", "10.0.0.0/16", "192.168.0.0/16", "168.63.129.16/32")}

func nodeFlow(proto string, dst string, port uint16) Flow {
	f := Flow{Protocol: proto, Port: port, Source: Endpoint{Prefixes: pfxs("10.1.0.0/22"), ASGs: []model.ResourceID{asgNodes}, ASGsKnown: true}}
	if dst != "" {
		f.Dest = Endpoint{Prefixes: pfxs(dst), ASGsKnown: true}
	} else {
		f.Dest = Endpoint{ASGsKnown: true}
	}
	return f
}

type r = model.SecurityRule

func rl(name string, prio int32, dir, access, proto string, src, dst, ports []string) r {
	return r{Name: name, Priority: prio, Direction: dir, Access: access, Protocol: proto,
		SourcePrefixes: src, DestinationPrefixes: dst, SourcePorts: []string{"*"}, DestinationPorts: ports}
}

func l(s ...string) []string { return s }

func TestEvaluate(t *testing.T) {
	pe := "10.0.2.5/32"
	tests := []struct {
		name  string
		dir   string
		rules []r
		flow  Flow
		space Space
		want  Outcome
		rule  string
		tag   string
	}{
		// Default rules.
		{name: "default outbound allows VirtualNetwork (peered hub)", dir: Outbound, flow: nodeFlow("Tcp", pe, 443), want: Allowed, rule: "AllowVnetOutBound"},
		{name: "default outbound allows on-premises learned by the gateway", dir: Outbound, flow: nodeFlow("Udp", "192.168.10.53/32", 53), want: Allowed, rule: "AllowVnetOutBound"},
		{name: "default outbound allows a public address as Internet", dir: Outbound, flow: nodeFlow("Tcp", "20.1.2.3/32", 443), want: Allowed, rule: "AllowInternetOutBound"},
		{name: "default outbound allows an unknown public address as Internet", dir: Outbound, flow: nodeFlow("Tcp", "", 443), want: Allowed, rule: "AllowInternetOutBound"},
		{name: "default outbound: private address outside VirtualNetwork is undecided", dir: Outbound, flow: nodeFlow("Tcp", "172.16.0.4/32", 443), want: Unverified, rule: "AllowInternetOutBound"},
		{name: "default inbound allows from VirtualNetwork", dir: Inbound, flow: nodeFlow("Tcp", pe, 443), want: Allowed, rule: "AllowVnetInBound"},
		{name: "default inbound denies a source outside VirtualNetwork", dir: Inbound, flow: Flow{Protocol: "Tcp", Port: 443, Source: Endpoint{Prefixes: pfxs("20.1.2.3/32")}, Dest: Endpoint{Prefixes: pfxs(pe)}},
			want: Denied, rule: "DenyAllInBound"},
		{name: "default inbound allows AzureLoadBalancer", dir: Inbound, space: Space{VirtualNetwork: pfxs("10.0.0.0/16")}, flow: Flow{Protocol: "Tcp", Port: 80, Source: Endpoint{Prefixes: pfxs("168.63.129.16/32")}, Dest: Endpoint{Prefixes: pfxs(pe)}},
			want: Allowed, rule: "AllowAzureLoadBalancerInBound"},
		{name: "peer without virtual network access is not VirtualNetwork", dir: Inbound, space: Space{VirtualNetwork: pfxs("10.0.0.0/16")}, flow: nodeFlow("Tcp", pe, 443), want: Denied, rule: "DenyAllInBound"},

		// Priority order: first match wins, by ascending priority, not list order.
		{name: "lower priority number wins (deny first)", dir: Outbound, rules: []r{
			rl("AllowPE", 200, Outbound, "Allow", "Tcp", l("*"), l("10.0.2.0/24"), l("443")),
			rl("DenyPE", 100, Outbound, "Deny", "Tcp", l("*"), l("10.0.2.0/24"), l("443")),
		}, flow: nodeFlow("Tcp", pe, 443), want: Denied, rule: "DenyPE"},
		{name: "lower priority number wins (allow first)", dir: Outbound, rules: []r{
			rl("DenyPE", 300, Outbound, "Deny", "Tcp", l("*"), l("10.0.2.0/24"), l("443")),
			rl("AllowPE", 200, Outbound, "Allow", "Tcp", l("*"), l("10.0.2.0/24"), l("443")),
		}, flow: nodeFlow("Tcp", pe, 443), want: Allowed, rule: "AllowPE"},
		{name: "custom deny all before defaults", dir: Outbound, rules: []r{rl("DenyAll", 4096, Outbound, "Deny", "*", l("*"), l("*"), l("*"))},
			flow: nodeFlow("Tcp", pe, 443), want: Denied, rule: "DenyAll"},
		{name: "rules of the other direction are ignored", dir: Outbound, rules: []r{rl("DenyIn", 100, Inbound, "Deny", "*", l("*"), l("*"), l("*"))},
			flow: nodeFlow("Tcp", pe, 443), want: Allowed, rule: "AllowVnetOutBound"},

		// Protocol.
		{name: "protocol * matches Udp", dir: Outbound, rules: []r{rl("DenyDNS", 100, Outbound, "Deny", "*", l("*"), l("*"), l("53"))},
			flow: nodeFlow("Udp", "10.0.3.4/32", 53), want: Denied, rule: "DenyDNS"},
		{name: "protocol Tcp does not match Udp", dir: Outbound, rules: []r{rl("DenyDNSTcp", 100, Outbound, "Deny", "Tcp", l("*"), l("*"), l("53"))},
			flow: nodeFlow("Udp", "10.0.3.4/32", 53), want: Allowed, rule: "AllowVnetOutBound"},
		{name: "protocol Udp matches Udp (case-insensitive)", dir: Outbound, rules: []r{rl("DenyDNSUdp", 100, Outbound, "Deny", "UDP", l("*"), l("*"), l("53"))},
			flow: nodeFlow("Udp", "10.0.3.4/32", 53), want: Denied, rule: "DenyDNSUdp"},
		{name: "protocol Icmp does not match Tcp", dir: Outbound, rules: []r{rl("DenyIcmp", 100, Outbound, "Deny", "Icmp", l("*"), l("*"), l("*"))},
			flow: nodeFlow("Tcp", pe, 443), want: Allowed, rule: "AllowVnetOutBound"},
		{name: "protocol Esp and Ah do not match Tcp", dir: Outbound, rules: []r{
			rl("DenyEsp", 100, Outbound, "Deny", "Esp", l("*"), l("*"), l("*")),
			rl("DenyAh", 101, Outbound, "Deny", "Ah", l("*"), l("*"), l("*")),
		}, flow: nodeFlow("Tcp", pe, 443), want: Allowed, rule: "AllowVnetOutBound"},

		// Ports.
		{name: "port range contains 443", dir: Outbound, rules: []r{rl("DenyRange", 100, Outbound, "Deny", "Tcp", l("*"), l("*"), l("400-500"))},
			flow: nodeFlow("Tcp", pe, 443), want: Denied, rule: "DenyRange"},
		{name: "port range does not contain 443", dir: Outbound, rules: []r{rl("DenyRange", 100, Outbound, "Deny", "Tcp", l("*"), l("*"), l("1000-2000"))},
			flow: nodeFlow("Tcp", pe, 443), want: Allowed, rule: "AllowVnetOutBound"},
		{name: "port list (plural field) matches one item", dir: Outbound, rules: []r{rl("DenyList", 100, Outbound, "Deny", "Tcp", l("*"), l("*"), l("80", "443", "8000-8080"))},
			flow: nodeFlow("Tcp", pe, 443), want: Denied, rule: "DenyList"},
		{name: "port list matches no item", dir: Outbound, rules: []r{rl("DenyList", 100, Outbound, "Deny", "Tcp", l("*"), l("*"), l("80", "8443"))},
			flow: nodeFlow("Tcp", pe, 443), want: Allowed, rule: "AllowVnetOutBound"},
		{name: "restricted source port range is undecided", dir: Outbound, rules: []r{{Name: "DenySrc", Priority: 100, Direction: Outbound, Access: "Deny", Protocol: "*",
			SourcePrefixes: l("*"), DestinationPrefixes: l("*"), SourcePorts: l("1000-2000"), DestinationPorts: l("*")}},
			flow: nodeFlow("Tcp", pe, 443), want: Unverified, rule: "DenySrc"},
		{name: "source port range covering every ephemeral port matches", dir: Outbound, rules: []r{{Name: "DenySrc", Priority: 100, Direction: Outbound, Access: "Deny", Protocol: "*",
			SourcePrefixes: l("*"), DestinationPrefixes: l("*"), SourcePorts: l("1024-65535"), DestinationPorts: l("*")}},
			flow: nodeFlow("Tcp", pe, 443), want: Denied, rule: "DenySrc"},

		// Prefixes.
		{name: "single IP destination matches", dir: Outbound, rules: []r{rl("DenyIP", 100, Outbound, "Deny", "Tcp", l("*"), l("10.0.2.5"), l("443"))},
			flow: nodeFlow("Tcp", pe, 443), want: Denied, rule: "DenyIP"},
		{name: "single IP destination does not match another", dir: Outbound, rules: []r{rl("DenyIP", 100, Outbound, "Deny", "Tcp", l("*"), l("10.0.2.6"), l("443"))},
			flow: nodeFlow("Tcp", pe, 443), want: Allowed, rule: "AllowVnetOutBound"},
		{name: "destination prefix list (plural field)", dir: Outbound, rules: []r{rl("DenyList", 100, Outbound, "Deny", "Tcp", l("*"), l("10.9.0.0/16", "10.0.2.0/24"), l("443"))},
			flow: nodeFlow("Tcp", pe, 443), want: Denied, rule: "DenyList"},
		{name: "source CIDR containing the node subnet matches", dir: Outbound, rules: []r{rl("DenySpoke", 100, Outbound, "Deny", "Tcp", l("10.1.0.0/16"), l("*"), l("443"))},
			flow: nodeFlow("Tcp", pe, 443), want: Denied, rule: "DenySpoke"},
		{name: "source CIDR disjoint from the node subnet does not match", dir: Outbound, rules: []r{rl("DenyOther", 100, Outbound, "Deny", "Tcp", l("10.2.0.0/16"), l("*"), l("443"))},
			flow: nodeFlow("Tcp", pe, 443), want: Allowed, rule: "AllowVnetOutBound"},
		{name: "source CIDR covering part of the node subnet is undecided", dir: Outbound, rules: []r{rl("DenyPart", 100, Outbound, "Deny", "Tcp", l("10.1.0.0/24"), l("*"), l("443"))},
			flow: nodeFlow("Tcp", pe, 443), want: Unverified, rule: "DenyPart"},
		{name: "CIDR rule on an unknown public address is undecided", dir: Outbound, rules: []r{rl("DenyPub", 100, Outbound, "Deny", "Tcp", l("*"), l("20.0.0.0/8"), l("443"))},
			flow: nodeFlow("Tcp", "", 443), want: Unverified, rule: "DenyPub"},

		// Application security groups.
		{name: "source ASG member matches", dir: Outbound, rules: []r{{Name: "DenyNodes", Priority: 100, Direction: Outbound, Access: "Deny", Protocol: "*",
			SourceASGIDs: []model.ResourceID{asgNodes}, DestinationPrefixes: l("*"), SourcePorts: l("*"), DestinationPorts: l("*")}},
			flow: nodeFlow("Tcp", pe, 443), want: Denied, rule: "DenyNodes"},
		{name: "source ASG non-member does not match", dir: Outbound, rules: []r{{Name: "DenyOther", Priority: 100, Direction: Outbound, Access: "Deny", Protocol: "*",
			SourceASGIDs: []model.ResourceID{asgOther}, DestinationPrefixes: l("*"), SourcePorts: l("*"), DestinationPorts: l("*")}},
			flow: nodeFlow("Tcp", pe, 443), want: Allowed, rule: "AllowVnetOutBound"},
		{name: "destination ASG with unknown membership is undecided", dir: Outbound, rules: []r{{Name: "DenyACR", Priority: 100, Direction: Outbound, Access: "Deny", Protocol: "*",
			SourcePrefixes: l("*"), DestinationASGIDs: []model.ResourceID{asgACR}, SourcePorts: l("*"), DestinationPorts: l("*")}},
			flow: Flow{Protocol: "Tcp", Port: 443, Source: Endpoint{Prefixes: pfxs("10.1.0.0/22"), ASGsKnown: true}, Dest: Endpoint{Prefixes: pfxs(pe)}},
			want: Unverified, rule: "DenyACR", tag: "application security group asg-acr"},
		{name: "destination ASG known from a partial membership matches", dir: Inbound, rules: []r{{Name: "AllowACR", Priority: 100, Direction: Inbound, Access: "Allow", Protocol: "Tcp",
			SourcePrefixes: l("*"), DestinationASGIDs: []model.ResourceID{asgACR}, SourcePorts: l("*"), DestinationPorts: l("443")}, rl("DenyAll", 200, Inbound, "Deny", "*", l("*"), l("*"), l("*"))},
			flow: Flow{Protocol: "Tcp", Port: 443, Source: Endpoint{Prefixes: pfxs("10.1.0.0/22"), ASGsKnown: true}, Dest: Endpoint{Prefixes: pfxs(pe), ASGs: []model.ResourceID{asgACR}}},
			want: Allowed, rule: "AllowACR"},
		{name: "destination ASG outside a partial membership is undecided", dir: Inbound, rules: []r{{Name: "AllowOther", Priority: 100, Direction: Inbound, Access: "Allow", Protocol: "Tcp",
			SourcePrefixes: l("*"), DestinationASGIDs: []model.ResourceID{asgOther}, SourcePorts: l("*"), DestinationPorts: l("443")}, rl("DenyAll", 200, Inbound, "Deny", "*", l("*"), l("*"), l("*"))},
			flow: Flow{Protocol: "Tcp", Port: 443, Source: Endpoint{Prefixes: pfxs("10.1.0.0/22"), ASGsKnown: true}, Dest: Endpoint{Prefixes: pfxs(pe), ASGs: []model.ResourceID{asgACR}}},
			want: Unverified, rule: "AllowOther", tag: "application security group " + asgOther.Name()},
		{name: "destination ASG outside a complete membership does not match", dir: Inbound, rules: []r{{Name: "AllowOther", Priority: 100, Direction: Inbound, Access: "Allow", Protocol: "Tcp",
			SourcePrefixes: l("*"), DestinationASGIDs: []model.ResourceID{asgOther}, SourcePorts: l("*"), DestinationPorts: l("443")}, rl("DenyAll", 200, Inbound, "Deny", "*", l("*"), l("*"), l("*"))},
			flow: Flow{Protocol: "Tcp", Port: 443, Source: Endpoint{Prefixes: pfxs("10.1.0.0/22"), ASGsKnown: true}, Dest: Endpoint{Prefixes: pfxs(pe), ASGs: []model.ResourceID{asgACR}, ASGsKnown: true}},
			want: Denied, rule: "DenyAll"},

		// Service tags.
		{name: "VirtualNetwork tag covers the peered hub", dir: Outbound, rules: []r{rl("DenyVnet", 100, Outbound, "Deny", "Tcp", l("*"), l("VirtualNetwork"), l("443"))},
			flow: nodeFlow("Tcp", pe, 443), want: Denied, rule: "DenyVnet"},
		{name: "VirtualNetwork tag covers on-premises learned prefixes", dir: Outbound, rules: []r{rl("DenyVnet", 100, Outbound, "Deny", "*", l("*"), l("VirtualNetwork"), l("53"))},
			flow: nodeFlow("Udp", "192.168.10.53/32", 53), want: Denied, rule: "DenyVnet"},
		{name: "VirtualNetwork tag does not cover a public address", dir: Outbound, rules: []r{rl("DenyVnet", 100, Outbound, "Deny", "Tcp", l("*"), l("VirtualNetwork"), l("443"))},
			flow: nodeFlow("Tcp", "20.1.2.3/32", 443), want: Allowed, rule: "AllowInternetOutBound"},
		{name: "VirtualNetwork tag: address only in a UDR prefix is undecided", dir: Outbound,
			space: Space{VirtualNetwork: pfxs("10.1.0.0/16"), MaybeVirtualNetwork: pfxs("172.16.0.0/12")},
			rules: []r{rl("DenyVnet", 100, Outbound, "Deny", "Tcp", l("*"), l("VirtualNetwork"), l("443"))},
			flow:  nodeFlow("Tcp", "172.16.0.4/32", 443), want: Unverified, rule: "DenyVnet", tag: "VirtualNetwork"},
		{name: "forced-tunnel default route: both defaults allow, so allowed", dir: Outbound,
			space: Space{VirtualNetwork: pfxs("10.1.0.0/16"), MaybeVirtualNetwork: pfxs("0.0.0.0/0")},
			flow:  nodeFlow("Tcp", "", 443), want: Allowed},
		{name: "Internet tag deny matches a public address", dir: Outbound, rules: []r{rl("DenyInternet", 100, Outbound, "Deny", "*", l("*"), l("Internet"), l("*"))},
			flow: nodeFlow("Tcp", "", 443), want: Denied, rule: "DenyInternet"},
		{name: "Internet tag deny does not match the peered hub", dir: Outbound, rules: []r{rl("DenyInternet", 100, Outbound, "Deny", "*", l("*"), l("Internet"), l("*"))},
			flow: nodeFlow("Tcp", pe, 443), want: Allowed, rule: "AllowVnetOutBound"},
		{name: "unknowable tag deny before the allow is unverified", dir: Outbound, rules: []r{
			rl("DenyAzureCloud", 100, Outbound, "Deny", "*", l("*"), l("AzureCloud"), l("*")),
			rl("AllowPE", 200, Outbound, "Allow", "Tcp", l("*"), l("10.0.2.0/24"), l("443")),
		}, flow: nodeFlow("Tcp", pe, 443), want: Unverified, rule: "DenyAzureCloud", tag: "AzureCloud"},
		{name: "unknowable tag after the deciding allow does not matter", dir: Outbound, rules: []r{
			rl("AllowPE", 100, Outbound, "Allow", "Tcp", l("*"), l("10.0.2.0/24"), l("443")),
			rl("DenyAzureCloud", 200, Outbound, "Deny", "*", l("*"), l("AzureCloud"), l("*")),
		}, flow: nodeFlow("Tcp", pe, 443), want: Allowed, rule: "AllowPE"},
		{name: "unknowable tag allow before a deny-all is unverified (never allowed by guess)", dir: Outbound, rules: []r{
			rl("AllowACR", 100, Outbound, "Allow", "Tcp", l("*"), l("AzureContainerRegistry"), l("443")),
			rl("DenyAll", 4000, Outbound, "Deny", "*", l("*"), l("*"), l("*")),
		}, flow: nodeFlow("Tcp", "", 443), want: Unverified, rule: "AllowACR", tag: "AzureContainerRegistry"},
		{name: "unknowable tag allow when the rest allows too is allowed", dir: Outbound, rules: []r{
			rl("AllowStorage", 100, Outbound, "Allow", "Tcp", l("*"), l("Storage.WestEurope"), l("443")),
		}, flow: nodeFlow("Tcp", "", 443), want: Allowed},
		{name: "unknowable tag on another port cannot decide", dir: Outbound, rules: []r{
			rl("DenyAzureCloud", 100, Outbound, "Deny", "Tcp", l("*"), l("AzureCloud"), l("22")),
		}, flow: nodeFlow("Tcp", pe, 443), want: Allowed, rule: "AllowVnetOutBound"},

		// A rule's address list is one set; an end with several possible
		// addresses (nodes, or an appliance that may source-NAT) matches
		// when each lies in it.
		{name: "address list covering every possible source matches", dir: Outbound, rules: []r{
			rl("AllowOut", 100, Outbound, "Allow", "Tcp", l("10.1.0.0/16", "10.0.1.4"), l("10.0.2.0/24"), l("443")),
			rl("DenyRest", 200, Outbound, "Deny", "*", l("*"), l("*"), l("*")),
		}, flow: Flow{Protocol: "Tcp", Port: 443, Source: Endpoint{Prefixes: pfxs("10.1.0.0/22", "10.0.1.4/32")}, Dest: Endpoint{Prefixes: pfxs(pe)}},
			want: Allowed, rule: "AllowOut"},
		{name: "address list covering one possible source is undecided", dir: Outbound, rules: []r{
			rl("AllowOut", 100, Outbound, "Allow", "Tcp", l("10.1.0.0/16", "10.2.0.0/16"), l("10.0.2.0/24"), l("443")),
			rl("DenyRest", 200, Outbound, "Deny", "*", l("*"), l("*"), l("*")),
		}, flow: Flow{Protocol: "Tcp", Port: 443, Source: Endpoint{Prefixes: pfxs("10.1.0.0/22", "10.0.1.4/32")}, Dest: Endpoint{Prefixes: pfxs(pe)}},
			want: Unverified, rule: "AllowOut"},
		{name: "address list covering no possible source does not match", dir: Outbound, rules: []r{
			rl("DenyOut", 100, Outbound, "Deny", "Tcp", l("10.5.0.0/16", "10.6.0.4"), l("*"), l("443")),
		}, flow: Flow{Protocol: "Tcp", Port: 443, Source: Endpoint{Prefixes: pfxs("10.1.0.0/22", "10.0.1.4/32")}, Dest: Endpoint{Prefixes: pfxs(pe)}},
			want: Allowed, rule: "AllowVnetOutBound"},
		// DNS flows: UDP and TCP are separate flows.
		{name: "udp 53 deny does not touch tcp 53", dir: Outbound, rules: []r{
			rl("DenyDnsUdp", 100, Outbound, "Deny", "Udp", l("*"), l("*"), l("53")),
		}, flow: nodeFlow("Tcp", "10.0.1.10/32", 53), want: Allowed, rule: "AllowVnetOutBound"},
		{name: "udp 53 deny denies udp 53", dir: Outbound, rules: []r{
			rl("DenyDnsUdp", 100, Outbound, "Deny", "Udp", l("*"), l("*"), l("53")),
		}, flow: nodeFlow("Udp", "10.0.1.10/32", 53), want: Denied, rule: "DenyDnsUdp"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			space := tc.space
			if space.VirtualNetwork == nil {
				space = spokeSpace
			}
			g := &model.SecurityGroup{ID: model.ResourceID(sub + "networkSecurityGroups/nsg-test"), Name: "nsg-test", Rules: tc.rules}
			d := Evaluate(g, tc.dir, tc.flow, space)
			if d.Outcome != tc.want || (tc.rule != "" && d.Rule != tc.rule) || (tc.tag != "" && d.Tag != tc.tag) {
				t.Fatalf("got %s by %s (%d) tag %q, want %s by %s tag %q", d.Outcome, d.Rule, d.Priority, d.Tag, tc.want, tc.rule, tc.tag)
			}
			if d.GroupName != "nsg-test" || d.Direction != tc.dir {
				t.Errorf("decision names group %q direction %q", d.GroupName, d.Direction)
			}
		})
	}
}

func TestChainBothLevelsMustAllow(t *testing.T) {
	allow := &model.SecurityGroup{Name: "nsg-nic"}
	deny := &model.SecurityGroup{Name: "nsg-subnet", Rules: []r{rl("DenyPE", 100, Outbound, "Deny", "Tcp", l("*"), l("10.0.2.0/24"), l("443"))}}
	f := nodeFlow("Tcp", "10.0.2.5/32", 443)

	ds := Chain(Outbound, f, []Applied{{Group: allow, Level: LevelNIC, Space: spokeSpace}, {Group: deny, Level: LevelSubnet, Space: spokeSpace}})
	if len(ds) != 2 || ds[0].Outcome != Allowed || ds[1].Outcome != Denied || ds[1].Level != LevelSubnet {
		t.Fatalf("NIC allows, subnet denies: %+v", ds)
	}
	if v := Verdict(ds); v.Outcome != Denied || v.GroupName != "nsg-subnet" {
		t.Fatalf("verdict %+v", v)
	}
	want := "nsg nsg-nic (nic) allows TCP 443 by rule AllowVnetOutBound (65000)"
	if got := ds[0].Describe(f); got != want {
		t.Errorf("hop %q, want %q", got, want)
	}

	ds = Chain(Outbound, f, []Applied{{Group: deny, Level: LevelNIC, Space: spokeSpace}, {Group: allow, Level: LevelSubnet, Space: spokeSpace}})
	if len(ds) != 1 || ds[0].Outcome != Denied || ds[0].Level != LevelNIC {
		t.Fatalf("NIC denies first, subnet is not consulted: %+v", ds)
	}
	ds = Chain(Outbound, f, []Applied{{Group: allow, Level: LevelNIC, Space: spokeSpace}, {Group: allow, Level: LevelSubnet, Space: spokeSpace}})
	if Verdict(ds).Outcome != Allowed || len(ds) != 2 {
		t.Fatalf("both allow: %+v", ds)
	}
	if Verdict(nil).Outcome != Allowed {
		t.Fatal("no group: allowed")
	}
}

func TestVirtualNetworkSpace(t *testing.T) {
	n := model.NewNetwork()
	hubID := model.ResourceID(sub + "virtualNetworks/vnet-hub")
	spokeID := model.ResourceID(sub + "virtualNetworks/vnet-spoke")
	otherID := model.ResourceID(sub + "virtualNetworks/vnet-other")
	rtID := model.ResourceID(sub + "routeTables/rt-aks")
	spokeSub := &model.Subnet{ID: spokeID + "/subnets/snet-aks", VNetID: spokeID, RouteTableID: rtID}
	n.AddVNet(&model.VNet{ID: hubID, AddressSpace: pfxs("10.0.0.0/16"), Peerings: []*model.Peering{
		{VNetID: hubID, RemoteVNetID: spokeID, State: "Connected", AllowVirtualNetworkAccess: true, AllowGatewayTransit: true, RemoteAddressSpace: pfxs("10.1.0.0/16")}}})
	n.AddVNet(&model.VNet{ID: spokeID, AddressSpace: pfxs("10.1.0.0/16"), Subnets: []*model.Subnet{spokeSub}, Peerings: []*model.Peering{
		{VNetID: spokeID, RemoteVNetID: hubID, State: "Connected", AllowVirtualNetworkAccess: true, UseRemoteGateways: true, RemoteAddressSpace: pfxs("10.0.0.0/16")},
		{VNetID: spokeID, RemoteVNetID: otherID, State: "Initiated", AllowVirtualNetworkAccess: true, RemoteAddressSpace: pfxs("10.5.0.0/16")},
		{VNetID: spokeID, RemoteVNetID: otherID, State: "Connected", AllowVirtualNetworkAccess: false, RemoteAddressSpace: pfxs("10.6.0.0/16")},
	}})
	gwID := model.ResourceID(sub + "virtualNetworkGateways/vpngw")
	n.Gateways[gwID.Key()] = &model.Gateway{ID: gwID, VNetID: hubID, LearnedKnown: true, StaticPrefixesKnown: true,
		Learned: []model.GatewayRoute{{Prefix: netip.MustParsePrefix("192.168.0.0/16"), Origin: "EBgp"}}}
	n.RouteTables[rtID.Key()] = &model.RouteTable{ID: rtID, Routes: []model.Route{{Name: "default", Prefix: netip.MustParsePrefix("0.0.0.0/0"), NextHopType: "VirtualAppliance"}}}

	s := VirtualNetworkSpace(n, spokeID)
	has := func(set []netip.Prefix, p string) bool {
		for _, x := range set {
			if x.String() == p {
				return true
			}
		}
		return false
	}
	for _, p := range []string{"10.1.0.0/16", "10.0.0.0/16", "192.168.0.0/16", "168.63.129.16/32"} {
		if !has(s.VirtualNetwork, p) {
			t.Errorf("VirtualNetwork lacks %s: %v", p, s.VirtualNetwork)
		}
	}
	for _, p := range []string{"10.5.0.0/16", "10.6.0.0/16", "0.0.0.0/0"} {
		if has(s.VirtualNetwork, p) {
			t.Errorf("VirtualNetwork must not hold %s: %v", p, s.VirtualNetwork)
		}
	}
	if !has(s.MaybeVirtualNetwork, "0.0.0.0/0") {
		t.Errorf("a UDR prefix is a maybe: %v", s.MaybeVirtualNetwork)
	}
	// The gateway's routes reach the spoke only with gateway transit.
	n.VNet(hubID).Peerings[0].AllowGatewayTransit = false
	if s := VirtualNetworkSpace(n, spokeID); has(s.VirtualNetwork, "192.168.0.0/16") {
		t.Errorf("without gateway transit on-premises is not in the spoke's VirtualNetwork: %v", s.VirtualNetwork)
	}
	// Unreadable learned routes: anything may be VirtualNetwork.
	n.VNet(hubID).Peerings[0].AllowGatewayTransit = true
	n.Gateways[gwID.Key()].LearnedKnown = false
	if s := VirtualNetworkSpace(n, hubID); !has(s.MaybeVirtualNetwork, "0.0.0.0/0") {
		t.Errorf("unknown learned routes: %v", s.MaybeVirtualNetwork)
	}
}

func TestParsePorts(t *testing.T) {
	for _, tc := range []struct {
		in     string
		lo, hi int
		ok     bool
	}{{"*", 0, 65535, true}, {"443", 443, 443, true}, {"1000-2000", 1000, 2000, true}, {" 80 - 90 ", 80, 90, true}, {"2000-1000", 0, 0, false}, {"x", 0, 0, false}, {"70000", 0, 0, false}} {
		lo, hi, ok := parsePorts(tc.in)
		if ok != tc.ok || (ok && (lo != tc.lo || hi != tc.hi)) {
			t.Errorf("parsePorts(%q) = %d %d %v", tc.in, lo, hi, ok)
		}
	}
}
