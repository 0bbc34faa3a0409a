// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package report

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/schemacheck"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

const (
	sub      = "/subscriptions/00000000-0000-0000-0000-000000000001"
	cluster  = sub + "/resourceGroups/rg-spoke/providers/Microsoft.ContainerService/managedClusters/AKS1"
	registry = sub + "/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/contosoreg"
	zone     = sub + "/resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io"
	subnetA  = sub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke/subnets/snet-a"
	subnetB  = sub + "/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke/subnets/snet-b"
)

var generated = time.Date(2026, 12, 2, 3, 4, 5, 600, time.UTC)

// failing is a verification with an error, a warning (caused by a planned
// change) and a note, the way verify returns it.
func failing() Input {
	dns := model.NewFinding(model.DNSZoneNotLinked, "system", "contosoreg.azurecr.io", zone,
		"The zone privatelink.azurecr.io is not linked to vnet-spoke | so the name resolves publicly.\nSecond line <b>.",
		"Link the zone to vnet-spoke. Opening the firewall will not help.")
	drift := model.NewFinding(model.CoverageModelDrift, "user", "", "", "Computed and effective routes disagree for 10.0.2.5.", "Compare them.")
	drift.PlannedChange = "azurerm_route_table.spoke"
	computed := model.NewFinding(model.CoverageRoutesComputed, "user", "", "", "Routes of pool user were computed.", "")
	findings := []model.Finding{dns, drift, computed}
	return Input{
		ClusterID: cluster, RegistryID: registry, NodePools: []string{"user", "system"},
		Enforce: true, FailsPlan: true,
		Result: verify.Result{
			Verdict:  model.VerdictOf(findings),
			Findings: findings,
			Paths: []verify.Path{
				{NodePool: "system", Host: "contosoreg.azurecr.io", Address: "20.1.2.3", Resolver: "azure_dns 168.63.129.16",
					RouteSource: verify.RouteSourceComputed, Verdict: model.Unreachable},
				{NodePool: "user", Host: "contosoreg.azurecr.io", Address: "10.0.2.5", Resolver: "azure_dns 168.63.129.16",
					RouteSource: verify.RouteSourceComputed, Hops: []string{"snet-aks: 10.0.0.0/16 VnetLocal"}, Verdict: model.Reachable},
			},
			Summary: "Verdict: unreachable\n```\nnot a fence\n```",
		},
		ARMRequests: 42, Duration: 1500 * time.Millisecond,
		PlannedChanges: &PlannedChanges{
			Applied:    []string{"azurerm_route_table.spoke"},
			NotApplied: []NotApplied{{Address: "azurerm_thing.x", Reason: "resource type not translated"}},
		},
		ProviderVersion: "1.2.3",
		Generated:       generated,
	}
}

// passing is a reachable verification of a registry block from two node
// subnets, without findings.
func passing() Input {
	return Input{
		NodeSubnetIDs: []model.ResourceID{subnetA, subnetB}, RegistryHosts: []string{"Harbor.Corp.Example.com.", "blob.corp.example.com"},
		PullCredentials: model.PullImagePullSecret, Enforce: true,
		Result: verify.Result{Verdict: model.Reachable, Paths: []verify.Path{{NodePool: "snet-a", Host: "harbor.corp.example.com",
			Address: "10.9.0.4", Resolver: "azure_dns 168.63.129.16", RouteSource: verify.RouteSourceComputed, Hops: []string{}, Verdict: model.Reachable}},
			Summary: "Verdict: reachable"},
		ProviderVersion: "dev",
		Generated:       generated,
	}
}

func decode(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	return m
}

func TestJSONFollowsThePublishedSchema(t *testing.T) {
	for name, in := range map[string]Input{"failing": failing(), "passing": passing()} {
		t.Run(name, func(t *testing.T) {
			data := JSON(Build(in))
			if err := schemacheck.Report(data); err != nil {
				t.Fatalf("report does not follow %s:\n%v\n%s", schemacheck.ReportSchemaPath, err, data)
			}
		})
	}
}

