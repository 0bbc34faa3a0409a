// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

var (
	nodeRG      = "/resourceGroups/MC_rg-spoke_aks1_westeurope/providers/Microsoft.Network/"
	lbPIPID     = id(nodeRG + "publicIPAddresses/pip-out")
	natGWID     = id("/resourceGroups/rg-spoke/providers/Microsoft.Network/natGateways/natgw-aks")
	natPrefixID = id("/resourceGroups/rg-spoke/providers/Microsoft.Network/publicIPPrefixes/ippre-nat")
	nodePrefix  = id("/resourceGroups/rg-spoke/providers/Microsoft.Network/publicIPPrefixes/ippre-nodes")
	fwSubnetID  = hubID + "/subnets/AzureFirewallSubnet"
	fwPIPID     = id("/resourceGroups/rg-hub/providers/Microsoft.Network/publicIPAddresses/pip-fw")
	gatewayID   = id("/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworkGateways/vpngw")
	nvaNICID    = id("/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-nva")
)

// loadBalancerEgress gives the cluster outbound type loadBalancer with one
// outbound IP at addr ("" for an address Azure has not allocated, "-" for
// one that was not read).
func loadBalancerEgress(f *model.Facts, addr string) {
	f.Cluster.Outbound = model.Outbound{Type: model.OutboundLoadBalancer, LoadBalancerIPIDs: []model.ResourceID{lbPIPID}}
	switch addr {
	case "-":
	case "":
		f.Network.AddPublicAddress(&model.PublicAddress{ID: lbPIPID, Name: "pip-out"})
	default:
		f.Network.AddPublicAddress(&model.PublicAddress{ID: lbPIPID, Name: "pip-out", Prefix: pfx(addr + "/32")})
	}
	f.Network.SpeculativeReads = append(f.Network.SpeculativeReads, lbPIPID)
}

// natGatewayEgress attaches natgw-aks with public IP prefix prefix to the
// node subnet.
func natGatewayEgress(f *model.Facts, prefix string) {
	f.Network.Subnet(aksSubnetID).NATGatewayID = natGWID
	f.Network.AddNATGateway(&model.NATGateway{ID: natGWID, Name: "natgw-aks", PublicIPIDs: []model.ResourceID{natPrefixID}})
	f.Network.AddPublicAddress(&model.PublicAddress{ID: natPrefixID, Name: "ippre-nat", Prefix: pfx(prefix)})
}

// ipRules makes the registry admit public clients from rules only
// (addresses or CIDRs, as ACR takes them).
func ipRules(f *model.Facts, rules ...string) {
	f.Registry.PublicNetworkAccess, f.Registry.NetworkDefaultAction = "Enabled", "Deny"
	f.Registry.IPRules = nil
	for _, r := range rules {
		if !strings.Contains(r, "/") {
			r += "/32"
		}
		f.Registry.IPRules = append(f.Registry.IPRules, pfx(r))
	}
}

// exitThrough is a route engine answer: public destinations leave through
// the appliances at addrs (in subnet), then the Internet.
func exitThrough(subnet model.ResourceID, nic model.ResourceID, addrs ...string) *fakeTracer {
	var apps []ExitAppliance
	for _, a := range addrs {
		apps = append(apps, ExitAppliance{IP: ip(a), SubnetID: subnet, NICID: nic, Label: "appliance " + a})
	}
	return &fakeTracer{public: &RouteResult{Source: RouteSourceComputed, Hops: []string{"subnet vnet-spoke/snet-aks → appliance", "appliance → Internet"},
		Exit: Exit{Kind: ExitInternet, SubnetID: subnet, Appliances: apps,
			FirstRoute: "route table rt-aks route default: 0.0.0.0/0 → VirtualAppliance " + addrs[0], Route: "Azure's default route: 0.0.0.0/0 → Internet"}}}
}

// forcedThroughFirewall is a route engine answer: public destinations
// cross Azure Firewall 10.0.4.4, whose subnet's default route (learned
// from on-premises) leaves through gateway vpngw (forced tunnelling).
func forcedThroughFirewall() *fakeTracer {
	return &fakeTracer{public: &RouteResult{Source: RouteSourceComputed, Hops: []string{"subnet vnet-spoke/snet-aks → Azure Firewall 10.0.4.4", "→ on-premises via gateway vpngw"},
		Exit: Exit{Kind: ExitOnPremises, SubnetID: fwSubnetID, GatewayID: gatewayID,
			Appliances: []ExitAppliance{{IP: ip("10.0.4.4"), SubnetID: fwSubnetID, Label: "Azure Firewall 10.0.4.4 in vnet-hub/AzureFirewallSubnet"}},
			FirstRoute: "route table rt-aks route default: 0.0.0.0/0 → VirtualAppliance 10.0.4.4",
			Route:      "gateway vpngw (learned from 192.168.255.1, EBgp): 0.0.0.0/0 → VirtualNetworkGateway 10.0.0.30"}}}
}

