// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"net/netip"
	"sort"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// dnsFirewallAt reads, when the custom DNS server address a is an Azure
// Firewall's private address, that firewall and (for a firewall with a
// policy) its policy, whose dnsSettings say whether the firewall answers
// DNS there and where it forwards (model.Network.FirewallDNSOf). Every
// path of a pool that uses the address starts by resolving through it, so
// these are read in the first round, not as pending evidence.
//
// The firewall is found as IncludeFirewalls finds one: the ip
// configurations of the subnet that holds a name it; only an
// AzureFirewallSubnet whose answer lists none has the firewalls of its
// VNet's resource group listed and matched by address. It returns nil when
// no firewall holds a (or the read failed: a gap on what could not be
// read). Only the policy itself is read, and its parent policy's settings
// when it has one (their rule collection groups decide nothing about DNS):
// they join n with RuleCollectionGroupsKnown false until a flow through the
// firewall has its rules read. mu guards n.
func (r *Reader) dnsFirewallAt(ctx context.Context, n *model.Network, mu *sync.Mutex, a netip.Addr) *model.AzureFirewall {
	return dnsFirewallAt(ctx, r, n, mu, a)
}

// firewallDNSReads are the reads dnsFirewallAt makes (the Reader's own; a
// test may answer them).
type firewallDNSReads interface {
	Firewall(ctx context.Context, id model.ResourceID) (*model.AzureFirewall, error)
	firewallsInGroup(ctx context.Context, vnetID model.ResourceID) ([]*model.AzureFirewall, error)
	firewallPolicySettings(ctx context.Context, id model.ResourceID) (*model.FirewallPolicy, error)
}

// dnsFirewallAt is Reader.dnsFirewallAt with its reads answered by r: the
// verification's gathering and pullpath_vnet_dns (VNetDNS) both find the
// firewall at a DNS server address this way.
func dnsFirewallAt(ctx context.Context, r firewallDNSReads, n *model.Network, mu *sync.Mutex, a netip.Addr) *model.AzureFirewall {
	mu.Lock()
	var ids []model.ResourceID
	var listIn *model.VNet
	for _, v := range sortedVNets(n) {
		for _, s := range v.Subnets {
			if !subnetHolds(s, a) {
				continue
			}
			for _, c := range s.IPConfigurationIDs {
				ids = appendUniqueID(ids, firewallOfIPConfig(c))
			}
			if len(s.IPConfigurationIDs) == 0 && strings.EqualFold(s.Name, firewallSubnetName) {
				if fwID, ok := hubFirewallOf(n, v.ID); ok {
					ids = appendUniqueID(ids, fwID) // a secured hub's firewall
				} else {
					listIn = v
				}
			}
		}
	}
	mu.Unlock()
	if listIn != nil {
		if fws, err := r.firewallsInGroup(ctx, listIn.ID); err == nil {
			for _, fw := range fws {
				ids = appendUniqueID(ids, fw.ID)
			}
		}
	}
	for _, id := range ids {
		if id.IsZero() {
			continue
		}
		fw, err := r.Firewall(ctx, id)
		if err != nil || !holdsAddr(fw.PrivateIPs, a) {
			continue
		}
		// The firewall's policy, and its parent's settings: whether a child
		// policy inherits DNS settings is not documented, so where they
		// differ the answer stays open (model.Network.FirewallDNSOf).
		var policies []*model.FirewallPolicy
		if !fw.PolicyID.IsZero() {
			if policy, err := r.firewallPolicySettings(ctx, fw.PolicyID); err == nil {
				policies = append(policies, policy)
				if base := policy.BasePolicyID; !base.IsZero() && !base.Equal(policy.ID) {
					if parent, err := r.firewallPolicySettings(ctx, base); err == nil {
						policies = append(policies, parent)
					}
				}
			}
		}
		mu.Lock()
		if have := n.Firewall(fw.ID); have != nil {
			fw = have // the copy that rules evidence may have filled
		} else {
			n.AddFirewall(fw)
		}
		for _, policy := range policies {
			if n.FirewallPolicy(policy.ID) == nil {
				n.AddFirewallPolicy(policy)
			}
		}
		mu.Unlock()
		return fw
	}
	return nil
}

// proxyTargets is where the DNS proxy of fw sends what the nodes ask, for
// discovery: the firewall's VNet when it asks Azure DNS (no servers, or
// 168.63.129.16 among them), and the other servers it forwards to. Nothing
// when the proxy is off or its settings are unknown. mu guards n.
func proxyTargets(n *model.Network, mu *sync.Mutex, fw *model.AzureFirewall) (azureVNet model.ResourceID, servers []netip.Addr) {
	mu.Lock()
	dns := n.FirewallDNSOf(fw)
	mu.Unlock()
	if !dns.Known || !dns.Proxy {
		return "", nil
	}
	if len(dns.Servers) == 0 {
		return model.FirewallVNet(fw), nil
	}
	for _, s := range dns.Servers {
		if s == model.AzureDNS {
			azureVNet = model.FirewallVNet(fw)
			continue
		}
		servers = append(servers, s)
	}
	return azureVNet, servers
}

// sortedVNets are the VNets of n in id order.
func sortedVNets(n *model.Network) []*model.VNet {
	out := make([]*model.VNet, 0, len(n.VNets))
	for _, v := range n.VNets {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID.Key() < out[j].ID.Key() })
	return out
}

func holdsAddr(list []netip.Addr, a netip.Addr) bool {
	for _, x := range list {
		if x.Unmap() == a.Unmap() {
			return true
		}
	}
	return false
}

// firewallPolicySettings reads a firewall policy without its rule
// collection groups (RuleCollectionGroupsKnown false): its settings, such
// as dnsSettings. The request is the one FirewallPolicy makes, shared
// through the cache.
func (r *Reader) firewallPolicySettings(ctx context.Context, id model.ResourceID) (*model.FirewallPolicy, error) {
	return read(r, "fwpolicy-get", id, permFirewallPolicyRead, func() (*model.FirewallPolicy, error) {
		resp, err := networkGet(ctx, r, id, "firewallPolicies", func(f *armnetwork.ClientFactory, rg, name string) (armnetwork.FirewallPoliciesClientGetResponse, error) {
			return f.NewFirewallPoliciesClient().Get(ctx, rg, name, nil)
		})
		if err != nil {
			return nil, err
		}
		return firewallPolicyFromSDK(&resp.FirewallPolicy)
	})
}
