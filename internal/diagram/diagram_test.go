// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package diagram

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

const (
	login = "contosoreg.azurecr.io"
	data  = "contosoreg.westeurope.data.azurecr.io"
	azDNS = "azure_dns 168.63.129.16"
)

const net = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/"

var (
	snetAKS = model.ResourceID(net + "virtualNetworks/vnet-spoke/subnets/snet-aks")
	snetFW  = model.ResourceID(net + "virtualNetworks/vnet-hub/subnets/AzureFirewallSubnet")
	fwHub   = model.ResourceID(net + "azureFirewalls/fw-hub")
)

// peSteps: across the spoke-to-hub peering to private endpoint pe-acr.
func peSteps(addr string) []model.Hop {
	return []model.Hop{
		{Kind: model.HopPeering, Name: "spoke-to-hub", ResourceID: net + "virtualNetworks/vnet-spoke/virtualNetworkPeerings/spoke-to-hub",
			Label: "peering spoke-to-hub", From: snetAKS, Route: "10.0.0.0/16 VNetPeering (peering spoke-to-hub)"},
		{Kind: model.HopPrivateEndpoint, Name: "pe-acr", ResourceID: net + "privateEndpoints/pe-acr", Address: addr,
			Label: "private endpoint pe-acr in vnet-hub/snet-pe"},
	}
}

func okPath(pool, host, addr string) verify.Path {
	return verify.Path{NodePool: pool, Host: host, Address: addr, Resolver: azDNS, Steps: peSteps(addr), Verdict: model.Reachable}
}

func dropStep(route string) model.Hop {
	return model.Hop{Kind: model.HopStop, Label: "dropped", From: snetAKS, Route: route}
}

func finding(code model.Code, pool, host string) model.Finding {
	return model.NewFinding(code, pool, host, "", "message", "fix")
}

// nodeLine finds the node line whose label holds text.
func nodeLines(out, text string) []string {
	var lines []string
	for l := range strings.SplitSeq(out, "\n") {
		if strings.Contains(l, text) && !strings.Contains(l, "-->") && !strings.Contains(l, "-.->") {
			lines = append(lines, l)
		}
	}
	return lines
}

var (
	idRe   = regexp.MustCompile(`^[A-Za-z0-9_]+$`)
	nodeRe = regexp.MustCompile(`^    ([A-Za-z0-9_]+)(\["|\(\["|\{\{"|\("|\[\("|\(\(")(.*)("\]|"\]\)|"\}\}|"\)|"\)\]|"\)\))$`)
	edgeRe = regexp.MustCompile(`^    ([A-Za-z0-9_]+) (-->|-\.->)(\|"([^"]*)"\|)? ([A-Za-z0-9_]+)$`)
)

// checkSyntax holds every line of out to the subset of Mermaid the
// package writes: node ids of letters, digits and underscores, labels
// without a raw quote, edges between declared nodes, linkStyle indexes
// within the edges.
func checkSyntax(t *testing.T, out string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if lines[0] != "flowchart LR" {
		t.Fatalf("first line %q", lines[0])
	}
	nodes := map[string]bool{}
	edges := 0
	for _, l := range lines[1:] {
		switch {
		case nodeRe.MatchString(l):
			m := nodeRe.FindStringSubmatch(l)
			if !escaped(m[3]) {
				t.Errorf("label not escaped: %s", l)
			}
			nodes[m[1]] = true
		case edgeRe.MatchString(l):
			m := edgeRe.FindStringSubmatch(l)
			if !nodes[m[1]] || !nodes[m[5]] {
				t.Errorf("edge between undeclared nodes: %s", l)
			}
			if !escaped(m[4]) {
				t.Errorf("edge label not escaped: %s", l)
			}
			edges++
		case strings.HasPrefix(l, "    classDef "), strings.HasPrefix(l, "    class "):
		case strings.HasPrefix(l, "    linkStyle "):
			for n := range strings.SplitSeq(strings.Fields(l)[1], ",") {
				var i int
				if _, err := fmt.Sscan(n, &i); err != nil || i < 0 || i >= edges {
					t.Errorf("linkStyle index %s out of the %d edges: %s", n, edges, l)
				}
			}
		default:
			t.Errorf("line outside the syntax the package writes: %q", l)
		}
	}
}

