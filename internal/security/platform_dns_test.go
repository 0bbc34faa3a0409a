// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package security

import (
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// TestPlatformDNSChain: only outbound rules on the AzurePlatformDNS tag
// decide the nodes' queries to 168.63.129.16:53; without one, the
// platform's own rule lets them pass, whatever else the groups say.
func TestPlatformDNSChain(t *testing.T) {
	denyDNS := rl("DenyAzureDNS", 200, Outbound, "Deny", "*", l("*"), l("AzurePlatformDNS"), l("53"))
	tests := []struct {
		name     string
		proto    string
		rules    []r
		want     Outcome
		wantRule string
	}{
		{"no group rule on the tag: the platform allows", "Udp", nil, Allowed, PlatformDNSRule},
		{"deny on the tag, UDP", "Udp", []r{denyDNS}, Denied, "DenyAzureDNS"},
		{"deny on the tag, TCP", "Tcp", []r{denyDNS}, Denied, "DenyAzureDNS"},
		{"tag spelled in another case", "Udp", []r{rl("DenyDNS", 200, Outbound, "Deny", "Udp", l("*"), l("azureplatformdns"), l("53"))}, Denied, "DenyDNS"},
		{"deny of TCP only leaves UDP to the platform", "Udp", []r{rl("DenyDNSTcp", 200, Outbound, "Deny", "Tcp", l("*"), l("AzurePlatformDNS"), l("53"))}, Allowed, PlatformDNSRule},
		{"deny on another port of the tag", "Udp", []r{rl("DenyOther", 200, Outbound, "Deny", "*", l("*"), l("AzurePlatformDNS"), l("80"))}, Allowed, PlatformDNSRule},
		{"allow on the tag before the deny", "Udp", []r{denyDNS, rl("AllowAzureDNS", 100, Outbound, "Allow", "*", l("10.1.0.0/16"), l("AzurePlatformDNS"), l("53"))}, Allowed, "AllowAzureDNS"},
		{"deny everything does not touch platform traffic", "Udp", []r{rl("DenyAll", 100, Outbound, "Deny", "*", l("*"), l("*"), l("*"))}, Allowed, PlatformDNSRule},
		{"deny of the address itself does not touch platform traffic", "Udp", []r{rl("DenyVIP", 100, Outbound, "Deny", "*", l("*"), l("168.63.129.16"), l("53"))}, Allowed, PlatformDNSRule},
		{"inbound deny on the tag does not decide outbound", "Udp", []r{rl("DenyIn", 100, Inbound, "Deny", "*", l("*"), l("AzurePlatformDNS"), l("53"))}, Allowed, PlatformDNSRule},
		{"deny from other sources only", "Udp", []r{rl("DenyOthers", 100, Outbound, "Deny", "*", l("10.9.0.0/16"), l("AzurePlatformDNS"), l("53"))}, Allowed, PlatformDNSRule},
		{"deny by an application security group the nodes are in", "Udp", []r{{Name: "DenyASG", Priority: 100, Direction: Outbound, Access: "Deny", Protocol: "*",
			SourceASGIDs: []model.ResourceID{asgNodes}, DestinationPrefixes: l("AzurePlatformDNS"), SourcePorts: l("*"), DestinationPorts: l("53")}}, Denied, "DenyASG"},
		{"deny covering part of the node subnet is undecided", "Udp", []r{rl("DenyHalf", 100, Outbound, "Deny", "*", l("10.1.0.0/23"), l("AzurePlatformDNS"), l("53"))}, Unverified, "DenyHalf"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := &model.SecurityGroup{Name: "nsg-aks", Rules: tc.rules}
			f := nodeFlow(tc.proto, "10.0.2.5/32", 53)
			ds := PlatformDNSChain(f, []Applied{{Group: g, Level: LevelSubnet, Space: spokeSpace}})
			d := Verdict(ds)
			if len(ds) != 1 || ds[0].Outcome != tc.want || ds[0].Rule != tc.wantRule {
				t.Fatalf("got %+v, want %s by %q", ds, tc.want, tc.wantRule)
			}
			if tc.want == Allowed && d.Outcome != Allowed {
				t.Fatalf("verdict %+v", d)
			}
		})
	}
}

// TestPlatformDNSChainOrder: the NIC's group first; a denial there ends the
// chain.
func TestPlatformDNSChainOrder(t *testing.T) {
	deny := &model.SecurityGroup{Name: "nsg-nic", Rules: []r{rl("DenyAzureDNS", 100, Outbound, "Deny", "Udp", l("*"), l("AzurePlatformDNS"), l("53"))}}
	open := &model.SecurityGroup{Name: "nsg-subnet"}
	f := nodeFlow("Udp", "", 53)
	ds := PlatformDNSChain(f, []Applied{{Group: deny, Level: LevelNIC, Space: spokeSpace}, {Group: open, Level: LevelSubnet, Space: spokeSpace}})
	if len(ds) != 1 || ds[0].Outcome != Denied || ds[0].Level != LevelNIC {
		t.Fatalf("NIC denies: %+v", ds)
	}
	ds = PlatformDNSChain(f, []Applied{{Group: open, Level: LevelNIC, Space: spokeSpace}, {Group: deny, Level: LevelSubnet, Space: spokeSpace}})
	if len(ds) != 2 || ds[0].Outcome != Allowed || ds[1].Outcome != Denied || ds[1].Level != LevelSubnet || Verdict(ds).Outcome != Denied {
		t.Fatalf("subnet denies after the NIC allows: %+v", ds)
	}
	if Verdict(PlatformDNSChain(f, nil)).Outcome != Allowed {
		t.Fatal("no group: allowed")
	}
}

// TestAzurePlatformDNSTagInOrdinaryFlows: the tag stands for the host's
// DNS address only, so a rule on it does not decide a flow elsewhere.
func TestAzurePlatformDNSTagInOrdinaryFlows(t *testing.T) {
	g := &model.SecurityGroup{Name: "nsg", Rules: []r{rl("DenyAzureDNS", 100, Outbound, "Deny", "*", l("*"), l("AzurePlatformDNS"), l("*"))}}
	if d := Evaluate(g, Outbound, nodeFlow("Tcp", "10.0.2.5/32", 443), spokeSpace); d.Outcome != Allowed || d.Rule != "AllowVnetOutBound" {
		t.Fatalf("a flow to a private endpoint: %+v", d)
	}
	if d := Evaluate(g, Outbound, nodeFlow("Udp", "168.63.129.16/32", 53), spokeSpace); d.Outcome != Denied || d.Rule != "DenyAzureDNS" {
		t.Fatalf("a flow to the host's DNS address: %+v", d)
	}
}
