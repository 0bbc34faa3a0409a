// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"context"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/provider"
)

// idArguments are the resource id arguments of every data source, with the
// id of the right type from the baseline snapshot. The test below fails for
// an id argument that is not listed here, so that a new one gets the same
// checks (and a decision) rather than none.
var idArguments = map[string]string{
	"pullpath_node_routes.cluster_id":               accCluster,
	"pullpath_node_routes.subnet_id":                accSpoke + "/subnets/snet-aks",
	"pullpath_node_routes.network_interface_id":     accNodeNIC1,
	"pullpath_verification.cluster_id":              accCluster,
	"pullpath_verification.node_subnet_ids":         accSpoke + "/subnets/snet-aks",
	"pullpath_verification.registry_id":             accRegistry,
	"pullpath_registry_endpoints.registry_id":       accRegistry,
	"pullpath_vnet_dns.virtual_network_id":          accSpoke,
	"pullpath_vnet_dns.network_interface_id":        accHub[:strings.Index(accHub, "/providers/")] + "/providers/Microsoft.Network/networkInterfaces/nic-vm-nva",
	"pullpath_vnet_peerings.virtual_network_id":     accSpoke,
	"pullpath_private_dns_links.virtual_network_id": accSpoke,
}

// Arguments named like ids that hold something else, and why.
var notResourceIDs = map[string]string{
	"pullpath_verification.zone_subscription_ids":      "subscription GUIDs, checked by TestDataSourceArguments_subscriptionIDs",
	"pullpath_verification.dns_zone_subscription_ids":  "subscription GUIDs, checked by TestDataSourceArguments_subscriptionIDs",
	"pullpath_private_dns_links.zone_subscription_ids": "subscription GUIDs, checked by TestDataSourceArguments_subscriptionIDs",
}

// dataSourceSchemas returns every data source's schema by type name.
func dataSourceSchemas(t *testing.T) map[string]schema.Schema {
	t.Helper()
	ctx := context.Background()
	p := provider.New("test")()
	out := map[string]schema.Schema{}
	for _, newDS := range p.DataSources(ctx) {
		ds := newDS()
		var meta datasource.MetadataResponse
		ds.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: provider.TypeName}, &meta)
		var resp datasource.SchemaResponse
		ds.Schema(ctx, datasource.SchemaRequest{}, &resp)
		if resp.Diagnostics.HasError() {
			t.Fatalf("%s: %v", meta.TypeName, resp.Diagnostics)
		}
		out[meta.TypeName] = resp.Schema
	}
	return out
}

// validateArgument runs the schema validators of one string, list or set
// argument on value (a list or set argument gets a one-element collection)
// and returns the diagnostics.
func validateArgument(t *testing.T, a schema.Attribute, name, value string) diag.Diagnostics {
	t.Helper()
	ctx := context.Background()
	p := path.Root(name)
	var diags diag.Diagnostics
	switch a := a.(type) {
	case schema.StringAttribute:
		for _, v := range a.StringValidators() {
			var resp validator.StringResponse
			v.ValidateString(ctx, validator.StringRequest{Path: p, ConfigValue: types.StringValue(value)}, &resp)
			diags.Append(resp.Diagnostics...)
		}
	case schema.ListAttribute:
		l := types.ListValueMust(types.StringType, []attr.Value{types.StringValue(value)})
		for _, v := range a.ListValidators() {
			var resp validator.ListResponse
			v.ValidateList(ctx, validator.ListRequest{Path: p, ConfigValue: l}, &resp)
			diags.Append(resp.Diagnostics...)
		}
	case schema.SetAttribute:
		s := types.SetValueMust(types.StringType, []attr.Value{types.StringValue(value)})
		for _, v := range a.SetValidators() {
			var resp validator.SetResponse
			v.ValidateSet(ctx, validator.SetRequest{Path: p, ConfigValue: s}, &resp)
			diags.Append(resp.Diagnostics...)
		}
	default:
		t.Fatalf("%s: unexpected attribute kind %T", name, a)
	}
	return diags
}

