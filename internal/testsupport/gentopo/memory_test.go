// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gentopo_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/gentopo"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// TestMemorySteps prints the heap and the process's peak RSS after each
// step of a verification of a generated snapshot file: loading it as the
// provider does (snapshot.LoadReplay), gathering, evaluating in rounds.
// PULLPATH_MEMSTEPS names the file, written by the generator in another
// process so that its own memory is not counted; the ExpressRoute-sized
// topology whose snapshot also records every NIC's effective route table
// (about 30 MB):
//
//	go run ./internal/testsupport/gentopo/cmd -gateway ExpressRoute -pools 27 -nic-effective-routes -o /tmp/er.json
//	PULLPATH_MEMSTEPS=/tmp/er.json go test -run TestMemorySteps -v ./internal/testsupport/gentopo/
//
// Figures only (docs/design/performance.md), no limit asserted; add
// -memprofile to see what allocates. The verdict must be reachable.
func TestMemorySteps(t *testing.T) {
	path := os.Getenv("PULLPATH_MEMSTEPS")
	if path == "" {
		t.Skip("set PULLPATH_MEMSTEPS to a generated snapshot file to print the memory of each step")
	}
	// The ids of the first cluster and the registry do not depend on the
	// sizes.
	topo, err := gentopo.Generate(gentopo.Options{Pools: 1, Subnets: 1, Spokes: 1, Replicas: 1, DNSZones: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	size := fi.Size()
	runtime.GC()

	var ms runtime.MemStats
	step := func(what string) {
		runtime.ReadMemStats(&ms)
		t.Logf("%-38s heap %5.1f MB, allocated in all %6.1f MB, process peak RSS %s", what,
			float64(ms.HeapAlloc)/1e6, float64(ms.TotalAlloc)/1e6, peakRSS())
	}
	step("before loading")
	replay, err := snapshot.LoadReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	step(fmt.Sprintf("snapshot loaded (%.1f MB file)", float64(size)/1e6))
	r := gather.New(azure.NewClients(azure.Options{
		Transport:  replay,
		Credential: func() (azcore.TokenCredential, error) { return &fake.TokenCredential{}, nil },
		Retry:      policy.RetryOptions{MaxRetries: -1},
	}))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f, err := r.VerificationFacts(ctx, gather.VerificationRequest{
		ClusterID: model.ResourceID(topo.ClusterID), RegistryID: model.ResourceID(topo.RegistryID)})
	if err != nil {
		t.Fatal(err)
	}
	step("facts gathered")
	res := verify.Run(f)
	for len(res.Needs) > 0 && r.ReadVerificationEvidence(ctx, &f, res.Needs) > 0 {
		res = verify.Run(f)
	}
	step("evaluated")
	if res.Verdict != model.Reachable {
		t.Errorf("verdict %s\n%s", res.Verdict, res.Summary)
	}
	runtime.GC()
	step("after a collection (what is retained)")
	runtime.KeepAlive(replay)
	runtime.KeepAlive(r)
}

// peakRSS is VmHWM of /proc/self/status ("n/a" elsewhere).
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "n/a"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "n/a"
}
