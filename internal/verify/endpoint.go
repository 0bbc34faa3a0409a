// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"net/netip"
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// approved is the private link connection state that carries traffic.
const approved = "Approved"

// peService is one private endpoint serving an FQDN, with the addresses its
// customDnsConfigs give for that FQDN.
type peService struct {
	PE    *model.PrivateEndpoint
	Addrs []netip.Addr
}

// endpoints is the registry's private endpoints as far as hostnames go:
// which endpoint serves which FQDN at which address, and whether its
// connection is approved.
type endpoints struct {
	pes    []*model.PrivateEndpoint
	served map[string][]peService // by normalized FQDN
	// status is the connection state per private endpoint id key; the
	// registry's view of the connection wins over the endpoint's.
	status map[string]string
	// connection is the registry-side private endpoint connection id per
	// private endpoint id key: the resource whose approval changes.
	connection map[string]model.ResourceID
	// unread are private endpoints the registry names but the network view
	// lacks.
	unread []model.ResourceID
	// unknown are the registry's private endpoints whose connection the
	// registry reports Approved but whose FQDNs could not be read: the
	// endpoint itself was not read, or its customDnsConfigs are empty (as
	// with a DNS zone group) and the network interface that lists its FQDNs
	// was not read. Such an endpoint may serve any registry name.
	unknown []unknownEndpoint
}

// unknownEndpoint is an approved private endpoint of the registry whose
// FQDNs are missing evidence.
type unknownEndpoint struct {
	ID   model.ResourceID
	Name string
	// Missing is what could not be read: the network interface that lists
	// the FQDNs, or the private endpoint itself.
	Missing model.ResourceID
}

func newEndpoints(f *model.Facts) *endpoints {
	e := &endpoints{served: map[string][]peService{}, status: map[string]string{}, connection: map[string]model.ResourceID{}}
	if f.Registry == nil {
		return e
	}
	e.pes = f.RegistryPrivateEndpoints()
	known := map[string]bool{}
	for _, pe := range e.pes {
		known[pe.ID.Key()] = true
		for _, c := range pe.Connections {
			if c.TargetID.Equal(f.Registry.ID) {
				e.status[pe.ID.Key()] = c.Status
			}
		}
		for _, dc := range pe.DNSConfigs {
			fqdn := model.NormalizeHost(dc.FQDN)
			e.served[fqdn] = append(e.served[fqdn], peService{PE: pe, Addrs: dc.Addresses})
		}
	}
	for _, c := range f.Registry.PrivateEndpointConnections {
		key := c.PrivateEndpointID.Key()
		e.connection[key] = c.ID
		if c.Status != "" {
			e.status[key] = c.Status
		}
		if !known[key] && f.Network != nil && f.Network.PrivateEndpoint(c.PrivateEndpointID) == nil {
			e.unread = append(e.unread, c.PrivateEndpointID)
		}
	}
	sort.Slice(e.unread, func(i, j int) bool { return e.unread[i].Key() < e.unread[j].Key() })
	for _, pe := range e.pes {
		if nic := unreadNIC(f.Network, pe); !nic.IsZero() && e.status[pe.ID.Key()] == approved {
			e.unknown = append(e.unknown, unknownEndpoint{ID: pe.ID, Name: pe.Name, Missing: nic})
		}
	}
	for _, id := range e.unread {
		if e.status[id.Key()] == approved {
			e.unknown = append(e.unknown, unknownEndpoint{ID: id, Name: id.Name(), Missing: id})
		}
	}
	return e
}

// unreadNIC returns a network interface of pe that was not read when pe
// publishes no customDnsConfigs: its FQDNs are then on that interface, and
// unknown. Zero when the FQDNs are known (or pe has no interface at all).
func unreadNIC(n *model.Network, pe *model.PrivateEndpoint) model.ResourceID {
	if len(pe.DNSConfigs) > 0 || n == nil {
		return ""
	}
	for _, id := range pe.NICIDs {
		if n.NIC(id) == nil {
			return id
		}
	}
	return ""
}

// servedBy returns the private endpoints whose customDnsConfigs list host.
func (e *endpoints) servedBy(host string) []peService { return e.served[model.NormalizeHost(host)] }

// expected returns the private addresses the private endpoints give host.
func (e *endpoints) expected(host string) []netip.Addr {
	var out []netip.Addr
	for _, s := range e.servedBy(host) {
		out = append(out, s.Addrs...)
	}
	return sortedAddrs(out)
}

func (e *endpoints) isApproved(pe *model.PrivateEndpoint) bool {
	return e.status[pe.ID.Key()] == approved
}

// owner returns the registry private endpoint that has addr, if any.
func (e *endpoints) owner(addr netip.Addr) *model.PrivateEndpoint {
	for _, pe := range e.pes {
		for _, dc := range pe.DNSConfigs {
			for _, a := range dc.Addresses {
				if a == addr {
					return pe
				}
			}
		}
	}
	return nil
}

