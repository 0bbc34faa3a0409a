package planned

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The registry, the cluster and its pools, and role assignments
// (internal/gather convert_cluster.go reads these members).

const (
	typeRegistry    = "Microsoft.ContainerRegistry/registries"
	typeReplication = "Microsoft.ContainerRegistry/registries/replications"
	typeCluster     = "Microsoft.ContainerService/managedClusters"
	typeAgentPool   = "Microsoft.ContainerService/managedClusters/agentPools"
	typeRoleAssign  = "Microsoft.Authorization/roleAssignments"
)

func putRegistry(t *changeTranslation, id string) error {
	b := base(id, typeRegistry, t, true)
	kind := OpPut
	if t.ch.rc.Change.Actions.Update() {
		// An update keeps what Azure sets beside the registry's own
		// arguments (private endpoint connections).
		kind = OpPatch
	}
	op := t.op(kind, id, b)
	sku := firstNonEmpty(t.get("sku").str(), "Standard")
	b["sku"] = map[string]any{"name": sku, "tier": sku}
	p := props(b)
	name := strings.ToLower(lastName(id))
	suffix := t.c.opts.cloud().RegistrySuffix
	p["loginServer"] = name + "." + suffix
	admin, _ := t.get("admin_enabled").boolp()
	p["adminUserEnabled"] = admin
	public := true
	if v, ok := t.get("public_network_access_enabled").boolp(); ok {
		public = v
	} else if t.get("public_network_access_enabled").unknown() {
		op.Unknown = append(op.Unknown, "properties.publicNetworkAccess")
	}
	p["publicNetworkAccess"] = enabled(public)
	p["networkRuleBypassOptions"] = firstNonEmpty(t.get("network_rule_bypass_option").str(), "AzureServices")
	anon, _ := t.get("anonymous_pull_enabled").boolp()
	p["anonymousPullEnabled"] = anon
	data, _ := t.get("data_endpoint_enabled").boolp()
	p["dataEndpointEnabled"] = data
	nrs := map[string]any{"defaultAction": "Allow", "ipRules": []any{}}
	if r := t.get("network_rule_set"); len(r.list()) > 0 {
		rs := r.first()
		nrs["defaultAction"] = firstNonEmpty(rs.at("default_action").str(), "Allow")
		rules := []any{}
		for _, ir := range rs.at("ip_rule").list() {
			rules = append(rules, map[string]any{"action": firstNonEmpty(ir.at("action").str(), "Allow"), "value": ir.at("ip_range").str()})
		}
		nrs["ipRules"] = rules
		if rs.anyUnknown() {
			op.Unknown = append(op.Unknown, "properties.networkRuleSet")
		}
	} else if r.unknown() {
		op.Unknown = append(op.Unknown, "properties.networkRuleSet")
	}
	if sku == "Premium" {
		p["networkRuleSet"] = nrs
	}
	// Data endpoints: one host per region, the home region and every
	// replica.
	regions := []string{normLocation(t.get("location").str())}
	for _, g := range t.get("georeplications").list() {
		regions = append(regions, normLocation(g.at("location").str()))
	}
	if data {
		hosts := []any{}
		for _, r := range regions {
			hosts = append(hosts, name+"."+r+".data."+suffix)
		}
		p["dataEndpointHostNames"] = hosts
	}
	if kind == OpPut {
		p["privateEndpointConnections"] = []any{}
	}
	if t.argSet("georeplications") {
		seen := map[string]bool{}
		for _, g := range t.get("georeplications").list() {
			loc := normLocation(g.at("location").str())
			if loc == "" {
				return fmt.Errorf("a georeplications block has no location")
			}
			seen[loc] = true
			replicationOp(t, id+"/replications/"+loc, g)
		}
		for _, g := range t.ch.before.at("georeplications").list() {
			if loc := normLocation(g.at("location").str()); loc != "" && !seen[loc] {
				t.op(OpDelete, id+"/replications/"+loc, nil)
			}
		}
	}
	return nil
}

