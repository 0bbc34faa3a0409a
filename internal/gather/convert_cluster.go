package gather

import (
	"fmt"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/authorization/armauthorization/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/compute/armcompute/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerregistry/armcontainerregistry/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v8"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// AKS conventions the discovery relies on.
const (
	// tagPoolName is the tag AKS puts on a pool's scale set (and, for pools
	// of type VirtualMachines, on its VMs).
	tagPoolName = "aks-managed-poolName"
	// kubeletIdentityKey is the identityProfile entry of the kubelet.
	kubeletIdentityKey = "kubeletidentity"
	// Names of the VNet and subnet AKS creates in the node resource group
	// when a pool has no vnetSubnetID.
	managedVNetPrefix  = "aks-vnet-"
	managedSubnetName  = "aks-subnet"
	poolTypeVMSS       = "VirtualMachineScaleSets"
	poolTypeVMs        = "VirtualMachines"
	acrDataLabel       = "data"
	acrGeoLabel        = "geo"
	regionalEndpointOn = "Enabled"
)

// clusterFromSDK converts a managed cluster. Pools come from the cluster's
// agentPoolProfiles; Reader.Cluster replaces them with the agentPools list
// when it can read it.
func clusterFromSDK(mc *armcontainerservice.ManagedCluster) (*model.Cluster, error) {
	if mc == nil || mc.ID == nil {
		return nil, fmt.Errorf("managed cluster without id")
	}
	out := &model.Cluster{ID: rid(mc.ID), Name: str(mc.Name), Location: str(mc.Location)}
	out.Unmodelled = unmodelledOf(out.ID, mc)
	p := mc.Properties
	if p == nil {
		return out, nil
	}
	out.NodeResourceGroup = str(p.NodeResourceGroup)
	for k, ident := range p.IdentityProfile {
		if ident != nil && strings.EqualFold(k, kubeletIdentityKey) {
			out.Kubelet = model.Identity{ResourceID: rid(ident.ResourceID), ClientID: str(ident.ClientID), ObjectID: str(ident.ObjectID)}
		}
	}
	if out.Kubelet.ClientID == "" && p.ServicePrincipalProfile != nil {
		// A cluster with a service principal pulls as that principal;
		// its object id is not part of the cluster.
		if c := str(p.ServicePrincipalProfile.ClientID); !strings.EqualFold(c, "msi") {
			out.Kubelet.ClientID = c
		}
	}
	for _, ap := range p.AgentPoolProfiles {
		if ap == nil {
			continue
		}
		out.Pools = append(out.Pools, &model.NodePool{
			Name: str(ap.Name), Mode: str(ap.Mode), OSType: str(ap.OSType), Type: str(ap.Type),
			Count: i32(ap.Count), SubnetID: rid(ap.VnetSubnetID),
			NodePublicIP: boolv(ap.EnableNodePublicIP), NodePublicIPPrefixID: rid(ap.NodePublicIPPrefixID),
			Unmodelled: unmodelledOf(out.ID+model.ResourceID("/agentPools/"+str(ap.Name)), ap),
		})
	}
	out.Outbound = outboundFromSDK(p.NetworkProfile)
	out.CustomCATrustCertificates = customCATrustCount(p.SecurityProfile)
	out.HTTPProxy = httpProxyFromSDK(p.HTTPProxyConfig)
	return out, nil
}

// httpProxyFromSDK reads httpProxyConfig (the trusted CA's content is not
// kept, only that there is one). Nil when it sets no proxy.
func httpProxyFromSDK(c *armcontainerservice.ManagedClusterHTTPProxyConfig) *model.HTTPProxy {
	if c == nil {
		return nil
	}
	out := &model.HTTPProxy{HTTPProxy: str(c.HTTPProxy), HTTPSProxy: str(c.HTTPSProxy), TrustedCA: str(c.TrustedCa) != ""}
	for _, e := range c.NoProxy {
		if e != nil {
			out.NoProxy = append(out.NoProxy, *e)
		}
	}
	if !out.Active() {
		return nil
	}
	return out
}

// outboundFromSDK reads the outbound type and the public IPs AKS gave the
// cluster's load balancer and managed NAT gateway.
func outboundFromSDK(np *armcontainerservice.NetworkProfile) model.Outbound {
	var out model.Outbound
	if np == nil {
		return out
	}
	out.Type = str(np.OutboundType)
	if lb := np.LoadBalancerProfile; lb != nil {
		for _, ref := range lb.EffectiveOutboundIPs {
			if ref != nil {
				out.LoadBalancerIPIDs = appendUniqueID(out.LoadBalancerIPIDs, rid(ref.ID))
			}
		}
	}
	if nat := np.NatGatewayProfile; nat != nil {
		for _, ref := range nat.EffectiveOutboundIPs {
			if ref != nil {
				out.NATGatewayIPIDs = appendUniqueID(out.NATGatewayIPIDs, rid(ref.ID))
			}
		}
	}
	return out
}

// agentPoolFromSDK converts an agent pool of the agentPools list.
func agentPoolFromSDK(ap *armcontainerservice.AgentPool) *model.NodePool {
	out := &model.NodePool{Name: str(ap.Name)}
	out.Unmodelled = unmodelledOf(rid(ap.ID), ap)
	if p := ap.Properties; p != nil {
		out.Mode = str(p.Mode)
		out.OSType = str(p.OSType)
		out.Type = str(p.Type)
		out.Count = i32(p.Count)
		out.SubnetID = rid(p.VnetSubnetID)
		out.NodePublicIP = boolv(p.EnableNodePublicIP)
		out.NodePublicIPPrefixID = rid(p.NodePublicIPPrefixID)
	}
	if out.Type == "" {
		// The API's default pool type.
		out.Type = poolTypeVMSS
	}
	return out
}

// poolTag returns the aks-managed-poolName tag of a resource's tags (tag
// names are case-insensitive in Azure).
func poolTag(tags map[string]*string) string {
	for k, v := range tags {
		if strings.EqualFold(k, tagPoolName) {
			return str(v)
		}
	}
	return ""
}

// scaleSetNICConfig applies a pool's scale set NIC configuration (what new
// instances get: NIC-level DNS servers and NSG) to the pool.
func scaleSetNICConfig(pool *model.NodePool, ss *armcompute.VirtualMachineScaleSet) error {
	pool.ScaleSetID = rid(ss.ID)
	pool.Unmodelled = append(pool.Unmodelled, unmodelledOf(pool.ScaleSetID, ss)...)
	p := ss.Properties
	if p == nil || p.VirtualMachineProfile == nil || p.VirtualMachineProfile.NetworkProfile == nil {
		return nil
	}
	var primary *armcompute.VirtualMachineScaleSetNetworkConfigurationProperties
	for _, c := range p.VirtualMachineProfile.NetworkProfile.NetworkInterfaceConfigurations {
		if c == nil || c.Properties == nil {
			continue
		}
		if primary == nil || boolv(c.Properties.Primary) {
			primary = c.Properties
		}
	}
	if primary == nil {
		return nil
	}
	if primary.DNSSettings != nil {
		dns, err := addrs(pool.ScaleSetID, "properties.virtualMachineProfile.networkProfile.networkInterfaceConfigurations.properties.dnsSettings.dnsServers", primary.DNSSettings.DNSServers)
		if err != nil {
			return err
		}
		pool.DNSServers = dns
	}
	if primary.NetworkSecurityGroup != nil {
		pool.NSGID = rid(primary.NetworkSecurityGroup.ID)
	}
	return nil
}

// vmNICIDs returns the NIC ids of a VM's network profile.
func vmNICIDs(vm *armcompute.VirtualMachine) []model.ResourceID {
	if vm == nil || vm.Properties == nil || vm.Properties.NetworkProfile == nil {
		return nil
	}
	var out []model.ResourceID
	for _, n := range vm.Properties.NetworkProfile.NetworkInterfaces {
		if n != nil {
			out = appendUniqueID(out, rid(n.ID))
		}
	}
	return out
}

// registryFromSDK converts a container registry (without its replicas).
func registryFromSDK(r *armcontainerregistry.Registry) (*model.Registry, error) {
	if r == nil || r.ID == nil {
		return nil, fmt.Errorf("container registry without id")
	}
	out := &model.Registry{ID: rid(r.ID), Name: str(r.Name), Location: str(r.Location)}
	out.Unmodelled = unmodelledOf(out.ID, r)
	if r.SKU != nil {
		out.SKU = str(r.SKU.Name)
	}
	p := r.Properties
	if p == nil {
		return out, nil
	}
	out.LoginServer = str(p.LoginServer)
	out.DataEndpointEnabled = boolv(p.DataEndpointEnabled)
	for _, h := range p.DataEndpointHostNames {
		if s := strings.ToLower(strings.TrimSpace(str(h))); s != "" {
			out.DataEndpointHosts = appendUniqueHost(out.DataEndpointHosts, s)
		}
	}
	out.PublicNetworkAccess = str(p.PublicNetworkAccess)
	if p.NetworkRuleSet != nil {
		out.NetworkDefaultAction = str(p.NetworkRuleSet.DefaultAction)
		for _, rule := range p.NetworkRuleSet.IPRules {
			if rule == nil || (rule.Action != nil && !strings.EqualFold(str(rule.Action), "Allow")) {
				continue
			}
			v := str(rule.IPAddressOrRange)
			pfx, err := parsePrefix(v)
			if err != nil {
				return nil, fieldError(out.ID, "properties.networkRuleSet.ipRules.value", v, err)
			}
			out.IPRules = append(out.IPRules, pfx)
		}
	}
	for _, c := range p.PrivateEndpointConnections {
		if c == nil {
			continue
		}
		pc := model.RegistryPEConnection{ID: rid(c.ID)}
		if cp := c.Properties; cp != nil {
			if cp.PrivateEndpoint != nil {
				pc.PrivateEndpointID = rid(cp.PrivateEndpoint.ID)
			}
			if cp.PrivateLinkServiceConnectionState != nil {
				pc.Status = str(cp.PrivateLinkServiceConnectionState.Status)
			}
		}
		out.PrivateEndpointConnections = append(out.PrivateEndpointConnections, pc)
	}
	out.RoleAssignmentMode = str(p.RoleAssignmentMode)
	out.AnonymousPullEnabled = boolv(p.AnonymousPullEnabled)
	return out, nil
}

// replicaFromSDK converts a replication.
func replicaFromSDK(r *armcontainerregistry.Replication) model.Replica {
	out := model.Replica{ID: rid(r.ID), Location: str(r.Location)}
	if r.Properties != nil {
		out.RegionEndpointEnabled = boolv(r.Properties.RegionEndpointEnabled)
	}
	return out
}

// registryRawFields are properties of a registry that the pinned SDK
// version does not model (regional endpoints and the endpoint protocol,
// newer features), read from
// the raw answer.
type registryRawFields struct {
	Properties struct {
		RoleAssignmentMode        string   `json:"roleAssignmentMode"`
		RegionalEndpoints         string   `json:"regionalEndpoints"`
		RegionalEndpointHostNames []string `json:"regionalEndpointHostNames"`
		EndpointProtocol          string   `json:"endpointProtocol"`
	} `json:"properties"`
}

// completeRegistryHosts fills the hostnames a registry hands out that the
// answer did not list: a data endpoint per region (home and replicas) when
// data endpoints are enabled, and regional endpoints
// (<reg>.<region>.geo.<suffix>) when the registry enables them.
//
// Regional endpoints are opt-in (ACR endpoint reference: `az acr update
// --regional-endpoints enabled`): only regionalEndpoints Enabled makes them
// names a pull may use. regionalEndpointHostNames lists the names that
// would serve the registry, and is ignored while the setting is Disabled
// or absent.
func completeRegistryHosts(reg *model.Registry, raw registryRawFields) {
	if reg.RoleAssignmentMode == "" {
		reg.RoleAssignmentMode = raw.Properties.RoleAssignmentMode
	}
	reg.EndpointProtocol = raw.Properties.EndpointProtocol
	name, suffix, ok := strings.Cut(strings.ToLower(reg.LoginServer), ".")
	if !ok {
		name, suffix = strings.ToLower(reg.Name), "azurecr.io"
	}
	regions := []string{normLocation(reg.Location)}
	for _, rep := range reg.Replicas {
		regions = appendUniqueHost(regions, normLocation(rep.Location))
	}
	if reg.DataEndpointEnabled && len(reg.DataEndpointHosts) == 0 {
		for _, region := range regions {
			if region != "" {
				reg.DataEndpointHosts = appendUniqueHost(reg.DataEndpointHosts, fmt.Sprintf("%s.%s.%s.%s", name, region, acrDataLabel, suffix))
			}
		}
	}
	if !strings.EqualFold(strings.TrimSpace(raw.Properties.RegionalEndpoints), regionalEndpointOn) {
		reg.RegionalEndpointHosts = nil
		return
	}
	for _, h := range raw.Properties.RegionalEndpointHostNames {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			reg.RegionalEndpointHosts = appendUniqueHost(reg.RegionalEndpointHosts, h)
		}
	}
	if len(reg.RegionalEndpointHosts) == 0 {
		for _, region := range regions {
			if region != "" {
				reg.RegionalEndpointHosts = appendUniqueHost(reg.RegionalEndpointHosts, fmt.Sprintf("%s.%s.%s.%s", name, region, acrGeoLabel, suffix))
			}
		}
	}
}

func appendUniqueHost(list []string, h string) []string {
	for _, x := range list {
		if strings.EqualFold(x, h) {
			return list
		}
	}
	return append(list, h)
}

// roleAssignmentFromSDK converts a role assignment. Scope falls back to the
// part of the id before /providers/Microsoft.Authorization.
func roleAssignmentFromSDK(ra *armauthorization.RoleAssignment) model.RoleAssignment {
	out := model.RoleAssignment{ID: rid(ra.ID)}
	if p := ra.Properties; p != nil {
		out.Scope = rid(p.Scope)
		out.RoleDefinitionID = rid(p.RoleDefinitionID)
		out.PrincipalID = str(p.PrincipalID)
		out.PrincipalType = str(p.PrincipalType)
		out.Condition = str(p.Condition)
	}
	if out.Scope.IsZero() {
		s := string(out.ID)
		if i := strings.Index(strings.ToLower(s), "/providers/microsoft.authorization/roleassignments/"); i >= 0 {
			out.Scope = model.ResourceID(s[:i])
			if out.Scope.IsZero() {
				out.Scope = "/"
			}
		}
	}
	return out
}