var entityRe = regexp.MustCompile(`#([a-z]+|[0-9]+);`)

// escaped: besides the line breaks the package writes, the label holds no
// character Mermaid would read, and every # starts an entity code.
func escaped(label string) bool {
	s := entityRe.ReplaceAllString(strings.ReplaceAll(label, "<br/>", ""), "")
	return !strings.ContainsAny(s, "\"|[]{}<>`;#&")
}

func TestFlowchartWorkingLandingZone(t *testing.T) {
	paths := []verify.Path{
		okPath("system", login, "10.0.2.5"), okPath("system", data, "10.0.2.6"),
		okPath("user", login, "10.0.2.5"), okPath("user", data, "10.0.2.6"),
	}
	out := Flowchart(paths, nil)
	checkSyntax(t, out)
	for _, want := range []string{
		`["node pools system, user<br/>subnet vnet-spoke/snet-aks"]`,
		`{{"DNS azure_dns 168.63.129.16"}}`,
		`("peering spoke-to-hub")`,
		`[("10.0.2.5")]`, `[("10.0.2.6")]`,
		`-->|"10.0.0.0/16 VNetPeering (peering spoke-to-hub)"|`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in\n%s", want, out)
		}
	}
	if n := len(nodeLines(out, `("peering spoke-to-hub")`)); n != 1 {
		t.Errorf("the peering every path crosses is %d nodes, want 1:\n%s", n, out)
	}
	if strings.Contains(out, "linkStyle") || strings.Contains(out, "-.->") {
		t.Errorf("a working landing zone has styled edges:\n%s", out)
	}
}

func TestFlowchartBrokenAndUnverifiedEdges(t *testing.T) {
	drop := dropStep("10.0.0.0/16 None (route table rt-aks route quarantine-hub)")
	paths := []verify.Path{
		{NodePool: "system", Host: login, Address: "10.0.2.5", Resolver: azDNS, Steps: []model.Hop{drop}, Verdict: model.Unreachable},
		{NodePool: "system", Host: data, Address: "10.0.2.6", Resolver: azDNS, Steps: peSteps("10.0.2.6"), Verdict: model.Unverified},
	}
	findings := []model.Finding{
		finding(model.RouteBlackhole, "system", login),
		finding(model.ReturnRouteUnverified, "system", data),
		finding(model.CoverageRoutesComputed, "system", ""),
	}
	out := Flowchart(paths, findings)
	checkSyntax(t, out)
	lines := strings.Split(out, "\n")
	var brokenIdx, unverifiedIdx, i = -1, -1, 0
	for _, l := range lines {
		if !edgeRe.MatchString(l) {
			continue
		}
		if strings.Contains(l, "ROUTE_BLACKHOLE") {
			brokenIdx = i
			if !strings.Contains(l, " -->|") || !strings.Contains(l, "N_dropped") {
				t.Errorf("the blackhole edge is not a solid edge into dropped: %s", l)
			}
		}
		if strings.Contains(l, "RETURN_ROUTE_UNVERIFIED") {
			unverifiedIdx = i
			if !strings.Contains(l, " -.->|") || !strings.Contains(l, "A_10_0_2_6") {
				t.Errorf("the unverified edge is not a dotted edge into its address: %s", l)
			}
		}
		if strings.Contains(l, "COVERAGE_ROUTES_COMPUTED") {
			t.Errorf("an info finding labels an edge: %s", l)
		}
		i++
	}
	if brokenIdx < 0 || unverifiedIdx < 0 {
		t.Fatalf("codes not on edges:\n%s", out)
	}
	if !strings.Contains(out, fmt.Sprintf("linkStyle %d %s", brokenIdx, brokenStyle)) ||
		!strings.Contains(out, fmt.Sprintf("linkStyle %d %s", unverifiedIdx, unverifiedStyle)) {
		t.Errorf("linkStyle does not style edges %d (broken) and %d (unverified):\n%s", brokenIdx, unverifiedIdx, out)
	}
	// The dropped packet never reaches 10.0.2.5.
	if strings.Contains(out, `[("10.0.2.5")]`) {
		t.Errorf("a dropped path is drawn to its address:\n%s", out)
	}
}