// approvalResource is what the registry owner changes to approve pe: the
// registry's private endpoint connection, or the endpoint itself.
func (e *endpoints) approvalResource(pe *model.PrivateEndpoint) model.ResourceID {
	if id, ok := e.connection[pe.ID.Key()]; ok && !id.IsZero() {
		return id
	}
	return pe.ID
}

// statusWord is the connection state for a message.
func (e *endpoints) statusWord(pe *model.PrivateEndpoint) string {
	if s := e.status[pe.ID.Key()]; s != "" {
		return s
	}
	return "unknown"
}

// coverageFinding applies the endpoint coverage rules that hold before any
// name is resolved, because they are properties of the registry and not of
// a pool's DNS:
//
//   - a host that only private endpoints with a connection other than
//     Approved serve — or, when the registry has no approved private
//     endpoint at all, a host no endpoint serves while one waits for
//     approval — goes nowhere (ENDPOINT_PRIVATE_ENDPOINT_NOT_APPROVED);
//   - a data (or regional) endpoint that no private endpoint serves while
//     the login server has a private address: manifests work, layers fail
//     (ENDPOINT_DATA_NOT_COVERED, registry owner; linking zones or adding
//     records cannot fix it, the private endpoint must serve the name).
//
// Neither is concluded while an approved private endpoint's FQDNs are
// missing evidence (endpoints.unknown): that endpoint may serve the host.
func (r *run) coverageFinding(pc *poolCtx, h model.PullHost) (model.Finding, bool) {
	if r.f.Registry == nil || (h.Kind != model.HostLogin && h.Kind != model.HostRegional && h.Kind != model.HostData) {
		return model.Finding{}, false
	}
	services := r.ep.servedBy(h.Name)
	for _, s := range services {
		if r.ep.isApproved(s.PE) {
			return model.Finding{}, false
		}
	}
	if len(r.ep.unknown) > 0 {
		// An approved endpoint whose FQDNs could not be read may serve h:
		// coverage is unknown, and the lookup carries the evidence.
		return model.Finding{}, false
	}
	if len(services) > 0 {
		return r.notApprovedFinding(pc, h, services[0].PE), true
	}
	if h.Kind != model.HostLogin && len(r.ep.expected(model.NormalizeHost(r.f.Registry.LoginServer))) > 0 {
		return r.dataNotCoveredFinding(pc, h), true
	}
	if pe := r.ep.pendingOnly(r.f.Registry); pe != nil {
		return r.notApprovedFinding(pc, h, pe), true
	}
	return model.Finding{}, false
}

// pendingOnly returns a private endpoint of the registry whose connection
// is not Approved when none is Approved, or nil.
func (e *endpoints) pendingOnly(reg *model.Registry) *model.PrivateEndpoint {
	var pending *model.PrivateEndpoint
	for _, pe := range e.pes {
		if e.isApproved(pe) {
			return nil
		}
		if pending == nil {
			pending = pe
		}
	}
	for _, c := range reg.PrivateEndpointConnections {
		if c.Status == approved {
			return nil
		}
		if pending == nil {
			pending = &model.PrivateEndpoint{ID: c.PrivateEndpointID, Name: c.PrivateEndpointID.Name()}
		}
	}
	return pending
}

// dataNotCoveredFinding: the login server has a private address, the data
// (or regional) endpoint h has none.
func (r *run) dataNotCoveredFinding(pc *poolCtx, h model.PullHost) model.Finding {
	reg := r.f.Registry
	login := model.NormalizeHost(reg.LoginServer)
	pe := r.ep.servedBy(login)[0].PE
	msg := fmt.Sprintf("%s pulls from registry %s: the login server %s has the private address %s (private endpoint %s), but no private endpoint of the registry serves the %s %s (its customDnsConfigs do not list it). Token exchange and manifests succeed; the 307 redirect for the layers then sends the node to %s, which has no private address, so the layer download fails.",
		pc.label, reg.Name, login, joinAddrs(r.ep.expected(login)), pe.Name, h.Kind, h.Name, h.Name)
	fix := fmt.Sprintf("Make the registry's private endpoint serve %s: every replica region needs its data endpoint on the private endpoint (re-create or update private endpoint %s after adding the %s replica, or add a private endpoint in that region), and its DNS zone group then creates the record. Linking zones or adding a hand-made DNS record cannot help while no private endpoint serves the name; credentials and imagePullSecrets are irrelevant.",
		h.Name, pe.Name, regionOrHome(h.Region))
	if h.Kind == model.HostRegional {
		// A regional endpoint is a login server of its own, used by
		// clients configured with it, not a redirect target.
		msg = fmt.Sprintf("%s pulls from registry %s, which enables regional endpoints, so %s is a login name nodes may be configured to pull from. The login server %s has the private address %s (private endpoint %s), but no private endpoint of the registry serves the regional endpoint %s (its customDnsConfigs do not list it), so a pull through it finds no private address and fails before authentication.",
			pc.label, reg.Name, h.Name, login, joinAddrs(r.ep.expected(login)), pe.Name, h.Name)
		fix = fmt.Sprintf("Make the registry's private endpoint serve %s (update or re-create private endpoint %s now that regional endpoints are enabled, and let its DNS zone group create the record), or, if no node pulls through regional endpoints, disable them (`az acr update -n %s --regional-endpoints disabled`). Linking zones or adding a hand-made DNS record cannot help while no private endpoint serves the name; credentials and imagePullSecrets are irrelevant.",
			h.Name, pe.Name, reg.Name)
	}
	return model.NewFinding(model.EndpointDataNotCovered, pc.pool.Name, h.Name, reg.ID, msg, fix)
}

