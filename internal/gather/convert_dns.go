package gather

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/dnsresolver/armdnsresolver"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/privatedns/armprivatedns"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// zoneLinkFromSDK converts a private DNS zone's virtual network link.
func zoneLinkFromSDK(l *armprivatedns.VirtualNetworkLink) model.ZoneLink {
	out := model.ZoneLink{ID: rid(l.ID), Name: str(l.Name)}
	out.Unmodelled = unmodelledOf(out.ID, l)
	if p := l.Properties; p != nil {
		if p.VirtualNetwork != nil {
			out.VNetID = rid(p.VirtualNetwork.ID)
		}
		out.State = str(p.VirtualNetworkLinkState)
		out.RegistrationEnabled = boolv(p.RegistrationEnabled)
		out.ResolutionPolicy = str(p.ResolutionPolicy)
	}
	return out
}

// recordTypeOf is the record type of a record set: the last segment of its
// type (Microsoft.Network/privateDnsZones/A → A), else the segment before
// its name in the id.
func recordTypeOf(rs *armprivatedns.RecordSet) string {
	if t := str(rs.Type); t != "" {
		return t[strings.LastIndexByte(t, '/')+1:]
	}
	segs := strings.Split(strings.Trim(str(rs.ID), "/"), "/")
	if len(segs) >= 2 {
		return segs[len(segs)-2]
	}
	return ""
}

// recordSetFromSDK converts an A, AAAA or CNAME record set; ok is false for
// other types (SOA, TXT, …), which do not resolve names to addresses.
func recordSetFromSDK(rs *armprivatedns.RecordSet) (rec *model.RecordSet, ok bool, err error) {
	if rs == nil {
		return nil, false, nil
	}
	typ := strings.ToUpper(recordTypeOf(rs))
	id := rid(rs.ID)
	out := &model.RecordSet{Name: strings.ToLower(str(rs.Name)), Type: typ}
	p := rs.Properties
	switch typ {
	case "A", "AAAA":
		if p == nil {
			return out, true, nil
		}
		for i, r := range p.ARecords {
			if r == nil {
				continue
			}
			a, err := addr(id, fmt.Sprintf("properties.aRecords[%d].ipv4Address", i), r.IPv4Address)
			if err != nil {
				return nil, false, err
			}
			if a.IsValid() {
				out.Addrs = appendUniqueAddr(out.Addrs, a)
			}
		}
		for i, r := range p.AaaaRecords {
			if r == nil {
				continue
			}
			a, err := addr(id, fmt.Sprintf("properties.aaaaRecords[%d].ipv6Address", i), r.IPv6Address)
			if err != nil {
				return nil, false, err
			}
			if a.IsValid() {
				out.Addrs = appendUniqueAddr(out.Addrs, a)
			}
		}
		return out, true, nil
	case "CNAME":
		if p != nil && p.CnameRecord != nil {
			out.CNAME = strings.TrimSuffix(str(p.CnameRecord.Cname), ".")
		}
		return out, true, nil
	default:
		return nil, false, nil
	}
}

// addRecord stores a record set in a zone's map by lower-case relative
// name. An A and an AAAA record set of the same name are merged into one
// entry (type A) holding both families' addresses.
func addRecord(m map[string]*model.RecordSet, rs *model.RecordSet) {
	prev, ok := m[rs.Name]
	if !ok {
		m[rs.Name] = rs
		return
	}
	if (prev.Type == "A" || prev.Type == "AAAA") && (rs.Type == "A" || rs.Type == "AAAA") {
		for _, a := range rs.Addrs {
			prev.Addrs = appendUniqueAddr(prev.Addrs, a)
		}
		if rs.Type == "A" {
			prev.Type = "A"
		}
		return
	}
	// A CNAME cannot coexist with other records of the same name; keep
	// the first answer.
}

// inboundEndpointFromSDK converts a resolver inbound endpoint: one
// ResolverEndpoint per ip configuration.
func inboundEndpointFromSDK(e *armdnsresolver.InboundEndpoint) ([]model.ResolverEndpoint, error) {
	if e == nil || e.Properties == nil {
		return nil, nil
	}
	id := rid(e.ID)
	var out []model.ResolverEndpoint
	for i, c := range e.Properties.IPConfigurations {
		if c == nil {
			continue
		}
		a, err := addr(id, fmt.Sprintf("properties.ipConfigurations[%d].privateIpAddress", i), c.PrivateIPAddress)
		if err != nil {
			return nil, err
		}
		ep := model.ResolverEndpoint{ID: id, Name: str(e.Name), Address: a}
		if c.Subnet != nil {
			ep.SubnetID = rid(c.Subnet.ID)
		}
		out = append(out, ep)
	}
	return out, nil
}

// resolverFromSDK converts a DNS private resolver (without endpoints).
func resolverFromSDK(r *armdnsresolver.DNSResolver) *model.Resolver {
	out := &model.Resolver{ID: rid(r.ID), Name: str(r.Name)}
	out.Unmodelled = unmodelledOf(out.ID, r)
	if r.Properties != nil && r.Properties.VirtualNetwork != nil {
		out.VNetID = rid(r.Properties.VirtualNetwork.ID)
	}
	return out
}

// forwardingRuleFromSDK converts a forwarding rule; a target without a port
// is port 53, and a rule without a state is enabled (Azure's default).
func forwardingRuleFromSDK(r *armdnsresolver.ForwardingRule) (model.ForwardingRule, error) {
	out := model.ForwardingRule{Name: str(r.Name), Enabled: true}
	p := r.Properties
	if p == nil {
		return out, nil
	}
	out.DomainName = str(p.DomainName)
	if st := str(p.ForwardingRuleState); st != "" {
		out.Enabled = strings.EqualFold(st, "Enabled")
	}
	id := rid(r.ID)
	for i, t := range p.TargetDNSServers {
		if t == nil {
			continue
		}
		a, err := addr(id, fmt.Sprintf("properties.targetDnsServers[%d].ipAddress", i), t.IPAddress)
		if err != nil {
			return out, err
		}
		if !a.IsValid() {
			continue
		}
		port := uint16(53)
		if t.Port != nil && *t.Port > 0 && *t.Port < 65536 {
			port = uint16(*t.Port)
		}
		out.Targets = append(out.Targets, netip.AddrPortFrom(a, port))
	}
	return out, nil
}

// rulesetLinkVNet returns the VNet of a forwarding ruleset's virtual
// network link.
func rulesetLinkVNet(l *armdnsresolver.VirtualNetworkLink) model.ResourceID {
	if l == nil || l.Properties == nil || l.Properties.VirtualNetwork == nil {
		return ""
	}
	return rid(l.Properties.VirtualNetwork.ID)
}
