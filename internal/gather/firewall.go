// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"fmt"
	"net/netip"
	"sort"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// firewallSubnetName is the subnet an Azure Firewall in a VNet lives in.
const firewallSubnetName = "AzureFirewallSubnet"

// maxPolicyChain bounds how many parent policies are followed (a loop in a
// malformed answer ends there; the evaluation reports it).
const maxPolicyChain = 16

// IncludeFirewalls adds to a network read by Network the Azure Firewalls
// that the node subnets' VirtualAppliance routes, and the static routes of
// the virtual hubs' connections, send traffic to: to a
// public address (0.0.0.0/0, a public prefix or a service tag) and to
// private ones alike (another spoke, a private endpoint, on-premises), since
// a firewall decides every flow that crosses it. What decides their rules —
// the firewall policy and its parent chain (basePolicy), each policy's rule
// collection groups with its SNAT settings, and the IP groups the rules
// reference — is marked pending (model.EvidenceFirewallRules) and read by
// ReadEvidence only when a path crosses the firewall (readFirewallRules); a
// pull whose paths cross no firewall never reads it.
//
// A firewall is found by its next-hop address: the ip configurations of
// the subnet holding the address name it
// (…/azureFirewalls/{fw}/azureFirewallIpConfigurations/{c}), at no extra
// read. Only when that subnet is an AzureFirewallSubnet whose answer lists
// no ip configurations are the firewalls of the VNet's resource group
// listed and matched by address. Failed reads are gaps (never errors) on
// the resource that could not be read; n.Gaps is refreshed.
//
// Whether a pull crosses a firewall is known only once verification
// follows the flow (a pull to a private endpoint does not), so every read
// made here is also listed in n.SpeculativeReads: its gap counts where a
// conclusion used it (the firewall's decision names what it lacks).
func (r *Reader) IncludeFirewalls(ctx context.Context, n *model.Network, nodeSubnets []model.ResourceID) {
	ids, lists := r.firewallsBehindRoutes(ctx, n, nodeSubnets)
	n.SpeculativeReads = append(n.SpeculativeReads, lists...)
	r.includeFirewalls(ctx, n, nil, ids)
	n.Gaps = r.Gaps()
}

// includeFirewalls reads the Azure Firewalls ids into n: each one read is
// added, and what decides its rules (its policy chain, their rule
// collection groups and the IP groups they name) is pending until a path
// crosses it (readFirewallRules). Every read is speculative: its gap
// counts where a conclusion used it. mu guards n against other reads that
// change it at the same time (nil when none do).
func (r *Reader) includeFirewalls(ctx context.Context, n *model.Network, mu *sync.Mutex, ids []model.ResourceID) {
	got, _ := mapEach(ctx, r, ids, r.Firewall)
	if mu != nil {
		mu.Lock()
		defer mu.Unlock()
	}
	n.SpeculativeReads = append(n.SpeculativeReads, ids...)
	for _, fw := range got {
		if fw == nil {
			continue
		}
		n.AddFirewall(fw)
		if !fw.PolicyID.IsZero() || len(classicIPGroups(fw)) > 0 {
			n.Pending.Add(model.FirewallRulesOf(fw.ID))
		}
	}
}

// hubFirewallIDs are the Azure Firewalls of secured hubs, each once.
func hubFirewallIDs(hubs []*model.VirtualHub) []model.ResourceID {
	return idsOf(hubs, func(h *model.VirtualHub) model.ResourceID { return h.FirewallID })
}

// readFirewallRules reads what decides a firewall's rules (see
// IncludeFirewalls): its policy chain with their rule collection groups,
// the DNS proxy setting of its own policy, and the IP groups the rules
// name, into n on a copy of the firewall (the Reader's is shared). Every
// read is listed in n.SpeculativeReads, as the firewall's own.
func (r *Reader) readFirewallRules(ctx context.Context, n *model.Network, mu *sync.Mutex, ev model.Evidence) {
	mu.Lock()
	fw := n.Firewall(ev.ID)
	mu.Unlock()
	if fw == nil {
		return
	}
	cp := *fw
	policies := r.policyChain(ctx, fw.PolicyID)
	if len(policies) > 0 && policies[0].ID.Equal(fw.PolicyID) {
		cp.DNSProxyEnabled = policies[0].DNSProxyEnabled
	}
	groups, groupIDs := r.ipGroupsOf(ctx, &cp, policies)
	mu.Lock()
	defer mu.Unlock()
	// The policies the chain read or tried (a gap beneath one, on its rule
	// collection groups, is covered by its id).
	if !fw.PolicyID.IsZero() {
		n.SpeculativeReads = append(n.SpeculativeReads, fw.PolicyID)
	}
	for _, p := range policies {
		if !p.BasePolicyID.IsZero() {
			n.SpeculativeReads = append(n.SpeculativeReads, p.BasePolicyID)
		}
	}
	n.SpeculativeReads = append(n.SpeculativeReads, groupIDs...)
	n.AddFirewall(&cp)
	for _, p := range policies {
		n.AddFirewallPolicy(p)
	}
	for _, g := range groups {
		n.AddIPGroup(g)
	}
}

