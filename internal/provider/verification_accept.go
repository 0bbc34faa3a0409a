// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/provider/validators"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// acceptBlockModel is one `accept` block of pullpath_verification.
type acceptBlockModel struct {
	Code       types.String `tfsdk:"code"`
	Reason     types.String `tfsdk:"reason"`
	Expires    types.String `tfsdk:"expires"`
	ResourceID types.String `tfsdk:"resource_id"`
	NodePool   types.String `tfsdk:"node_pool"`
	Endpoint   types.String `tfsdk:"endpoint"`
}

var (
	acceptBlockAttrTypes = map[string]attr.Type{
		"code": types.StringType, "reason": types.StringType, "expires": types.StringType,
		"resource_id": types.StringType, "node_pool": types.StringType, "endpoint": types.StringType,
	}
	acceptedAttrTypes = map[string]attr.Type{"reason": types.StringType, "expires": types.StringType}
)

// acceptedValue is the `accepted` object of a finding.
func acceptedValue(f model.Finding) types.Object {
	if f.Accepted == nil {
		return types.ObjectNull(acceptedAttrTypes)
	}
	return types.ObjectValueMust(acceptedAttrTypes, map[string]attr.Value{
		"reason": types.StringValue(f.Accepted.Reason), "expires": types.StringValue(string(f.Accepted.Expires)),
	})
}

// clock is the day a verification judges accept blocks on: the UTC day of
// now (time.Now when nil).
type clock func() time.Time

func (c clock) today() model.Date {
	if c == nil {
		return model.DateOf(time.Now())
	}
	return model.DateOf(c())
}

// acceptDescription documents the `accept` block, with the exact rules of
// matching and expiry (verify/accept.go holds them).
const acceptDescription = "A finding the owners have decided to live with, with the reason and a date to look at it " +
	"again: for example `EGRESS_UNVERIFIED` of a hub whose third-party appliance Azure cannot describe, so that " +
	"`fail_on_unverified = true` can be on. Any number of blocks. A block matches the findings of its `code` whose " +
	"`resource_id`, `node_pool` and `endpoint` equal the ones the block gives (compared case-insensitively; all given " +
	"must match, an omitted one matches anything). The first block in order that is in force and matches a finding " +
	"accepts it: the finding keeps its code, gets `accepted` (`reason`, `expires`) and severity `info`, and no longer " +
	"decides the verdict nor fails the plan; a path whose only problems were accepted has verdict `reachable` " +
	"(accepted, not proven: its findings stay in `findings`, and the summary lists them).\n\n" +
	"A block is in force through its `expires` day (UTC) and expired from the next day on: it then accepts nothing, the " +
	"findings it matched decide the verdict again, and a `COVERAGE_ACCEPTANCE_EXPIRED` warning names it (the warning " +
	"itself does not make the verdict `unverified`). A date already past is not a validation error, so that a block " +
	"that expires does not break `validate` the next day: the plan reports it. A block in force that accepts no " +
	"finding is reported as `COVERAGE_ACCEPTANCE_UNUSED` (info): delete it.\n\n" +
	"An `EVIDENCE_*` finding about a resource this verification names (the cluster, a node subnet, the registry, or " +
	"one of their child resources such as a node pool or the replicas) cannot be accepted: a check that cannot read " +
	"what it was asked about proves nothing. A block whose `resource_id` names such a resource is a validation error; " +
	"a block without `resource_id` leaves such a finding as it is, and the finding says why."

// acceptBlock is the schema of the `accept` blocks; today is the day
// expires is judged on.
func acceptBlock(today func() model.Date) schema.ListNestedBlock {
	return schema.ListNestedBlock{
		MarkdownDescription: acceptDescription,
		NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
			"code": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The finding code to accept, exactly as in the catalogue (`EGRESS_UNVERIFIED`). " +
					"The `COVERAGE_ACCEPTANCE_*` codes cannot be accepted.",
				Validators: []validator.String{validators.StringCheck("Unknown finding code", "a finding code of the catalogue", validators.CheckFindingCode)},
			},
			"reason": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Why the owners live with the finding (who decided, a ticket): shown with every finding it accepts.",
				Validators: []validator.String{validators.NotBlank("Missing reason for an accept block",
					"say why the owners accept the finding (who decided, a ticket number); it is shown with every finding the block accepts.")},
			},
			"expires": schema.StringAttribute{
				Required: true,
				MarkdownDescription: fmt.Sprintf("The last day (UTC) the block accepts anything, written `YYYY-MM-DD`, at most %d "+
					"days after the day of the plan.", model.MaxAcceptanceDays),
				Validators: []validator.String{validators.StringCheck("Invalid expiry date of an accept block",
					"a date YYYY-MM-DD at most a year ahead", validators.CheckAcceptExpires(today))},
			},
			"resource_id": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Accept only the findings whose `resource_id` is this id (case-insensitively).",
				Validators:          []validator.String{validators.NotBlank("Empty resource_id in an accept block", "give a resource id, or leave resource_id out to match any resource.")},
			},
			"node_pool": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Accept only the findings of this node pool (case-insensitively).",
				Validators: []validator.String{stringvalidator.RegexMatches(validators.PoolNamePattern,
					"must be a node pool name as findings[*].node_pool gives it (lower-case letters and digits, starting with a letter); leave node_pool out to match every pool")},
			},
			"endpoint": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Accept only the findings about this hostname (or DNS server address), case-insensitively.",
				Validators:          []validator.String{validators.NotBlank("Empty endpoint in an accept block", "give a hostname, or leave endpoint out to match any host.")},
			},
		}},
	}
}

