package gather

import (
	"context"
	"maps"
	"net/netip"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// zoneGroupZones adds the zones the registry's private endpoints keep their
// records in (their private DNS zone groups) that the search did not find.
func (r *Reader) zoneGroupZones(ctx context.Context, d *model.DNS, n *model.Network, reg *model.Registry) {
	if reg == nil {
		return
	}
	var ids []model.ResourceID
	for _, pe := range n.PrivateEndpoints {
		targets := false
		for _, c := range pe.Connections {
			targets = targets || c.TargetID.Equal(reg.ID)
		}
		if !targets {
			continue
		}
		for _, zg := range pe.ZoneGroups {
			if !zg.ZoneID.IsZero() && d.Zones[zg.ZoneID.Key()] == nil {
				ids = appendUniqueID(ids, zg.ZoneID)
			}
		}
	}
	got, _ := mapEach(ctx, r, ids, r.ZoneByID)
	for _, z := range got {
		if z != nil {
			d.Zones[z.ID.Key()] = z
		}
	}
}

// cnameNames are the domain suffixes of CNAME targets in the zones that are
// not among names yet.
func cnameNames(d *model.DNS, names []string) []string {
	seen := map[string]bool{}
	for _, n := range names {
		seen[n] = true
	}
	var out []string
	for _, rs := range recordSets(d) {
		if rs.CNAME == "" {
			continue
		}
		for _, s := range domainSuffixes(rs.CNAME) {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// recordSets are the record sets of d's zones in a fixed order: zones by
// id key, then record sets by name.
func recordSets(d *model.DNS) []*model.RecordSet {
	var out []*model.RecordSet
	for _, k := range slices.Sorted(maps.Keys(d.Zones)) {
		z := d.Zones[k]
		for _, name := range slices.Sorted(maps.Keys(z.Records)) {
			if rs := z.Records[name]; rs != nil {
				out = append(out, rs)
			}
		}
	}
	return out
}

// dnsDiscovery is what the nodes' resolvers are made of: the DNS private
// resolvers and forwarding rulesets that decide their answers.
type dnsDiscovery struct {
	resolvers map[string]*model.Resolver
	rulesets  map[string]*model.Ruleset
	// policies are the DNS security policies linked to each VNet whose
	// Azure DNS answers the nodes (by VNet key; a failed list has no
	// entry), and lists the domain lists their rules name that were read.
	policies map[string]*model.VNetDNSPolicies
	lists    map[string]*model.DNSDomainList
	// azureVNets are the VNets whose Azure DNS answers the nodes, sorted
	// by id: the zones linked to them decide the answers.
	azureVNets []model.ResourceID
	// searchGaps are the DNS server addresses in no VNet read whose
	// Resource Graph search for resolver inbound endpoints failed
	// (resolversearch.go).
	searchGaps map[netip.Addr]model.Gap
	// searched are the addresses in no VNet read that the search found at
	// an inbound endpoint of a resolver read, with that resolver's VNet:
	// a spoke of another virtual hub, maybe (vwan_remote.go).
	searched map[netip.Addr]model.ResourceID
}

// discoverDNS reads what decides the nodes' name resolution. Azure DNS
// (168.63.129.16) answers a VNet from the zones linked to it after the
// forwarding rulesets linked to it: for each VNet whose Azure DNS the nodes
// reach — their own, the VNet of a resolver inbound endpoint they use as
// DNS server or that a relevant forwarding rule sends to — the rulesets are
// read. A custom DNS server address in a VNet of the closure is looked up
// among that VNet's resolvers' inbound endpoints, else among its NICs (a
// DNS server VM, added to the network with its security group). Reads
// happen only for what the nodes use, so a failure is always a gap that
// matters.
func (r *Reader) discoverDNS(ctx context.Context, n *model.Network, pools []*model.NodePool, names []string, disc *dnsDiscovery) {
	var mu sync.Mutex
	azureVNets := map[string]model.ResourceID{}
	servers := map[netip.Addr]bool{}
	for _, p := range pools {
		subnet := n.Subnet(p.SubnetID)
		if subnet == nil {
			continue
		}
		vnet := n.VNet(subnet.VNetID)
		if vnet == nil {
			vnet = n.VNet(p.SubnetID.Parent())
		}
		if vnet == nil {
			continue
		}
		dns := model.PoolDNSServers(p, vnet, n)
		if dns.Unknown != nil {
			// The VNet's DNS servers are known only after apply (they may
			// be none): what Azure DNS answers from it is read, so that
			// the reads stay those of the network without the plan, and a
			// failed one is named.
			azureVNets[vnet.ID.Key()] = vnet.ID
		}
		for _, a := range dns.Servers {
			if a == model.AzureDNS {
				azureVNets[vnet.ID.Key()] = vnet.ID
			} else {
				servers[a] = true
			}
		}
	}

	doneVNets := map[string]bool{}
	doneAddrs := map[netip.Addr]bool{}
	// unexplained are the addresses of a round that lie in no VNet read:
	// Resource Graph is asked, once per round, for the resolver inbound
	// endpoints holding them (resolversearch.go).
	var unexplained []netip.Addr
	searchUnexplained := func(ctx context.Context) {
		mu.Lock()
		addrs := unexplained
		unexplained = nil
		mu.Unlock()
		for _, rs := range r.searchResolvers(ctx, addrs, disc, &mu) {
			mu.Lock()
			azureVNets[rs.VNetID.Key()] = rs.VNetID
			mu.Unlock()
		}
	}
	// inbound finds the resolver inbound endpoint at addr, reading the
	// resolvers of the closure VNet that holds the address.
	inbound := func(ctx context.Context, addr netip.Addr) (*model.Resolver, *model.VNet) {
		v := vnetHolding(n, addr)
		if v == nil {
			mu.Lock()
			unexplained = append(unexplained, addr)
			mu.Unlock()
			return nil, nil
		}
		list, _ := r.Resolvers(ctx, v.ID)
		mu.Lock()
		defer mu.Unlock()
		for _, rs := range list {
			disc.resolvers[rs.ID.Key()] = rs
		}
		for _, rs := range list {
			for _, in := range rs.Inbound {
				if in.Address == addr {
					return rs, v
				}
			}
		}
		return nil, v
	}
	for round := 0; round < maxDNSRounds*2; round++ {
		var tasks []func(context.Context)
		var newVNets []model.ResourceID
		for key, id := range azureVNets {
			if !doneVNets[key] {
				doneVNets[key] = true
				newVNets = append(newVNets, id)
			}
		}
		var newAddrs []netip.Addr
		for a := range servers {
			if !doneAddrs[a] {
				doneAddrs[a] = true
				newAddrs = append(newAddrs, a)
			}
		}
		if len(newVNets) == 0 && len(newAddrs) == 0 {
			break
		}
		var targets []netip.Addr
		for _, id := range newVNets {
			tasks = append(tasks, func(ctx context.Context) {
				// The DNS security policy linked to the VNet filters the
				// queries its Azure DNS answers; its rulesets forward
				// them. Both asked at once (azureDNSOf), then taken from
				// memory.
				r.azureDNSOf(ctx, id)
				pol, _ := r.DNSPolicies(ctx, id)
				list, _ := r.Rulesets(ctx, id)
				mu.Lock()
				defer mu.Unlock()
				if pol.Linked != nil {
					if disc.policies == nil {
						disc.policies = map[string]*model.VNetDNSPolicies{}
						disc.lists = map[string]*model.DNSDomainList{}
					}
					disc.policies[id.Key()] = pol.Linked
					for _, l := range pol.Lists {
						disc.lists[l.ID.Key()] = l
					}
				}
				for _, rs := range list {
					disc.rulesets[rs.ID.Key()] = rs
					for _, rule := range rs.Rules {
						if rule.Enabled && ruleCovers(rule, names) {
							for _, t := range rule.Targets {
								targets = append(targets, t.Addr())
							}
						}
					}
				}
			})
		}
		var proxied []netip.Addr
		for _, a := range newAddrs {
			tasks = append(tasks, func(ctx context.Context) {
				// An Azure Firewall's address: its DNS proxy answers
				// (firewall_dns.go), as Azure DNS from its VNet or by
				// forwarding to its servers.
				if fw := r.dnsFirewallAt(ctx, n, &mu, a); fw != nil {
					vnet, servers := proxyTargets(n, &mu, fw)
					mu.Lock()
					defer mu.Unlock()
					if !vnet.IsZero() {
						azureVNets[vnet.Key()] = vnet
					}
					proxied = append(proxied, servers...)
					return
				}
				rs, v := inbound(ctx, a)
				switch {
				case rs != nil:
					mu.Lock()
					azureVNets[rs.VNetID.Key()] = rs.VNetID
					mu.Unlock()
				case v != nil:
					r.includeNICAt(ctx, n, &mu, v, a)
				}
			})
		}
		all(ctx, r, tasks...)
		searchUnexplained(ctx)
		for _, a := range proxied {
			servers[a] = true
		}
		// Forwarding targets: a resolver inbound endpoint continues the
		// query as Azure DNS in its VNet; anything else ends the lookup
		// there (verification says so), so nothing more is read for it.
		var more []func(context.Context)
		for _, t := range targets {
			if doneAddrs[t] || servers[t] {
				continue
			}
			doneAddrs[t] = true
			more = append(more, func(ctx context.Context) {
				if rs, _ := inbound(ctx, t); rs != nil {
					mu.Lock()
					azureVNets[rs.VNetID.Key()] = rs.VNetID
					mu.Unlock()
				}
			})
		}
		all(ctx, r, more...)
		searchUnexplained(ctx)
	}
	for _, id := range azureVNets {
		disc.azureVNets = append(disc.azureVNets, id)
	}
	sort.Slice(disc.azureVNets, func(i, j int) bool { return disc.azureVNets[i].Key() < disc.azureVNets[j].Key() })
}

// vnetHolding is the VNet of the network whose address space holds addr
// (a VNet connected to the same Virtual WAN hub included).
func vnetHolding(n *model.Network, addr netip.Addr) *model.VNet {
	keys := make([]string, 0, len(n.VNets))
	for k := range n.VNets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if n.HubByVNet(n.VNets[k].ID) != nil {
			continue // a Virtual WAN hub's VNet: Microsoft's, never read
		}
		for _, p := range n.VNets[k].AddressSpace {
			if p.Contains(addr) {
				return n.VNets[k]
			}
		}
	}
	return nil
}

// ruleCovers reports whether a forwarding rule applies to one of names:
// its domain is the name or a parent of it, or it is the wildcard rule
// ".", which covers every name.
func ruleCovers(rule model.ForwardingRule, names []string) bool {
	for _, n := range names {
		if rule.Covers(n) {
			return true
		}
	}
	return false
}

// registryAddresses are the addresses a pull may connect to as the DNS
// zones and the configuration know them: every A record of the zones read
// (they were read for the names a pull resolves) and the declared
// addresses, in a stable order.
func registryAddresses(d *model.DNS, declared *model.DeclaredRegistry) []netip.Addr {
	var out []netip.Addr
	for _, rs := range recordSets(d) {
		if strings.EqualFold(rs.Type, "A") {
			out = append(out, rs.Addrs...)
		}
	}
	if declared != nil {
		hosts := make([]string, 0, len(declared.Addresses))
		for h := range declared.Addresses {
			hosts = append(hosts, h)
		}
		sort.Strings(hosts)
		for _, h := range hosts {
			out = append(out, declared.Addresses[h])
		}
	}
	return out
}
