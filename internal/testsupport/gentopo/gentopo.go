// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package gentopo generates pullpath.snapshot/v1 ARM snapshots of a
// hub-and-spoke network of any size, for benchmarks and load tests: a hub
// VNet with a BGP VPN or ExpressRoute gateway (learned routes, advertised
// routes, peer status), spokes peered both ways with gateway transit, one
// or more AKS clusters whose node pools are spread over subnets in their
// own spokes, a Premium
// container registry with geo-replicas and data endpoints behind a private
// endpoint in the hub, the privatelink.azurecr.io zone (plus optional
// unrelated privatelink zones) linked to every VNet, the kubelet identity
// holding AcrPull, and the DNS resolver actions of every VNet.
//
// Every resource is shaped like the bodies of the scenario snapshots
// (testdata/baseline_ok.json); the generated topology verifies reachable.
// The command is internal/testsupport/gentopo/cmd.
package gentopo

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"net/netip"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
)

// Options sizes the topology.
type Options struct {
	Pools    int // node pools (the first is the System pool)
	Subnets  int // node subnets, spread round-robin over the spokes
	Spokes   int // spoke VNets
	Replicas int // registry replications (home region included)
	// BGPRoutes is the number of routes the hub gateway learns from
	// on-premises (getLearnedRoutes).
	BGPRoutes int
	// DNSZones is the number of private DNS zones: privatelink.azurecr.io
	// and DNSZones-1 unrelated privatelink zones, all linked to every VNet.
	DNSZones int
	// LatencyMS and ActionLatencyMS are the snapshot's simulate block.
	LatencyMS       int
	ActionLatencyMS int
	Seed            int64
	// Gateway is the hub gateway's type: GatewayVPN (the zero value) or
	// GatewayExpressRoute.
	Gateway string
	// Clusters is the number of AKS clusters sharing the hub (0 means 1):
	// each has Pools pools on Subnets subnets in Spokes spokes of its own.
	Clusters int
	// VirtualWAN connects the spokes to a secured Virtual WAN hub instead
	// of peering them with the hub VNet (vwan.go): the hub VNet becomes a
	// shared-services spoke holding the registry's private endpoint, every
	// VNet has a hub connection, routing intent sends private and Internet
	// traffic through the hub's Azure Firewall, and there is no gateway
	// (BGPRoutes and Gateway are ignored).
	VirtualWAN bool
	// NICEffectiveRoutes adds what a recording of the network holds beside
	// the reads a verification makes: the effective route table
	// (…/effectiveRouteTable) of every NIC, each listing the hub gateway's
	// BGPRoutes prefixes, so the snapshot is the size a recorded hub of
	// that many prefixes has. Scale-set NICs have no effective route API,
	// so the verification reads none of them: they cost only the
	// snapshot's size.
	NICEffectiveRoutes bool
}

// Hub gateway types.
const (
	GatewayVPN          = "Vpn"
	GatewayExpressRoute = "ExpressRoute"
)

func (o Options) clusters() int { return max(o.Clusters, 1) }

// Defaults are the sizes of the large benchmark topology.
func Defaults() Options {
	return Options{Pools: 20, Subnets: 5, Spokes: 3, Replicas: 4, BGPRoutes: 10000, DNSZones: 1, Seed: 1}
}

// Validate rejects sizes the generator cannot lay out.
func (o Options) Validate() error {
	switch {
	case o.Pools < 1 || o.Pools > 100:
		return fmt.Errorf("pools must be 1..100 (AKS allows 100 per cluster), got %d", o.Pools)
	case o.Spokes < 1 || o.Spokes*o.clusters() > 100:
		return fmt.Errorf("spokes × clusters must be 1..100, got %d × %d", o.Spokes, o.clusters())
	case o.Clusters < 0:
		return fmt.Errorf("clusters must be ≥ 1, got %d", o.Clusters)
	case o.Gateway != "" && o.Gateway != GatewayVPN && o.Gateway != GatewayExpressRoute:
		return fmt.Errorf("gateway must be %s or %s, got %q", GatewayVPN, GatewayExpressRoute, o.Gateway)
	case o.Subnets < o.Spokes || o.Subnets > 64*o.Spokes:
		return fmt.Errorf("subnets must be spokes..64×spokes (%d..%d), got %d", o.Spokes, 64*o.Spokes, o.Subnets)
	case o.Replicas < 1 || o.Replicas > len(regions):
		return fmt.Errorf("replicas must be 1..%d, got %d", len(regions), o.Replicas)
	case o.BGPRoutes < 0 || o.BGPRoutes > 1<<15:
		return fmt.Errorf("bgp-routes must be 0..%d, got %d", 1<<15, o.BGPRoutes)
	case o.DNSZones < 1 || o.DNSZones > len(otherZones)+1:
		return fmt.Errorf("dns-zones must be 1..%d, got %d", len(otherZones)+1, o.DNSZones)
	case o.LatencyMS < 0 || o.ActionLatencyMS < 0:
		return fmt.Errorf("latencies must be ≥ 0")
	}
	return nil
}

// Topology is a generated snapshot and the ids to verify.
type Topology struct {
	Snapshot   []byte // pullpath.snapshot/v1 JSON
	ClusterID  string // the first cluster
	RegistryID string
	// ClusterIDs are every cluster, the first one first.
	ClusterIDs []string
	// NodeVNetIDs are the first cluster's node VNets (its spokes).
	NodeVNetIDs []string
	// Resources and Actions count the entries written.
	Resources, Actions int
}

const (
	// The Virtual WAN hub (VirtualWAN): its VNet is Microsoft's.
	vwanRG    = sub + "/resourceGroups/rg-vwan"
	hvID      = "/subscriptions/9f6b7c2a-3d41-4e8b-a0c5-2b7d9e1f4c36/resourceGroups/RG_hub-bench_1/providers/Microsoft.Network/virtualNetworks/HV_hub-bench_1"
	hubPrefix = "10.100.0.0/23"
)

