// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerregistry/armcontainerregistry/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// openWorldRoots are the SDK resources whose every property the table
// classifies.
var openWorldRoots = []any{
	armcontainerservice.ManagedCluster{},
	armcontainerservice.AgentPool{},
	armcontainerservice.ManagedClusterAgentPoolProfile{},
	armnetwork.VirtualNetwork{},
	armnetwork.Subnet{},
	armnetwork.AzureFirewall{},
	armcontainerregistry.Registry{},
}

// TestOpenWorldClassifiesEveryProperty walks the SDK structs of every
// root by reflection, descending where the table says the properties of
// a nested struct are classified one by one, and fails on any property
// the table does not classify (an SDK upgrade that adds one forces a
// decision), on a classification without its reason, on an unmodelled
// property without the check of its default, and on a table entry the
// SDK struct does not have.
func TestOpenWorldClassifiesEveryProperty(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if seen[typ] {
			return
		}
		seen[typ] = true
		table, ok := openWorld[typ]
		if !ok {
			t.Errorf("%s: not in the open-world table (gather/openworld.go); classify each of its properties", typ)
			return
		}
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			if !f.IsExported() {
				continue
			}
			c, ok := table[f.Name]
			switch {
			case !ok:
				t.Errorf("%s.%s (%s): not classified in the open-world table (gather/openworld.go): evaluated, irrelevant (with the reason) or unmodelled", typ, f.Name, f.Type)
				continue
			case c.Why == "":
				t.Errorf("%s.%s: classified %s without its reason", typ, f.Name, c.Class)
			case c.Class == Unmodelled && c.Active == nil:
				t.Errorf("%s.%s: unmodelled without the check of its default", typ, f.Name)
			}
			if c.Descend {
				walk(f.Type)
			}
		}
		for name := range table {
			if _, ok := typ.FieldByName(name); !ok {
				t.Errorf("%s: the open-world table classifies %s, which the SDK struct does not have", typ, name)
			}
		}
	}
	for _, root := range openWorldRoots {
		walk(reflect.TypeOf(root))
	}
	for typ := range openWorld {
		if !seen[typ] {
			t.Errorf("%s: in the open-world table but reached from no root", typ)
		}
	}
}

// TestUnmodelledSettings: an unmodelled property present with a
// non-default value is reported with its property path and value; absent,
// or at its default, it is not; irrelevant and evaluated properties never
// are.
func TestUnmodelledSettings(t *testing.T) {
	pool := func(p *armcontainerservice.ManagedClusterAgentPoolProfileProperties) *armcontainerservice.AgentPool {
		return &armcontainerservice.AgentPool{ID: to.Ptr("/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks1/agentPools/user"), Name: to.Ptr("user"), Properties: p}
	}
	mode := func(m armcontainerservice.LocalDNSMode) *armcontainerservice.LocalDNSProfile {
		return &armcontainerservice.LocalDNSProfile{Mode: &m}
	}
	vnet := func(enc *armnetwork.VirtualNetworkEncryption) *armnetwork.VirtualNetwork {
		return &armnetwork.VirtualNetwork{ID: to.Ptr("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v"), Properties: &armnetwork.VirtualNetworkPropertiesFormat{Encryption: enc}}
	}
	drop, allow := armnetwork.VirtualNetworkEncryptionEnforcementDropUnencrypted, armnetwork.VirtualNetworkEncryptionEnforcementAllowUnencrypted
	tests := []unmodelledCase{
		{"LocalDNS required", pool(&armcontainerservice.ManagedClusterAgentPoolProfileProperties{LocalDNSProfile: mode(armcontainerservice.LocalDNSModeRequired)}), []string{"properties.localDNSProfile=mode Required"}},
		{"LocalDNS disabled", pool(&armcontainerservice.ManagedClusterAgentPoolProfileProperties{LocalDNSProfile: mode(armcontainerservice.LocalDNSModeDisabled)}), nil},
		{"LocalDNS absent", pool(&armcontainerservice.ManagedClusterAgentPoolProfileProperties{}), nil},
		{"pool ASGs", pool(&armcontainerservice.ManagedClusterAgentPoolProfileProperties{NetworkProfile: &armcontainerservice.AgentPoolNetworkProfile{ApplicationSecurityGroups: []*string{to.Ptr("/asg")}}}), []string{`properties.networkProfile=applicationSecurityGroups ["/asg"]`}},
		{"pool host ports only", pool(&armcontainerservice.ManagedClusterAgentPoolProfileProperties{NetworkProfile: &armcontainerservice.AgentPoolNetworkProfile{AllowedHostPorts: []*armcontainerservice.PortRange{{}}}}), nil},
		{"pod-only network policy is irrelevant", &armcontainerservice.ManagedCluster{ID: to.Ptr("/c"), Properties: &armcontainerservice.ManagedClusterProperties{NetworkProfile: &armcontainerservice.NetworkProfile{NetworkPolicy: to.Ptr(armcontainerservice.NetworkPolicyCilium), AdvancedNetworking: &armcontainerservice.AdvancedNetworking{Enabled: to.Ptr(true)}}}}, nil},
		{"bootstrap from a cache", &armcontainerservice.ManagedCluster{ID: to.Ptr("/c"), Properties: &armcontainerservice.ManagedClusterProperties{BootstrapProfile: &armcontainerservice.ManagedClusterBootstrapProfile{ArtifactSource: to.Ptr(armcontainerservice.ArtifactSourceCache)}}}, []string{"properties.bootstrapProfile=Cache"}},
		{"bootstrap direct", &armcontainerservice.ManagedCluster{ID: to.Ptr("/c"), Properties: &armcontainerservice.ManagedClusterProperties{BootstrapProfile: &armcontainerservice.ManagedClusterBootstrapProfile{ArtifactSource: to.Ptr(armcontainerservice.ArtifactSourceDirect)}}}, nil},
		{"VNet encryption dropping", vnet(&armnetwork.VirtualNetworkEncryption{Enabled: to.Ptr(true), Enforcement: &drop}), []string{"properties.encryption=enabled, enforcement DropUnencrypted"}},
		{"VNet encryption allowing", vnet(&armnetwork.VirtualNetworkEncryption{Enabled: to.Ptr(true), Enforcement: &allow}), nil},
		{"VNet encryption off", vnet(&armnetwork.VirtualNetworkEncryption{Enabled: to.Ptr(false), Enforcement: &drop}), nil},
		{"subnet service endpoint policy", &armnetwork.Subnet{ID: to.Ptr("/s"), Properties: &armnetwork.SubnetPropertiesFormat{ServiceEndpointPolicies: []*armnetwork.ServiceEndpointPolicy{{ID: to.Ptr("/sep")}}}}, []string{`properties.serviceEndpointPolicies=[{"id":"/sep"}]`}},
		{"firewall threat intel deny is irrelevant", &armnetwork.AzureFirewall{ID: to.Ptr("/fw"), Properties: &armnetwork.AzureFirewallPropertiesFormat{ThreatIntelMode: to.Ptr(armnetwork.AzureFirewallThreatIntelModeDeny)}}, nil},
		{"registry quarantine", &armcontainerregistry.Registry{ID: to.Ptr("/r"), Properties: &armcontainerregistry.RegistryProperties{Policies: &armcontainerregistry.Policies{QuarantinePolicy: &armcontainerregistry.QuarantinePolicy{Status: to.Ptr(armcontainerregistry.PolicyStatusEnabled)}}}}, []string{"properties.policies=quarantinePolicy enabled"}},
		{"registry quarantine off", &armcontainerregistry.Registry{ID: to.Ptr("/r"), Properties: &armcontainerregistry.RegistryProperties{Policies: &armcontainerregistry.Policies{QuarantinePolicy: &armcontainerregistry.QuarantinePolicy{Status: to.Ptr(armcontainerregistry.PolicyStatusDisabled)}}}}, nil},
	}
	runUnmodelledCases(t, tests)
}

