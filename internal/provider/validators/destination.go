// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package validators

import (
	"context"
	"fmt"
	"net/netip"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Destination accepts a destination address of pullpath_node_routes (see
// CheckDestination).
func Destination() validator.String { return destinationValidator{} }

// destinationValidator accepts a destination address of pullpath_node_routes:
// one IPv4 or IPv6 address that a packet from a node can be routed to.
type destinationValidator struct{}

func (destinationValidator) Description(context.Context) string {
	return "must be an IP address such as 10.0.2.5"
}

func (v destinationValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (destinationValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if msg := CheckDestination(req.ConfigValue.ValueString()); msg != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid destination", msg)
	}
}

// CheckDestination returns "" for a routable address, else what is wrong
// and what to give instead.
func CheckDestination(s string) string {
	a, err := netip.ParseAddr(s)
	switch {
	case err != nil && strings.Contains(s, "/"):
		return fmt.Sprintf("%q is a prefix, not an address: routes are selected per address, so give one address inside it "+
			"(the private endpoint's or the host's IP).", s)
	case err != nil && strings.TrimSpace(s) != s:
		return fmt.Sprintf("%q has leading or trailing spaces; remove them.", s)
	case err != nil && strings.ContainsAny(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") && !strings.Contains(s, ":"):
		return fmt.Sprintf("%q is not an IP address: routes are selected per address, so give the address the name resolves to "+
			"(for a registry, the private endpoint address pullpath_registry_endpoints reports).", s)
	case err != nil:
		return fmt.Sprintf("%q is not an IP address (IPv4 such as 10.0.2.5, or IPv6 such as fd00::5).", s)
	case a.Zone() != "":
		return fmt.Sprintf("%q has an IPv6 zone; give the address without %%%s.", s, a.Zone())
	case a.IsUnspecified() || a.IsLoopback() || a.IsMulticast():
		return fmt.Sprintf("%q is an unspecified, loopback or multicast address, which Azure does not route; give the address of the host "+
			"the nodes connect to.", s)
	}
	return ""
}