const (
	sub        = "/subscriptions/00000000-0000-0000-0000-0000000000b1"
	hubRG      = sub + "/resourceGroups/rg-hub"
	aksRG      = sub + "/resourceGroups/rg-aks"
	location   = "westeurope"
	registry   = "benchreg"
	cluster    = "aks-bench"
	acrPullDef = "7f951dda-4ed3-4680-a7ca-43fe172d538d"
	acrPushDef = "8311e382-0749-4cb8-b61a-304f252e45ec"
	ownerDef   = "8e3af657-a8ff-443c-a75c-2fe8c4bcb635"
	repoReader = "b93aa761-3e63-49ed-ac28-beffa264f7ac"
	k8sVersion = "1.30.6"
	vmSize     = "Standard_D4ds_v5"
	nodeImage  = "AKSUbuntu-2204gen2containerd-202502.09.0"
	created    = "2025-03-04T09:12:44Z"
	gwAddr     = "10.0.0.30"
	onpremPeer = "192.168.255.1"
)

var regions = []string{"westeurope", "northeurope", "francecentral", "germanywestcentral", "swedencentral",
	"uksouth", "eastus", "eastus2", "westus2", "centralus", "southeastasia", "japaneast"}

var otherZones = []string{"privatelink.blob.core.windows.net", "privatelink.vaultcore.azure.net",
	"privatelink.database.windows.net", "privatelink.file.core.windows.net", "privatelink.queue.core.windows.net",
	"privatelink.table.core.windows.net", "privatelink.servicebus.windows.net", "privatelink.postgres.database.azure.com",
	"privatelink.redis.cache.windows.net", "privatelink.documents.azure.com", "privatelink.monitor.azure.com",
	"privatelink.westeurope.azmk8s.io", "privatelink.web.core.windows.net", "privatelink.dfs.core.windows.net",
	"privatelink.mysql.database.azure.com"}

type obj = map[string]any
type arr = []any

type gen struct {
	o         Options
	rnd       *rand.Rand
	resources []obj
	actions   obj
	nics      []nicRoutes // NICs whose effective routes NICEffectiveRoutes adds
}

// nicRoutes is a NIC, the prefix of its VNet and those of its VNet's peers.
type nicRoutes struct {
	id, local string
	peers     []string
}

// guid returns a deterministic (seeded) GUID-shaped string.
func (g *gen) guid() string {
	b := make([]byte, 16)
	_, _ = g.rnd.Read(b)
	return fmt.Sprintf("%x-%x-5%03x-%x-%x", b[0:4], b[4:6], (int(b[6])<<8|int(b[7]))&0xfff, b[8:10], b[10:16])
}

func (g *gen) etag() string { return `W/"` + g.guid() + `"` }

func (g *gen) mac() string {
	b := make([]byte, 3)
	_, _ = g.rnd.Read(b)
	return fmt.Sprintf("00-0D-3A-%02X-%02X-%02X", b[0], b[1], b[2])
}

func ref(id string) obj { return obj{"id": id} }

func vnetID(rg, name string) string {
	return rg + "/providers/Microsoft.Network/virtualNetworks/" + name
}

// aks is one generated cluster.
type aks struct {
	name, id, nodeRGName, nodeRG string
	lbPool, kubeletRes           string
	kubeletObj, kubeletClient    string
	spokes                       []*spoke
	subnets                      []*subnet
	profiles                     arr
}

func newAKS(c int) *aks {
	name := cluster
	if c > 0 {
		name = fmt.Sprintf("%s%02d", cluster, c+1)
	}
	a := &aks{name: name, id: aksRG + "/providers/Microsoft.ContainerService/managedClusters/" + name,
		nodeRGName: "MC_rg-aks_" + name + "_" + location}
	a.nodeRG = sub + "/resourceGroups/" + a.nodeRGName
	a.lbPool = a.nodeRG + "/providers/Microsoft.Network/loadBalancers/kubernetes/backendAddressPools/aksOutboundBackendPool"
	a.kubeletRes = a.nodeRG + "/providers/Microsoft.ManagedIdentity/userAssignedIdentities/" + name + "-agentpool"
	return a
}

// spoke is one spoke VNet and its node subnets.
type spoke struct {
	name, rg, id string
	prefix       string
	subnets      []*subnet
	peerToHub    obj
}

type subnet struct {
	name, id string
	prefix   netip.Prefix
	next     int // next host address offset
	ipConfs  arr
}

func (s *subnet) addr() string {
	a := s.prefix.Addr().As4()
	n := 4 + s.next
	s.next++
	a[2] += byte(n / 256)
	a[3] = byte(n % 256)
	return netip.AddrFrom4(a).String()
}

