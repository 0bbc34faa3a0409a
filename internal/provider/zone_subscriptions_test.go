// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// connectivitySub holds the central privatelink.azurecr.io of the scenario
// dns_zone_subscriptions_named, where Azure Resource Graph is not allowed.
const connectivitySub = "00000000-0000-0000-0000-0000000000cc"

// The subscriptions that hold the private DNS zones are
// zone_subscription_ids (the name of the public interface, as in
// pullpath_private_dns_links). dns_zone_subscription_ids, the former name,
// does the same with a deprecation warning naming zone_subscription_ids;
// both together are an error on the deprecated one, before anything is
// read. Without either, Resource Graph is asked and refused, which shows
// that the names have an effect at all.
func TestVerificationZoneSubscriptionNames(t *testing.T) {
	snap := scenarioSnapshot(t, "dns_zone_subscriptions_named")
	args := func(extra map[string]any) map[string]any {
		m := map[string]any{"cluster_id": accCluster, "registry_id": accRegistry, "enforce": false}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	subs := []string{connectivitySub}

	current := readDataSource(t, snap, "pullpath_verification", args(map[string]any{"zone_subscription_ids": subs}))
	former := readDataSource(t, snap, "pullpath_verification", args(map[string]any{"dns_zone_subscription_ids": subs}))
	neither := readDataSource(t, snap, "pullpath_verification", args(nil))
	both := readDataSource(t, snap, "pullpath_verification",
		args(map[string]any{"zone_subscription_ids": subs, "dns_zone_subscription_ids": subs}))

	if len(current.Diagnostics) != 0 {
		t.Errorf("zone_subscription_ids: want no diagnostic, got %+v", current.Diagnostics)
	}
	if v := verdictOf(t, current); v != "reachable" {
		t.Errorf("zone_subscription_ids names the connectivity subscription: verdict %q, want reachable", v)
	}
	if v := verdictOf(t, neither); v != "unverified" {
		t.Errorf("without zone subscriptions Resource Graph is refused: verdict %q, want unverified", v)
	}

	// The former name: the same result, and one warning on it that names
	// the replacement.
	if v := verdictOf(t, former); v != "reachable" {
		t.Errorf("dns_zone_subscription_ids: verdict %q, want reachable as with zone_subscription_ids", v)
	}
	if !reflect.DeepEqual(stateOf(t, former)["findings"], stateOf(t, current)["findings"]) {
		t.Errorf("dns_zone_subscription_ids and zone_subscription_ids give different findings:\n%v\n%v",
			stateOf(t, former)["findings"], stateOf(t, current)["findings"])
	}
	if len(former.Diagnostics) != 1 {
		t.Fatalf("dns_zone_subscription_ids: want one deprecation warning, got %+v", former.Diagnostics)
	}
	if d := former.Diagnostics[0]; d.Severity != "warning" || !strings.Contains(d.Attribute, "dns_zone_subscription_ids") ||
		!strings.Contains(d.Detail, "rename it to zone_subscription_ids") {
		t.Errorf("dns_zone_subscription_ids: want a warning on it naming zone_subscription_ids, got %+v", d)
	}

	// Both: an error on the deprecated name, and no read.
	if both.State != nil {
		t.Errorf("both names set: the data source was read: %v", both.State)
	}
	var errs []goldenDiag
	for _, d := range both.Diagnostics {
		if d.Severity == "error" {
			errs = append(errs, d)
		}
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Attribute, "dns_zone_subscription_ids") ||
		!strings.Contains(errs[0].Summary, "Both zone_subscription_ids and dns_zone_subscription_ids") ||
		!strings.Contains(errs[0].Detail, "set only zone_subscription_ids") {
		t.Errorf("both names set: want one error on dns_zone_subscription_ids that says to keep zone_subscription_ids, got %+v", both.Diagnostics)
	}
}

func stateOf(t *testing.T, r goldenRead) map[string]any {
	t.Helper()
	m, ok := r.State.(map[string]any)
	if !ok {
		t.Fatalf("no state: diagnostics %+v", r.Diagnostics)
	}
	return m
}

func verdictOf(t *testing.T, r goldenRead) string {
	t.Helper()
	v, _ := stateOf(t, r)["verdict"].(string)
	return v
}

// Through the CLIs: both names set fails validation on the deprecated one;
// the former name alone plans, with the value in its own attribute.
func TestAccVerification_zoneSubscriptionNames(t *testing.T) {
	snap := scenarioSnapshot(t, "dns_zone_subscriptions_named")
	body := func(names ...string) string {
		s := fmt.Sprintf("  cluster_id  = %q\n  registry_id = %q\n  enforce     = false\n", accCluster, accRegistry)
		for _, n := range names {
			s += fmt.Sprintf("  %s = [%q]\n", n, connectivitySub)
		}
		return s
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		// The failing step first: the harness destroys with the last configuration.
		Steps: []resource.TestStep{
			{
				Config:      verificationWith(snap, body("zone_subscription_ids", "dns_zone_subscription_ids")),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Both zone_subscription_ids and dns_zone_subscription_ids.*set only\s+zone_subscription_ids`),
			},
			{
				Config: verificationWith(snap, body("dns_zone_subscription_ids")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("verdict"), knownvalue.StringExact("reachable")),
					statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("dns_zone_subscription_ids"),
						knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(connectivitySub)})),
					statecheck.ExpectKnownValue(verificationAddr, tfjsonpath.New("zone_subscription_ids"), knownvalue.Null()),
				},
			},
		},
	})
}
