// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"fmt"
	"net/netip"
	"sort"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// IncludeServiceTags reads the service tags (Service Tag Discovery API,
// ServiceTagsClient.List) into n when something in it names one: a
// security rule with a service tag other than VirtualNetwork, Internet and
// AzureLoadBalancer, a user-defined route addressed by a service tag, or a
// subnet with service endpoints. The list is read once per location of the
// VNets in n (the location picks the version of the list; every location's
// answer holds every region's tags), in the subscription of the first of
// those VNets by id, so that every data source of a plan asks the same
// path and the session cache sends it once. A read that fails, or whose
// answer is malformed, is a gap recorded for the location
// (Network.ServiceTagGaps): whatever needed the tags stays unverified,
// never reachable. n.Gaps is refreshed.
func (r *Reader) IncludeServiceTags(ctx context.Context, n *model.Network) {
	if n == nil || !needsServiceTags(n) {
		return
	}
	type where struct{ location, subscription string }
	var asks []where
	seen := map[string]bool{}
	keys := make([]string, 0, len(n.VNets))
	for k := range n.VNets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := n.VNets[k]
		loc := model.NormalizeRegion(v.Location)
		if loc == "" || seen[loc] || v.ID.Subscription() == "" {
			continue
		}
		seen[loc] = true
		asks = append(asks, where{loc, v.ID.Subscription()})
	}
	got, errs := mapEach(ctx, r, asks, func(ctx context.Context, w where) (*model.ServiceTags, error) {
		return r.ServiceTags(ctx, w.subscription, w.location)
	})
	gaps := r.Gaps()
	for i, w := range asks {
		if errs[i] == nil {
			if got[i] != nil {
				n.SetServiceTags(w.location, got[i])
			}
			continue
		}
		id := model.ServiceTagsID(w.subscription, w.location)
		g, ok := gaps.Lookup(id)
		if !ok {
			g = model.Gap{ResourceID: id, Kind: model.GapUnavailable, Permission: permServiceTagsRead, Detail: fmt.Sprint(errs[i])}
		}
		n.SetServiceTagGap(w.location, g)
	}
	n.Gaps = r.Gaps()
}

// ServiceTags reads the service tags of a location through subscription.
// A malformed answer (a tag without a name, listed twice, or with a prefix
// that is not an address prefix) is an error, recorded as a gap naming the
// read and what is wrong with it.
func (r *Reader) ServiceTags(ctx context.Context, subscription, location string) (*model.ServiceTags, error) {
	id := model.ServiceTagsID(subscription, location)
	return read(r, "servicetags", id, permServiceTagsRead, func() (*model.ServiceTags, error) {
		f, err := r.clients.Network(subscription)
		if err != nil {
			return nil, err
		}
		release, err := r.acquire(ctx)
		if err != nil {
			return nil, err
		}
		resp, err := f.NewServiceTagsClient().List(ctx, model.NormalizeRegion(location), nil)
		release()
		if err != nil {
			return nil, err
		}
		return serviceTagsFromSDK(id, location, &resp.ServiceTagsListResult)
	})
}

// serviceTagsFromSDK converts a ServiceTagsListResult. Anything that makes
// a tag's members uncertain is an error for the whole answer: a tag read
// wrong would decide rules wrong, and a tag left out would be unknown
// anyway. A nextLink (the API does not page today) leaves the answer
// partial but sound: a tag not in it is unknown, never empty. An answer
// that lists no tag at all tells nothing: nil, as if nothing was read
// (a snapshot recorded before the provider read service tags answers so).
func serviceTagsFromSDK(id model.ResourceID, location string, res *armnetwork.ServiceTagsListResult) (*model.ServiceTags, error) {
	malformed := func(format string, args ...any) error {
		return fmt.Errorf("the service tag answer is malformed: %s; the list cannot be trusted, so nothing is decided by it", fmt.Sprintf(format, args...))
	}
	if res == nil {
		return nil, malformed("the answer is empty")
	}
	if len(res.Values) == 0 {
		return nil, nil
	}
	tags := make([]model.ServiceTag, 0, len(res.Values))
	for i, v := range res.Values {
		if v == nil {
			return nil, malformed("values[%d] is null", i)
		}
		name := strings.TrimSpace(str(v.Name))
		if name == "" {
			return nil, malformed("values[%d] has no name", i)
		}
		if v.Properties == nil {
			return nil, malformed("service tag %s (values[%d]) has no properties", name, i)
		}
		t := model.ServiceTag{Name: name, Region: str(v.Properties.Region), SystemService: str(v.Properties.SystemService)}
		for j, s := range v.Properties.AddressPrefixes {
			if s == nil {
				return nil, malformed("service tag %s: addressPrefixes[%d] is null", name, j)
			}
			p, err := netip.ParsePrefix(strings.TrimSpace(*s))
			if err != nil {
				return nil, malformed("service tag %s: addressPrefixes[%d] %q is not an address prefix", name, j, *s)
			}
			t.Prefixes = append(t.Prefixes, p.Masked())
		}
		tags = append(tags, t)
	}
	out, err := model.NewServiceTags(id, location, str(res.Cloud), str(res.ChangeNumber), tags)
	if err != nil {
		return nil, malformed("%v", err)
	}
	return out, nil
}

// needsServiceTags reports whether anything in n names a service tag whose
// members the Service Tag Discovery API lists.
func needsServiceTags(n *model.Network) bool {
	for _, s := range n.Subnets {
		for _, se := range s.ServiceEndpoints {
			if !se.PrefixesKnown {
				return true
			}
		}
	}
	for _, rt := range n.RouteTables {
		for _, r := range rt.Routes {
			if r.ServiceTag != "" && !r.Prefix.IsValid() {
				return true
			}
		}
	}
	for _, g := range n.SecurityGroups {
		for _, rule := range g.Rules {
			for _, p := range append(append([]string(nil), rule.SourcePrefixes...), rule.DestinationPrefixes...) {
				if model.IsListedServiceTag(p) {
					return true
				}
			}
		}
	}
	return false
}
