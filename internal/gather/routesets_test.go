// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"context"
	"encoding/json"
	"errors"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// editResources applies edit to every resource of a snapshot (as JSON).
func editResources(m map[string]any, edit func(id model.ResourceID, obj map[string]any)) {
	for _, x := range m["resources"].([]any) {
		obj := x.(map[string]any)
		edit(model.ResourceID(obj["id"].(string)), obj)
	}
}

// editPool edits the properties of an agent pool of aks1.
func editPool(m map[string]any, name string, edit func(p map[string]any)) {
	editResources(m, func(id model.ResourceID, obj map[string]any) {
		if id.Equal(aks1 + "/agentPools/" + model.ResourceID(name)) {
			edit(obj["properties"].(map[string]any))
		}
	})
}

// addFault makes the snapshot answer a request with an ARM error.
func addFault(m map[string]any, method string, id model.ResourceID, status int) {
	m["faults"].(map[string]any)[method+" "+string(id)] = map[string]any{"status": status, "code": "Fault"}
}

// addResource adds an ARM body to a snapshot.
func addResource(t *testing.T, m map[string]any, body string) {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	m["resources"] = append(m["resources"].([]any), v)
}

// addVMPoolNode turns pool user into a VirtualMachines pool with one VM
// whose NIC (returned) is at 10.1.0.9 in snet-aks.
func addVMPoolNode(t *testing.T, m map[string]any) model.ResourceID {
	t.Helper()
	vm := model.ResourceID(nodeRG + "/providers/Microsoft.Compute/virtualMachines/aks-vms-1")
	vmNIC := model.ResourceID(nodeRG + "/providers/Microsoft.Network/networkInterfaces/aks-vms-1-nic")
	editPool(m, "user", func(p map[string]any) { p["type"], p["count"] = "VirtualMachines", 1 })
	addResource(t, m, `{"id":"`+string(vm)+`","name":"aks-vms-1","type":"Microsoft.Compute/virtualMachines","location":"westeurope",
		"tags":{"aks-managed-poolName":"user"},"properties":{"networkProfile":{"networkInterfaces":[{"id":"`+string(vmNIC)+`"}]}}}`)
	addResource(t, m, `{"id":"`+string(vmNIC)+`","name":"aks-vms-1-nic","type":"Microsoft.Network/networkInterfaces","location":"westeurope",
		"properties":{"virtualMachine":{"id":"`+string(vm)+`"},
		"ipConfigurations":[{"name":"ipconfig1","properties":{"privateIPAddress":"10.1.0.9","subnet":{"id":"`+string(snetAKS)+`"}}}]}}`)
	return vmNIC
}

func setPools(f model.NodeRouteFacts) []string {
	out := []string{}
	for _, s := range f.Sets {
		out = append(out, s.Pool)
	}
	return out
}

