// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// HTTPProxy is the cluster's httpProxyConfig: AKS configures containerd
// on every node with it, so image pulls to a hostname noProxy does not
// match go through the proxy (docs/design/azure-behaviour.md, "The
// cluster's HTTP proxy").
type HTTPProxy struct {
	// HTTPProxy and HTTPSProxy are the proxy URLs as configured.
	HTTPProxy  string
	HTTPSProxy string
	// NoProxy are the noProxy entries as configured.
	NoProxy []string
	// TrustedCA: trustedCa is set, so the nodes trust one more CA (the
	// certificate's content is not kept).
	TrustedCA bool
}

// ProxyEndpoint is the proxy a pull over HTTPS is sent to.
type ProxyEndpoint struct {
	// URL is the proxy URL as configured.
	URL string
	// Host is the proxy's hostname or IP literal; Addr is set when it is
	// an IP literal.
	Host string
	Addr netip.Addr
	// Port is the port the nodes connect to (the URL's, else the
	// scheme's default: 80 for http, 443 for https, 1080 for socks5).
	Port int
}

// Label names the proxy in messages: "HTTPS proxy http://10.0.1.4:3128".
func (e ProxyEndpoint) Label() string { return "HTTPS proxy " + e.URL }

// Active reports whether the cluster sends anything through a proxy.
func (p *HTTPProxy) Active() bool {
	return p != nil && (strings.TrimSpace(p.HTTPSProxy) != "" || strings.TrimSpace(p.HTTPProxy) != "")
}

// Endpoint is the proxy of an https:// request. Go's proxy selection,
// which containerd uses, takes HTTPS_PROXY for https:// URLs and never
// falls back to HTTP_PROXY: without httpsProxy, pulls go direct (ok
// false). An httpsProxy that cannot be parsed is an error.
func (p *HTTPProxy) Endpoint() (ProxyEndpoint, bool, error) {
	if p == nil || strings.TrimSpace(p.HTTPSProxy) == "" {
		return ProxyEndpoint{}, false, nil
	}
	raw := strings.TrimSpace(p.HTTPSProxy)
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		// Go reads a proxy without a scheme as http://.
		u, err = url.Parse("http://" + raw)
	}
	if err != nil || u.Hostname() == "" {
		return ProxyEndpoint{URL: raw}, true, fmt.Errorf("httpsProxy %q is not a URL", raw)
	}
	ep := ProxyEndpoint{URL: raw, Host: strings.ToLower(u.Hostname())}
	if a, err := netip.ParseAddr(ep.Host); err == nil {
		ep.Addr = a.Unmap()
	}
	switch port := u.Port(); {
	case port != "":
		n, err := strconv.Atoi(port)
		if err != nil || n <= 0 || n > 65535 {
			return ep, true, fmt.Errorf("httpsProxy %q has no valid port", raw)
		}
		ep.Port = n
	case strings.EqualFold(u.Scheme, "https"):
		ep.Port = 443
	case strings.EqualFold(u.Scheme, "socks5"), strings.EqualFold(u.Scheme, "socks5h"):
		ep.Port = 1080
	case strings.EqualFold(u.Scheme, "http"):
		ep.Port = 80
	default:
		return ep, true, fmt.Errorf("httpsProxy %q has scheme %q, which Go's proxy selection does not use", raw, u.Scheme)
	}
	return ep, true, nil
}

// NoProxyMatch is how noProxy decides one hostname.
type NoProxyMatch struct {
	// Bypass: an entry matches, the host is reached direct.
	Bypass bool
	// Entry is the matching entry as configured.
	Entry string
	// Wildcard: the matching entry is a domain with a leading "*.", a
	// form AKS documents as unsupported in noProxy, so whether the nodes
	// apply it cannot be told.
	Wildcard bool
	// Misses says, when nothing matches, why the entries that look
	// related do not ("contosoreg.azurecr.io matches only itself and its
	// subdomains", "10.0.0.0/8 matches only IP addresses").
	Misses []string
}

// MatchNoProxy decides a registry hostname (reached on port 443) by the
// rules of Go's golang.org/x/net/http/httpproxy, which containerd applies
// to NO_PROXY: "*" matches everything; an IP address or CIDR range
// matches only a host given as an IP literal; a domain ("example.com")
// matches itself and its subdomains; a leading dot (".example.com", and
// "*.example.com" read as ".example.com") only its subdomains; an entry
// with a port only that port. Entries are case-insensitive.
func (p *HTTPProxy) MatchNoProxy(host string) NoProxyMatch {
	host = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(host)), ".")
	if p == nil {
		return NoProxyMatch{}
	}
	hostIP, err := netip.ParseAddr(host)
	hostIsIP := err == nil
	var out NoProxyMatch
	for _, raw := range p.NoProxy {
		e := strings.ToLower(strings.TrimSpace(raw))
		if e == "" {
			continue
		}
		if e == "*" {
			return NoProxyMatch{Bypass: true, Entry: raw}
		}
		if pfx, err := netip.ParsePrefix(e); err == nil {
			if hostIsIP && pfx.Contains(hostIP) {
				return NoProxyMatch{Bypass: true, Entry: raw}
			}
			out.Misses = append(out.Misses, fmt.Sprintf("%s is an address range, which matches only hosts given as IP addresses, never a hostname", raw))
			continue
		}
		phost, pport := e, ""
		if h, port, err := net.SplitHostPort(e); err == nil {
			phost, pport = strings.Trim(h, "[]"), port
		}
		if a, err := netip.ParseAddr(phost); err == nil {
			if hostIsIP && a.Unmap() == hostIP.Unmap() && (pport == "" || pport == "443") {
				return NoProxyMatch{Bypass: true, Entry: raw}
			}
			out.Misses = append(out.Misses, fmt.Sprintf("%s is an IP address, which matches only a host given as that address, never a hostname", raw))
			continue
		}
		if phost == "" || hostIsIP {
			continue
		}
		wildcard := strings.HasPrefix(phost, "*.")
		if wildcard {
			phost = phost[1:]
		}
		matchHost := !strings.HasPrefix(phost, ".")
		suffix := phost
		if matchHost {
			suffix = "." + phost
		}
		matches := strings.HasSuffix(host, suffix) || (matchHost && host == phost)
		if matches && (pport == "" || pport == "443") {
			return NoProxyMatch{Bypass: true, Entry: raw, Wildcard: wildcard}
		}
		if related(host, strings.TrimPrefix(suffix, ".")) {
			switch {
			case matches:
				out.Misses = append(out.Misses, fmt.Sprintf("%s applies only to port %s, and pulls use 443", raw, pport))
			case matchHost:
				out.Misses = append(out.Misses, fmt.Sprintf("%s matches only itself and its subdomains", raw))
			case host == strings.TrimPrefix(suffix, "."):
				out.Misses = append(out.Misses, fmt.Sprintf("%s matches only subdomains (its leading dot), not the name itself", raw))
			default:
				out.Misses = append(out.Misses, fmt.Sprintf("%s does not match it", raw))
			}
		}
	}
	return out
}

