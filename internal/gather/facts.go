package gather

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// VerificationRequest is what pullpath_verification verifies: the nodes
// (a cluster's pools, or bare subnets) and the registry (an Azure Container
// Registry, or declared hosts).
type VerificationRequest struct {
	// ClusterID is the AKS cluster whose node pools are verified. Exactly
	// one of ClusterID and NodeSubnetIDs is set.
	ClusterID model.ResourceID
	// NodeSubnetIDs stand for nodes that are not (yet) an AKS cluster: each
	// subnet is verified as one pool named after it, without a pull
	// identity.
	NodeSubnetIDs []model.ResourceID
	// NodePools restricts a cluster's pools to these names (compared
	// case-insensitively); empty means every pool. A name the cluster does
	// not have becomes a not_found gap on …/agentPools/{name}.
	NodePools []string

	// RegistryID is the Azure Container Registry. Exactly one of RegistryID
	// and Declared is set.
	RegistryID model.ResourceID
	// Declared is a registry other than ACR: its hosts and, optionally,
	// their addresses.
	Declared *model.DeclaredRegistry

	// ZoneSubscriptionIDs are the subscriptions the configuration names as
	// holding the private DNS zones (zone_subscription_ids), for
	// identities that may not use Azure Resource Graph. When set, their zone
	// lists are searched besides the cluster's (or node subnets'), the
	// registry's and its private endpoints', and Resource Graph is not
	// asked; when empty, Resource Graph finds the zones linked to the node
	// VNets in every subscription the identity can read.
	ZoneSubscriptionIDs []string
	// Cloud names the registry and private link domains; the zero value
	// derives them from the login server (public cloud by default).
	Cloud model.Cloud
	// PullCredentials is how the nodes authenticate to the registry; empty
	// means the kubelet identity. Role assignments are read only for the
	// kubelet identity.
	PullCredentials model.PullCredentials
	// Acceptances are the accept blocks, passed to the facts unchanged:
	// nothing is read for them.
	Acceptances model.Acceptances
}

// Validate rejects a request that names neither or both of a pair. The data
// source's validators catch these earlier; this guards other callers.
func (q VerificationRequest) Validate() error {
	var errs []error
	if q.ClusterID.IsZero() == (len(q.NodeSubnetIDs) == 0) {
		errs = append(errs, errors.New("exactly one of a cluster id and node subnet ids is needed"))
	}
	if q.RegistryID.IsZero() == (q.Declared == nil) {
		errs = append(errs, errors.New("exactly one of a registry id and declared registry hosts is needed"))
	}
	if q.Declared != nil && len(q.Declared.Hosts) == 0 {
		errs = append(errs, errors.New("a declared registry needs at least one host"))
	}
	if !slices.Contains(model.PullCredentialsValues, q.PullCredentials.OrDefault()) {
		errs = append(errs, fmt.Errorf("pull credentials %q are none of kubelet_identity, image_pull_secret and anonymous", q.PullCredentials))
	}
	return errors.Join(errs...)
}

