// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package overlay

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

// The instance-level public IPs of an AKS pool's scale set
// (…/virtualMachineScaleSets/{v}/publicipaddresses, and the same under one
// instance) are no resources a plan names: AKS creates them with the
// pool's nodes. A plan that changes the pool's node public IP settings
// (enableNodePublicIP, nodePublicIPPrefixID) gives the pool new nodes with
// new addresses (or none), known only after apply; the addresses its
// instances hold now say nothing about them.

const (
	typeAgentPool = "microsoft.containerservice/managedclusters/agentpools"
	// tagPoolName is the tag AKS puts on a pool's scale set.
	tagPoolName = "aks-managed-poolName"
)

// isScaleSetPublicIPs reports whether p lists or names instance-level
// public IPs of a scale set.
func isScaleSetPublicIPs(p armPath) bool {
	t := p.types()
	return strings.EqualFold(p.ns(), "Microsoft.Compute") && len(t) >= 2 &&
		strings.EqualFold(t[0], "virtualMachineScaleSets") && strings.EqualFold(t[len(t)-1], "publicIPAddresses")
}

// scaleSetPublicIPs answers a read of a scale set's instance-level public
// IPs: unknown until apply when an op of the plan changes the node public
// IP settings of the AKS pool the scale set belongs to (the pool's name in
// its aks-managed-poolName tag, in the node resource group of the pool's
// cluster); otherwise what Azure has.
func (o *Overlay) scaleSetPublicIPs(req *policy.Request, p armPath, ops []planned.Op) (*http.Response, error) {
	fetch := fetchVersioned(req)
	scaleSet := "/subscriptions/" + p.rid.SubscriptionID + "/resourceGroups/" + p.rid.ResourceGroup +
		"/providers/Microsoft.Compute/virtualMachineScaleSets/" + p.names()[0]
	var vmss map[string]any
	fetched := false
	for _, op := range ops {
		if typeOf(op.ID) != typeAgentPool || (op.Kind != planned.OpPut && op.Kind != planned.OpPatch) {
			continue
		}
		change, ok := publicIPChange(op, listed(fetch, parentOf(op.ID)+"/agentPools", op.ID))
		if !ok {
			continue
		}
		if !fetched {
			// The scale sets of the node resource group, as gather lists
			// them (so the answer is the one gather has read).
			vmss, fetched = listed(fetch, "/subscriptions/"+p.rid.SubscriptionID+"/resourceGroups/"+p.rid.ResourceGroup+
				"/providers/Microsoft.Compute/virtualMachineScaleSets", scaleSet), true
		}
		if !poolOwnsScaleSet(op.ID, scaleSet, vmss, fetch) {
			continue
		}
		noteServed(req.Raw().Context(), []planned.Op{op})
		return nil, &azure.PlannedValueUnknownError{ID: p.id(), Address: op.Address,
			Members: []string{fmt.Sprintf("the public IPs of node pool %s's instances, which the plan gives new nodes (%s)", lastSegment(op.ID), change)}}
	}
	return req.Next()
}

// publicIPChange says how op changes a pool's node public IP settings from
// what Azure has now (current, nil for a pool that does not exist), and
// whether it changes them at all.
func publicIPChange(op planned.Op, current map[string]any) (string, bool) {
	after, _ := op.Body["properties"].(map[string]any)
	before, _ := current["properties"].(map[string]any)
	var changes []string
	for _, m := range []struct{ member, def string }{{"enableNodePublicIP", "false"}, {"nodePublicIPPrefixID", ""}} {
		for _, u := range op.Unknown {
			if strings.EqualFold(u, "properties."+m.member) {
				changes = append(changes, m.member+" known only after apply")
			}
		}
		v, set := after[m.member]
		if !set {
			if op.Kind == planned.OpPatch {
				continue // a merge patch leaves what it does not name
			}
			v = m.def
		}
		now, had := before[m.member]
		if !had {
			now = m.def
		}
		if a, b := fmt.Sprint(v), fmt.Sprint(now); !strings.EqualFold(a, b) {
			changes = append(changes, fmt.Sprintf("%s %s → %s", m.member, words(b), words(a)))
		}
	}
	if current == nil && len(changes) == 0 {
		return "", false
	}
	return strings.Join(changes, ", "), len(changes) > 0
}

func words(s string) string {
	if s == "" || s == "<nil>" {
		return "none"
	}
	return s
}

// poolOwnsScaleSet reports whether scaleSet (its body vmss, nil when it
// could not be read) is the scale set of the agent pool poolID: tagged
// with the pool's name, in the node resource group of the pool's cluster.
// A scale set that cannot be read may be the pool's.
func poolOwnsScaleSet(poolID, scaleSet string, vmss map[string]any, fetch fetcher) bool {
	if vmss == nil {
		return true
	}
	tags, _ := vmss["tags"].(map[string]any)
	name := ""
	for k, v := range tags {
		if strings.EqualFold(k, tagPoolName) {
			name = fmt.Sprint(v)
		}
	}
	if !strings.EqualFold(name, lastSegment(poolID)) {
		return false
	}
	pp, ok := parseARMPath(poolID)
	if !ok {
		return true
	}
	cluster := fetch(pp.parent())
	if cluster == nil {
		return true
	}
	props, _ := cluster["properties"].(map[string]any)
	ss, _ := parseARMPath(scaleSet)
	nodeRG, _ := props["nodeResourceGroup"].(string)
	return nodeRG == "" || strings.EqualFold(nodeRG, ss.rid.ResourceGroup)
}

// listed is the item id of the collection list as fetch reads it (its
// first page), nil when the list cannot be read or does not hold it.
// The overlay reads what gather lists, never a resource gather does not
// read itself.
func listed(fetch fetcher, list, id string) map[string]any {
	page := fetch(list)
	items, _ := page["value"].([]any)
	for _, it := range items {
		if m, ok := it.(map[string]any); ok && strings.EqualFold(fmt.Sprint(m["id"]), id) {
			return m
		}
	}
	return nil
}

// parentOf is the id of the resource a child resource id belongs to.
func parentOf(id string) string {
	p, ok := parseARMPath(id)
	if !ok {
		return ""
	}
	return p.parent()
}

func lastSegment(id string) string {
	return id[strings.LastIndexByte(id, '/')+1:]
}

// apiVersions are the API versions the provider's SDK clients read these
// types with (armcontainerservice/v8, armcompute/v8), so that what the
// overlay fetches here is what gather reads (and, once read, cached).
var apiVersions = map[string]string{
	"microsoft.containerservice": "2025-10-01",
	"microsoft.compute":          "2026-04-01",
}

// fetchVersioned is fetchWith with the API version of the resource's
// namespace: a read of a scale set's public IPs (api-version 2018-10-01)
// fetches a cluster, an agent pool and a scale set of other providers.
func fetchVersioned(req *policy.Request) fetcher {
	return func(id string) map[string]any {
		p, ok := parseARMPath(id)
		if !ok {
			return nil
		}
		v := apiVersions[strings.ToLower(p.ns())]
		if v == "" {
			return fetchWith(req)(id)
		}
		c := req.Clone(req.Raw().Context())
		u := *c.Raw().URL
		q := url.Values{}
		q.Set("api-version", v)
		u.RawQuery = q.Encode()
		c.Raw().URL = &u
		return fetchWith(c)(id)
	}
}