// addFirewall puts Azure Firewall fw-hub (10.0.4.4, public IP pip-fw at
// pub) in the hub's AzureFirewallSubnet, with policy fwpol-hub, whose one
// rule allows HTTPS from the node subnet to the public registry's login
// server and storage (allowFirewall changes what it allows).
func addFirewall(f *model.Facts, pub string) {
	s := subnet(hubID, "AzureFirewallSubnet", "10.0.4.0/26")
	s.IPConfigurationIDs = []model.ResourceID{fwID + "/azureFirewallIpConfigurations/ipconfig1"}
	f.Network.VNet(hubID).Subnets = append(f.Network.VNet(hubID).Subnets, s)
	f.Network.Subnets[s.ID.Key()] = s
	f.Network.AddFirewall(&model.AzureFirewall{ID: fwID, Name: "fw-hub", PrivateIPs: ips("10.0.4.4"), SubnetIDs: []model.ResourceID{s.ID},
		PublicIPAddressIDs: []model.ResourceID{fwPIPID}, PolicyID: fwPolicyID})
	allowFirewall(f, model.FirewallRule{Name: "allow-acr", Kind: model.FirewallApplicationRule, SourceAddresses: []string{"10.1.0.0/22"},
		Protocols: []model.FirewallAppProtocol{{Type: "Https", Port: 443}}, TargetFQDNs: []string{loginHost, "*.blob.core.windows.net"}})
	if pub != "" {
		f.Network.AddPublicAddress(&model.PublicAddress{ID: fwPIPID, Name: "pip-fw", Prefix: pfx(pub + "/32")})
	}
}

// allowFirewall makes rule the only rule of fw-hub's policy fwpol-hub.
func allowFirewall(f *model.Facts, rule model.FirewallRule) {
	f.Network.AddFirewallPolicy(&model.FirewallPolicy{ID: fwPolicyID, Name: "fwpol-hub", RuleCollectionGroupsKnown: true,
		RuleCollectionGroups: []model.FirewallRuleCollectionGroup{{ID: fwPolicyID + "/ruleCollectionGroups/egress", Name: "egress", Priority: 300,
			Collections: []model.FirewallRuleCollection{{Name: "registry", Priority: 200, Action: "Allow", Rules: []model.FirewallRule{rule}}}}}})
}

// findingFor is the first finding with code on endpoint.
func findingFor(t *testing.T, res Result, code model.Code, endpoint string) model.Finding {
	t.Helper()
	for _, f := range findingsWith(res, code) {
		if f.Endpoint == endpoint {
			return f
		}
	}
	t.Fatalf("no %s on %s:\n%s", code, endpoint, res.Summary)
	return model.Finding{}
}

