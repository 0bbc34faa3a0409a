// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"reflect"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

func TestPathsShape(t *testing.T) {
	res := verifyFake(t, baselineFacts(), nil)
	var got [][2]string
	for _, p := range res.Paths {
		got = append(got, [2]string{p.NodePool, p.Host})
		if p.Resolver != "azure_dns 168.63.129.16" || p.RouteSource != RouteSourceComputed || len(p.Hops) == 0 {
			t.Errorf("path %+v", p)
		}
	}
	want := [][2]string{{"system", loginHost}, {"system", dataHostWE}, {"user", loginHost}, {"user", dataHostWE}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("paths %v, want %v", got, want)
	}
}

// A broken link stops the path: nothing after it is evaluated or reported.
func TestChainStops(t *testing.T) {
	tr := &fakeTracer{byDest: map[netip.Addr]RouteResult{ip("10.0.2.5"): blackhole("10.0.2.5")}}
	f := baselineFacts()
	f.RoleAssignments = nil // would be IDENTITY_PULL_ROLE_MISSING if reached
	res := Verify(f, tr)
	onlyCodes(t, res, model.RouteBlackhole)
	fs := findingsWith(res, model.RouteBlackhole)
	if len(fs) != 2 || fs[0].NodePool != "system" || fs[1].NodePool != "user" || fs[0].Endpoint != loginHost {
		t.Fatalf("route findings must get pool and endpoint: %+v", fs)
	}
	requireContains(t, fs[0].Message, "Node pool system (subnet vnet-spoke/snet-aks, 10.1.0.0/22) → contosoreg.azurecr.io (10.0.2.5)", "quarantine-hub")
	if p := pathOf(t, res, "system", loginHost); p.Verdict != model.Unreachable || p.Address != "10.0.2.5" || len(p.Hops) != 1 {
		t.Errorf("path %+v", p)
	}
	if p := pathOf(t, res, "system", dataHostWE); p.Verdict != model.Reachable {
		t.Errorf("the data endpoint's path is independent: %s", p.Verdict)
	}
}

func TestRouteSourceAndCoverage(t *testing.T) {
	t.Run("computed routes: one COVERAGE_ROUTES_COMPUTED per pool", func(t *testing.T) {
		tr := &fakeTracer{byDest: map[netip.Addr]RouteResult{ip("10.0.2.5"): {Source: RouteSourceComputed,
			Findings: []model.Finding{model.NewFinding(model.CoverageRoutesComputed, "", "", "", "engine note", "")}}}}
		res := Verify(baselineFacts(), tr)
		fs := findingsWith(res, model.CoverageRoutesComputed)
		if len(fs) != 2 || fs[0].NodePool != "system" || fs[0].Endpoint != "" || !fs[0].ResourceID.Equal(scaleSetID) {
			t.Fatalf("findings %+v", fs)
		}
		requireContains(t, fs[0].Message, "scale-set")
		requireContains(t, fs[1].Message, "no nodes")
		if res.Verdict != model.Reachable {
			t.Errorf("an info finding changed the verdict to %s", res.Verdict)
		}
	})
	t.Run("a cross-check read the engine could not make is folded into the pool's one note", func(t *testing.T) {
		action := model.ResourceID("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualHubs/hub-weu/effectiveRoutes")
		note := model.NewFinding(model.CoverageRoutesComputed, "", "", action, "The effective routes of Virtual WAN hub hub-weu could not be read.", "Nothing to fix. To cross-check, grant it.")
		tr := &fakeTracer{byDest: map[netip.Addr]RouteResult{
			ip("10.0.2.5"): {Source: RouteSourceComputed, Findings: []model.Finding{note}},
			ip("10.0.2.6"): {Source: RouteSourceComputed, Findings: []model.Finding{note}}}}
		res := Verify(baselineFacts(), tr)
		fs := findingsWith(res, model.CoverageRoutesComputed)
		if len(fs) != 2 {
			t.Fatalf("findings %+v, want one note per pool", fs)
		}
		for _, f := range fs {
			if strings.Count(f.Message, "hub-weu could not be read") != 1 || strings.Count(f.Remediation, "To cross-check, grant it.") != 1 || !f.ResourceID.Equal(scaleSetID) && f.NodePool == "system" {
				t.Errorf("note of pool %s on %s: %s / %s", f.NodePool, f.ResourceID, f.Message, f.Remediation)
			}
		}
		if res.Verdict != model.Reachable {
			t.Errorf("an info note changed the verdict to %s", res.Verdict)
		}
	})
	t.Run("effective routes: no coverage note", func(t *testing.T) {
		f := baselineFacts()
		f.Pools = f.Pools[:1]
		f.Pools[0].NICs[0].Effective = []model.Route{{Prefix: pfx("0.0.0.0/0"), NextHopType: model.NextHopInternet}}
		tr := &fakeTracer{byDest: map[netip.Addr]RouteResult{
			ip("10.0.2.5"): {Source: RouteSourceEffective}, ip("10.0.2.6"): {Source: RouteSourceEffective}}}
		res := Verify(f, tr)
		forbidCodes(t, res, model.CoverageRoutesComputed)
		if p := res.Paths[0]; p.RouteSource != RouteSourceEffective {
			t.Errorf("route source %s", p.RouteSource)
		}
	})
	t.Run("model drift is reported with pool and host", func(t *testing.T) {
		drift := model.NewFinding(model.CoverageModelDrift, "", "", peNICID, "computed and effective routes disagree", "")
		tr := &fakeTracer{byDest: map[netip.Addr]RouteResult{ip("10.0.2.6"): {Findings: []model.Finding{drift}}}}
		res := Verify(baselineFacts(), tr)
		fs := findingsWith(res, model.CoverageModelDrift)
		if len(fs) != 2 || fs[0].Endpoint != dataHostWE {
			t.Errorf("findings %+v", fs)
		}
	})
}

