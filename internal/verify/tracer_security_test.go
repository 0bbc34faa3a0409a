// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/routing"
)

var (
	nsgAKSID = id("/resourceGroups/rg-spoke/providers/Microsoft.Network/networkSecurityGroups/nsg-aks")
	nsgPEID  = id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkSecurityGroups/nsg-pe")
	nsgVMSS  = id("/resourceGroups/MC_rg-spoke_aks1_westeurope/providers/Microsoft.Network/networkSecurityGroups/aks-agentpool-nsg")
)

func withNSG(f model.Facts, subnetID, nsgID model.ResourceID, rules ...model.SecurityRule) {
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
		edit     func(f model.Facts)
		verdict  model.Verdict
		code     model.Code
		contains []string
		hop      string
	}{
		{
			name:    "baseline with permissive subnet nsg",
			edit:    func(f model.Facts) { withNSG(f, aksSubnetID, nsgAKSID) },
			verdict: model.Reachable,
			hop:     "nsg nsg-aks (subnet) allows TCP 443 by rule AllowVnetOutBound (65000)",
		},
		{
			name: "outbound deny on node subnet",
			edit: func(f model.Facts) {
				withNSG(f, aksSubnetID, nsgAKSID, secRule("DenyAcrHttps", 100, "Outbound", "Deny", "Tcp", "*", "10.0.2.0/24", "443"),
					secRule("AllowHubHttps", 200, "Outbound", "Allow", "Tcp", "*", "10.0.0.0/16", "443"))
			},
			verdict:  model.Unreachable,
			code:     model.SecurityOutboundDenied,
			contains: []string{"nsg-aks", "DenyAcrHttps", "priority 100", "TCP from 10.1.0.0/22 to 10.0.2.5 port 443"},
		},
		{
			name: "outbound deny on scale-set NIC configuration nsg",
			edit: func(f model.Facts) {
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
			edit: func(f model.Facts) {
				withNSG(f, peSubnetID, nsgPEID, secRule("DenySpokeHttps", 100, "Inbound", "Deny", "Tcp", "10.1.0.0/16", "*", "443"))
				f.Network.Subnet(peSubnetID).PrivateEndpointNetworkPolicies = "Enabled"
			},
			verdict:  model.Unreachable,
			code:     model.SecurityInboundDenied,
			contains: []string{"nsg-pe", "DenySpokeHttps", "priority 100", "inbound"},
		},
		{
			name: "inbound deny at PE subnet without nsg policies is ignored",
			edit: func(f model.Facts) {
				withNSG(f, peSubnetID, nsgPEID, secRule("DenySpokeHttps", 100, "Inbound", "Deny", "Tcp", "10.1.0.0/16", "*", "443"))
				f.Network.Subnet(peSubnetID).PrivateEndpointNetworkPolicies = "RouteTableEnabled"
			},
			verdict: model.Reachable,
		},
		{
			name: "unknowable service tag before the allow",
			edit: func(f model.Facts) {
				withNSG(f, aksSubnetID, nsgAKSID, secRule("DenyAzureCloud", 100, "Outbound", "Deny", "*", "*", "AzureCloud", "*"),
					secRule("AllowHubHttps", 200, "Outbound", "Allow", "Tcp", "*", "10.0.0.0/16", "443"))
			},
			verdict:  model.Unverified,
			code:     model.SecurityUnverified,
			contains: []string{"AzureCloud", "DenyAzureCloud"},
		},
		{
			name: "unknowable service tag after the deciding allow",
			edit: func(f model.Facts) {
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

// DNS flows: UDP and TCP 53 from the node subnet to a custom DNS server,
// outbound at the node, inbound at the server's subnet and NIC. A denial is
// the group's SECURITY_RULE_*_DENIED alone: DNS_SERVER_UNREACHABLE means no
// route, and each problem is reported once, by its cause.
func TestSecurityOnDNSServerFlows(t *testing.T) {
	nsgDNS := id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkSecurityGroups/nsg-vm-dns")
	dnsNIC := id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-dns")
	tests := []struct {
		name      string
		dnsRules  []model.SecurityRule // nsg-vm-dns on the DNS VM's NIC
		nodeRules []model.SecurityRule // nsg-aks on the node subnet (none: no group)
		verdict   model.Verdict
		code      model.Code
		want      []string // in the finding's message
		hop       string
	}{
		{
			name:    "dns vm NIC nsg allows from the vnet by default",
			verdict: model.Unverified, // the VM's forwarding cannot be read (DNS_FORWARDER_UNVERIFIED)
			hop:     "nsg nsg-vm-dns (nic) allows UDP 53 by rule AllowVnetInBound (65000)",
		},
		{
			name:     "dns vm NIC nsg denies udp 53 inbound",
			dnsRules: []model.SecurityRule{secRule("DenyDNSUdp", 120, "Inbound", "Deny", "Udp", "*", "*", "53")},
			verdict:  model.Unreachable,
			code:     model.SecurityInboundDenied,
			want: []string{"nsg-vm-dns", "DenyDNSUdp", "priority 120", "UDP 10.1.0.0/22 -> 10.0.1.10:53", "destination NIC",
				"UDP first", "registry names do not resolve", "DNS server 10.0.1.10"},
		},
		{
			name:     "dns vm NIC nsg denies tcp 53 inbound only",
			dnsRules: []model.SecurityRule{secRule("DenyDNSTcp", 120, "Inbound", "Deny", "Tcp", "10.1.0.0/16", "*", "53")},
			verdict:  model.Unreachable,
			code:     model.SecurityInboundDenied,
			want:     []string{"DenyDNSTcp", "TCP from 10.1.0.0/22 to 10.0.1.10 port 53", "retry over TCP"},
		},
		{
			name:      "node subnet nsg denies udp 53 outbound",
			nodeRules: []model.SecurityRule{secRule("DenyDnsOut", 150, "Outbound", "Deny", "Udp", "*", "10.0.1.10", "53")},
			verdict:   model.Unreachable,
			code:      model.SecurityOutboundDenied,
			want:      []string{"nsg-aks", "DenyDnsOut", "priority 150", "UDP 10.1.0.0/22 -> 10.0.1.10:53", "node subnet"},
		},
		{
			name: "node subnet nsg denies udp 53 but allows tcp 53: still denied",
			nodeRules: []model.SecurityRule{secRule("AllowDnsTcp", 100, "Outbound", "Allow", "Tcp", "*", "10.0.1.10", "53"),
				secRule("DenyDnsUdp", 110, "Outbound", "Deny", "Udp", "*", "*", "53")},
			verdict: model.Unreachable,
			code:    model.SecurityOutboundDenied,
			want:    []string{"DenyDnsUdp", "even where TCP 53 is allowed"},
		},
		{
			name:      "node subnet nsg allows dns explicitly",
			nodeRules: []model.SecurityRule{secRule("AllowDns", 100, "Outbound", "Allow", "*", "*", "10.0.1.10", "53")},
			verdict:   model.Unverified,
			hop:       "nsg nsg-aks (subnet) allows TCP 53 by rule AllowDns (100)",
		},
		{
			name:      "dns flow decided by an unresolvable service tag",
			nodeRules: []model.SecurityRule{secRule("DenyAzureCloud", 100, "Outbound", "Deny", "*", "*", "AzureCloud", "*")},
			verdict:   model.Unverified,
			code:      model.SecurityUnverified,
			want:      []string{"AzureCloud", "DenyAzureCloud", "UDP 10.1.0.0/22 -> 10.0.1.10:53"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := baselineFacts()
			addDNSVM(&f, "vm-dns", "10.0.1.10")
			setSpokeDNS(&f, "10.0.1.10")
			withNSG(f, "", nsgDNS, tc.dnsRules...)
			f.Network.NIC(dnsNIC).NSGID = nsgDNS
			if tc.nodeRules != nil {
				withNSG(f, aksSubnetID, nsgAKSID, tc.nodeRules...)
			}
			res := Run(f)
			if res.Verdict != tc.verdict {
				t.Fatalf("verdict %s, want %s: %+v", res.Verdict, tc.verdict, res.Findings)
			}
			if got := findingsOf(res, model.DNSServerUnreachable); len(got) > 0 {
				t.Errorf("a security rule is reported as DNS_SERVER_UNREACHABLE too: %+v", got)
			}
			if tc.code != "" {
				fs := findingsOf(res, tc.code)
				if len(fs) == 0 {
					t.Fatalf("no %s in %+v", tc.code, res.Findings)
				}
				if fs[0].Endpoint != "10.0.1.10" || fs[0].NodePool == "" {
					t.Errorf("finding is not about the pool and the DNS server: %+v", fs[0])
				}
				for _, w := range tc.want {
					if !strings.Contains(fs[0].Message, w) {
						t.Errorf("message %q lacks %q", fs[0].Message, w)
					}
				}
			}
			if tc.hop != "" {
				tr := NewRoutingTracer(routing.Options{})
				out := tr.Trace(f.Network, RouteQuery{Pool: f.Pools[0], SubnetID: aksSubnetID, Dest: ip("10.0.1.10"), Protocol: "Udp", Port: 53})
				if !slices.Contains(out.Hops, tc.hop) {
					t.Errorf("no hop %q in %q", tc.hop, out.Hops)
				}
			}
		})
	}
}

// A DNS server the route drops stays DNS_SERVER_UNREACHABLE: the cause is
// the route, not a security group.
func TestDNSServerUnreachableIsAboutRoutes(t *testing.T) {
	f := baselineFacts()
	setSpokeDNS(&f, "10.9.0.10") // in no network the nodes reach
	res := Run(f)
	if len(findingsOf(res, model.DNSServerUnreachable)) == 0 {
		t.Fatalf("no DNS_SERVER_UNREACHABLE in %+v", res.Findings)
	}
	for _, c := range []model.Code{model.SecurityOutboundDenied, model.SecurityInboundDenied} {
		if len(findingsOf(res, c)) > 0 {
			t.Errorf("unexpected %s", c)
		}
	}
}

// withNVA sends the hub range from the node subnet through the appliance
// vm-nva (10.0.1.4, IP forwarding on); snet-pe applies route-table
// policies, so the UDR reaches the private endpoint too.
func withNVA(f model.Facts) model.ResourceID {
	nicID := id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-nva")
	f.Network.NICs[nicID.Key()] = &model.NIC{ID: nicID, Name: "nic-vm-nva", SubnetID: nvaSubnetID, PrivateIPs: ips("10.0.1.4"),
		IPForwarding: true, VMID: id("/resourceGroups/rg-hub/providers/Microsoft.Compute/virtualMachines/vm-nva")}
	f.Network.Subnet(aksSubnetID).RouteTableID = rtAKSID
	f.Network.RouteTables[rtAKSID.Key()] = &model.RouteTable{ID: rtAKSID, Name: "rt-aks", Routes: []model.Route{
		{Name: "hub-via-nva", Prefix: pfx("10.0.0.0/16"), NextHopType: model.NextHopVirtualAppliance, NextHopIP: ip("10.0.1.4"),
			Source: model.RouteSourceUser, State: model.RouteStateActive, OriginID: rtAKSID},
	}}
	f.Network.Subnet(peSubnetID).PrivateEndpointNetworkPolicies = "RouteTableEnabled"
	return nicID
}

// Appliances on the path: the packet enters the appliance (its subnet's
// group, then its NIC's, inbound) and leaves it (NIC, then subnet,
// outbound); both directions must allow, with the node's address or the
// appliance's own (source NAT) as the source.
func TestSecurityAtAppliance(t *testing.T) {
	nsgNVA := id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkSecurityGroups/nsg-nva")
	nsgNVASubnet := id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkSecurityGroups/nsg-snet-nva")
	tests := []struct {
		name      string
		nicRules  []model.SecurityRule // nsg-nva on the appliance's NIC
		subRules  []model.SecurityRule // nsg-snet-nva on its subnet (nil: none)
		verdict   model.Verdict
		code      model.Code
		want      []string
		hop       string
		nodeDenys bool
	}{
		{
			name:    "default rules let forwarded traffic through",
			verdict: model.Unverified, // the appliance's source NAT cannot be read: return path unverified
			hop:     "nsg nsg-nva (nic) allows TCP 443 by rule AllowVnetInBound (65000) at appliance 10.0.1.4 (nic-vm-nva)",
		},
		{
			name:     "appliance NIC denies https from the spoke inbound",
			nicRules: []model.SecurityRule{secRule("DenySpokeIn", 100, "Inbound", "Deny", "Tcp", "10.1.0.0/16", "*", "443")},
			verdict:  model.Unreachable,
			code:     model.SecurityInboundDenied,
			want:     []string{"nsg-nva", "DenySpokeIn", "priority 100", "the NIC of appliance 10.0.1.4 (nic-vm-nva)", "TCP 10.1.0.0/22 -> 10.0.2.5:443"},
		},
		{
			name:     "appliance subnet denies inbound",
			subRules: []model.SecurityRule{secRule("DenyAllIn", 4000, "Inbound", "Deny", "*", "*", "*", "*")},
			verdict:  model.Unreachable,
			code:     model.SecurityInboundDenied,
			want:     []string{"nsg-snet-nva", "DenyAllIn", "priority 4000", "the subnet of appliance 10.0.1.4"},
		},
		{
			name:     "appliance NIC denies https to the private endpoint outbound",
			nicRules: []model.SecurityRule{secRule("DenyPeOut", 200, "Outbound", "Deny", "Tcp", "*", "10.0.2.0/24", "443")},
			verdict:  model.Unreachable,
			code:     model.SecurityOutboundDenied,
			want:     []string{"nsg-nva", "DenyPeOut", "priority 200", "outbound", "appliance 10.0.1.4"},
		},
		{
			name: "appliance outbound allow only for spoke sources is undecided: the appliance may source-NAT",
			nicRules: []model.SecurityRule{secRule("AllowSpokeOut", 200, "Outbound", "Allow", "Tcp", "10.1.0.0/16", "10.0.2.0/24", "443"),
				secRule("DenyRestOut", 300, "Outbound", "Deny", "*", "*", "*", "*")},
			verdict: model.Unverified,
			code:    model.SecurityUnverified,
			want:    []string{"AllowSpokeOut", "appliance 10.0.1.4"},
		},
		{
			name: "appliance outbound allow for spoke and its own address passes",
			nicRules: []model.SecurityRule{
				{Name: "AllowOut", Priority: 200, Direction: "Outbound", Access: "Allow", Protocol: "Tcp", SourcePrefixes: []string{"10.1.0.0/16", "10.0.1.4"},
					DestinationPrefixes: []string{"10.0.2.0/24"}, SourcePorts: []string{"*"}, DestinationPorts: []string{"443"}},
				secRule("DenyRestOut", 300, "Outbound", "Deny", "*", "*", "*", "*")},
			verdict: model.Unverified, // return path through the appliance
			hop:     "nsg nsg-nva (nic) allows TCP 443 by rule AllowOut (200) at appliance 10.0.1.4 (nic-vm-nva)",
		},
		{
			name:      "a node-side denial is reported before the appliance",
			nicRules:  []model.SecurityRule{secRule("DenySpokeIn", 100, "Inbound", "Deny", "Tcp", "10.1.0.0/16", "*", "443")},
			nodeDenys: true,
			verdict:   model.Unreachable,
			code:      model.SecurityOutboundDenied,
			want:      []string{"nsg-aks", "DenyAcrHttps"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := baselineFacts()
			nicID := withNVA(f)
			withNSG(f, "", nsgNVA, tc.nicRules...)
			f.Network.NIC(nicID).NSGID = nsgNVA
			if tc.subRules != nil {
				withNSG(f, nvaSubnetID, nsgNVASubnet, tc.subRules...)
			}
			if tc.nodeDenys {
				withNSG(f, aksSubnetID, nsgAKSID, secRule("DenyAcrHttps", 100, "Outbound", "Deny", "Tcp", "*", "10.0.2.0/24", "443"))
			}
			res := Run(f)
			if res.Verdict != tc.verdict {
				t.Fatalf("verdict %s, want %s: %+v", res.Verdict, tc.verdict, res.Findings)
			}
			if tc.code != "" {
				fs := findingsOf(res, tc.code)
				if len(fs) == 0 {
					t.Fatalf("no %s in %+v", tc.code, res.Findings)
				}
				for _, w := range tc.want {
					if !strings.Contains(fs[0].Message, w) {
						t.Errorf("message %q lacks %q", fs[0].Message, w)
					}
				}
				if tc.nodeDenys && len(findingsOf(res, model.SecurityInboundDenied)) > 0 {
					t.Errorf("the appliance is judged after a node-side denial: %+v", res.Findings)
				}
			}
			if tc.hop != "" {
				found := false
				for _, p := range res.Paths {
					found = found || slices.Contains(p.Hops, tc.hop)
				}
				if !found {
					t.Errorf("no hop %q in %+v", tc.hop, res.Paths)
				}
			}
		})
	}
}

// An appliance whose group could not be read leaves the flow unverified,
// never reachable.
func TestSecurityAtApplianceGroupUnread(t *testing.T) {
	f := baselineFacts()
	nicID := withNVA(f)
	missing := id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkSecurityGroups/nsg-nva")
	f.Network.NIC(nicID).NSGID = missing
	f.Network.Gaps = model.Gaps{}
	f.Network.Gaps.Add(model.Gap{ResourceID: missing, Kind: model.GapPermissionDenied, Detail: "403"})
	res := Run(f)
	if res.Verdict != model.Unverified {
		t.Fatalf("verdict %s, want unverified: %+v", res.Verdict, res.Findings)
	}
	if len(findingsOf(res, model.EvidencePermissionDenied)) == 0 {
		t.Fatalf("no EVIDENCE_PERMISSION_DENIED in %+v", res.Findings)
	}
}

// A registry on a VM (a declared registry at 10.0.1.20 in the hub): inbound
// at its subnet and then its NIC; when its NIC could not be determined, a
// group of its own may be there unseen, so the flow is unverified.
func TestSecurityAtRegistryVM(t *testing.T) {
	const host = "harbor.corp.example"
	vmNIC := id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-harbor")
	nsgVM := id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkSecurityGroups/nsg-harbor")
	nsgSnet := id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkSecurityGroups/nsg-snet-nva")
	tests := []struct {
		name    string
		edit    func(f model.Facts)
		verdict model.Verdict
		code    model.Code
		want    []string
	}{
		{name: "no group on the VM", edit: func(model.Facts) {}, verdict: model.Reachable},
		{
			name: "VM NIC group denies https from the spoke",
			edit: func(f model.Facts) {
				withNSG(f, "", nsgVM, secRule("DenySpoke", 300, "Inbound", "Deny", "Tcp", "10.1.0.0/16", "*", "443"))
				f.Network.NIC(vmNIC).NSGID = nsgVM
			},
			verdict: model.Unreachable, code: model.SecurityInboundDenied,
			want: []string{"nsg-harbor", "destination NIC", "DenySpoke", "priority 300", "TCP 10.1.0.0/22 -> 10.0.1.20:443"},
		},
		{
			name: "VM subnet group allows by its own rule",
			edit: func(f model.Facts) {
				withNSG(f, nvaSubnetID, nsgSnet, secRule("AllowSpoke", 100, "Inbound", "Allow", "Tcp", "10.1.0.0/16", "*", "443"))
			},
			verdict: model.Reachable,
		},
		{
			name: "VM subnet group denies",
			edit: func(f model.Facts) {
				withNSG(f, nvaSubnetID, nsgSnet, secRule("DenyAll", 4096, "Inbound", "Deny", "*", "*", "*", "*"))
			},
			verdict: model.Unreachable, code: model.SecurityInboundDenied,
			want: []string{"nsg-snet-nva", "destination subnet", "DenyAll", "priority 4096"},
		},
		{
			name: "VM NIC could not be determined",
			edit: func(f model.Facts) {
				delete(f.Network.NICs, vmNIC.Key())
				f.Network.AddAddressGap(ip("10.0.1.20"), model.Gap{ResourceID: nvaSubnetID, Kind: model.GapPermissionDenied, Detail: "403"})
			},
			verdict: model.Unverified, code: model.EvidencePermissionDenied,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := baselineFacts()
			f.Registry = nil
			f.Declared = &model.DeclaredRegistry{Hosts: []string{host}, Addresses: map[string]netip.Addr{host: ip("10.0.1.20")}}
			f.Network.NICs[vmNIC.Key()] = &model.NIC{ID: vmNIC, Name: "nic-harbor", SubnetID: nvaSubnetID, PrivateIPs: ips("10.0.1.20"),
				VMID: id("/resourceGroups/rg-hub/providers/Microsoft.Compute/virtualMachines/harbor")}
			tc.edit(f)
			res := Run(f)
			if res.Verdict != tc.verdict {
				t.Fatalf("verdict %s, want %s: %+v", res.Verdict, tc.verdict, res.Findings)
			}
			if tc.code == "" {
				return
			}
			fs := findingsOf(res, tc.code)
			if len(fs) == 0 {
				t.Fatalf("no %s in %+v", tc.code, res.Findings)
			}
			for _, w := range tc.want {
				if !strings.Contains(fs[0].Message, w) {
					t.Errorf("message %q lacks %q", fs[0].Message, w)
				}
			}
		})
	}
}

// CheckSecurity on its own: a flow whose NIC-level group is unknown is not
// allowed by the subnet's group alone; with the group known it is.
func TestCheckSecurityNICGroupUnknown(t *testing.T) {
	f := baselineFacts()
	withNSG(f, aksSubnetID, nsgAKSID)
	e := routing.NewEngine(f.Network, routing.Options{})
	res := e.Trace(aksSubnetID, ip("10.0.2.5"))
	spaces := SpacesOf(f.Network)
	sf := SecurityFlow{SubnetID: aksSubnetID, Dest: ip("10.0.2.5"), Protocol: "Tcp", Port: 443}

	ok := CheckSecurity(f.Network, sf, res, spaces)
	if len(ok.Gaps) != 0 || len(ok.Findings) != 0 || !slices.Contains(ok.Hops, "nsg nsg-aks (subnet) allows TCP 443 by rule AllowVnetOutBound (65000)") {
		t.Fatalf("known groups: %+v", ok)
	}
	gap := model.Gap{ResourceID: scaleSetID, Kind: model.GapPermissionDenied, Detail: "403"}
	sf.NICGroupGap = &gap
	unknown := CheckSecurity(f.Network, sf, res, spaces)
	if len(unknown.Gaps) != 1 || !unknown.Gaps[0].ResourceID.Equal(scaleSetID) || len(unknown.Hops) != 0 {
		t.Fatalf("unknown NIC group: %+v", unknown)
	}
	sf.NICGroupID = nsgAKSID // known after all: the gap no longer matters
	if known := CheckSecurity(f.Network, sf, res, spaces); len(known.Gaps) != 0 {
		t.Fatalf("NIC group known: %+v", known)
	}
}