func TestEgress(t *testing.T) {
	tests := []factsCase{
		{
			name:    "public registry, default route, load balancer outbound: reachable without any IP read",
			mutate:  func(f *model.Facts) { publicRegistry(f); loadBalancerEgress(f, "-") },
			verdict: model.Reachable,
			check: func(t *testing.T, res Result) {
				p := pathOf(t, res, "system", loginHost)
				if p.Address != "" || !strings.Contains(strings.Join(p.Hops, " | "), "out through the cluster load balancer's outbound IPs") {
					t.Errorf("path %+v", p)
				}
			},
		},
		{
			name: "IP rules admit the load balancer's outbound IP: reachable",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "20.50.1.10")
				ipRules(f, "20.50.1.10")
			},
			verdict: model.Reachable,
		},
		{
			name: "IP rules without the load balancer's outbound IP: ENDPOINT_PUBLIC_IP_NOT_ALLOWED naming both lists, not the storage",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "20.50.1.10")
				ipRules(f, "203.0.113.0/24", "198.51.100.7")
			},
			want: []model.Code{model.EndpointPublicIPNotAllowed}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				fs := findingsWith(res, model.EndpointPublicIPNotAllowed)
				if len(fs) != 2 || fs[0].Endpoint != loginHost || !fs[0].ResourceID.Equal(registryID) || fs[0].Owner != model.OwnerRegistry {
					t.Fatalf("findings %+v", fs)
				}
				requireContains(t, fs[0].Message, "20.50.1.10 (load balancer outbound IP pip-out)", "203.0.113.0/24, 198.51.100.7", "Deny")
				requireContains(t, fs[0].Remediation, "az acr network-rule add --name contosoreg --ip-address 20.50.1.10", "irrelevant")
				if p := pathOf(t, res, "system", "*.blob.core.windows.net"); p.Verdict != model.Reachable {
					t.Errorf("the registry's storage is not behind its IP rules: %s", p.Verdict)
				}
			},
		},
		{
			name: "IP rules and an outbound IP that could not be read: evidence, never reachable",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "-")
				ipRules(f, "20.50.1.10")
				f.Gaps.Add(model.Gap{ResourceID: lbPIPID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/publicIPAddresses/read"})
			},
			want: []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				fs := findingsWith(res, model.EvidencePermissionDenied)
				if len(fs) == 0 || !fs[0].ResourceID.Equal(lbPIPID) || fs[0].Endpoint != loginHost {
					t.Fatalf("findings %+v", fs)
				}
				requireContains(t, fs[0].Message, "Microsoft.Network/publicIPAddresses/read")
			},
		},
		{
			name: "IP rules and an outbound IP without an address: EGRESS_UNVERIFIED",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "")
				ipRules(f, "20.50.1.10")
			},
			want: []model.Code{model.EgressUnverified}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				requireContains(t, findingsWith(res, model.EgressUnverified)[0].Message, "pip-out has no address allocated", "20.50.1.10")
			},
		},
		{
			name: "a NAT gateway on the node subnet takes precedence over the load balancer; its prefix is admitted by two rules together",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "-")
				natGatewayEgress(f, "20.60.0.0/30")
				ipRules(f, "20.60.0.0/31", "20.60.0.2", "20.60.0.3")
			},
			verdict: model.Reachable,
			check: func(t *testing.T, res Result) {
				requireContains(t, strings.Join(pathOf(t, res, "user", loginHost).Hops, " | "), "NAT gateway natgw-aks")
			},
		},
		{
			name: "a NAT gateway prefix half outside the rules: refused",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				natGatewayEgress(f, "20.60.0.0/30")
				ipRules(f, "20.60.0.0/31")
			},
			want: []model.Code{model.EndpointPublicIPNotAllowed}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				requireContains(t, findingsWith(res, model.EndpointPublicIPNotAllowed)[0].Message, "20.60.0.0/30 (NAT gateway natgw-aks public IP prefix ippre-nat)")
			},
		},
		{
			name: "node public IPs from a prefix the rules admit",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "-")
				for _, p := range f.Pools {
					p.NodePublicIP, p.NodePublicIPPrefixID = true, nodePrefix
				}
				f.Network.AddPublicAddress(&model.PublicAddress{ID: nodePrefix, Name: "ippre-nodes", Prefix: pfx("20.70.1.0/28")})
				ipRules(f, "20.70.0.0/16")
			},
			verdict: model.Reachable,
		},
		{
			name: "node public IPs from no prefix, and IP rules: unverified",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				for _, p := range f.Pools {
					p.NodePublicIP = true
				}
				ipRules(f, "20.70.0.0/16")
			},
			want: []model.Code{model.EgressUnverified}, verdict: model.Unverified,
		},
		{
			name: "outbound type block: EGRESS_NO_OUTBOUND on the cluster",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				f.Cluster.Outbound.Type = model.OutboundBlock
			},
			want: []model.Code{model.EgressNoOutbound}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				fs := findingsWith(res, model.EgressNoOutbound)
				if len(fs) != 4 || !fs[0].ResourceID.Equal(clusterID) || fs[0].Condition != model.ConditionEgress {
					t.Fatalf("want one per pool and host (login and storage), on the cluster: %+v", fs)
				}
				requireContains(t, fs[0].Message, "outbound type block")
			},
		},
		{
			name: "outbound type none in a private subnet: EGRESS_NO_OUTBOUND on the subnet",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				f.Cluster.Outbound.Type = model.OutboundNone
				f.Network.Subnet(aksSubnetID).DefaultOutboundAccessDisabled = true
			},
			want: []model.Code{model.EgressNoOutbound}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				f := findingsWith(res, model.EgressNoOutbound)[0]
				if !f.ResourceID.Equal(aksSubnetID) {
					t.Errorf("resource %s", f.ResourceID)
				}
				requireContains(t, f.Message, "outbound type none", "defaultOutboundAccess false")
				requireContains(t, f.Remediation, "NAT gateway", "retiring")
			},
		},
		{
			name: "outbound type none with a NAT gateway on the subnet: the NAT gateway carries it",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				f.Cluster.Outbound.Type = model.OutboundNone
				f.Network.Subnet(aksSubnetID).DefaultOutboundAccessDisabled = true
				natGatewayEgress(f, "20.60.0.0/30")
			},
			verdict: model.Reachable,
		},
		{
			name: "outbound type none with default outbound access: the path works, its address is unknown to IP rules",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				f.Cluster.Outbound.Type = model.OutboundNone
				ipRules(f, "20.60.0.0/30")
			},
			want: []model.Code{model.EgressUnverified}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				requireContains(t, findingsWith(res, model.EgressUnverified)[0].Message, "default outbound access")
			},
		},
		{
			name: "outbound type userDefinedRouting but the subnet routes to the Internet, private subnet: no outbound",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				f.Cluster.Outbound.Type = model.OutboundUserDefinedRouting
				f.Network.Subnet(aksSubnetID).DefaultOutboundAccessDisabled = true
			},
			want: []model.Code{model.EgressNoOutbound}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				requireContains(t, findingsWith(res, model.EgressNoOutbound)[0].Message, "userDefinedRouting expects a route")
			},
		},
		{
			name: "outbound type userDefinedRouting but the subnet routes to the Internet: unverified",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				f.Cluster.Outbound.Type = model.OutboundUserDefinedRouting
			},
			want: []model.Code{model.EgressUnverified}, verdict: model.Unverified,
		},
		{
			name:   "an outbound type the provider does not know: unverified",
			mutate: func(f *model.Facts) { publicRegistry(f); f.Cluster.Outbound.Type = "managedNATGatewayV3" },
			want:   []model.Code{model.EgressUnverified}, verdict: model.Unverified,
		},
		{
			name: "nodes given as subnets in a private subnet: unverified, not an error",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				f.Cluster = nil
				f.Pools = []*model.NodePool{{Name: "snet-aks", SubnetID: aksSubnetID}}
				f.Network.Subnet(aksSubnetID).DefaultOutboundAccessDisabled = true
			},
			want: []model.Code{model.EgressUnverified}, verdict: model.Unverified,
		},
		{
			name:   "a third-party appliance on the way out: EGRESS_UNVERIFIED naming every public host and the port",
			mutate: func(f *model.Facts) { publicRegistry(f); loadBalancerEgress(f, "-") },
			tracer: exitThrough(nvaSubnetID, nvaNICID, "10.0.1.4"),
			want:   []model.Code{model.EgressUnverified}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				fs := findingsWith(res, model.EgressUnverified)
				if len(fs) != 4 || !fs[0].ResourceID.Equal(nvaNICID) || fs[0].Owner != model.OwnerNetwork {
					t.Fatalf("findings %+v", fs)
				}
				requireContains(t, fs[0].Message, "appliance 10.0.1.4", "TCP 443", loginHost, "*.blob.core.windows.net")
			},
		},
		{
			name: "an appliance and IP rules: one finding per path, saying the appliance's address must be admitted",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "20.50.1.10")
				ipRules(f, "20.50.1.10")
			},
			tracer: exitThrough(nvaSubnetID, nvaNICID, "10.0.1.4"),
			want:   []model.Code{model.EgressUnverified}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				requireContains(t, findingsWith(res, model.EgressUnverified)[0].Message, "admits public clients only from 20.50.1.10")
			},
		},
		{
			name:   "forced tunnelling: EGRESS_UNVERIFIED on the gateway",
			mutate: func(f *model.Facts) { publicRegistry(f); loadBalancerEgress(f, "-") },
			tracer: &fakeTracer{public: &RouteResult{Source: RouteSourceComputed, Hops: []string{"subnet vnet-spoke/snet-aks → on-premises via gateway vpngw"},
				Exit: Exit{Kind: ExitOnPremises, SubnetID: aksSubnetID, GatewayID: gatewayID, Route: "gateway vpngw (learned from 192.168.255.1, EBgp): 0.0.0.0/0 → VirtualNetworkGateway 10.0.0.30"}}},
			want: []model.Code{model.EgressUnverified}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				f := findingFor(t, res, model.EgressUnverified, loginHost)
				if !f.ResourceID.Equal(gatewayID) {
					t.Errorf("resource %s", f.ResourceID)
				}
				requireContains(t, f.Message, "forced tunnelling", "TCP 443", loginHost)
				requireContains(t, f.Remediation, "AzureContainerRegistry.westeurope")
			},
		},
		{
			name: "forced tunnelling through an Azure Firewall that was not read: EGRESS_UNVERIFIED with the evidence naming the firewall",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "-")
				addFirewall(f, "")
				delete(f.Network.Firewalls, fwID.Key())
				f.Gaps.Add(model.Gap{ResourceID: fwID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/azureFirewalls/read"})
				f.Network.SpeculativeReads = append(f.Network.SpeculativeReads, fwID)
			},
			tracer: forcedThroughFirewall(),
			want:   []model.Code{model.EgressUnverified, model.EvidencePermissionDenied}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				e := findingFor(t, res, model.EvidencePermissionDenied, loginHost)
				if !e.ResourceID.Equal(fwID) || e.NodePool == "" {
					t.Errorf("evidence %+v: the flow crosses the firewall", e)
				}
				f := findingFor(t, res, model.EgressUnverified, loginHost)
				requireContains(t, f.Message, "10.0.4.4", "not read", "forced tunnelling")
			},
		},
		{
			name: "forced tunnelling through an Azure Firewall that was read and allows: only the on-premises egress is unknown (negative)",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "-")
				addFirewall(f, "")
			},
			tracer: forcedThroughFirewall(),
			want:   []model.Code{model.EgressUnverified}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				requireContains(t, findingFor(t, res, model.EgressUnverified, loginHost).Message, "gateway vpngw")
			},
		},
		{
			name: "an Azure Firewall whose rules allow the pull: reachable, leaving through the firewall's public IP",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "-")
				addFirewall(f, "20.80.0.1")
				ipRules(f, "20.80.0.1")
			},
			tracer:  exitThrough(fwSubnetID, "", "10.0.4.4"),
			verdict: model.Reachable,
			check: func(t *testing.T, res Result) {
				p := pathOf(t, res, "system", loginHost)
				requireContains(t, strings.Join(p.Hops, " | "), "Azure Firewall fw-hub (10.0.4.4)", "out through Azure Firewall fw-hub's public IPs")
			},
		},
		{
			name: "an Azure Firewall whose rules allow the login server only: EGRESS_FIREWALL_DENIED for the storage",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "-")
				addFirewall(f, "20.80.0.1")
				allowFirewall(f, model.FirewallRule{Name: "allow-login", Kind: model.FirewallApplicationRule, SourceAddresses: []string{"10.1.0.0/22"},
					Protocols: []model.FirewallAppProtocol{{Type: "Https", Port: 443}}, TargetFQDNs: []string{loginHost}})
			},
			tracer: exitThrough(fwSubnetID, "", "10.0.4.4"),
			want:   []model.Code{model.EgressFirewallDenied}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				f := findingsWith(res, model.EgressFirewallDenied)[0]
				if f.Endpoint != "*.blob.core.windows.net" || !f.ResourceID.Equal(fwPolicyID) {
					t.Errorf("finding on %s, resource %s", f.Endpoint, f.ResourceID)
				}
				requireContains(t, f.Message, "Azure Firewall fw-hub (10.0.4.4)", "firewall policy fwpol-hub", "a firewall denies what no rule allows")
				if p := pathOf(t, res, "system", loginHost); p.Verdict != model.Reachable {
					t.Errorf("the login server is allowed: %+v", p)
				}
			},
		},
		{
			name: "an Azure Firewall whose policy could not be read: EGRESS_UNVERIFIED with the evidence, never reachable",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "-")
				addFirewall(f, "20.80.0.1")
				delete(f.Network.FirewallPolicies, fwPolicyID.Key())
				f.Gaps.Add(model.Gap{ResourceID: fwPolicyID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/firewallPolicies/read"})
				f.Network.SpeculativeReads = append(f.Network.SpeculativeReads, fwID, fwPolicyID)
			},
			tracer: exitThrough(fwSubnetID, "", "10.0.4.4"),
			want:   []model.Code{model.EgressUnverified, model.EvidencePermissionDenied}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				e := findingsWith(res, model.EvidencePermissionDenied)[0]
				if !e.ResourceID.Equal(fwPolicyID) || e.NodePool == "" {
					t.Errorf("evidence %+v: the firewall's decision uses the policy", e)
				}
			},
		},
		{
			name: "a parent policy's allow decides, but the child's rule collection groups could not be read: unverified by their evidence, never reachable",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "-")
				addFirewall(f, "20.80.0.1")
				// The parent's network rule (network rules come first, the
				// parent's before the child's) allows TCP 443 anywhere.
				allowFirewall(f, model.FirewallRule{Name: "https-out", Kind: model.FirewallNetworkRule, SourceAddresses: []string{"10.1.0.0/16"},
					IPProtocols: []string{"TCP"}, DestinationAddresses: []string{"*"}, DestinationPorts: []string{"443"}})
				parent := *f.Network.FirewallPolicy(fwPolicyID)
				parent.ID, parent.Name = fwBaseID, "fwpol-base"
				f.Network.AddFirewallPolicy(&parent)
				f.Network.AddFirewallPolicy(&model.FirewallPolicy{ID: fwPolicyID, Name: "fwpol-hub", BasePolicyID: fwBaseID})
				f.Gaps.Add(model.Gap{ResourceID: model.FirewallRuleCollectionGroupsID(fwPolicyID), Kind: model.GapPermissionDenied,
					Permission: "Microsoft.Network/firewallPolicies/ruleCollectionGroups/read"})
				f.Network.SpeculativeReads = append(f.Network.SpeculativeReads, fwID, fwPolicyID, fwBaseID)
			},
			tracer: exitThrough(fwSubnetID, "", "10.0.4.4"),
			want:   []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				e := findingFor(t, res, model.EvidencePermissionDenied, loginHost)
				if !e.ResourceID.Equal(model.FirewallRuleCollectionGroupsID(fwPolicyID)) || e.NodePool == "" {
					t.Errorf("evidence %+v", e)
				}
				requireContains(t, e.Message, "the rules of Azure Firewall fw-hub")
			},
		},
		{
			name: "an unreadable firewall policy on a path that does not cross the firewall counts for nothing",
			mutate: func(f *model.Facts) {
				addFirewall(f, "20.80.0.1")
				delete(f.Network.FirewallPolicies, fwPolicyID.Key())
				f.Gaps.Add(model.Gap{ResourceID: fwPolicyID + "/ruleCollectionGroups", Kind: model.GapUnavailable})
				f.Network.SpeculativeReads = append(f.Network.SpeculativeReads, fwID, fwPolicyID)
			},
			verdict: model.Reachable,
		},
		{
			name:   "an address in an AzureFirewallSubnet whose firewall was not read: unverified with the evidence",
			mutate: func(f *model.Facts) { publicRegistry(f); addFirewall(f, ""); delete(f.Network.Firewalls, fwID.Key()) },
			tracer: exitThrough(fwSubnetID, "", "10.0.4.4"),
			want:   []model.Code{model.EgressUnverified, model.EvidenceNotFound}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				f := findingsWith(res, model.EgressUnverified)[0]
				requireContains(t, f.Message, "an Azure Firewall whose resource was not read")
				if !f.ResourceID.Equal(fwID) {
					t.Errorf("resource %s", f.ResourceID)
				}
			},
		},
		{
			name: "a firewall subnet that names no firewall, whose resource group's firewalls could not be listed: the list's evidence",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				addFirewall(f, "")
				delete(f.Network.Firewalls, fwID.Key())
				f.Network.Subnet(fwSubnetID).IPConfigurationIDs = nil
				list := id("/resourceGroups/rg-hub/providers/Microsoft.Network/azureFirewalls")
				f.Gaps.Add(model.Gap{ResourceID: list, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/azurefirewalls/read"})
				f.Network.SpeculativeReads = append(f.Network.SpeculativeReads, list)
			},
			tracer: exitThrough(fwSubnetID, "", "10.0.4.4"),
			want:   []model.Code{model.EgressUnverified, model.EvidencePermissionDenied}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				e := findingsWith(res, model.EvidencePermissionDenied)[0]
				if e.NodePool == "" || !strings.HasSuffix(string(e.ResourceID), "/azureFirewalls") {
					t.Errorf("evidence %+v", e)
				}
			},
		},
		{
			name: "a route that rests on a fact that could not be read: no egress conclusion, never an error",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "20.50.1.10")
				ipRules(f, "203.0.113.9")
			},
			tracer: func() *fakeTracer {
				rr := internetRoute(aksSubnetID)
				rr.Gaps = []model.Gap{{ResourceID: rtAKSID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/routeTables/read"}}
				return &fakeTracer{public: &rr}
			}(),
			want: []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
		},
		{
			name: "outbound type block is decided whatever the route",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				f.Cluster.Outbound.Type = model.OutboundBlock
			},
			tracer: func() *fakeTracer {
				rr := internetRoute(aksSubnetID)
				rr.Gaps = []model.Gap{{ResourceID: rtAKSID, Kind: model.GapNotFound}}
				return &fakeTracer{public: &rr}
			}(),
			want: []model.Code{model.EgressNoOutbound, model.EvidenceNotFound}, verdict: model.Unreachable,
		},
		{
			name:   "a public address the route engine delivers inside Azure's networks: unverified, not reachable",
			mutate: func(f *model.Facts) { publicRegistry(f) },
			tracer: &fakeTracer{public: &RouteResult{Source: RouteSourceComputed, Hops: []string{"subnet vnet-spoke/snet-aks → vnet-hub/snet-nva"}}},
			want:   []model.Code{model.EgressUnverified}, verdict: model.Unverified,
		},
		{
			name: "a failed read of an outbound IP no flow leaves through counts for nothing",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "-")
				natGatewayEgress(f, "20.60.0.0/30")
				ipRules(f, "20.60.0.0/30")
				f.Gaps.Add(model.Gap{ResourceID: lbPIPID, Kind: model.GapUnavailable})
			},
			verdict: model.Reachable,
		},
	}
	runFactsCases(t, tests)
}

