// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerregistry/armcontainerregistry/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// The open world (docs/design/open-world.md): every property of the SDK
// models of the resources below is classified as evaluated, irrelevant to
// a node's image pull (with the reason), or able to change a pull and not
// evaluated. A property of the last kind present with a value other than
// its default becomes a model.UnmodelledSetting of the resource, which
// verification reports as COVERAGE_FEATURE_UNMODELLED on every path
// through it. TestOpenWorldClassifiesEveryProperty walks the SDK structs
// by reflection and fails on a property the table does not classify, so
// an SDK upgrade that adds one forces a decision.

// Classification of a property.
type Classification string

// Classifications.
const (
	// Evaluated: a rule of the engine reads it.
	Evaluated Classification = "evaluated"
	// Irrelevant: it cannot change whether a node pulls an image.
	Irrelevant Classification = "irrelevant"
	// Unmodelled: it can change a pull and is not evaluated.
	Unmodelled Classification = "unmodelled"
)

// propertyClass is the classification of one property of an SDK struct.
type propertyClass struct {
	Class Classification
	// Why: for Irrelevant, why it cannot change a pull; for Evaluated,
	// what reads it; for Unmodelled, what it can change.
	Why string
	// Descend: the property is a struct (or pointer, slice or map of one)
	// whose own properties are classified one by one.
	Descend bool
	// Active says, for an Unmodelled property, whether its value is not
	// the default, and the value in words.
	Active func(v reflect.Value) (string, bool)
}

func ev(why string) propertyClass { return propertyClass{Class: Evaluated, Why: why} }
func evIn(why string) propertyClass {
	return propertyClass{Class: Evaluated, Why: why, Descend: true}
}
func irr(why string) propertyClass { return propertyClass{Class: Irrelevant, Why: why} }
func unm(why string, active func(reflect.Value) (string, bool)) propertyClass {
	return propertyClass{Class: Unmodelled, Why: why, Active: active}
}

// Reasons shared by many properties.
const (
	whyMeta       = "resource metadata (id, name, type, location, tags, etag, system data): no effect on traffic"
	whyState      = "reports the last management operation's state, not the data path"
	whyControl    = "concerns the Kubernetes control plane or cluster management, not the node's connection to the registry"
	whyPodOnly    = "applies to pods, not to the node: containerd pulls images in the node's own network namespace, outside pod networking and pod policies"
	whyScheduling = "decides when and where nodes run, not how a node reaches the registry"
	whyAtRest     = "protects data at rest or the node's disks, not traffic"
)

// present: a non-nil pointer, a non-empty slice or map, with its value.
func present(v reflect.Value) (string, bool) {
	if !v.IsValid() {
		return "", false
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "", false
		}
	case reflect.Slice, reflect.Map:
		if v.Len() == 0 {
			return "", false
		}
	}
	return valueWords(v), true
}

// notString: a string (or string enum) other than def, case-insensitive;
// absent is the default.
func notString(def string) func(reflect.Value) (string, bool) {
	return func(v reflect.Value) (string, bool) {
		v, ok := deref(v)
		if !ok || v.Kind() != reflect.String || strings.EqualFold(v.String(), def) || v.String() == "" {
			return "", false
		}
		return v.String(), true
	}
}

// isTrue: a bool set to true (false and absent are the default).
func isTrue(v reflect.Value) (string, bool) {
	v, ok := deref(v)
	if ok && v.Kind() == reflect.Bool && v.Bool() {
		return "true", true
	}
	return "", false
}

// field reads a named field of the struct v points to ("" when absent).
func field(v reflect.Value, name string) reflect.Value {
	v, ok := deref(v)
	if !ok || v.Kind() != reflect.Struct {
		return reflect.Value{}
	}
	return v.FieldByName(name)
}

// valueWords renders a value as JSON, as Resource Manager shows it.
func valueWords(v reflect.Value) string {
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return fmt.Sprint(v.Interface())
	}
	return string(b)
}