// VerificationFacts gathers everything the pull chain of the request
// depends on, for verify.Run:
//
//  1. the cluster (pools with their subnets, kubelet identity), then the
//     pools' nodes (scale sets, VMs, NICs) ∥ the network closure of the
//     pool subnets (Network) ∥ the forwarding rulesets of the node VNets
//     that use Azure DNS (prefetchPoolDNS) ∥ the security admin rules in
//     effect on the node VNets (prefetchAdminRules); beside all of it, once the
//     registry shows a private zone can answer, the Resource Graph search
//     for the links of the zones in the registry's domain (zoneSearch);
//     beside all of it
//  2. the registry (replicas, private endpoint connections), then, once
//     the pools are known, the registry's private endpoints wherever they
//     are ∥ the role assignments at the registry scope, with the
//     definitions of roles verification does not know by id ∥ the private
//     DNS zones of the names a pull resolves, in the zone subscriptions;
//     then the node NICs with effective routes where Azure has them, the
//     scale sets' security groups, and the Azure Firewalls the node
//     subnets route public addresses to, with their policies and IP
//     groups;
//  3. DNS: the resolvers and forwarding rulesets of every VNet whose Azure
//     DNS answers the nodes (the node VNet, the VNet of a private resolver
//     inbound endpoint they use or a forwarding rule sends to), the VMs
//     behind custom DNS server addresses, the zones linked to those VNets
//     in any subscription (Azure Resource Graph, unless the zone
//     subscriptions are named), the zones the private endpoints' zone
//     groups name (ZoneByID, any subscription) and zones that CNAME records
//     lead to;
//  4. for a registry that admits listed IP ranges only, the public
//     addresses the nodes may leave through (egressAddresses);
//  5. the service tags, when a security rule, a user-defined route or a
//     service endpoint of the network names one (IncludeServiceTags).
//
// Evidence only some paths need is left pending in Network.Pending (see
// Network and ReadEvidence): the caller evaluates, reads what the paths
// reached with ReadVerificationEvidence, and evaluates again.
//
// Independent reads run concurrently and nothing is read twice (the Reader
// memoises). Resources in other subscriptions are read like any other. A
// read that fails is a gap in the facts (and becomes an evidence finding),
// never a guess and never an error: the cluster or registry itself included.
// The error is non-nil only for an unusable request or when ctx ended (the
// read timeout), with the facts gathered so far.
func (r *Reader) VerificationFacts(ctx context.Context, q VerificationRequest) (model.Facts, error) {
	if err := q.Validate(); err != nil {
		return model.Facts{}, err
	}
	// The Resource Graph search for zone links (zonesearch.go) is asked
	// beside everything else as soon as it is known to be needed, and
	// answered for the VNets once they are known.
	search := newZoneSearch(q)
	var (
		f   model.Facts
		err error
	)
	all(ctx, r,
		func(ctx context.Context) {
			defer search.close()
			f, err = r.verificationFacts(ctx, q, search)
		},
		func(ctx context.Context) { search.run(ctx, r) },
	)
	return f, err
}

