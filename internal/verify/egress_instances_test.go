// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// instancePool gives pool system node public IPs from no prefix, with
// the instance-level public IPs addrs (one per instance, in order), read
// from its scale set's list; read false: the list failed with a 403.
func instancePool(f *model.Facts, read bool, addrs ...string) *model.NodePool {
	p := f.Pools[0]
	p.NodePublicIP = true
	p.InstancePublicIPsList = scaleSetID + "/publicipaddresses"
	f.Network.SpeculativeReads = append(f.Network.SpeculativeReads, p.InstancePublicIPsList)
	if !read {
		f.Gaps.Add(model.Gap{ResourceID: p.InstancePublicIPsList, Kind: model.GapPermissionDenied,
			Permission: "Microsoft.Compute/virtualMachineScaleSets/publicIPAddresses/read"})
		return p
	}
	p.InstancePublicIPsRead = true
	for i, a := range addrs {
		ipID := scaleSetID + model.ResourceID("/virtualMachines/"+string(rune('0'+i))+"/networkInterfaces/aks-system-12345678-vmss/ipConfigurations/ipconfig1/publicIPAddresses/pub1")
		ip := &model.PublicAddress{ID: ipID, Name: "pub1"}
		if a != "" {
			ip.Prefix = pfx(a + "/32")
		}
		p.InstancePublicIPs = append(p.InstancePublicIPs, ip)
	}
	return p
}

