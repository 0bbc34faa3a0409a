// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/pullpath/terraform-provider-pullpath/internal/diagram"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/provider/validators"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// findingModel is one element of `findings`.
type findingModel struct {
	Code        string `tfsdk:"code"`
	Severity    string `tfsdk:"severity"`
	Condition   string `tfsdk:"condition"`
	Owner       string `tfsdk:"owner"`
	NodePool    string `tfsdk:"node_pool"`
	Endpoint    string `tfsdk:"endpoint"`
	ResourceID  string `tfsdk:"resource_id"`
	Message     string `tfsdk:"message"`
	Remediation string `tfsdk:"remediation"`
	// PlannedChange is null unless a planned change causes the finding.
	PlannedChange types.String `tfsdk:"planned_change"`
	// Accepted is null unless an accept block accepted the finding.
	Accepted types.Object `tfsdk:"accepted"`
}

// pathModel is one element of `paths`.
type pathModel struct {
	NodePool    string   `tfsdk:"node_pool"`
	Host        string   `tfsdk:"host"`
	Address     string   `tfsdk:"address"`
	Resolver    string   `tfsdk:"resolver"`
	RouteSource string   `tfsdk:"route_source"`
	Hops        []string `tfsdk:"hops"`
	Verdict     string   `tfsdk:"verdict"`
}

// statsModel is `stats`.
type statsModel struct {
	ARMRequests int64 `tfsdk:"arm_requests"`
	DurationMS  int64 `tfsdk:"duration_ms"`
}

var (
	findingAttrTypes = map[string]attr.Type{
		"code": types.StringType, "severity": types.StringType, "condition": types.StringType, "owner": types.StringType,
		"node_pool": types.StringType, "endpoint": types.StringType, "resource_id": types.StringType,
		"message": types.StringType, "remediation": types.StringType, "planned_change": types.StringType,
		"accepted": types.ObjectType{AttrTypes: acceptedAttrTypes},
	}
	pathAttrTypes = map[string]attr.Type{
		"node_pool": types.StringType, "host": types.StringType, "address": types.StringType, "resolver": types.StringType,
		"route_source": types.StringType, "hops": types.ListType{ElemType: types.StringType}, "verdict": types.StringType,
	}
	statsAttrTypes = map[string]attr.Type{"arm_requests": types.Int64Type, "duration_ms": types.Int64Type}
)

// verificationResultState is the computed part of the state.
type verificationResultState struct {
	Verdict   types.String
	Reachable types.Bool
	Findings  types.List
	Paths     types.List
	Summary   types.String
	Diagram   types.String
	Stats     types.Object
}

// findingsToModel converts findings, keeping their order; empty fields stay
// empty strings (docs/design/findings.md: endpoint "may be empty").
func findingsToModel(fs []model.Finding) []findingModel {
	out := make([]findingModel, 0, len(fs))
	for _, f := range fs {
		out = append(out, findingModel{
			Code: string(f.Code), Severity: string(f.Severity), Condition: string(f.Condition), Owner: string(f.Owner),
			NodePool: f.NodePool, Endpoint: f.Endpoint, ResourceID: string(f.ResourceID),
			Message: f.Message, Remediation: f.Remediation, PlannedChange: plannedChange(f), Accepted: acceptedValue(f),
		})
	}
	return out
}

// plannedChange is the finding's planned_change: null unless a planned
// change causes it.
func plannedChange(f model.Finding) types.String {
	if f.PlannedChange == "" {
		return types.StringNull()
	}
	return types.StringValue(f.PlannedChange)
}

// pathsToModel converts paths, keeping their order; hops is an empty list,
// never null, when the path stopped before routing.
func pathsToModel(ps []verify.Path) []pathModel {
	out := make([]pathModel, 0, len(ps))
	for _, p := range ps {
		hops := append([]string{}, p.Hops...)
		out = append(out, pathModel{
			NodePool: p.NodePool, Host: p.Host, Address: p.Address, Resolver: p.Resolver,
			RouteSource: string(p.RouteSource), Hops: hops, Verdict: string(p.Verdict),
		})
	}
	return out
}