func TestFlowchartUnresolvedNameEndsInNoAddress(t *testing.T) {
	paths := []verify.Path{{NodePool: "system", Host: login, Resolver: azDNS, Verdict: model.Unreachable}}
	out := Flowchart(paths, []model.Finding{finding(model.DNSZoneNotLinked, "system", login), finding(model.DNSRecordMissing, "user", login)})
	checkSyntax(t, out)
	if !strings.Contains(out, `-->|"DNS_ZONE_NOT_LINKED"| S_no_address_`) {
		t.Errorf("the unresolved name does not end in the no-address node with its code:\n%s", out)
	}
	if strings.Contains(out, "DNS_RECORD_MISSING") {
		t.Errorf("another pool's finding labels this pool's edge:\n%s", out)
	}
}

// A pull identity without its role is not a network failure: the packet's
// way stays unmarked, and the pool's own edge to "pull refused by the
// registry" carries the code.
func TestFlowchartIdentityFailureIsNotOnANetworkEdge(t *testing.T) {
	p := okPath("system", login, "10.0.2.5")
	p.Verdict = model.Unreachable
	out := Flowchart([]verify.Path{p}, []model.Finding{finding(model.IdentityPullRoleMissing, "system", login)})
	checkSyntax(t, out)
	if !regexp.MustCompile(`P_node_pool_system\w+ -->\|"IDENTITY_PULL_ROLE_MISSING<br/>for contosoreg.azurecr.io"\| S_pull_refused_by_the_regi\w+`).MatchString(out) {
		t.Errorf("the identity failure is not on the pool's edge to the registry's refusal:\n%s", out)
	}
	if regexp.MustCompile(`(N|H|R)_\w+ -->\|"IDENTITY`).MatchString(out) {
		t.Errorf("the identity failure is drawn on a network edge:\n%s", out)
	}
	// The network edges are not styled broken: only the refusal is.
	lines := strings.Split(out, "\n")
	var edges []string
	for _, l := range lines {
		if strings.Contains(l, " --> ") || strings.Contains(l, " -->|") {
			edges = append(edges, l)
		}
	}
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "linkStyle "); ok {
			for _, i := range strings.Split(strings.Fields(rest)[0], ",") {
				n, err := strconv.Atoi(i)
				if err != nil || n >= len(edges) {
					t.Fatalf("linkStyle %q: %v", rest, err)
				}
				if !strings.Contains(edges[n], "S_pull_refused") {
					t.Errorf("a network edge is styled as broken: %s", edges[n])
				}
			}
		}
	}
	// With a network code too, that one stays on the network edge.
	out = Flowchart([]verify.Path{p}, []model.Finding{finding(model.IdentityPullRoleMissing, "system", login),
		finding(model.SecurityOutboundDenied, "system", login)})
	if !strings.Contains(out, `|"SECURITY_RULE_OUTBOUND_DENIED`) || strings.Contains(out, "SECURITY_RULE_OUTBOUND_DENIED, IDENTITY") ||
		strings.Contains(out, "IDENTITY_PULL_ROLE_MISSING, SECURITY") {
		t.Errorf("network and registry codes are not drawn apart:\n%s", out)
	}
}

func TestFlowchartEscapesLabels(t *testing.T) {
	nasty := `pe"x|y[z]{w}<b>#1;&amp` + "`"
	paths := []verify.Path{{
		NodePool: `pool"<1>`, Host: "a.azurecr.io", Address: "10.0.2.5", Resolver: `10.0.1.10 (vm "dns|1")`,
		Steps: []model.Hop{{Kind: model.HopAppliance, Address: "10.0.1.4", Label: "appliance " + nasty,
			From: model.ResourceID(net + "virtualNetworks/v/subnets/s"), Route: "10.0.0.0/16 VirtualAppliance 10.0.1.4 (route table rt[1] route r|2)"}},
		Verdict: model.Reachable,
	}}
	out := Flowchart(paths, nil)
	checkSyntax(t, out)
	for _, want := range []string{
		`node pool pool#quot;#60;1#62;`,
		`DNS 10.0.1.10 (vm #quot;dns#124;1#quot;)`,
		`appliance pe#quot;x#124;y#91;z#93;#123;w#125;#60;b#62;#35;1#59;#38;amp#96;`,
		`(route table rt#91;1#93; route r#124;2)`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing escaped %s in\n%s", want, out)
		}
	}
	if got := escape("a\nb\"c"); got != "a b#quot;c" {
		t.Errorf("escape = %q", got)
	}
	for _, id := range []string{nodeID(kindHop, "k", nasty), nodeID(kindPools, "k", ""), nodeID(kindHost, "k", "ä.ö")} {
		if !idRe.MatchString(id) {
			t.Errorf("node id %q is not letters, digits and underscores", id)
		}
	}
}