// TestInstancePublicIPs: a pool whose nodes have public IPs of their own
// from no prefix leaves through the addresses its instances hold; the
// registry's IP rules are judged against each of them, and, unread, the
// instances still cannot hold an address another public IP resource holds.
func TestInstancePublicIPs(t *testing.T) {
	tests := []factsCase{
		{
			name: "every instance address admitted: reachable, the path names the instances",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "20.50.1.10")
				instancePool(f, true, "20.60.0.4", "20.60.0.5")
				ipRules(f, "20.50.1.10", "20.60.0.4", "20.60.0.5")
			},
			verdict: model.Reachable,
			check: func(t *testing.T, res Result) {
				requireContains(t, strings.Join(pathOf(t, res, "system", loginHost).Hops, " | "),
					"out through each node's own public IP (instance 0, instance 1 of scale set aks-system-12345678-vmss now)")
			},
		},
		{
			name: "instance addresses inside an admitted range: reachable",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "20.50.1.10")
				instancePool(f, true, "20.60.0.4", "20.60.0.5")
				ipRules(f, "20.50.1.10", "20.60.0.0/24")
			},
			verdict: model.Reachable,
		},
		{
			name: "one instance address not admitted: ENDPOINT_PUBLIC_IP_NOT_ALLOWED naming the instance",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "20.50.1.10")
				instancePool(f, true, "20.60.0.4", "20.60.0.5")
				ipRules(f, "20.50.1.10", "20.60.0.4", "198.51.100.0/24")
			},
			want: []model.Code{model.EndpointPublicIPNotAllowed}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				f := findingFor(t, res, model.EndpointPublicIPNotAllowed, loginHost)
				if f.NodePool != "system" {
					t.Errorf("pool %q", f.NodePool)
				}
				requireContains(t, f.Message, "20.60.0.5 (public IP pub1 of instance 1)", "which does not include 20.60.0.5", "pulls fail on the nodes that hold a refused one")
				requireContains(t, f.Remediation, "--ip-address 20.60.0.5", "nodePublicIPPrefixID", "scale-out")
				if p := pathOf(t, res, "user", loginHost); p.Verdict != model.Reachable {
					t.Errorf("pool user leaves through the admitted load balancer address: %s", p.Verdict)
				}
			},
		},
		{
			name: "the rules admit only the load balancer's address, instances read: refused",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "20.50.1.10")
				instancePool(f, true, "20.60.0.4")
				ipRules(f, "20.50.1.10")
			},
			want: []model.Code{model.EndpointPublicIPNotAllowed}, verdict: model.Unreachable,
		},
		{
			name: "the rules admit only the load balancer's address, instances unread: refused all the same, no evidence",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "20.50.1.10")
				instancePool(f, false)
				ipRules(f, "20.50.1.10")
			},
			want: []model.Code{model.EndpointPublicIPNotAllowed}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				f := findingFor(t, res, model.EndpointPublicIPNotAllowed, loginHost)
				requireContains(t, f.Message, "20.50.1.10 by cluster aks1's load balancer outbound public IP pip-out (20.50.1.10)",
					"no other public IP resource holds", "could not be read")
				requireContains(t, f.Remediation, "nodePublicIPPrefixID", "NAT gateway", "no lasting fix")
			},
		},
		{
			name: "the rules admit a NAT gateway's prefix and a firewall's address only, instances unread: refused",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "20.50.1.10")
				f.Network.AddNATGateway(&model.NATGateway{ID: natGWID, Name: "natgw-other", PublicIPIDs: []model.ResourceID{natPrefixID}})
				f.Network.AddPublicAddress(&model.PublicAddress{ID: natPrefixID, Name: "ippre-nat", Prefix: pfx("20.90.0.0/30")})
				f.Network.AddFirewall(&model.AzureFirewall{ID: fwID, Name: "fw-hub", PublicIPs: ips("20.91.0.1")})
				instancePool(f, false)
				ipRules(f, "20.90.0.0/31", "20.91.0.1")
			},
			// pool user leaves through the load balancer's address, which
			// the rules do not admit either.
			want: []model.Code{model.EndpointPublicIPNotAllowed}, verdict: model.Unreachable,
			check: func(t *testing.T, res Result) {
				var system model.Finding
				for _, f := range findingsWith(res, model.EndpointPublicIPNotAllowed) {
					if f.NodePool == "system" && f.Endpoint == loginHost {
						system = f
					}
				}
				requireContains(t, system.Message, "20.90.0.0/31 by NAT gateway natgw-other's public IP prefix ippre-nat (20.90.0.0/30)", "20.91.0.1 by Azure Firewall fw-hub (20.91.0.1)")
			},
		},
		{
			name: "a rule only partly held by known resources, instances unread: evidence, never reachable",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "20.50.1.10")
				instancePool(f, false)
				ipRules(f, "20.50.1.10", "20.50.1.0/24")
			},
			want: []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				f := findingFor(t, res, model.EvidencePermissionDenied, loginHost)
				if f.NodePool != "system" || !f.ResourceID.Equal(scaleSetID+"/publicipaddresses") {
					t.Errorf("finding %+v", f)
				}
				requireContains(t, f.Message, "Microsoft.Compute/virtualMachineScaleSets/publicIPAddresses/read", "instance-level public IPs of scale set aks-system-12345678-vmss")
			},
		},
		{
			name: "the load balancer's address itself unread: nothing is known to hold the rule's address, so evidence",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "-")
				instancePool(f, false)
				ipRules(f, "20.50.1.10")
				f.Gaps.Add(model.Gap{ResourceID: lbPIPID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/publicIPAddresses/read"})
			},
			want: []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
		},
		{
			name: "a dual-stack registry: an IPv6 way out is not excluded by held IPv4 addresses, so evidence",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "20.50.1.10")
				instancePool(f, false)
				ipRules(f, "20.50.1.10")
				f.Registry.EndpointProtocol = "IPv4AndIPv6"
			},
			want: []model.Code{model.EvidencePermissionDenied}, verdict: model.Unverified,
		},
		{
			name: "no instance holds a public IP now (zero nodes): unverified by nature, unless the rules are held elsewhere",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "20.50.1.10")
				instancePool(f, true)
				ipRules(f, "20.50.1.10", "20.60.0.0/24")
			},
			want: []model.Code{model.EgressUnverified}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				requireContains(t, findingFor(t, res, model.EgressUnverified, loginHost).Message, "no instance of scale set aks-system-12345678-vmss holds a public IP now")
			},
		},
		{
			name: "an instance public IP without an address: unverified",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "20.50.1.10")
				instancePool(f, true, "20.60.0.4", "")
				ipRules(f, "20.50.1.10", "20.60.0.0/24")
			},
			want: []model.Code{model.EgressUnverified}, verdict: model.Unverified,
			check: func(t *testing.T, res Result) {
				requireContains(t, findingFor(t, res, model.EgressUnverified, loginHost).Message, "public IP pub1 of instance 1 has no address allocated")
			},
		},
		{
			name: "a NAT gateway on the node subnet takes precedence: the instance addresses do not matter",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				instancePool(f, false)
				natGatewayEgress(f, "20.60.0.0/30")
				ipRules(f, "20.60.0.0/30")
			},
			verdict: model.Reachable,
		},
		{
			name: "no IP rules (default action Allow): the instance addresses are not needed",
			mutate: func(f *model.Facts) {
				publicRegistry(f)
				loadBalancerEgress(f, "-")
				instancePool(f, false)
			},
			verdict: model.Reachable,
		},
	}
	runFactsCases(t, tests)
}