// notApprovedFinding says that traffic to pe goes nowhere until its
// connection is approved.
func (r *run) notApprovedFinding(pc *poolCtx, h model.PullHost, pe *model.PrivateEndpoint) model.Finding {
	reg := r.f.Registry
	msg := fmt.Sprintf("%s reaches %s through private endpoint %s, whose connection to registry %s is %s, not Approved. Until the registry owner approves it, the endpoint carries no traffic and the connection times out.",
		pc.label, h.Name, pe.Name, reg.Name, r.ep.statusWord(pe))
	fix := fmt.Sprintf("Approve the private endpoint connection of %s on registry %s (Networking → Private access, or `az acr private-endpoint-connection approve`); if it was rejected or disconnected, re-create the private endpoint. Routes, DNS records and credentials are irrelevant until then.",
		pe.Name, reg.Name)
	return model.NewFinding(model.EndpointPENotApproved, pc.pool.Name, h.Name, r.ep.approvalResource(pe), msg, fix)
}

// publicAccessDeniedFinding: the node reaches the registry at a public
// address while the registry refuses public network access (a 403 after
// the connection, or a refused connection).
func (r *run) publicAccessDeniedFinding(pc *poolCtx, h model.PullHost) model.Finding {
	reg := r.f.Registry
	why := "publicNetworkAccess is Disabled"
	if reg.PublicNetworkAccess != "Disabled" {
		why = "its network rule set's default action is Deny"
	}
	var msg, fix string
	if len(r.ep.pes) == 0 && len(reg.PrivateEndpointConnections) == 0 {
		msg = fmt.Sprintf("%s resolves the %s %s to its public address, and registry %s refuses public clients (%s). The registry has no private endpoint, so there is no private address the nodes could use instead.",
			pc.label, h.Kind, h.Name, reg.Name, why)
		fix = fmt.Sprintf("Give registry %s a private endpoint reachable from the node subnet, with a private DNS zone %s linked to the VNet the nodes resolve from; or allow the nodes' egress addresses in the registry's firewall. An imagePullSecret or another role assignment will not help: the network refuses the node before any credential is checked.",
			reg.Name, r.cloud.PrivateLinkZone)
	} else {
		msg = fmt.Sprintf("%s resolves the %s %s to its public address, and registry %s refuses public clients (%s).",
			pc.label, h.Kind, h.Name, reg.Name, why)
		fix = fmt.Sprintf("Make %s resolve to the registry's private endpoint for these nodes, or allow the nodes' egress addresses in the registry's firewall. Credentials are irrelevant: the registry refuses the network, not the identity.", h.Name)
	}
	return model.NewFinding(model.EndpointPublicAccessDenied, pc.pool.Name, h.Name, reg.ID, msg, fix)
}

// unresolvedFinding: a declared host whose address neither a private zone
// nor the configuration gives.
func (r *run) unresolvedFinding(pc *poolCtx, h model.PullHost, via string) model.Finding {
	msg := fmt.Sprintf("%s resolves %s through %s, but no private DNS zone the resolver answers from holds the name and the configuration declares no address for it; its address, and so its route, cannot be determined from Azure.",
		pc.label, h.Name, via)
	fix := fmt.Sprintf("Declare the address the nodes get for %s in the registry block's `addresses` (host → IP), or serve the name from a private DNS zone linked to the VNet the nodes resolve from. This is missing evidence, not a fault the provider saw.", h.Name)
	return model.NewFinding(model.EndpointUnresolved, pc.pool.Name, h.Name, "", msg, fix)
}

func regionOrHome(region string) string {
	if region == "" {
		return "home"
	}
	return region
}

func sortedAddrs(in []netip.Addr) []netip.Addr {
	out := append([]netip.Addr(nil), in...)
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	j := 0
	for i, a := range out {
		if i == 0 || a != out[j-1] {
			out[j] = a
			j++
		}
	}
	return out[:j]
}

func joinAddrs(addrs []netip.Addr) string {
	s := make([]string, len(addrs))
	for i, a := range addrs {
		s[i] = a.String()
	}
	return strings.Join(s, ", ")
}

func containsAddr(addrs []netip.Addr, a netip.Addr) bool {
	for _, x := range addrs {
		if x == a {
			return true
		}
	}
	return false
}