// verificationState builds the computed attributes from a result.
func verificationState(ctx context.Context, res verify.Result, requests int64, took time.Duration) (verificationResultState, diag.Diagnostics) {
	var diags diag.Diagnostics
	var s verificationResultState
	s.Verdict = types.StringValue(string(res.Verdict))
	s.Reachable = types.BoolValue(res.Verdict == model.Reachable)
	s.Summary = types.StringValue(res.Summary)
	s.Diagram = types.StringValue(diagram.Flowchart(res.Paths, res.Findings))
	var d diag.Diagnostics
	s.Findings, d = types.ListValueFrom(ctx, types.ObjectType{AttrTypes: findingAttrTypes}, findingsToModel(res.Findings))
	diags.Append(d...)
	s.Paths, d = types.ListValueFrom(ctx, types.ObjectType{AttrTypes: pathAttrTypes}, pathsToModel(res.Paths))
	diags.Append(d...)
	s.Stats, d = types.ObjectValueFrom(ctx, statsAttrTypes, statsModel{ARMRequests: requests, DurationMS: took.Milliseconds()})
	diags.Append(d...)
	return s, diags
}

// verificationRequest turns the (known) configuration into the gather
// request. Every value is known here: Terraform reads a data source only
// once its configuration is.
func verificationRequest(ctx context.Context, m verificationModel) (gather.VerificationRequest, diag.Diagnostics) {
	var diags diag.Diagnostics
	var q gather.VerificationRequest
	q.ClusterID = model.ResourceID(m.ClusterID.ValueString())
	subnets, _ := knownStrings(ctx, m.NodeSubnetIDs)
	for _, s := range subnets {
		q.NodeSubnetIDs = append(q.NodeSubnetIDs, model.ResourceID(s))
	}
	q.NodePools, _ = knownStrings(ctx, m.NodePools)
	q.ZoneSubscriptionIDs = zoneSubscriptionIDs(ctx, m)
	q.RegistryID = model.ResourceID(m.RegistryID.ValueString())
	q.PullCredentials = model.PullCredentials(m.PullCredentials.ValueString()).OrDefault()

	block, _ := registryBlock(ctx, m.Registry, &diags)
	if block != nil {
		hosts, _ := knownStrings(ctx, block.Hosts)
		addrs, _ := knownStringMap(ctx, block.Addresses)
		decl := &model.DeclaredRegistry{Hosts: hosts, Addresses: map[string]netip.Addr{}}
		for h, a := range addrs {
			ip, err := netip.ParseAddr(a)
			if err != nil {
				diags.AddAttributeError(path.Root("registry").AtName("addresses").AtMapKey(h), "Invalid IP address", validators.CheckIPAddress(a))
				continue
			}
			decl.Addresses[model.NormalizeHost(h)] = ip
		}
		for _, msg := range validators.AddressKeysNotInHosts(hosts, addrs) {
			diags.AddAttributeError(path.Root("registry").AtName("addresses"), "Address for a host not in hosts", msg)
		}
		q.Declared = decl
	}
	if err := q.Validate(); err != nil && !diags.HasError() {
		diags.AddError("Incomplete verification arguments", fmt.Sprintf("%v. Set exactly one of cluster_id and node_subnet_ids, "+
			"and exactly one of registry_id and a registry block with hosts.", err))
	}
	return q, diags
}

// registryBlock returns the `registry` block: nil when absent; known false
// when it (or part of it) is not known yet.
func registryBlock(ctx context.Context, obj types.Object, diags *diag.Diagnostics) (block *registryBlockModel, known bool) {
	if obj.IsUnknown() {
		return nil, false
	}
	if obj.IsNull() {
		return nil, true
	}
	var b registryBlockModel
	diags.Append(obj.As(ctx, &b, basetypes.ObjectAsOptions{})...)
	return &b, true
}