// TestFirewallEgress: the integration point asks the firewall's rules
// about the host and its service tag (matched case-insensitively); a flow
// a firewall allows leaves through the firewall's public IPs, or the NAT
// gateway of its subnet, which the registry's IP rules then judge.
func TestFirewallEgress(t *testing.T) {
	f := baselineFacts()
	publicRegistry(&f)
	addFirewall(&f, "20.80.0.1")
	r := &run{f: &f, gaps: mergeGaps(&f), used: map[string]bool{}, ep: newEndpoints(&f)}
	pc := r.newPoolCtx(f.Pools[0])
	pc.publicHosts = f.PullHosts()
	h := f.PullHosts()[0]
	fw := f.Network.Firewall(fwID)

	fs, allowed := r.firewallDecision("system", fw, pc.subnet.Prefixes, h.Name, firewallServiceTag(f.PublicServiceTags(h)))
	if !allowed || len(fs) != 0 {
		t.Fatalf("the policy allows the login server: %v %+v", allowed, fs)
	}
	// The service tag the public path passes for a registry endpoint,
	// AzureContainerRegistry.<region> with the region as ARM writes it,
	// matches a rule that spells it as Azure lists it.
	if tag := firewallServiceTag(f.PublicServiceTags(h)); !strings.EqualFold(tag, acrTagWE) {
		t.Fatalf("service tag of %s: %q, want %s", h.Name, tag, acrTagWE)
	}
	allowFirewall(&f, model.FirewallRule{Name: "acr-westeurope", Kind: model.FirewallNetworkRule, SourceAddresses: []string{"10.1.0.0/16"},
		IPProtocols: []string{"TCP"}, DestinationAddresses: []string{acrTagWE}, DestinationPorts: []string{"443"}})
	if fs, allowed := r.firewallDecision("system", fw, pc.subnet.Prefixes, h.Name, firewallServiceTag(f.PublicServiceTags(h))); !allowed || len(fs) != 0 {
		t.Fatalf("a network rule to %s allows the login server: %v %+v", acrTagWE, allowed, fs)
	}
	allowFirewall(&f, model.FirewallRule{Name: "acr-northeurope", Kind: model.FirewallNetworkRule, SourceAddresses: []string{"10.1.0.0/16"},
		IPProtocols: []string{"TCP"}, DestinationAddresses: []string{"AzureContainerRegistry.NorthEurope"}, DestinationPorts: []string{"443"}})
	fs, allowed = r.firewallDecision("system", fw, pc.subnet.Prefixes, h.Name, firewallServiceTag(f.PublicServiceTags(h)))
	if allowed || len(fs) != 1 || fs[0].Code != model.EgressFirewallDenied || fs[0].Endpoint != loginHost {
		t.Fatalf("another region's tag does not hold the registry's address: %v %+v", allowed, fs)
	}
	requireContains(t, fs[0].Message, "fw-hub", "fwpol-hub", loginHost, "10.1.0.0/22")

	out := r.firewallEgress(fw, fwSubnetID)
	if len(out.sources) != 1 || out.sources[0].id != fwPIPID || len(out.findings) != 0 {
		t.Fatalf("allowed: %+v", out)
	}
	ipRules(&f, "20.80.0.1")
	if fs := r.registryIPRules(pc, h, out); len(fs) != 0 {
		t.Errorf("the firewall's address is admitted: %+v", fs)
	}
	ipRules(&f, "20.80.0.2")
	if fs := r.registryIPRules(pc, h, out); len(fs) != 1 || fs[0].Code != model.EndpointPublicIPNotAllowed {
		t.Errorf("the firewall's address is not admitted: %+v", fs)
	}
	f.Network.Subnet(fwSubnetID).NATGatewayID = natGWID
	if out := r.firewallEgress(fw, fwSubnetID); len(out.sources) != 1 || out.sources[0].id != natGWID {
		t.Errorf("a NAT gateway on the firewall's subnet takes precedence: %+v", out)
	}
	hub := *fw
	hub.PublicIPAddressIDs, hub.PublicIPs = nil, ips("20.90.0.1")
	f.Network.Subnet(fwSubnetID).NATGatewayID = ""
	if out := r.firewallEgress(&hub, fwSubnetID); len(out.sources) != 1 || out.sources[0].addr != pfx("20.90.0.1/32") {
		t.Errorf("a virtual hub firewall's public addresses: %+v", out)
	}
}