// classicIPGroups are the IP groups the firewall's classic rules name.
func classicIPGroups(fw *model.AzureFirewall) []model.ResourceID {
	var ids []model.ResourceID
	for _, cs := range [][]model.FirewallRuleCollection{fw.NetworkRuleCollections, fw.ApplicationRuleCollections} {
		for _, c := range cs {
			for _, rule := range c.Rules {
				for _, id := range rule.SourceIPGroupIDs {
					ids = appendUniqueID(ids, id)
				}
				for _, id := range rule.DestinationIPGroupIDs {
					ids = appendUniqueID(ids, id)
				}
			}
		}
	}
	return ids
}

// firewallsBehindRoutes returns the ids of the firewalls that the node
// subnets' VirtualAppliance routes name by address (and, in turn, the
// routes of the subnets holding those next hops), in id order, and the resource group lists it read to find
// them.
func (r *Reader) firewallsBehindRoutes(ctx context.Context, n *model.Network, nodeSubnets []model.ResourceID) (found, lists []model.ResourceID) {
	var ips []netip.Addr
	// The appliances the node subnets' routes name, then those the route
	// tables of the subnets holding them name, and so on: a flow may cross
	// a second firewall that the first one's subnet routes to (a firewall
	// chain, another hub's firewall). Route tables are already read; this
	// only follows them.
	seen := map[string]bool{}
	follow := func(sid model.ResourceID) {
		s := n.Subnet(sid)
		if s == nil || seen[s.ID.Key()] {
			return
		}
		seen[s.ID.Key()] = true
		if s.RouteTableID.IsZero() {
			return
		}
		rt := n.RouteTable(s.RouteTableID)
		if rt == nil {
			return
		}
		for _, route := range rt.Routes {
			if strings.EqualFold(route.NextHopType, model.NextHopVirtualAppliance) && route.NextHopIP.IsValid() {
				ips = appendUniqueAddr(ips, route.NextHopIP.Unmap())
			}
		}
	}
	for _, sid := range nodeSubnets {
		follow(sid)
	}
	for i := 0; i < len(ips); i++ {
		for _, v := range n.VNets {
			for _, s := range v.Subnets {
				if subnetHolds(s, ips[i]) {
					follow(s.ID)
				}
			}
		}
	}
	// The static routes of the virtual hub connections send traffic to an
	// address in a connected VNet as a VirtualAppliance route does.
	for _, h := range n.VirtualHubs {
		for _, c := range h.Connections {
			for _, sr := range c.StaticRoutes {
				if sr.NextHopIP.IsValid() {
					ips = appendUniqueAddr(ips, sr.NextHopIP.Unmap())
				}
			}
		}
	}
	var mu sync.Mutex
	var tasks []func(context.Context)
	for _, v := range n.VNets {
		for _, s := range v.Subnets {
			for _, ip := range ips {
				if !subnetHolds(s, ip) {
					continue
				}
				var ids []model.ResourceID
				for _, c := range s.IPConfigurationIDs {
					ids = appendUniqueID(ids, firewallOfIPConfig(c))
				}
				if len(ids) == 0 && len(s.IPConfigurationIDs) == 0 && strings.EqualFold(s.Name, firewallSubnetName) {
					if fwID, ok := hubFirewallOf(n, v.ID); ok {
						mu.Lock()
						if !fwID.IsZero() {
							found = appendUniqueID(found, fwID)
						}
						mu.Unlock()
						continue
					}
					var coll model.ResourceID
					if a, err := parseTyped(v.ID, "Microsoft.Network", "virtualNetworks"); err == nil {
						coll = groupCollection(a.SubscriptionID, a.ResourceGroup, "Microsoft.Network", "azureFirewalls")
						lists = appendUniqueID(lists, coll)
					}
					tasks = append(tasks, func(ctx context.Context) {
						fws, err := r.firewallsInGroup(ctx, v.ID)
						if err != nil {
							// Which firewall holds the address is unknown:
							// the subnet's empty answer alone does not show
							// that nothing holds it.
							where := coll
							if where.IsZero() {
								where = s.ID
							}
							g := azure.Gap(where, permFirewallRead, err)
							g.Detail = fmt.Sprintf("the Azure Firewalls of the resource group of %s could not be listed, so which one holds %s in %s is unknown: %s", v.Name, ip, s.Name, g.Detail)
							mu.Lock()
							n.AddAddressGap(ip, g)
							mu.Unlock()
							return
						}
						mu.Lock()
						defer mu.Unlock()
						for _, fw := range fws {
							for _, a := range fw.PrivateIPs {
								if a == ip {
									found = appendUniqueID(found, fw.ID)
								}
							}
						}
					})
					continue
				}
				mu.Lock()
				for _, id := range ids {
					found = appendUniqueID(found, id)
				}
				mu.Unlock()
			}
		}
	}
	all(ctx, r, tasks...)
	sort.Slice(found, func(i, j int) bool { return found[i].Key() < found[j].Key() })
	return found, lists
}

