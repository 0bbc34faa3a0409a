// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tfprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/pullpath/terraform-provider-pullpath/internal/provider"
)

// testAccProviderFactories serves the provider in-process to whichever CLI
// TF_ACC_TERRAFORM_PATH names (see scripts/acc-env.sh). A fresh provider per
// call, as the CLI starts one per operation. Its clock says testToday, so
// that accept blocks (their expiry) do not depend on the day tests run.
var testAccProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"pullpath": func() (tfprotov6.ProviderServer, error) {
		return providerserver.NewProtocol6WithError(testProvider())()
	},
}

// testToday is the day every test provider judges accept blocks on
// (scenarios' verify.tf write their expires dates against it).
var testToday = time.Date(2026, 6, 15, 12, 0, 0, 0, time.UTC)

// testProvider is the provider with the clock at testToday.
func testProvider() tfprovider.Provider {
	return provider.NewAt("test", func() time.Time { return testToday })()
}

// Ids of the scenario snapshots (testdata/scenarios).
const (
	accSub      = "00000000-0000-0000-0000-000000000001"
	accHub      = "/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub"
	accSpoke    = "/subscriptions/" + accSub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke"
	accRegistry = "/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/contosoreg"
	accZone     = "/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io"
	accPE       = "/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/privateEndpoints/pe-acr"
	accNodeNIC1 = "/subscriptions/" + accSub + "/resourceGroups/MC_rg-spoke_aks1_westeurope/providers/Microsoft.Compute/virtualMachineScaleSets/aks-system-12345678-vmss/virtualMachines/1/networkInterfaces/aks-system-12345678-vmss"
)

// fixture is the absolute path of a snapshot in testdata: the CLI runs the
// configuration in a temporary directory, so relative paths would not resolve.
func fixture(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
	return p
}

// variant writes a copy of a testdata snapshot changed by edit into a
// temporary file and returns its absolute path. Small variants (a fault, a
// flag) are derived here so that each test shows exactly what it changes.
func variant(t *testing.T, name string, edit func(snap map[string]any)) string {
	t.Helper()
	raw, err := os.ReadFile(fixture(t, name))
	if err != nil {
		t.Fatal(err)
	}
	var snap map[string]any
	if err := json.Unmarshal(raw, &snap); err != nil {
		t.Fatal(err)
	}
	edit(snap)
	out, err := json.MarshalIndent(snap, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), strings.TrimSuffix(name, ".json")+"-variant.json")
	if err := os.WriteFile(p, out, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// withFault adds one fault (docs/design/snapshot-format.md) for "METHOD path".
func withFault(key string, fault map[string]any) func(map[string]any) {
	return func(snap map[string]any) {
		faults, _ := snap["faults"].(map[string]any)
		if faults == nil {
			faults = map[string]any{}
		}
		faults[key] = fault
		snap["faults"] = faults
	}
}

// resourceProps returns the properties of the snapshot resource with id.
func resourceProps(t *testing.T, snap map[string]any, id string) map[string]any {
	t.Helper()
	for _, r := range snap["resources"].([]any) {
		m := r.(map[string]any)
		if strings.EqualFold(m["id"].(string), id) {
			return m["properties"].(map[string]any)
		}
	}
	t.Fatalf("no resource %s in the snapshot", id)
	return nil
}

// providerConfigWithPlan is providerConfig with planned_changes_file (none
// when plan is "").
func providerConfigWithPlan(snapshot, plan string) string {
	if plan == "" {
		return providerConfig(snapshot)
	}
	return fmt.Sprintf("provider \"pullpath\" {\n  snapshot_file        = %q\n  planned_changes_file = %q\n}\n", snapshot, plan)
}

// providerConfig is a provider block answering from a snapshot.
func providerConfig(snapshot string) string {
	return fmt.Sprintf("provider \"pullpath\" {\n  snapshot_file = %q\n}\n", snapshot)
}
