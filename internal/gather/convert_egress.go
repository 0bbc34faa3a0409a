// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"fmt"
	"net/netip"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// natGatewayFromSDK converts a NAT gateway: its public IP addresses and
// prefixes (IPv4 and IPv6).
func natGatewayFromSDK(g *armnetwork.NatGateway) (*model.NATGateway, error) {
	if g == nil || g.ID == nil {
		return nil, fmt.Errorf("NAT gateway without id")
	}
	out := &model.NATGateway{ID: rid(g.ID), Name: str(g.Name)}
	out.Unmodelled = unmodelledOf(out.ID, g)
	if p := g.Properties; p != nil {
		for _, list := range [][]*armnetwork.SubResource{p.PublicIPAddresses, p.PublicIPPrefixes, p.PublicIPAddressesV6, p.PublicIPPrefixesV6} {
			for _, ref := range list {
				if ref != nil {
					out.PublicIPIDs = appendUniqueID(out.PublicIPIDs, rid(ref.ID))
				}
			}
		}
	}
	return out, nil
}

// publicIPFromSDK converts a public IP address; an address Azure has not
// allocated (a dynamic one of a stopped resource) leaves Prefix invalid.
func publicIPFromSDK(a *armnetwork.PublicIPAddress) (*model.PublicAddress, error) {
	if a == nil || a.ID == nil {
		return nil, fmt.Errorf("public IP address without id")
	}
	out := &model.PublicAddress{ID: rid(a.ID), Name: str(a.Name)}
	if p := a.Properties; p != nil {
		ip, err := addr(out.ID, "properties.ipAddress", p.IPAddress)
		if err != nil {
			return nil, err
		}
		if ip.IsValid() {
			out.Prefix = netip.PrefixFrom(ip, ip.BitLen())
		}
	}
	return out, nil
}

// publicIPPrefixFromSDK converts a public IP prefix.
func publicIPPrefixFromSDK(a *armnetwork.PublicIPPrefix) (*model.PublicAddress, error) {
	if a == nil || a.ID == nil {
		return nil, fmt.Errorf("public IP prefix without id")
	}
	out := &model.PublicAddress{ID: rid(a.ID), Name: str(a.Name)}
	if p := a.Properties; p != nil {
		ps, err := prefixes(out.ID, "properties.ipPrefix", []*string{p.IPPrefix})
		if err != nil {
			return nil, err
		}
		if len(ps) > 0 {
			out.Prefix = ps[0]
		}
	}
	return out, nil
}