func TestDNSResolvesPublic(t *testing.T) {
	tests := []factsCase{
		{
			name: "zone not linked, registry open to the public: DNS_RESOLVES_PUBLIC, a warning, and the public path's verdict",
			mutate: func(f *model.Facts) {
				unlinkSpoke(f)
				f.Registry.PublicNetworkAccess, f.Registry.NetworkDefaultAction = "Enabled", "Allow"
			},
			want: []model.Code{model.DNSResolvesPublic}, verdict: model.Reachable,
			check: func(t *testing.T, res Result) {
				fs := findingsWith(res, model.DNSResolvesPublic)
				if len(fs) != 4 || fs[0].Severity != model.SeverityWarning || !fs[0].ResourceID.Equal(zoneID) {
					t.Fatalf("findings %+v", fs)
				}
				requireContains(t, fs[0].Message, "linked only to vnet-hub", "pe-acr", "public path works", "off the private path")
				requireContains(t, fs[0].Remediation, "Link zone privatelink.azurecr.io to vnet-spoke")
			},
		},
		{
			name: "zone not linked, IP rules admit the nodes: DNS_RESOLVES_PUBLIC",
			mutate: func(f *model.Facts) {
				unlinkSpoke(f)
				loadBalancerEgress(f, "20.50.1.10")
				ipRules(f, "20.50.1.10")
			},
			want: []model.Code{model.DNSResolvesPublic}, verdict: model.Reachable,
			check: func(t *testing.T, res Result) {
				requireContains(t, findingsWith(res, model.DNSResolvesPublic)[0].Message, "IP rules admit the nodes' public addresses", "load balancer")
			},
		},
		{
			name: "zone not linked, IP rules refuse the nodes: DNS_ZONE_NOT_LINKED alone, saying why the public path fails",
			mutate: func(f *model.Facts) {
				unlinkSpoke(f)
				loadBalancerEgress(f, "20.50.1.10")
				ipRules(f, "203.0.113.9")
			},
			want: []model.Code{model.DNSZoneNotLinked}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				requireContains(t, findingsWith(res, model.DNSZoneNotLinked)[0].Message, "its IP rules admit only 203.0.113.9")
			},
		},
		{
			name: "zone not linked, no outbound path: DNS_ZONE_NOT_LINKED",
			mutate: func(f *model.Facts) {
				unlinkSpoke(f)
				f.Registry.PublicNetworkAccess, f.Registry.NetworkDefaultAction = "Enabled", "Allow"
				f.Cluster.Outbound.Type = model.OutboundBlock
			},
			want: []model.Code{model.DNSZoneNotLinked}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				requireContains(t, findingsWith(res, model.DNSZoneNotLinked)[0].Message, "no outbound path")
			},
		},
		{
			name: "zone not linked, public path unverified: DNS_RESOLVES_PUBLIC and the public path's warning",
			mutate: func(f *model.Facts) {
				unlinkSpoke(f)
				loadBalancerEgress(f, "")
				ipRules(f, "20.50.1.10")
			},
			want: []model.Code{model.DNSResolvesPublic, model.EgressUnverified}, verdict: model.Unverified,
		},
		{
			name: "NxDomainRedirect fallback, registry open: DNS_RESOLVES_PUBLIC on the zone",
			mutate: func(f *model.Facts) {
				delete(zone(f).Records, "contosoreg")
				zone(f).Links[1].ResolutionPolicy = "NxDomainRedirect"
				f.Registry.PublicNetworkAccess, f.Registry.NetworkDefaultAction = "Enabled", "Allow"
			},
			want: []model.Code{model.DNSResolvesPublic}, verdict: model.Reachable,
			check: func(t *testing.T, res Result) {
				fs := findingsWith(res, model.DNSResolvesPublic)
				if len(fs) != 2 || fs[0].Endpoint != loginHost {
					t.Fatalf("findings %+v", fs)
				}
				requireContains(t, fs[0].Message, "NxDomainRedirect")
			},
		},
		{
			name: "NxDomainRedirect fallback, public access disabled: DNS_RECORD_MISSING",
			mutate: func(f *model.Facts) {
				delete(zone(f).Records, "contosoreg")
				zone(f).Links[1].ResolutionPolicy = "NxDomainRedirect"
			},
			want: []model.Code{model.DNSRecordMissing}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				requireContains(t, findingsWith(res, model.DNSRecordMissing)[0].Message, "refuses (public network access is denied)")
			},
		},
	}
	runFactsCases(t, tests)
}