// TestOpenWorldDocMatchesTable holds docs/design/open-world.md to the
// table: the document's table part is rendered from it. Rewrite it with
// PULLPATH_UPDATE_OPENWORLD=1 after changing the table.
func TestOpenWorldDocMatchesTable(t *testing.T) {
	const path = "../../docs/design/open-world.md"
	const marker = "<!-- table: generated from gather/openworld.go by TestOpenWorldDocMatchesTable -->\n"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, marker)
	if i < 0 {
		t.Fatalf("%s has no table marker %q", path, marker)
	}
	want := doc[:i] + marker + renderOpenWorld()
	if doc == want {
		return
	}
	if os.Getenv("PULLPATH_UPDATE_OPENWORLD") != "" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s does not match the open-world table; run with PULLPATH_UPDATE_OPENWORLD=1 to rewrite it", path)
}

// renderOpenWorld is the table as Markdown, type by type from the roots,
// properties in the SDK's order.
func renderOpenWorld() string {
	var sb strings.Builder
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type, string)
	walk = func(typ reflect.Type, path string) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if seen[typ] {
			return
		}
		seen[typ] = true
		table := openWorld[typ]
		fmt.Fprintf(&sb, "\n### %s\n\n", typ)
		if path != "" {
			fmt.Fprintf(&sb, "At `%s`.\n\n", path)
		}
		sb.WriteString("| property | class | why |\n|---|---|---|\n")
		var nested []reflect.StructField
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			c := table[f.Name]
			fmt.Fprintf(&sb, "| `%s` | %s | %s |\n", propertyName(typ, f.Name), c.Class, strings.ReplaceAll(c.Why, "|", "\\|"))
			if c.Descend {
				nested = append(nested, f)
			}
		}
		for _, f := range nested {
			p := propertyName(typ, f.Name)
			if path != "" {
				p = path + "." + p
			}
			walk(f.Type, p)
		}
	}
	for _, root := range openWorldRoots {
		walk(reflect.TypeOf(root), "")
	}
	return sb.String()
}

// unmodelledCase is one row of a table test of unmodelledOf: the settings
// away from their default that resource has, as property=value in order.
type unmodelledCase struct {
	name     string
	resource any
	want     []string // property=value
}

// runUnmodelledCases runs each case as a subtest; every setting found
// must give its reason.
func runUnmodelledCases(t *testing.T, cases []unmodelledCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, u := range unmodelledOf(model.ResourceID("/x"), tc.resource) {
				if u.Why == "" {
					t.Errorf("%s: no reason", u.Property)
				}
				got = append(got, u.Property+"="+u.Value)
			}
			sort.Strings(got)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("unmodelled settings = %q, want %q", got, tc.want)
			}
		})
	}
}
