// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Command critpath prints the longest chain of dependent reads the verdict
// of a verification depends on (package internal/testsupport/critpath), at
// the snapshot's simulated latency, for scripts/bench.sh:
//
//	go run ./internal/testsupport/critpath/cmd -snapshot big.json -cluster ID -registry ID
//
// Output, one per line: the chain's milliseconds, the chain in words, the
// verdict. It is not part of the provider binary.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/critpath"
)

func main() {
	file := flag.String("snapshot", "", "ARM snapshot (pullpath.snapshot/v1) with a simulate block")
	clusterID := flag.String("cluster", "", "AKS cluster id")
	registryID := flag.String("registry", "", "container registry id")
	flag.Parse()
	s, err := snapshot.Load(*file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "critpath:", err)
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	chain, res, err := critpath.Measure(ctx, s, gather.VerificationRequest{
		ClusterID: model.ResourceID(*clusterID), RegistryID: model.ResourceID(*registryID)})
	if err != nil {
		fmt.Fprintln(os.Stderr, "critpath:", err)
		os.Exit(1)
	}
	fmt.Println(chain.Total.Milliseconds())
	fmt.Println(chain)
	fmt.Println(res.Verdict)
}