// knownStrings returns the elements of a list or set of strings; known is
// false when the collection or an element is unknown (the known ones are
// returned).
func knownStrings(ctx context.Context, v interface {
	IsNull() bool
	IsUnknown() bool
	Elements() []attr.Value
}) (out []string, known bool) {
	if v.IsNull() {
		return nil, true
	}
	if v.IsUnknown() {
		return nil, false
	}
	known = true
	for _, e := range v.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsUnknown() {
			known = false
			continue
		}
		if !s.IsNull() {
			out = append(out, s.ValueString())
		}
	}
	return out, known
}

// knownStringMap is knownStrings for a map of strings.
func knownStringMap(_ context.Context, v types.Map) (map[string]string, bool) {
	if v.IsNull() {
		return nil, true
	}
	if v.IsUnknown() {
		return nil, false
	}
	out := map[string]string{}
	known := true
	for k, e := range v.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsUnknown() {
			known = false
			continue
		}
		if !s.IsNull() {
			out[k] = s.ValueString()
		}
	}
	return out, known
}

// enforcementDiagnostics applies enforce and fail_on_unverified to a
// result. A failing verdict is ONE error whose short text
// (verify.FailureReport) gives the causes that decide it, by owner, each
// with its pools and hosts and the fix, names the other warnings and
// points to the summary for the rest; it lists the accepted findings too.
// Otherwise, with enforce, each warning cause (a code, a resource and a
// fix, seen from one or more pools and hosts) is one warning diagnostic
// (verify.WarningReport), and the accepted findings one more
// (verify.AcceptedReport), so an accepted error never passes silently.
// With enforce = false nothing is reported: the attributes are the report.
func enforcementDiagnostics(res verify.Result, enforce, failOnUnverified bool) diag.Diagnostics {
	var diags diag.Diagnostics
	if !enforce {
		return diags
	}
	switch {
	case res.Verdict == model.Unreachable:
		diags.AddError(fmt.Sprintf("Registry pull path broken: %s", failureCounts(res.Findings)), verify.FailureReport(res))
		return diags
	case res.Verdict == model.Unverified && failOnUnverified:
		diags.AddError(fmt.Sprintf("Registry pull path unverified (fail_on_unverified): %s", failureCounts(res.Findings)), verify.FailureReport(res))
		return diags
	}
	for _, group := range warningCauses(res.Findings) {
		diags.AddWarning(fmt.Sprintf("Registry pull path: %s", group[0].Code), verify.WarningReport(group))
	}
	// Accepted findings do not fail the plan, but are never silent.
	if accepted := verify.AcceptedReport(res.Findings); accepted != "" {
		diags.AddWarning(fmt.Sprintf("Registry pull path: %s", acceptedCount(res.Findings)), accepted)
	}
	return diags
}

// acceptedCount is "1 accepted finding" or "3 accepted findings".
func acceptedCount(fs []model.Finding) string {
	n := 0
	for _, f := range fs {
		if f.Accepted != nil {
			n++
		}
	}
	if n == 1 {
		return "1 accepted finding"
	}
	return fmt.Sprintf("%d accepted findings", n)
}

// failureCounts is "2 errors, 1 warning" for a failure summary line.
func failureCounts(fs []model.Finding) string {
	var errs, warns int
	for _, f := range fs {
		switch f.Severity {
		case model.SeverityError:
			errs++
		case model.SeverityWarning:
			warns++
		}
	}
	word := func(n int, w string) string {
		if n == 1 {
			return "1 " + w
		}
		return fmt.Sprintf("%d %ss", n, w)
	}
	return word(errs, "error") + ", " + word(warns, "warning")
}

// warningCauses groups the warnings by cause (verify.ByCause), in the
// findings' order.
func warningCauses(fs []model.Finding) [][]model.Finding {
	var warnings []model.Finding
	for _, f := range fs {
		if f.Severity == model.SeverityWarning {
			warnings = append(warnings, f)
		}
	}
	return verify.ByCause(warnings)
}
