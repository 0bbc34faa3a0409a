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

// summary is the report a person reads top to bottom in a terminal, every
// line at most SummaryWidth columns: the verdict; the paths, node pools
// with identical paths on one row, with the lookup and hops of each path
// that is not reachable; the errors and warnings by owner, one entry per
// cause; then the notes, one line per code with the pools it concerns.
// The paths and findings attributes keep every detail.
func summary(f *model.Facts, res Result) string {
	p := &page{width: SummaryWidth}
	p.para("", "  ", fmt.Sprintf("Pull path verification: %s (%s)", res.Verdict, countLine(res.Findings)))
	p.para("", "  ", subjectLine(f, res))
	if note := identityNote(f); note != "" {
		p.para("", "  ", note)
	}
	p.blank()
	writePaths(p, res.Paths)
	problems, notes := splitNotes(res.Findings)
	if len(problems) == 0 && len(notes) == 0 && len(notAccepted(res.Findings)) == len(res.Findings) {
		p.blank()
		p.para("", "", "No findings.")
		return p.String()
	}
	if len(problems) > 0 {
		p.blank()
		p.para("", "  ", "Findings by owner")
		writeFindings(p, problems)
	}
	writeAccepted(p, res.Findings)
	if len(notes) > 0 {
		p.blank()
		p.para("", "  ", "Notes")
		writeNotes(p, notes)
	}
	return p.String()
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

// writeFindings writes errors and warnings grouped by owner in chain
// order, one entry per cause (ByCause) with every pool and host it
// concerns, its message, fix and resource.
func writeFindings(p *page, fs []model.Finding) {
	for i, g := range byOwner(fs) {
		if i > 0 {
			p.blank()
		}
		p.para("", "  ", fmt.Sprintf("[%s] %s — %s", g.owner, g.scope, plural(len(g.findings), "finding")))
		for _, c := range ByCause(g.findings) {
			writeCause(p, "  ", strings.ToUpper(string(c[0].Severity)), c, causeDetail)
		}
	}
}

// ownerGroup is the findings of one owner.
type ownerGroup struct {
	owner    model.Owner
	scope    string
	findings []model.Finding
}

// byOwner groups findings by owner, owners in chain order (those without
// findings left out), findings in their order.
func byOwner(fs []model.Finding) []ownerGroup {
	var out []ownerGroup
	for _, o := range owners {
		g := ownerGroup{owner: o.owner, scope: o.scope}
		for _, f := range fs {
			if f.Owner == o.owner {
				g.findings = append(g.findings, f)
			}
		}
		if len(g.findings) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// writeCause writes one cause (ByCause): a heading at indent with label,
// code and the pools and hosts it concerns, then, indented below, the
// planned change behind it, the message of its first finding (unless
// causeBrief), the fix, and the resource: its id with causeDetail, else
// its name, type and resource group (the fix names it too; the id is in
// findings).
func writeCause(p *page, indent, label string, c []model.Finding, show causeShow) {
	f := c[0]
	body := indent + "  "
	p.para(indent, body+"  ", fmt.Sprintf("%s %s — %s", label, f.Code, Where(c...)))
	if f.PlannedChange != "" {
		p.para(body+"After this plan: ", body+"  ", f.PlannedChange)
	}
	if show != causeBrief {
		p.para(body, body, f.Message)
	}
	p.para(body+"Fix: ", body+"     ", f.Remediation)
	switch {
	case f.ResourceID.IsZero():
	case show == causeDetail:
		p.para(body+"Resource: ", body+"          ", string(f.ResourceID))
	default:
		p.para(body+"Resource: ", body+"          ", resourceWords(f.ResourceID))
	}
}

// causeShow is how much writeCause says of a cause.
type causeShow int

const (
	// causeBrief: the code, where, the fix and the resource's name.
	causeBrief causeShow = iota
	// causeMessage: also what is wrong (the first finding's message).
	causeMessage
	// causeDetail: also the message, and the resource's whole id.
	causeDetail
)

// resourceWords names a resource by name, type and resource group:
// "privatelink.azurecr.io (privateDnsZones, resource group rg-dns)".
func resourceWords(id model.ResourceID) string {
	var about []string
	if segs := strings.Split(strings.Trim(string(id), "/"), "/"); len(segs) >= 4 {
		about = append(about, segs[len(segs)-2])
	}
	if rg := id.ResourceGroup(); rg != "" {
		about = append(about, "resource group "+rg)
	}
	if len(about) == 0 {
		return id.Name()
	}
	return id.Name() + " (" + strings.Join(about, ", ") + ")"
}

// splitNotes separates the informational findings (notes) from the
// errors and warnings.
func splitNotes(fs []model.Finding) (problems, notes []model.Finding) {
	for _, f := range fs {
		if f.Accepted != nil {
			continue // writeAccepted has them
		}
		if f.Severity == model.SeverityInfo {
			notes = append(notes, f)
		} else {
			problems = append(problems, f)
		}
	}
	return problems, notes
}

// noteGists say in a few words, whatever the pool, what a note that
// concerns several pools is about; its message for each pool, with that
// pool's reason, is in findings.
var noteGists = map[model.Code]string{
	model.CoverageRoutesComputed:     "routes computed from configuration, not read from Azure's effective routes",
	model.CoverageIdentityNotChecked: "pull identity not checked: the workloads bring their own pull credentials",
}

// writeNotes writes the notes folded: one entry per code and fix (the same
// note seen from several pools or hosts) with every pool and host it
// concerns, so that a note repeated for 20 pools takes one line, not 20
// entries.
func writeNotes(p *page, notes []model.Finding) {
	for _, c := range foldNotes(notes) {
		f := c[0]
		text := f.Message
		if gist, ok := noteGists[f.Code]; ok && len(c) > 1 {
			text = gist
		}
		p.para("  ", "    ", fmt.Sprintf("%s — %s%s: %s", f.Code, Where(c...), afterPlan(f), text))
	}
}

// foldNotes groups notes with the same code, fix and planned change, in
// the order of first appearance. Unlike ByCause the resource does not
// count: each pool's note names its own scale set.
func foldNotes(notes []model.Finding) [][]model.Finding {
	type key struct {
		code         model.Code
		fix, planned string
	}
	index := map[key]int{}
	var out [][]model.Finding
	for _, f := range notes {
		k := key{f.Code, f.Remediation, f.PlannedChange}
		if i, ok := index[k]; ok {
			out[i] = append(out[i], f)
			continue
		}
		index[k] = len(out)
		out = append(out, []model.Finding{f})
	}
	return out
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

// Where says which node pools and hosts findings (one cause, ByCause) are
// about: "node pool system → contosoreg.azurecr.io", "node pools system,
// user → a, b" when every pool concerns every host, else one such part per
// set of pools, "; "-separated; "all node pools" for a finding without a
// pool, the pools alone for findings without a host.
func Where(fs ...model.Finding) string {
	var hosts []string
	poolsOf := map[string][]string{}
	for _, f := range fs {
		if _, ok := poolsOf[f.Endpoint]; !ok {
			hosts = append(hosts, f.Endpoint)
		}
		poolsOf[f.Endpoint] = appendNew(poolsOf[f.Endpoint], f.NodePool)
	}
	// Hosts with the same pools share one part.
	var keys []string
	hostsOf := map[string][]string{}
	for _, h := range hosts {
		k := strings.Join(poolsOf[h], "\x00")
		if _, ok := hostsOf[k]; !ok {
			keys = append(keys, k)
		}
		hostsOf[k] = appendNew(hostsOf[k], h)
	}
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		part := poolWords(strings.Split(k, "\x00"))
		var named []string
		for _, h := range hostsOf[k] {
			if h != "" {
				named = append(named, h)
			}
		}
		if len(named) > 0 {
			part += " → " + strings.Join(named, ", ")
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "; ")
}

// poolWords names pools: "node pool a", "node pools a, b", or "all node
// pools" when one of them is "" (a finding about no single pool).
func poolWords(pools []string) string {
	for _, p := range pools {
		if p == "" {
			return "all node pools"
		}
	}
	if len(pools) == 1 {
		return "node pool " + pools[0]
	}
	return "node pools " + strings.Join(pools, ", ")
}

// appendNew appends s to list unless it is there.
func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
