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
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
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
// A read that fails only in a compared verification (2 or 3) leaves it
// incomplete on the pools its evidence findings concern: those findings
// are reported in the result (verify.WithBlameGaps, EVIDENCE_*, so the
// verdict is at least unverified) and the result's findings on those
// pools are blamed on no change, since whether the plan causes them is not
// concluded. A resource the plan creates being absent where its change is
// left out is no failed read.
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
	notApplied := NotApplied(plan)
	res, f, err := check(tracked, func(f *model.Facts) { f.PlanNotApplied = notApplied })
	if err != nil {
		return verify.Result{}, f, err
	}
	changes := served()
	if len(changes) == 0 {
		if mode := plan.Plan().Mode; mode != planned.ModeChanges {
			// The file changes nothing: the wrong plan, or one without
			// changes; the summary says so.
			f.PlanOffPath = &model.PlanOffPath{NoChanges: string(mode)}
			res = verify.Run(f)
		} else if n := len(plan.Addresses()); n > 0 {
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
			f.PlanNotApplied = notApplied
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
	// Reads that failed only in a compared verification: what it says
	// about their node pools is incomplete.
	gaps := blameGaps{result: keys(res.Findings), created: createdBy(plan), nicSubnets: nicSubnets(plan), seen: map[string]bool{}}
	gaps.add(before, "")
	var caused []int
	for _, i := range open {
		if !before.has(res.Findings[i]) {
			caused = append(caused, i)
		}
	}
	blame := map[int][]string{}
	if len(caused) > 0 && len(changes) == 1 {
		for _, i := range caused {
			blame[i] = changes
		}
	} else if len(caused) > 0 {
		for _, c := range changes {
			without, _, err := present(overlay.WithoutPlannedChanges(ctx, c), check)
			if err != nil {
				return verify.Result{}, f, err
			}
			gaps.add(without, c)
			for _, i := range caused {
				if !without.has(res.Findings[i]) {
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
		if gaps.incomplete(res.Findings[i].NodePool) {
			continue // not concluded: the comparison lacks evidence on its pool
		}
		sort.Strings(cs)
		res.Findings[i].PlannedChange = strings.Join(cs, ", ")
	}
	if len(gaps.list) > 0 {
		return verify.WithBlameGaps(f, res, gaps.list), f, nil
	}
	if len(blame) > 0 {
		res.Summary = verify.Summarize(f, res)
	}
	return res, f, nil
}

// compared is a verification the result is compared with: the keys of its
// findings and its evidence findings.
type compared struct {
	keys     map[string]bool
	evidence []model.Finding
}

// has reports whether the compared verification has the finding.
func (c compared) has(fd model.Finding) bool { return c.keys[key(fd)] }

// blameGaps collects the evidence findings of compared verifications that
// the result does not have: reads only a compared verification made, which
// failed. Each leaves what that verification says about its node pool
// (every pool when it names none) incomplete, so the blame of the
// result's findings on that pool is not concluded (docs/design/what-if.md,
// "Blame"), and each is reported in the result (verify.WithBlameGaps).
//
// A resource the plan creates being absent where its change is left out
// is what leaving it out means, not a failed read: it is no gap.
type blameGaps struct {
	result  map[string]bool // keys of the result's findings
	created map[string]bool // keys of the resources the plan creates
	// nicSubnets are, by change address, the keys of the subnets in which
	// the change puts a NIC: without that change, "no NIC holds the
	// address" in such a subnet is the change left out, not a failed read.
	nicSubnets map[string]map[string]bool
	seen       map[string]bool
	list       []verify.BlameGap
	pools      map[string]bool // node pools left incomplete; "" for all
}

func (g *blameGaps) add(c compared, without string) {
	for _, fd := range c.evidence {
		k := key(fd)
		if g.result[k] || g.seen[k] || (fd.Code == model.EvidenceNotFound && (g.created[fd.ResourceID.Key()] || g.nicLeftOut(without, fd.ResourceID))) {
			continue
		}
		g.seen[k] = true
		g.list = append(g.list, verify.BlameGap{Finding: fd, Without: without})
		if g.pools == nil {
			g.pools = map[string]bool{}
		}
		g.pools[fd.NodePool] = true
	}
}

// incomplete reports whether a compared verification lacks evidence on
// the node pool ("": a finding of no pool, which every pool's evidence
// concerns).
func (g *blameGaps) incomplete(pool string) bool {
	return g.pools[""] || g.pools[pool] || (pool == "" && len(g.pools) > 0)
}

// nicLeftOut reports whether a verification without the change at address
// without ("": without the whole plan) lacks a NIC the plan puts in subnet
// id.
func (g *blameGaps) nicLeftOut(without string, id model.ResourceID) bool {
	for addr, subnets := range g.nicSubnets {
		if (without == "" || addr == without) && subnets[id.Key()] {
			return true
		}
	}
	return false
}

// nicSubnets are, by change address, the keys of the subnets the NICs the
// change puts have an ip configuration in.
func nicSubnets(o *overlay.Overlay) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	p := o.Plan()
	if p == nil {
		return out
	}
	for _, op := range p.Ops {
		if op.Kind != planned.OpPut || !strings.Contains(strings.ToLower(op.ID), "/providers/microsoft.network/networkinterfaces/") {
			continue
		}
		props, _ := op.Body["properties"].(map[string]any)
		cfgs, _ := props["ipConfigurations"].([]any)
		for _, c := range cfgs {
			cm, _ := c.(map[string]any)
			cp, _ := cm["properties"].(map[string]any)
			sn, _ := cp["subnet"].(map[string]any)
			if id, _ := sn["id"].(string); id != "" {
				if out[op.Address] == nil {
					out[op.Address] = map[string]bool{}
				}
				out[op.Address][model.ResourceID(id).Key()] = true
			}
		}
	}
	return out
}

// createdBy are the keys of the resources the plan puts.
func createdBy(o *overlay.Overlay) map[string]bool {
	out := map[string]bool{}
	if p := o.Plan(); p != nil {
		for _, op := range p.Ops {
			if op.Kind == planned.OpPut {
				out[model.ResourceID(op.ID).Key()] = true
			}
		}
	}
	return out
}

// keys are the keys of the findings.
func keys(fds []model.Finding) map[string]bool {
	out := make(map[string]bool, len(fds))
	for _, fd := range fds {
		out[key(fd)] = true
	}
	return out
}

// present verifies the facts read with ctx and returns its findings (their
// keys and its evidence findings), and the pools whose computed routes the
// effective routes contradicted (COVERAGE_MODEL_DRIFT) or whose effective
// routes could not be read.
func present(ctx context.Context, check Check) (compared, map[string]model.PlanDrift, error) {
	res, f, err := check(ctx, nil)
	if err != nil {
		return compared{}, nil, err
	}
	out := compared{keys: keys(res.Findings)}
	drift := map[string]model.PlanDrift{}
	for _, fd := range res.Findings {
		if fd.Condition == model.ConditionEvidence {
			out.evidence = append(out.evidence, fd)
		}
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
