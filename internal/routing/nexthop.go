package routing

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// nextHopAbsent decides whether nothing holds a VirtualAppliance next hop
// address (docs/design/azure-behaviour.md, "A next hop that nothing
// holds"): a NIC, a load balancer frontend or an Azure Firewall ip
// configuration must hold it, and the subnet that contains the address
// lists its ip configurations. It is called only when no NIC read holds
// the address. absent is true, with why in words, when
//
//   - the subnet lists no ip configuration at all (a stopped, deallocated
//     Azure Firewall has none), or
//   - every ip configuration it lists is an Azure Firewall's, each of
//     those firewalls was read, and none has the address.
//
// Anything else (a load balancer frontend, a NIC or a firewall that was
// not read) may hold it: not absent, and the caller says what it does not
// know as before.
func nextHopAbsent(net *model.Network, sub *model.Subnet, nh netip.Addr) (string, bool) {
	if !sub.IPConfigurationsRead || len(sub.PrivateEndpointIDs) > 0 {
		return "", false
	}
	if _, gap := net.AddressGaps[nh.Unmap()]; gap {
		return "", false
	}
	if len(sub.IPConfigurationIDs) == 0 {
		what := "no NIC, load balancer frontend or Azure Firewall has that address"
		if strings.EqualFold(sub.Name, "AzureFirewallSubnet") {
			what = "the Azure Firewall there has no ip configuration, as when it is stopped (deallocated)"
		}
		return fmt.Sprintf("subnet %s, which contains it, lists no ip configuration (%s)", SubnetLabel(sub.ID), what), true
	}
	owners := sub.IPConfigurationOwners("azureFirewallIpConfigurations")
	if len(owners) == 0 {
		return "", false
	}
	for _, c := range sub.IPConfigurationIDs {
		if !strings.Contains(strings.ToLower(string(c)), "/azurefirewallipconfigurations/") {
			return "", false
		}
	}
	var names []string
	for _, id := range owners {
		fw := net.Firewall(id)
		if fw == nil {
			return "", false
		}
		for _, a := range fw.PrivateIPs {
			if a.Unmap() == nh.Unmap() {
				return "", false
			}
		}
		names = append(names, fmt.Sprintf("Azure Firewall %s (%s)", fw.Name, addrList(fw.PrivateIPs)))
	}
	return fmt.Sprintf("subnet %s, which contains it, holds only %s", SubnetLabel(sub.ID), strings.Join(names, ", ")), true
}

func addrList(as []netip.Addr) string {
	if len(as) == 0 {
		return "no private address"
	}
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = a.String()
	}
	return strings.Join(s, ", ")
}
