// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package validators

import (
	"context"
	"fmt"
	"net/netip"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// PoolNamePattern is an AKS node pool name: lower-case letters and digits,
// starting with a letter (12 characters at most for Linux pools).
var PoolNamePattern = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

// Hostname accepts a registry hostname (see CheckHostname).
func Hostname() validator.String { return hostnameValidator{} }

// IPAddress accepts the address of a registry host (see CheckIPAddress).
func IPAddress() validator.String { return ipAddressValidator{} }

// hostnameValidator accepts a DNS hostname as a registry host: at least two
// labels of letters, digits and hyphens (1 to 63 characters, no hyphen at
// either end), 253 characters at most, an optional trailing dot. Upper
// case is accepted: DNS names are case-insensitive, and the verification
// compares them in lower case without the trailing dot (model.NormalizeHost),
// so "Harbor.Corp.Example." and "harbor.corp.example" are the same host. The
// messages say what to remove when a URL, a port or a wildcard was given.
type hostnameValidator struct{}

func (hostnameValidator) Description(context.Context) string {
	return "must be a DNS hostname such as registry.example.com (no scheme, port, path or wildcard)"
}

func (v hostnameValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (hostnameValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if msg := CheckHostname(req.ConfigValue.ValueString()); msg != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid hostname", msg)
	}
}

// CheckHostname returns "" for a valid hostname, else what is wrong.
func CheckHostname(s string) string {
	bad := func(why string) string {
		return fmt.Sprintf("%q is not a hostname: %s. Give the name a pull connects to, such as harbor.corp.example.", s, why)
	}
	switch {
	case s == "":
		return bad("it is empty")
	case strings.TrimSpace(s) != s:
		return bad("it has leading or trailing whitespace; remove it")
	case strings.ContainsAny(s, " \t\n"):
		return bad("it contains whitespace; give one name per list element")
	case strings.Contains(s, "://"):
		return bad("it is a URL; remove the scheme and any path")
	case strings.ContainsAny(s, "/"):
		return bad("it contains a path; give only the host")
	case strings.Contains(s, ":"):
		return bad("it contains a port or is an IP address; give the name only (port 443 is assumed), and put addresses in registry.addresses")
	case strings.HasPrefix(s, "*"):
		return bad("wildcards cannot be resolved; name each host a pull touches")
	}
	name := strings.TrimSuffix(s, ".")
	if len(name) > 253 {
		return bad("it is longer than 253 characters")
	}
	if _, err := netip.ParseAddr(name); err == nil {
		return bad("it is an IP address; give the name the registry's certificate carries, and put the address in registry.addresses")
	}
	labels := strings.Split(name, ".")
	if len(labels) < 2 {
		return bad("it has a single label; give the fully qualified name (the node's search domains are not applied to registry hosts)")
	}
	for _, l := range labels {
		switch {
		case l == "":
			return bad("it has an empty label (two dots in a row)")
		case len(l) > 63:
			return bad(fmt.Sprintf("label %q is longer than 63 characters", l))
		case strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-"):
			return bad(fmt.Sprintf("label %q starts or ends with a hyphen", l))
		}
		for _, r := range l {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return bad(fmt.Sprintf("label %q contains %q; hostnames hold letters, digits and hyphens (use the punycode form of an internationalised name)", l, r))
			}
		}
	}
	return ""
}

// ipAddressValidator accepts an IPv4 or IPv6 address without zone.
type ipAddressValidator struct{}

func (ipAddressValidator) Description(context.Context) string {
	return "must be an IP address such as 10.20.0.5"
}

func (v ipAddressValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (ipAddressValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if msg := CheckIPAddress(req.ConfigValue.ValueString()); msg != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid IP address", msg)
	}
}

// CheckIPAddress returns "" for a valid address, else what is wrong.
func CheckIPAddress(s string) string {
	a, err := netip.ParseAddr(s)
	switch {
	case err != nil && strings.Contains(s, "/"):
		return fmt.Sprintf("%q is a prefix, not an address: give the single address the host answers at.", s)
	case err != nil && strings.TrimSpace(s) != s:
		return fmt.Sprintf("%q has leading or trailing spaces; remove them.", s)
	case err != nil:
		return fmt.Sprintf("%q is not an IP address (IPv4 such as 10.20.0.5, or IPv6).", s)
	case a.Zone() != "":
		return fmt.Sprintf("%q has an IPv6 zone; give the address without %%%s.", s, a.Zone())
	case a.IsUnspecified() || a.IsLoopback() || a.IsMulticast():
		return fmt.Sprintf("%q cannot be a registry host's address (unspecified, loopback or multicast).", s)
	}
	return ""
}

// AddressKeysNotInHosts returns a message for every key of addresses that
// names no host (compared as DNS compares names: case-insensitively,
// without a trailing dot), in key order.
func AddressKeysNotInHosts(hosts []string, addresses map[string]string) []string {
	known := map[string]bool{}
	for _, h := range hosts {
		known[model.NormalizeHost(h)] = true
	}
	keys := make([]string, 0, len(addresses))
	for k := range addresses {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		if !known[model.NormalizeHost(k)] {
			out = append(out, fmt.Sprintf("registry.addresses has an address for %q, which is not in registry.hosts (%s). "+
				"Add the host to hosts, or fix the key's spelling: an address is only used for a host the pull touches.",
				k, strings.Join(hosts, ", ")))
		}
	}
	return out
}

// DuplicateHosts returns a message for every host that is listed again in
// another spelling (casing, trailing dot): the list validator sees distinct
// strings, but they are one host, and checking it twice would double its
// paths and findings.
func DuplicateHosts(hosts []string) []string {
	first := map[string]string{}
	var out []string
	for _, h := range hosts {
		n := model.NormalizeHost(h)
		if prev, ok := first[n]; ok && prev != h {
			out = append(out, fmt.Sprintf("registry.hosts lists %q and %q, which are the same host (DNS names are case-insensitive "+
				"and a trailing dot changes nothing). Keep one of them.", prev, h))
			continue
		}
		first[n] = h
	}
	return out
}