// TestDeclaredPublicHosts: a declared host no private zone holds resolves
// publicly when it is a public DNS name; a private-use name stays
// unresolved.
func TestDeclaredPublicHosts(t *testing.T) {
	f := baselineFacts()
	f.Registry = nil
	f.Declared = &model.DeclaredRegistry{Hosts: []string{"mcr.microsoft.com", "westeurope.data.mcr.microsoft.com", "harbor.corp"}}
	loadBalancerEgress(&f, "-")
	res := verifyFake(t, f, nil)
	onlyCodes(t, res, model.EndpointUnresolved)
	if p := pathOf(t, res, "system", "mcr.microsoft.com"); p.Verdict != model.Reachable || !strings.Contains(p.Resolution, "resolves publicly") {
		t.Errorf("mcr.microsoft.com: %+v", p)
	}
	if p := pathOf(t, res, "system", "harbor.corp"); p.Verdict != model.Unverified {
		t.Errorf("harbor.corp: %+v", p)
	}

	tr := exitThrough(nvaSubnetID, nvaNICID, "10.0.1.4")
	res = verifyFake(t, f, tr)
	fs := findingsWith(res, model.EgressUnverified)
	if len(fs) == 0 {
		t.Fatalf("no EGRESS_UNVERIFIED through the appliance:\n%s", res.Summary)
	}
	requireContains(t, fs[0].Message, "mcr.microsoft.com, westeurope.data.mcr.microsoft.com")
	if strings.Contains(fs[0].Message, "harbor.corp") {
		t.Errorf("a host that does not resolve publicly is not something the appliance must allow: %s", fs[0].Message)
	}
	for _, q := range tr.queries {
		if q.Public && len(q.DestTags) > 0 {
			t.Errorf("a declared host has no known service tag: %+v", q)
		}
	}
}

