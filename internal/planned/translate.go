package planned

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/pullpath/terraform-provider-pullpath/internal/ids"
)

// A translator turns one resource change of a Terraform type into ops.
type translator struct {
	// id is the ARM id of the resource the change manages, from the
	// values in t.cur (the after values, or the before values of a
	// delete). Attribute "id" is used first when it is known.
	id func(t *changeTranslation) (string, error)
	// put emits the ops of the resource as it is after apply.
	put func(t *changeTranslation, id string) error
	// del emits the ops of deleting it; nil deletes the resource id.
	del func(t *changeTranslation, id string) error
	// idFromArgs: the Terraform id is not the ARM id of what the change
	// manages (associations, azapi_update_resource); id builds it from the
	// arguments.
	idFromArgs bool
}

// change is one managed resource change of the plan.
type change struct {
	rc     *tfjson.ResourceChange
	before val
	after  val
	// expr are the configuration expressions of the resource, nil when
	// the plan has no configuration for it.
	expr map[string]*tfjson.Expression
	// providerKey is the provider configuration key of the resource.
	providerKey string
}

// planTranslation is the translation of one plan.
type planTranslation struct {
	plan    *tfjson.Plan
	opts    Options
	changes []*change
	// byAddr are changes (and prior-state resources, as no-op changes) by
	// address.
	byAddr map[string]*change
	// subs are the subscriptions of the ids the plan knows.
	subs map[string]string
	// resolving guards id resolution against reference cycles.
	resolving map[string]bool
	// deletedPeerings are the remote VNet ids of the peerings the plan
	// deletes, by peering id (lower case).
	deletedPeerings map[string]string
	// idCache are the resolved ids by address; inCycle is set while a
	// reference cycle is being unwound.
	idCache map[string]cachedID
	inCycle bool
	// unnamed is set while the id of a create whose name is unknown is
	// built with NameUnknown in its place.
	unnamed bool
	out     *Plan
}

// translate is Parse after the file is known to be a plan JSON.
func translate(p *tfjson.Plan, opts Options) *Plan {
	c := &planTranslation{plan: p, opts: opts, byAddr: map[string]*change{}, subs: map[string]string{}, resolving: map[string]bool{},
		deletedPeerings: map[string]string{}, idCache: map[string]cachedID{},
		out: &Plan{FormatVersion: p.FormatVersion, TerraformVersion: p.TerraformVersion}}
	c.index()
	c.applyDefaults()
	unsupported := map[string]bool{}
	for _, ch := range c.changes {
		acts := ch.rc.Change.Actions
		if acts.NoOp() || acts.Read() || acts.Forget() || len(acts) == 0 {
			continue
		}
		if !azureProvider(ch.rc) {
			continue
		}
		if offPath(ch) {
			continue
		}
		tr, ok := translators[ch.rc.Type]
		if !ok {
			unsupported[ch.rc.Address] = true
			continue
		}
		c.translateChange(ch, tr)
	}
	for a := range unsupported {
		c.out.Unsupported = append(c.out.Unsupported, a)
	}
	sort.Strings(c.out.Unsupported)
	c.out.Ops = netEffect(c.out.Ops)
	settlePeerings(c.out.Ops, c.deletedPeerings)
	return c.out
}

// azureProvider reports whether a change is of the azurerm or azapi
// provider (by provider name, or by type prefix when the name is absent).
func azureProvider(rc *tfjson.ResourceChange) bool {
	name := strings.ToLower(rc.ProviderName)
	if name != "" {
		return strings.HasSuffix(name, "/azurerm") || strings.HasSuffix(name, "/azapi") || name == "azurerm" || name == "azapi"
	}
	return strings.HasPrefix(rc.Type, "azurerm_") || strings.HasPrefix(rc.Type, "azapi_")
}

