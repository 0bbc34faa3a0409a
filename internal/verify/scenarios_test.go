// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The public scenarios (internal/provider/testdata/scenarios), built by hand and verified with
// the real route engine. Each mirrors the scenario's expect.json: verdict,
// must_include, must_not_include.

var (
	hubGatewayID = id("/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworkGateways/vpngw")
	corpZoneID   = id("/resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/corp.example")
	rtAKSID      = id("/resourceGroups/rg-spoke/providers/Microsoft.Network/routeTables/rt-aks")
)

// gatewayFacts is the gateway_transit_missing topology: harbor.corp.example
// (192.168.10.20, zone corp.example linked to hub and spoke) is on-premises
// behind the hub's VPN gateway, which learned 192.168.0.0/16 over BGP; the
// registry is declared, not an ACR.
func gatewayFacts() model.Facts {
	f := baselineFacts()
	f.Registry = nil
	f.RoleAssignments = nil
	f.Declared = &model.DeclaredRegistry{Hosts: []string{"harbor.corp.example"}}
	delete(f.DNS.Zones, zoneID.Key())
	f.DNS.Zones[corpZoneID.Key()] = &model.PrivateZone{ID: corpZoneID, Name: "corp.example", LinksKnown: true, RecordsKnown: true,
		Links: []model.ZoneLink{
			{ID: corpZoneID + "/virtualNetworkLinks/link-hub", Name: "link-hub", VNetID: hubID},
			{ID: corpZoneID + "/virtualNetworkLinks/link-spoke", Name: "link-spoke", VNetID: spokeID},
		},
		Records: map[string]*model.RecordSet{"harbor": {Name: "harbor", Type: "A", Addrs: ips("192.168.10.20")}}}
	gw := &model.Gateway{ID: hubGatewayID, Name: "vpngw", VNetID: hubID, Type: "Vpn", BGPEnabled: true, PrivateIPs: ips("10.0.0.30"),
		Learned: []model.GatewayRoute{
			{Prefix: pfx("10.0.0.0/16"), SourcePeer: ip("10.0.0.30"), Origin: "Network"},
			{Prefix: pfx("192.168.0.0/16"), NextHop: ip("192.168.255.1"), SourcePeer: ip("192.168.255.1"), Origin: "EBgp", ASPath: "65010"},
		},
		LearnedKnown: true,
		Advertised: map[netip.Addr][]model.GatewayRoute{ip("192.168.255.1"): {
			{Prefix: pfx("10.0.0.0/16"), NextHop: ip("10.0.0.30"), Origin: "Igp", ASPath: "65515"},
		}},
		AdvertisedKnown: true, StaticPrefixesKnown: true}
	f.Network.Gateways[hubGatewayID.Key()] = gw
	return f
}

