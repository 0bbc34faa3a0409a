// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"fmt"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// owners in the order a reader meets them on the chain, with what each one
// looks after.
var owners = []struct {
	owner model.Owner
	scope string
}{
	{model.OwnerNetwork, "routes, peerings, gateways, security rules"},
	{model.OwnerDNS, "resolvers, private DNS zones, links, records, forwarding"},
	{model.OwnerRegistry, "registry endpoints, private endpoints, public access"},
	{model.OwnerIdentity, "pull identity, role assignments, TLS names"},
	{model.OwnerOperator, "evidence the provider could not read, coverage notes"},
}

// summary is the report a person reads top to bottom: the verdict, the
// paths table, then every finding grouped by owner.
func summary(f *model.Facts, res Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Pull path verification: %s (%s)\n", res.Verdict, countLine(res.Findings))
	fmt.Fprintf(&b, "%s\n", subjectLine(f, res))
	if note := identityNote(f); note != "" {
		b.WriteString(note + "\n")
	}
	b.WriteString("\n")
	b.WriteString("Paths (node pool × hostname)\n")
	writePaths(&b, res.Paths, true)
	b.WriteString("\n")
	if len(res.Findings) == 0 {
		b.WriteString("No findings.\n")
		return b.String()
	}
	writeAccepted(&b, res.Findings)
	if open := notAccepted(res.Findings); len(open) > 0 {
		b.WriteString("Findings by owner\n")
		writeFindings(&b, open, true)
	}
	return b.String()
}

// FailureReport is the text of the diagnostic that fails a plan: what is
// wrong, grouped by the owner who must act, each finding with node pool,
// host, message and remediation, followed by the paths that do not work.
// Informational findings are left out.
func FailureReport(res Result) string {
	var b strings.Builder
	switch res.Verdict {
	case model.Unreachable:
		b.WriteString("The node pools cannot pull from the registry: a fresh node would fail before the pod exists.\n")
	case model.Unverified:
		b.WriteString("Whether the node pools can pull from the registry is unverified: some evidence is missing or cannot be read from Azure.\n")
	default:
		b.WriteString("Every node pool can pull from the registry.\n")
	}
	fmt.Fprintf(&b, "Verdict %s (%s). Each finding names the owner who acts, the node pool and host, what is wrong and what to change.\n\n", res.Verdict, countLine(res.Findings))
	writeFindings(&b, res.Findings, false)
	var failing []Path
	for _, p := range res.Paths {
		if p.Verdict != model.Reachable {
			failing = append(failing, p)
		}
	}
	if len(failing) > 0 {
		fmt.Fprintf(&b, "\nPaths that do not work (%d of %d)\n", len(failing), len(res.Paths))
		writePaths(&b, failing, false)
	}
	return b.String()
}

func subjectLine(f *model.Facts, res Result) string {
	var parts []string
	switch {
	case f.Registry != nil:
		parts = append(parts, fmt.Sprintf("registry %s (%s)", f.Registry.Name, model.NormalizeHost(f.Registry.LoginServer)))
	case f.Declared != nil:
		parts = append(parts, "registry hosts "+strings.Join(f.Declared.Hosts, ", "))
	}
	if f.Cluster != nil {
		parts = append(parts, "cluster "+f.Cluster.Name)
	}
	pools, hosts := map[string]bool{}, map[string]bool{}
	for _, p := range res.Paths {
		pools[p.NodePool], hosts[p.Host] = true, true
	}
	parts = append(parts, fmt.Sprintf("%s × %s = %s", plural(len(pools), "node pool"), plural(len(hosts), "hostname"), plural(len(res.Paths), "path")))
	return capitalize(strings.Join(parts, "; "))
}

// identityNote says when the pull identity was not part of the check.
func identityNote(f *model.Facts) string {
	switch {
	case f.Registry == nil:
		return "Pull identity not checked: the registry is not an Azure Container Registry, so its credentials are not in Azure Resource Manager."
	case f.Registry.AnonymousPullEnabled:
		return "No pull identity needed: the registry allows anonymous pull."
	case f.PullCredentials.OrDefault() == model.PullAnonymous:
		return "Pulls are anonymous (pull_credentials = anonymous): the registry must allow anonymous pull."
	case f.PullCredentials.OrDefault() == model.PullImagePullSecret:
		return "Pull identity not checked: pull_credentials = image_pull_secret, the workloads' own credentials are not in Azure Resource Manager."
	case f.Cluster == nil:
		return "Pull identity not checked: the nodes were given as subnets, without a cluster and its kubelet identity."
	}
	return ""
}