// index collects the changes, their configuration and the subscriptions
// of every id the plan knows.
func (c *planTranslation) index() {
	for _, rc := range c.plan.ResourceChanges {
		if rc == nil || rc.Change == nil || rc.Mode != tfjson.ManagedResourceMode || rc.Address == "" {
			continue
		}
		ch := &change{rc: rc,
			before: val{v: rc.Change.Before},
			after:  val{v: rc.Change.After, u: rc.Change.AfterUnknown}}
		ch.expr, ch.providerKey = c.config(rc)
		c.changes = append(c.changes, ch)
		if rc.DeposedKey == "" {
			c.byAddr[rc.Address] = ch
		}
		collectSubs(rc.Change.Before, c.subs)
		collectSubs(rc.Change.After, c.subs)
	}
	if c.plan.PriorState != nil && c.plan.PriorState.Values != nil {
		walkState(c.plan.PriorState.Values.RootModule, func(r *tfjson.StateResource) {
			if r.Mode != tfjson.ManagedResourceMode {
				return
			}
			collectSubs(r.AttributeValues, c.subs)
			if _, ok := c.byAddr[r.Address]; !ok && r.Address != "" {
				vals := map[string]any{}
				for k, v := range r.AttributeValues {
					vals[k] = v
				}
				c.byAddr[r.Address] = &change{rc: &tfjson.ResourceChange{Address: r.Address, Type: r.Type, Mode: r.Mode,
					Change: &tfjson.Change{Actions: tfjson.Actions{tfjson.ActionNoop}, Before: vals, After: vals}},
					before: val{v: vals}, after: val{v: vals}}
			}
		})
	}
	if c.plan.PlannedValues != nil {
		walkState(c.plan.PlannedValues.RootModule, func(r *tfjson.StateResource) {
			if r.Mode == tfjson.ManagedResourceMode {
				collectSubs(r.AttributeValues, c.subs)
			}
		})
	}
}

func walkState(m *tfjson.StateModule, f func(*tfjson.StateResource)) {
	if m == nil {
		return
	}
	for _, r := range m.Resources {
		if r != nil {
			f(r)
		}
	}
	for _, cm := range m.ChildModules {
		walkState(cm, f)
	}
}

var subRe = regexp.MustCompile(`(?i)^/subscriptions/([0-9a-f-]{36})(/|$)`)

// collectSubs adds the subscription of every ARM id among the values.
func collectSubs(v any, subs map[string]string) {
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			collectSubs(x, subs)
		}
	case []any:
		for _, x := range v {
			collectSubs(x, subs)
		}
	case string:
		if m := subRe.FindStringSubmatch(v); m != nil {
			subs[strings.ToLower(m[1])] = m[1]
		}
	}
}

// config finds the configuration block of a resource change: its
// expressions and provider configuration key.
func (c *planTranslation) config(rc *tfjson.ResourceChange) (map[string]*tfjson.Expression, string) {
	if c.plan.Config == nil || c.plan.Config.RootModule == nil {
		return nil, ""
	}
	var segs []modSeg
	if rc.ModuleAddress != "" {
		var ok bool
		if segs, ok = splitModuleAddr(rc.ModuleAddress); !ok {
			return nil, ""
		}
	}
	mod := c.moduleConfig(segs)
	if mod == nil {
		return nil, ""
	}
	for _, r := range mod.Resources {
		if r != nil && r.Mode == tfjson.ManagedResourceMode && r.Type == rc.Type && r.Name == rc.Name {
			return r.Expressions, r.ProviderConfigKey
		}
	}
	return nil, ""
}

// translateChange emits the ops of one change, or records why it cannot.
func (c *planTranslation) translateChange(ch *change, tr translator) {
	acts := ch.rc.Change.Actions
	deleteOnly := acts.Delete() || ch.rc.DeposedKey != ""
	var ops []Op
	var err error
	if deleteOnly {
		ops, err = c.deleteOps(ch, tr)
	} else {
		t := c.newT(ch, ch.after)
		id, ierr := c.idFor(ch, tr, ch.after)
		if op, ok := c.unnamedCreate(ch, tr, ierr); ok {
			c.out.Ops = append(c.out.Ops, op)
			return
		}
		if ierr != nil {
			err = ierr
		} else if perr := tr.put(t, id); perr != nil {
			err = perr
		} else {
			ops = t.result()
			// A replacement that gives the resource another id (a new
			// name) deletes the old one.
			if acts.Replace() && tr.idFromArgs && tr.del != nil {
				// An association replaced (its arguments force a new
				// one) first undoes what it set: the old association's
				// delete, on the resource its before values name.
				if old, oerr := c.idFor(ch, tr, ch.before); oerr == nil {
					dt := c.newT(ch, ch.before)
					if derr := tr.del(dt, old); derr == nil {
						ops = append(dt.result(), ops...)
					}
				}
			} else if acts.Replace() {
				if old := knownString(ch.before.at("id")); old != "" && !strings.EqualFold(old, id) && validID(old) {
					dt := c.newT(ch, ch.before)
					if tr.del != nil {
						if derr := tr.del(dt, old); derr == nil {
							ops = append(dt.result(), ops...)
						}
					} else {
						ops = append([]Op{{Address: ch.rc.Address, Type: ch.rc.Type, Kind: OpDelete, ID: old}}, ops...)
					}
				}
			}
		}
	}
	if err != nil {
		c.out.Untranslatable = append(c.out.Untranslatable, Problem{Address: ch.rc.Address, Reason: err.Error()})
		return
	}
	for i := range ops {
		op := &ops[i]
		if !validID(op.ID) {
			c.out.Untranslatable = append(c.out.Untranslatable, Problem{Address: ch.rc.Address,
				Reason: fmt.Sprintf("the ARM id %q built for it is not a resource id", op.ID)})
			return
		}
		sort.Strings(op.Unknown)
		op.Unknown = dedupe(op.Unknown)
	}
	c.out.Ops = append(c.out.Ops, ops...)
}

