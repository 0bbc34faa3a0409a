// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package whatif runs a verification against the network a saved plan will
// build (planned_changes_file) and names, on each finding the plan causes,
// the planned change that causes it. It sits above gather and verify: it
// reads the facts through the session's overlay, masked per request, and
// compares verifications; it holds no rule of its own. See
// docs/design/what-if.md.
package whatif

import (
	"context"
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure/overlay"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/pipeline"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// Check reads the facts of one verification with ctx, lets prepare (when
// not nil) add what the request knows beyond Azure's answers, and
// verifies them, reading pending evidence in rounds as the verdict needs
// it. Each call must use a fresh reader (its memo belongs to one view of
// the network), sharing the session (whose cache makes a second view
// cheap).
type Check func(ctx context.Context, prepare func(*model.Facts)) (verify.Result, model.Facts, error)

// ReaderCheck is Check for a verification request: pipeline.Verification
// with a new reader per call.
func ReaderCheck(newReader func() *gather.Reader, q gather.VerificationRequest) Check {
	return func(ctx context.Context, prepare func(*model.Facts)) (verify.Result, model.Facts, error) {
		res, f, _, err := pipeline.VerificationPrepared(ctx, newReader(), q, prepare)
		return res, f, err
	}
}

// Verify runs the verification. Without a plan (plan nil) it is
// verify.Run of the facts. With one:
//
//  1. the facts are read as after the plan, noting which planned changes
//     the reads met, and verified; changes the plan makes that are read as
//     they are now are reported (COVERAGE_PLANNED_CHANGE_UNSUPPORTED);
//  2. the facts are read again as they are now (overlay masked off) and
//     verified: a finding present only with the plan is caused by it;
//  3. with several changes met, each is left out in turn: a caused finding
//     that disappears without change A is caused by A. A finding that no
//     single change removes needs several together and names every change
//     the reads met.
//
// The names go into Finding.PlannedChange (", "-joined, sorted) and the
// summary is rendered again. The facts returned are those of the result
// (read as after the plan). An error (the read timeout) ends it with the
// first verification's error.
func Verify(ctx context.Context, plan *overlay.Overlay, check Check) (verify.Result, model.Facts, error) {
	if plan == nil {
		return check(ctx, nil)
	}
	tracked, served := overlay.TrackPlannedChanges(ctx)
	planned := NotApplied(plan)
	res, f, err := check(tracked, func(f *model.Facts) { f.PlanNotApplied = planned })
	if err != nil {
		return verify.Result{}, f, err
	}
	changes := served()
	if len(changes) == 0 {
		if n := len(plan.Addresses()); n > 0 {
			// The plan changes Azure and this verification met none of it.
			f.PlanOffPath = &model.PlanOffPath{
				Changes:           n,
				PlanSubscriptions: plan.Plan().Subscriptions(),
				ReadSubscriptions: overlay.TrackedSubscriptions(tracked),
			}
			res = verify.Run(f)
		}
		return res, f, nil
	}
	var open []int // findings to blame
	for i, fd := range res.Findings {
		if fd.PlannedChange == "" && fd.Code != model.CoveragePlannedUnsupported {
			open = append(open, i)
		}
	}
	if len(open) == 0 {
		return res, f, nil
	}

	before, drift, err := present(overlay.WithoutPlan(ctx), check)
	if err != nil {
		return verify.Result{}, f, err
	}
	if len(drift) > 0 {
		// Pools whose computed routes missed what Azure programmed before
		// the plan cannot be trusted with computed routes after it. The
		// facts are read again (from the session's cache) and verified
		// with that; changes met are the same reads as before.
		res, f, err = check(tracked, func(f *model.Facts) {
			f.PlanNotApplied = planned
			f.PlanDrift = drift
		})
		if err != nil {
			return verify.Result{}, f, err
		}
		open = open[:0]
		for i, fd := range res.Findings {
			if fd.PlannedChange == "" && fd.Code != model.CoveragePlannedUnsupported {
				open = append(open, i)
			}
		}
	}
	var caused []int
	for _, i := range open {
		if !before[key(res.Findings[i])] {
			caused = append(caused, i)
		}
	}
	if len(caused) == 0 {
		return res, f, nil
	}
	blame := map[int][]string{}
	if len(changes) == 1 {
		for _, i := range caused {
			blame[i] = changes
		}
	} else {
		for _, c := range changes {
			without, _, err := present(overlay.WithoutPlannedChanges(ctx, c), check)
			if err != nil {
				return verify.Result{}, f, err
			}
			for _, i := range caused {
				if !without[key(res.Findings[i])] {
					blame[i] = append(blame[i], c)
				}
			}
		}
		for _, i := range caused {
			if len(blame[i]) == 0 {
				blame[i] = changes
			}
		}
	}
	for i, cs := range blame {
		sort.Strings(cs)
		res.Findings[i].PlannedChange = strings.Join(cs, ", ")
	}
	res.Summary = verify.Summarize(f, res)
	return res, f, nil
}

// present verifies the facts read with ctx and returns the keys of the
// findings, and the pools whose computed routes the effective routes
// contradicted (COVERAGE_MODEL_DRIFT) or whose effective routes could not
// be read.
func present(ctx context.Context, check Check) (map[string]bool, map[string]model.PlanDrift, error) {
	res, f, err := check(ctx, nil)
	if err != nil {
		return nil, nil, err
	}
	out := map[string]bool{}
	drift := map[string]model.PlanDrift{}
	for _, fd := range res.Findings {
		out[key(fd)] = true
		if fd.Code == model.CoverageModelDrift && fd.NodePool != "" {
			if _, seen := drift[fd.NodePool]; !seen {
				drift[fd.NodePool] = model.PlanDrift{Why: fd.Message}
			}
		}
	}
	for _, p := range f.Pools {
		if _, seen := drift[p.Name]; seen {
			continue
		}
		for _, nic := range p.NICIDs {
			if gap, ok := effectiveGap(f, nic); ok {
				drift[p.Name] = model.PlanDrift{Gap: &gap}
				break
			}
		}
	}
	if len(drift) == 0 {
		drift = nil
	}
	return out, drift, nil
}

// effectiveGap is the failed read of a NIC's effective route table.
func effectiveGap(f model.Facts, nic model.ResourceID) (model.Gap, bool) {
	id := model.ResourceID(string(nic) + "/effectiveRouteTable")
	if g, ok := f.Gaps.Lookup(id); ok {
		return g, true
	}
	if f.Network != nil {
		if g, ok := f.Network.Gaps.Lookup(id); ok {
			return g, true
		}
	}
	return model.Gap{}, false
}

// key identifies a finding across verifications of the same request: its
// code, node pool, hostname and resource (verify keeps one finding per
// key).
func key(f model.Finding) string {
	return string(f.Code) + "\x00" + f.NodePool + "\x00" + f.Endpoint + "\x00" + f.ResourceID.Key()
}

// NotApplied are the changes of the plan read as they are now (resource
// types not translated, changes that cannot be translated), by address;
// nil without a plan.
func NotApplied(o *overlay.Overlay) []model.PlannedProblem {
	p := o.Plan()
	if p == nil {
		return nil
	}
	var out []model.PlannedProblem
	for _, a := range p.Unsupported {
		out = append(out, model.PlannedProblem{Address: a, Reason: "resource type not translated"})
	}
	for _, pr := range p.Untranslatable {
		out = append(out, model.PlannedProblem{Address: pr.Address, Reason: pr.Reason})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Address < out[j].Address })
	return out
}
