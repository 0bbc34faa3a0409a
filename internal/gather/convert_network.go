package gather

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// vnetFromSDK converts a virtual network with its embedded subnets and
// peerings. Peering.Global is left false: it needs the remote VNet's
// location (see Reader.VNet).
func vnetFromSDK(v *armnetwork.VirtualNetwork) (*model.VNet, error) {
	if v == nil || v.ID == nil {
		return nil, fmt.Errorf("virtual network without id")
	}
	out := &model.VNet{ID: rid(v.ID), Name: str(v.Name), Location: str(v.Location)}
	out.Unmodelled = unmodelledOf(out.ID, v)
	p := v.Properties
	if p == nil {
		return out, nil
	}
	var err error
	if p.AddressSpace != nil {
		if out.AddressSpace, err = prefixes(out.ID, "properties.addressSpace.addressPrefixes", p.AddressSpace.AddressPrefixes); err != nil {
			return nil, err
		}
	}
	if p.DhcpOptions != nil {
		if out.DNSServers, err = addrs(out.ID, "properties.dhcpOptions.dnsServers", p.DhcpOptions.DNSServers); err != nil {
			return nil, err
		}
	}
	for _, s := range p.Subnets {
		sub, err := subnetFromSDK(out.ID, s)
		if err != nil {
			return nil, err
		}
		out.Subnets = append(out.Subnets, sub)
	}
	for _, pe := range p.VirtualNetworkPeerings {
		peering, err := peeringFromSDK(out.ID, pe)
		if err != nil {
			return nil, err
		}
		out.Peerings = append(out.Peerings, peering)
	}
	return out, nil
}

// subnetFromSDK converts a subnet of the VNet vnetID.
func subnetFromSDK(vnetID model.ResourceID, s *armnetwork.Subnet) (*model.Subnet, error) {
	if s == nil || s.ID == nil {
		return nil, fmt.Errorf("%s: subnet without id", string(vnetID))
	}
	out := &model.Subnet{ID: rid(s.ID), VNetID: vnetID, Name: str(s.Name)}
	out.Unmodelled = unmodelledOf(out.ID, s)
	p := s.Properties
	if p == nil {
		return out, nil
	}
	one := []*string{p.AddressPrefix}
	first, err := prefixes(out.ID, "properties.addressPrefix", one)
	if err != nil {
		return nil, err
	}
	more, err := prefixes(out.ID, "properties.addressPrefixes", p.AddressPrefixes)
	if err != nil {
		return nil, err
	}
	for _, pf := range append(first, more...) {
		dup := false
		for _, x := range out.Prefixes {
			dup = dup || x == pf
		}
		if !dup {
			out.Prefixes = append(out.Prefixes, pf)
		}
	}
	if p.RouteTable != nil {
		out.RouteTableID = rid(p.RouteTable.ID)
	}
	if p.NetworkSecurityGroup != nil {
		out.NSGID = rid(p.NetworkSecurityGroup.ID)
	}
	out.PrivateEndpointNetworkPolicies = str(p.PrivateEndpointNetworkPolicies)
	if p.NatGateway != nil {
		out.NATGatewayID = rid(p.NatGateway.ID)
	}
	out.DefaultOutboundAccessDisabled = p.DefaultOutboundAccess != nil && !*p.DefaultOutboundAccess
	// The subnet's answer lists every ip configuration in it (none when
	// the property is absent).
	out.IPConfigurationsRead = true
	for _, c := range p.IPConfigurations {
		if c != nil {
			out.IPConfigurationIDs = appendUniqueID(out.IPConfigurationIDs, rid(c.ID))
		}
	}
	for _, pe := range p.PrivateEndpoints {
		if pe != nil {
			out.PrivateEndpointIDs = appendUniqueID(out.PrivateEndpointIDs, rid(pe.ID))
		}
	}
	// Service endpoints: their routes' prefixes are not in the subnet (the
	// service tags give them, see routing's serviceEndpointRoutes).
	for _, se := range p.ServiceEndpoints {
		if se == nil || strings.TrimSpace(str(se.Service)) == "" {
			continue
		}
		e := model.ServiceEndpoint{Service: strings.TrimSpace(str(se.Service))}
		for _, l := range se.Locations {
			if l != nil && strings.TrimSpace(*l) != "" {
				e.Locations = append(e.Locations, strings.TrimSpace(*l))
			}
		}
		out.ServiceEndpoints = append(out.ServiceEndpoints, e)
	}
	return out, nil
}