func TestPublicName(t *testing.T) {
	for host, want := range map[string]bool{
		"mcr.microsoft.com": true, "registry-1.docker.io": true, "contosoreg.azurecr.io.": true,
		"harbor": false, "harbor.corp": false, "registry.example": false, "r.svc.cluster.local": false,
		"registry.home.arpa": false, "registry.internal": false, "x.test": false,
	} {
		if got := publicName(host); got != want {
			t.Errorf("publicName(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestCoveredBy(t *testing.T) {
	for _, tt := range []struct {
		p     string
		rules []string
		want  bool
	}{
		{"20.0.0.1/32", []string{"20.0.0.1/32"}, true},
		{"20.0.0.1/32", []string{"20.0.0.0/24"}, true},
		{"20.0.0.0/24", []string{"20.0.0.0/25", "20.0.0.128/25"}, true},
		{"20.0.0.0/24", []string{"20.0.0.0/25", "20.0.0.128/26"}, false},
		{"20.0.0.0/30", []string{"20.0.0.0/32", "20.0.0.1/32", "20.0.0.3/32"}, false},
		{"20.0.0.0/30", []string{"20.0.0.0/32", "20.0.0.1/32", "20.0.0.2/32", "20.0.0.3/32"}, true},
		{"20.0.0.0/24", nil, false},
		{"20.0.0.0/24", []string{"2001:db8::/32"}, false},
	} {
		if got := coveredBy(netip.MustParsePrefix(tt.p), pfxs(tt.rules...)); got != tt.want {
			t.Errorf("coveredBy(%s, %v) = %v, want %v", tt.p, tt.rules, got, tt.want)
		}
	}
}

func TestFirewallServiceTag(t *testing.T) {
	for _, tt := range []struct {
		tags []string
		want string
	}{
		{nil, ""},
		{[]string{"AzureContainerRegistry.westeurope"}, "AzureContainerRegistry.westeurope"},
		// A replicated registry's login server answers from the nearest
		// replica: any region's address, so the tag without region.
		{[]string{"AzureContainerRegistry.northeurope", "AzureContainerRegistry.westeurope"}, "AzureContainerRegistry"},
		{[]string{"AzureContainerRegistry.westeurope", "Storage.westeurope"}, ""},
	} {
		if got := firewallServiceTag(tt.tags); got != tt.want {
			t.Errorf("firewallServiceTag(%v) = %q, want %q", tt.tags, got, tt.want)
		}
	}
}
