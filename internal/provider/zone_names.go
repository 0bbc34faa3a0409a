// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"sync"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// listZoneNames lists the names of every private DNS zone in a
// subscription.
//
// Why this exists: gather.Reader.PrivateZones selects zones by name, and
// pullpath_private_dns_links wants every zone linked to a VNet, whatever its
// name. Until the reader offers "all names" (nil names), the data source
// lists the names here and passes them on; the reader then lists the
// subscription again (one extra request per subscription).
func listZoneNames(ctx context.Context, clients *azure.Clients, subscriptions []string) (names []string, gaps []model.Gap) {
	type result struct {
		names []string
		err   error
	}
	results := make([]result, len(subscriptions))
	var wg sync.WaitGroup
	for i, sub := range subscriptions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i].names, results[i].err = zoneNamesIn(ctx, clients, sub)
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for i, r := range results {
		if r.err != nil {
			gaps = append(gaps, azure.Gap(zoneCollection(subscriptions[i]), "Microsoft.Network/privateDnsZones/read", r.err))
			continue
		}
		for _, n := range r.names {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	return names, gaps
}

func zoneNamesIn(ctx context.Context, clients *azure.Clients, sub string) ([]string, error) {
	f, err := clients.PrivateDNS(sub)
	if err != nil {
		return nil, err
	}
	var out []string
	pager := f.NewPrivateZonesClient().NewListPager(nil)
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, z := range page.Value {
			if z != nil && z.Name != nil {
				out = append(out, *z.Name)
			}
		}
	}
	return out, nil
}

// zoneCollection is the id of a subscription's private DNS zone list, used
// as the resource of a failed listing.
func zoneCollection(sub string) model.ResourceID {
	return model.ResourceID(fmt.Sprintf("/subscriptions/%s/providers/Microsoft.Network/privateDnsZones", sub))
}