// Generate builds the snapshot.
func Generate(o Options) (*Topology, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	g := &gen{o: o, rnd: rand.New(rand.NewSource(o.Seed)), actions: obj{}}

	hubID := vnetID(hubRG, "vnet-hub")
	gwName := "vpngw"
	if o.Gateway == GatewayExpressRoute {
		gwName = "ergw"
	}
	gwID := hubRG + "/providers/Microsoft.Network/virtualNetworkGateways/" + gwName
	peID := hubRG + "/providers/Microsoft.Network/privateEndpoints/pe-acr"
	peNICID := hubRG + "/providers/Microsoft.Network/networkInterfaces/pe-acr.nic." + g.guid()
	regID := hubRG + "/providers/Microsoft.ContainerRegistry/registries/" + registry
	zoneRG := hubRG + "/providers/Microsoft.Network/privateDnsZones/"
	clusters := make([]*aks, o.clusters())
	for c := range clusters {
		clusters[c] = newAKS(c)
	}
	clusters[0].kubeletObj, clusters[0].kubeletClient = g.guid(), g.guid()

	// Spokes and their node subnets (10.<k+1>.0.0/16, subnets /22 in it),
	// Spokes of them per cluster.
	var spokes []*spoke
	for c, cl := range clusters {
		for k := 0; k < o.Spokes; k++ {
			n := c*o.Spokes + k + 1
			name := fmt.Sprintf("vnet-spoke%02d", n)
			rg := fmt.Sprintf("%s/resourceGroups/rg-spoke%02d", sub, n)
			sp := &spoke{name: name, rg: rg, id: vnetID(rg, name), prefix: fmt.Sprintf("10.%d.0.0/16", n)}
			spokes = append(spokes, sp)
			cl.spokes = append(cl.spokes, sp)
		}
		for i := 0; i < o.Subnets; i++ {
			sp := cl.spokes[i%o.Spokes]
			m := len(sp.subnets)
			sn := &subnet{name: fmt.Sprintf("snet-aks%02d", c*o.Subnets+i+1),
				prefix: netip.PrefixFrom(netip.AddrFrom4([4]byte{10, byte(c*o.Spokes + i%o.Spokes + 1), byte(4 * m), 0}), 22)}
			sn.id = sp.id + "/subnets/" + sn.name
			sp.subnets = append(sp.subnets, sn)
			cl.subnets = append(cl.subnets, sn)
		}
	}

	// Registry endpoints: the login server and one data endpoint per
	// replica region, each an IP configuration of the private endpoint NIC.
	type endpoint struct{ fqdn, member, record, ip, cfg string }
	eps := []endpoint{{fqdn: registry + ".azurecr.io", member: "registry", record: registry, ip: "10.0.2.5"}}
	var dataHosts arr
	for i := 0; i < o.Replicas; i++ {
		rgn := regions[i]
		eps = append(eps, endpoint{fqdn: fmt.Sprintf("%s.%s.data.azurecr.io", registry, rgn),
			member: "registry_data_" + rgn, record: registry + "." + rgn + ".data", ip: fmt.Sprintf("10.0.2.%d", 6+i)})
		dataHosts = append(dataHosts, fmt.Sprintf("%s.%s.data.azurecr.io", registry, rgn))
	}
	for i := range eps {
		eps[i].cfg = peNICID + "/ipConfigurations/privateEndpointIpConfig." + g.guid()
	}

	// Hub VNet: gateway, NVA-less, private endpoint and resolver subnets.
	var hubPeerings arr
	allVNets := []string{hubID}
	for _, sp := range spokes {
		allVNets = append(allVNets, sp.id)
		if o.VirtualWAN {
			sp.peerToHub = g.peering(sp.id, "RemoteVnetToHubPeering_"+g.guid(), hvID, hubPrefix, false, false)
			continue
		}
		hubPeerings = append(hubPeerings, g.peering(hubID, "hub-to-"+sp.name, sp.id, sp.prefix, true, false))
		sp.peerToHub = g.peering(sp.id, sp.name+"-to-hub", hubID, "10.0.0.0/16", false, true)
	}
	var peIPConfs arr
	for _, e := range eps {
		peIPConfs = append(peIPConfs, ref(e.cfg))
	}
	hubSubnets := arr{
		g.subnetBody(hubID, "GatewaySubnet", "10.0.0.0/27", arr{ref(gwID + "/ipConfigurations/default")}, nil),
		g.subnetBody(hubID, "snet-pe", "10.0.2.0/24", peIPConfs, arr{ref(peID)}),
	}
	if o.VirtualWAN {
		// The shared-services spoke: the private endpoint only.
		hubSubnets = hubSubnets[1:]
		hubPeerings = arr{g.peering(hubID, "RemoteVnetToHubPeering_"+g.guid(), hvID, hubPrefix, false, false)}
	}
	g.add(g.vnet(hubID, "vnet-hub", "10.0.0.0/16", hubSubnets, hubPeerings))
	if o.VirtualWAN {
		prefixes := map[string]string{hubID: "10.0.0.0/16"}
		for _, sp := range spokes {
			prefixes[sp.id] = sp.prefix
		}
		g.virtualWAN(allVNets, prefixes)
	}

	// Gateway; for a VPN gateway its local network gateway and BGP
	// connection, for an ExpressRoute gateway its circuit connection; the
	// BGP actions.
	switch {
	case o.VirtualWAN:
	case o.Gateway == GatewayExpressRoute:
		g.add(g.erGateway(gwID))
		g.add(obj{"name": "cn-er", "id": hubRG + "/providers/Microsoft.Network/connections/cn-er", "etag": g.etag(),
			"type": "Microsoft.Network/connections", "location": location, "tags": obj{}, "properties": obj{
				"provisioningState": "Succeeded", "resourceGuid": g.guid(), "virtualNetworkGateway1": ref(gwID),
				"peer":           ref(sub + "/resourceGroups/rg-connectivity/providers/Microsoft.Network/expressRouteCircuits/er-onprem"),
				"connectionType": "ExpressRoute", "routingWeight": 0, "enableBgp": false, "expressRouteGatewayBypass": false,
				"ingressBytesTransferred": 0, "egressBytesTransferred": 0}})
	default:
		g.add(g.gateway(gwID))
		lgwID := hubRG + "/providers/Microsoft.Network/localNetworkGateways/lgw-onprem"
		g.add(obj{"name": "lgw-onprem", "id": lgwID, "etag": g.etag(), "type": "Microsoft.Network/localNetworkGateways",
			"location": location, "tags": obj{}, "properties": obj{"provisioningState": "Succeeded", "resourceGuid": g.guid(),
				"localNetworkAddressSpace": obj{"addressPrefixes": arr{onpremPeer + "/32"}}, "gatewayIpAddress": "203.0.113.10",
				"bgpSettings": obj{"asn": 65010, "bgpPeeringAddress": onpremPeer, "peerWeight": 0}}})
		g.add(obj{"name": "cn-onprem", "id": hubRG + "/providers/Microsoft.Network/connections/cn-onprem", "etag": g.etag(),
			"type": "Microsoft.Network/connections", "location": location, "tags": obj{}, "properties": obj{
				"provisioningState": "Succeeded", "resourceGuid": g.guid(), "virtualNetworkGateway1": ref(gwID),
				"localNetworkGateway2": ref(lgwID), "connectionType": "IPsec", "connectionProtocol": "IKEv2",
				"connectionMode": "Default", "routingWeight": 0, "dpdTimeoutSeconds": 45, "enableBgp": true,
				"useLocalAzureIpAddress": false, "usePolicyBasedTrafficSelectors": false, "ipsecPolicies": arr{},
				"trafficSelectorPolicies": arr{}, "expressRouteGatewayBypass": false, "connectionStatus": "Connected",
				"ingressBytesTransferred": 48213377, "egressBytesTransferred": 51200984}})
	}
	if !o.VirtualWAN {
		g.bgpActions(gwID, spokes)
	}

	// Role definitions.
	for _, d := range []struct {
		id, name             string
		actions, dataActions arr
	}{
		{acrPullDef, "AcrPull", arr{"Microsoft.ContainerRegistry/registries/pull/read"}, arr{}},
		{acrPushDef, "AcrPush", arr{"Microsoft.ContainerRegistry/registries/pull/read", "Microsoft.ContainerRegistry/registries/push/write"}, arr{}},
		{repoReader, "Container Registry Repository Reader", arr{}, arr{"Microsoft.ContainerRegistry/registries/repositories/content/read", "Microsoft.ContainerRegistry/registries/repositories/metadata/read"}},
		{ownerDef, "Owner", arr{"*"}, arr{}},
	} {
		g.add(obj{"name": d.id, "id": sub + "/providers/Microsoft.Authorization/roleDefinitions/" + d.id,
			"type": "Microsoft.Authorization/roleDefinitions", "properties": obj{"roleName": d.name, "type": "BuiltInRole",
				"description": "Built-in role " + d.name, "assignableScopes": arr{"/"}, "permissions": arr{obj{
					"actions": d.actions, "notActions": arr{}, "dataActions": d.dataActions, "notDataActions": arr{}}}}})
	}

	// Node pools of each cluster: pool i on subnet i mod subnets; the
	// system pool has two nodes, every fourth user pool one, the rest are
	// at zero nodes.
	for c, cl := range clusters {
		if c > 0 {
			cl.kubeletObj, cl.kubeletClient = g.guid(), g.guid()
		}
		var profiles arr
		for i := 0; i < o.Pools; i++ {
			name, mode := fmt.Sprintf("user%02d", i), "User"
			nodes := 0
			if i == 0 {
				name, mode, nodes = "system", "System", 2
			} else if i%4 == 1 {
				nodes = 1
			}
			sn := cl.subnets[i%len(cl.subnets)]
			props := g.poolProps(name, mode, nodes, sn.id)
			profile := obj{"name": name}
			for k, v := range props {
				profile[k] = v
			}
			profiles = append(profiles, profile)
			g.add(obj{"name": name, "id": cl.id + "/agentPools/" + name,
				"type": "Microsoft.ContainerService/managedClusters/agentPools", "properties": props})
			vmss := fmt.Sprintf("aks-%s-%08d-vmss", name, 10000000+g.rnd.Intn(89999999))
			vmssID := cl.nodeRG + "/providers/Microsoft.Compute/virtualMachineScaleSets/" + vmss
			g.add(g.scaleSet(cl, vmssID, vmss, name, nodes, sn.id))
			for n := 0; n < nodes; n++ {
				nicID := fmt.Sprintf("%s/virtualMachines/%d/networkInterfaces/%s", vmssID, n, vmss)
				cfg := nicID + "/ipConfigurations/ipconfig1"
				sn.ipConfs = append(sn.ipConfs, ref(cfg))
				g.nics = append(g.nics, nicRoutes{id: nicID, local: spokeOf(cl, sn).prefix, peers: []string{"10.0.0.0/16"}})
				g.add(g.nic(nicID, vmss, cfg, "ipconfig1", sn.addr(), "Dynamic", sn.id, true, obj{
					"loadBalancerBackendAddressPools": arr{ref(cl.lbPool)}},
					obj{"enableAcceleratedNetworking": true, "enableIPForwarding": true, "macAddress": g.mac(),
						"primary": true, "virtualMachine": ref(fmt.Sprintf("%s/virtualMachines/%d", vmssID, n))}))
			}
		}
		cl.profiles = profiles
	}

	// Spoke VNets, now that their subnets know their IP configurations.
	for _, sp := range spokes {
		var sns arr
		for _, sn := range sp.subnets {
			sns = append(sns, g.subnetBody(sp.id, sn.name, sn.prefix.String(), sn.ipConfs, nil))
		}
		g.add(g.vnet(sp.id, sp.name, sp.prefix, sns, arr{sp.peerToHub}))
	}

	// Clusters.
	for _, cl := range clusters {
		g.add(obj{"name": cl.name, "id": cl.id, "type": "Microsoft.ContainerService/ManagedClusters", "location": location,
			"tags": obj{}, "sku": obj{"name": "Base", "tier": "Standard"},
			"identity": obj{"type": "SystemAssigned", "principalId": g.guid(), "tenantId": "72f988bf-0000-0000-0000-00000000a11c"},
			"properties": obj{"provisioningState": "Succeeded", "powerState": obj{"code": "Running"},
				"kubernetesVersion": k8sVersion, "currentKubernetesVersion": k8sVersion, "dnsPrefix": cl.name + "-dns",
				"fqdn": cl.name + "-dns-k2m8x1qa.hcp.westeurope.azmk8s.io", "azurePortalFQDN": cl.name + "-dns-k2m8x1qa.portal.hcp.westeurope.azmk8s.io",
				"agentPoolProfiles": cl.profiles, "nodeResourceGroup": cl.nodeRGName, "enableRBAC": true,
				"supportPlan": "KubernetesOfficial", "maxAgentPools": 100, "disableLocalAccounts": false,
				"networkProfile": obj{"networkPlugin": "azure", "networkPluginMode": "overlay", "networkDataplane": "azure",
					"loadBalancerSku": "standard", "outboundType": "loadBalancer",
					"loadBalancerProfile": obj{"managedOutboundIPs": obj{"count": 1}, "backendPoolType": "nodeIPConfiguration",
						"effectiveOutboundIPs": arr{ref(cl.nodeRG + "/providers/Microsoft.Network/publicIPAddresses/" + g.guid())}},
					"podCidr": "10.244.0.0/16", "serviceCidr": "172.16.0.0/16", "dnsServiceIP": "172.16.0.10",
					"podCidrs": arr{"10.244.0.0/16"}, "serviceCidrs": arr{"172.16.0.0/16"}, "ipFamilies": arr{"IPv4"}},
				"identityProfile":   obj{"kubeletidentity": obj{"resourceId": cl.kubeletRes, "clientId": cl.kubeletClient, "objectId": cl.kubeletObj}},
				"oidcIssuerProfile": obj{"enabled": false}}})
	}

	// Registry, replicas, private endpoint and its NIC.
	for i := 0; i < o.Replicas; i++ {
		rgn := regions[i]
		g.add(obj{"name": rgn, "id": regID + "/replications/" + rgn, "type": "Microsoft.ContainerRegistry/registries/replications",
			"location": rgn, "tags": obj{}, "properties": obj{"provisioningState": "Succeeded",
				"status": obj{"displayStatus": "Ready", "timestamp": created}, "regionEndpointEnabled": true, "zoneRedundancy": "Disabled"}})
	}
	var nicConfs, dnsConfigs, zoneRecords arr
	for i, e := range eps {
		nicConfs = append(nicConfs, obj{"name": e.cfg[len(peNICID+"/ipConfigurations/"):], "id": e.cfg, "etag": g.etag(),
			"type": "Microsoft.Network/networkInterfaces/ipConfigurations", "properties": obj{"provisioningState": "Succeeded",
				"privateIPAddress": e.ip, "privateIPAllocationMethod": "Dynamic", "subnet": ref(hubID + "/subnets/snet-pe"),
				"primary": i == 0, "privateIPAddressVersion": "IPv4", "privateLinkConnectionProperties": obj{
					"groupId": "registry", "requiredMemberName": e.member, "fqdns": arr{e.fqdn}}}})
		dnsConfigs = append(dnsConfigs, obj{"fqdn": e.fqdn, "ipAddresses": arr{e.ip}})
		zoneRecords = append(zoneRecords, obj{"recordType": "A", "recordSetName": e.record, "fqdn": e.record + ".privatelink.azurecr.io",
			"provisioningState": "Succeeded", "ttl": 10, "ipAddresses": arr{e.ip}})
	}
	g.add(obj{"name": "pe-acr.nic", "id": peNICID, "etag": g.etag(), "type": "Microsoft.Network/networkInterfaces",
		"location": location, "tags": obj{}, "properties": obj{"provisioningState": "Succeeded", "resourceGuid": g.guid(),
			"ipConfigurations": nicConfs, "dnsSettings": obj{"dnsServers": arr{}, "appliedDnsServers": arr{}},
			"enableAcceleratedNetworking": false, "vnetEncryptionSupported": false, "enableIPForwarding": false,
			"disableTcpStateTracking": false, "hostedWorkloads": arr{}, "tapConfigurations": arr{}, "nicType": "Standard",
			"privateEndpoint": ref(peID)}})
	g.resources[len(g.resources)-1]["name"] = peNICID[len(hubRG+"/providers/Microsoft.Network/networkInterfaces/"):]
	g.add(obj{"name": "pe-acr", "id": peID, "etag": g.etag(), "type": "Microsoft.Network/privateEndpoints", "location": location,
		"tags": obj{}, "properties": obj{"provisioningState": "Succeeded", "customNetworkInterfaceName": "",
			"privateLinkServiceConnections": arr{obj{"name": "pe-acr", "id": peID + "/privateLinkServiceConnections/pe-acr",
				"etag": g.etag(), "type": "Microsoft.Network/privateEndpoints/privateLinkServiceConnections",
				"properties": obj{"provisioningState": "Succeeded", "privateLinkServiceId": regID, "groupIds": arr{"registry"},
					"privateLinkServiceConnectionState": obj{"status": "Approved", "description": "Auto-Approved", "actionsRequired": "None"}}}},
			"manualPrivateLinkServiceConnections": arr{}, "subnet": ref(hubID + "/subnets/snet-pe"), "ipConfigurations": arr{},
			"networkInterfaces": arr{ref(peNICID)}, "customDnsConfigs": dnsConfigs, "ipVersionType": "IPv4"}})
	peGUID := g.guid()
	g.add(obj{"name": "default", "id": peID + "/privateDnsZoneGroups/default", "etag": g.etag(),
		"type": "Microsoft.Network/privateEndpoints/privateDnsZoneGroups", "properties": obj{"provisioningState": "Succeeded",
			"privateDnsZoneConfigs": arr{obj{"name": "privatelink-azurecr-io", "properties": obj{
				"privateDnsZoneId": zoneRG + "privatelink.azurecr.io", "recordSets": zoneRecords}}}}})
	g.add(obj{"name": registry, "id": regID, "type": "Microsoft.ContainerRegistry/registries", "location": location,
		"tags": obj{}, "sku": obj{"name": "Premium", "tier": "Premium"}, "properties": obj{
			"loginServer": registry + ".azurecr.io", "creationDate": "2025-01-10T08:00:00Z", "provisioningState": "Succeeded",
			"adminUserEnabled": false, "networkRuleSet": obj{"defaultAction": "Deny", "ipRules": arr{}},
			"policies": obj{"quarantinePolicy": obj{"status": "disabled"}, "trustPolicy": obj{"type": "Notary", "status": "disabled"},
				"retentionPolicy": obj{"days": 7, "lastUpdatedTime": created, "status": "disabled"},
				"exportPolicy":    obj{"status": "enabled"}, "azureADAuthenticationAsArmPolicy": obj{"status": "enabled"}},
			"encryption": obj{"status": "disabled"}, "dataEndpointEnabled": true, "dataEndpointHostNames": dataHosts,
			"privateEndpointConnections": arr{obj{"type": "Microsoft.ContainerRegistry/registries/privateEndpointConnections",
				"id": regID + "/privateEndpointConnections/pe-acr." + g.guid(), "name": "pe-acr",
				"properties": obj{"privateEndpoint": ref(peID), "privateLinkServiceConnectionState": obj{
					"status": "Approved", "description": "Auto-Approved", "actionsRequired": "None"}, "provisioningState": "Succeeded"}}},
			"publicNetworkAccess": "Disabled", "networkRuleBypassOptions": "AzureServices",
			"roleAssignmentMode": "LegacyRegistryPermissions", "zoneRedundancy": "Disabled", "anonymousPullEnabled": false}})

	// Role assignments: AcrPull for the kubelet identity, AcrPush for a CI
	// principal, Owner at the subscription for a user.
	assignments := []struct{ scope, def, principal, kind string }{
		{regID, acrPullDef, clusters[0].kubeletObj, "ServicePrincipal"},
		{regID, acrPushDef, g.guid(), "ServicePrincipal"},
		{sub, ownerDef, g.guid(), "User"},
	}
	for _, cl := range clusters[1:] {
		assignments = append(assignments, struct{ scope, def, principal, kind string }{regID, acrPullDef, cl.kubeletObj, "ServicePrincipal"})
	}
	for _, a := range assignments {
		id := g.guid()
		g.add(obj{"name": id, "id": a.scope + "/providers/Microsoft.Authorization/roleAssignments/" + id,
			"type": "Microsoft.Authorization/roleAssignments", "properties": obj{
				"roleDefinitionId": sub + "/providers/Microsoft.Authorization/roleDefinitions/" + a.def,
				"principalId":      a.principal, "principalType": a.kind, "scope": a.scope,
				"createdOn": created, "updatedOn": created, "createdBy": "8afaae7b-c4f5-5757-966d-6b9e5455f7d7",
				"updatedBy": "8afaae7b-c4f5-5757-966d-6b9e5455f7d7"}})
	}

	// Private DNS zones, linked to the hub and every spoke.
	zones := append([]string{"privatelink.azurecr.io"}, otherZones[:o.DNSZones-1]...)
	for zi, zone := range zones {
		zid := zoneRG + zone
		var records []obj
		if zi == 0 {
			for _, e := range eps {
				records = append(records, obj{"name": e.record, "id": zid + "/A/" + e.record, "etag": g.etag(),
					"type": "Microsoft.Network/privateDnsZones/A", "properties": obj{
						"metadata": obj{"creator": "created by private endpoint pe-acr with resource guid " + peGUID},
						"ttl":      10, "fqdn": e.record + ".privatelink.azurecr.io.", "isAutoRegistered": false,
						"aRecords": arr{obj{"ipv4Address": e.ip}}}})
			}
		} else {
			name := fmt.Sprintf("res%02d", zi)
			records = append(records, obj{"name": name, "id": zid + "/A/" + name, "etag": g.etag(),
				"type": "Microsoft.Network/privateDnsZones/A", "properties": obj{"ttl": 10, "fqdn": name + "." + zone + ".",
					"isAutoRegistered": false, "aRecords": arr{obj{"ipv4Address": fmt.Sprintf("10.0.2.%d", 100+zi)}}}})
		}
		g.add(obj{"name": zone, "id": zid, "etag": g.etag(), "type": "Microsoft.Network/privateDnsZones", "location": "global",
			"tags": obj{}, "properties": obj{"maxNumberOfRecordSets": 25000, "maxNumberOfVirtualNetworkLinks": 1000,
				"maxNumberOfVirtualNetworkLinksWithRegistration": 100, "numberOfRecordSets": len(records) + 1,
				"numberOfVirtualNetworkLinks": len(allVNets), "numberOfVirtualNetworkLinksWithRegistration": 0,
				"provisioningState": "Succeeded", "internalId": g.guid()}})
		g.add(obj{"name": "@", "id": zid + "/SOA/@", "etag": g.etag(), "type": "Microsoft.Network/privateDnsZones/SOA",
			"properties": obj{"ttl": 3600, "fqdn": zone + ".", "isAutoRegistered": false, "soaRecord": obj{
				"email": "azureprivatedns-host.microsoft.com", "expireTime": 2419200, "host": "azureprivatedns.net",
				"minimumTtl": 10, "refreshTime": 3600, "retryTime": 300, "serialNumber": 1}}})
		for _, v := range allVNets {
			link := "link-" + lastSegment(v)
			g.add(obj{"name": link, "id": zid + "/virtualNetworkLinks/" + link, "etag": g.etag(),
				"type": "Microsoft.Network/privateDnsZones/virtualNetworkLinks", "location": "global", "tags": obj{},
				"properties": obj{"provisioningState": "Succeeded", "registrationEnabled": false, "resolutionPolicy": "Default",
					"virtualNetwork": ref(v), "virtualNetworkLinkState": "Completed"}})
		}
		for _, r := range records {
			g.add(r)
		}
	}

	if o.NICEffectiveRoutes {
		pe := nicRoutes{id: peNICID, local: "10.0.0.0/16"}
		for _, sp := range spokes {
			pe.peers = append(pe.peers, sp.prefix)
		}
		g.nics = append(g.nics, pe)
		for _, n := range g.nics {
			g.action(n.id+"/effectiveRouteTable", g.effectiveRoutes(n))
		}
	}

	// DNS resolver actions of every VNet: none (Azure DNS answers).
	for _, v := range allVNets {
		g.action(v+"/listDnsResolvers", obj{"value": arr{}})
		g.action(v+"/listDnsForwardingRulesets", obj{"value": arr{}})
	}

	doc := obj{"format": "pullpath.snapshot/v1", "resources": g.resources, "actions": g.actions,
		"simulate": obj{"latency_ms": o.LatencyMS, "action_latency_ms": o.ActionLatencyMS}}
	data, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		return nil, err
	}
	data = append(data, '\n')
	if _, err := snapshot.Parse(data); err != nil {
		return nil, fmt.Errorf("generated snapshot does not load: %w", err)
	}
	t := &Topology{Snapshot: data, ClusterID: clusters[0].id, RegistryID: regID,
		Resources: len(g.resources), Actions: len(g.actions)}
	for _, cl := range clusters {
		t.ClusterIDs = append(t.ClusterIDs, cl.id)
	}
	for _, sp := range clusters[0].spokes {
		t.NodeVNetIDs = append(t.NodeVNetIDs, sp.id)
	}
	return t, nil
}