// related: the two names share their registrable tail (the last two
// labels), so a user may have meant the entry for the host.
func related(host, domain string) bool {
	tail := func(s string) string {
		parts := strings.Split(s, ".")
		if len(parts) < 2 {
			return s
		}
		return strings.Join(parts[len(parts)-2:], ".")
	}
	return tail(host) == tail(domain)
}

// NoProxyEntryFor is the noProxy entry that sends host direct and
// nothing else: the hostname itself (it matches itself and its
// subdomains).
func NoProxyEntryFor(host string) string {
	return strings.TrimSuffix(strings.ToLower(host), ".")
}

// ProxyHost is what holds the address of the cluster's HTTPS proxy, as
// gather found it: the network interface (of a VM or a scale-set
// instance) whose private address it is, in a VNet the provider read.
// Nil in Facts when the proxy is not an IP address of a VNet read, or
// no network interface there holds it.
type ProxyHost struct {
	Addr  netip.Addr
	NICID ResourceID
	// LoadBalancer is set when the address is an internal load
	// balancer's frontend: NICID is then its one backend's NIC, zero
	// when no rule serves the proxy's port or the backends are not one
	// NIC.
	LoadBalancer *ProxyLoadBalancer
}

// ProxyLoadBalancer is the internal load balancer whose frontend holds
// the proxy's address, as far as the proxy's port goes.
type ProxyLoadBalancer struct {
	ID       ResourceID
	Name     string
	Frontend string
	// Rule names the load-balancing rule that serves the proxy's port
	// on the frontend, empty when none does; BackendPort is the port the
	// backends receive the connection on.
	Rule        string
	BackendPort int
	// Backends are the NICs of the rule's backend pools; BackendsKnown
	// is false when a pool names backends by address only.
	Backends      []ResourceID
	BackendsKnown bool
}

// LoadBalancer is what a load balancer's answer holds for a proxy
// behind it: its frontends, load-balancing rules and backend pools.
type LoadBalancer struct {
	ID        ResourceID
	Name      string
	Frontends []LBFrontend
	Rules     []LBRule
	Pools     []LBBackendPool
}

// LBFrontend is a frontend ip configuration with its private address.
type LBFrontend struct {
	ID   ResourceID
	Name string
	Addr netip.Addr
}

// LBRule is a load-balancing rule. Protocol is Tcp, Udp or All; an All
// rule with frontend port 0 is an HA-ports rule, which forwards every
// port unchanged.
type LBRule struct {
	Name         string
	FrontendID   ResourceID
	PoolIDs      []ResourceID
	Protocol     string
	FrontendPort int
	BackendPort  int
	FloatingIP   bool
}

// LBBackendPool is a backend pool: the ip configurations of the NICs in
// it, and whether it also names backends by address.
type LBBackendPool struct {
	ID                 ResourceID
	Name               string
	IPConfigurationIDs []ResourceID
	ByAddress          bool
}

// Frontend is the frontend ip configuration holding addr, or nil.
func (lb *LoadBalancer) Frontend(addr netip.Addr) *LBFrontend {
	for i := range lb.Frontends {
		if lb.Frontends[i].Addr == addr {
			return &lb.Frontends[i]
		}
	}
	return nil
}

// RuleFor is the load-balancing rule forwarding TCP port of the
// frontend, and the backend port it forwards to: a Tcp rule for that
// frontend port, or an HA-ports rule (protocol All, port 0), which keeps
// the port. Nil when no rule does.
func (lb *LoadBalancer) RuleFor(frontendID ResourceID, port int) (*LBRule, int) {
	for i := range lb.Rules {
		ru := &lb.Rules[i]
		if !ru.FrontendID.Equal(frontendID) {
			continue
		}
		switch {
		case strings.EqualFold(ru.Protocol, "All") && ru.FrontendPort == 0:
			return ru, port
		case (strings.EqualFold(ru.Protocol, "Tcp") || strings.EqualFold(ru.Protocol, "All")) && ru.FrontendPort == port:
			bp := ru.BackendPort
			if bp == 0 {
				bp = port
			}
			return ru, bp
		}
	}
	return nil, 0
}

// Pool is the backend pool with this id, or nil.
func (lb *LoadBalancer) Pool(id ResourceID) *LBBackendPool {
	for i := range lb.Pools {
		if lb.Pools[i].ID.Equal(id) {
			return &lb.Pools[i]
		}
	}
	return nil
}