func TestTheSchemaRejectsWhatV1DoesNotAllow(t *testing.T) {
	good := decode(t, JSON(Build(failing())))
	breakers := map[string]func(m map[string]any){
		"other format":    func(m map[string]any) { m["format"] = "pullpath.report/v2" },
		"unknown verdict": func(m map[string]any) { m["verdict"] = "maybe" },
		"finding without accepted": func(m map[string]any) {
			delete(m["findings"].([]any)[0].(map[string]any), "accepted")
		},
		"both cluster and subnets": func(m map[string]any) {
			m["subject"].(map[string]any)["node_subnet_ids"] = []any{subnetA}
		},
		"accepted without reason": func(m map[string]any) {
			m["findings"].([]any)[0].(map[string]any)["accepted"] = map[string]any{"expires": "2027-01-01"}
		},
		"generated_at not UTC": func(m map[string]any) { m["generated_at"] = "2026-12-02T04:04:05+01:00" },
	}
	for name, breakIt := range breakers {
		t.Run(name, func(t *testing.T) {
			m := decode(t, JSON(Build(failing())))
			breakIt(m)
			data, _ := json.Marshal(m)
			if schemacheck.Report(data) == nil {
				t.Errorf("the schema accepts a report with %s", name)
			}
		})
	}
	data, _ := json.Marshal(good)
	if err := schemacheck.Report(data); err != nil {
		t.Fatalf("the unbroken report is invalid: %v", err)
	}
}

func TestJSONHoldsTheWholeResult(t *testing.T) {
	in := failing()
	m := decode(t, JSON(Build(in)))
	if m["format"] != "pullpath.report/v1" || m["verdict"] != "unreachable" || m["reachable"] != false {
		t.Errorf("format/verdict: %v %v %v", m["format"], m["verdict"], m["reachable"])
	}
	if m["generated_at"] != "2026-12-02T03:04:05Z" || m["provider_version"] != "1.2.3" {
		t.Errorf("generated_at %v, provider_version %v", m["generated_at"], m["provider_version"])
	}
	s := m["subject"].(map[string]any)
	if s["cluster_id"] != cluster || s["registry_id"] != registry || s["node_subnet_ids"] != nil || s["registry_hosts"] != nil {
		t.Errorf("subject %v", s)
	}
	if got := s["node_pools"]; !slices.Equal(strs(got), []string{"system", "user"}) {
		t.Errorf("node_pools %v, want sorted", got)
	}
	if s["pull_credentials"] != "kubelet_identity" {
		t.Errorf("pull_credentials %v, want the default", s["pull_credentials"])
	}
	if p := m["policy"].(map[string]any); p["enforce"] != true || p["fails_plan"] != true || p["fail_on_unverified"] != false {
		t.Errorf("policy %v", p)
	}
	if c := m["counts"].(map[string]any); c["error"] != 1.0 || c["warning"] != 1.0 || c["info"] != 1.0 {
		t.Errorf("counts %v", c)
	}
	fs := m["findings"].([]any)
	if len(fs) != 3 {
		t.Fatalf("%d findings, want 3", len(fs))
	}
	first := fs[0].(map[string]any)
	for field, want := range map[string]any{
		"code": "DNS_ZONE_NOT_LINKED", "severity": "error", "condition": "dns", "owner": "dns", "node_pool": "system",
		"endpoint": "contosoreg.azurecr.io", "resource_id": zone, "message": in.Result.Findings[0].Message,
		"remediation": in.Result.Findings[0].Remediation, "planned_change": nil, "accepted": nil,
	} {
		if got, ok := first[field]; !ok || got != want {
			t.Errorf("finding %s = %v (present %v), want %v", field, got, ok, want)
		}
	}
	if got := fs[1].(map[string]any)["planned_change"]; got != "azurerm_route_table.spoke" {
		t.Errorf("planned_change %v", got)
	}
	paths := m["paths"].([]any)
	if len(paths) != 2 || paths[1].(map[string]any)["route_source"] != "computed" || len(strs(paths[1].(map[string]any)["hops"])) != 1 {
		t.Errorf("paths %v", paths)
	}
	if hops := paths[0].(map[string]any)["hops"]; hops == nil {
		t.Error("hops of a path that stopped before routing is null, want []")
	}
	if st := m["stats"].(map[string]any); st["arm_requests"] != 42.0 || st["duration_ms"] != 1500.0 {
		t.Errorf("stats %v", st)
	}
	pc := m["planned_changes"].(map[string]any)
	if !slices.Equal(strs(pc["applied"]), []string{"azurerm_route_table.spoke"}) || len(pc["not_applied"].([]any)) != 1 {
		t.Errorf("planned_changes %v", pc)
	}
	if !strings.HasPrefix(m["diagram"].(string), "flowchart") || m["summary"] != in.Result.Summary {
		t.Errorf("diagram %q / summary %q", m["diagram"], m["summary"])
	}

	p := decode(t, JSON(Build(passing())))
	ps := p["subject"].(map[string]any)
	if ps["cluster_id"] != nil || ps["registry_id"] != nil || p["planned_changes"] != nil || ps["node_pools"] != nil {
		t.Errorf("passing subject %v, planned_changes %v", ps, p["planned_changes"])
	}
	if got := strs(ps["registry_hosts"]); !slices.Equal(got, []string{"harbor.corp.example.com", "blob.corp.example.com"}) {
		t.Errorf("registry_hosts %v, want normalised in order", got)
	}
	if fs, ok := p["findings"].([]any); !ok || len(fs) != 0 {
		t.Errorf("findings of a clean result %v, want []", p["findings"])
	}
}