// bgpActions are the hub gateway's BGP actions: what it learned (the hub,
// the spokes and BGPRoutes on-premises prefixes), its peer, what it
// advertises.
func (g *gen) bgpActions(gwID string, spokes []*spoke) {
	o := g.o
	learned := arr{obj{"localAddress": gwAddr, "network": "10.0.0.0/16", "sourcePeer": gwAddr, "origin": "Network", "asPath": "", "weight": 32768}}
	for _, sp := range spokes {
		learned = append(learned, obj{"localAddress": gwAddr, "network": sp.prefix, "sourcePeer": gwAddr, "origin": "Network", "asPath": "", "weight": 32768})
	}
	// On-premises prefixes: /24s in 10.128.0.0/9 (32768 of them), clear
	// of the hub (10.0/16) and the spokes (10.1–10.100/16).
	for i := 0; i < o.BGPRoutes; i++ {
		learned = append(learned, obj{"localAddress": gwAddr, "network": fmt.Sprintf("10.%d.%d.0/24", 128+i/256, i%256),
			"nextHop": onpremPeer, "sourcePeer": onpremPeer, "origin": "EBgp", "asPath": "65010", "weight": 32768})
	}
	g.action(gwID+"/getLearnedRoutes", obj{"value": learned})
	g.action(gwID+"/getBgpPeerStatus", obj{"value": arr{obj{"localAddress": gwAddr, "neighbor": onpremPeer, "asn": 65010,
		"state": "Connected", "connectedDuration": "12.03:14:55.1234567", "routesReceived": o.BGPRoutes,
		"messagesSent": 28211, "messagesReceived": 28190}}})
	adv := arr{obj{"localAddress": gwAddr, "network": "10.0.0.0/16", "nextHop": gwAddr, "origin": "Igp", "asPath": "65515", "weight": 0}}
	for _, sp := range spokes {
		adv = append(adv, obj{"localAddress": gwAddr, "network": sp.prefix, "nextHop": gwAddr, "origin": "Igp", "asPath": "65515", "weight": 0})
	}
	g.action(gwID+"/getAdvertisedRoutes", obj{"value": adv})

}

