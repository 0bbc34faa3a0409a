// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package azure

import (
	"net/http"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// A gap names the permission its read needed where it is made: the one the
// reader gives, else the read action of the id's type.
func TestGapPermissionIsFilledWhereTheGapIsMade(t *testing.T) {
	const vnet = model.ResourceID("/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v")
	denied := &azcore.ResponseError{StatusCode: http.StatusForbidden, ErrorCode: "AuthorizationFailed"}
	for name, tc := range map[string]struct {
		id         model.ResourceID
		permission string
		err        error
		want       string
	}{
		"given":             {vnet, "Microsoft.Network/virtualNetworks/subnets/read", denied, "Microsoft.Network/virtualNetworks/subnets/read"},
		"from the id":       {vnet, "", denied, "Microsoft.Network/virtualNetworks/read"},
		"id without a type": {"not-an-id", "", denied, ""},
	} {
		if got := Gap(tc.id, tc.permission, tc.err).Permission; got != tc.want {
			t.Errorf("%s: permission %q, want %q", name, got, tc.want)
		}
	}
}