// replicationOp puts a registry replica (a georeplications block or an
// azurerm_container_registry_replication).
func replicationOp(t *changeTranslation, id string, g val) {
	b := map[string]any{"id": id, "name": lastName(id), "type": typeReplication,
		"location": normLocation(g.at("location").str()), "properties": map[string]any{}}
	op := t.op(OpPut, id, b)
	p := props(b)
	regional := true
	if v, ok := g.at("regional_endpoint_enabled").boolp(); ok {
		regional = v
	} else if g.at("regional_endpoint_enabled").unknown() {
		op.Unknown = append(op.Unknown, "properties.regionEndpointEnabled")
	}
	p["regionEndpointEnabled"] = regional
	zr, _ := g.at("zone_redundancy_enabled").boolp()
	p["zoneRedundancy"] = enabled(zr)
	p["provisioningState"] = "Succeeded"
}

func putCluster(t *changeTranslation, id string) error {
	b := base(id, typeCluster, t, true)
	op := t.op(OpPut, id, b)
	p := props(b)
	if s := t.get("node_resource_group").str(); s != "" {
		p["nodeResourceGroup"] = s
	} else {
		// AKS's default name for the node resource group.
		p["nodeResourceGroup"] = "MC_" + t.get("resource_group_name").str() + "_" + lastName(id) + "_" + normLocation(t.get("location").str())
	}
	np := t.get("network_profile").first()
	netp := map[string]any{"outboundType": firstNonEmpty(np.at("outbound_type").str(), "loadBalancer")}
	if s := np.at("network_plugin").str(); s != "" {
		netp["networkPlugin"] = s
	}
	if np.at("outbound_type").unknown() {
		op.Unknown = append(op.Unknown, "properties.networkProfile.outboundType")
	}
	p["networkProfile"] = netp
	// The identity nodes pull with.
	ki := t.get("kubelet_identity").first()
	kid := map[string]any{}
	for _, f := range []struct{ attr, member string }{{"client_id", "clientId"}, {"object_id", "objectId"}, {"user_assigned_identity_id", "resourceId"}} {
		if s := ki.at(f.attr).str(); s != "" {
			kid[f.member] = s
		} else if ki.at(f.attr).unknown() || t.get("kubelet_identity").unknown() {
			op.Unknown = append(op.Unknown, "properties.identityProfile.kubeletidentity."+f.member)
		}
	}
	p["identityProfile"] = map[string]any{"kubeletidentity": kid}
	// agentPoolProfiles holds the default pool; the pools of
	// azurerm_kubernetes_cluster_node_pool resources are agentPools
	// children of their own.
	dp := t.get("default_node_pool").first()
	name := dp.at("name").str()
	if name == "" {
		return fmt.Errorf("its default_node_pool has no name")
	}
	profile := agentPoolProps(t.sub("default_node_pool", 0), op, "properties.agentPoolProfiles[0].", "System")
	profile["name"] = name
	p["agentPoolProfiles"] = []any{profile}
	agentPoolOp(t, t.sub("default_node_pool", 0), id+"/agentPools/"+name, "System")
	return nil
}

// agentPoolProps are the members of a pool (default_node_pool or an
// azurerm_kubernetes_cluster_node_pool) the pull path reads.
func agentPoolProps(vt *changeTranslation, op *Op, prefix string, mode string) map[string]any {
	v := vt.cur
	p := map[string]any{"mode": firstNonEmpty(v.at("mode").str(), mode), "osType": firstNonEmpty(v.at("os_type").str(), "Linux")}
	typ := "VirtualMachineScaleSets"
	if v.at("type").str() == "AvailabilitySet" {
		typ = "AvailabilitySet"
	}
	p["type"] = typ
	if n, ok := v.at("node_count").num(); ok {
		p["count"] = n
	}
	if sid, ok := vt.refID("vnet_subnet_id"); ok {
		p["vnetSubnetID"] = sid
	} else if v.at("vnet_subnet_id").unknown() {
		op.Unknown = append(op.Unknown, prefix+"vnetSubnetID")
	}
	pub, known, unknown := false, false, false
	for _, a := range []string{"node_public_ip_enabled", "enable_node_public_ip"} {
		if b, ok := v.at(a).boolp(); ok {
			pub, known = b, true
		} else if v.at(a).unknown() {
			unknown = true
		}
	}
	p["enableNodePublicIP"] = pub
	if unknown && !known {
		// Whether the nodes get public IPs of their own decides the
		// addresses they leave through.
		op.Unknown = append(op.Unknown, prefix+"enableNodePublicIP")
	}
	if s := v.at("node_public_ip_prefix_id").str(); s != "" {
		p["nodePublicIPPrefixID"] = s
	} else if v.at("node_public_ip_prefix_id").unknown() {
		op.Unknown = append(op.Unknown, prefix+"nodePublicIPPrefixID")
	}
	return p
}

