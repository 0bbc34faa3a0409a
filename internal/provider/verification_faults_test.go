// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/provider"
	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/gentopo"
)

// faultClass is one way a read can fail, injected through the snapshot's
// faults (or, for a slow answer, simulate.path_latency_ms).
type faultClass struct {
	name string
	// fault is the snapshot fault; nil for the slow answer.
	fault map[string]any
	// transient faults end before the retry policy gives up: the user
	// must see exactly the result of an undisturbed run.
	transient bool
	// code is the evidence finding a persistent fault must produce.
	code string
	// slow: the answer takes longer than the read timeout.
	slow bool
}

// Retry waits are kept short with retry_after_ms (honoured by the retry
// policy as Retry-After-Ms), so that a cell takes milliseconds, not the
// seconds of the default backoff.
var faultClasses = []faultClass{
	{name: "403", fault: map[string]any{"status": 403}, code: "EVIDENCE_PERMISSION_DENIED"},
	{name: "404", fault: map[string]any{"status": 404}, code: "EVIDENCE_NOT_FOUND"},
	{name: "429x2", fault: map[string]any{"status": 429, "retry_after_ms": 5, "times": 2}, transient: true},
	{name: "500x2", fault: map[string]any{"status": 500, "retry_after_ms": 5, "times": 2}, transient: true},
	{name: "500always", fault: map[string]any{"status": 500, "retry_after_ms": 5}, code: "EVIDENCE_UNAVAILABLE"},
	{name: "notjson", fault: map[string]any{"status": 200, "body": "<html><body><h1>502 Bad Gateway</h1></body></html>"}, code: "EVIDENCE_UNAVAILABLE"},
	{name: "slow", slow: true},
}

// slowReadTimeout is the read timeout of the slow cells: the faulted read
// takes 10 minutes, everything else answers at once.
const slowReadTimeout = "1s"

// verificationResult is what a user relies on, without timing: the
// verdict, findings, paths and summary, in the order the data source
// returns them.
type verificationResult struct {
	Verdict  string             `json:"verdict"`
	Findings []provider.Finding `json:"findings"`
	Paths    []provider.Path    `json:"paths"`
	Summary  string             `json:"summary"`
}

func resultOf(o provider.VerificationOutcome) verificationResult {
	return verificationResult{Verdict: o.Verdict, Findings: o.Findings, Paths: o.Paths, Summary: o.Summary}
}

