// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Command gentopo writes a pullpath.snapshot/v1 ARM snapshot of a generated
// hub-and-spoke topology (package internal/testsupport/gentopo) for benchmarks:
//
//	go run ./internal/testsupport/gentopo/cmd -pools 20 -subnets 5 -spokes 3 -replicas 4 \
//	    -bgp-routes 10000 -latency-ms 50 -action-latency-ms 2000 -o big.json
//
// It prints the ids to verify on stdout, one per line: the first cluster,
// the registry, then the other clusters (-clusters).
// It is not part of the provider binary.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pullpath/terraform-provider-pullpath/internal/testsupport/gentopo"
)

func main() {
	d := gentopo.Defaults()
	o := &d
	flag.IntVar(&o.Pools, "pools", o.Pools, "node pools (the first is the System pool)")
	flag.IntVar(&o.Subnets, "subnets", o.Subnets, "node subnets, spread round-robin over the spokes")
	flag.IntVar(&o.Spokes, "spokes", o.Spokes, "spoke VNets peered with the hub")
	flag.IntVar(&o.Replicas, "replicas", o.Replicas, "registry replications (home region included)")
	flag.IntVar(&o.BGPRoutes, "bgp-routes", o.BGPRoutes, "routes the hub gateway learns over BGP")
	flag.IntVar(&o.DNSZones, "dns-zones", o.DNSZones, "private DNS zones (privatelink.azurecr.io plus unrelated ones)")
	flag.IntVar(&o.LatencyMS, "latency-ms", o.LatencyMS, "simulate.latency_ms: delay of every answer")
	flag.IntVar(&o.ActionLatencyMS, "action-latency-ms", o.ActionLatencyMS, "simulate.action_latency_ms: extra delay of every POST action")
	flag.Int64Var(&o.Seed, "seed", o.Seed, "seed of the generated GUIDs, addresses and names")
	flag.StringVar(&o.Gateway, "gateway", gentopo.GatewayVPN, "hub gateway type: Vpn or ExpressRoute")
	flag.IntVar(&o.Clusters, "clusters", 1, "AKS clusters sharing the hub, each with its own spokes, subnets and pools")
	flag.BoolVar(&o.VirtualWAN, "vwan", false, "connect the spokes to a secured Virtual WAN hub (routing intent, hub firewall) instead of a hub VNet with a gateway")
	flag.BoolVar(&o.NICEffectiveRoutes, "nic-effective-routes", false, "add the effective route table of every NIC (each with the gateway's learned prefixes), as a recording of the network holds")
	out := flag.String("o", "", "output file (default stdout)")
	flag.Parse()

	t, err := gentopo.Generate(*o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gentopo:", err)
		os.Exit(2)
	}
	if *out == "" {
		_, _ = os.Stdout.Write(t.Snapshot)
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(*out), ".gentopo-*")
	if err == nil {
		_, err = tmp.Write(t.Snapshot)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(tmp.Name(), 0o644)
		}
		if err == nil {
			err = os.Rename(tmp.Name(), *out)
		}
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gentopo:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "gentopo: wrote %s (%d resources, %d actions, %d bytes)\n", *out, t.Resources, t.Actions, len(t.Snapshot))
	fmt.Println(t.ClusterID)
	fmt.Println(t.RegistryID)
	for _, id := range t.ClusterIDs[1:] {
		fmt.Println(id)
	}
}
