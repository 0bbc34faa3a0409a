// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Golden files (testdata/golden/<scenario>.json) hold, for every scenario
// folder, what Terraform receives from the provider: the state and the
// diagnostics of pullpath_verification (verify.tf), of pullpath_node_routes
// (every pool, a few destinations, plus the configurations of
// data_source_node_routes_test.go on that scenario) and of pullpath_vnet_dns
// (the node VNet, with and without a node NIC). Timing (stats.duration_ms)
// and the timeouts block are left out. Regenerate them, on purpose only,
// with
//
//	go test ./internal/provider -run TestGoldenScenarioOutputs -update
//
// or PULLPATH_UPDATE_GOLDEN=1, and review the diff.
var updateGolden = flag.Bool("update", false, "rewrite testdata/golden from the current code")

const goldenDir = "testdata/golden"

// goldenDestinations are traced by pullpath_node_routes in every scenario:
// the private endpoint's two addresses, the hub appliance, on-premises.
var goldenDestinations = []string{"10.0.2.5", "10.0.2.6", "10.0.1.4", "192.168.10.20"}

// goldenNodeRoutes are the configurations the node_routes acceptance tests
// read on scenario snapshots (besides goldenDestinations from every pool).
var goldenNodeRoutes = func() map[string][]map[string]any {
	system := func(dest ...string) map[string]any {
		return map[string]any{"cluster_id": nrCluster, "node_pool": "system", "destinations": dest}
	}
	return map[string][]map[string]any{
		"baseline_ok": {
			{"cluster_id": nrCluster, "destinations": []string{"10.0.2.5", "10.0.1.4"}, "include_routes": false},
			{"cluster_id": nrCluster, "destinations": []string{"10.0.2.5", "10.0.1.4"}},
			{"cluster_id": nrCluster, "node_pool": "user"},
			{"network_interface_id": nrNVANIC, "destinations": []string{"10.0.2.5", "192.168.10.20", "25.48.0.1"}},
		},
		"udr_blackhole": {
			system("10.0.2.5"),
			{"subnet_id": nrSnetAKS, "destinations": []string{"10.0.2.6", "10.1.3.200"}},
		},
		"peering_initiated":       {{"cluster_id": nrCluster, "destinations": []string{"10.0.2.5"}}},
		"gateway_transit_missing": {system("192.168.10.20")},
		"nsg_outbound_deny":       {system("10.0.2.5", "10.0.1.4")},
		"nsg_inbound_deny":        {system("10.0.2.5")},
		"nsg_unverified_tag":      {system("10.0.2.5")},
		"nsg_appliance_deny":      {system("10.0.2.5")},
		"nva_forwarded":           {system("10.0.2.5")},
	}
}()

// goldenRead is one read of a data source.
type goldenRead struct {
	DataSource  string         `json:"data_source"`
	Config      map[string]any `json:"config"`
	Diagnostics []goldenDiag   `json:"diagnostics"`
	State       any            `json:"state"`
}

type goldenDiag struct {
	Severity  string `json:"severity"`
	Summary   string `json:"summary"`
	Detail    string `json:"detail"`
	Attribute string `json:"attribute,omitempty"`
}