// landingZone is 27 pools × 6 hosts through one hub firewall: pools of
// three subnets, all but one subnet working.
func landingZone() ([]verify.Path, []model.Finding) {
	var paths []verify.Path
	var findings []model.Finding
	hosts := []string{"a.azurecr.io", "a.westeurope.data.azurecr.io", "a.northeurope.data.azurecr.io",
		"b.azurecr.io", "b.westeurope.data.azurecr.io", "mcr.microsoft.com"}
	for i := range 27 {
		pool := fmt.Sprintf("pool%02d", i)
		subnet := fmt.Sprintf("vnet-spoke/subnets/snet-%d", i%3)
		for j, h := range hosts {
			addr := fmt.Sprintf("10.0.2.%d", j+4)
			fw := model.FirewallHop(fwHub, "10.0.4.4", snetFW)
			fw.From, fw.Route = model.ResourceID(net+"virtualNetworks/"+subnet), "10.0.0.0/8 VirtualAppliance 10.0.4.4 (route table rt route hub)"
			p := verify.Path{NodePool: pool, Host: h, Address: addr, Resolver: azDNS, Verdict: model.Reachable, Steps: []model.Hop{fw,
				{Kind: model.HopPrivateEndpoint, Name: "pe", ResourceID: net + "privateEndpoints/pe", Address: addr, Label: "private endpoint pe in vnet-hub/snet-pe",
					From: snetFW, Route: addr + "/32 InterfaceEndpoint (private endpoint pe)"},
			}}
			if i%3 == 2 {
				p.Verdict = model.Unreachable
				findings = append(findings, finding(model.IdentityPullRoleMissing, pool, h))
			}
			paths = append(paths, p)
		}
	}
	return paths, findings
}

func TestFlowchartGroupsPoolsAndSharesHops(t *testing.T) {
	paths, findings := landingZone()
	out := Flowchart(paths, findings)
	checkSyntax(t, out)
	if n := len(nodeLines(out, `["node pool`)); n != 3 {
		t.Errorf("27 pools of 3 subnets are %d pool nodes, want 3:\n%s", n, out)
	}
	if n := len(nodeLines(out, `("Azure Firewall fw-hub (10.0.4.4)")`)); n != 1 {
		t.Errorf("the hub firewall every pool crosses is %d nodes, want 1", n)
	}
	// A hostname is one node, whatever the groups that reach it.
	if n := len(nodeLines(out, `(["`)); n != 6 {
		t.Errorf("%d hostname nodes, want one per hostname (6)", n)
	}
	if n := len(nodeLines(out, `{{"`)); n != 1 {
		t.Errorf("%d resolver nodes, want one for the one resolver", n)
	}
	if !strings.Contains(out, `"node pools pool00, pool03, pool06, pool09,<br/>pool12, pool15, pool18, pool21,<br/>pool24<br/>subnet vnet-spoke/snet-0"`) {
		t.Errorf("the group of snet-0 is not labelled with its pools' names:\n%s", out)
	}
	if lines := strings.Count(out, "\n"); lines > 120 {
		t.Errorf("the diagram of 27 pools × 6 hosts has %d lines", lines)
	}
	// Pools that differ by their findings alone are not grouped.
	paths2 := []verify.Path{okPath("a", login, "10.0.2.5"), okPath("b", login, "10.0.2.5")}
	paths2[1].Verdict = model.Unreachable
	out2 := Flowchart(paths2, []model.Finding{finding(model.IdentityPullRoleMissing, "b", login)})
	if n := len(nodeLines(out2, `["node pool `)); n != 2 {
		t.Errorf("a working and a broken pool are %d nodes, want 2:\n%s", n, out2)
	}
}

func TestFlowchartIsDeterministic(t *testing.T) {
	paths, findings := landingZone()
	want := Flowchart(paths, findings)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		p := append([]verify.Path(nil), paths...)
		f := append([]model.Finding(nil), findings...)
		rng.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
		rng.Shuffle(len(f), func(i, j int) { f[i], f[j] = f[j], f[i] })
		if got := Flowchart(p, f); got != want {
			t.Fatalf("shuffled input gives another text:\n%s\nwant\n%s", got, want)
		}
	}
}

