// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/ids"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// virtualHubGet reads a virtualHubs resource (a Route Server or a Virtual
// WAN hub), and returns it with the client factory and the parsed id that
// its child reads use; a failure is recorded as a gap on the hub.
func (r *Reader) virtualHubGet(ctx context.Context, id model.ResourceID) (*armnetwork.VirtualHub, *armnetwork.ClientFactory, ids.ResourceID, error) {
	a, err := parseTyped(id, "Microsoft.Network", "virtualHubs")
	if err != nil {
		return nil, nil, a, r.fail(id, permVirtualHubRead, err)
	}
	f, err := r.clients.Network(a.SubscriptionID)
	if err != nil {
		return nil, nil, a, r.fail(id, permVirtualHubRead, err)
	}
	release, err := r.acquire(ctx)
	if err != nil {
		return nil, nil, a, err
	}
	resp, err := f.NewVirtualHubsClient().Get(ctx, a.ResourceGroup, a.Names[0], nil)
	release()
	if err != nil {
		return nil, nil, a, r.fail(id, permVirtualHubRead, err)
	}
	return &resp.VirtualHub, f, a, nil
}