func countLine(fs []model.Finding) string {
	var errors, warnings, notes int
	for _, f := range fs {
		switch f.Severity {
		case model.SeverityError:
			errors++
		case model.SeverityWarning:
			warnings++
		default:
			notes++
		}
	}
	return fmt.Sprintf("%s, %s, %s", plural(errors, "error"), plural(warnings, "warning"), plural(notes, "note"))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// writePaths writes the paths as an aligned table; with details, each row
// is followed by its resolution and hops.
func writePaths(b *strings.Builder, paths []Path, details bool) {
	rows := [][]string{{"NODE POOL", "HOST", "ADDRESS", "RESOLVER", "ROUTES", "VERDICT"}}
	for _, p := range paths {
		addr := p.Address
		if addr == "" {
			addr = "-"
		}
		rows = append(rows, []string{p.NodePool, p.Host, addr, p.Resolver, string(p.RouteSource), string(p.Verdict)})
	}
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], len(cell))
		}
	}
	for i, row := range rows {
		var line strings.Builder
		for j, cell := range row {
			if j == len(row)-1 {
				line.WriteString(cell)
			} else {
				fmt.Fprintf(&line, "%-*s  ", widths[j], cell)
			}
		}
		b.WriteString("  " + strings.TrimRight(line.String(), " ") + "\n")
		if !details || i == 0 {
			continue
		}
		p := paths[i-1]
		if p.Resolution != "" {
			b.WriteString("      dns:   " + p.Resolution + "\n")
		}
		if len(p.Hops) > 0 {
			b.WriteString("      route: " + strings.Join(p.Hops, " → ") + "\n")
		}
	}
}

// writeFindings writes findings grouped by owner in chain order; withInfo
// includes informational findings.
func writeFindings(b *strings.Builder, fs []model.Finding, withInfo bool) {
	first := true
	for _, o := range owners {
		var group []model.Finding
		for _, f := range fs {
			if f.Owner == o.owner && (withInfo || f.Severity != model.SeverityInfo) {
				group = append(group, f)
			}
		}
		if len(group) == 0 {
			continue
		}
		if !first {
			b.WriteString("\n")
		}
		first = false
		fmt.Fprintf(b, "[%s] %s — %s\n", o.owner, o.scope, plural(len(group), "finding"))
		for _, c := range ByCause(group) {
			f := c[0]
			fmt.Fprintf(b, "  %s %s — %s%s\n", strings.ToUpper(string(f.Severity)), f.Code, Where(f), afterPlan(f))
			fmt.Fprintf(b, "    %s\n", f.Message)
			fmt.Fprintf(b, "    Fix: %s\n", f.Remediation)
			if !f.ResourceID.IsZero() {
				fmt.Fprintf(b, "    Resource: %s\n", f.ResourceID)
			}
			if len(c) > 1 {
				also := make([]string, len(c)-1)
				for i, g := range c[1:] {
					also[i] = Where(g)
				}
				fmt.Fprintf(b, "    Same cause and fix also for: %s\n", strings.Join(also, "; "))
			}
		}
	}
}

// afterPlan marks a finding the planned changes cause.
func afterPlan(f model.Finding) string {
	if f.PlannedChange == "" {
		return ""
	}
	return " — after this plan: " + f.PlannedChange
}

// ByCause groups findings that share code, resource and remediation (one
// cause seen from several pools or hosts), keeping the order of first
// appearance, so that the reader meets each cause once.
func ByCause(fs []model.Finding) [][]model.Finding {
	type key struct {
		code     model.Code
		resource string
		fix      string
		planned  string
	}
	index := map[key]int{}
	var out [][]model.Finding
	for _, f := range fs {
		k := key{f.Code, f.ResourceID.Key(), f.Remediation, f.PlannedChange}
		if i, ok := index[k]; ok && !f.ResourceID.IsZero() {
			out[i] = append(out[i], f)
			continue
		}
		index[k] = len(out)
		out = append(out, []model.Finding{f})
	}
	return out
}

// Where says which node pool and host a finding is about ("all node
// pools" when it has no pool).
func Where(f model.Finding) string {
	pool := "all node pools"
	if f.NodePool != "" {
		pool = "node pool " + f.NodePool
	}
	if f.Endpoint == "" {
		return pool
	}
	return pool + ", " + f.Endpoint
}