// verificationFacts is VerificationFacts beside the early zone search.
func (r *Reader) verificationFacts(ctx context.Context, q VerificationRequest, search *zoneSearch) (model.Facts, error) {
	f := model.Facts{Cloud: q.Cloud, Declared: q.Declared, PullCredentials: q.PullCredentials.OrDefault(), Acceptances: q.Acceptances, RoleDefinitions: map[string]*model.RoleDefinition{}}

	// 1 ∥ 2. The nodes' side: the cluster (its pools and their subnets),
	// then the pools' nodes ∥ the network closure of their subnets. The
	// registry's side: the registry, then — once the pools are known too
	// (the pull identity, the subscriptions to search zones in) — its
	// private endpoints ∥ role assignments ∥ zones. Neither side waits for
	// the other's reads: the closure starts as soon as the cluster names
	// the subnets.
	var (
		cluster  *model.Cluster
		n        *model.Network
		pes      []*model.PrivateEndpoint
		zones    []*model.PrivateZone
		zonesErr error
		dnsView  *dnsDiscovery
		names    []string
		subs     []string
		// proxyPool stands for the cluster's HTTPS proxy where gather
		// found its NIC: its network is read like a pool's.
		proxyPool *model.NodePool
	)
	poolsKnown := make(chan struct{})
	all(ctx, r,
		func(ctx context.Context) {
			if !q.ClusterID.IsZero() {
				cluster, _ = r.clusterPools(ctx, q.ClusterID)
				f.Cluster, f.Pools = r.selectPools(q.ClusterID, cluster, q.NodePools)
			} else {
				f.Pools = subnetPools(q.NodeSubnetIDs)
			}
			// From here on the registry's side reads f.Cluster and
			// f.Pools (and the pools' subnets); clusterNodes changes only
			// the pools' node fields. With a width of 1 this function runs
			// first, so the other one never waits for nothing.
			close(poolsKnown)
			seeds := poolSubnets(f.Pools)
			all(ctx, r,
				func(ctx context.Context) {
					if cluster != nil {
						r.clusterNodes(ctx, q.ClusterID, cluster)
					}
				},
				func(ctx context.Context) { r.prefetchPoolDNS(ctx, seeds) },
				func(ctx context.Context) { r.prefetchAdminRules(ctx, seeds) },
				func(ctx context.Context) {
					n = model.NewNetwork()
					if len(seeds) > 0 {
						n, _ = r.Network(ctx, seeds)
						n, f.Proxy, proxyPool = r.proxyHost(ctx, n, f.Cluster, seeds)
					}
				},
			)
		},
		func(ctx context.Context) {
			if !q.RegistryID.IsZero() {
				f.Registry, _ = r.Registry(ctx, q.RegistryID)
			}
			<-poolsKnown
			search.known(privateAnswerPossible(&f), poolSubnets(f.Pools))
			names = dnsNames(&f)
			subs = r.zoneSubscriptions(&f, q)
			all(ctx, r,
				func(ctx context.Context) { pes = r.registryPrivateEndpoints(ctx, f.Registry) },
				func(ctx context.Context) { r.pullRoles(ctx, &f) },
				func(ctx context.Context) { zones, zonesErr = r.PrivateZones(zoneListContext(ctx, q), subs, names) },
			)
		},
	)
	// Then what the nodes add to the network.
	netPools := f.Pools
	if proxyPool != nil {
		netPools = append(append([]*model.NodePool(nil), f.Pools...), proxyPool)
	}
	dnsView = r.nodeNetwork(ctx, n, netPools, names)
	for _, pe := range pes {
		n.PrivateEndpoints[pe.ID.Key()] = pe
		for _, nicID := range pe.NICIDs {
			if nic, err := r.NIC(ctx, nicID); err == nil {
				n.NICs[nic.ID.Key()] = nic
			}
		}
	}
	// Private endpoints and resolver inbound endpoints outside the closure
	// may be in spokes of another virtual hub: read with it when a path
	// needs them (vwan_remote.go).
	markRemoteEndpoints(n, f.Registry, pes)
	markRemoteResolvers(n, dnsView.searched)

	// 3. Zones the private endpoints' zone groups name that the search did
	// not find (another subscription, another name), then zones CNAME
	// records lead to.
	d := model.NewDNS()
	for _, z := range zones {
		d.Zones[z.ID.Key()] = z
	}
	linked := r.linkedZones(ctx, d, &f, q, search, dnsView.azureVNets, names, subs)
	r.zoneGroupZones(ctx, d, n, f.Registry)
	for range maxDNSRounds {
		more := cnameNames(d, names)
		if len(more) == 0 {
			break
		}
		names = append(names, more...)
		extra, err := r.PrivateZones(zoneListContext(ctx, q), subs, more)
		zonesErr = errors.Join(zonesErr, err)
		for _, z := range extra {
			d.Zones[z.ID.Key()] = z
		}
		r.readLinkedZonesNamed(ctx, d, linked, more)
	}
	// Reads made before it was known whether the verification needs them
	// (the node VNets' forwarding rulesets, the zone search) whose failure
	// no conclusion can use.
	n.SpeculativeReads = append(n.SpeculativeReads, r.unneededPrefetches(ctx, poolSubnets(f.Pools), dnsView)...)
	if search.settle(d) {
		n.SpeculativeReads = append(n.SpeculativeReads, ResourceGraphQuery)
	}
	d.ZoneSearchComplete = zonesErr == nil
	// The public addresses the nodes leave through, when the registry
	// admits listed ranges only.
	if f.Registry != nil && f.Registry.IPRulesApply() {
		r.egressAddresses(ctx, n, f.Cluster, netPools)
	}
	// The NICs behind the addresses a pull may connect to that are not
	// private endpoints (a registry VM named by a zone record or declared
	// in the configuration): their security groups decide inbound flows.
	r.IncludeNICsAt(ctx, n, registryAddresses(d, q.Declared))
	// Last: every security group and route table of the paths is in n now.
	r.IncludeServiceTags(ctx, n)
	r.IncludeAdminRules(ctx, n, poolSubnets(netPools))
	for _, rs := range dnsView.resolvers {
		d.Resolvers[rs.ID.Key()] = rs
	}
	for _, rs := range dnsView.rulesets {
		d.Rulesets[rs.ID.Key()] = rs
	}
	d.Policies = map[string]*model.VNetDNSPolicies{}
	for k, p := range dnsView.policies {
		d.Policies[k] = p
	}
	for k, l := range dnsView.lists {
		d.DomainLists[k] = l
	}
	for a, g := range dnsView.searchGaps {
		d.AddResolverSearchGap(a, g)
	}

	gaps := r.Gaps()
	n.Gaps, d.Gaps, f.Gaps = gaps, gaps, gaps
	f.Network, f.DNS = n, d
	if f.RoleAssignmentsGap == nil && f.Registry != nil {
		if g, ok := gaps.Lookup(roleAssignmentsCollection(f.Registry.ID)); ok {
			f.RoleAssignmentsGap = &g
		}
	}
	if err := ctx.Err(); err != nil {
		return f, fmt.Errorf("gathering the facts of the pull path: %w", err)
	}
	return f, nil
}

