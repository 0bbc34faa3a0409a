package snapshot

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// entry is one resource the replay can serve: stored on its own in the
// snapshot or embedded in its parent's properties.
type entry struct {
	key  string          // lookup form of the id
	body json.RawMessage // compact, as stored
}

// roleAssignmentsSuffix ends every role-assignment collection path (lookup
// form): {scope}/providers/Microsoft.Authorization/roleAssignments.
const roleAssignmentsSuffix = "/providers/microsoft.authorization/roleassignments"

// privateDNSRecordTypes are the record types of a private DNS zone; the
// zone's other children (virtualNetworkLinks) are not record sets and must
// not appear in …/privateDnsZones/{z}/ALL.
var privateDNSRecordTypes = map[string]bool{
	"a": true, "aaaa": true, "cname": true, "mx": true, "ptr": true, "soa": true, "srv": true, "txt": true,
}

type roleAssignment struct {
	scope string // lookup form; "/" for the root scope
	e     *entry
}

// index answers lookups in constant time; it is immutable once built, so
// the replay reads it without locking.
type index struct {
	byID        map[string]*entry
	collections map[string][]*entry // sorted by key
	assignments []roleAssignment    // sorted by entry key
	// graphRows are the resources a Resource Graph query is answered
	// from (graphAnswer): for each search of model.GraphSearches, in that
	// order, the resources of its row type, sorted by key.
	graphRows [][]*entry
	actions   map[string]storedAnswer
	faults    map[string]Fault
	// loaded is the size of the bodies the index was built from.
	loaded int
}

// storedAnswer is an action's answer as the index holds it: a large one
// (recorded effective route tables, learned routes: megabytes each, most of
// them never asked for by a given verification) deflated, so that a
// snapshot of a hub with thousands of prefixes is not held at its full size
// for the whole plan.
type storedAnswer struct {
	body     []byte
	deflated bool
}

// deflateAbove is the size from which an answer is held deflated.
const deflateAbove = 64 << 10

// answerStore deflates the large answers of one index with one writer.
type answerStore struct {
	w   *flate.Writer
	buf bytes.Buffer
}

func (st *answerStore) store(body []byte) storedAnswer {
	if len(body) >= deflateAbove {
		st.buf.Reset()
		var err error
		if st.w == nil {
			st.w, err = flate.NewWriter(&st.buf, flate.BestSpeed)
		} else {
			st.w.Reset(&st.buf)
		}
		if err == nil {
			_, err = st.w.Write(body)
		}
		if err == nil {
			err = st.w.Close()
		}
		if err == nil && st.buf.Len() < len(body)/2 {
			return storedAnswer{body: bytes.Clone(st.buf.Bytes()), deflated: true}
		}
	}
	return storedAnswer{body: bytes.Clone(body)}
}

// action returns the answer stored for an action key.
func (ix *index) action(key string) (body []byte, ok bool, err error) {
	a, ok := ix.actions[key]
	if !ok || !a.deflated {
		return a.body, ok, nil
	}
	body, err = io.ReadAll(flate.NewReader(bytes.NewReader(a.body)))
	if err != nil {
		return nil, true, fmt.Errorf("the stored answer of %s cannot be inflated: %w", key, err)
	}
	return body, true, nil
}

// graphRowTypes are the row types of model.GraphSearches, in order.
var graphRowTypes = func() []string {
	var out []string
	for _, s := range model.GraphSearches() {
		out = append(out, s.RowType())
	}
	return out
}()

func newIndex(s *Snapshot) *index {
	ix := &index{
		byID:        map[string]*entry{},
		collections: map[string][]*entry{},
		actions:     map[string]storedAnswer{},
		faults:      map[string]Fault{},
		graphRows:   make([][]*entry, len(graphRowTypes)),
	}
	// Standalone resources first, so that they win over an embedded copy
	// with the same id whatever the order in the file. The index holds
	// copies: a loaded snapshot's bodies are slices of the whole document,
	// which is then no longer held.
	for _, r := range s.Resources {
		ix.byID[normPath(r.ID)] = &entry{key: normPath(r.ID), body: bytes.Clone(compact(r.Body))}
		ix.loaded += len(r.Body)
	}
	for _, r := range s.Resources {
		ix.addEmbedded(normPath(r.ID), compact(r.Body))
	}

	keys := make([]string, 0, len(ix.byID))
	for k := range ix.byID {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		e := ix.byID[k]
		for _, c := range collectionsOf(k) {
			ix.collections[c] = append(ix.collections[c], e)
		}
		if parent := k[:strings.LastIndexByte(k, '/')]; strings.HasSuffix(parent, roleAssignmentsSuffix) {
			ix.assignments = append(ix.assignments, roleAssignment{scope: assignmentScope(parent, e.body), e: e})
		}
		if i := slices.Index(graphRowTypes, model.TypeOf(k)); i >= 0 {
			ix.graphRows[i] = append(ix.graphRows[i], e)
		}
	}

	var store answerStore
	for k, body := range s.Actions {
		if method, p, err := parseKey(k); err == nil {
			ix.actions[lookupKey(method, p)] = store.store(compact(body))
			ix.loaded += len(body)
		}
	}
	for k, f := range s.Faults {
		if method, p, err := parseKey(k); err == nil {
			ix.faults[lookupKey(method, p)] = f
		}
	}
	return ix
}