// unnamedCreate is the OpCreateUnnamed of a create whose id is unknown
// because a name is (ierr an unknownNameError): its id is built with
// NameUnknown for the unknown names. ok is false for other errors, for
// changes that are not creates, and when even the place of the resource
// (its parent, its subscription) is unknown.
func (c *planTranslation) unnamedCreate(ch *change, tr translator, ierr error) (Op, bool) {
	var une *unknownNameError
	if ierr == nil || !errors.As(ierr, &une) || !ch.rc.Change.Actions.Create() && !ch.rc.Change.Actions.Replace() || tr.id == nil {
		return Op{}, false
	}
	c.unnamed = true
	defer func() { c.unnamed = false }()
	id, err := tr.id(c.newT(ch, ch.after))
	if err != nil || !validID(id) {
		return Op{}, false
	}
	op := Op{Address: ch.rc.Address, Type: ch.rc.Type, Kind: OpCreateUnnamed, ID: id,
		Unknown: []string{"the name of the new " + lastTypeName(id) + " (" + une.attr + " is known only after apply)"}}
	// What is known of it beside its name (a link's VNet, a NIC's
	// subnet): the body its put builds with that id, when it builds one.
	if tr.put != nil {
		t := c.newT(ch, ch.after)
		if tr.put(t, id) == nil {
			for _, o := range t.result() {
				if o.ID == id && o.Body != nil {
					op.Body = o.Body
					break
				}
			}
		}
	}
	return op, true
}

// lastTypeName is the last resource type segment of an id ("subnets").
func lastTypeName(id string) string {
	p, err := ids.Parse(id)
	if err != nil || len(p.Types) == 0 {
		return "resource"
	}
	return p.Types[len(p.Types)-1]
}

// deleteOps are the ops of a change that deletes its resource.
func (c *planTranslation) deleteOps(ch *change, tr translator) ([]Op, error) {
	id := knownString(ch.before.at("id"))
	if id == "" || !validID(id) || tr.idFromArgs {
		var err error
		if id, err = c.idFor(ch, tr, ch.before); err != nil {
			return nil, err
		}
	}
	if r := knownString(ch.before.at("remote_virtual_network_id")); r != "" {
		c.deletedPeerings[strings.ToLower(id)] = strings.ToLower(r)
	}
	t := c.newT(ch, ch.before)
	if tr.del != nil {
		if err := tr.del(t, id); err != nil {
			return nil, err
		}
		return t.result(), nil
	}
	return []Op{{Address: ch.rc.Address, Type: ch.rc.Type, Kind: OpDelete, ID: id}}, nil
}

// idFor is the ARM id of a change's resource from the values v.
func (c *planTranslation) idFor(ch *change, tr translator, v val) (string, error) {
	if id := knownString(v.at("id")); id != "" && validID(id) && tr.id == nil {
		return id, nil
	}
	if tr.id == nil {
		return "", fmt.Errorf("its id is known only after apply and cannot be built from its arguments")
	}
	if id := knownString(v.at("id")); id != "" && validID(id) && !tr.idFromArgs {
		return id, nil
	}
	key := ch.rc.Address + "#" + ch.rc.DeposedKey
	if c.resolving[key] {
		// Results found while a cycle is open are not cached: they may
		// depend on where the walk entered the cycle.
		c.inCycle = true
		return "", fmt.Errorf("its id depends on itself through references")
	}
	c.resolving[key] = true
	defer func() {
		delete(c.resolving, key)
		if len(c.resolving) == 0 {
			c.inCycle = false
		}
	}()
	id, err := tr.id(c.newT(ch, v))
	if err != nil {
		return "", err
	}
	if !validID(id) {
		return "", fmt.Errorf("the ARM id %q built from its arguments is not a resource id", id)
	}
	return id, nil
}