func TestScenarios(t *testing.T) {
	tests := []struct {
		name    string
		facts   func() model.Facts
		verdict model.Verdict
		include []model.Code
		exclude []model.Code
	}{
		{
			name: "baseline_ok", facts: baselineFacts, verdict: model.Reachable,
			exclude: []model.Code{model.RouteBlackhole, model.RoutePeeringNotConnected, model.RouteGatewayTransitMissing, model.ReturnRouteMissing,
				model.DNSZoneNotLinked, model.DNSRecordMissing, model.DNSRecordMismatch, model.EndpointDataNotCovered, model.EndpointPENotApproved,
				model.IdentityPullRoleMissing, model.IdentityABACRoleRequired, model.TLSNameNotCovered,
				model.EvidencePermissionDenied, model.EvidenceNotFound, model.EvidenceUnavailable},
		},
		{
			name: "acrpull_missing",
			facts: func() model.Facts {
				f := baselineFacts()
				f.RoleAssignments = []model.RoleAssignment{roleAssignment("ra-cp", registryID, acrPullDefID, controlPlaneObjectID)}
				return f
			},
			verdict: model.Unreachable,
			include: []model.Code{model.IdentityPullRoleMissing},
			exclude: []model.Code{model.RouteBlackhole, model.RoutePeeringNotConnected, model.RouteNotTransitive,
				model.DNSZoneNotLinked, model.DNSRecordMissing, model.DNSRecordMismatch},
		},
		{
			name: "custom_dns_vm",
			facts: func() model.Facts {
				f := baselineFacts()
				addDNSVM(&f, "vm-dns", "10.0.1.10")
				setSpokeDNS(&f, "10.0.1.10")
				return f
			},
			verdict: model.Unverified,
			include: []model.Code{model.DNSForwarderUnverified},
			exclude: []model.Code{model.DNSZoneNotLinked, model.DNSServerUnreachable, model.RouteBlackhole,
				model.IdentityPullRoleMissing, model.IdentityABACRoleRequired},
		},
		{
			name: "data_record_missing",
			facts: func() model.Facts {
				f := baselineFacts()
				delete(zone(&f).Records, "contosoreg.westeurope.data")
				return f
			},
			verdict: model.Unreachable,
			include: []model.Code{model.DNSRecordMissing},
			exclude: []model.Code{model.RouteBlackhole, model.DNSZoneNotLinked, model.IdentityPullRoleMissing, model.IdentityABACRoleRequired},
		},
		{
			name:    "dns_zone_not_linked",
			facts:   func() model.Facts { f := baselineFacts(); unlinkSpoke(&f); return f },
			verdict: model.Unreachable,
			include: []model.Code{model.DNSZoneNotLinked},
			exclude: []model.Code{model.RouteBlackhole, model.DNSRecordMissing, model.IdentityPullRoleMissing, model.IdentityABACRoleRequired,
				model.EndpointPublicAccessDenied},
		},
		{
			name: "gateway_transit_missing", facts: gatewayFacts, verdict: model.Unreachable,
			include: []model.Code{model.RouteGatewayTransitMissing},
			exclude: []model.Code{model.DNSZoneNotLinked, model.DNSRecordMissing, model.DNSRecordMismatch,
				model.IdentityPullRoleMissing, model.IdentityABACRoleRequired, model.RoutePeeringNotConnected, model.RouteBlackhole},
		},
		{
			name: "gateway transit fixed (negative of gateway_transit_missing)",
			facts: func() model.Facts {
				f := gatewayFacts()
				f.Network.VNet(spokeID).Peerings[0].UseRemoteGateways = true
				gw := f.Network.Gateway(hubGatewayID)
				peer := ip("192.168.255.1")
				gw.Advertised[peer] = append(gw.Advertised[peer], model.GatewayRoute{Prefix: pfx("10.1.0.0/16"), NextHop: ip("10.0.0.30"), Origin: "Igp"})
				return f
			},
			verdict: model.Reachable,
			exclude: []model.Code{model.RouteGatewayTransitMissing, model.ReturnRouteMissing, model.EndpointUnresolved},
		},
		{
			name: "public registry over the Internet",
			facts: func() model.Facts {
				f := baselineFacts()
				publicRegistry(&f)
				return f
			},
			verdict: model.Reachable,
			exclude: []model.Code{model.DNSZoneNotLinked, model.EndpointPublicAccessDenied, model.RouteBlackhole},
		},
		{
			name: "peering_initiated",
			facts: func() model.Facts {
				f := baselineFacts()
				f.Network.VNet(hubID).Peerings = nil
				f.Network.VNet(spokeID).Peerings[0].State = "Initiated"
				return f
			},
			verdict: model.Unreachable,
			include: []model.Code{model.RoutePeeringNotConnected},
			exclude: []model.Code{model.DNSZoneNotLinked, model.DNSRecordMissing, model.DNSRecordMismatch,
				model.IdentityPullRoleMissing, model.IdentityABACRoleRequired},
		},
		{
			name: "udr_blackhole",
			facts: func() model.Facts {
				f := baselineFacts()
				f.Network.Subnet(peSubnetID).PrivateEndpointNetworkPolicies = "RouteTableEnabled"
				f.Network.Subnet(aksSubnetID).RouteTableID = rtAKSID
				f.Network.RouteTables[rtAKSID.Key()] = &model.RouteTable{ID: rtAKSID, Name: "rt-aks", Routes: []model.Route{
					{Name: "quarantine-hub", Prefix: pfx("10.0.0.0/16"), NextHopType: model.NextHopNone, Source: model.RouteSourceUser,
						State: model.RouteStateActive, Origin: "route table rt-aks route quarantine-hub", OriginID: rtAKSID},
				}}
				return f
			},
			verdict: model.Unreachable,
			include: []model.Code{model.RouteBlackhole},
			exclude: []model.Code{model.DNSZoneNotLinked, model.DNSRecordMissing, model.DNSRecordMismatch,
				model.IdentityPullRoleMissing, model.IdentityABACRoleRequired, model.EndpointDataNotCovered},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Run(tt.facts())
			if res.Verdict != tt.verdict {
				t.Errorf("verdict %s, want %s\n%s", res.Verdict, tt.verdict, res.Summary)
			}
			requireCodes(t, res, tt.include...)
			forbidCodes(t, res, tt.exclude...)
		})
	}
}