// spokeOf is the spoke of a cluster's subnet.
func spokeOf(cl *aks, sn *subnet) *spoke {
	for _, sp := range cl.spokes {
		for _, s := range sp.subnets {
			if s == sn {
				return sp
			}
		}
	}
	return nil
}

// effectiveRoutes is a NIC's effective route table as Azure answers it:
// its VNet, its peer, the hub gateway's prefixes (VirtualNetworkGateway,
// one entry each, as Azure lists BGP routes), the system defaults.
func (g *gen) effectiveRoutes(n nicRoutes) obj {
	entry := func(source, prefix, hopType string, hops arr) obj {
		return obj{"source": source, "state": "Active", "addressPrefix": arr{prefix}, "nextHopIpAddress": hops,
			"nextHopType": hopType, "disableBgpRoutePropagation": false}
	}
	routes := arr{entry("Default", n.local, "VnetLocal", arr{})}
	for _, p := range n.peers {
		routes = append(routes, entry("Default", p, "VNetPeering", arr{}))
	}
	if !g.o.VirtualWAN {
		for i := 0; i < g.o.BGPRoutes; i++ {
			routes = append(routes, entry("VirtualNetworkGateway", fmt.Sprintf("10.%d.%d.0/24", 128+i/256, i%256),
				"VirtualNetworkGateway", arr{gwAddr}))
		}
	}
	routes = append(routes, entry("Default", "0.0.0.0/0", "Internet", arr{}))
	for _, p := range []string{"10.0.0.0/8", "172.16.0.0/12", "100.64.0.0/10"} {
		routes = append(routes, entry("Default", p, "None", arr{}))
	}
	return obj{"value": routes}
}