// openWorld is the table: SDK struct type → property → classification.
var openWorld = map[reflect.Type]map[string]propertyClass{
	reflect.TypeOf(armcontainerservice.ManagedCluster{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta),
		"ETag": irr(whyMeta), "SystemData": irr(whyMeta),
		"ExtendedLocation": irr("an edge zone places the cluster; its network is the VNets read"),
		"Identity":         irr("the control plane's identity; nodes pull with the kubelet identity (identityProfile)"),
		"Kind":             irr(whyMeta),
		"SKU":              irr("the control plane's tier (Free, Standard, Premium)"),
		"Properties":       evIn("the cluster's settings, below"),
	},
	reflect.TypeOf(armcontainerservice.ManagedClusterProperties{}): {
		"AADProfile":                 irr(whyControl),
		"APIServerAccessProfile":     irr(whyControl),
		"AddonProfiles":              irr("add-ons run as pods; a node's image pull does not pass through them"),
		"AgentPoolProfiles":          ev("the node pools (read again as agent pools: their subnets, types, counts, public IPs)"),
		"AiToolchainOperatorProfile": irr(whyControl),
		"AutoScalerProfile":          irr(whyScheduling),
		"AutoUpgradeProfile":         irr(whyControl),
		"AzureMonitorProfile":        irr(whyControl),
		"BootstrapProfile": unm("artifactSource Cache makes nodes bootstrap from a private registry of the cluster's instead of Microsoft Artifact Registry, a path the provider does not follow",
			func(v reflect.Value) (string, bool) {
				return notString(string(armcontainerservice.ArtifactSourceDirect))(field(v, "ArtifactSource"))
			}),
		"DNSPrefix":            irr(whyControl),
		"DisableLocalAccounts": irr(whyControl),
		"DiskEncryptionSetID":  irr(whyAtRest),
		"EnableRBAC":           irr(whyControl),
		"FqdnSubdomain":        irr(whyControl),
		"HTTPProxyConfig":      ev("the cluster's HTTP proxy (verify/proxy.go)"),
		"IdentityProfile":      ev("the kubelet identity, whose pull role is checked"),
		"IngressProfile":       irr("inbound HTTP routing to workloads"),
		"KubernetesVersion":    irr(whyControl),
		"LinuxProfile":         irr("SSH access to the nodes"),
		"MetricsProfile":       irr(whyControl),
		"NetworkProfile":       evIn("the cluster's network settings, below"),
		"NodeProvisioningProfile": unm("node auto-provisioning (mode Auto) creates nodes outside the agent pools read, with subnets and settings of its own", func(v reflect.Value) (string, bool) {
			return notString(string(armcontainerservice.NodeProvisioningModeManual))(field(v, "Mode"))
		}),
		"NodeResourceGroup":         ev("where the pools' scale sets and NICs are read"),
		"NodeResourceGroupProfile":  irr("who may change the node resource group, not its network"),
		"OidcIssuerProfile":         irr(whyControl),
		"PodIdentityProfile":        irr(whyPodOnly),
		"PrivateLinkResources":      irr("the API server's private link, not the registry's"),
		"PublicNetworkAccess":       irr("the API server's public access, not the nodes'"),
		"SecurityProfile":           ev("customCATrustCertificates, for TLS inspection (its other members: Defender, image cleaner, workload identity, key management, which do not touch the pull)"),
		"ServiceMeshProfile":        irr(whyPodOnly),
		"ServicePrincipalProfile":   ev("the pull identity of a cluster with a service principal"),
		"Status":                    irr(whyState),
		"StorageProfile":            irr("CSI drivers and snapshots for workloads' volumes"),
		"SupportPlan":               irr(whyControl),
		"UpgradeSettings":           irr(whyControl),
		"WindowsProfile":            irr("Windows node administrator account"),
		"WorkloadAutoScalerProfile": irr(whyScheduling),
		"AzurePortalFQDN":           irr(whyControl),
		"CurrentKubernetesVersion":  irr(whyControl),
		"Fqdn":                      irr(whyControl),
		"MaxAgentPools":             irr(whyControl),
		"PowerState":                irr("a stopped cluster's nodes start again with the same network"),
		"PrivateFQDN":               irr(whyControl),
		"ProvisioningState":         irr(whyState),
		"ResourceUID":               irr(whyMeta),
	},
	reflect.TypeOf(armcontainerservice.NetworkProfile{}): {
		"AdvancedNetworking":         irr("Advanced Container Networking Services (Cilium FQDN filtering, observability) " + whyPodOnly),
		"DNSServiceIP":               irr("the cluster DNS service address for pods; the node resolves through its NIC's DNS servers"),
		"IPFamilies":                 irr("pod and service address families; the nodes' addresses are read from their NICs"),
		"LoadBalancerProfile":        ev("the load balancer's effective outbound IPs (the nodes' public addresses)"),
		"LoadBalancerSKU":            irr("Standard is the only SKU AKS creates outbound rules on; the outbound IPs are read"),
		"NatGatewayProfile":          ev("the managed NAT gateway's effective outbound IPs"),
		"NetworkDataplane":           irr(whyPodOnly),
		"NetworkMode":                irr(whyPodOnly),
		"NetworkPlugin":              irr(whyPodOnly),
		"NetworkPluginMode":          irr(whyPodOnly),
		"NetworkPolicy":              irr("Kubernetes and Cilium network policies " + whyPodOnly),
		"OutboundType":               ev("how the nodes leave for public addresses (E3)"),
		"PodCidr":                    irr(whyPodOnly),
		"PodCidrs":                   irr(whyPodOnly),
		"ServiceCidr":                irr(whyPodOnly),
		"ServiceCidrs":               irr(whyPodOnly),
		"StaticEgressGatewayProfile": irr("the static egress gateway carries pods' traffic; " + whyPodOnly),
	},
	reflect.TypeOf(armcontainerservice.AgentPool{}): {
		"ID": irr(whyMeta), "Name": ev("the pool's name"), "Type": irr(whyMeta),
		"Properties": evIn("the pool's settings, below"),
	},
	reflect.TypeOf(armcontainerservice.ManagedClusterAgentPoolProfileProperties{}): {
		"AvailabilityZones":          irr("zones place the nodes; routes, DNS and the registry's endpoints are regional"),
		"CapacityReservationGroupID": irr(whyScheduling),
		"Count":                      ev("whether the pool has nodes (routes computed for a pool at zero)"),
		"CreationData":               irr("the node image snapshot the nodes start from"),
		"EnableAutoScaling":          irr(whyScheduling),
		"EnableEncryptionAtHost":     irr(whyAtRest),
		"EnableFIPS":                 unm("FIPS-enabled nodes restrict the TLS cipher suites and modules containerd may use with the registry, which the provider does not compare", isTrue),
		"EnableNodePublicIP":         ev("the nodes' own public IPs on the way out"),
		"EnableUltraSSD":             irr(whyAtRest),
		"GatewayProfile":             irr("gateway pools carry pods' static egress; " + whyPodOnly),
		"GpuInstanceProfile":         irr(whyScheduling),
		"GpuProfile":                 irr(whyScheduling),
		"HostGroupID":                irr(whyScheduling),
		"KubeletConfig":              irr("kubelet limits and garbage collection, not the pull's network path"),
		"KubeletDiskType":            irr(whyAtRest),
		"LinuxOSConfig":              unm("node sysctls (net.*) and OS settings can change the node's network stack", present),
		"LocalDNSProfile": unm("LocalDNS answers the node's DNS queries on the node itself with its own forwarding overrides, before the DNS servers the provider follows",
			func(v reflect.Value) (string, bool) {
				if v.Kind() == reflect.Pointer && v.IsNil() {
					return "", false
				}
				mode, ok := notString(string(armcontainerservice.LocalDNSModeDisabled))(field(v, "Mode"))
				if !ok {
					return "", false
				}
				return "mode " + mode, true
			}),
		"MaxCount":                   irr(whyScheduling),
		"MaxPods":                    irr(whyScheduling),
		"MessageOfTheDay":            irr("a login banner"),
		"MinCount":                   irr(whyScheduling),
		"Mode":                       ev("System or User, for messages"),
		"NetworkProfile":             unm("application security groups on the nodes and node public IP tags change which security rules and registry IP rules apply to them", agentPoolNetworkActive),
		"NodeLabels":                 irr(whyScheduling),
		"NodePublicIPPrefixID":       ev("the prefix the nodes' public IPs come from"),
		"NodeTaints":                 irr(whyScheduling),
		"OSDiskSizeGB":               irr(whyAtRest),
		"OSDiskType":                 irr(whyAtRest),
		"OSSKU":                      irr("the node image's distribution; containerd's proxy and TLS behaviour is the same"),
		"OSType":                     ev("Linux or Windows"),
		"OrchestratorVersion":        irr(whyControl),
		"PodIPAllocationMode":        irr(whyPodOnly),
		"PodSubnetID":                irr("pods' addresses come from it; the node pulls from its own NIC in vnetSubnetID"),
		"PowerState":                 irr("a stopped pool's nodes start again with the same network"),
		"ProximityPlacementGroupID":  irr(whyScheduling),
		"ScaleDownMode":              irr(whyScheduling),
		"ScaleSetEvictionPolicy":     irr(whyScheduling),
		"ScaleSetPriority":           irr(whyScheduling),
		"SecurityProfile":            irr("SSH access, secure boot and vTPM of the nodes"),
		"SpotMaxPrice":               irr(whyScheduling),
		"Status":                     irr(whyState),
		"Tags":                       irr(whyMeta),
		"Type":                       ev("VirtualMachineScaleSets or VirtualMachines, how the nodes are found"),
		"UpgradeSettings":            irr(whyControl),
		"VMSize":                     irr(whyScheduling),
		"VirtualMachineNodesStatus":  irr(whyState),
		"VirtualMachinesProfile":     irr(whyScheduling),
		"VnetSubnetID":               ev("the node subnet every path starts from"),
		"WindowsProfile":             unm("disableOutboundNat changes how Windows nodes leave for public addresses", func(v reflect.Value) (string, bool) { return isTrue(field(v, "DisableOutboundNat")) }),
		"WorkloadRuntime":            irr("the runtime of pods (Kata, WASM), not containerd's pull"),
		"CurrentOrchestratorVersion": irr(whyControl),
		"ETag":                       irr(whyMeta),
		"NodeImageVersion":           irr("the node image version; containerd's proxy and TLS behaviour is the same"),
		"ProvisioningState":          irr(whyState),
	},
	reflect.TypeOf(armnetwork.VirtualNetwork{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta), "Etag": irr(whyMeta),
		"ExtendedLocation": irr("an edge zone places the VNet; its routes are read"),
		"Properties":       evIn("the VNet's settings, below"),
	},
	reflect.TypeOf(armnetwork.VirtualNetworkPropertiesFormat{}): {
		"AddressSpace":         ev("the VNet's prefixes (routes, VirtualNetwork tag, which VNet holds an address)"),
		"BgpCommunities":       irr("labels for routes advertised over ExpressRoute; the routes themselves are read"),
		"DdosProtectionPlan":   irr("DDoS protection of public IPs against attacks, not a filter on a node's outbound flow"),
		"DhcpOptions":          ev("the VNet's DNS servers"),
		"EnableDdosProtection": irr("DDoS protection of public IPs against attacks, not a filter on a node's outbound flow"),
		"EnableVMProtection":   irr("deprecated; no effect on traffic"),
		"Encryption": unm("virtual network encryption with enforcement DropUnencrypted drops traffic of VMs that do not support encryption",
			func(v reflect.Value) (string, bool) {
				if _, on := isTrue(field(v, "Enabled")); !on {
					return "", false
				}
				enf, ok := notString(string(armnetwork.VirtualNetworkEncryptionEnforcementAllowUnencrypted))(field(v, "Enforcement"))
				if !ok {
					return "", false
				}
				return "enabled, enforcement " + enf, true
			}),
		"FlowTimeoutInMinutes":        irr("idle timeout of flows, longer than a pull's connection setup"),
		"IPAllocations":               irr("address reservations, not routing"),
		"PrivateEndpointVNetPolicies": unm("private endpoint VNet policies change how private endpoints in the VNet are routed and filtered", notString(string(armnetwork.PrivateEndpointVNetPoliciesDisabled))),
		"Subnets":                     ev("the subnets (read one by one as subnets, below)"),
		"VirtualNetworkPeerings":      ev("peerings (R4)"),
		"DefaultPublicNatGateway":     unm("a NAT gateway the VNet's subnets use by default changes the way out and the public address", present),
		"FlowLogs":                    irr("observes flows without changing them"),
		"ProvisioningState":           irr(whyState),
		"ResourceGUID":                irr(whyMeta),
	},
	reflect.TypeOf(armnetwork.Subnet{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Etag": irr(whyMeta),
		"Properties": evIn("the subnet's settings, below"),
	},
	reflect.TypeOf(armnetwork.SubnetPropertiesFormat{}): {
		"AddressPrefix":                      ev("the subnet's prefix"),
		"AddressPrefixes":                    ev("the subnet's prefixes"),
		"ApplicationGatewayIPConfigurations": irr("an application gateway's frontends, inbound only"),
		"DefaultOutboundAccess":              ev("whether the subnet is private (E3)"),
		"Delegations":                        irr("which service may create resources in the subnet, not its traffic"),
		"IPAllocations":                      irr("address reservations, not routing"),
		"IpamPoolPrefixAllocations":          irr("address management, not routing"),
		"NatGateway":                         ev("the NAT gateway on the way out (E3)"),
		"NetworkSecurityGroup":               ev("the subnet's security group (N1)"),
		"PrivateEndpointNetworkPolicies":     ev("whether route tables and security groups apply to private endpoints (R6, N1)"),
		"PrivateLinkServiceNetworkPolicies":  irr("private link services in the subnet, not the registry's private endpoint"),
		"RouteTable":                         ev("the subnet's route table (R1)"),
		"ServiceEndpointPolicies":            unm("service endpoint policies limit which storage accounts a service endpoint reaches, which a registry's storage may not be among", present),
		"ServiceEndpoints":                   ev("service endpoint routes (R13)"),
		"ServiceGateway":                     unm("a service gateway on the subnet changes how its traffic to Azure services leaves", present),
		"SharingScope":                       irr("who may use the subnet, not its traffic"),
		"IPConfigurationProfiles":            irr("container network interface profiles, not the nodes' NICs"),
		"IPConfigurations":                   ev("which network interface holds an address"),
		"PrivateEndpoints":                   irr("listed again; private endpoints are read as resources"),
		"ProvisioningState":                  irr(whyState),
		"Purpose":                            irr(whyMeta),
		"ResourceNavigationLinks":            irr("links to services using the subnet, not its traffic"),
		"ServiceAssociationLinks":            irr("links to services using the subnet, not its traffic"),
	},
	reflect.TypeOf(armnetwork.AzureFirewall{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": irr(whyMeta), "Tags": irr(whyMeta), "Etag": irr(whyMeta),
		"ExtendedLocation": irr("an edge zone places the firewall"),
		"Zones":            irr("availability zones of the firewall's instances"),
		"Properties":       evIn("the firewall's settings, below"),
	},
	reflect.TypeOf(armnetwork.AzureFirewallPropertiesFormat{}): {
		"AdditionalProperties":       ev("classic SNAT private ranges, auto-learned ranges and the DNS proxy (F6, F8); other keys are not read"),
		"ApplicationRuleCollections": ev("classic application rules (F1)"),
		"AutoscaleConfiguration":     irr("how many instances run, not what they allow"),
		"FirewallPolicy":             ev("the firewall policy (F1)"),
		"HubIPAddresses":             ev("a hub firewall's addresses"),
		"IPConfigurations":           ev("the firewall's private and public addresses"),
		"ManagementIPConfiguration":  irr("the firewall's own management traffic, not the flows it filters"),
		"NatRuleCollections":         irr("DNAT of inbound flows; a pull is outbound"),
		"NetworkRuleCollections":     ev("classic network rules (F1)"),
		"SKU":                        ev("the tier (Premium for TLS inspection)"),
		"ThreatIntelMode":            irr("alerts on or denies only addresses and domains of Microsoft's threat intelligence feed of malicious sites"),
		"VirtualHub":                 ev("the hub of a secured virtual hub"),
		"IPGroups":                   ev("IP groups the rules name"),
		"ProvisioningState":          irr(whyState),
	},
	reflect.TypeOf(armcontainerregistry.Registry{}): {
		"ID": irr(whyMeta), "Name": irr(whyMeta), "Type": irr(whyMeta), "Location": ev("the home region (data endpoints)"), "Tags": irr(whyMeta), "SystemData": irr(whyMeta),
		"SKU":        irr("the tier; what it allows (private endpoints, data endpoints) is read from them"),
		"Identity":   irr("the registry's own identity (encryption keys, tasks), not the client's"),
		"Properties": evIn("the registry's settings, below"),
	},
	reflect.TypeOf(armcontainerregistry.RegistryProperties{}): {
		"AdminUserEnabled":                  irr("a credential other than the node's identity; pull_credentials says which the nodes use"),
		"AnonymousPullEnabled":              ev("pulls without credentials"),
		"AutoGeneratedDomainNameLabelScope": irr("decides the login server's name, which is read (loginServer)"),
		"DataEndpointEnabled":               ev("dedicated data endpoints (A2)"),
		"Encryption":                        irr(whyAtRest),
		"NetworkRuleBypassAllowedForTasks":  irr("ACR Tasks' access, not the nodes'"),
		"NetworkRuleBypassOptions":          irr("trusted Azure services' access, not the nodes'"),
		"NetworkRuleSet":                    ev("IP rules (A5)"),
		"Policies": unm("a quarantine policy refuses pulls of images not yet marked verified",
			func(v reflect.Value) (string, bool) {
				st, ok := notString(string(armcontainerregistry.PolicyStatusDisabled))(field(field(v, "QuarantinePolicy"), "Status"))
				if !ok {
					return "", false
				}
				return "quarantinePolicy " + st, true
			}),
		"PublicNetworkAccess":        ev("public network access (A5)"),
		"RoleAssignmentMode":         ev("ABAC repository permissions (A6)"),
		"ZoneRedundancy":             irr("replicas across zones, same endpoints"),
		"CreationDate":               irr(whyMeta),
		"DataEndpointHostNames":      ev("the data endpoints' names (A2)"),
		"LoginServer":                ev("the login server's name (A1)"),
		"PrivateEndpointConnections": ev("private endpoint connections and their approval (A3, A4)"),
		"ProvisioningState":          irr(whyState),
		"Status":                     irr(whyState),
	},
}

func init() {
	// A pool as the cluster's agentPoolProfiles give it: the same
	// properties as an agent pool's, and its name.
	profile := map[string]propertyClass{"Name": ev("the pool's name")}
	for name, c := range openWorld[reflect.TypeOf(armcontainerservice.ManagedClusterAgentPoolProfileProperties{})] {
		profile[name] = c
	}
	openWorld[reflect.TypeOf(armcontainerservice.ManagedClusterAgentPoolProfile{})] = profile
}

// agentPoolNetworkActive: application security groups or public IP tags
// set on the pool's nodes (allowed host ports concern inbound traffic).
func agentPoolNetworkActive(v reflect.Value) (string, bool) {
	var parts []string
	if s, ok := present(field(v, "ApplicationSecurityGroups")); ok {
		parts = append(parts, "applicationSecurityGroups "+s)
	}
	if s, ok := present(field(v, "NodePublicIPTags")); ok {
		parts = append(parts, "nodePublicIPTags "+s)
	}
	return strings.Join(parts, "; "), len(parts) > 0
}

// unmodelledOf walks an SDK resource by the table and returns its
// unmodelled settings present with a non-default value, in property
// order, attributed to id.
func unmodelledOf(id model.ResourceID, resource any) []model.UnmodelledSetting {
	var out []model.UnmodelledSetting
	walkUnmodelled(id, reflect.ValueOf(resource), "", &out)
	return out
}

func walkUnmodelled(id model.ResourceID, v reflect.Value, path string, out *[]model.UnmodelledSetting) {
	v, ok := deref(v)
	if !ok {
		return
	}
	if v.Kind() == reflect.Slice {
		// A list of structs classified one by one: each element.
		for i := 0; i < v.Len(); i++ {
			walkUnmodelled(id, v.Index(i), fmt.Sprintf("%s[%d]", path, i), out)
		}
		return
	}
	table, ok := openWorld[v.Type()]
	if !ok || v.Kind() != reflect.Struct {
		return
	}
	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		c := table[name]
		fv := v.FieldByName(name)
		if !fv.IsValid() {
			continue
		}
		prop := propertyName(v.Type(), name)
		if path != "" {
			prop = path + "." + prop
		}
		switch {
		case c.Descend:
			walkUnmodelled(id, fv, prop, out)
		case c.Class == Unmodelled && c.Active != nil:
			if val, on := c.Active(fv); on {
				*out = append(*out, model.UnmodelledSetting{Resource: id, Property: prop, Value: val, Why: c.Why})
			}
		}
	}
}

// jsonName is the property's name as Resource Manager spells it: the
// SDK's Go name with a lower-case first letter (the SDK marshals by
// hand, so there are no struct tags to read).
func jsonName(_ reflect.Type, goName string) string {
	if n, ok := jsonNameExceptions[goName]; ok {
		return n
	}
	switch goName {
	case "ID":
		return "id"
	case "SKU":
		return "sku"
	case "ETag", "Etag":
		return "etag"
	}
	upper := 0
	for upper < len(goName) && goName[upper] >= 'A' && goName[upper] <= 'Z' {
		upper++
	}
	switch {
	case upper == 0:
		return goName
	case upper == 1 || upper == len(goName):
		return strings.ToLower(goName[:upper]) + goName[upper:]
	default:
		// An acronym: "HTTPProxyConfig" → "httpProxyConfig".
		return strings.ToLower(goName[:upper-1]) + goName[upper-1:]
	}
}

// deref is the value v holds behind its pointers, and whether it holds
// one (an invalid value or a nil pointer is absent).
func deref(v reflect.Value) (reflect.Value, bool) {
	if !v.IsValid() {
		return v, false
	}
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return v, false
		}
		v = v.Elem()
	}
	return v, true
}

// isFalse: a bool set to false (true and absent are the default).
func isFalse(v reflect.Value) (string, bool) {
	v, ok := deref(v)
	if ok && v.Kind() == reflect.Bool && !v.Bool() {
		return "false", true
	}
	return "", false
}
