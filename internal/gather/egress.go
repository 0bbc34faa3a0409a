// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"sort"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// azureFirewallSubnetName is the subnet Azure Firewall lives in.
const azureFirewallSubnetName = "AzureFirewallSubnet"

// NATGateway reads a NAT gateway with its public IP addresses and prefixes.
func (r *Reader) NATGateway(ctx context.Context, id model.ResourceID) (*model.NATGateway, error) {
	return read(r, "natgateway", id, permNATGatewayRead, func() (*model.NATGateway, error) {
		resp, err := networkGet(ctx, r, id, "natGateways", func(f *armnetwork.ClientFactory, rg, name string) (armnetwork.NatGatewaysClientGetResponse, error) {
			return f.NewNatGatewaysClient().Get(ctx, rg, name, nil)
		})
		if err != nil {
			return nil, err
		}
		return natGatewayFromSDK(&resp.NatGateway)
	})
}

// PublicAddress reads a public IP address (…/publicIPAddresses/{n}) or a
// public IP prefix (…/publicIPPrefixes/{n}), as the id says.
func (r *Reader) PublicAddress(ctx context.Context, id model.ResourceID) (*model.PublicAddress, error) {
	if a, err := parseID(id); err == nil && a.is("Microsoft.Network", "publicIPPrefixes") {
		return read(r, "publicipprefix", id, permPublicIPPrefixRead, func() (*model.PublicAddress, error) {
			resp, err := networkGet(ctx, r, id, "publicIPPrefixes", func(f *armnetwork.ClientFactory, rg, name string) (armnetwork.PublicIPPrefixesClientGetResponse, error) {
				return f.NewPublicIPPrefixesClient().Get(ctx, rg, name, nil)
			})
			if err != nil {
				return nil, err
			}
			return publicIPPrefixFromSDK(&resp.PublicIPPrefix)
		})
	}
	return read(r, "publicip", id, permPublicIPRead, func() (*model.PublicAddress, error) {
		resp, err := networkGet(ctx, r, id, "publicIPAddresses", func(f *armnetwork.ClientFactory, rg, name string) (armnetwork.PublicIPAddressesClientGetResponse, error) {
			return f.NewPublicIPAddressesClient().Get(ctx, rg, name, nil)
		})
		if err != nil {
			return nil, err
		}
		return publicIPFromSDK(&resp.PublicIPAddress)
	})
}

// AzureFirewall reads an Azure Firewall: its private and public addresses
// and its policy.
func (r *Reader) AzureFirewall(ctx context.Context, id model.ResourceID) (*model.AzureFirewall, error) {
	return read(r, "azurefirewall", id, permFirewallRead, func() (*model.AzureFirewall, error) {
		resp, err := networkGet(ctx, r, id, "azureFirewalls", func(f *armnetwork.ClientFactory, rg, name string) (armnetwork.AzureFirewallsClientGetResponse, error) {
			return f.NewAzureFirewallsClient().Get(ctx, rg, name, nil)
		})
		if err != nil {
			return nil, err
		}
		return azureFirewallFromSDK(&resp.AzureFirewall)
	})
}

// FirewallsInSubnet reads the Azure Firewalls of an AzureFirewallSubnet.
// The subnet's ipConfigurations name them
// (…/azureFirewalls/{fw}/azureFirewallIpConfigurations/{c}) at no extra
// read; only an answer without ipConfigurations makes it list the
// firewalls of the VNet's resource group (where Azure keeps a VNet's
// firewall) and match them by subnet. Partial results come with the joined
// errors of the reads that failed.
func (r *Reader) FirewallsInSubnet(ctx context.Context, subnet *model.Subnet) ([]*model.AzureFirewall, error) {
	if subnet == nil {
		return nil, nil
	}
	ids := firewallsOfIPConfigs(subnet.IPConfigurationIDs)
	if len(subnet.IPConfigurationIDs) == 0 {
		found, err := r.firewallsOfSubnetInGroup(ctx, subnet)
		if err != nil {
			return nil, err
		}
		ids = found
	}
	out := make([]*model.AzureFirewall, len(ids))
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = r.AzureFirewall(ctx, id)
		}()
	}
	wg.Wait()
	var kept []*model.AzureFirewall
	for _, fw := range out {
		if fw != nil {
			kept = append(kept, fw)
		}
	}
	return kept, joinErrs(errs)
}

// firewallReads are the ids FirewallsInSubnet reads for a subnet: its
// firewalls, or the list of its VNet's resource group.
func firewallReads(subnet *model.Subnet) []model.ResourceID {
	if len(subnet.IPConfigurationIDs) > 0 {
		return firewallsOfIPConfigs(subnet.IPConfigurationIDs)
	}
	if a, err := parseTyped(subnet.VNetID, "Microsoft.Network", "virtualNetworks"); err == nil {
		return []model.ResourceID{groupCollection(a.Subscription, a.ResourceGroup, "Microsoft.Network", "azureFirewalls")}
	}
	return nil
}