// acceptances reads the accept blocks. Blocks with unknown values are left
// out and known is false (ValidateConfig checks them once known, at read).
// Errors are attached to the block's attribute: with recheck (at read,
// where values unknown at validation are known), what the attribute
// validators refuse (code, reason, expires); always, a block that cannot
// accept anything (verify.Unacceptable): an evidence code whose
// resource_id names a resource the verification is asked about (named), or
// a COVERAGE_ACCEPTANCE_* code.
func acceptances(ctx context.Context, list types.List, today model.Date, named []model.ResourceID, recheck bool) (out []model.Acceptance, known bool, diags diag.Diagnostics) {
	if list.IsNull() {
		return nil, true, nil
	}
	if list.IsUnknown() {
		return nil, false, nil
	}
	var blocks []acceptBlockModel
	diags.Append(list.ElementsAs(ctx, &blocks, false)...)
	if diags.HasError() {
		return nil, false, diags
	}
	known = true
	for i, b := range blocks {
		at := path.Root("accept").AtListIndex(i)
		if b.Code.IsUnknown() || b.Reason.IsUnknown() || b.Expires.IsUnknown() || b.ResourceID.IsUnknown() ||
			b.NodePool.IsUnknown() || b.Endpoint.IsUnknown() {
			known = false
			continue
		}
		a := model.Acceptance{
			Code: model.Code(b.Code.ValueString()), Reason: strings.TrimSpace(b.Reason.ValueString()),
			ResourceID: model.ResourceID(b.ResourceID.ValueString()), NodePool: b.NodePool.ValueString(), Endpoint: b.Endpoint.ValueString(),
		}
		ok := true
		report := func(attr, summary, msg string) {
			ok = false
			if recheck {
				diags.AddAttributeError(at.AtName(attr), summary, at.AtName(attr).String()+" "+msg+".")
			}
		}
		if msg := validators.CheckFindingCode(string(a.Code)); msg != "" {
			report("code", "Unknown finding code", msg)
		}
		if a.Reason == "" {
			report("reason", "Missing reason for an accept block", "is empty: say why the owners accept the finding (who decided, a ticket number)")
		}
		if msg := validators.CheckAcceptExpires(func() model.Date { return today })(b.Expires.ValueString()); msg != "" {
			report("expires", "Invalid expiry date of an accept block", msg)
		} else {
			a.Expires = model.Date(b.Expires.ValueString())
		}
		if ok {
			if why := verify.Unacceptable(a.Code, a.ResourceID, named); why != "" {
				attr := at.AtName("code")
				if !a.ResourceID.IsZero() && model.Catalogue[a.Code].Condition == model.ConditionEvidence {
					attr = at.AtName("resource_id")
				}
				diags.AddAttributeError(attr, "Finding that cannot be accepted",
					fmt.Sprintf("The block %s cannot accept anything: %s.", a.Label(), why))
				ok = false
			}
		}
		if ok {
			out = append(out, a)
		}
	}
	return out, known, diags
}

// namedResources are the resources the configuration asks the
// verification about: the cluster or the node subnets, and the registry.
// Unknown values are left out.
func namedResources(ctx context.Context, m verificationModel) []model.ResourceID {
	var out []model.ResourceID
	for _, s := range []types.String{m.ClusterID, m.RegistryID} {
		if !s.IsNull() && !s.IsUnknown() && s.ValueString() != "" {
			out = append(out, model.ResourceID(s.ValueString()))
		}
	}
	subnets, _ := knownStrings(ctx, m.NodeSubnetIDs)
	for _, s := range subnets {
		out = append(out, model.ResourceID(s))
	}
	return out
}

// acceptPoolDiagnostics are the errors of accept blocks whose node_pool
// names no node pool of the verification (pools: the pools it checked),
// each on the block's node_pool: such a block could never match, and a
// misspelt pool name must not pass as an acceptance that merely found
// nothing to accept.
func acceptPoolDiagnostics(ctx context.Context, list types.List, pools []string) diag.Diagnostics {
	var diags diag.Diagnostics
	if list.IsNull() || list.IsUnknown() || len(pools) == 0 {
		return diags
	}
	var blocks []acceptBlockModel
	if d := list.ElementsAs(ctx, &blocks, false); d.HasError() {
		return d
	}
	for i, b := range blocks {
		name := b.NodePool.ValueString()
		if b.NodePool.IsNull() || b.NodePool.IsUnknown() || name == "" {
			continue
		}
		if slices.ContainsFunc(pools, func(p string) bool { return strings.EqualFold(p, name) }) {
			continue
		}
		at := path.Root("accept").AtListIndex(i).AtName("node_pool")
		diags.AddAttributeError(at, "Accept block names no node pool of the verification",
			fmt.Sprintf("%s is %q, but the verification checked no node pool of that name, so the block could never "+
				"accept anything. The node pools checked are: %s. Correct the name, or remove node_pool to accept "+
				"the finding in every pool.", at, name, strings.Join(pools, ", ")))
	}
	return diags
}
