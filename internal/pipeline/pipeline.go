// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package pipeline runs a data source's read as rounds of evaluation and
// reading: gather reads what every path needs, verify evaluates, and while
// the evaluation reports pending evidence its paths reached (Result.Needs),
// gather reads exactly that and verify evaluates again
// (docs/design/architecture.md, "A plan, from arguments to findings").
// Evidence no path reaches is never read.
//
// It is the only package that calls both gather and verify: gather never
// imports verify, and verify does no I/O. It holds no rule and reads
// nothing itself.
package pipeline

import (
	"context"
	"errors"
	"fmt"

	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// Rounds counts the evaluations of one read: 1 when no path reached
// pending evidence.
type Rounds int

// Verification verifies the pull path of the request: the facts
// (Reader.VerificationFacts), then evaluation (verify.Run) and, while it
// needs pending evidence, that evidence (Reader.ReadVerificationEvidence)
// and evaluation again. The error is VerificationFacts' (an unusable
// request, or ctx ended), or ctx's when it ended during the rounds; the
// facts read so far come with it.
func Verification(ctx context.Context, r *gather.Reader, q gather.VerificationRequest) (verify.Result, model.Facts, Rounds, error) {
	return VerificationPrepared(ctx, r, q, nil)
}

// VerificationPrepared is Verification with prepare (when not nil) applied
// to the facts once they are read, before the first evaluation: what the
// request adds that Azure does not say (the planned changes read as they
// are now, pools whose routes the plan makes unverifiable).
func VerificationPrepared(ctx context.Context, r *gather.Reader, q gather.VerificationRequest, prepare func(*model.Facts)) (verify.Result, model.Facts, Rounds, error) {
	f, err := r.VerificationFacts(ctx, q)
	if err != nil {
		return verify.Result{}, f, 0, err
	}
	if prepare != nil {
		prepare(&f)
	}
	res := verify.Run(f)
	rounds := Rounds(1)
	for len(res.Needs) > 0 {
		if r.ReadVerificationEvidence(ctx, &f, res.Needs) == 0 {
			break // nothing pending was asked for: evaluating again would ask the same
		}
		if err := ctx.Err(); err != nil {
			return res, f, rounds, fmt.Errorf("reading the evidence the pull path reached: %w", err)
		}
		res = verify.Run(f)
		rounds++
	}
	return res, f, rounds, nil
}

// NodeRoutes evaluates pullpath_node_routes the same way: the route sets
// and their network (Reader.NodeRouteFacts), evaluation (verify.NodeRoutes)
// and, while it needs pending evidence, that evidence (Reader.ReadEvidence)
// and evaluation again. The error is NodeRouteFacts' (the requested
// resource is unusable, or the read timeout ended the reading), or ctx's
// when the read timeout ended during the rounds.
func NodeRoutes(ctx context.Context, r *gather.Reader, q gather.NodeRoutesRequest, dests []verify.Destination) (verify.NodeRoutesResult, model.NodeRouteFacts, Rounds, error) {
	f, err := r.NodeRouteFacts(ctx, q)
	if err != nil {
		return verify.NodeRoutesResult{}, f, 0, err
	}
	res := verify.NodeRoutes(f, dests)
	rounds := Rounds(1)
	for len(res.Needs) > 0 && f.Network != nil {
		if r.ReadEvidence(ctx, f.Network, res.Needs) == 0 {
			break
		}
		if err := ctx.Err(); errors.Is(err, context.DeadlineExceeded) {
			return res, f, rounds, err
		}
		res = verify.NodeRoutes(f, dests)
		rounds++
	}
	return res, f, rounds, nil
}