// hubFirewallOf reports whether vnetID is the stand-in for a Virtual WAN
// hub's VNet (HV_…, in a subscription Microsoft owns, never read: R7b),
// and the hub's Azure Firewall (azureFirewall; empty when it has none). The
// firewall an address in that VNet names is the hub's: the hub VNet's
// resource group is never listed.
func hubFirewallOf(n *model.Network, vnetID model.ResourceID) (model.ResourceID, bool) {
	h := n.HubByVNet(vnetID)
	if h == nil {
		return "", false
	}
	return h.FirewallID, true
}

func subnetHolds(s *model.Subnet, ip netip.Addr) bool {
	for _, p := range s.Prefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// firewallOfIPConfig returns the firewall id of an Azure Firewall ip
// configuration id (…/azureFirewalls/{fw}/azureFirewallIpConfigurations/{c}),
// or "".
func firewallOfIPConfig(ipConfigID model.ResourceID) model.ResourceID {
	a, err := parseID(ipConfigID)
	if err != nil || !isType(a, "Microsoft.Network", "azureFirewalls", "azureFirewallIpConfigurations") {
		return ""
	}
	return ipConfigID.Parent()
}

// Firewall reads an Azure Firewall.
func (r *Reader) Firewall(ctx context.Context, id model.ResourceID) (*model.AzureFirewall, error) {
	return read(r, "azfw", id, permFirewallRead, func() (*model.AzureFirewall, error) {
		resp, err := networkGet(ctx, r, id, "azureFirewalls", func(f *armnetwork.ClientFactory, rg, name string) (armnetwork.AzureFirewallsClientGetResponse, error) {
			return f.NewAzureFirewallsClient().Get(ctx, rg, name, nil)
		})
		if err != nil {
			return nil, err
		}
		return firewallFromSDK(&resp.AzureFirewall)
	})
}

// firewallsInGroup lists the firewalls of the VNet's resource group whose
// ip configurations sit in that VNet.
func (r *Reader) firewallsInGroup(ctx context.Context, vnetID model.ResourceID) ([]*model.AzureFirewall, error) {
	a, err := parseTyped(vnetID, "Microsoft.Network", "virtualNetworks")
	if err != nil {
		return nil, err
	}
	coll := groupCollection(a.SubscriptionID, a.ResourceGroup, "Microsoft.Network", "azureFirewalls")
	list, err := read(r, "list", coll, permFirewallRead, func() ([]*armnetwork.AzureFirewall, error) {
		f, err := r.clients.Network(a.SubscriptionID)
		if err != nil {
			return nil, err
		}
		return collect(ctx, r, f.NewAzureFirewallsClient().NewListPager(a.ResourceGroup, nil),
			func(p armnetwork.AzureFirewallsClientListResponse) []*armnetwork.AzureFirewall { return p.Value })
	})
	if err != nil {
		return nil, err
	}
	var out []*model.AzureFirewall
	for _, raw := range list {
		fw, err := firewallFromSDK(raw)
		if err != nil {
			r.record(coll, permFirewallRead, err)
			continue
		}
		inVNet := false
		for _, s := range fw.SubnetIDs {
			inVNet = inVNet || s.Parent().Equal(vnetID)
		}
		if inVNet {
			prime(r, memoKey("azfw", fw.ID), fw)
			out = append(out, fw)
		}
	}
	return out, nil
}

// FirewallPolicy reads a firewall policy with its rule collection groups.
// When the groups cannot be listed (or one is malformed), the policy comes
// back with RuleCollectionGroupsKnown false and the gap is on the groups'
// collection (or on that group).
func (r *Reader) FirewallPolicy(ctx context.Context, id model.ResourceID) (*model.FirewallPolicy, error) {
	return once(r, memoKey("fwpolicy", id), func() (*model.FirewallPolicy, error) {
		p, err := read(r, "fwpolicy-get", id, permFirewallPolicyRead, func() (*model.FirewallPolicy, error) {
			resp, err := networkGet(ctx, r, id, "firewallPolicies", func(f *armnetwork.ClientFactory, rg, name string) (armnetwork.FirewallPoliciesClientGetResponse, error) {
				return f.NewFirewallPoliciesClient().Get(ctx, rg, name, nil)
			})
			if err != nil {
				return nil, err
			}
			return firewallPolicyFromSDK(&resp.FirewallPolicy)
		})
		if err != nil {
			return nil, err
		}
		out := *p
		groups, err := r.ruleCollectionGroups(ctx, id)
		if err == nil {
			out.RuleCollectionGroups, out.RuleCollectionGroupsKnown = groups, true
		}
		return &out, nil
	})
}

// ruleCollectionGroups lists a policy's rule collection groups.
func (r *Reader) ruleCollectionGroups(ctx context.Context, policy model.ResourceID) ([]model.FirewallRuleCollectionGroup, error) {
	coll := model.FirewallRuleCollectionGroupsID(policy)
	list, err := read(r, "list", coll, permRuleCollectionGroupRead, func() ([]*armnetwork.FirewallPolicyRuleCollectionGroup, error) {
		a, err := parseTyped(policy, "Microsoft.Network", "firewallPolicies")
		if err != nil {
			return nil, err
		}
		f, err := r.clients.Network(a.SubscriptionID)
		if err != nil {
			return nil, err
		}
		return collect(ctx, r, f.NewFirewallPolicyRuleCollectionGroupsClient().NewListPager(a.ResourceGroup, a.Names[0], nil),
			func(p armnetwork.FirewallPolicyRuleCollectionGroupsClientListResponse) []*armnetwork.FirewallPolicyRuleCollectionGroup {
				return p.Value
			})
	})
	if err != nil {
		return nil, err
	}
	out := make([]model.FirewallRuleCollectionGroup, 0, len(list))
	for _, g := range list {
		group, err := ruleCollectionGroupFromSDK(g)
		if err != nil {
			at := coll
			if g != nil && g.ID != nil {
				at = rid(g.ID)
			}
			r.record(at, permRuleCollectionGroupRead, err)
			return nil, err
		}
		out = append(out, group)
	}
	return out, nil
}

// policyChain reads a policy and its parents (basePolicy), the firewall's
// own first. It stops at a policy that cannot be read (a gap) and at a
// loop (which the evaluation reports).
func (r *Reader) policyChain(ctx context.Context, id model.ResourceID) []*model.FirewallPolicy {
	var out []*model.FirewallPolicy
	seen := map[string]bool{}
	for !id.IsZero() && !seen[id.Key()] && len(out) < maxPolicyChain {
		seen[id.Key()] = true
		p, err := r.FirewallPolicy(ctx, id)
		if err != nil {
			break
		}
		out = append(out, p)
		id = p.BasePolicyID
	}
	return out
}

// ipGroupsOf reads the IP groups the firewall's rules reference (classic
// rules, or every policy of the chain): those read, and the ids of all.
func (r *Reader) ipGroupsOf(ctx context.Context, fw *model.AzureFirewall, policies []*model.FirewallPolicy) ([]*model.IPGroup, []model.ResourceID) {
	var ids []model.ResourceID
	add := func(rules []model.FirewallRule) {
		for _, rule := range rules {
			for _, id := range rule.SourceIPGroupIDs {
				ids = appendUniqueID(ids, id)
			}
			for _, id := range rule.DestinationIPGroupIDs {
				ids = appendUniqueID(ids, id)
			}
		}
	}
	for _, c := range fw.NetworkRuleCollections {
		add(c.Rules)
	}
	for _, c := range fw.ApplicationRuleCollections {
		add(c.Rules)
	}
	for _, p := range policies {
		for _, g := range p.RuleCollectionGroups {
			for _, c := range g.Collections {
				add(c.Rules)
			}
		}
	}
	groups := make([]*model.IPGroup, len(ids))
	tasks := make([]func(context.Context), len(ids))
	for i, id := range ids {
		tasks[i] = func(ctx context.Context) { groups[i], _ = r.IPGroup(ctx, id) }
	}
	all(ctx, r, tasks...)
	var out []*model.IPGroup
	for _, g := range groups {
		if g != nil {
			out = append(out, g)
		}
	}
	return out, ids
}

// IPGroup reads an IP group.
func (r *Reader) IPGroup(ctx context.Context, id model.ResourceID) (*model.IPGroup, error) {
	return read(r, "ipgroup", id, permIPGroupRead, func() (*model.IPGroup, error) {
		resp, err := networkGet(ctx, r, id, "ipGroups", func(f *armnetwork.ClientFactory, rg, name string) (armnetwork.IPGroupsClientGetResponse, error) {
			return f.NewIPGroupsClient().Get(ctx, rg, name, nil)
		})
		if err != nil {
			return nil, err
		}
		g, err := ipGroupFromSDK(&resp.IPGroup)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", string(id), err)
		}
		return g, nil
	})
}
