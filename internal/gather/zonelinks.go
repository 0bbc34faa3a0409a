package gather

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/resourcegraph/armresourcegraph"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// ResourceGraphQuery is the Azure Resource Graph query endpoint: the id of
// the gap when a query fails.
const ResourceGraphQuery model.ResourceID = "/providers/Microsoft.ResourceGraph/resources"

// Resource Graph answers at most 1000 rows a page; more pages than this
// for the zone links of a handful of VNets means something else is wrong.
const (
	graphPageSize = 1000
	maxGraphPages = 50
)

// ZonesLinkedTo asks Azure Resource Graph which private DNS zones have a
// virtual network link to one of the VNets, in every subscription the
// identity can read (the query names no subscription, so it runs at tenant
// scope), and returns the ids of those zones, sorted. A private DNS zone in
// any subscription can be linked to a VNet and only the zone shows the
// link, so this is the one read that finds a central privatelink zone in a
// connectivity subscription nobody named.
//
// Resource Graph returns only resources the identity may read. A query it
// cuts short (a truncated result, more subscriptions than one tenant-scope
// query covers, where partial scopes are not allowed) is an error, never a
// partial answer; so is every failed request, recorded as a gap on
// ResourceGraphQuery with the permission Microsoft.ResourceGraph/resources/read.
func (r *Reader) ZonesLinkedTo(ctx context.Context, vnets []model.ResourceID) ([]model.ResourceID, error) {
	q := model.NewZoneLinkQuery(vnets)
	links, err := r.zoneLinks(ctx, q)
	if err != nil {
		return nil, err
	}
	return links.linkedTo(q.VNets), nil
}

// zonesNamedLinks asks Azure Resource Graph for the virtual network links
// of every private DNS zone whose name lies in one of the domains (the
// zone's last two labels, model.ZoneDomain), to any VNet: a question that
// needs only the registry's cloud, not the VNets, so that it can be asked
// while those are still being found. Failures are recorded like
// ZonesLinkedTo's.
func (r *Reader) zonesNamedLinks(ctx context.Context, domains []string) (graphLinks, error) {
	return r.zoneLinks(ctx, model.NewZoneDomainLinkQuery(domains))
}

// graphLinks are the virtual network links a Resource Graph query found:
// each link's zone and the key of its VNet ("" when the row does not say).
type graphLinks []graphLink

type graphLink struct {
	zone model.ResourceID
	vnet string
}

// linkedTo returns the zones with a link to one of the VNets (id keys),
// sorted, each once. A link whose VNet the row does not say is kept: the
// zone's own links, read next, decide.
func (ls graphLinks) linkedTo(vnetKeys []string) []model.ResourceID {
	want := map[string]bool{}
	for _, k := range vnetKeys {
		want[k] = true
	}
	var zones []model.ResourceID
	for _, l := range ls {
		if l.vnet == "" || want[l.vnet] {
			zones = appendUniqueID(zones, l.zone)
		}
	}
	sort.Slice(zones, func(i, j int) bool { return zones[i].Key() < zones[j].Key() })
	return zones
}

// vnetKeys are the id keys of the VNets, each once, sorted.
func vnetKeys(vnets []model.ResourceID) []string {
	var keys []string
	seen := map[string]bool{}
	for _, v := range vnets {
		if !v.IsZero() && !seen[v.Key()] {
			seen[v.Key()] = true
			keys = append(keys, v.Key())
		}
	}
	sort.Strings(keys)
	return keys
}

// zoneLinks sends the zone link query (every page), once per Reader and
// query. The request carries the query it sends (azure.WithGraphSearch),
// so that the what-if overlay knows it without reading the text.
func (r *Reader) zoneLinks(ctx context.Context, q model.ZoneLinkQuery) (graphLinks, error) {
	query := q.KQL()
	return read(r, "zonelinks "+query, ResourceGraphQuery, permResourceGraphRead, func() (graphLinks, error) {
		client, err := r.clients.ResourceGraph()
		if err != nil {
			return nil, err
		}
		ctx := azure.WithGraphSearch(ctx, q)
		var links graphLinks
		err = r.graphQuery(ctx, client, query, "private DNS zone links", func(row map[string]any) {
			if l, ok := linkRow(row, q); ok {
				links = append(links, l)
			}
		})
		if err != nil {
			return nil, err
		}
		return links, nil
	})
}