// firewallsOfIPConfigs returns the firewalls whose ip configurations are
// among ids.
func firewallsOfIPConfigs(ids []model.ResourceID) []model.ResourceID {
	var out []model.ResourceID
	for _, c := range ids {
		s := string(c)
		i := strings.Index(strings.ToLower(s), "/azurefirewallipconfigurations/")
		if i < 0 {
			continue
		}
		fw := model.ResourceID(s[:i])
		if a, err := parseID(fw); err == nil && a.is("Microsoft.Network", "azureFirewalls") {
			out = appendUniqueID(out, fw)
		}
	}
	return out
}

// firewallsOfSubnetInGroup lists the firewalls of the subnet's VNet's resource
// group that have an ip configuration in the subnet.
func (r *Reader) firewallsOfSubnetInGroup(ctx context.Context, subnet *model.Subnet) ([]model.ResourceID, error) {
	a, err := parseTyped(subnet.VNetID, "Microsoft.Network", "virtualNetworks")
	if err != nil {
		return nil, err
	}
	coll := groupCollection(a.Subscription, a.ResourceGroup, "Microsoft.Network", "azureFirewalls")
	list, err := read(r, "list", coll, permFirewallRead, func() ([]*armnetwork.AzureFirewall, error) {
		f, err := r.clients.Network(a.Subscription)
		if err != nil {
			return nil, err
		}
		return collect(ctx, r, f.NewAzureFirewallsClient().NewListPager(a.ResourceGroup, nil),
			func(p armnetwork.AzureFirewallsClientListResponse) []*armnetwork.AzureFirewall { return p.Value })
	})
	if err != nil {
		return nil, err
	}
	var ids []model.ResourceID
	for _, fw := range list {
		if fw.Properties == nil {
			continue
		}
		for _, c := range fw.Properties.IPConfigurations {
			if c != nil && c.Properties != nil && c.Properties.Subnet != nil && rid(c.Properties.Subnet.ID).Equal(subnet.ID) {
				id := rid(fw.ID)
				if m, err := azureFirewallFromSDK(fw); err == nil {
					prime(r, memoKey("azurefirewall", id), m)
				}
				ids = appendUniqueID(ids, id)
			}
		}
	}
	return ids, nil
}

// egressAddresses reads the public addresses the nodes' flows to public
// addresses may leave through, for a registry that admits listed IP
// ranges only (model.Registry.IPRulesApply): the NAT gateways of the pool
// subnets, the nodes' public IP prefixes, the cluster load balancer's or
// managed NAT gateway's outbound IPs for pools without either, and the
// public IPs (or subnet NAT gateways) of the Azure Firewalls in the
// network. Which of them a flow uses depends on its route, which only
// verification follows: the ids go to Network.SpeculativeReads, so that a
// failure counts only where a conclusion used it.
func (r *Reader) egressAddresses(ctx context.Context, n *model.Network, cl *model.Cluster, pools []*model.NodePool) {
	var nats, addrs []model.ResourceID
	needOutbound := false
	for _, p := range pools {
		s := n.Subnet(p.SubnetID)
		switch {
		case s == nil:
		case !s.NATGatewayID.IsZero():
			nats = appendUniqueID(nats, s.NATGatewayID)
		case p.NodePublicIP:
			addrs = appendUniqueID(addrs, p.NodePublicIPPrefixID)
		default:
			needOutbound = true
		}
	}
	if cl != nil && needOutbound {
		switch strings.ToLower(cl.Outbound.EffectiveType()) {
		case strings.ToLower(model.OutboundLoadBalancer):
			for _, id := range cl.Outbound.LoadBalancerIPIDs {
				addrs = appendUniqueID(addrs, id)
			}
		case strings.ToLower(model.OutboundManagedNATGateway):
			for _, id := range cl.Outbound.NATGatewayIPIDs {
				addrs = appendUniqueID(addrs, id)
			}
		}
	}
	fwKeys := make([]string, 0, len(n.Firewalls))
	for k := range n.Firewalls {
		fwKeys = append(fwKeys, k)
	}
	sort.Strings(fwKeys)
	for _, k := range fwKeys {
		fw := n.Firewalls[k]
		nat := false
		for _, sid := range fw.SubnetIDs {
			if s := n.Subnet(sid); s != nil && !s.NATGatewayID.IsZero() {
				nats, nat = appendUniqueID(nats, s.NATGatewayID), true
			}
		}
		if !nat {
			for _, id := range fw.PublicIPAddressIDs {
				addrs = appendUniqueID(addrs, id)
			}
		}
	}

	var mu sync.Mutex
	got := make([]*model.NATGateway, len(nats))
	tasks := make([]func(), len(nats))
	for i, id := range nats {
		tasks[i] = func() { got[i], _ = r.NATGateway(ctx, id) }
	}
	fanOut(r.concurrency(), tasks)
	for _, g := range got {
		if g == nil {
			continue
		}
		n.AddNATGateway(g)
		for _, id := range g.PublicIPIDs {
			addrs = appendUniqueID(addrs, id)
		}
	}
	tasks = make([]func(), len(addrs))
	for i, id := range addrs {
		tasks[i] = func() {
			if a, err := r.PublicAddress(ctx, id); err == nil {
				mu.Lock()
				n.AddPublicAddress(a)
				mu.Unlock()
			}
		}
	}
	fanOut(r.concurrency(), tasks)
	n.SpeculativeReads = append(append(n.SpeculativeReads, nats...), addrs...)
}