func TestFlowchartMultipleAddresses(t *testing.T) {
	var steps []model.Hop
	for _, s := range peSteps("10.0.2.5") {
		s.Destination = "10.0.2.5"
		steps = append(steps, s)
	}
	drop := dropStep("10.0.0.0/8 None (default)")
	drop.Destination = "10.5.2.5"
	nsg := model.Hop{Kind: model.HopSecurityGroup, Name: "nsg-aks", Label: "nsg nsg-aks (subnet) allows TCP 443 by rule AllowVnetOutBound (65000)"}
	p := verify.Path{NodePool: "system", Host: login, Address: "10.0.2.5, 10.5.2.5", Resolver: azDNS, Verdict: model.Unreachable,
		Steps: append(append([]model.Hop{nsg}, steps...), drop)}
	out := Flowchart([]verify.Path{p}, []model.Finding{finding(model.RouteBlackhole, "system", login)})
	checkSyntax(t, out)
	if !strings.Contains(out, `("private endpoint pe-acr in vnet-hub/snet-pe")`) || !strings.Contains(out, `("dropped")`) {
		t.Errorf("each address's hops are not drawn:\n%s", out)
	}
	// The group passed on the way to both addresses leads to both; the
	// peering only to the address it leads to.
	nsgID := nodeIDOf(t, out, "nsg nsg-aks")
	if !regexp.MustCompile(nsgID+` -->\|"10.0.0.0/16 VNetPeering \(peering spoke-to-hub\)"\| N_peering_spoke_to_hub_\w+`).MatchString(out) ||
		!regexp.MustCompile(nsgID+` -->\|"ROUTE_BLACKHOLE<br/>for contosoreg.azurecr.io<br/>10.0.0.0/8 None \(default\)"\| N_dropped_\w+`).MatchString(out) {
		t.Errorf("the steps are not split by the address they lead to:\n%s", out)
	}
	if regexp.MustCompile(`N_peering_spoke_to_hub_\w+ -->[^\n]*N_dropped`).MatchString(out) {
		t.Errorf("the peering on the way to 10.0.2.5 leads to the drop of 10.5.2.5:\n%s", out)
	}
}

func TestFlowchartNoPaths(t *testing.T) {
	out := Flowchart(nil, nil)
	checkSyntax(t, out)
	if !strings.Contains(out, "no node pool paths were verified") {
		t.Errorf("empty diagram:\n%s", out)
	}
}

// nodeIDOf is the id of the one node whose label holds text.
func nodeIDOf(t *testing.T, out, text string) string {
	t.Helper()
	lines := nodeLines(out, text)
	if len(lines) != 1 {
		t.Fatalf("%d nodes hold %q, want 1:\n%s", len(lines), text, out)
	}
	return nodeRe.FindStringSubmatch(lines[0])[1]
}

// publicFirewallPath is a public path as verification gives it: the route
// hands the flow to the hub firewall (named by the route), the firewall's
// subnet routes it to the Internet, and the way out names the firewall
// again, in other words.
func publicFirewallPath(pool, host string) verify.Path {
	fwByRoute := model.FirewallHop(fwHub, "10.0.4.4", snetFW)
	fwByRoute.Label = "Azure Firewall 10.0.4.4 in vnet-hub/AzureFirewallSubnet"
	fwByRoute.From, fwByRoute.Route = snetAKS, "0.0.0.0/0 VirtualAppliance 10.0.4.4 (route table rt-aks route to-fw)"
	fwByEgress := model.FirewallHop(fwHub, "10.0.4.4", snetFW)
	return verify.Path{NodePool: pool, Host: host, Resolver: azDNS, Verdict: model.Reachable, Steps: []model.Hop{
		fwByRoute,
		{Kind: model.HopInternet, Label: "Internet", From: snetFW, Route: "0.0.0.0/0 Internet (default)"},
		fwByEgress,
		{Kind: model.HopEgress, Name: "fw-hub", ResourceID: fwHub, Label: "out through Azure Firewall fw-hub's public IPs"},
	}}
}