// graphQuery sends a Resource Graph query and calls each for every row of
// every page, taking a read action's request slot per page. A result cut
// short (more than maxGraphPages pages, or truncated) is an error, never a
// partial answer; what names the query's subject in that error.
func (r *Reader) graphQuery(ctx context.Context, client *armresourcegraph.Client, query, what string, each func(map[string]any)) error {
	opts := &armresourcegraph.QueryRequestOptions{
		ResultFormat: to.Ptr(armresourcegraph.ResultFormatObjectArray),
		Top:          to.Ptr[int32](graphPageSize),
	}
	for page := 0; ; page++ {
		if page == maxGraphPages {
			return fmt.Errorf("the Resource Graph query for %s returned more than %d pages", what, maxGraphPages)
		}
		release, err := r.acquireAction(ctx)
		if err != nil {
			return err
		}
		resp, err := client.Resources(ctx, armresourcegraph.QueryRequest{Query: &query, Options: opts}, nil)
		release()
		if err != nil {
			return err
		}
		rows, err := graphRows(resp.Data)
		if err != nil {
			return err
		}
		for _, row := range rows {
			each(row)
		}
		next := str(resp.SkipToken)
		if next == "" {
			if resp.ResultTruncated != nil && *resp.ResultTruncated == armresourcegraph.ResultTruncatedTrue {
				return fmt.Errorf("the Resource Graph query for %s returned a truncated result", what)
			}
			return nil
		}
		opts.SkipToken = &next
	}
}

// graphRows reads a Resource Graph result: objectArray (a list of objects)
// or table (columns and rows) format.
func graphRows(data any) ([]map[string]any, error) {
	switch d := data.(type) {
	case nil:
		return nil, nil
	case []any:
		out := make([]map[string]any, 0, len(d))
		for _, row := range d {
			m, ok := row.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("a Resource Graph row is %T, not an object", row)
			}
			out = append(out, m)
		}
		return out, nil
	case map[string]any:
		cols, _ := d["columns"].([]any)
		rows, _ := d["rows"].([]any)
		if cols == nil {
			return nil, errors.New("a Resource Graph table result without columns")
		}
		names := make([]string, len(cols))
		for i, c := range cols {
			if m, ok := c.(map[string]any); ok {
				names[i], _ = m["name"].(string)
			}
		}
		out := make([]map[string]any, 0, len(rows))
		for _, row := range rows {
			vals, ok := row.([]any)
			if !ok {
				return nil, fmt.Errorf("a Resource Graph table row is %T, not a list", row)
			}
			m := map[string]any{}
			for i, v := range vals {
				if i < len(names) && names[i] != "" {
					m[names[i]] = v
				}
			}
			out = append(out, m)
		}
		return out, nil
	default:
		return nil, fmt.Errorf("a Resource Graph result of type %T", data)
	}
}

// linkRow reads a virtual network link row of the query's answer: its
// zone (the id up to /virtualNetworkLinks/) and its VNet's key ("" when the
// row does not say). A row the query does not include (a replay, or a
// service that ignored part of the query, may answer with more) is left out.
func linkRow(row map[string]any, q model.ZoneLinkQuery) (graphLink, bool) {
	id, _ := row["id"].(string)
	i := strings.Index(strings.ToLower(id), "/virtualnetworklinks/")
	if i <= 0 {
		return graphLink{}, false
	}
	zone := model.ResourceID(id[:i])
	if _, err := parseTyped(zone, "Microsoft.Network", "privateDnsZones"); err != nil {
		return graphLink{}, false
	}
	vnet := q.RowVNet(row)
	if !q.Includes(id, vnet) {
		return graphLink{}, false
	}
	if vnet == "" {
		return graphLink{zone: zone}, true
	}
	return graphLink{zone: zone, vnet: model.ResourceID(vnet).Key()}, true
}

