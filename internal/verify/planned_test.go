// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// A read the plan leaves unknown until apply is COVERAGE_PLANNED_VALUE_UNKNOWN
// naming the change and the member, on exactly the paths that need it, and
// makes them unverified; the same read refused is EVIDENCE_*, without a
// planned change.
func TestPlannedUnknownGap(t *testing.T) {
	unknown := model.Gap{ResourceID: aksSubnetID, Kind: model.GapPlannedUnknown, Planned: "azurerm_subnet.aks",
		Detail: "properties.routeTable.id is known only after apply (planned change azurerm_subnet.aks)"}
	f := baselineFacts()
	delete(f.Network.Subnets, aksSubnetID.Key())
	f.Network.Gaps.Add(unknown)
	res := Run(f)
	if res.Verdict != model.Unverified {
		t.Errorf("verdict %s, want unverified", res.Verdict)
	}
	got := findingsWith(res, model.CoveragePlannedUnknown)
	if len(got) == 0 {
		t.Fatalf("no COVERAGE_PLANNED_VALUE_UNKNOWN; findings %+v", res.Findings)
	}
	for _, fd := range got {
		if fd.PlannedChange != "azurerm_subnet.aks" || !fd.ResourceID.Equal(aksSubnetID) || fd.Severity != model.SeverityWarning || fd.Owner != model.OwnerOperator {
			t.Errorf("finding %+v", fd)
		}
		requireContains(t, fd.Message, "properties.routeTable.id", "known only after apply", "unverified")
		requireContains(t, fd.Remediation, "azurerm_subnet.aks", "after")
	}
	if len(findingsWith(res, model.EvidencePermissionDenied))+len(findingsWith(res, model.EvidenceNotFound))+len(findingsWith(res, model.EvidenceUnavailable)) > 0 {
		t.Errorf("an EVIDENCE finding besides the planned one: %+v", res.Findings)
	}

	refused := baselineFacts()
	delete(refused.Network.Subnets, aksSubnetID.Key())
	refused.Network.Gaps.Add(model.Gap{ResourceID: aksSubnetID, Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/virtualNetworks/subnets/read"})
	res = Run(refused)
	if len(findingsWith(res, model.CoveragePlannedUnknown)) > 0 {
		t.Errorf("a refused read reported as planned")
	}
	for _, fd := range res.Findings {
		if fd.PlannedChange != "" {
			t.Errorf("%s names planned change %q without a plan", fd.Code, fd.PlannedChange)
		}
	}
}

// Changes read as they are now are listed once, without changing the
// verdict; without them there is no such finding.
func TestPlanNotApplied(t *testing.T) {
	f := baselineFacts()
	base := Run(f)
	f.PlanNotApplied = []model.PlannedProblem{
		{Address: "azurerm_bastion_host.hub", Reason: "resource type not translated"},
		{Address: "azurerm_subnet.x", Reason: "its name is known only after apply"},
	}
	res := Run(f)
	got := findingsWith(res, model.CoveragePlannedUnsupported)
	if len(got) != 1 || got[0].NodePool != "" || got[0].Severity != model.SeverityWarning {
		t.Fatalf("findings %+v, want one warning without a pool", got)
	}
	requireContains(t, got[0].Message, "azurerm_bastion_host.hub (resource type not translated)", "azurerm_subnet.x (its name is known only after apply)", "as they are now")
	if res.Verdict != base.Verdict {
		t.Errorf("verdict %s, without the plan %s: the finding must not change it", res.Verdict, base.Verdict)
	}
	if len(findingsWith(base, model.CoveragePlannedUnsupported)) != 0 {
		t.Errorf("COVERAGE_PLANNED_CHANGE_UNSUPPORTED without planned changes")
	}
}

// The summary marks findings the plan causes, and only those.
func TestSummaryAfterThisPlan(t *testing.T) {
	f := baselineFacts()
	unlinkSpoke(&f)
	res := Run(f)
	if strings.Contains(strings.ToLower(res.Summary), "after this plan") {
		t.Fatalf("summary mentions a plan before any finding names one")
	}
	for i := range res.Findings {
		if res.Findings[i].Code == model.DNSZoneNotLinked {
			res.Findings[i].PlannedChange = "azurerm_private_dns_zone_virtual_network_link.spoke"
		}
	}
	s := Summarize(f, res)
	requireContains(t, s, "DNS_ZONE_NOT_LINKED — node pool", "    After this plan: azurerm_private_dns_zone_virtual_network_link.spoke\n")
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, "COVERAGE_ROUTES_COMPUTED") && strings.Contains(strings.ToLower(line), "after this plan") {
			t.Errorf("a finding without a planned change is marked: %s", line)
		}
	}
	requireContains(t, FailureReport(res), "  After this plan: azurerm_private_dns_zone_virtual_network_link.spoke\n")
}

