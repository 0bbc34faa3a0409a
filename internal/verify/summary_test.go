// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// brokenFacts has one problem per owner: a replica the private endpoint does
// not serve (registry), a missing record (dns), a missing pull role
// (identity) and an unread gateway (operator).
func brokenFacts() model.Facts {
	f := baselineFacts()
	addReplica(&f, false)
	delete(zone(&f).Records, "contosoreg.westeurope.data")
	f.RoleAssignments = nil
	f.Gaps.Add(model.Gap{ResourceID: hubGatewayID, Kind: model.GapUnavailable, Detail: "HTTP 503"})
	return f
}

func TestSummary(t *testing.T) {
	res := verifyFake(t, brokenFacts(), nil)
	s := res.Summary
	requireContains(t, s,
		"Pull path verification: unreachable",
		"Registry contosoreg (contosoreg.azurecr.io); cluster aks1; 2 node pools × 3 hostnames = 6 paths",
		"NODE POOL  HOST", "ADDRESS", "RESOLVER", "ROUTES", "VERDICT",
		"dns:   contosoreg.azurecr.io CNAME contosoreg.privatelink.azurecr.io",
		"route: subnet vnet-spoke/snet-aks → 10.0.2.5",
		"Findings by owner",
		"ERROR DNS_RECORD_MISSING — node pool system, contosoreg.westeurope.data.azurecr.io",
		"Same cause and fix also for: node pool user, contosoreg.westeurope.data.azurecr.io",
		"Fix: Add the A record",
		"Resource: "+string(zoneID),
		"WARNING EVIDENCE_UNAVAILABLE — all node pools",
		"INFO COVERAGE_ROUTES_COMPUTED",
	)
	order := []string{"[dns]", "[registry]", "[identity]", "[operator]"}
	last := -1
	for _, o := range order {
		i := strings.Index(s, o)
		if i < 0 || i < last {
			t.Fatalf("owner group %s missing or out of order in\n%s", o, s)
		}
		last = i
	}
	if strings.Index(s, "Paths (node pool × hostname)") > strings.Index(s, "Findings by owner") {
		t.Error("the paths table comes first")
	}
	for _, p := range res.Paths {
		if !strings.Contains(s, p.NodePool) || !strings.Contains(s, p.Host) {
			t.Errorf("path %s × %s missing from the summary", p.NodePool, p.Host)
		}
	}
}

func TestSummaryReachable(t *testing.T) {
	res := verifyFake(t, baselineFacts(), nil)
	requireContains(t, res.Summary, "Pull path verification: reachable (0 errors, 0 warnings, 2 notes)")
	if strings.Contains(res.Summary, "ERROR") || strings.Contains(res.Summary, "WARNING") || strings.Contains(res.Summary, "not checked") {
		t.Errorf("a reachable summary shows problems:\n%s", res.Summary)
	}
	declared := gatewayFacts()
	declared.Network.VNet(spokeID).Peerings[0].UseRemoteGateways = true
	requireContains(t, verifyFake(t, declared, nil).Summary, "Pull identity not checked: the registry is not an Azure Container Registry")
}

func TestFailureReport(t *testing.T) {
	res := verifyFake(t, brokenFacts(), nil)
	r := FailureReport(res)
	requireContains(t, r,
		"The node pools cannot pull from the registry",
		"Verdict unreachable",
		"[dns]", "[registry]", "[identity]", "[operator]",
		"ENDPOINT_DATA_NOT_COVERED — node pool system, "+dataHostNE,
		"IDENTITY_PULL_ROLE_MISSING — node pool system, "+loginHost,
		"Paths that do not work (6 of 6)",
	)
	if strings.Contains(r, "COVERAGE_ROUTES_COMPUTED") {
		t.Error("informational findings do not belong in the failure diagnostic")
	}
	one := baselineFacts()
	delete(zone(&one).Records, "contosoreg.westeurope.data")
	partial := FailureReport(verifyFake(t, one, nil))
	requireContains(t, partial, "Paths that do not work (2 of 4)")
	if tail := partial[strings.Index(partial, "Paths that do not work"):]; strings.Contains(tail, loginHost) {
		t.Errorf("working paths listed as not working:\n%s", tail)
	}
	for _, f := range res.Findings {
		if f.Severity != model.SeverityInfo && (!strings.Contains(r, f.Message) && !strings.Contains(r, Where(f))) {
			t.Errorf("finding %s for %s missing from the report", f.Code, Where(f))
		}
	}

	unverified := baselineFacts()
	setSpokeDNS(&unverified, "192.168.1.53")
	requireContains(t, FailureReport(verifyFake(t, unverified, nil)), "is unverified", "DNS_FORWARDER_UNVERIFIED")
}
