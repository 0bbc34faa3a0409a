// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

var (
	nsgAKSID = id("/resourceGroups/rg-spoke/providers/Microsoft.Network/networkSecurityGroups/nsg-aks")
	nsgPEID  = id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkSecurityGroups/nsg-pe")
	nsgVMSS  = id("/resourceGroups/MC_rg-spoke_aks1_westeurope/providers/Microsoft.Network/networkSecurityGroups/aks-agentpool-nsg")
)

func withNSG(f Facts, subnetID, nsgID model.ResourceID, rules ...model.SecurityRule) {
	f.Network.SecurityGroups[nsgID.Key()] = &model.SecurityGroup{ID: nsgID, Name: nsgID.Name(), Rules: rules}
	if !subnetID.IsZero() {
		f.Network.Subnet(subnetID).NSGID = nsgID
	}
}

func secRule(name string, prio int32, dir, access, proto, src, dst, port string) model.SecurityRule {
	return model.SecurityRule{Name: name, Priority: prio, Direction: dir, Access: access, Protocol: proto,
		SourcePrefixes: []string{src}, DestinationPrefixes: []string{dst}, SourcePorts: []string{"*"}, DestinationPorts: []string{port}}
}

func findingsOf(res Result, code model.Code) []model.Finding {
	var out []model.Finding
	for _, f := range res.Findings {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

func TestSecurityOnPullPath(t *testing.T) {
	tests := []struct {
		name     string
		edit     func(f Facts)
		verdict  model.Verdict
		code     model.Code
		contains []string
		hop      string
	}{
		{
			name:    "baseline with permissive subnet nsg",
			edit:    func(f Facts) { withNSG(f, aksSubnetID, nsgAKSID) },
			verdict: model.Reachable,
			hop:     "nsg nsg-aks (subnet) allows TCP 443 by rule AllowVnetOutBound (65000)",
		},
		{
			name: "outbound deny on node subnet",
			edit: func(f Facts) {
				withNSG(f, aksSubnetID, nsgAKSID, secRule("DenyAcrHttps", 100, "Outbound", "Deny", "Tcp", "*", "10.0.2.0/24", "443"),
					secRule("AllowHubHttps", 200, "Outbound", "Allow", "Tcp", "*", "10.0.0.0/16", "443"))
			},
			verdict:  model.Unreachable,
			code:     model.SecurityOutboundDenied,
			contains: []string{"nsg-aks", "DenyAcrHttps", "priority 100", "TCP from 10.1.0.0/22 to 10.0.2.5 port 443"},
		},
		{
			name: "outbound deny on scale-set NIC configuration nsg",
			edit: func(f Facts) {
				withNSG(f, "", nsgVMSS, secRule("DenyAll443", 300, "Outbound", "Deny", "*", "*", "*", "443"))
				for _, p := range f.Pools {
					p.NSGID = nsgVMSS
				}
			},
			verdict:  model.Unreachable,
			code:     model.SecurityOutboundDenied,
			contains: []string{"aks-agentpool-nsg", "the node NIC", "DenyAll443"},
		},
		{
			name: "inbound deny at PE subnet with nsg policies",
			edit: func(f Facts) {
				withNSG(f, peSubnetID, nsgPEID, secRule("DenySpokeHttps", 100, "Inbound", "Deny", "Tcp", "10.1.0.0/16", "*", "443"))
				f.Network.Subnet(peSubnetID).PrivateEndpointNetworkPolicies = "Enabled"
			},
			verdict:  model.Unreachable,
			code:     model.SecurityInboundDenied,
			contains: []string{"nsg-pe", "DenySpokeHttps", "priority 100", "inbound"},
		},
		{
			name: "inbound deny at PE subnet without nsg policies is ignored",
			edit: func(f Facts) {
				withNSG(f, peSubnetID, nsgPEID, secRule("DenySpokeHttps", 100, "Inbound", "Deny", "Tcp", "10.1.0.0/16", "*", "443"))
				f.Network.Subnet(peSubnetID).PrivateEndpointNetworkPolicies = "RouteTableEnabled"
			},
			verdict: model.Reachable,
		},
		{
			name: "unknowable service tag before the allow",
			edit: func(f Facts) {
				withNSG(f, aksSubnetID, nsgAKSID, secRule("DenyAzureCloud", 100, "Outbound", "Deny", "*", "*", "AzureCloud", "*"),
					secRule("AllowHubHttps", 200, "Outbound", "Allow", "Tcp", "*", "10.0.0.0/16", "443"))
			},
			verdict:  model.Unverified,
			code:     model.SecurityUnverified,
			contains: []string{"AzureCloud", "DenyAzureCloud"},
		},
		{
			name: "unknowable service tag after the deciding allow",
			edit: func(f Facts) {
				withNSG(f, aksSubnetID, nsgAKSID, secRule("AllowHubHttps", 100, "Outbound", "Allow", "Tcp", "*", "10.0.0.0/16", "443"),
					secRule("DenyAzureCloud", 200, "Outbound", "Deny", "*", "*", "AzureCloud", "*"))
			},
			verdict: model.Reachable,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := baselineFacts()
			tc.edit(f)
			res := Run(f)
			if res.Verdict != tc.verdict {
				t.Fatalf("verdict %s, want %s: %+v", res.Verdict, tc.verdict, res.Findings)
			}
			if tc.code != "" {
				fs := findingsOf(res, tc.code)
				if len(fs) == 0 {
					t.Fatalf("no %s in %+v", tc.code, res.Findings)
				}
				for _, want := range tc.contains {
					if !strings.Contains(fs[0].Message, want) {
						t.Errorf("message %q lacks %q", fs[0].Message, want)
					}
				}
				t.Logf("%s: %s | %s", fs[0].Code, fs[0].Message, fs[0].Remediation)
			}
			if tc.hop != "" {
				found := false
				for _, p := range res.Paths {
					for _, h := range p.Hops {
						found = found || h == tc.hop
					}
				}
				if !found {
					t.Errorf("no hop %q in %+v", tc.hop, res.Paths)
				}
			}
		})
	}
}

func TestSecurityOnDNSServerFlows(t *testing.T) {
	nsgDNS := id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkSecurityGroups/nsg-vm-dns")
	dnsNIC := id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-dns")
	tests := []struct {
		name    string
		rules   []model.SecurityRule
		verdict model.Verdict
		want    []string // in the DNS_SERVER_UNREACHABLE message
		hop     string
	}{
		{
			name:    "dns vm NIC nsg allows from the vnet by default",
			verdict: model.Unverified, // the VM's forwarding cannot be read (DNS_FORWARDER_UNVERIFIED)
		},
		{
			name:    "dns vm NIC nsg denies udp 53 inbound",
			rules:   []model.SecurityRule{secRule("DenyDNSUdp", 120, "Inbound", "Deny", "Udp", "*", "*", "53")},
			verdict: model.Unreachable,
			want:    []string{"nsg-vm-dns", "DenyDNSUdp", "SECURITY_RULE_INBOUND_DENIED"},
		},
		{
			name:    "dns vm NIC nsg denies tcp 53 inbound only",
			rules:   []model.SecurityRule{secRule("DenyDNSTcp", 120, "Inbound", "Deny", "Tcp", "10.1.0.0/16", "*", "53")},
			verdict: model.Unreachable,
			want:    []string{"DenyDNSTcp", "TCP from 10.1.0.0/22 to 10.0.1.10 port 53"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := baselineFacts()
			f.addDNSVM("vm-dns", "10.0.1.10")
			f.setSpokeDNS("10.0.1.10")
			withNSG(f, "", nsgDNS, tc.rules...)
			f.Network.NIC(dnsNIC).NSGID = nsgDNS
			res := Run(f)
			if res.Verdict != tc.verdict {
				t.Fatalf("verdict %s, want %s: %+v", res.Verdict, tc.verdict, res.Findings)
			}
			if len(tc.want) > 0 {
				fs := findingsOf(res, model.DNSServerUnreachable)
				if len(fs) == 0 {
					t.Fatalf("no DNS_SERVER_UNREACHABLE in %+v", res.Findings)
				}
				for _, w := range tc.want {
					if !strings.Contains(fs[0].Message, w) {
						t.Errorf("message %q lacks %q", fs[0].Message, w)
					}
				}
			}
		})
	}
}