// runInProcess runs pullpath_verification in process and fails on a harness
// error; a panic in the provider fails the test with the cell's name.
func runInProcess(t *testing.T, ctx context.Context, in provider.VerificationInput) (out provider.VerificationOutcome) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("the verification panicked: %v", p)
		}
	}()
	out, err := provider.RunVerification(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// writeSnapshot writes snap to a temporary file.
func writeSnapshot(t *testing.T, snap map[string]any) string {
	t.Helper()
	raw, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "snapshot.json")
	if err := os.WriteFile(p, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func loadSnapshot(t *testing.T, path string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var snap map[string]any
	if err := json.Unmarshal(raw, &snap); err != nil {
		t.Fatal(err)
	}
	return snap
}

// TestVerificationFaultMatrix faults every read of the reference
// verification (baseline_ok, reachable) in turn with every fault class and
// checks what the user would see: transient faults change nothing;
// persistent ones never leave the verdict reachable and name the resource
// (and, for 403, the permission) in an evidence finding; a read slower than
// the read timeout ends the read with the timeout error.
func TestVerificationFaultMatrix(t *testing.T) {
	snapPath := scenarioSnapshot(t, "baseline_ok")
	faultMatrix(t, provider.VerificationInput{Snapshot: snapPath, ClusterID: accCluster, RegistryID: accRegistry}, "reachable", nil)
}

// TestVerificationFaultMatrixEgress is the fault matrix of the reads of
// the public path that baseline_ok does not make: the public IP addresses
// and prefixes and the NAT gateway the nodes leave through (for a registry
// that admits listed IP ranges only), and the Azure Firewall a route for
// public addresses points to, with what decides its rules (its policy and
// the parent policy, their rule collection groups, the IP group) and its
// public IP, which the registry admits. Every reference is reachable; a
// persistent fault of any of its reads must leave it unverified, naming
// the faulted read.
func TestVerificationFaultMatrixEgress(t *testing.T) {
	ctx := context.Background()
	baseline := runInProcess(t, ctx, provider.VerificationInput{Snapshot: scenarioSnapshot(t, "baseline_ok"), ClusterID: accCluster, RegistryID: accRegistry})
	seen := map[string]bool{}
	for _, r := range baseline.Requested {
		seen[r] = true
	}
	newReads := func(read string) bool { return !seen[read] }
	publicReg := "/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/publicreg"

	firewall, err := deriveSnapshot("ip_rules_allowed", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range firewallEgressEdits() {
		if err := applyEdit(firewall, e); err != nil {
			t.Fatalf("%s: %v", e.Why, err)
		}
	}
	for _, ref := range []struct {
		name    string
		snap    string
		verdict string
		reads   []string // reads of the public path the reference must make
	}{
		{"ip_rules_allowed", scenarioSnapshot(t, "ip_rules_allowed"), "reachable", []string{"/publicipaddresses/"}},
		{"egress_nat_gateway", scenarioSnapshot(t, "egress_nat_gateway"), "reachable", []string{"/natgateways/", "/publicipprefixes/"}},
		{"azure_firewall", writeSnapshot(t, firewall), "reachable", []string{"/azurefirewalls/fw-hub", "/routetables/rt-aks",
			"/firewallpolicies/fwpol-hub", "/firewallpolicies/fwpol-base", "/firewallpolicies/fwpol-hub/rulecollectiongroups",
			"/firewallpolicies/fwpol-base/rulecollectiongroups", "/ipgroups/ipg-aks-nodes", "/publicipaddresses/pip-fw-hub"}},
	} {
		t.Run(ref.name, func(t *testing.T) {
			in := provider.VerificationInput{Snapshot: ref.snap, ClusterID: accCluster, RegistryID: publicReg}
			only := newReads
			if ref.name == "azure_firewall" {
				// The flow leaves through the firewall, so no conclusion
				// uses the cluster load balancer's outbound IP, read
				// speculatively (a fault there rightly changes nothing):
				// that read is ip_rules_allowed's cell.
				only = func(read string) bool {
					return newReads(read) && !strings.Contains(strings.ToLower(read), "/mc_rg-spoke_aks1_westeurope/providers/microsoft.network/publicipaddresses/")
				}
			}
			reads := faultMatrix(t, in, ref.verdict, only)
			for _, want := range ref.reads {
				found := false
				for _, r := range reads {
					found = found || strings.Contains(r, want)
				}
				if !found {
					t.Errorf("the reference made no read of %s: the matrix would prove nothing about it; reads %v", want, reads)
				}
			}
		})
	}
}

// firewallEgressEdits turn ip_rules_allowed into nodes whose route for
// public addresses goes to Azure Firewall fw-hub (10.0.4.4, public IP
// 20.80.0.1, which the registry admits), whose policy fwpol-hub (child of
// fwpol-base) allows HTTPS to the registry's login server and data
// endpoint from the node IP group.
func firewallEgressEdits() []deriveEdit {
	hub := "/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.Network"
	spoke := "/subscriptions/" + accSub + "/resourceGroups/rg-spoke/providers/Microsoft.Network"
	fw, pip, rt := hub+"/azureFirewalls/fw-hub", hub+"/publicIPAddresses/pip-fw-hub", spoke+"/routeTables/rt-aks"
	policy, ipGroup := hub+"/firewallPolicies/fwpol-hub", hub+"/ipGroups/ipg-aks-nodes"
	base := "/subscriptions/" + accSub + "/resourceGroups/rg-security/providers/Microsoft.Network/firewallPolicies/fwpol-base"
	raw := func(v any) json.RawMessage {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		return b
	}
	subnet := map[string]any{"name": "AzureFirewallSubnet", "id": hub + "/virtualNetworks/vnet-hub/subnets/AzureFirewallSubnet",
		"properties": map[string]any{"addressPrefix": "10.0.4.0/26", "privateEndpointNetworkPolicies": "Disabled",
			"ipConfigurations": []any{map[string]any{"id": fw + "/azureFirewallIpConfigurations/ipconfig1"}}}}
	firewall := map[string]any{"id": fw, "name": "fw-hub", "type": "Microsoft.Network/azureFirewalls", "location": "westeurope",
		"properties": map[string]any{"sku": map[string]any{"name": "AZFW_VNet", "tier": "Standard"},
			"ipConfigurations": []any{map[string]any{"name": "ipconfig1", "id": fw + "/azureFirewallIpConfigurations/ipconfig1",
				"properties": map[string]any{"privateIPAddress": "10.0.4.4", "publicIPAddress": map[string]any{"id": pip},
					"subnet": map[string]any{"id": subnet["id"]}}}},
			"firewallPolicy": map[string]any{"id": policy}}}
	parent := map[string]any{"id": base, "name": "fwpol-base", "type": "Microsoft.Network/firewallPolicies", "location": "westeurope",
		"properties": map[string]any{"dnsSettings": map[string]any{"enableProxy": false},
			"ruleCollectionGroups": []any{map[string]any{"id": base + "/ruleCollectionGroups/platform"}}}}
	parentGroup := map[string]any{"id": base + "/ruleCollectionGroups/platform", "name": "platform", "type": "Microsoft.Network/firewallPolicies/ruleCollectionGroups",
		"properties": map[string]any{"priority": 100, "ruleCollections": []any{map[string]any{
			"ruleCollectionType": "FirewallPolicyFilterRuleCollection", "name": "ntp", "priority": 100, "action": map[string]any{"type": "Allow"},
			"rules": []any{map[string]any{"ruleType": "NetworkRule", "name": "ntp", "sourceAddresses": []any{"10.0.0.0/8"},
				"destinationAddresses": []any{"*"}, "destinationPorts": []any{"123"}, "ipProtocols": []any{"UDP"}}}}}}}
	child := map[string]any{"id": policy, "name": "fwpol-hub", "type": "Microsoft.Network/firewallPolicies", "location": "westeurope",
		"properties": map[string]any{"basePolicy": map[string]any{"id": base}, "dnsSettings": map[string]any{"enableProxy": false},
			"ruleCollectionGroups": []any{map[string]any{"id": policy + "/ruleCollectionGroups/egress"}}}}
	childGroup := map[string]any{"id": policy + "/ruleCollectionGroups/egress", "name": "egress", "type": "Microsoft.Network/firewallPolicies/ruleCollectionGroups",
		"properties": map[string]any{"priority": 300, "ruleCollections": []any{map[string]any{
			"ruleCollectionType": "FirewallPolicyFilterRuleCollection", "name": "registry", "priority": 200, "action": map[string]any{"type": "Allow"},
			"rules": []any{map[string]any{"ruleType": "ApplicationRule", "name": "allow-publicreg", "sourceIpGroups": []any{ipGroup},
				"protocols":   []any{map[string]any{"protocolType": "Https", "port": 443}},
				"targetFqdns": []any{"publicreg.azurecr.io", "publicreg.westeurope.data.azurecr.io"}}}}}}}
	nodes := map[string]any{"id": ipGroup, "name": "ipg-aks-nodes", "type": "Microsoft.Network/ipGroups", "location": "westeurope",
		"properties": map[string]any{"ipAddresses": []any{"10.1.0.0/16"}}}
	address := map[string]any{"id": pip, "name": "pip-fw-hub", "type": "Microsoft.Network/publicIPAddresses", "location": "westeurope",
		"properties": map[string]any{"ipAddress": "20.80.0.1", "publicIPAllocationMethod": "Static"}}
	routes := map[string]any{"id": rt, "name": "rt-aks", "type": "Microsoft.Network/routeTables", "location": "westeurope",
		"properties": map[string]any{"routes": []any{map[string]any{"name": "default-to-fw", "id": rt + "/routes/default-to-fw",
			"properties": map[string]any{"addressPrefix": "0.0.0.0/0", "nextHopType": "VirtualAppliance", "nextHopIpAddress": "10.0.4.4"}}}}}
	return []deriveEdit{
		{Op: "append", ID: hub + "/virtualNetworks/vnet-hub", Path: "properties/subnets", Value: raw(subnet), Why: "the hub's AzureFirewallSubnet"},
		{Op: "put", Resource: raw(firewall), Why: "Azure Firewall fw-hub at 10.0.4.4"},
		{Op: "put", Resource: raw(child), Why: "its policy fwpol-hub, child of fwpol-base"},
		{Op: "put", Resource: raw(childGroup), Why: "HTTPS to the registry's login server and data endpoint from the node IP group"},
		{Op: "put", Resource: raw(parent), Why: "the parent policy, in another resource group"},
		{Op: "put", Resource: raw(parentGroup), Why: "the parent's rules: NTP only"},
		{Op: "put", Resource: raw(nodes), Why: "the node IP group"},
		{Op: "put", Resource: raw(address), Why: "its public IP 20.80.0.1"},
		{Op: "put", Resource: raw(routes), Why: "0.0.0.0/0 to the firewall"},
		{Op: "set", ID: spoke + "/virtualNetworks/vnet-spoke", Path: "properties/subnets/[name=snet-aks]/properties/routeTable",
			Value: raw(map[string]any{"id": rt}), Why: "on the node subnet"},
		{Op: "set", ID: "/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/publicreg", Path: "properties/networkRuleSet/ipRules",
			Value: raw([]any{map[string]any{"action": "Allow", "value": "20.80.0.1"}}), Why: "the registry admits the firewall's address"},
	}
}

// faultMatrix faults every read of the reference verification in (those
// only passes, when set) in turn with every fault class and checks what
// the user would see against the reference run, whose verdict must be
// wantVerdict. It returns the reads it faulted.
func faultMatrix(t *testing.T, in provider.VerificationInput, wantVerdict string, only func(read string) bool) []string {
	t.Helper()
	ctx := context.Background()
	base := runInProcess(t, ctx, in)
	// An unverified reference warns (its findings are the warning's
	// detail); an error would leave nothing to compare.
	if base.Verdict != wantVerdict || base.Diagnostics.HasError() || (wantVerdict == "reachable" && len(base.Diagnostics) != 0) {
		t.Fatalf("reference run: verdict %q, diagnostics %v; want %s without errors; findings %s", base.Verdict, base.Diagnostics, wantVerdict, jsonOf(base.Findings))
	}
	want := resultOf(base)
	var reads []string
	for _, r := range base.Requested {
		if only == nil || only(r) {
			reads = append(reads, r)
		}
	}
	if only == nil && len(reads) < 10 {
		t.Fatalf("reference run made only %d distinct reads: %v", len(reads), reads)
	}
	rawBase, err := os.ReadFile(in.Snapshot)
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	counts := map[string]map[string]int{} // class → outcome → cells
	record := func(class, outcome string) {
		mu.Lock()
		defer mu.Unlock()
		if counts[class] == nil {
			counts[class] = map[string]int{}
		}
		counts[class][outcome]++
	}

	t.Run("cells", func(t *testing.T) {
		for _, read := range reads {
			method, path, _ := strings.Cut(read, " ")
			for _, fc := range faultClasses {
				t.Run(fc.name+" "+shortRead(read), func(t *testing.T) {
					t.Parallel()
					var snap map[string]any
					if err := json.Unmarshal(rawBase, &snap); err != nil {
						t.Fatal(err)
					}
					cell := in
					if fc.slow {
						snap["simulate"] = map[string]any{"latency_ms": 0, "action_latency_ms": 0,
							"path_latency_ms": map[string]any{read: 10 * 60 * 1000}}
						cell.ReadTimeout = slowReadTimeout
					} else {
						withFault(read, fc.fault)(snap)
					}
					cell.Snapshot = writeSnapshot(t, snap)

					started := time.Now()
					out := runInProcess(t, ctx, cell)
					took := time.Since(started)
					outcome := out.Verdict
					if out.Diagnostics.HasError() && out.Verdict == "" {
						outcome = "error: " + out.Diagnostics.Errors()[0].Summary()
					}
					record(fc.name, outcome)

					switch {
					case fc.transient:
						// Two faulted tries more than the reference run: the
						// fault was served and retried, not skipped.
						if out.ARMRequests != base.ARMRequests+2 {
							t.Errorf("arm_requests %d, want %d (the reference run's %d plus two retried tries)",
								out.ARMRequests, base.ARMRequests+2, base.ARMRequests)
						}
						if got := resultOf(out); !reflect.DeepEqual(got, want) {
							t.Errorf("a fault that ends after retries changed the result:\n got %s\nwant %s", jsonOf(got), jsonOf(want))
						}
					case fc.slow:
						// Generous bound: the timeout is 1 s, the read 10 min.
						if took > 20*time.Second {
							t.Errorf("the read took %s with a %s read timeout", took, slowReadTimeout)
						}
						if out.Verdict != "" || !out.Diagnostics.HasError() {
							t.Fatalf("want the read to fail with the timeout, got verdict %q, diagnostics %v", out.Verdict, out.Diagnostics)
						}
						d := out.Diagnostics.Errors()[0]
						if d.Summary() != "Timed out verifying the pull path" || !strings.Contains(d.Detail(), `Raise timeouts { read = "…" }`) ||
							!strings.Contains(d.Detail(), "("+slowReadTimeout+")") {
							t.Errorf("timeout diagnostic does not name the timeout and the fix: %s: %s", d.Summary(), d.Detail())
						}
					case isTarget(in, path):
						checkFailsClosed(t, method, path, fc, out)
					default:
						checkPersistentFault(t, method, path, fc, out)
					}
				})
			}
		}
	})

	classes := make([]string, 0, len(counts))
	for c := range counts {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	t.Logf("fault matrix: %d reads × %d fault classes = %d cells", len(reads), len(faultClasses), len(reads)*len(faultClasses))
	for _, c := range classes {
		t.Logf("  %-10s %v", c, counts[c])
	}
	return reads
}

// checkPersistentFault: never reachable, and unverified since nothing else
// is wrong; an evidence finding of the class's
// code names the faulted resource, and for 403 the permission it needs.
func checkPersistentFault(t *testing.T, method, path string, fc faultClass, out provider.VerificationOutcome) {
	t.Helper()
	if out.Verdict == "reachable" {
		t.Fatalf("verdict reachable although %s %s failed persistently (%s); findings: %s", method, path, fc.name, jsonOf(out.Findings))
	}
	// The reference network has no fault of its own, so an error finding
	// here could only be a conclusion drawn from the missing fact.
	if out.Verdict != "unverified" {
		t.Fatalf("verdict %q, diagnostics %v; want unverified (the reference network has no error), findings: %s",
			out.Verdict, out.Diagnostics, jsonOf(out.Findings))
	}
	action, err := azure.RequiredAction(method, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range out.Findings {
		if f.Code != fc.code || !namesResource(f, path) {
			continue
		}
		if fc.name == "403" && !strings.Contains(strings.ToLower(f.Message), strings.ToLower(action)) {
			t.Errorf("%s names the resource but not the permission %s: %s", f.Code, action, f.Message)
		}
		return
	}
	t.Errorf("no %s finding names %s; verdict %s, findings: %s", fc.code, path, out.Verdict, jsonOf(out.Findings))
}

// isTarget: the read is of a resource an argument of in names (the cluster,
// the registry).
func isTarget(in provider.VerificationInput, path string) bool {
	return strings.EqualFold(path, in.ClusterID) || strings.EqualFold(path, in.RegistryID)
}

// checkFailsClosed: a persistent failure to read what an argument names is
// no verdict but an error on that argument that names the resource (and for
// 403 the permission), never a finding.
func checkFailsClosed(t *testing.T, method, path string, fc faultClass, out provider.VerificationOutcome) {
	t.Helper()
	if !out.Diagnostics.HasError() || out.Verdict != "" || len(out.Findings) != 0 {
		t.Fatalf("a persistent %s on %s %s: verdict %q, diagnostics %v; want an error and no verdict", fc.name, method, path, out.Verdict, out.Diagnostics)
	}
	d := out.Diagnostics.Errors()[0]
	wp, ok := d.(diag.DiagnosticWithPath)
	arg := "cluster_id"
	if strings.Contains(strings.ToLower(path), "/microsoft.containerregistry/") {
		arg = "registry_id"
	}
	if !ok || wp.Path().String() != arg {
		t.Errorf("the error is not on %s: %s: %s", arg, d.Summary(), d.Detail())
	}
	if !strings.Contains(strings.ToLower(d.Detail()), strings.ToLower(path)) || !strings.Contains(d.Detail(), "whatever enforce") {
		t.Errorf("the error does not name %s or say that it fails closed: %s", path, d.Detail())
	}
	if fc.name == "403" {
		action, err := azure.RequiredAction(method, path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.ToLower(d.Detail()), strings.ToLower(action)) {
			t.Errorf("the error names the resource but not the permission %s: %s", action, d.Detail())
		}
	}
}

// namesResource: the finding's resource is the faulted one, or its message
// names it (ids compared case-insensitively, as ARM does).
func namesResource(f provider.Finding, path string) bool {
	return strings.EqualFold(f.ResourceID, path) || strings.Contains(strings.ToLower(f.Message), strings.ToLower(path))
}

// shortRead is a read as a subtest name: the method and the path after the
// subscription, so that failures stay readable.
func shortRead(read string) string {
	method, path, _ := strings.Cut(read, " ")
	if i := strings.Index(path, "/resourcegroups/"); i >= 0 {
		path = path[i+len("/resourcegroups/"):]
	} else if i := strings.Index(path, "/providers/"); i >= 0 {
		path = path[i+1:]
	}
	return method + " " + path
}

func jsonOf(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// scenarioInput reads the arguments of a scenario's verify.tf that the
// in-process harness supports (cluster_id, registry_id, registry.hosts,
// registry.addresses, zone_subscription_ids, pull_credentials).
func scenarioInput(t *testing.T, sc scenario) provider.VerificationInput {
	t.Helper()
	in := provider.VerificationInput{Snapshot: sc.snapshotPath(t), PlannedChangesFile: sc.planPath(t)}
	if m := regexp.MustCompile(`cluster_id\s*=\s*"([^"]+)"`).FindStringSubmatch(sc.Body); m != nil {
		in.ClusterID = m[1]
	}
	if m := regexp.MustCompile(`registry_id\s*=\s*"([^"]+)"`).FindStringSubmatch(sc.Body); m != nil {
		in.RegistryID = m[1]
	}
	if m := regexp.MustCompile(`hosts\s*=\s*\[([^\]]*)\]`).FindStringSubmatch(sc.Body); m != nil {
		for _, h := range regexp.MustCompile(`"([^"]+)"`).FindAllStringSubmatch(m[1], -1) {
			in.RegistryHosts = append(in.RegistryHosts, h[1])
		}
	}
	if m := regexp.MustCompile(`addresses\s*=\s*\{([^}]*)\}`).FindStringSubmatch(sc.Body); m != nil {
		in.RegistryAddresses = map[string]string{}
		for _, kv := range regexp.MustCompile(`"([^"]+)"\s*=\s*"([^"]+)"`).FindAllStringSubmatch(m[1], -1) {
			in.RegistryAddresses[kv[1]] = kv[2]
		}
	}
	if m := regexp.MustCompile(`(?m)^\s*zone_subscription_ids\s*=\s*\[([^\]]*)\]`).FindStringSubmatch(sc.Body); m != nil {
		for _, s := range regexp.MustCompile(`"([^"]+)"`).FindAllStringSubmatch(m[1], -1) {
			in.ZoneSubscriptionIDs = append(in.ZoneSubscriptionIDs, s[1])
		}
	}
	if m := regexp.MustCompile(`(?m)^\s*pull_credentials\s*=\s*"([^"]+)"`).FindStringSubmatch(sc.Body); m != nil {
		in.PullCredentials = m[1]
	}
	for _, block := range regexp.MustCompile(`(?ms)^accept\s*\{(.*?)^\}`).FindAllStringSubmatch(sc.Body, -1) {
		b := map[string]string{}
		for _, kv := range regexp.MustCompile(`(?m)^\s*(\w+)\s*=\s*"([^"]*)"`).FindAllStringSubmatch(block[1], -1) {
			b[kv[1]] = kv[2]
		}
		in.Accept = append(in.Accept, b)
	}
	in.Today = testToday
	if in.ClusterID == "" || (in.RegistryID == "" && len(in.RegistryHosts) == 0) ||
		regexp.MustCompile(`node_subnet_ids|node_pools|dns_zone_subscription_ids`).MatchString(sc.Body) {
		t.Fatalf("scenario %s: verify.tf uses arguments the in-process harness does not read:\n%s", sc.Name, sc.Body)
	}
	return in
}

// TestVerificationRequestsArePermitted runs every scenario in process and
// checks each request it sent against the permissions the provider
// documents: the action ARM checks for it (derived from the request) must
// be in gather.Permissions (which docs/guides/permissions.md is compared
// with), and a POST must be one of the read-only guard's actions. A read
// added without its permission would otherwise surface only as a 403 for
// a user with the documented custom role.
func TestVerificationRequestsArePermitted(t *testing.T) {
	documented := map[string]bool{}
	for _, action := range gather.Permissions {
		documented[strings.ToLower(action)] = true
	}
	guarded := map[string]bool{}
	for _, a := range model.ReadActions() {
		guarded[strings.ToLower(a.Action)] = true
	}
	used := map[string]bool{}
	for _, sc := range discoverScenarios(t) {
		in := scenarioInput(t, sc)
		out := runInProcess(t, context.Background(), in)
		if out.Verdict != sc.Expect.Verdict {
			t.Errorf("scenario %s: verdict %q in process, expect.json says %q", sc.Name, out.Verdict, sc.Expect.Verdict)
		}
		for _, req := range out.Requested {
			method, path, _ := strings.Cut(req, " ")
			action, err := azure.RequiredAction(method, path)
			if err != nil {
				t.Errorf("scenario %s: %v", sc.Name, err)
				continue
			}
			action = strings.ToLower(action)
			used[action] = true
			if !documented[action] {
				t.Errorf("scenario %s: %s needs %s, which gather.Permissions (and the permissions guide) does not list", sc.Name, req, action)
			}
			if method == "POST" && !guarded[action] {
				t.Errorf("scenario %s: %s is a POST outside the read-only guard's actions", sc.Name, req)
			}
		}
	}
	t.Logf("%d distinct actions used across the scenarios, %d documented", len(used), len(documented))
}

// TestVerificationDeterministic: the same inputs give byte-identical
// findings, paths and summary, whatever the number of reads in flight and
// however the goroutines interleave. Timing (stats.duration_ms) is left
// out; arm_requests is compared too, since every read is made once.
func TestVerificationDeterministic(t *testing.T) {
	var inputs []provider.VerificationInput
	var names []string
	for _, sc := range discoverScenarios(t) {
		switch sc.Name {
		case "baseline_ok", "custom_dns_vm", "forwarding_rule_diverts", "gateway_transit_missing", "nsg_unverified_tag", "roleassignments_forbidden":
			inputs = append(inputs, scenarioInput(t, sc))
			names = append(names, sc.Name)
		}
	}
	// A generated hub and spokes with several pools, subnets and replicas:
	// many reads in flight at once, and findings from maps of many keys.
	topo, err := gentopo.Generate(gentopo.Options{Pools: 6, Subnets: 4, Spokes: 2, Replicas: 3, BGPRoutes: 200, DNSZones: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "topology.json")
	if err := os.WriteFile(p, topo.Snapshot, 0o600); err != nil {
		t.Fatal(err)
	}
	inputs = append(inputs, provider.VerificationInput{Snapshot: p, ClusterID: topo.ClusterID, RegistryID: topo.RegistryID})
	names = append(names, "gentopo")

	if len(inputs) < 5 {
		t.Fatalf("only %d scenarios found: %v", len(inputs), names)
	}
	for i, in := range inputs {
		t.Run(names[i], func(t *testing.T) {
			var first []byte
			var firstReqs int64
			for run := 0; run < 6; run++ {
				in.Concurrency = []int{1, 8, 2, 8, 1, 16}[run]
				out := runInProcess(t, context.Background(), in)
				if out.Verdict == "" {
					t.Fatalf("no verdict: %v", out.Diagnostics)
				}
				got, err := json.Marshal(resultOf(out))
				if err != nil {
					t.Fatal(err)
				}
				if run == 0 {
					first, firstReqs = got, out.ARMRequests
					continue
				}
				if !bytes.Equal(got, first) {
					t.Fatalf("run %d (%d reads in flight) differs from run 0 (1 in flight):\n%s", run, in.Concurrency, firstDiff(first, got))
				}
				if out.ARMRequests != firstReqs {
					t.Errorf("run %d (%d in flight): %d ARM requests, run 0: %d", run, in.Concurrency, out.ARMRequests, firstReqs)
				}
			}
		})
	}
}

// firstDiff shows where two serialised results part.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-200)
	return fmt.Sprintf("…%s\n   vs\n…%s", a[lo:min(len(a), i+200)], b[lo:min(len(b), i+200)])
}

// TestVerificationCancellation: with every answer 10 minutes away, a
// cancelled run (Terraform interrupted) and a read timeout both end the
// read promptly with an error that says what happened, and leave no
// goroutine behind. Bounds are generous on purpose: the point is
// "seconds, not minutes".
func TestVerificationCancellation(t *testing.T) {
	snap := loadSnapshot(t, scenarioSnapshot(t, "baseline_ok"))
	snap["simulate"] = map[string]any{"latency_ms": 10 * 60 * 1000, "action_latency_ms": 0}
	slow := writeSnapshot(t, snap)
	in := provider.VerificationInput{Snapshot: slow, ClusterID: accCluster, RegistryID: accRegistry}

	// A first run starts whatever the process keeps for good (timers of
	// the runtime, pools), so that the count below is the run's own.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	runInProcess(t, ctx, in)
	cancel()
	waitGoroutines(t, 2) // the test binary's main goroutine and this test

	for _, tc := range []struct {
		name          string
		timeout       string
		cancelAfter   time.Duration
		summary, want string
		// stillReading: the message names the reads the deadline cut off
		// (every read waits 10 minutes; the cluster is the first).
		stillReading bool
	}{
		{name: "read timeout", timeout: "1s", summary: "Timed out verifying the pull path",
			want: `did not finish within the read timeout (1s), so nothing can be concluded.`, stillReading: true},
		{name: "cancelled", cancelAfter: time.Second, summary: "Could not verify the pull path",
			want: "The verification stopped before it could conclude anything"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Counted here: this subtest's goroutine is one of them.
			before := runtime.NumGoroutine()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.cancelAfter > 0 {
				time.AfterFunc(tc.cancelAfter, cancel)
			}
			run := in
			run.ReadTimeout = tc.timeout
			started := time.Now()
			out := runInProcess(t, ctx, run)
			if took := time.Since(started); took > 20*time.Second {
				t.Errorf("the read returned after %s", took)
			}
			if out.Verdict != "" || !out.Diagnostics.HasError() {
				t.Fatalf("want an error and no verdict, got verdict %q, diagnostics %v", out.Verdict, out.Diagnostics)
			}
			d := out.Diagnostics.Errors()[0]
			if d.Summary() != tc.summary || !strings.Contains(d.Detail(), tc.want) {
				t.Errorf("diagnostic %q: %s\nwant %q containing %q", d.Summary(), d.Detail(), tc.summary, tc.want)
			}
			if tc.stillReading {
				still := regexp.MustCompile(`Still being read when the time ran out: .*GET ` + regexp.QuoteMeta(accCluster) + `[,.].* Raise timeouts \{ read = "…" \}`)
				if !still.MatchString(d.Detail()) {
					t.Errorf("the timeout message does not name the cluster read that was cut off:\n%s", d.Detail())
				}
			}
			if n := waitGoroutines(t, before); n > before {
				t.Errorf("%d goroutines still running 10 s after the read returned, %d before it:\n%s", n, before, goroutineDump())
			}
		})
	}
}

// waitGoroutines waits up to 10 s for the number of goroutines to drop to
// at most n and returns the last count.
func waitGoroutines(t *testing.T, n int) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := runtime.NumGoroutine()
		if got <= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func goroutineDump() string {
	buf := make([]byte, 1<<16)
	return string(buf[:runtime.Stack(buf, true)])
}

// TestVerificationRecordsEgressReads: a verification against live Azure
// with record_file writes the resources of the public path it read (NAT
// gateway, public IP prefix, Azure Firewall with its policy, rule
// collection groups and IP group, its public IP), and the recording,
// replayed, gives the same result.
func TestVerificationRecordsEgressReads(t *testing.T) {
	snap, err := deriveSnapshot("egress_nat_gateway", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range firewallEgressEdits() {
		if err := applyEdit(snap, e); err != nil {
			t.Fatalf("%s: %v", e.Why, err)
		}
	}
	replay, err := snapshot.LoadReplay(writeSnapshot(t, snap))
	if err != nil {
		t.Fatal(err)
	}
	fake := &fakeAzure{replay: replay}
	record := filepath.Join(t.TempDir(), "recorded.json")
	publicReg := "/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/publicreg"
	live := runInProcess(t, context.Background(), provider.VerificationInput{ClusterID: accCluster, RegistryID: publicReg, RecordFile: record,
		Live: &provider.LiveAzure{Transport: fake, SubscriptionID: accSub, TenantID: secretTenant, ClientID: secretClientID, ClientSecret: secretClientSecret}})
	if live.Verdict != "reachable" || live.Diagnostics.HasError() {
		t.Fatalf("live run: verdict %q, diagnostics %v", live.Verdict, live.Diagnostics)
	}
	fake.mu.Lock()
	problems, armRequests := fake.problems, fake.armRequests
	fake.mu.Unlock()
	if len(problems) > 0 || armRequests == 0 {
		t.Fatalf("fake Azure: %d ARM requests, problems %v", armRequests, problems)
	}

	raw, err := os.ReadFile(record)
	if err != nil {
		t.Fatalf("record_file was not written: %v", err)
	}
	hub := "/subscriptions/" + accSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/"
	spoke := "/subscriptions/" + accSub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/"
	for _, id := range []string{spoke + "natGateways/natgw-aks", spoke + "publicIPPrefixes/ippre-natgw-aks", hub + "azureFirewalls/fw-hub", hub + "publicIPAddresses/pip-fw-hub",
		hub + "firewallPolicies/fwpol-hub", hub + "firewallPolicies/fwpol-hub/ruleCollectionGroups/egress", hub + "ipGroups/ipg-aks-nodes"} {
		if !strings.Contains(strings.ToLower(string(raw)), strings.ToLower(`"id": "`+id+`"`)) && !strings.Contains(strings.ToLower(string(raw)), strings.ToLower(`"id":"`+id+`"`)) {
			t.Errorf("the recording lacks %s", id)
		}
	}

	replayed := runInProcess(t, context.Background(), provider.VerificationInput{Snapshot: record, ClusterID: accCluster, RegistryID: publicReg})
	if got, want := resultOf(replayed), resultOf(live); !reflect.DeepEqual(got, want) {
		t.Errorf("the recording replays differently:\n got %s\nwant %s", jsonOf(got), jsonOf(want))
	}
}

// TestServiceTagsFaultMatrix faults the service tag read of
// nsg_tag_registry_allowed (reachable only because the tags say the
// registry's public address is in AzureContainerRegistry.WestEurope) with
// every fault class, and with answers that are malformed or missing: a
// transient fault changes nothing; otherwise the verdict is never
// reachable, an evidence finding names the read (and, for 403, the
// permission), and the rule stays SECURITY_RULE_UNVERIFIED as without the
// tags.
func TestServiceTagsFaultMatrix(t *testing.T) {
	snapPath := scenarioSnapshot(t, "nsg_tag_registry_allowed")
	ctx := context.Background()
	in := provider.VerificationInput{ClusterID: accCluster, RegistryID: accRegistry}
	in.Snapshot = snapPath
	base := runInProcess(t, ctx, in)
	if base.Verdict != "reachable" || len(base.Diagnostics) != 0 {
		t.Fatalf("reference run: verdict %q, diagnostics %v; want reachable", base.Verdict, base.Diagnostics)
	}
	const read = "GET /subscriptions/" + accSub + "/providers/Microsoft.Network/locations/westeurope/serviceTags"
	found := false
	for _, r := range base.Requested {
		found = found || strings.EqualFold(r, read)
	}
	if !found {
		t.Fatalf("the reference run did not read the service tags: %v", base.Requested)
	}
	method, path, _ := strings.Cut(read, " ")
	unverifiedRule := func(t *testing.T, out provider.VerificationOutcome) {
		t.Helper()
		for _, f := range out.Findings {
			if f.Code == "SECURITY_RULE_UNVERIFIED" && strings.Contains(f.Message, "AllowContainerRegistryWE") {
				return
			}
		}
		t.Errorf("no SECURITY_RULE_UNVERIFIED for AllowContainerRegistryWE: %s", jsonOf(out.Findings))
	}
	for _, fc := range faultClasses {
		t.Run(fc.name, func(t *testing.T) {
			t.Parallel()
			snap := loadSnapshot(t, snapPath)
			run := in
			if fc.slow {
				snap["simulate"] = map[string]any{"latency_ms": 0, "action_latency_ms": 0, "path_latency_ms": map[string]any{read: 10 * 60 * 1000}}
				run.ReadTimeout = slowReadTimeout
			} else {
				withFault(read, fc.fault)(snap)
			}
			run.Snapshot = writeSnapshot(t, snap)
			out := runInProcess(t, ctx, run)
			switch {
			case fc.transient:
				if out.ARMRequests != base.ARMRequests+2 {
					t.Errorf("arm_requests %d, want %d", out.ARMRequests, base.ARMRequests+2)
				}
				if got, want := resultOf(out), resultOf(base); !reflect.DeepEqual(got, want) {
					t.Errorf("a fault that ends after retries changed the result:\n got %s\nwant %s", jsonOf(got), jsonOf(want))
				}
			case fc.slow:
				if out.Verdict != "" || !out.Diagnostics.HasError() || out.Diagnostics.Errors()[0].Summary() != "Timed out verifying the pull path" {
					t.Errorf("want the timeout error, got verdict %q, diagnostics %v", out.Verdict, out.Diagnostics)
				}
			default:
				checkPersistentFault(t, method, path, fc, out)
				unverifiedRule(t, out)
			}
		})
	}
	for name, answer := range map[string]any{
		"malformed prefix": map[string]any{"name": "Public", "values": []any{map[string]any{"name": "AzureContainerRegistry.WestEurope",
			"properties": map[string]any{"region": "westeurope", "addressPrefixes": []any{"20.61.97.128/25", "20.61.97.300/25"}}}}},
		"tag without name": map[string]any{"name": "Public", "values": []any{map[string]any{"properties": map[string]any{"addressPrefixes": []any{}}}}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			snap := loadSnapshot(t, snapPath)
			snap["actions"].(map[string]any)[read] = answer
			out := runInProcess(t, ctx, provider.VerificationInput{ClusterID: accCluster, RegistryID: accRegistry, Snapshot: writeSnapshot(t, snap)})
			checkPersistentFault(t, method, path, faultClass{name: name, code: "EVIDENCE_UNAVAILABLE"}, out)
			unverifiedRule(t, out)
			for _, f := range out.Findings {
				if f.Code == "EVIDENCE_UNAVAILABLE" && !strings.Contains(f.Message, "the service tag answer is malformed") {
					t.Errorf("the evidence does not say the answer is malformed: %s", f.Message)
				}
			}
		})
	}
	t.Run("no answer in the snapshot", func(t *testing.T) {
		t.Parallel()
		snap := loadSnapshot(t, snapPath)
		delete(snap["actions"].(map[string]any), read)
		out := runInProcess(t, ctx, provider.VerificationInput{ClusterID: accCluster, RegistryID: accRegistry, Snapshot: writeSnapshot(t, snap)})
		if out.Verdict != "unverified" {
			t.Fatalf("verdict %q: %s", out.Verdict, jsonOf(out.Findings))
		}
		unverifiedRule(t, out)
	})
}

// TestVerificationFaultMatrixFirewallPath is the fault matrix of the reads
// a private path through an Azure Firewall makes that baseline_ok does
// not: the firewall a node subnet's route for another spoke points to,
// its policy with its SNAT settings and rule collection groups, the IP
// group its rule names, and the subnets that list their ip
// configurations. The reference (firewall_pe_application_rule) is
// reachable; a persistent fault of any of those reads must leave it
// unverified, naming the faulted read, never reachable.
func TestVerificationFaultMatrixFirewallPath(t *testing.T) {
	ctx := context.Background()
	baseline := runInProcess(t, ctx, provider.VerificationInput{Snapshot: scenarioSnapshot(t, "baseline_ok"), ClusterID: accCluster, RegistryID: accRegistry})
	seen := map[string]bool{}
	for _, r := range baseline.Requested {
		seen[r] = true
	}
	in := provider.VerificationInput{Snapshot: scenarioSnapshot(t, "firewall_pe_application_rule"), ClusterID: accCluster, RegistryID: accRegistry}
	reads := faultMatrix(t, in, "reachable", func(read string) bool { return !seen[read] })
	for _, want := range []string{"/azurefirewalls/fw-hub", "/firewallpolicies/fwpol-hub", "/firewallpolicies/fwpol-hub/rulecollectiongroups", "/ipgroups/ipg-aks-nodes", "/virtualnetworks/vnet-shared"} {
		found := false
		for _, r := range reads {
			found = found || strings.Contains(r, want)
		}
		if !found {
			t.Errorf("the reference made no read of %s: the matrix would prove nothing about it; reads %v", want, reads)
		}
	}
}

// TestVerificationFaultMatrixProxy is the fault matrix of the reads a pull
// through the cluster's HTTP proxy adds to baseline_ok (proxy_working: the
// proxy's network interface, found by its address, and its network): the
// reference is reachable, and a persistent fault of any of those reads
// must leave it unverified, naming the faulted read.
func TestVerificationFaultMatrixProxy(t *testing.T) {
	ctx := context.Background()
	baseline := runInProcess(t, ctx, provider.VerificationInput{Snapshot: scenarioSnapshot(t, "baseline_ok"), ClusterID: accCluster, RegistryID: accRegistry})
	seen := map[string]bool{}
	for _, r := range baseline.Requested {
		seen[r] = true
	}
	in := provider.VerificationInput{Snapshot: scenarioSnapshot(t, "proxy_working"), ClusterID: accCluster, RegistryID: accRegistry}
	reads := faultMatrix(t, in, "reachable", func(read string) bool { return !seen[read] })
	found := false
	for _, r := range reads {
		found = found || strings.Contains(strings.ToLower(r), "/networkinterfaces/nic-vm-nva")
	}
	if !found {
		t.Errorf("the reference made no read of the proxy's network interface: the matrix would prove nothing about it; reads %v", reads)
	}
}