func TestFindingsOrderAndDeduplication(t *testing.T) {
	rt := blackhole("10.0.2.6")
	rt.Findings = append(rt.Findings, rt.Findings[0], model.NewFinding(model.ReturnRouteUnverified, "", "", hubID, "return path leaves Azure", ""))
	f := baselineFacts()
	addDNSVM(&f, "vm-dns", "10.0.1.10")
	setSpokeDNS(&f, "10.0.1.10")
	res := Verify(f, &fakeTracer{byDest: map[netip.Addr]RouteResult{ip("10.0.2.6"): rt}})
	if n := len(findingsWith(res, model.RouteBlackhole)); n != 2 {
		t.Errorf("the same blackhole twice on a path must be one finding per pool, got %d", n)
	}
	for i := 1; i < len(res.Findings); i++ {
		if findingLess(res.Findings[i], res.Findings[i-1]) {
			t.Errorf("findings out of order at %d: %s before %s", i, res.Findings[i-1].Code, res.Findings[i].Code)
		}
	}
	if res.Findings[0].Severity != model.SeverityError || res.Findings[len(res.Findings)-1].Severity != model.SeverityInfo {
		t.Errorf("errors first, notes last: %v", codesOf(res))
	}
}

// Same facts, same bytes: findings, paths and summary do not depend on map
// order or on the order pools and resources were given in.
func TestDeterminism(t *testing.T) {
	build := func(reverse bool) model.Facts {
		f := baselineFacts()
		addReplica(&f, false)
		addDNSVM(&f, "vm-dns", "10.0.1.10")
		setSpokeDNS(&f, "10.0.1.10", "168.63.129.16")
		f.RoleAssignments = append(f.RoleAssignments, roleAssignment("ra-other", registryID, acrPullDefID, controlPlaneObjectID))
		f.Gaps.Add(model.Gap{ResourceID: hubGatewayID, Kind: model.GapUnavailable})
		f.Gaps.Add(model.Gap{ResourceID: rtAKSID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/routeTables/read"})
		if reverse {
			f.Pools[0], f.Pools[1] = f.Pools[1], f.Pools[0]
			ra := f.RoleAssignments
			ra[0], ra[1] = ra[1], ra[0]
		}
		return f
	}
	first := Run(build(false))
	for i := 0; i < 20; i++ {
		again := Run(build(i%2 == 1))
		if !reflect.DeepEqual(first.Findings, again.Findings) || !reflect.DeepEqual(first.Paths, again.Paths) || first.Summary != again.Summary {
			t.Fatalf("run %d differs:\n%s\n----\n%s", i, first.Summary, again.Summary)
		}
	}
	if len(first.Findings) < 5 {
		t.Errorf("the determinism fixture should exercise many rules, got %v", codesOf(first))
	}
}

func TestVerdictOfPaths(t *testing.T) {
	f := baselineFacts()
	delete(zone(&f).Records, "contosoreg.westeurope.data")
	res := verifyFake(t, f, nil)
	for _, p := range res.Paths {
		want := model.Reachable
		if p.Host == dataHostWE {
			want = model.Unreachable
		}
		if p.Verdict != want {
			t.Errorf("%s × %s: %s, want %s", p.NodePool, p.Host, p.Verdict, want)
		}
	}
	if res.Verdict != model.VerdictOf(res.Findings) {
		t.Errorf("verdict %s is not VerdictOf(findings)", res.Verdict)
	}
}
