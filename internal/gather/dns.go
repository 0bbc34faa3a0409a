package gather

import (
	"context"
	"fmt"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/dnsresolver/armdnsresolver"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/privatedns/armprivatedns"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// PrivateZones returns the private DNS zones with the given names (e.g.
// privatelink.azurecr.io) in the given subscriptions, each with its
// virtual network links and its A, AAAA and CNAME record sets. Zones are
// found by listing each subscription's zones (one read per subscription,
// memoised). When some subscription's list cannot be read, the zones found
// elsewhere are returned with an error: the search is then incomplete (set
// model.DNS.ZoneSearchComplete from it).
func (r *Reader) PrivateZones(ctx context.Context, subscriptions []string, names []string) ([]*model.PrivateZone, error) {
	want := map[string]bool{}
	for _, n := range names {
		want[strings.ToLower(strings.TrimSuffix(strings.TrimSpace(n), "."))] = true
	}
	subs := uniqueFold(subscriptions)
	lists, errs := mapEach(ctx, r, subs, r.zonesInSubscription)

	var found []*armprivatedns.PrivateZone
	for _, l := range lists {
		for _, z := range l {
			if want[strings.ToLower(str(z.Name))] {
				found = append(found, z)
			}
		}
	}
	zones, _ := mapEach(ctx, r, found, func(ctx context.Context, z *armprivatedns.PrivateZone) (*model.PrivateZone, error) {
		return r.zoneDetails(ctx, rid(z.ID), str(z.Name)), nil
	})
	return zones, joinErrs(errs)
}

// ZoneNames returns the names of every private DNS zone in the given
// subscriptions, each once, in the order the subscriptions and their lists
// give them. The lists are the ones PrivateZones reads (memoised, so asking
// for the zones afterwards costs no request). When some subscription's list
// cannot be read, the names found elsewhere come with an error that carries
// the gap of each list that failed (GapsOf).
func (r *Reader) ZoneNames(ctx context.Context, subscriptions []string) ([]string, error) {
	subs := uniqueFold(subscriptions)
	lists, errs := mapEach(ctx, r, subs, r.zonesInSubscription)
	var names []string
	seen := map[string]bool{}
	for _, l := range lists {
		for _, z := range l {
			if n := str(z.Name); n != "" && !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	return names, joinErrs(errs)
}

// ZoneLinksGap is why the virtual network links of a zone PrivateZones or
// ZoneByID returned are not known (its LinksKnown is false): the failed
// read of the links, else an unavailable gap on them.
func (r *Reader) ZoneLinksGap(zoneID model.ResourceID) model.Gap {
	linksID := child(zoneID, "virtualNetworkLinks")
	if g, ok := r.Gaps().Lookup(linksID); ok {
		return g
	}
	return model.Gap{ResourceID: linksID, Kind: model.GapUnavailable, Permission: permZoneLinkRead, Detail: "links not read"}
}

// zonesInSubscription lists a subscription's private DNS zones.
func (r *Reader) zonesInSubscription(ctx context.Context, sub string) ([]*armprivatedns.PrivateZone, error) {
	coll := model.ResourceID(fmt.Sprintf("/subscriptions/%s/providers/Microsoft.Network/privateDnsZones", sub))
	return read(r, "list", coll, permPrivateZoneRead, func() ([]*armprivatedns.PrivateZone, error) {
		f, err := r.clients.PrivateDNS(sub)
		if err != nil {
			return nil, err
		}
		return collect(ctx, r, f.NewPrivateZonesClient().NewListPager(nil),
			func(p armprivatedns.PrivateZonesClientListResponse) []*armprivatedns.PrivateZone { return p.Value })
	})
}

// ZoneByID reads a private DNS zone named by id (a private endpoint's zone
// group may point into another subscription) with its links and records.
func (r *Reader) ZoneByID(ctx context.Context, id model.ResourceID) (*model.PrivateZone, error) {
	z, err := read(r, "zone-get", id, permPrivateZoneRead, func() (*armprivatedns.PrivateZone, error) {
		resp, err := armGet(ctx, r, id, "Microsoft.Network", "privateDnsZones", r.clients.PrivateDNS,
			func(f *armprivatedns.ClientFactory, rg, name string) (armprivatedns.PrivateZonesClientGetResponse, error) {
				return f.NewPrivateZonesClient().Get(ctx, rg, name, nil)
			})
		if err != nil {
			return nil, err
		}
		return &resp.PrivateZone, nil
	})
	if err != nil {
		return nil, err
	}
	name := str(z.Name)
	if name == "" {
		name = id.Name()
	}
	return r.zoneDetails(ctx, id, name), nil
}

// zoneDetails reads a zone's virtual network links and record sets (ALL);
// LinksKnown / RecordsKnown say whether each could be read.
func (r *Reader) zoneDetails(ctx context.Context, id model.ResourceID, name string) *model.PrivateZone {
	z, _ := once(r, memoKey("zone", id), func() (*model.PrivateZone, error) {
		out := &model.PrivateZone{ID: id, Name: strings.ToLower(name), Records: map[string]*model.RecordSet{}}
		a, err := parseTyped(id, "Microsoft.Network", "privateDnsZones")
		if err != nil {
			r.record(id, permPrivateZoneRead, err)
			return out, nil
		}
		f, err := r.clients.PrivateDNS(a.SubscriptionID)
		if err != nil {
			r.record(id, permPrivateZoneRead, err)
			return out, nil
		}
		all(ctx, r, func(ctx context.Context) {
			links, err := collect(ctx, r, f.NewVirtualNetworkLinksClient().NewListPager(a.ResourceGroup, a.Names[0], nil),
				func(p armprivatedns.VirtualNetworkLinksClientListResponse) []*armprivatedns.VirtualNetworkLink {
					return p.Value
				})
			if err != nil {
				r.record(child(id, "virtualNetworkLinks"), permZoneLinkRead, err)
				return
			}
			for _, l := range links {
				out.Links = append(out.Links, zoneLinkFromSDK(l))
			}
			out.LinksKnown = true
		}, func(ctx context.Context) {
			recordsID := child(id, "ALL")
			sets, err := collect(ctx, r, f.NewRecordSetsClient().NewListPager(a.ResourceGroup, a.Names[0], nil),
				func(p armprivatedns.RecordSetsClientListResponse) []*armprivatedns.RecordSet { return p.Value })
			if err != nil {
				r.record(recordsID, permZoneRecordsRead, err)
				return
			}
			for _, s := range sets {
				rs, ok, err := recordSetFromSDK(s)
				if err != nil {
					r.record(recordsID, permZoneRecordsRead, err)
					return
				}
				if ok {
					addRecord(out.Records, rs)
				}
			}
			out.RecordsKnown = true
		})
		return out, nil
	})
	return z
}

// Resolvers returns the DNS private resolvers in a VNet (the VNet's
// listDnsResolvers action), each with its inbound endpoints' addresses.
// Outbound endpoints are not read: forwarding is described by Rulesets.
func (r *Reader) Resolvers(ctx context.Context, vnetID model.ResourceID) ([]*model.Resolver, error) {
	action := child(vnetID, "listDnsResolvers")
	return read(r, "resolvers", action, permListDNSResolvers, func() ([]*model.Resolver, error) {
		a, err := parseTyped(vnetID, "Microsoft.Network", "virtualNetworks")
		if err != nil {
			return nil, err
		}
		f, err := r.clients.DNSResolver(a.SubscriptionID)
		if err != nil {
			return nil, err
		}
		refs, err := collectAction(ctx, r, f.NewDNSResolversClient().NewListByVirtualNetworkPager(a.ResourceGroup, a.Names[0], nil),
			func(p armdnsresolver.DNSResolversClientListByVirtualNetworkResponse) []*armdnsresolver.SubResource {
				return p.Value
			})
		if err != nil {
			return nil, err
		}
		var out []*model.Resolver
		var errs []error
		for _, ref := range refs {
			res, err := r.resolver(ctx, rid(ref.ID))
			if res != nil {
				out = append(out, res)
			}
			if err != nil {
				errs = append(errs, err)
			}
		}
		if err := joinErrs(errs); err != nil {
			// The list itself was read; the failed resolvers are gaps of
			// their own. Return what was read with the error.
			return out, partialError{err}
		}
		return out, nil
	})
}

// partialError marks an error after which a memoised reader still returns
// a usable partial result; read() records no gap for it (the failed parts
// recorded their own).
type partialError struct{ error }

func (e partialError) Unwrap() error { return e.error }

// resolver reads one resolver and its inbound endpoints.
func (r *Reader) resolver(ctx context.Context, id model.ResourceID) (*model.Resolver, error) {
	return read(r, "resolver", id, permDNSResolverRead, func() (*model.Resolver, error) {
		a, err := parseTyped(id, "Microsoft.Network", "dnsResolvers")
		if err != nil {
			return nil, err
		}
		f, err := r.clients.DNSResolver(a.SubscriptionID)
		if err != nil {
			return nil, err
		}
		release, err := r.acquire(ctx)
		if err != nil {
			return nil, err
		}
		resp, err := f.NewDNSResolversClient().Get(ctx, a.ResourceGroup, a.Names[0], nil)
		release()
		if err != nil {
			return nil, err
		}
		out := resolverFromSDK(&resp.DNSResolver)
		inboundID := child(id, "inboundEndpoints")
		eps, err := collect(ctx, r, f.NewInboundEndpointsClient().NewListPager(a.ResourceGroup, a.Names[0], nil),
			func(p armdnsresolver.InboundEndpointsClientListResponse) []*armdnsresolver.InboundEndpoint {
				return p.Value
			})
		if err != nil {
			return out, partialError{r.fail(inboundID, permInboundEndpointRead, err)}
		}
		for _, e := range eps {
			conv, err := inboundEndpointFromSDK(e)
			if err != nil {
				return out, partialError{r.fail(inboundID, permInboundEndpointRead, err)}
			}
			out.Inbound = append(out.Inbound, conv...)
		}
		return out, nil
	})
}

// Rulesets returns the DNS forwarding rulesets linked to a VNet (the
// VNet's listDnsForwardingRulesets action), each with its forwarding rules
// and all the VNets linked to it.
func (r *Reader) Rulesets(ctx context.Context, vnetID model.ResourceID) ([]*model.Ruleset, error) {
	action := child(vnetID, "listDnsForwardingRulesets")
	return read(r, "rulesets", action, permListDNSRulesets, func() ([]*model.Ruleset, error) {
		a, err := parseTyped(vnetID, "Microsoft.Network", "virtualNetworks")
		if err != nil {
			return nil, err
		}
		f, err := r.clients.DNSResolver(a.SubscriptionID)
		if err != nil {
			return nil, err
		}
		refs, err := collectAction(ctx, r, f.NewDNSForwardingRulesetsClient().NewListByVirtualNetworkPager(a.ResourceGroup, a.Names[0], nil),
			func(p armdnsresolver.DNSForwardingRulesetsClientListByVirtualNetworkResponse) []*armdnsresolver.VirtualNetworkDNSForwardingRuleset {
				return p.Value
			})
		if err != nil {
			return nil, err
		}
		var out []*model.Ruleset
		var errs []error
		for _, ref := range refs {
			rs, err := r.ruleset(ctx, rid(ref.ID))
			if rs != nil {
				out = append(out, rs)
			}
			if err != nil {
				errs = append(errs, err)
			}
		}
		if err := joinErrs(errs); err != nil {
			return out, partialError{err}
		}
		return out, nil
	})
}

// ruleset reads a forwarding ruleset's rules and virtual network links.
func (r *Reader) ruleset(ctx context.Context, id model.ResourceID) (*model.Ruleset, error) {
	type result struct {
		rs  *model.Ruleset
		err error
	}
	res, _ := once(r, memoKey("ruleset", id), func() (result, error) {
		out := &model.Ruleset{ID: id, Name: id.Name()}
		a, err := parseTyped(id, "Microsoft.Network", "dnsForwardingRulesets")
		if err != nil {
			return result{out, r.fail(id, permForwardingRuleRead, err)}, nil
		}
		f, err := r.clients.DNSResolver(a.SubscriptionID)
		if err != nil {
			return result{out, r.fail(id, permForwardingRuleRead, err)}, nil
		}
		var errs []error
		rulesID := child(id, "forwardingRules")
		rules, err := collect(ctx, r, f.NewForwardingRulesClient().NewListPager(a.ResourceGroup, a.Names[0], nil),
			func(p armdnsresolver.ForwardingRulesClientListResponse) []*armdnsresolver.ForwardingRule {
				return p.Value
			})
		if err != nil {
			errs = append(errs, r.fail(rulesID, permForwardingRuleRead, err))
		}
		for _, rule := range rules {
			fr, err := forwardingRuleFromSDK(rule)
			if err != nil {
				errs = append(errs, r.fail(rulesID, permForwardingRuleRead, err))
				continue
			}
			out.Rules = append(out.Rules, fr)
		}
		linksID := child(id, "virtualNetworkLinks")
		links, err := collect(ctx, r, f.NewVirtualNetworkLinksClient().NewListPager(a.ResourceGroup, a.Names[0], nil),
			func(p armdnsresolver.VirtualNetworkLinksClientListResponse) []*armdnsresolver.VirtualNetworkLink {
				return p.Value
			})
		if err != nil {
			errs = append(errs, r.fail(linksID, permRulesetLinkRead, err))
		}
		for _, l := range links {
			out.LinkedVNets = appendUniqueID(out.LinkedVNets, rulesetLinkVNet(l))
		}
		return result{out, joinErrs(errs)}, nil
	})
	return res.rs, res.err
}

func uniqueFold(in []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range in {
		s = strings.TrimSpace(s)
		if s != "" && !seen[strings.ToLower(s)] {
			seen[strings.ToLower(s)] = true
			out = append(out, s)
		}
	}
	return out
}