// A pool whose effective routes disagreed with its computed ones before the
// plan, and whose routes are computed after it, is unverified on every
// path; other pools, and a plan without such drift, are not touched.
func TestPlanDrift(t *testing.T) {
	f := baselineFacts()
	base := Run(f)
	pool := base.Paths[0].NodePool
	f.PlanDrift = map[string]model.PlanDrift{pool: {Why: "route 10.0.0.0/8 None"}}
	res := Run(f)
	got := findingsWith(res, model.CoveragePlannedUnknown)
	if len(got) == 0 {
		t.Fatal("no COVERAGE_PLANNED_VALUE_UNKNOWN for the drifted pool")
	}
	for _, fd := range got {
		if fd.NodePool != pool || fd.Endpoint == "" {
			t.Errorf("finding %+v, want one per path of pool %s", fd, pool)
		}
		requireContains(t, fd.Message, "route 10.0.0.0/8 None", "unverified")
	}
	for _, p := range res.Paths {
		if p.NodePool == pool && p.Verdict == model.Reachable {
			t.Errorf("path %s/%s stays reachable", p.NodePool, p.Host)
		}
		if p.NodePool != pool && p.Verdict == model.Unverified {
			t.Errorf("path %s/%s of another pool is unverified", p.NodePool, p.Host)
		}
	}
	if res.Verdict != model.Unverified || base.Verdict != model.Reachable {
		t.Errorf("verdict %s (without drift %s)", res.Verdict, base.Verdict)
	}
	if len(findingsWith(base, model.CoveragePlannedUnknown)) != 0 {
		t.Error("COVERAGE_PLANNED_VALUE_UNKNOWN without drift")
	}
}

// A pool whose effective routes could not be read before the plan is
// unverified after it with the evidence finding of that read.
func TestPlanDriftUnread(t *testing.T) {
	f := baselineFacts()
	pool := Run(f).Paths[0].NodePool
	gap := model.Gap{ResourceID: aksSubnetID + "/effectiveRouteTable", Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/networkInterfaces/effectiveRouteTable/action"}
	f.PlanDrift = map[string]model.PlanDrift{pool: {Gap: &gap}}
	res := Run(f)
	got := findingsWith(res, model.EvidencePermissionDenied)
	if len(got) == 0 || got[0].NodePool != pool || !got[0].ResourceID.Equal(gap.ResourceID) {
		t.Fatalf("findings %+v, want EVIDENCE_PERMISSION_DENIED on the effective route table for pool %s", got, pool)
	}
	if res.Verdict != model.Unverified {
		t.Errorf("verdict %s", res.Verdict)
	}
}

// A plan none of whose changes the verification met is an info note that
// leaves the verdict alone; when the plan is about other subscriptions
// only, the note says which and asks for the right plan. Without it,
// nothing is said.
func TestPlanOffPath(t *testing.T) {
	base := Run(baselineFacts())
	if len(findingsWith(base, model.CoveragePlannedOffPath)) != 0 {
		t.Fatalf("COVERAGE_PLANNED_CHANGES_OFF_PATH without a plan: %+v", base.Findings)
	}
	for _, tc := range []struct {
		name      string
		off       model.PlanOffPath
		mentions  []string
		notInText string
	}{
		{"other subscription", model.PlanOffPath{Changes: 3, PlanSubscriptions: []string{"sub-b"}, ReadSubscriptions: []string{"SUB-A"}},
			[]string{"3 Azure resource change(s)", "sub-b only", "read subscription(s) SUB-A"}, ""},
		{"same subscription", model.PlanOffPath{Changes: 1, PlanSubscriptions: []string{"sub-a"}, ReadSubscriptions: []string{"SUB-A", "sub-c"}},
			[]string{"1 Azure resource change(s)", "as it is now"}, "only; this verification read"},
		{"empty plan", model.PlanOffPath{NoChanges: "empty"},
			[]string{"changes no resource", "nothing to do", "as it is now"}, "Azure resource change(s)"},
		{"refresh-only plan", model.PlanOffPath{NoChanges: "refresh-only"},
			[]string{"changes no resource", "refresh-only", "outside Terraform"}, "Azure resource change(s)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := baselineFacts()
			off := tc.off
			f.PlanOffPath = &off
			res := Run(f)
			if res.Verdict != base.Verdict {
				t.Errorf("verdict %s, want %s as without the plan", res.Verdict, base.Verdict)
			}
			got := findingsWith(res, model.CoveragePlannedOffPath)
			if len(got) != 1 || got[0].Severity != model.SeverityInfo {
				t.Fatalf("want one info COVERAGE_PLANNED_CHANGES_OFF_PATH, got %+v", got)
			}
			requireContains(t, got[0].Message, tc.mentions...)
			if tc.notInText != "" && strings.Contains(got[0].Message, tc.notInText) {
				t.Errorf("message %q says %q", got[0].Message, tc.notInText)
			}
		})
	}
}