func TestFlowchartFirewallIsOneNode(t *testing.T) {
	out := Flowchart([]verify.Path{publicFirewallPath("system", "mcr.microsoft.com"), publicFirewallPath("user", login)}, nil)
	checkSyntax(t, out)
	if n := len(nodeLines(out, `("Azure Firewall`)); n != 1 {
		t.Fatalf("the hub firewall the route and the way out both name is %d nodes, want 1:\n%s", n, out)
	}
	fw := nodeIDOf(t, out, `("Azure Firewall`)
	// The least of the labels, whichever step came first.
	if !strings.Contains(out, `("Azure Firewall 10.0.4.4 in vnet-hub/AzureFirewallSubnet")`) {
		t.Errorf("the firewall node is not labelled with the least of its names:\n%s", out)
	}
	// No loop back into the firewall: the way out follows the Internet hop.
	if strings.Contains(out, "--> "+fw) && regexp.MustCompile(`N_Internet_\w+ -->[^\n]* `+fw).MatchString(out) {
		t.Errorf("the diagram loops back into the firewall:\n%s", out)
	}
	if !regexp.MustCompile(`N_Internet_\w+ --> N_out_through_Azure_\w+`).MatchString(out) {
		t.Errorf("the way out does not follow the Internet hop:\n%s", out)
	}
	// Two firewalls at the same address in different subnets, known only
	// by their address, stay two nodes.
	a, b := publicFirewallPath("system", login), publicFirewallPath("user", login)
	a.Steps = a.Steps[:1]
	b.Steps = b.Steps[:1]
	a.Steps[0].ResourceID, b.Steps[0].ResourceID = "", ""
	b.Steps[0].SubnetID = net + "virtualNetworks/vnet-hub2/subnets/AzureFirewallSubnet"
	if n := len(nodeLines(Flowchart([]verify.Path{a, b}, nil), `("Azure Firewall`)); n != 2 {
		t.Errorf("firewalls of two subnets are %d nodes, want 2", n)
	}
}

func TestFlowchartPlannedChangeLabelsTheStopEdge(t *testing.T) {
	paths := []verify.Path{{NodePool: "system", Host: login, Resolver: azDNS, Verdict: model.Unreachable},
		{NodePool: "system", Host: data, Resolver: azDNS, Verdict: model.Unreachable, Address: "10.0.2.6", Steps: []model.Hop{dropStep("10.0.0.0/8 None (route table rt-aks route quarantine)")}}}
	planned := finding(model.DNSZoneNotLinked, "system", login)
	planned.PlannedChange = `azurerm_private_dns_zone_virtual_network_link.acr["spoke"]`
	out := Flowchart(paths, []model.Finding{planned, finding(model.RouteBlackhole, "system", data)})
	checkSyntax(t, out)
	want := `-->|"DNS_ZONE_NOT_LINKED<br/>after this plan: azurerm_private_dns_zone_virtual_network_link.acr#91;#quot;spoke#quot;#93;"| S_no_address_`
	if !strings.Contains(out, want) {
		t.Errorf("the edge the planned change breaks does not name it (want %s):\n%s", want, out)
	}
	// A finding the plan does not cause says no plan.
	if n := strings.Count(out, "after this plan"); n != 1 {
		t.Errorf("%d edges name a planned change, want 1:\n%s", n, out)
	}
	if !strings.Contains(out, `-->|"ROUTE_BLACKHOLE<br/>10.0.0.0/8 None (route table rt-aks route quarantine)"| N_dropped_`) {
		t.Errorf("the blackhole the plan does not cause is labelled otherwise:\n%s", out)
	}
	// Pools broken by the same code, one by the plan and one already,
	// are not drawn as one.
	other := finding(model.DNSZoneNotLinked, "user", login)
	out2 := Flowchart([]verify.Path{paths[0], {NodePool: "user", Host: login, Resolver: azDNS, Verdict: model.Unreachable}}, []model.Finding{planned, other})
	if n := len(nodeLines(out2, `["node pool `)); n != 2 {
		t.Errorf("a pool the plan breaks and one already broken are %d nodes, want 2:\n%s", n, out2)
	}
	// Without a plan, no label names one.
	if out3 := Flowchart(paths[:1], []model.Finding{finding(model.DNSZoneNotLinked, "system", login)}); strings.Contains(out3, "after this plan") {
		t.Errorf("a finding without a planned change names one:\n%s", out3)
	}
}