func strs(v any) []string {
	l, _ := v.([]any)
	out := []string{}
	for _, e := range l {
		s, _ := e.(string)
		out = append(out, s)
	}
	return out
}

// TestRenderingIsDeterministic renders the same input many times: the
// catalogue is a map, so an order taken from it would show here.
func TestRenderingIsDeterministic(t *testing.T) {
	for name, render := range map[string]func(Report) []byte{"json": JSON, "sarif": SARIF, "markdown": Markdown} {
		first := render(Build(failing()))
		for range 20 {
			if again := render(Build(failing())); !bytes.Equal(first, again) {
				t.Fatalf("%s differs between two renderings of the same result", name)
			}
		}
	}
}

func TestBuildCopiesTheResult(t *testing.T) {
	in := failing()
	r := Build(in)
	in.Result.Paths[1].Hops[0] = "changed"
	in.PlannedChanges.Applied[0] = "changed"
	if r.Paths[1].Hops[0] == "changed" || r.PlannedChanges.Applied[0] == "changed" {
		t.Error("the report shares slices with its input")
	}
}

func TestName(t *testing.T) {
	cases := []struct {
		name string
		in   func() Input
		want string
	}{
		{"cluster and registry, lower case", failing, "aks1.contosoreg"},
		{"subnets and registry block", passing, "snet-a+1.harbor.corp.example.com"},
		{"one subnet", func() Input {
			in := passing()
			in.NodeSubnetIDs = in.NodeSubnetIDs[:1]
			return in
		}, "snet-a.harbor.corp.example.com"},
		{"unsafe characters", func() Input {
			in := failing()
			in.ClusterID = sub + "/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/..a b\\c"
			return in
		}, "a_b_c.contosoreg"},
		{"empty name", func() Input {
			in := failing()
			in.ClusterID = ""
			return in
		}, "nodes.contosoreg"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Name(Build(c.in())); got != c.want {
				t.Errorf("Name = %q, want %q", got, c.want)
			}
		})
	}
	long := failing()
	long.ClusterID = model.ResourceID(sub + "/x/" + strings.Repeat("a", 300))
	if got := Name(Build(long)); len(got) > 2*maxNamePart+1 {
		t.Errorf("a long name is %d bytes, want at most %d", len(got), 2*maxNamePart+1)
	}
}