// addEmbedded indexes the children ARM embeds in a parent's properties
// (subnets, virtualNetworkPeerings, NIC ipConfigurations, subnet
// delegations, …): elements of an array directly under "properties" whose id
// is {parent}/{type}/{name}. Elements with nothing but an id are references
// to other resources, not copies of them, and are skipped; so are arrays of
// objects without ids (agentPoolProfiles), which ARM does not serve by id.
func (ix *index) addEmbedded(parentKey string, body json.RawMessage) {
	var obj struct {
		Properties json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(body, &obj) != nil {
		return
	}
	var props map[string]json.RawMessage
	if json.Unmarshal(obj.Properties, &props) != nil {
		return
	}
	for _, name := range sortedKeys(props) {
		raw := bytes.TrimSpace(props[name])
		if len(raw) == 0 || raw[0] != '[' {
			continue
		}
		var elems []json.RawMessage
		if json.Unmarshal(raw, &elems) != nil {
			continue
		}
		for _, el := range elems {
			var fields map[string]json.RawMessage
			if json.Unmarshal(el, &fields) != nil || len(fields) < 2 {
				continue
			}
			var id string
			if json.Unmarshal(fields["id"], &id) != nil || checkID(id) != nil {
				continue
			}
			key := normPath(id)
			if !isDirectChild(parentKey, key) {
				continue
			}
			child := compact(el)
			if _, taken := ix.byID[key]; !taken {
				ix.byID[key] = &entry{key: key, body: child}
			}
			ix.addEmbedded(key, child)
		}
	}
}

// collectionsOf lists the collection paths (lookup form) whose answer
// includes the resource with this key.
func collectionsOf(key string) []string {
	segs := segments(key)
	n := len(segs)
	// {parentId}/{childType}; this also covers resource-group type lists,
	// agentPools, virtualNetworkLinks, record sets by type and the NICs of
	// one scale-set instance.
	out := []string{key[:strings.LastIndexByte(key, '/')]}

	// /subscriptions/{s}/providers/{ns}/{type}: every resource group.
	if n == 8 && segs[0] == "subscriptions" && segs[2] == "resourcegroups" && segs[4] == "providers" {
		out = append(out, "/"+strings.Join([]string{"subscriptions", segs[1], "providers", segs[5], segs[6]}, "/"))
	}
	// …/virtualMachineScaleSets/{v}/networkInterfaces: the NICs of every
	// instance, …/virtualMachineScaleSets/{v}/virtualMachines/{i}/networkInterfaces/{nic}.
	if n >= 6 && segs[n-6] == "virtualmachinescalesets" && segs[n-4] == "virtualmachines" && segs[n-2] == "networkinterfaces" {
		out = append(out, "/"+strings.Join(append(segs[:n-4:n-4], "networkinterfaces"), "/"))
	}
	// …/virtualMachineScaleSets/{v}/publicipaddresses: the instance-level
	// public IPs of every instance,
	// …/virtualMachineScaleSets/{v}/virtualMachines/{i}/networkInterfaces/{nic}/ipConfigurations/{c}/publicIPAddresses/{p}.
	if n >= 10 && segs[n-10] == "virtualmachinescalesets" && segs[n-8] == "virtualmachines" && segs[n-6] == "networkinterfaces" &&
		segs[n-4] == "ipconfigurations" && segs[n-2] == "publicipaddresses" {
		out = append(out, "/"+strings.Join(append(segs[:n-8:n-8], "publicipaddresses"), "/"))
	}
	// …/privateDnsZones/{z}/ALL: every record set of the zone.
	if n >= 4 && segs[n-4] == "privatednszones" && privateDNSRecordTypes[segs[n-2]] {
		out = append(out, "/"+strings.Join(append(segs[:n-2:n-2], "all"), "/"))
	}
	return out
}

// assignmentScope is the scope of a role assignment: properties.scope as ARM
// reports it, else the part of its id before /providers/Microsoft.Authorization.
func assignmentScope(collection string, body json.RawMessage) string {
	var ra struct {
		Properties struct {
			Scope string `json:"scope"`
		} `json:"properties"`
	}
	if json.Unmarshal(body, &ra) == nil && ra.Properties.Scope != "" {
		return normPath(ra.Properties.Scope)
	}
	return normPath(strings.TrimSuffix(collection, roleAssignmentsSuffix))
}

// scopesRelated reports whether a and b are the same scope or one contains
// the other: a role-assignment list at a scope shows assignments at the
// scope, above it (inherited) and below it.
func scopesRelated(a, b string) bool {
	return a == b || a == "/" || b == "/" ||
		strings.HasPrefix(b, a+"/") || strings.HasPrefix(a, b+"/")
}

// assignmentsFor returns the role assignments related to scope.
func (ix *index) assignmentsFor(scope string) []*entry {
	var out []*entry
	for _, ra := range ix.assignments {
		if scopesRelated(ra.scope, scope) {
			out = append(out, ra.e)
		}
	}
	return out
}

func compact(raw json.RawMessage) json.RawMessage {
	if isCompact(raw) {
		return raw // parse compacted it already; skip a second copy
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return raw
	}
	return buf.Bytes()
}

// isCompact reports whether raw has no whitespace outside its strings, as
// json.Compact leaves it.
func isCompact(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case ' ', '\t', '\n', '\r':
			return false
		case '"':
			i = stringEnd(raw, i) - 1
		}
	}
	return true
}