// idOfAddress is the ARM id of the resource at a plan address: its known
// id, or the id its translator builds from its planned arguments.
func (c *planTranslation) idOfAddress(addr string) (string, bool) {
	if r, ok := c.idCache[addr]; ok {
		return r.id, r.ok
	}
	id, ok := c.computeIDOfAddress(addr)
	if !c.inCycle && !c.unnamed {
		c.idCache[addr] = cachedID{id, ok}
	}
	return id, ok
}

type cachedID struct {
	id string
	ok bool
}

func (c *planTranslation) computeIDOfAddress(addr string) (string, bool) {
	ch, ok := c.byAddr[addr]
	if !ok {
		return "", false
	}
	tr, ok := translators[ch.rc.Type]
	if !ok {
		tr, ok = idOnly(ch.rc.Type)
	}
	if id := knownString(ch.after.at("id")); id != "" && validID(id) && !tr.idFromArgs {
		return id, true
	}
	if !ok || tr.id == nil {
		return "", false
	}
	v := ch.after
	if ch.rc.Change.Actions.Delete() {
		return "", false
	}
	id, err := c.idFor(ch, tr, v)
	return id, err == nil
}

// providerConfig is the provider block of a resource: by its
// configuration's key, else the only block of its provider.
func (c *planTranslation) providerConfig(ch *change) *tfjson.ProviderConfig {
	if pc, ok := c.plan.Config.ProviderConfigs[ch.providerKey]; ok && ch.providerKey != "" {
		return pc
	}
	var found *tfjson.ProviderConfig
	n := 0
	for _, pc := range c.plan.Config.ProviderConfigs {
		if pc != nil && ch.rc.ProviderName != "" && strings.EqualFold(pc.FullName, ch.rc.ProviderName) {
			found = pc
			n++
		}
	}
	if n == 1 {
		return found
	}
	return nil
}

// subscriptionFor is the subscription of a resource whose id is built from
// names.
func (c *planTranslation) subscriptionFor(ch *change) (string, error) {
	// The azurerm provider block that manages the resource, when it sets
	// subscription_id to a constant.
	if c.plan.Config != nil {
		if pc := c.providerConfig(ch); pc != nil {
			if e, ok := pc.Expressions["subscription_id"]; ok && e != nil && e.ExpressionData != nil {
				if s, ok := e.ConstantValue.(string); ok && ids.IsGUID(s) {
					return s, nil
				}
			}
		}
	}
	if len(c.subs) == 1 {
		for _, s := range c.subs {
			return s, nil
		}
	}
	if ids.IsGUID(c.opts.DefaultSubscriptionID) {
		return c.opts.DefaultSubscriptionID, nil
	}
	if len(c.subs) > 1 {
		var list []string
		for _, s := range c.subs {
			list = append(list, s)
		}
		sort.Strings(list)
		return "", fmt.Errorf("its ARM id is known only after apply and the plan's resources are in several subscriptions (%s): set the provider's subscription_id to the subscription this plan deploys to", strings.Join(list, ", "))
	}
	return "", fmt.Errorf("its ARM id is known only after apply and the plan shows no subscription: set the provider's subscription_id to the subscription this plan deploys to")
}

// maxIDLength bounds the ARM ids translation builds.
const maxIDLength = 2048

// validID reports whether s parses as an ARM resource id.
func validID(s string) bool {
	// ARM ids are far shorter than this; a longer one is not an id.
	if s == "" || len(s) > maxIDLength {
		return false
	}
	_, err := ids.Parse(s)
	return err == nil
}

// netEffect orders the ops as the contract says (plan order; a delete of
// an id that another change of the plan puts is dropped: the resource
// exists after apply, as that put says).
func netEffect(ops []Op) []Op {
	put := map[string]bool{}
	for _, op := range ops {
		if op.Kind == OpPut {
			put[strings.ToLower(op.ID)] = true
		}
	}
	out := make([]Op, 0, len(ops))
	for _, op := range ops {
		if op.Kind == OpDelete && put[strings.ToLower(op.ID)] {
			continue
		}
		out = append(out, op)
	}
	return out
}