// maxDNSRounds bounds the rounds of following CNAME targets into further
// zones (a chain longer than this is a loop verification reports).
const maxDNSRounds = 4

// selectPools returns the cluster for the facts and its pools after the
// node_pools filter. An unreadable cluster (its gap is recorded) stands as
// an id-only cluster without pools, so that the verdict is unverified by
// that gap; a filtered name the cluster lacks is a not_found gap.
func (r *Reader) selectPools(id model.ResourceID, cl *model.Cluster, filter []string) (*model.Cluster, []*model.NodePool) {
	if cl == nil {
		return &model.Cluster{ID: id, Name: id.Name()}, nil
	}
	if len(filter) == 0 {
		return cl, append([]*model.NodePool(nil), cl.Pools...)
	}
	var pools []*model.NodePool
	var have []string
	for _, p := range cl.Pools {
		have = append(have, p.Name)
	}
	sort.Strings(have)
	for _, name := range uniqueFold(filter) {
		var found *model.NodePool
		for _, p := range cl.Pools {
			if strings.EqualFold(p.Name, name) {
				found = p
				break
			}
		}
		if found != nil {
			pools = append(pools, found)
			continue
		}
		r.gapsMu.Lock()
		r.gaps.Add(model.Gap{
			ResourceID: child(cl.ID, "agentPools/"+name),
			Kind:       model.GapNotFound,
			Permission: permAgentPoolRead,
			Detail:     fmt.Sprintf("node_pools names %s, but cluster %s has no such pool; its pools are %s", name, cl.Name, strings.Join(have, ", ")),
		})
		r.gapsMu.Unlock()
	}
	return cl, pools
}

// subnetPools is one pool per node subnet, named after the subnet (with
// its VNet's name when two subnets share a name).
func subnetPools(subnets []model.ResourceID) []*model.NodePool {
	count := map[string]int{}
	var uniq []model.ResourceID
	for _, s := range subnets {
		if s.IsZero() {
			continue
		}
		dup := false
		for _, u := range uniq {
			dup = dup || u.Equal(s)
		}
		if !dup {
			uniq = append(uniq, s)
			count[strings.ToLower(s.Name())]++
		}
	}
	pools := make([]*model.NodePool, 0, len(uniq))
	for _, s := range uniq {
		name := s.Name()
		if count[strings.ToLower(name)] > 1 {
			name = s.Parent().Name() + "/" + name
		}
		pools = append(pools, &model.NodePool{Name: name, SubnetID: s})
	}
	return pools
}

