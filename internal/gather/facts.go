package gather

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/authorization/armauthorization/v2"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// permRoleDefinitionRead is the action a GET of a role definition needs
// (custom roles held by the pull identity are judged by their definition).
const permRoleDefinitionRead = "Microsoft.Authorization/roleDefinitions/read"

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
//     that use Azure DNS (prefetchPoolDNS); beside all of it, once the
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
				func(ctx context.Context) { zones, zonesErr = r.PrivateZones(ctx, subs, names) },
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
		extra, err := r.PrivateZones(ctx, subs, more)
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
	for _, rs := range dnsView.resolvers {
		d.Resolvers[rs.ID.Key()] = rs
	}
	for _, rs := range dnsView.rulesets {
		d.Rulesets[rs.ID.Key()] = rs
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

// roleAssignmentsCollection is the id of the role assignment list of a
// scope, the resource id of its gap.
func roleAssignmentsCollection(scope model.ResourceID) model.ResourceID {
	return child(scope, "providers/Microsoft.Authorization/roleAssignments")
}

// pullRoles reads, when both a cluster and an ACR are verified, every role
// assignment that applies at the registry scope (not only the kubelet
// identity's: an assignment to a group the identity may be in, or the pull
// role given to the wrong identity, are part of the answer), and the
// definitions of the roles that the kubelet identity or a group holds there
// and that verification does not know by their built-in id. Nothing is
// read when the pull does not use the kubelet identity (anonymous pull, an
// imagePullSecret) or the registry allows anonymous pull.
func (r *Reader) pullRoles(ctx context.Context, f *model.Facts) {
	if f.Registry == nil || f.Cluster == nil || len(f.Pools) == 0 || f.Registry.AnonymousPullEnabled ||
		f.PullCredentials.OrDefault() != model.PullKubeletIdentity || strings.TrimSpace(f.Cluster.Kubelet.ObjectID) == "" {
		return
	}
	list, err := r.roleAssignmentsAt(ctx, f.Registry.ID)
	if err != nil {
		coll := roleAssignmentsCollection(f.Registry.ID)
		g, ok := r.Gaps().Lookup(coll)
		if !ok { // a failure before the read (a cancelled context)
			g = r.record(coll, permRoleAssignmentRead, err)
		}
		f.RoleAssignmentsGap = &g
		return
	}
	f.RoleAssignments = list
	var defs []model.ResourceID
	for _, a := range list {
		relevant := strings.EqualFold(a.PrincipalID, f.Cluster.Kubelet.ObjectID) || strings.EqualFold(a.PrincipalType, "Group")
		if relevant && !a.RoleDefinitionID.IsZero() && !model.KnownRole(a.RoleDefinitionID) {
			defs = appendUniqueID(defs, a.RoleDefinitionID)
		}
	}
	got, _ := mapEach(ctx, r, defs, r.roleDefinition)
	for _, def := range got {
		if def != nil {
			f.RoleDefinitions[strings.ToLower(def.ID.Name())] = def
		}
	}
}

// roleAssignmentsAt lists every role assignment ARM returns for a scope:
// at it, above it (inherited) and below it.
func (r *Reader) roleAssignmentsAt(ctx context.Context, scope model.ResourceID) ([]model.RoleAssignment, error) {
	coll := roleAssignmentsCollection(scope)
	return read(r, "roleassignments-all", coll, permRoleAssignmentRead, func() ([]model.RoleAssignment, error) {
		fac, err := r.clients.Authorization(scope.Subscription())
		if err != nil {
			return nil, err
		}
		list, err := collect(ctx, r, fac.NewRoleAssignmentsClient().NewListForScopePager(strings.TrimLeft(string(scope), "/"), nil),
			func(p armauthorization.RoleAssignmentsClientListForScopeResponse) []*armauthorization.RoleAssignment {
				return p.Value
			})
		if err != nil {
			return nil, err
		}
		out := make([]model.RoleAssignment, 0, len(list))
		for _, ra := range list {
			out = append(out, roleAssignmentFromSDK(ra))
		}
		return out, nil
	})
}

// roleDefinition reads a role definition by its id.
func (r *Reader) roleDefinition(ctx context.Context, id model.ResourceID) (*model.RoleDefinition, error) {
	return read(r, "roledefinition", id, permRoleDefinitionRead, func() (*model.RoleDefinition, error) {
		fac, err := r.clients.Authorization(id.Subscription())
		if err != nil {
			return nil, err
		}
		release, err := r.acquire(ctx)
		if err != nil {
			return nil, err
		}
		resp, err := fac.NewRoleDefinitionsClient().GetByID(ctx, strings.TrimLeft(string(id), "/"), nil)
		release()
		if err != nil {
			return nil, err
		}
		return roleDefinitionFromSDK(id, &resp.RoleDefinition), nil
	})
}

// roleDefinitionFromSDK converts a role definition's permission blocks.
func roleDefinitionFromSDK(id model.ResourceID, d *armauthorization.RoleDefinition) *model.RoleDefinition {
	out := &model.RoleDefinition{ID: id}
	if d.ID != nil {
		out.ID = rid(d.ID)
	}
	strs := func(in []*string) []string {
		var s []string
		for _, p := range in {
			if v := str(p); v != "" {
				s = append(s, v)
			}
		}
		return s
	}
	if p := d.Properties; p != nil {
		out.RoleName, out.Type = str(p.RoleName), str(p.RoleType)
		for _, perm := range p.Permissions {
			if perm == nil {
				continue
			}
			out.Permissions = append(out.Permissions, model.RolePermission{
				Actions: strs(perm.Actions), NotActions: strs(perm.NotActions),
				DataActions: strs(perm.DataActions), NotDataActions: strs(perm.NotDataActions),
			})
		}
	}
	return out
}

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
	keys := make([]string, 0, len(d.Zones))
	for k := range d.Zones {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		z := d.Zones[k]
		recs := make([]string, 0, len(z.Records))
		for name := range z.Records {
			recs = append(recs, name)
		}
		sort.Strings(recs)
		for _, name := range recs {
			rs := z.Records[name]
			if rs == nil || rs.CNAME == "" {
				continue
			}
			for _, s := range domainSuffixes(rs.CNAME) {
				if !seen[s] {
					seen[s] = true
					out = append(out, s)
				}
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

// poolSubnets are the pools' subnets, each once: the seeds of the network
// closure.
func poolSubnets(pools []*model.NodePool) []model.ResourceID {
	var seeds []model.ResourceID
	for _, p := range pools {
		if !p.SubnetID.IsZero() {
			seeds = appendUniqueID(seeds, p.SubnetID)
		}
	}
	return seeds
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
				list, _ := r.Rulesets(ctx, id)
				mu.Lock()
				defer mu.Unlock()
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
	keys := make([]string, 0, len(d.Zones))
	for k := range d.Zones {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		z := d.Zones[k]
		names := make([]string, 0, len(z.Records))
		for name := range z.Records {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if rs := z.Records[name]; rs != nil && strings.EqualFold(rs.Type, "A") {
				out = append(out, rs.Addrs...)
			}
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