func dedupe(s []string) []string {
	if len(s) < 2 {
		return s
	}
	out := s[:1]
	for _, x := range s[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}

func sortedAddrs(m map[string]*change) []string {
	out := make([]string, 0, len(m))
	for a := range m {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// settlePeerings sets the state of peerings whose two sides the plan both
// puts (Connected, FullyInSync) or whose other side it deletes
// (Disconnected). Other peerings' state is Azure's: the overlay derives it
// from the remote VNet (docs/design/what-if.md).
func settlePeerings(ops []Op, deletedRemote map[string]string) {
	type side struct {
		op     *Op
		vnet   string
		remote string
	}
	var puts []side
	type del struct{ vnet, remote string }
	var deletes []del
	for i := range ops {
		op := &ops[i]
		if !strings.Contains(strings.ToLower(op.ID), "/virtualnetworkpeerings/") {
			continue
		}
		switch op.Kind {
		case OpPut:
			remote := ""
			if p, ok := op.Body["properties"].(map[string]any); ok {
				if r, ok := p["remoteVirtualNetwork"].(map[string]any); ok {
					remote, _ = r["id"].(string)
				}
			}
			puts = append(puts, side{op: op, vnet: strings.ToLower(parentID(op.ID)), remote: strings.ToLower(remote)})
		case OpDelete:
			deletes = append(deletes, del{vnet: strings.ToLower(parentID(op.ID)), remote: deletedRemote[strings.ToLower(op.ID)]})
		}
	}
	for _, a := range puts {
		p, ok := a.op.Body["properties"].(map[string]any)
		if !ok || a.remote == "" {
			continue
		}
		for _, b := range puts {
			if b.vnet == a.remote && b.remote == a.vnet {
				p["peeringState"] = "Connected"
				p["peeringSyncLevel"] = "FullyInSync"
			}
		}
		// Deleting the remote side of a peering leaves this side
		// Disconnected.
		if _, set := p["peeringState"]; !set {
			for _, d := range deletes {
				if d.vnet == a.remote && d.remote == a.vnet {
					p["peeringState"] = "Disconnected"
					p["peeringSyncLevel"] = "LocalNotInSync"
				}
			}
		}
	}
}

// offPathTypes are azurerm types whose changes cannot change how a node
// reaches a registry, resolves its names, or whether it may pull:
// monitoring, secrets, user storage and budgets. Their changes are
// neither translated nor reported as unsupported.
var offPathTypes = map[string]bool{
	"azurerm_storage_account":                          true,
	"azurerm_storage_container":                        true,
	"azurerm_storage_blob":                             true,
	"azurerm_storage_share":                            true,
	"azurerm_storage_queue":                            true,
	"azurerm_storage_table":                            true,
	"azurerm_log_analytics_workspace":                  true,
	"azurerm_log_analytics_solution":                   true,
	"azurerm_application_insights":                     true,
	"azurerm_monitor_diagnostic_setting":               true,
	"azurerm_monitor_action_group":                     true,
	"azurerm_monitor_metric_alert":                     true,
	"azurerm_monitor_activity_log_alert":               true,
	"azurerm_monitor_scheduled_query_rules_alert_v2":   true,
	"azurerm_monitor_data_collection_rule":             true,
	"azurerm_monitor_data_collection_rule_association": true,
	"azurerm_network_watcher_flow_log":                 true,
	"azurerm_key_vault_secret":                         true,
	"azurerm_key_vault_key":                            true,
	"azurerm_key_vault_certificate":                    true,
	"azurerm_consumption_budget_resource_group":        true,
	"azurerm_consumption_budget_subscription":          true,
	"azurerm_portal_dashboard":                         true,
}

// offPath reports whether a change is off the pull path: an off-path
// type, or a resource group that is only updated (its tags; deleting one
// deletes everything in it and is not off the path).
func offPath(ch *change) bool {
	if offPathTypes[ch.rc.Type] {
		return true
	}
	if ch.rc.Type == "azurerm_resource_group" {
		acts := ch.rc.Change.Actions
		return acts.Update() || acts.Create()
	}
	return false
}