// agentPoolOp puts an agent pool child of a cluster.
func agentPoolOp(t, vt *changeTranslation, id string, mode string) {
	b := map[string]any{"id": id, "name": lastName(id), "type": typeAgentPool}
	op := t.op(OpPut, id, b)
	b["properties"] = agentPoolProps(vt, op, "properties.", mode)
}

// roleAssignmentID is scope/providers/Microsoft.Authorization/roleAssignments/name.
// A name Azure chooses at apply does not matter to verification: a stable
// stand-in derived from the address is used.
func roleAssignmentID(t *changeTranslation) (string, error) {
	scope, err := t.requiredRef("scope")
	if err != nil {
		return "", err
	}
	name := t.get("name").str()
	if name == "" {
		sum := sha256.Sum256([]byte(t.ch.rc.Address))
		name = fmt.Sprintf("%x-%x-%x-%x-%x", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16])
	}
	return strings.TrimRight(scope, "/") + "/providers/Microsoft.Authorization/roleAssignments/" + name, nil
}

func putRoleAssignment(t *changeTranslation, id string) error {
	b := map[string]any{"id": id, "name": lastName(id), "type": typeRoleAssign, "properties": map[string]any{}}
	op := t.op(OpPut, id, b)
	p := props(b)
	scope, _ := t.refID("scope")
	p["scope"] = scope
	sub := subRe.FindStringSubmatch(scope)
	if rd, ok := t.refID("role_definition_id"); ok && rd != "" {
		p["roleDefinitionId"] = rd
	} else if guid := builtinRoleGUID(t.get("role_definition_name").str()); guid != "" {
		prefix := ""
		if sub != nil {
			prefix = "/subscriptions/" + sub[1]
		}
		p["roleDefinitionId"] = prefix + "/providers/Microsoft.Authorization/roleDefinitions/" + guid
	} else {
		op.Unknown = append(op.Unknown, "properties.roleDefinitionId")
	}
	if s := t.get("principal_id").str(); s != "" {
		p["principalId"] = s
	} else {
		op.Unknown = append(op.Unknown, "properties.principalId")
	}
	if s := t.get("principal_type").str(); s != "" {
		p["principalType"] = s
	}
	if s := t.get("condition").str(); s != "" {
		p["condition"] = s
		p["conditionVersion"] = firstNonEmpty(t.get("condition_version").str(), "2.0")
	} else if t.get("condition").unknown() {
		op.Unknown = append(op.Unknown, "properties.condition")
	}
	return nil
}

// builtinRoleGUID is the definition GUID of a built-in role by name, for
// the roles verification knows (model.BuiltinRoles).
func builtinRoleGUID(name string) string {
	if name == "" {
		return ""
	}
	for guid, rd := range model.BuiltinRoles {
		if strings.EqualFold(rd.RoleName, name) {
			return guid
		}
	}
	return ""
}

func putReplication(t *changeTranslation, id string) error {
	replicationOp(t, id, t.cur)
	return nil
}

func putNodePool(t *changeTranslation, id string) error {
	agentPoolOp(t, t, id, "User")
	return nil
}