func lastSegment(id string) string {
	for i := len(id) - 1; i >= 0; i-- {
		if id[i] == '/' {
			return id[i+1:]
		}
	}
	return id
}

func (g *gen) add(r obj)                 { g.resources = append(g.resources, r) }
func (g *gen) action(path string, v obj) { g.actions["POST "+path] = v }

func (g *gen) vnet(id, name, prefix string, subnets, peerings arr) obj {
	return obj{"name": name, "id": id, "etag": g.etag(), "type": "Microsoft.Network/virtualNetworks", "location": location,
		"tags": obj{}, "properties": obj{"provisioningState": "Succeeded", "resourceGuid": g.guid(),
			"addressSpace": obj{"addressPrefixes": arr{prefix}}, "dhcpOptions": obj{"dnsServers": arr{}},
			"subnets": subnets, "virtualNetworkPeerings": peerings, "enableDdosProtection": false}}
}

func (g *gen) subnetBody(vnet, name, prefix string, ipConfs, pes arr) obj {
	p := obj{"provisioningState": "Succeeded", "addressPrefix": prefix, "delegations": arr{},
		"privateEndpointNetworkPolicies": "Disabled", "privateLinkServiceNetworkPolicies": "Enabled"}
	if len(ipConfs) > 0 {
		p["ipConfigurations"] = ipConfs
	}
	if len(pes) > 0 {
		p["privateEndpoints"] = pes
	}
	return obj{"name": name, "id": vnet + "/subnets/" + name, "etag": g.etag(), "type": "Microsoft.Network/virtualNetworks/subnets", "properties": p}
}

