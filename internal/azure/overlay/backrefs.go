// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package overlay

import (
	"slices"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/planned"
)

// Members ARM computes from other resources. A subnet's answer lists the
// ip configurations in it (ipConfigurations: the NICs', …/networkInterfaces/
// {n}/ipConfigurations/{c}) and its private endpoints (privateEndpoints);
// no change of the subnet sets them, the NICs and endpoints do. After the
// plan, a subnet lists what Azure lists now, less the NICs and endpoints
// the plan deletes or moves away, plus those it creates or moves into it:
// a lookup by these lists (gather's NIC at a next-hop address) finds the
// NIC a plan creates, and is never told that it does not exist.

const (
	subnetType = "microsoft.network/virtualnetworks/subnets"
	vnetType   = "microsoft.network/virtualnetworks"
	nicType    = "microsoft.network/networkinterfaces"
	peType     = "microsoft.network/privateendpoints"
)

// backRefOps are the ops that change what subnets list: those on NICs and
// private endpoints.
func backRefOps(ops []planned.Op) []planned.Op {
	var out []planned.Op
	for _, op := range ops {
		if t := typeOf(op.ID); t == nicType || t == peType {
			out = append(out, op)
		}
	}
	return out
}

// listsBackRefs reports whether resources of type typ (a subnet, or a VNet
// that embeds its subnets) list what refs change.
func listsBackRefs(typ string, refs []planned.Op) bool {
	return len(refs) > 0 && (typ == subnetType || typ == vnetType)
}

// backRefs sets, in body (the resource id after the plan: a subnet, or a
// VNet whose embedded subnets it sets), the lists ARM computes from the
// NICs and endpoints of refs, starting from base (the resource as Azure has
// it; nil when it does not exist). It returns the ops that changed a list,
// and the values that are unknown: a list the plan adds an item of unknown
// name to, or an item whose subnet is known only after apply.
func backRefs(id armPath, base, body map[string]any, refs []planned.Op, skip map[string]bool) ([]planned.Op, []azure.PlannedUnknownValue) {
	switch id.typ() {
	case subnetType:
		return subnetBackRefs(id.id(), base, body, refs)
	case vnetType:
		props, _ := body["properties"].(map[string]any)
		items, _ := props["subnets"].([]any)
		bprops, _ := base["properties"].(map[string]any)
		bitems, _ := bprops["subnets"].([]any)
		var served []planned.Op
		var unknown []azure.PlannedUnknownValue
		for _, it := range items {
			m, ok := it.(map[string]any)
			if !ok {
				continue
			}
			sid, _ := m["id"].(string)
			if sid == "" || skip[strings.ToLower(sid)] {
				continue // a subnet the plan changes: resolved as a child
			}
			var sbase map[string]any
			for _, b := range bitems {
				if bm, ok := b.(map[string]any); ok && strings.EqualFold(refID(bm), sid) {
					sbase = bm
				}
			}
			s, u := subnetBackRefs(sid, sbase, m, refs)
			served = append(served, s...)
			unknown = append(unknown, u...)
		}
		return served, unknown
	}
	return nil, nil
}

// subnetBackRefs sets the ipConfigurations and privateEndpoints of the
// subnet subnetID (body) after the plan; see backRefs.
func subnetBackRefs(subnetID string, base, body map[string]any, refs []planned.Op) ([]planned.Op, []azure.PlannedUnknownValue) {
	props, _ := body["properties"].(map[string]any)
	if props == nil {
		return nil, nil
	}
	bprops, _ := base["properties"].(map[string]any)
	start := func(member string) []any {
		if bprops != nil {
			l, _ := bprops[member].([]any)
			return slices.Clone(l)
		}
		l, _ := props[member].([]any)
		return slices.Clone(l)
	}
	cfgs, pes := start("ipConfigurations"), start("privateEndpoints")
	var served []planned.Op
	var unknown []azure.PlannedUnknownValue
	addUnknown := func(op planned.Op, member string) {
		unknown = append(unknown, azure.PlannedUnknownValue{ID: subnetID, Member: member, Address: op.Address})
		served = append(served, op)
	}
	// drop removes the items whose id match; it reports whether one was.
	drop := func(l []any, match func(id string) bool) ([]any, bool) {
		out := l[:0:0]
		dropped := false
		for _, it := range l {
			if m, ok := it.(map[string]any); ok && match(strings.ToLower(refID(m))) {
				dropped = true
				continue
			}
			out = append(out, it)
		}
		return out, dropped
	}
	here := func(ref any) bool { return strings.EqualFold(refID(ref), subnetID) }
	for _, op := range refs {
		key := strings.ToLower(op.ID)
		bp, _ := op.Body["properties"].(map[string]any)
		switch typeOf(op.ID) {
		case nicType:
			under := func(id string) bool { return strings.HasPrefix(id, key+"/ipconfigurations/") }
			if op.Kind == planned.OpCreateUnnamed {
				// Its configurations' ids hold a name known after apply.
				newCfgs, _ := bp["ipConfigurations"].([]any)
				for _, c := range newCfgs {
					cm, _ := c.(map[string]any)
					cp, _ := cm["properties"].(map[string]any)
					if here(cp["subnet"]) || refID(cp["subnet"]) == "" {
						addUnknown(op, "properties.ipConfigurations")
						break
					}
				}
				if bp == nil {
					addUnknown(op, "properties.ipConfigurations")
				}
				continue
			}
			var changed bool
			if op.Kind == planned.OpDelete {
				if cfgs, changed = drop(cfgs, under); changed {
					served = append(served, op)
				}
				continue
			}
			newCfgs, hasCfgs := bp["ipConfigurations"].([]any)
			if !hasCfgs {
				// A patch that does not set them keeps the NIC where it is.
				continue
			}
			cfgs, changed = drop(cfgs, under)
			for _, c := range newCfgs {
				cm, _ := c.(map[string]any)
				cp, _ := cm["properties"].(map[string]any)
				if here(cp["subnet"]) {
					cfgs = append(cfgs, map[string]any{"id": cm["id"]})
					changed = true
				}
			}
			if changed {
				served = append(served, op)
			}
			if slices.Contains(op.Unknown, "properties.ipConfigurations.subnet.id") || slices.Contains(op.Unknown, "properties.ipConfigurations") {
				// A configuration whose subnet is known after apply may
				// be in this one.
				addUnknown(op, "properties.ipConfigurations")
			}
		case peType:
			// A deleted endpoint leaves the list. One the plan creates is
			// not added: its address is Azure's choice at apply, and its
			// /32 route concerns that address only, which a pull path
			// reaches only through a record that is itself unknown.
			if op.Kind != planned.OpDelete {
				continue
			}
			var changed bool
			if pes, changed = drop(pes, func(id string) bool { return id == key }); changed {
				served = append(served, op)
			}
		}
	}
	if len(served) > 0 {
		props["ipConfigurations"] = cfgs
		props["privateEndpoints"] = pes
	}
	return served, unknown
}