// linkedZones completes d with the private DNS zones linked to the VNets
// whose Azure DNS answers the nodes, wherever they are: Resource Graph
// finds their ids in every subscription the identity can read (the search
// by zone domain, zoneSearch), and those named like a name a pull resolves
// that the subscription search did not find are read by id. It records in
// d.LinkSearch how the search was done. No query is sent when the
// configuration names the zone subscriptions (a search without Resource
// Graph) or when no registry name can come from a private zone (no private
// endpoint, no declared host without an address). It returns the lookup
// of linked zones for the CNAME rounds (nil without a search that
// answered).
func (r *Reader) linkedZones(ctx context.Context, d *model.DNS, f *model.Facts, q VerificationRequest, search *zoneSearch, vnets []model.ResourceID, names, subs []string) *zoneLinkLookup {
	d.LinkSearch = model.ZoneLinkSearch{Declared: len(q.ZoneSubscriptionIDs) > 0, Subscriptions: append([]string(nil), subs...)}
	sort.Strings(d.LinkSearch.Subscriptions)
	if d.LinkSearch.Declared || len(vnets) == 0 || !privateAnswerPossible(f) {
		return nil
	}
	d.LinkSearch.Query = ResourceGraphQuery
	lookup := &zoneLinkLookup{search: search, vnets: vnets}
	ids, err := lookup.zones(ctx, r, names)
	if err != nil {
		return nil
	}
	d.LinkSearch.Everywhere = map[string]bool{}
	for _, v := range vnets {
		d.LinkSearch.Everywhere[v.Key()] = true
	}
	r.readZonesNamed(ctx, d, ids, names)
	return lookup
}

// readLinkedZonesNamed reads the zones linked to the nodes' VNets that are
// named like one of names (CNAME targets). When the search cannot answer
// for them, the VNets are no longer covered everywhere.
func (r *Reader) readLinkedZonesNamed(ctx context.Context, d *model.DNS, lookup *zoneLinkLookup, names []string) {
	if lookup == nil {
		return
	}
	ids, err := lookup.zones(ctx, r, names)
	if err != nil {
		d.LinkSearch.Everywhere = nil
		return
	}
	r.readZonesNamed(ctx, d, ids, names)
}

// readZonesNamed reads, by id, the zones of ids whose name is one of names
// and that d does not hold yet; a zone that cannot be read is added to
// d.LinkSearch.Unread.
func (r *Reader) readZonesNamed(ctx context.Context, d *model.DNS, ids []model.ResourceID, names []string) {
	want := map[string]bool{}
	for _, n := range names {
		want[strings.ToLower(n)] = true
	}
	var toRead []model.ResourceID
	for _, id := range ids {
		// A zone a planned change creates whose name is known only after
		// apply may be named like any of names: read, it is unknown.
		if (want[strings.ToLower(id.Name())] || id.Name() == model.NameKnownAfterApply) && d.Zones[id.Key()] == nil {
			toRead = appendUniqueID(toRead, id)
		}
	}
	got, _ := mapEach(ctx, r, toRead, r.ZoneByID)
	for i, z := range got {
		if z != nil {
			d.Zones[z.ID.Key()] = z
		} else {
			d.LinkSearch.Unread = appendUniqueID(d.LinkSearch.Unread, toRead[i])
		}
	}
}

// privateAnswerPossible reports whether a private DNS zone can decide a
// name the pull resolves: the registry has private endpoint connections
// (public DNS then sends its names to the privatelink alias), or a declared
// host has no declared address.
func privateAnswerPossible(f *model.Facts) bool {
	if f.Registry != nil && len(f.Registry.PrivateEndpointConnections) > 0 {
		return true
	}
	if f.Declared != nil {
		for _, h := range f.Declared.Hosts {
			if _, ok := f.Declared.Addresses[model.NormalizeHost(h)]; !ok {
				return true
			}
		}
	}
	return false
}

// zoneListContext is ctx for the reads of the zone lists of a
// verification: when the zones linked to the nodes' VNets are found by the
// Resource Graph link search (no zone_subscription_ids), that search
// decides whether a zone a plan creates under a name known only after
// apply can answer them (azure.WithZonesFoundByLinks).
func zoneListContext(ctx context.Context, q VerificationRequest) context.Context {
	if len(q.ZoneSubscriptionIDs) > 0 {
		return ctx
	}
	return azure.WithZonesFoundByLinks(ctx)
}