// An unknown fact makes unverified exactly the paths that read it: the
// node VNet's DNS servers every path of its pools (unless the nodes' NICs
// set their own), a peered VNet's none; a subnet's private endpoint network
// policies only a path to an endpoint in it whose security group they
// would decide.
func TestPlannedUnknownFact(t *testing.T) {
	gap := func(id model.ResourceID, address, member string) model.Gap {
		return model.Gap{ResourceID: id, Kind: model.GapPlannedUnknown, Planned: address, Detail: member + " is known only after apply (planned change " + address + ")"}
	}
	dnsUnknown := func(vnet model.ResourceID) func(f model.Facts) {
		return func(f model.Facts) {
			v := f.Network.VNet(vnet)
			v.DNSServers = nil
			v.Unknown = model.UnknownFacts{model.FactDNSServers: gap(vnet, "azurerm_virtual_network.x", "properties.dhcpOptions.dnsServers")}
		}
	}
	peUnknown := func(f model.Facts) {
		s := f.Network.Subnet(peSubnetID)
		s.PrivateEndpointNetworkPolicies = ""
		s.Unknown = model.UnknownFacts{model.FactPrivateEndpointNetworkPolicies: gap(peSubnetID, "azurerm_subnet.pe", "properties.privateEndpointNetworkPolicies")}
	}
	denyAtPE := func(f model.Facts) {
		withNSG(f, peSubnetID, nsgPEID, secRule("DenySpokeHttps", 100, "Inbound", "Deny", "Tcp", "10.1.0.0/16", "*", "443"))
	}
	cases := []struct {
		name    string
		edit    func(f model.Facts)
		verdict model.Verdict
		change  string
	}{
		{"the node VNet's DNS servers: every path unverified", dnsUnknown(spokeID), model.Unverified, "azurerm_virtual_network.x"},
		{"a peered VNet's DNS servers: read by no path (negative)", dnsUnknown(hubID), model.Reachable, ""},
		{"the node VNet's, with the servers set on the scale set's NICs (negative)", func(f model.Facts) {
			dnsUnknown(spokeID)(f)
			for _, p := range f.Pools {
				p.DNSServers = []netip.Addr{model.AzureDNS}
			}
		}, model.Reachable, ""},
		{"the endpoint subnet's policies with a security group there: unverified", func(f model.Facts) { denyAtPE(f); peUnknown(f) }, model.Unverified, "azurerm_subnet.pe"},
		{"the endpoint subnet's policies without a security group (negative)", peUnknown, model.Reachable, ""},
		{"the node subnet's policies: it holds no endpoint (negative)", func(f model.Facts) {
			s := f.Network.Subnet(aksSubnetID)
			s.Unknown = model.UnknownFacts{model.FactPrivateEndpointNetworkPolicies: gap(aksSubnetID, "azurerm_subnet.aks", "properties.privateEndpointNetworkPolicies")}
		}, model.Reachable, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := baselineFacts()
			c.edit(f)
			res := Run(f)
			if res.Verdict != c.verdict {
				t.Fatalf("verdict %s, want %s: %+v", res.Verdict, c.verdict, res.Findings)
			}
			got := findingsWith(res, model.CoveragePlannedUnknown)
			if c.change == "" {
				if len(got) > 0 {
					t.Errorf("an unknown fact no path reads was reported: %+v", got)
				}
				return
			}
			if len(got) == 0 {
				t.Fatalf("no COVERAGE_PLANNED_VALUE_UNKNOWN: %+v", res.Findings)
			}
			for _, fd := range got {
				if fd.PlannedChange != c.change {
					t.Errorf("finding names %q, want %q: %s", fd.PlannedChange, c.change, fd.Message)
				}
			}
			for _, p := range res.Paths {
				if p.Verdict == model.Reachable && c.name == "the node VNet's DNS servers: every path unverified" {
					t.Errorf("path %s → %s reachable with its DNS servers unknown", p.NodePool, p.Host)
				}
			}
		})
	}
}
