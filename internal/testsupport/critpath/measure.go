// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package critpath

import (
	"context"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// Measure computes the chain of a verification of a snapshot at the
// snapshot's simulated latency: it gathers the facts without latency,
// evaluates them in rounds to learn which pending evidence the verdict
// reaches (the union of every round's needs), reads every pending
// evidence so that the facts hold what any path could reach, and returns
// Of those facts. The result is the verification's.
func Measure(ctx context.Context, s *snapshot.Snapshot, q gather.VerificationRequest) (Chain, verify.Result, error) {
	lat := Latency{}
	if sim := s.Simulate; sim != nil {
		lat = Latency{Read: time.Duration(sim.LatencyMS) * time.Millisecond, Action: time.Duration(sim.ActionLatencyMS) * time.Millisecond}
	}
	fast := *s
	fast.Simulate = nil
	f, needs, err := gatherFacts(ctx, &fast, q)
	if err != nil {
		return Chain{}, verify.Result{}, err
	}
	return Of(f, needs.needs, lat), needs.result, nil
}

// Gather returns the facts of a verification of a snapshot with every
// pending evidence read, and the pending evidence the verdict reached.
func Gather(ctx context.Context, s *snapshot.Snapshot, q gather.VerificationRequest) (model.Facts, []model.Evidence, error) {
	f, n, err := gatherFacts(ctx, s, q)
	return f, n.needs, err
}

type rounds struct {
	needs  []model.Evidence
	result verify.Result
}

func gatherFacts(ctx context.Context, s *snapshot.Snapshot, q gather.VerificationRequest) (model.Facts, rounds, error) {
	replay, err := snapshot.NewReplay(s)
	if err != nil {
		return model.Facts{}, rounds{}, err
	}
	r := gather.New(azure.NewClients(azure.Options{
		Transport:  replay,
		Credential: func() (azcore.TokenCredential, error) { return &fake.TokenCredential{}, nil },
		Retry:      policy.RetryOptions{MaxRetries: -1},
	}))
	f, err := r.VerificationFacts(ctx, q)
	if err != nil {
		return f, rounds{}, err
	}
	var out rounds
	res := verify.Run(f)
	for len(res.Needs) > 0 {
		for _, ev := range res.Needs {
			out.needs = model.AddNeed(out.needs, ev)
		}
		if r.ReadVerificationEvidence(ctx, &f, res.Needs) == 0 {
			break
		}
		res = verify.Run(f)
	}
	out.result = res
	r.ReadAllEvidence(ctx, &f)
	return f, out, ctx.Err()
}