// dnsNames are the names whose private DNS zones can answer a pull: every
// host a pull touches, the private link alias of each registry name, and
// every parent domain of those (Azure DNS answers from the most specific
// linked zone whose name is a suffix of the query: a zone per
// <region>.data.privatelink.azurecr.io works as well as one
// privatelink.azurecr.io, and a private zone azurecr.io would capture all).
func dnsNames(f *model.Facts) []string {
	hosts := f.HostNames()
	var out []string
	seen := map[string]bool{}
	add := func(name string) {
		for _, s := range domainSuffixes(name) {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	cloud := f.RegistryCloud()
	for _, h := range hosts {
		h = strings.TrimPrefix(h, "*.")
		add(h)
		suffix := "." + cloud.RegistrySuffix
		if strings.HasSuffix(h, suffix) && !strings.HasSuffix(h, "."+cloud.PrivateLinkZone) {
			add(strings.TrimSuffix(h, suffix) + "." + cloud.PrivateLinkZone)
		}
	}
	return out
}

// domainSuffixes returns name and its parent domains down to two labels
// (a private DNS zone name has at least two), lower case, without a
// trailing dot.
func domainSuffixes(name string) []string {
	name = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(name)), ".")
	labels := strings.Split(name, ".")
	var out []string
	for i := 0; i+2 <= len(labels); i++ {
		if s := strings.Join(labels[i:], "."); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// zoneSubscriptions are the subscriptions to search private DNS zones in:
// the cluster's (or the node subnets'), the registry's, its private
// endpoints' and the extra ones requested.
func (r *Reader) zoneSubscriptions(f *model.Facts, q VerificationRequest) []string {
	var subs []string
	subs = append(subs, q.ClusterID.Subscription())
	for _, s := range q.NodeSubnetIDs {
		subs = append(subs, s.Subscription())
	}
	for _, p := range f.Pools {
		subs = append(subs, p.SubnetID.Subscription())
	}
	subs = append(subs, q.RegistryID.Subscription())
	if f.Registry != nil {
		for _, c := range f.Registry.PrivateEndpointConnections {
			subs = append(subs, c.PrivateEndpointID.Subscription())
		}
	}
	subs = append(subs, q.ZoneSubscriptionIDs...)
	return uniqueFold(subs)
}

// registryPrivateEndpoints reads the private endpoints the registry's
// connections name, wherever they are (the network closure finds only
// those in the nodes' VNets and their peers), with their NICs.
func (r *Reader) registryPrivateEndpoints(ctx context.Context, reg *model.Registry) []*model.PrivateEndpoint {
	if reg == nil {
		return nil
	}
	var ids []model.ResourceID
	for _, c := range reg.PrivateEndpointConnections {
		if !c.PrivateEndpointID.IsZero() {
			ids = appendUniqueID(ids, c.PrivateEndpointID)
		}
	}
	out, _ := mapEach(ctx, r, ids, func(ctx context.Context, id model.ResourceID) (*model.PrivateEndpoint, error) {
		pe, err := r.PrivateEndpoint(ctx, id)
		if err != nil {
			return nil, err
		}
		for _, nicID := range pe.NICIDs {
			_, _ = r.NIC(ctx, nicID)
		}
		return pe, nil
	})
	var kept []*model.PrivateEndpoint
	for _, pe := range out {
		if pe != nil {
			kept = append(kept, pe)
		}
	}
	return kept
}

// poolSubnets are the pools' subnets, each once: the seeds of the network
// closure.
func poolSubnets(pools []*model.NodePool) []model.ResourceID {
	return idsOf(pools, func(p *model.NodePool) model.ResourceID { return p.SubnetID })
}

// nodeNetwork adds to the network closure of the pools' subnets (n) the
// pools' NICs (with effective routes where Azure has them) and security
// groups, and then reads what the nodes' DNS servers are (dnsDiscovery),
// adding DNS server VMs to the network. The pools' nodes must be read.
func (r *Reader) nodeNetwork(ctx context.Context, n *model.Network, pools []*model.NodePool, names []string) *dnsDiscovery {
	var nics, nsgs []model.ResourceID
	for _, p := range pools {
		for _, id := range p.NICIDs {
			nics = appendUniqueID(nics, id)
		}
		if !p.NSGID.IsZero() {
			nsgs = appendUniqueID(nsgs, p.NSGID)
		}
	}
	disc := &dnsDiscovery{resolvers: map[string]*model.Resolver{}, rulesets: map[string]*model.Ruleset{}, searchGaps: map[netip.Addr]model.Gap{}, searched: map[netip.Addr]model.ResourceID{}}
	seeds := poolSubnets(pools)
	if len(seeds) == 0 {
		return disc
	}
	// One after the other: each fans out on its own, and both write n
	// under locks of their own.
	r.IncludeNICs(ctx, n, nics, true)
	r.IncludeSecurityGroups(ctx, n, nsgs)
	r.IncludeFirewalls(ctx, n, seeds)
	r.discoverDNS(ctx, n, pools, names, disc)
	n.Gaps = r.Gaps()
	return disc
}