// peering is one direction: the hub side allows gateway transit, the spoke
// side uses the remote (hub) gateway.
func (g *gen) peering(from, name, remote, remotePrefix string, allowTransit, useRemote bool) obj {
	return obj{"name": name, "id": from + "/virtualNetworkPeerings/" + name, "etag": g.etag(),
		"type": "Microsoft.Network/virtualNetworks/virtualNetworkPeerings", "properties": obj{
			"provisioningState": "Succeeded", "resourceGuid": g.guid(), "peeringState": "Connected",
			"peeringSyncLevel": "FullyInSync", "remoteVirtualNetwork": ref(remote), "allowVirtualNetworkAccess": true,
			"allowForwardedTraffic": true, "allowGatewayTransit": allowTransit, "useRemoteGateways": useRemote,
			"doNotVerifyRemoteGateways": false, "peerCompleteVnets": true,
			"remoteAddressSpace":               obj{"addressPrefixes": arr{remotePrefix}},
			"remoteVirtualNetworkAddressSpace": obj{"addressPrefixes": arr{remotePrefix}}}}
}

func (g *gen) gateway(id string) obj {
	return obj{"name": "vpngw", "id": id, "etag": g.etag(), "type": "Microsoft.Network/virtualNetworkGateways",
		"location": location, "tags": obj{}, "properties": obj{"provisioningState": "Succeeded", "resourceGuid": g.guid(),
			"ipConfigurations": arr{obj{"name": "default", "id": id + "/ipConfigurations/default", "etag": g.etag(),
				"properties": obj{"provisioningState": "Succeeded", "privateIPAllocationMethod": "Dynamic",
					"publicIPAddress": ref(hubRG + "/providers/Microsoft.Network/publicIPAddresses/pip-vpngw"),
					"subnet":          ref(vnetID(hubRG, "vnet-hub") + "/subnets/GatewaySubnet")}}},
			"sku": obj{"name": "VpnGw2AZ", "tier": "VpnGw2AZ", "capacity": 2}, "gatewayType": "Vpn", "vpnType": "RouteBased",
			"vpnGatewayGeneration": "Generation2", "enableBgp": true, "activeActive": false, "enablePrivateIpAddress": false,
			"disableIPSecReplayProtection": false, "allowRemoteVnetTraffic": false, "allowVirtualWanTraffic": false,
			"enableBgpRouteTranslationForNat": false, "natRules": arr{},
			"bgpSettings": obj{"asn": 65515, "bgpPeeringAddress": gwAddr, "peerWeight": 0, "bgpPeeringAddresses": arr{obj{
				"ipconfigurationId": id + "/ipConfigurations/default", "defaultBgpIpAddresses": arr{gwAddr},
				"customBgpIpAddresses": arr{}, "tunnelIpAddresses": arr{"20.71.18.4"}}}}}}
}