// peeringFromSDK converts one side of a peering, owned by vnetID.
func peeringFromSDK(vnetID model.ResourceID, pe *armnetwork.VirtualNetworkPeering) (*model.Peering, error) {
	if pe == nil || pe.ID == nil {
		return nil, fmt.Errorf("%s: peering without id", string(vnetID))
	}
	out := &model.Peering{ID: rid(pe.ID), Name: str(pe.Name), VNetID: vnetID}
	out.Unmodelled = unmodelledOf(out.ID, pe)
	p := pe.Properties
	if p == nil {
		return out, nil
	}
	if p.RemoteVirtualNetwork != nil {
		out.RemoteVNetID = rid(p.RemoteVirtualNetwork.ID)
	}
	out.State = str(p.PeeringState)
	out.SyncLevel = str(p.PeeringSyncLevel)
	out.AllowVirtualNetworkAccess = boolv(p.AllowVirtualNetworkAccess)
	out.AccessUnrecorded = p.AllowVirtualNetworkAccess == nil
	out.AllowForwardedTraffic = boolv(p.AllowForwardedTraffic)
	out.AllowGatewayTransit = boolv(p.AllowGatewayTransit)
	out.UseRemoteGateways = boolv(p.UseRemoteGateways)
	// peerCompleteVnets defaults to true: only an explicit false makes a
	// subnet peering.
	out.SubnetsOnly = p.PeerCompleteVnets != nil && !*p.PeerCompleteVnets
	for _, n := range p.LocalSubnetNames {
		if s := str(n); s != "" {
			out.LocalSubnetNames = append(out.LocalSubnetNames, s)
		}
	}
	for _, n := range p.RemoteSubnetNames {
		if s := str(n); s != "" {
			out.RemoteSubnetNames = append(out.RemoteSubnetNames, s)
		}
	}
	var err error
	if p.RemoteAddressSpace != nil {
		if out.RemoteAddressSpace, err = prefixes(out.ID, "properties.remoteAddressSpace.addressPrefixes", p.RemoteAddressSpace.AddressPrefixes); err != nil {
			return nil, err
		}
	}
	if p.RemoteVirtualNetworkAddressSpace != nil {
		if out.RemoteCurrentAddressSpace, err = prefixes(out.ID, "properties.remoteVirtualNetworkAddressSpace.addressPrefixes", p.RemoteVirtualNetworkAddressSpace.AddressPrefixes); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// routeTableFromSDK converts a route table with its user-defined routes. A
// route whose addressPrefix is a service tag keeps it in ServiceTag.
func routeTableFromSDK(rt *armnetwork.RouteTable) (*model.RouteTable, error) {
	if rt == nil || rt.ID == nil {
		return nil, fmt.Errorf("route table without id")
	}
	out := &model.RouteTable{ID: rid(rt.ID), Name: str(rt.Name)}
	out.Unmodelled = unmodelledOf(out.ID, rt)
	p := rt.Properties
	if p == nil {
		return out, nil
	}
	out.DisableBGPRoutePropagation = boolv(p.DisableBgpRoutePropagation)
	for _, r := range p.Routes {
		if r == nil {
			continue
		}
		route, err := udrFromSDK(out, r)
		if err != nil {
			return nil, err
		}
		out.Routes = append(out.Routes, route)
	}
	return out, nil
}

// udrFromSDK converts one user-defined route of table rt.
func udrFromSDK(rt *model.RouteTable, r *armnetwork.Route) (model.Route, error) {
	id := rid(r.ID)
	if id.IsZero() {
		id = child(rt.ID, "routes/"+str(r.Name))
	}
	out := model.Route{
		Name:     str(r.Name),
		Source:   model.RouteSourceUser,
		State:    model.RouteStateActive,
		Origin:   fmt.Sprintf("route table %s route %s", rt.Name, str(r.Name)),
		OriginID: rt.ID,
	}
	p := r.Properties
	if p == nil {
		return out, nil
	}
	out.NextHopType = str(p.NextHopType)
	prefix := str(p.AddressPrefix)
	if isServiceTag(prefix) {
		out.ServiceTag = prefix
	} else {
		pf, err := parsePrefix(prefix)
		if err != nil {
			return out, fieldError(id, "properties.addressPrefix", prefix, err)
		}
		out.Prefix = pf
	}
	hop, err := addr(id, "properties.nextHopIpAddress", p.NextHopIPAddress)
	if err != nil {
		return out, err
	}
	out.NextHopIP = hop
	return out, nil
}

// securityGroupFromSDK converts a network security group's own rules (the
// default rules are Azure's; the evaluator adds them).
func securityGroupFromSDK(g *armnetwork.SecurityGroup) (*model.SecurityGroup, error) {
	if g == nil || g.ID == nil {
		return nil, fmt.Errorf("network security group without id")
	}
	out := &model.SecurityGroup{ID: rid(g.ID), Name: str(g.Name)}
	if g.Properties == nil {
		return out, nil
	}
	for _, r := range g.Properties.SecurityRules {
		if r == nil {
			continue
		}
		out.Rules = append(out.Rules, securityRuleFromSDK(r))
	}
	return out, nil
}

// securityRuleFromSDK converts a rule, merging the singular and plural
// prefix and port fields and keeping Azure's words (CIDRs, "*", tags).
func securityRuleFromSDK(r *armnetwork.SecurityRule) model.SecurityRule {
	out := model.SecurityRule{Name: str(r.Name)}
	p := r.Properties
	if p == nil {
		return out
	}
	out.Priority = i32(p.Priority)
	out.Direction = str(p.Direction)
	out.Access = str(p.Access)
	out.Protocol = str(p.Protocol)
	merge := func(one *string, many []*string) []string {
		var l []string
		if s := strings.TrimSpace(str(one)); s != "" {
			l = append(l, s)
		}
		for _, m := range many {
			if s := strings.TrimSpace(str(m)); s != "" {
				l = append(l, s)
			}
		}
		return l
	}
	asgs := func(in []*armnetwork.ApplicationSecurityGroup) []model.ResourceID {
		var l []model.ResourceID
		for _, a := range in {
			if a != nil {
				l = appendUniqueID(l, rid(a.ID))
			}
		}
		return l
	}
	out.SourcePrefixes = merge(p.SourceAddressPrefix, p.SourceAddressPrefixes)
	out.DestinationPrefixes = merge(p.DestinationAddressPrefix, p.DestinationAddressPrefixes)
	out.SourcePorts = merge(p.SourcePortRange, p.SourcePortRanges)
	out.DestinationPorts = merge(p.DestinationPortRange, p.DestinationPortRanges)
	out.SourceASGIDs = asgs(p.SourceApplicationSecurityGroups)
	out.DestinationASGIDs = asgs(p.DestinationApplicationSecurityGroups)
	return out
}

// nicFromSDK converts a network interface (standalone, scale-set instance,
// appliance or private endpoint). SubnetID is the primary ip
// configuration's subnet (the first one's when none is marked primary).
func nicFromSDK(n *armnetwork.Interface) (*model.NIC, error) {
	if n == nil || n.ID == nil {
		return nil, fmt.Errorf("network interface without id")
	}
	out := &model.NIC{ID: rid(n.ID), Name: str(n.Name)}
	out.Unmodelled = unmodelledOf(out.ID, n)
	p := n.Properties
	if p == nil {
		return out, nil
	}
	out.IPForwarding = boolv(p.EnableIPForwarding)
	if p.DNSSettings != nil {
		var err error
		if out.DNSServers, err = addrs(out.ID, "properties.dnsSettings.dnsServers", p.DNSSettings.DNSServers); err != nil {
			return nil, err
		}
	}
	if p.NetworkSecurityGroup != nil {
		out.NSGID = rid(p.NetworkSecurityGroup.ID)
	}
	if p.VirtualMachine != nil {
		out.VMID = rid(p.VirtualMachine.ID)
	}
	if p.PrivateEndpoint != nil {
		out.PrivateEndpointID = rid(p.PrivateEndpoint.ID)
	}
	for _, c := range p.IPConfigurations {
		if c == nil || c.Properties == nil {
			continue
		}
		cp := c.Properties
		cid := rid(c.ID)
		if cid.IsZero() {
			cid = child(out.ID, "ipConfigurations/"+str(c.Name))
		}
		a, err := addr(cid, "properties.privateIPAddress", cp.PrivateIPAddress)
		if err != nil {
			return nil, err
		}
		if a.IsValid() {
			out.PrivateIPs = appendUniqueAddr(out.PrivateIPs, a)
		}
		if cp.Subnet != nil && (out.SubnetID.IsZero() || boolv(cp.Primary)) {
			out.SubnetID = rid(cp.Subnet.ID)
		}
		for _, asg := range cp.ApplicationSecurityGroups {
			if asg != nil {
				out.ASGIDs = appendUniqueID(out.ASGIDs, rid(asg.ID))
			}
		}
	}
	return out, nil
}

// effectiveRoutesFromSDK converts an effective route table: one Route per
// address prefix of every entry. NextHopIP is the entry's first next hop
// address (gateway routes of active-active gateways list one per instance).
func effectiveRoutesFromSDK(nicID model.ResourceID, in []*armnetwork.EffectiveRoute) ([]model.Route, error) {
	var out []model.Route
	field := "effectiveRouteTable"
	for i, e := range in {
		if e == nil {
			continue
		}
		f := fmt.Sprintf("%s.value[%d]", field, i)
		var hop netip.Addr
		hops, err := addrs(nicID, f+".nextHopIpAddress", e.NextHopIPAddress)
		if err != nil {
			return nil, err
		}
		if len(hops) > 0 {
			hop = hops[0]
		}
		src := str(e.Source)
		origin := "effective route (" + src + ")"
		if n := str(e.Name); n != "" {
			origin = "effective route " + n + " (" + src + ")"
		}
		for _, s := range e.AddressPrefix {
			if s == nil || strings.TrimSpace(*s) == "" {
				continue
			}
			r := model.Route{
				Name: str(e.Name), NextHopType: str(e.NextHopType), NextHopIP: hop,
				Source: src, State: str(e.State), Origin: origin,
			}
			if isServiceTag(*s) {
				r.ServiceTag = strings.TrimSpace(*s)
			} else {
				pf, err := parsePrefix(*s)
				if err != nil {
					return nil, fieldError(nicID, f+".addressPrefix", *s, err)
				}
				r.Prefix = pf
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// gatewayFromSDK converts a virtual network gateway (without its routes).
// VNetID is the VNet of its ip configurations' subnet (GatewaySubnet);
// PrivateIPs are its BGP peering addresses and ip configuration addresses.
func gatewayFromSDK(g *armnetwork.VirtualNetworkGateway) (*model.Gateway, error) {
	if g == nil || g.ID == nil {
		return nil, fmt.Errorf("virtual network gateway without id")
	}
	out := &model.Gateway{ID: rid(g.ID), Name: str(g.Name)}
	out.Unmodelled = unmodelledOf(out.ID, g)
	p := g.Properties
	if p == nil {
		return out, nil
	}
	out.Type = str(p.GatewayType)
	out.BGPEnabled = boolv(p.EnableBgp)
	// ExpressRoute gateways always speak BGP, whatever enableBgp says.
	if strings.EqualFold(out.Type, "ExpressRoute") {
		out.BGPEnabled = true
	}
	add := func(field string, s *string) error {
		// bgpPeeringAddress is comma-separated on active-active gateways.
		for _, part := range strings.Split(str(s), ",") {
			part := strings.TrimSpace(part)
			a, err := addr(out.ID, field, &part)
			if err != nil {
				return err
			}
			if a.IsValid() {
				out.PrivateIPs = appendUniqueAddr(out.PrivateIPs, a)
			}
		}
		return nil
	}
	for _, c := range p.IPConfigurations {
		if c == nil || c.Properties == nil {
			continue
		}
		if c.Properties.Subnet != nil && out.VNetID.IsZero() {
			out.VNetID = rid(c.Properties.Subnet.ID).Parent()
		}
		if err := add("properties.ipConfigurations.properties.privateIPAddress", c.Properties.PrivateIPAddress); err != nil {
			return nil, err
		}
	}
	if b := p.BgpSettings; b != nil {
		if err := add("properties.bgpSettings.bgpPeeringAddress", b.BgpPeeringAddress); err != nil {
			return nil, err
		}
		for _, pa := range b.BgpPeeringAddresses {
			if pa == nil {
				continue
			}
			for _, s := range append(append([]*string{}, pa.DefaultBgpIPAddresses...), pa.CustomBgpIPAddresses...) {
				if err := add("properties.bgpSettings.bgpPeeringAddresses", s); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}

// gatewayRoute converts one BGP route of an answer (a gateway's
// GatewayRoute or a Route Server's PeerRoute, which have the same members);
// f names it in errors (value[3]).
func gatewayRoute(action model.ResourceID, f string, network, nextHop, sourcePeer, origin, asPath *string) (model.GatewayRoute, error) {
	pf, err := parsePrefix(str(network))
	if err != nil {
		return model.GatewayRoute{}, fieldError(action, f+".network", str(network), err)
	}
	hop, err := addr(action, f+".nextHop", nextHop)
	if err != nil {
		return model.GatewayRoute{}, err
	}
	peer, err := addr(action, f+".sourcePeer", sourcePeer)
	if err != nil {
		return model.GatewayRoute{}, err
	}
	return model.GatewayRoute{Prefix: pf, NextHop: hop, SourcePeer: peer, Origin: str(origin), ASPath: str(asPath)}, nil
}

// gatewayRoutesFromSDK converts getLearnedRoutes or getAdvertisedRoutes
// answers. action names the answer in errors (…/getLearnedRoutes).
func gatewayRoutesFromSDK(action model.ResourceID, in []*armnetwork.GatewayRoute) ([]model.GatewayRoute, error) {
	var out []model.GatewayRoute
	for i, r := range in {
		if r == nil {
			continue
		}
		gr, err := gatewayRoute(action, fmt.Sprintf("value[%d]", i), r.Network, r.NextHop, r.SourcePeer, r.Origin, r.AsPath)
		if err != nil {
			return nil, err
		}
		out = append(out, gr)
	}
	return out, nil
}

// bgpPeersFromSDK returns the neighbour addresses of getBgpPeerStatus,
// except the gateway's own addresses (the iBGP session between the
// instances of an active-active gateway).
func bgpPeersFromSDK(action model.ResourceID, own []netip.Addr, in []*armnetwork.BgpPeerStatus) ([]netip.Addr, error) {
	var out []netip.Addr
	for i, p := range in {
		if p == nil {
			continue
		}
		a, err := addr(action, fmt.Sprintf("value[%d].neighbor", i), p.Neighbor)
		if err != nil {
			return nil, err
		}
		if !a.IsValid() {
			continue
		}
		self := false
		for _, o := range own {
			self = self || o == a
		}
		if !self {
			out = appendUniqueAddr(out, a)
		}
	}
	return out, nil
}

// staticConnection reports whether Azure routes a gateway connection's
// local network gateway prefixes statically: a site-to-site connection
// without BGP. (Azure refuses enableBgp on a connection whose local network
// gateway has no BGP settings, so the connection's flag decides.)
// ExpressRoute and VNet-to-VNet connections have no local network gateway.
func staticConnection(c *armnetwork.VirtualNetworkGatewayConnection) bool {
	return c != nil && c.Properties != nil && c.Properties.LocalNetworkGateway2 != nil && !boolv(c.Properties.EnableBgp)
}

// localGatewayPrefixes converts a local network gateway's address space.
func localGatewayPrefixes(lgw *armnetwork.LocalNetworkGateway) ([]netip.Prefix, error) {
	if lgw == nil || lgw.Properties == nil || lgw.Properties.LocalNetworkAddressSpace == nil {
		return nil, nil
	}
	return prefixes(rid(lgw.ID), "properties.localNetworkAddressSpace.addressPrefixes", lgw.Properties.LocalNetworkAddressSpace.AddressPrefixes)
}

// privateEndpointFromSDK converts a private endpoint: its connections
// (automatic and manual), NICs, application security groups and
// customDnsConfigs.
func privateEndpointFromSDK(pe *armnetwork.PrivateEndpoint) (*model.PrivateEndpoint, error) {
	if pe == nil || pe.ID == nil {
		return nil, fmt.Errorf("private endpoint without id")
	}
	out := &model.PrivateEndpoint{ID: rid(pe.ID), Name: str(pe.Name)}
	p := pe.Properties
	if p == nil {
		return out, nil
	}
	if p.Subnet != nil {
		out.SubnetID = rid(p.Subnet.ID)
	}
	for _, n := range p.NetworkInterfaces {
		if n != nil {
			out.NICIDs = appendUniqueID(out.NICIDs, rid(n.ID))
		}
	}
	for _, asg := range p.ApplicationSecurityGroups {
		if asg != nil {
			out.ASGIDs = appendUniqueID(out.ASGIDs, rid(asg.ID))
		}
	}
	for _, list := range [][]*armnetwork.PrivateLinkServiceConnection{p.PrivateLinkServiceConnections, p.ManualPrivateLinkServiceConnections} {
		for _, c := range list {
			if c == nil || c.Properties == nil {
				continue
			}
			conn := model.PrivateLinkConnection{TargetID: rid(c.Properties.PrivateLinkServiceID)}
			for _, g := range c.Properties.GroupIDs {
				if g != nil {
					conn.GroupIDs = append(conn.GroupIDs, *g)
				}
			}
			if st := c.Properties.PrivateLinkServiceConnectionState; st != nil {
				conn.Status = str(st.Status)
			}
			out.Connections = append(out.Connections, conn)
		}
	}
	for i, c := range p.CustomDNSConfigs {
		if c == nil {
			continue
		}
		ips, err := addrs(out.ID, fmt.Sprintf("properties.customDnsConfigs[%d].ipAddresses", i), c.IPAddresses)
		if err != nil {
			return nil, err
		}
		out.DNSConfigs = addFQDN(out.DNSConfigs, str(c.Fqdn), ips...)
	}
	// Static ip configurations name the member, not the FQDN; their
	// addresses still belong to the endpoint and reach it through its NIC.
	return out, nil
}

// addFQDN adds addresses to an FQDN's entry (case-insensitive), creating it.
func addFQDN(list []model.FQDNAddresses, fqdn string, ips ...netip.Addr) []model.FQDNAddresses {
	fqdn = strings.TrimSuffix(strings.TrimSpace(fqdn), ".")
	if fqdn == "" {
		return list
	}
	for i := range list {
		if strings.EqualFold(list[i].FQDN, fqdn) {
			for _, a := range ips {
				list[i].Addresses = appendUniqueAddr(list[i].Addresses, a)
			}
			return list
		}
	}
	e := model.FQDNAddresses{FQDN: fqdn}
	for _, a := range ips {
		e.Addresses = appendUniqueAddr(e.Addresses, a)
	}
	return append(list, e)
}

// mergeNICFQDNs completes a private endpoint's DNSConfigs with the FQDNs its
// NIC's ip configurations serve (privateLinkConnectionProperties.fqdns):
// endpoints with a DNS zone group, and newer API versions, often leave
// customDnsConfigs empty.
func mergeNICFQDNs(pe *model.PrivateEndpoint, nic *armnetwork.Interface) error {
	if pe == nil || nic == nil || nic.Properties == nil {
		return nil
	}
	for _, c := range nic.Properties.IPConfigurations {
		if c == nil || c.Properties == nil || c.Properties.PrivateLinkConnectionProperties == nil {
			continue
		}
		a, err := addr(rid(c.ID), "properties.privateIPAddress", c.Properties.PrivateIPAddress)
		if err != nil {
			return err
		}
		for _, f := range c.Properties.PrivateLinkConnectionProperties.Fqdns {
			if a.IsValid() {
				pe.DNSConfigs = addFQDN(pe.DNSConfigs, str(f), a)
			} else {
				pe.DNSConfigs = addFQDN(pe.DNSConfigs, str(f))
			}
		}
	}
	return nil
}

// zoneGroupFromSDK converts a private DNS zone group into one entry per zone.
func zoneGroupFromSDK(g *armnetwork.PrivateDNSZoneGroup) ([]model.ZoneGroupConfig, error) {
	if g == nil || g.Properties == nil {
		return nil, nil
	}
	id := rid(g.ID)
	var out []model.ZoneGroupConfig
	for i, c := range g.Properties.PrivateDNSZoneConfigs {
		if c == nil || c.Properties == nil {
			continue
		}
		zc := model.ZoneGroupConfig{ZoneID: rid(c.Properties.PrivateDNSZoneID)}
		for j, rs := range c.Properties.RecordSets {
			if rs == nil {
				continue
			}
			ips, err := addrs(id, fmt.Sprintf("properties.privateDnsZoneConfigs[%d].properties.recordSets[%d].ipAddresses", i, j), rs.IPAddresses)
			if err != nil {
				return nil, err
			}
			fqdn := str(rs.Fqdn)
			if fqdn == "" {
				fqdn = str(rs.RecordSetName)
			}
			zc.Records = addFQDN(zc.Records, fqdn, ips...)
		}
		out = append(out, zc)
	}
	return out, nil
}

// adminRuleFromSDK converts one effective security admin rule, custom or
// default. An entry it cannot read (no properties, another kind) is an
// error: a rule the provider cannot see is never taken as absent.
func adminRuleFromSDK(v armnetwork.EffectiveBaseSecurityAdminRuleClassification) (model.SecurityAdminRule, error) {
	items := func(in []*armnetwork.AddressPrefixItem) []string {
		var out []string
		for _, it := range in {
			if it != nil && it.AddressPrefix != nil {
				out = append(out, *it.AddressPrefix)
			}
		}
		return out
	}
	prio := func(p *int32) int32 {
		if p == nil {
			return 0
		}
		return *p
	}
	switch r := v.(type) {
	case *armnetwork.EffectiveSecurityAdminRule:
		if p := r.Properties; p != nil {
			return model.SecurityAdminRule{ID: rid(r.ID), Access: str(p.Access), Direction: str(p.Direction), Priority: prio(p.Priority), Protocol: str(p.Protocol),
				Sources: items(p.Sources), Destinations: items(p.Destinations), SourcePorts: strs(p.SourcePortRanges), DestinationPorts: strs(p.DestinationPortRanges)}, nil
		}
	case *armnetwork.EffectiveDefaultSecurityAdminRule:
		if p := r.Properties; p != nil {
			return model.SecurityAdminRule{ID: rid(r.ID), Access: str(p.Access), Direction: str(p.Direction), Priority: prio(p.Priority), Protocol: str(p.Protocol),
				Sources: items(p.Sources), Destinations: items(p.Destinations), SourcePorts: strs(p.SourcePortRanges), DestinationPorts: strs(p.DestinationPortRanges), Default: true}, nil
		}
	}
	id := ""
	if v != nil && v.GetEffectiveBaseSecurityAdminRule() != nil {
		id = str(v.GetEffectiveBaseSecurityAdminRule().ID)
	}
	return model.SecurityAdminRule{}, fmt.Errorf("an effective security admin rule %q without readable properties", id)
}