// A cluster's route sets: one per pool, by name, each with how its routes
// are known; the network of their subnet with the security evidence of the
// destinations.
func TestNodeRouteFactsCluster(t *testing.T) {
	mcVNets := model.ResourceID(nodeRG + "/providers/Microsoft.Network/virtualNetworks")
	mcScaleSets := model.ResourceID(nodeRG + "/providers/Microsoft.Compute/virtualMachineScaleSets")
	tests := []struct {
		name  string
		edit  func(t *testing.T, m map[string]any)
		q     NodeRoutesRequest
		pools []string
		check func(t *testing.T, f model.NodeRouteFacts)
	}{
		{
			name:  "every pool, by name",
			q:     NodeRoutesRequest{ClusterID: aks1, Destinations: []netip.Addr{ip("10.0.1.4"), ip("192.168.10.20")}},
			pools: []string{"system", "user"},
			check: func(t *testing.T, f model.NodeRouteFacts) {
				sys, user := f.Sets[0], f.Sets[1]
				if f.Cluster == nil || !f.Cluster.ID.Equal(aks1) || !sys.SubnetID.Equal(snetAKS) || sys.Computed != model.ComputedScaleSetPool ||
					sys.Source != ip("10.1.0.4") || sys.NodeNIC == nil || !sys.NodeNIC.ID.Equal(vmssNIC0) || sys.NIC != nil || sys.Effective != nil ||
					sys.NICGroupGap != nil {
					t.Errorf("scale-set pool: %+v", sys)
				}
				if user.Computed != model.ComputedNoNodes || user.Source.IsValid() || user.NodeNIC != nil || user.NICGroupGap != nil {
					t.Errorf("pool at zero nodes: %+v", user)
				}
				if f.Network.Subnet(snetAKS) == nil || f.Network.VNet(vnetHub) == nil || f.Network.NIC(nvaNIC) == nil {
					t.Errorf("network: vnets %v, nics %v", keys(f.Network.VNets), keys(f.Network.NICs))
				}
			},
		},
		{
			name:  "one pool, named in any case",
			q:     NodeRoutesRequest{ClusterID: aks1, NodePool: "USER"},
			pools: []string{"user"},
		},
		{
			name: "VirtualMachines pool: the effective route table of its node",
			edit: func(t *testing.T, m map[string]any) {
				vmNIC := addVMPoolNode(t, m)
				actions := m["actions"].(map[string]any)
				actions["POST "+string(vmNIC)+"/effectiveRouteTable"] = actions["POST "+string(nvaNIC)+"/effectiveRouteTable"]
			},
			q:     NodeRoutesRequest{ClusterID: aks1, NodePool: "user"},
			pools: []string{"user"},
			check: func(t *testing.T, f model.NodeRouteFacts) {
				s := f.Sets[0]
				if s.NIC == nil || s.NIC.Name != "aks-vms-1-nic" || len(s.Effective) != 22 || s.Computed != "" || s.Source != ip("10.1.0.9") ||
					s.NodeNIC != s.NIC || len(s.EffectiveGaps) != 0 {
					t.Errorf("VirtualMachines pool: %+v", s)
				}
			},
		},
		{
			name: "VirtualMachines pool whose effective route table is refused",
			edit: func(t *testing.T, m map[string]any) {
				addFault(m, "POST", addVMPoolNode(t, m)+"/effectiveRouteTable", 403)
			},
			q:     NodeRoutesRequest{ClusterID: aks1, NodePool: "user"},
			pools: []string{"user"},
			check: func(t *testing.T, f model.NodeRouteFacts) {
				s := f.Sets[0]
				if s.NIC != nil || s.Effective != nil || s.Computed != model.ComputedEffectiveUnread || s.Source != ip("10.1.0.9") || len(s.EffectiveGaps) != 1 {
					t.Fatalf("VirtualMachines pool: %+v", s)
				}
				g := s.EffectiveGaps[0]
				if g.NIC.Name != "aks-vms-1-nic" || g.Gap.Kind != model.GapPermissionDenied || g.Gap.Permission != permEffectiveRoutes ||
					!strings.HasSuffix(string(g.Gap.ResourceID), "/aks-vms-1-nic/effectiveRouteTable") {
					t.Errorf("effective route table gap: %+v", g)
				}
			},
		},
		{
			name: "VirtualMachines pool whose node is in another subnet",
			edit: func(t *testing.T, m map[string]any) {
				addVMPoolNode(t, m)
				editPool(m, "user", func(p map[string]any) { p["vnetSubnetID"] = string(snetNVA) })
			},
			q:     NodeRoutesRequest{ClusterID: aks1, NodePool: "user"},
			pools: []string{"user"},
			check: func(t *testing.T, f model.NodeRouteFacts) {
				if s := f.Sets[0]; s.Computed != model.ComputedNoNICInSubnet || s.NodeNIC != nil || s.Source.IsValid() {
					t.Errorf("VirtualMachines pool: %+v", s)
				}
			},
		},
		{
			name: "pool without a subnet and without an AKS-managed VNet",
			edit: func(_ *testing.T, m map[string]any) {
				editPool(m, "user", func(p map[string]any) { delete(p, "vnetSubnetID") })
			},
			q:     NodeRoutesRequest{ClusterID: aks1},
			pools: []string{"system", "user"},
			check: func(t *testing.T, f model.NodeRouteFacts) {
				if s := f.Sets[1]; !s.SubnetID.IsZero() || s.Computed != model.ComputedSubnetUnknown || s.SubnetGap != nil || s.NodeNIC != nil {
					t.Errorf("pool without subnet: %+v", s)
				}
			},
		},
		{
			name: "pool without a subnet whose node resource group cannot be listed",
			edit: func(_ *testing.T, m map[string]any) {
				editPool(m, "user", func(p map[string]any) { delete(p, "vnetSubnetID") })
				addFault(m, "GET", mcVNets, 403)
			},
			q:     NodeRoutesRequest{ClusterID: aks1, NodePool: "user"},
			pools: []string{"user"},
			check: func(t *testing.T, f model.NodeRouteFacts) {
				if s := f.Sets[0]; s.SubnetGap == nil || !s.SubnetGap.ResourceID.Equal(mcVNets) || s.SubnetGap.Kind != model.GapPermissionDenied {
					t.Errorf("pool without subnet: %+v", s)
				}
			},
		},
		{
			name:  "scale sets that cannot be listed: the NIC configuration's group is unknown",
			edit:  func(_ *testing.T, m map[string]any) { addFault(m, "GET", mcScaleSets, 403) },
			q:     NodeRoutesRequest{ClusterID: aks1},
			pools: []string{"system", "user"},
			check: func(t *testing.T, f model.NodeRouteFacts) {
				for _, s := range f.Sets {
					if s.NICGroupGap == nil || !s.NICGroupGap.ResourceID.Equal(mcScaleSets) || s.NICGroupGap.Kind != model.GapPermissionDenied {
						t.Errorf("pool %s: NIC group gap %+v", s.Pool, s.NICGroupGap)
					}
				}
				if _, ok := f.Network.Gaps.Lookup(mcScaleSets); !ok {
					t.Errorf("the failed listing is a gap of the facts")
				}
			},
		},
		{
			name: "a scale-set pool whose scale set is not tagged for it",
			edit: func(_ *testing.T, m map[string]any) {
				editResources(m, func(id model.ResourceID, obj map[string]any) {
					if id.Equal(vmssUser) {
						delete(obj["tags"].(map[string]any), "aks-managed-poolName")
					}
				})
			},
			q:     NodeRoutesRequest{ClusterID: aks1, NodePool: "user"},
			pools: []string{"user"},
			check: func(t *testing.T, f model.NodeRouteFacts) {
				if g := f.Sets[0].NICGroupGap; g == nil || g.Kind != model.GapNotFound || !strings.Contains(g.Detail, "no scale set tagged for node pool user") {
					t.Errorf("NIC group gap %+v", g)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r *Reader
			if tc.edit == nil {
				r, _ = newReader(t, "baseline_ok")
			} else {
				r, _ = withSnapshot(t, "baseline_ok", func(m map[string]any) { tc.edit(t, m) })
			}
			f, err := r.NodeRouteFacts(testCtx(t), tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if got := setPools(f); !slices.Equal(got, tc.pools) {
				t.Fatalf("pools %v, want %v", got, tc.pools)
			}
			if tc.check != nil {
				tc.check(t, f)
			}
		})
	}
}

// The resource a request names must be usable: otherwise an error that
// says which and why, and no facts.
func TestNodeRouteFactsRequestErrors(t *testing.T) {
	r, _ := newReader(t, "baseline_ok")
	ctx := testCtx(t)

	_, err := r.NodeRouteFacts(ctx, NodeRoutesRequest{ClusterID: aks1, NodePool: "gpu"})
	var pool *PoolNotFoundError
	if !errors.As(err, &pool) || pool.Name != "gpu" || !slices.Equal(pool.Pools, []string{"system", "user"}) || pool.ListGap != nil {
		t.Errorf("unknown pool: %v", err)
	}
	r403, _ := newReader(t, "faults_403")
	_, err = r403.NodeRouteFacts(ctx, NodeRoutesRequest{ClusterID: aks1, NodePool: "gpu"})
	if !errors.As(err, &pool) || pool.ListGap == nil || pool.ListGap.Kind != model.GapPermissionDenied {
		t.Errorf("unknown pool, agent pools not listed: %v", err)
	}

	missingCluster := aks1 + "x"
	f, err := r.NodeRouteFacts(ctx, NodeRoutesRequest{ClusterID: missingCluster})
	var read *TargetError
	if !errors.As(err, &read) || !read.Named.Equal(missingCluster) || !read.ID.Equal(missingCluster) || read.Err == nil || read.Gap != nil || f.Sets != nil {
		t.Errorf("missing cluster: %v, %+v", err, f)
	}

	missingSubnet := vnetSpoke + "/subnets/snet-gone"
	_, err = r.NodeRouteFacts(ctx, NodeRoutesRequest{SubnetID: missingSubnet})
	if !errors.As(err, &read) || !read.ID.Equal(read.Named) || read.Gap == nil || read.Gap.Kind != model.GapNotFound {
		t.Errorf("missing subnet: %v", err)
	}
	missingVNet := model.ResourceID(spokeRG + "/providers/Microsoft.Network/virtualNetworks/vnet-gone/subnets/s")
	_, err = r.NodeRouteFacts(ctx, NodeRoutesRequest{SubnetID: missingVNet})
	if !errors.As(err, &read) || !read.Named.Equal(missingVNet) || !read.ID.Equal(missingVNet.Parent()) {
		t.Errorf("missing VNet: %v", err)
	}

	missingNIC := nvaNIC + "x"
	_, err = r.NodeRouteFacts(ctx, NodeRoutesRequest{NICID: missingNIC})
	if !errors.As(err, &read) || !read.Named.Equal(missingNIC) || !read.ID.Equal(missingNIC) {
		t.Errorf("missing NIC: %v", err)
	}

	rNoSubnet, _ := withSnapshot(t, "baseline_ok", func(m map[string]any) {
		editResources(m, func(id model.ResourceID, obj map[string]any) {
			if id.Equal(nvaNIC) {
				for _, c := range obj["properties"].(map[string]any)["ipConfigurations"].([]any) {
					delete(c.(map[string]any)["properties"].(map[string]any), "subnet")
				}
			}
		})
	})
	_, err = rNoSubnet.NodeRouteFacts(ctx, NodeRoutesRequest{NICID: nvaNIC})
	var noSubnet *NICWithoutSubnetError
	if !errors.As(err, &noSubnet) || !noSubnet.NIC.ID.Equal(nvaNIC) {
		t.Errorf("NIC without subnet: %v", err)
	}

	// A named subnet whose VNet is refused cannot be read either: an error
	// on the subnet that names the refused VNet, like a missing one.
	_, err = r403.NodeRouteFacts(ctx, NodeRoutesRequest{SubnetID: snetNVA})
	if !errors.As(err, &read) || !read.Named.Equal(snetNVA) || !read.ID.Equal(vnetHub) || read.Gap == nil || read.Gap.Kind != model.GapPermissionDenied {
		t.Fatalf("refused subnet: %v", err)
	}

	// The read timeout ends it: the error is the context's.
	done, cancel := context.WithTimeout(ctx, 0)
	defer cancel()
	<-done.Done()
	rLate, _ := newReader(t, "baseline_ok")
	if _, err := rLate.NodeRouteFacts(done, NodeRoutesRequest{ClusterID: aks1}); !errors.As(err, &read) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("timed out: %v", err)
	}
}

// A network interface's route set: effective when Azure has it, else why
// not.
func TestNodeRouteFactsNIC(t *testing.T) {
	tests := []struct {
		name      string
		nic       model.ResourceID
		fault     bool
		effective int
		computed  model.ComputedReason
	}{
		{"standalone NIC of a running VM", nvaNIC, false, 22, ""},
		{"its effective route table refused", nvaNIC, true, 0, model.ComputedEffectiveUnread},
		{"scale-set instance NIC", vmssNIC0, false, 0, model.ComputedScaleSetNIC},
		{"private endpoint NIC", peNIC, false, 0, model.ComputedPrivateEndpoint},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, ct := withSnapshot(t, "baseline_ok", func(m map[string]any) {
				if tc.fault {
					addFault(m, "POST", tc.nic+"/effectiveRouteTable", 403)
				}
			})
			f, err := r.NodeRouteFacts(testCtx(t), NodeRoutesRequest{NICID: tc.nic})
			if err != nil {
				t.Fatal(err)
			}
			s := f.Sets[0]
			if f.Cluster != nil || s.Pool != "" || s.NIC == nil || !s.NIC.ID.Equal(tc.nic) || s.NodeNIC != s.NIC || len(s.Effective) != tc.effective ||
				s.Computed != tc.computed || !s.Source.IsValid() || f.Network.Subnet(s.SubnetID) == nil {
				t.Errorf("route set %+v", s)
			}
			if (len(s.EffectiveGaps) == 1) != tc.fault {
				t.Errorf("effective gaps %+v", s.EffectiveGaps)
			}
			asked := ct.count("POST", tc.nic+"/effectiveRouteTable")
			if (asked > 0) != (tc.nic == nvaNIC) {
				t.Errorf("effective route table asked %d times", asked)
			}
		})
	}
}