// erGateway is an ExpressRoute gateway: BGP with the circuit's MSEEs
// (Azure reports enableBgp false for it; it always speaks BGP).
func (g *gen) erGateway(id string) obj {
	return obj{"name": "ergw", "id": id, "etag": g.etag(), "type": "Microsoft.Network/virtualNetworkGateways",
		"location": location, "tags": obj{}, "properties": obj{"provisioningState": "Succeeded", "resourceGuid": g.guid(),
			"ipConfigurations": arr{obj{"name": "default", "id": id + "/ipConfigurations/default", "etag": g.etag(),
				"properties": obj{"provisioningState": "Succeeded", "privateIPAllocationMethod": "Dynamic",
					"publicIPAddress": ref(hubRG + "/providers/Microsoft.Network/publicIPAddresses/pip-ergw"),
					"subnet":          ref(vnetID(hubRG, "vnet-hub") + "/subnets/GatewaySubnet")}}},
			"sku": obj{"name": "ErGw2AZ", "tier": "ErGw2AZ", "capacity": 2}, "gatewayType": "ExpressRoute",
			"enableBgp": false, "activeActive": false, "enablePrivateIpAddress": false, "allowRemoteVnetTraffic": false,
			"allowVirtualWanTraffic": false, "natRules": arr{},
			"bgpSettings": obj{"asn": 65515, "bgpPeeringAddress": gwAddr, "peerWeight": 0, "bgpPeeringAddresses": arr{obj{
				"ipconfigurationId": id + "/ipConfigurations/default", "defaultBgpIpAddresses": arr{gwAddr},
				"customBgpIpAddresses": arr{}, "tunnelIpAddresses": arr{}}}}}}
}

func (g *gen) poolProps(name, mode string, nodes int, subnetID string) obj {
	p := obj{"count": nodes, "vmSize": vmSize, "osDiskSizeGB": 128, "osDiskType": "Ephemeral", "kubeletDiskType": "OS",
		"vnetSubnetID": subnetID, "maxPods": 250, "type": "VirtualMachineScaleSets", "enableAutoScaling": mode == "User",
		"provisioningState": "Succeeded", "powerState": obj{"code": "Running"}, "orchestratorVersion": k8sVersion,
		"currentOrchestratorVersion": k8sVersion, "enableNodePublicIP": false, "mode": mode, "osType": "Linux",
		"osSKU": "Ubuntu", "nodeImageVersion": nodeImage, "upgradeSettings": obj{"maxSurge": "10%"}, "enableFIPS": false}
	if mode == "User" {
		p["minCount"], p["maxCount"] = 0, 5
	}
	return p
}

func (g *gen) scaleSet(cl *aks, id, name, pool string, nodes int, subnetID string) obj {
	kubeletObj, kubeletClient, kubeletRes, lbPool := cl.kubeletObj, cl.kubeletClient, cl.kubeletRes, cl.lbPool
	return obj{"name": name, "id": id, "type": "Microsoft.Compute/virtualMachineScaleSets", "location": location,
		"tags": obj{"aks-managed-createOperationID": g.guid(), "aks-managed-creationSource": "vmssclient-" + name,
			"aks-managed-kubeletIdentityClientID": kubeletClient, "aks-managed-orchestrator": "Kubernetes:" + k8sVersion,
			"aks-managed-poolName": pool, "aks-managed-resourceNameSuffix": name[len(name)-13 : len(name)-5]},
		"sku":      obj{"name": vmSize, "tier": "Standard", "capacity": nodes},
		"identity": obj{"type": "UserAssigned", "userAssignedIdentities": obj{kubeletRes: obj{"principalId": kubeletObj, "clientId": kubeletClient}}},
		"properties": obj{"singlePlacementGroup": false, "orchestrationMode": "Uniform", "upgradePolicy": obj{"mode": "Manual"},
			"virtualMachineProfile": obj{"networkProfile": obj{"networkInterfaceConfigurations": arr{obj{"name": name,
				"properties": obj{"primary": true, "enableAcceleratedNetworking": true, "enableIPForwarding": true,
					"dnsSettings": obj{"dnsServers": arr{}}, "ipConfigurations": arr{obj{"name": "ipconfig1", "properties": obj{
						"primary": true, "subnet": ref(subnetID), "privateIPAddressVersion": "IPv4",
						"loadBalancerBackendAddressPools": arr{ref(lbPool)}}}}}}}}},
			"overprovision": false, "doNotRunExtensionsOnOverprovisionedVMs": false, "provisioningState": "Succeeded",
			"uniqueId": g.guid(), "timeCreated": created}}
}

func (g *gen) nic(id, name, cfgID, cfgName, ip, alloc, subnetID string, primary bool, cfgExtra, extra obj) obj {
	cp := obj{"provisioningState": "Succeeded", "privateIPAddress": ip, "privateIPAllocationMethod": alloc,
		"subnet": ref(subnetID), "primary": primary, "privateIPAddressVersion": "IPv4"}
	for k, v := range cfgExtra {
		cp[k] = v
	}
	p := obj{"provisioningState": "Succeeded", "resourceGuid": g.guid(), "ipConfigurations": arr{obj{"name": cfgName,
		"id": cfgID, "etag": g.etag(), "type": "Microsoft.Network/networkInterfaces/ipConfigurations", "properties": cp}},
		"dnsSettings": obj{"dnsServers": arr{}, "appliedDnsServers": arr{}}, "vnetEncryptionSupported": false,
		"disableTcpStateTracking": false, "hostedWorkloads": arr{}, "tapConfigurations": arr{}, "nicType": "Standard"}
	for k, v := range extra {
		p[k] = v
	}
	return obj{"name": name, "id": id, "etag": g.etag(), "type": "Microsoft.Network/networkInterfaces", "location": location, "tags": obj{}, "properties": p}
}