// TestGoldenScenarioOutputs compares every scenario's reads with its golden
// file: any change of a verdict, finding, path, route, trace, DNS server,
// message or diagnostic fails with the first differing lines.
func TestGoldenScenarioOutputs(t *testing.T) {
	update := *updateGolden || os.Getenv("PULLPATH_UPDATE_GOLDEN") == "1"
	scenarios := discoverScenarios(t)
	known := map[string]bool{}
	for _, sc := range scenarios {
		known[sc.Name+".json"] = true
		t.Run(sc.Name, func(t *testing.T) {
			got := goldenOutputs(t, sc)
			file := filepath.Join(goldenDir, sc.Name+".json")
			if update {
				if err := os.MkdirAll(goldenDir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if os.IsNotExist(err) {
				t.Fatalf("scenario %s has no golden file %s: create it from the current code with\n"+
					"  go test ./internal/provider -run 'TestGoldenScenarioOutputs/%s$' -update\n"+
					"(or PULLPATH_UPDATE_GOLDEN=1), check it and commit it", sc.Name, file, sc.Name)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("scenario %s differs from %s (if the change is intended, rerun with -update and review the diff):\n%s",
					sc.Name, file, lineDiff(want, got))
			}
		})
	}
	entries, err := os.ReadDir(goldenDir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !known[e.Name()] {
			t.Errorf("%s/%s belongs to no scenario folder: remove it", goldenDir, e.Name())
		}
	}
}

// goldenOutputs reads the data sources of one scenario and serialises them.
func goldenOutputs(t *testing.T, sc scenario) []byte {
	in := scenarioInput(t, sc)
	if in.PlannedChangesFile != "" {
		goldenPlans.Store(in.Snapshot, in.PlannedChangesFile)
	}
	verification := map[string]any{"cluster_id": in.ClusterID}
	if in.RegistryID != "" {
		verification["registry_id"] = in.RegistryID
	}
	if len(in.RegistryHosts) > 0 {
		registry := map[string]any{"hosts": in.RegistryHosts}
		if in.RegistryAddresses != nil {
			registry["addresses"] = in.RegistryAddresses
		}
		verification["registry"] = registry
	}
	if m := regexp.MustCompile(`(?m)^\s*enforce\s*=\s*(true|false)\s*$`).FindStringSubmatch(sc.Body); m != nil {
		verification["enforce"] = m[1] == "true"
	}
	if len(in.ZoneSubscriptionIDs) > 0 {
		verification["zone_subscription_ids"] = in.ZoneSubscriptionIDs
	}
	if in.PullCredentials != "" {
		verification["pull_credentials"] = in.PullCredentials
	}
	if len(in.Accept) > 0 {
		var blocks []map[string]any
		for _, b := range in.Accept {
			m := map[string]any{}
			for k, v := range b {
				m[k] = v
			}
			blocks = append(blocks, m)
		}
		verification["accept"] = blocks
	}

	reads := []goldenRead{readDataSource(t, in.Snapshot, "pullpath_verification", verification)}
	checkPlannedChanges(t, sc, reads[0])
	checkAccepted(t, sc, reads[0])
	for _, cfg := range append([]map[string]any{{"cluster_id": in.ClusterID, "destinations": goldenDestinations}}, goldenNodeRoutes[sc.Name]...) {
		reads = append(reads, readDataSource(t, in.Snapshot, "pullpath_node_routes", cfg))
	}
	for _, cfg := range []map[string]any{
		{"virtual_network_id": accSpoke},
		{"virtual_network_id": accSpoke, "network_interface_id": accNodeNIC1},
	} {
		reads = append(reads, readDataSource(t, in.Snapshot, "pullpath_vnet_dns", cfg))
	}

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(map[string]any{"scenario": sc.Name, "reads": reads}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readDataSource runs one data source read the way Terraform does, in
// process over protocol 6: configure the provider on snapshot, validate
// the configuration, read. config maps attributes (and blocks, as maps) to
// strings, bools, string lists and string maps; the rest is null.
func readDataSource(t *testing.T, snapshot, typeName string, config map[string]any) goldenRead {
	t.Helper()
	ctx := t.Context()
	srv, err := providerserver.NewProtocol6WithError(testProvider())()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schemas.Diagnostics) > 0 {
		t.Fatalf("schema: %v %v", err, schemas.Diagnostics)
	}
	pcfg := dynamicValue(t, schemas.Provider.ValueType(), providerArgs(t, snapshot))
	cresp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.9.0", Config: pcfg})
	if err != nil || len(cresp.Diagnostics) > 0 {
		t.Fatalf("configure: %v %v", err, diagsOf(cresp.Diagnostics))
	}
	ds, ok := schemas.DataSourceSchemas[typeName]
	if !ok {
		t.Fatalf("no data source %s", typeName)
	}
	typ := ds.ValueType()
	cfg := dynamicValue(t, typ, config)
	out := goldenRead{DataSource: typeName, Config: config}

	vresp, err := srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: typeName, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	out.Diagnostics = diagsOf(vresp.Diagnostics)
	for _, d := range vresp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return out
		}
	}
	rresp, err := srv.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	out.Diagnostics = append(out.Diagnostics, diagsOf(rresp.Diagnostics)...)
	if rresp.State != nil {
		state, err := rresp.State.Unmarshal(typ)
		if err != nil {
			t.Fatal(err)
		}
		plain := plainValue(state)
		if m, ok := plain.(map[string]any); ok {
			delete(m, "timeouts")
			if stats, ok := m["stats"].(map[string]any); ok {
				delete(stats, "duration_ms") // differs run to run
			}
		}
		out.State = plain
	}
	return out
}

// providerArgs are the provider arguments of a golden read: snapshot_file,
// and planned_changes_file when the scenario (whose snapshot it is) has a
// plan.json.
func providerArgs(t *testing.T, snapshot string) map[string]any {
	args := map[string]any{"snapshot_file": snapshot}
	if plan, ok := goldenPlans.Load(snapshot); ok {
		args["planned_changes_file"] = plan
	}
	return args
}

// goldenPlans maps a scenario's snapshot path to its plan.json (set by
// goldenOutputs before reading).
var goldenPlans sync.Map

// checkPlannedChanges holds the verification's findings to expect.json's
// planned_change (see scenarioExpect): a wrong blame fails here too, not
// only through the CLIs.
func checkPlannedChanges(t *testing.T, sc scenario, r goldenRead) {
	t.Helper()
	state, _ := r.State.(map[string]any)
	fs, _ := state["findings"].([]any)
	var got []plannedOf
	for _, el := range fs {
		m, _ := el.(map[string]any)
		code, _ := m["code"].(string)
		pc, _ := m["planned_change"].(string)
		pool, _ := m["node_pool"].(string)
		got = append(got, plannedOf{Code: code, NodePool: pool, PlannedChange: pc})
	}
	for _, p := range sc.Expect.plannedChangeProblems(got) {
		t.Errorf("scenario %s: %s", sc.Name, p)
	}
}

// checkAccepted holds the verification's findings to expect.json's
// accepted (see scenarioExpect).
func checkAccepted(t *testing.T, sc scenario, r goldenRead) {
	t.Helper()
	state, _ := r.State.(map[string]any)
	fs, _ := state["findings"].([]any)
	var got []acceptedOf
	for _, el := range fs {
		m, _ := el.(map[string]any)
		code, _ := m["code"].(string)
		sev, _ := m["severity"].(string)
		got = append(got, acceptedOf{Code: code, Severity: sev, Accepted: m["accepted"] != nil})
	}
	for _, p := range sc.Expect.acceptedProblems(got) {
		t.Errorf("scenario %s: %s", sc.Name, p)
	}
}

func diagsOf(in []*tfprotov6.Diagnostic) []goldenDiag {
	out := []goldenDiag{}
	for _, d := range in {
		g := goldenDiag{Severity: strings.ToLower(d.Severity.String()), Summary: d.Summary, Detail: d.Detail}
		if d.Attribute != nil {
			g.Attribute = d.Attribute.String()
		}
		out = append(out, g)
	}
	return out
}

// dynamicValue encodes v as a value of typ (see readDataSource).
func dynamicValue(t *testing.T, typ tftypes.Type, v any) *tfprotov6.DynamicValue {
	t.Helper()
	val, err := tfValue(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	dv, err := tfprotov6.NewDynamicValue(typ, val)
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

func tfValue(typ tftypes.Type, v any) (tftypes.Value, error) {
	if v == nil {
		return tftypes.NewValue(typ, nil), nil
	}
	switch typ := typ.(type) {
	case tftypes.Object:
		m, ok := v.(map[string]any)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("want a map for %s, got %T", typ, v)
		}
		for k := range m {
			if _, ok := typ.AttributeTypes[k]; !ok {
				return tftypes.Value{}, fmt.Errorf("no attribute %q", k)
			}
		}
		vals := map[string]tftypes.Value{}
		for k, at := range typ.AttributeTypes {
			val, err := tfValue(at, m[k])
			if err != nil {
				return tftypes.Value{}, fmt.Errorf("%s: %w", k, err)
			}
			vals[k] = val
		}
		return tftypes.NewValue(typ, vals), nil
	case tftypes.List, tftypes.Set:
		var elems []tftypes.Value
		if blocks, ok := v.([]map[string]any); ok { // nested blocks
			elem := typ.(tftypes.List).ElementType
			for _, b := range blocks {
				ev, err := tfValue(elem, b)
				if err != nil {
					return tftypes.Value{}, err
				}
				elems = append(elems, ev)
			}
			return tftypes.NewValue(typ, elems), nil
		}
		for _, s := range v.([]string) {
			elems = append(elems, tftypes.NewValue(tftypes.String, s))
		}
		return tftypes.NewValue(typ, elems), nil
	case tftypes.Map:
		elems := map[string]tftypes.Value{}
		for k, s := range v.(map[string]string) {
			elems[k] = tftypes.NewValue(tftypes.String, s)
		}
		return tftypes.NewValue(typ, elems), nil
	}
	return tftypes.NewValue(typ, v), nil
}

// plainValue turns a state value into JSON-able values: objects and maps
// as maps (keys sorted when encoded), lists in order, sets sorted by their
// encoding, numbers as integers where they are.
func plainValue(v tftypes.Value) any {
	if !v.IsKnown() {
		return "<unknown>"
	}
	if v.IsNull() {
		return nil
	}
	typ := v.Type()
	switch {
	case typ.Is(tftypes.Object{}), typ.Is(tftypes.Map{}):
		var m map[string]tftypes.Value
		_ = v.As(&m)
		out := map[string]any{}
		for k, e := range m {
			out[k] = plainValue(e)
		}
		return out
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Set{}), typ.Is(tftypes.Tuple{}):
		var l []tftypes.Value
		_ = v.As(&l)
		out := make([]any, 0, len(l))
		for _, e := range l {
			out = append(out, plainValue(e))
		}
		if typ.Is(tftypes.Set{}) {
			sort.Slice(out, func(i, j int) bool {
				a, _ := json.Marshal(out[i])
				b, _ := json.Marshal(out[j])
				return string(a) < string(b)
			})
		}
		return out
	case typ.Is(tftypes.Number):
		var f big.Float
		_ = v.As(&f)
		if i, acc := f.Int64(); acc == big.Exact {
			return i
		}
		return f.String()
	case typ.Is(tftypes.Bool):
		var b bool
		_ = v.As(&b)
		return b
	default:
		var s string
		_ = v.As(&s)
		return s
	}
}

// lineDiff shows the first lines where want and got part.
func lineDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	from := max(0, i-3)
	var b strings.Builder
	read, source := 0, ""
	for _, l := range w[:min(i+1, len(w))] {
		if s, ok := strings.CutPrefix(strings.TrimSpace(l), `"data_source": `); ok {
			read, source = read+1, strings.Trim(s, `",`)
		}
	}
	fmt.Fprintf(&b, "first difference at line %d, in read %d (%s) (golden %d lines, now %d)\n", i+1, read, source, len(w), len(g))
	if i < len(w) && i < len(g) {
		// A long line (a summary, a message): where it changes.
		c := 0
		for c < len(w[i]) && c < len(g[i]) && w[i][c] == g[i][c] {
			c++
		}
		lo := max(0, c-60)
		fmt.Fprintf(&b, "line %d from byte %d:\n  golden …%s…\n  now    …%s…\n", i+1, c, w[i][lo:min(len(w[i]), c+60)], g[i][lo:min(len(g[i]), c+60)])
	}
	for _, side := range []struct {
		name  string
		lines []string
	}{{"golden", w}, {"now", g}} {
		fmt.Fprintf(&b, "--- %s:\n", side.name)
		for j := from; j < min(len(side.lines), i+8); j++ {
			mark := " "
			if j >= len(w) || j >= len(g) || w[j] != g[j] {
				mark = ">"
			}
			fmt.Fprintf(&b, "%s %5d  %s\n", mark, j+1, side.lines[j])
		}
	}
	return b.String()
}
