// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package validators

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

const (
	vnetType = "Microsoft.Network/virtualNetworks"
	sub      = "00000000-0000-0000-0000-000000000001"
	vnet     = "/subscriptions/" + sub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke"
)

func TestResourceIDValidator(t *testing.T) {
	tests := []struct {
		name  string
		types []string
		value types.String
		// wantErr is empty for a valid value, else text the error must contain.
		wantErr []string
	}{
		{name: "valid", types: []string{vnetType}, value: types.StringValue(vnet)},
		{name: "keywords and type in other casing", types: []string{vnetType},
			value: types.StringValue("/SUBSCRIPTIONS/" + sub + "/RESOURCEGROUPS/rg/PROVIDERS/MICROSOFT.NETWORK/VIRTUALNETWORKS/v")},
		{name: "null passes", types: []string{vnetType}, value: types.StringNull()},
		{name: "unknown passes", types: []string{vnetType}, value: types.StringUnknown()},
		{name: "empty", types: []string{vnetType}, value: types.StringValue(""),
			wantErr: []string{"is empty", "Expected a Microsoft.Network/virtualNetworks id"}},
		{name: "not absolute", types: []string{vnetType}, value: types.StringValue("vnet-spoke"),
			wantErr: []string{"does not start with /subscriptions/"}},
		{name: "trailing slash", types: []string{vnetType}, value: types.StringValue(vnet + "/"),
			wantErr: []string{"trailing slash"}},
		{name: "malformed segments", types: []string{vnetType}, value: types.StringValue(vnet + "/subnets"),
			wantErr: []string{`"subnets" without a name`}},
		{name: "subnet for vnet", types: []string{vnetType}, value: types.StringValue(vnet + "/subnets/snet-aks"),
			wantErr: []string{
				"expected a Microsoft.Network/virtualNetworks id, got a Microsoft.Network/virtualNetworks/subnets id: " + vnet + "/subnets/snet-aks",
				"Use the enclosing resource's id instead: " + vnet,
			}},
		{name: "vnet for subnet", types: []string{vnetType + "/subnets"}, value: types.StringValue(vnet),
			wantErr: []string{"got a Microsoft.Network/virtualNetworks id", "append /subnets/{name}"}},
		{name: "resource group", types: []string{vnetType}, value: types.StringValue("/subscriptions/" + sub + "/resourceGroups/rg"),
			wantErr: []string{"got a resource group id"}},
		{name: "one of several types", types: []string{"Microsoft.Network/networkInterfaces", "Microsoft.Compute/virtualMachineScaleSets/virtualMachines/networkInterfaces"},
			value: types.StringValue("/subscriptions/" + sub + "/resourceGroups/MC_rg/providers/Microsoft.Compute/virtualMachineScaleSets/vmss/virtualMachines/0/networkInterfaces/nic")},
		{name: "none of several types", types: []string{"A.B/c", "A.B/d"}, value: types.StringValue(vnet),
			wantErr: []string{"expected a A.B/c or A.B/d id"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := validator.StringRequest{Path: path.Root("virtual_network_id"), ConfigValue: tt.value}
			var resp validator.StringResponse
			ResourceID(tt.types...).ValidateString(context.Background(), req, &resp)
			if len(tt.wantErr) == 0 {
				if resp.Diagnostics.HasError() {
					t.Fatalf("unexpected error: %v", resp.Diagnostics)
				}
				return
			}
			if resp.Diagnostics.ErrorsCount() != 1 {
				t.Fatalf("want one error, got %v", resp.Diagnostics)
			}
			d := resp.Diagnostics.Errors()[0]
			for _, want := range tt.wantErr {
				if !strings.Contains(d.Detail(), want) {
					t.Errorf("detail %q does not contain %q", d.Detail(), want)
				}
			}
			if wp, ok := d.(interface{ Path() path.Path }); !ok || !wp.Path().Equal(path.Root("virtual_network_id")) {
				t.Errorf("diagnostic is not on the attribute path: %#v", d)
			}
		})
	}
}

func TestResourceIDValidatorDescription(t *testing.T) {
	v := ResourceID(vnetType)
	if got := v.MarkdownDescription(context.Background()); got != "must be a `Microsoft.Network/virtualNetworks` resource id" {
		t.Errorf("MarkdownDescription = %q", got)
	}
	if got := v.Description(context.Background()); !strings.Contains(got, "/providers/Microsoft.Network/virtualNetworks/{name}") {
		t.Errorf("Description = %q", got)
	}
}