// Every resource id argument of every data source rejects bad input at
// validate time, with one error on the argument that quotes the value,
// says what is wrong and shows the expected shape; and accepts the id in any
// casing of keywords, namespace, types and names, as ARM does.
func TestDataSourceArguments_resourceIDs(t *testing.T) {
	const sub = "00000000-0000-0000-0000-000000000001"
	found := map[string]bool{}
	for dsName, s := range dataSourceSchemas(t) {
		for name, a := range s.Attributes {
			key := dsName + "." + name
			if !(strings.HasSuffix(name, "_id") || strings.HasSuffix(name, "_ids")) || !(a.IsOptional() || a.IsRequired()) {
				continue
			}
			if _, ok := notResourceIDs[key]; ok {
				continue
			}
			found[key] = true
			good, ok := idArguments[key]
			if !ok {
				t.Errorf("%s is an id argument without an entry in idArguments: add one so that its validation is tested", key)
				continue
			}
			if d := a.GetMarkdownDescription(); !strings.Contains(d, "case-insensitively") || !strings.Contains(d, "trailing slash") {
				t.Errorf("%s: the description does not document how ids are matched (idDescription): %q", key, d)
			}
			// A valid id of another type: a cluster where anything else
			// is wanted, a subnet where a cluster is.
			other := accCluster
			if strings.Contains(good, "managedClusters") {
				other = accSpoke + "/subnets/snet-aks"
			}
			bad := []struct {
				name, value string
				want        []string
			}{
				{"empty", "", []string{"is empty"}},
				{"only spaces", "   ", []string{"whitespace"}},
				{"leading space", " " + good, []string{"leading or trailing whitespace"}},
				{"trailing newline", good + "\n", []string{"leading or trailing whitespace"}},
				{"trailing slash", good + "/", []string{"trailing slash; remove it"}},
				{"doubled slash", strings.Replace(good, "/providers/", "//providers/", 1), []string{"empty segment"}},
				{"URL", "https://management.azure.com" + good, []string{"is a URL"}},
				{"name only", good[strings.LastIndex(good, "/")+1:], []string{"does not start with /subscriptions/"}},
				{"subscription name", strings.Replace(good, sub, "my-subscription", 1), []string{`"my-subscription", which is not a GUID`}},
				{"no resource group name", "/subscriptions/" + sub + "/resourceGroups", []string{"no resource group name"}},
				{"namespace without type", good[:strings.Index(good, "/providers/")] + "/providers/Microsoft.Network", []string{"no resource type after the namespace"}},
				{"type without name", good[:strings.LastIndex(good, "/")], []string{"without a name"}},
				{"wrong type", other, []string{"expected a", "got a", other}},
				{"resource group", "/subscriptions/" + sub + "/resourceGroups/rg-spoke", []string{"got a resource group id"}},
			}
			for _, tc := range bad {
				diags := validateArgument(t, a, name, tc.value)
				if diags.ErrorsCount() != 1 {
					t.Errorf("%s = %q (%s): want one error, got %v", key, tc.value, tc.name, diags)
					continue
				}
				d := diags.Errors()[0]
				detail := d.Detail()
				for _, w := range append(tc.want, strings.TrimSpace(strings.Trim(quoteGo(tc.value), `"`))) {
					if !strings.Contains(detail, w) {
						t.Errorf("%s = %q (%s): the error does not say %q:\n%s", key, tc.value, tc.name, w, detail)
					}
				}
				// What to do: the expected type and the shape of its ids.
				if !regexp.MustCompile(`(?i)expected a \S+ (id|or)`).MatchString(detail) || !strings.Contains(detail, "/subscriptions/{subscription-id}/resourceGroups/{group}/providers/") {
					t.Errorf("%s = %q (%s): the error does not say what id is expected and how it looks:\n%s", key, tc.value, tc.name, detail)
				}
				wp, ok := d.(diag.DiagnosticWithPath)
				if !ok || !(wp.Path().Equal(path.Root(name)) || wp.Path().String() == path.Root(name).String()+"[0]" ||
					strings.HasPrefix(wp.Path().String(), name+"[Value(")) {
					t.Errorf("%s = %q (%s): the error is not on the argument: %#v", key, tc.value, tc.name, d)
				}
			}
			for _, ok := range []string{good, strings.ToLower(good), strings.ToUpper(good[:strings.Index(good, "/providers/")]) + good[strings.Index(good, "/providers/"):],
				strings.Replace(good, "resourceGroups", "resourcegroups", 1)} {
				if diags := validateArgument(t, a, name, ok); diags.HasError() {
					t.Errorf("%s = %q: want it accepted (ARM ids are case-insensitive), got %v", key, ok, diags)
				}
			}
		}
	}
	var missing []string
	for key := range idArguments {
		if !found[key] {
			missing = append(missing, key)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("idArguments lists arguments no data source has: %v", missing)
	}
}

// quoteGo is the value as the messages print it (%q), minus the quotes, so
// that values with a newline are found in the message.
func quoteGo(s string) string {
	return strings.TrimSuffix(strings.TrimPrefix(strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "\n", `\n`), `"`), `"`)
}

// Subscription id arguments take GUIDs only, and say so with the value.
func TestDataSourceArguments_subscriptionIDs(t *testing.T) {
	schemas := dataSourceSchemas(t)
	for key := range notResourceIDs {
		ds, name, _ := strings.Cut(key, ".")
		a, ok := schemas[ds].Attributes[name]
		if !ok {
			t.Errorf("%s: no such argument", key)
			continue
		}
		if d := validateArgument(t, a, name, "00000000-0000-0000-0000-000000000002"); d.HasError() {
			t.Errorf("%s: a GUID is rejected: %v", key, d)
		}
		for _, bad := range []string{"", "connectivity", "/subscriptions/00000000-0000-0000-0000-000000000002", " 00000000-0000-0000-0000-000000000002"} {
			d := validateArgument(t, a, name, bad)
			if d.ErrorsCount() != 1 || !strings.Contains(d.Errors()[0].Detail(), "subscription id (a GUID)") ||
				!strings.Contains(d.Errors()[0].Detail(), bad) {
				t.Errorf("%s = %q: want one error that names the value and asks for a GUID, got %v", key, bad, d)
			}
		}
	}
}
