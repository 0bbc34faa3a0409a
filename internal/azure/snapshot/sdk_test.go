package snapshot

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/authorization/armauthorization/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/dnsresolver/armdnsresolver"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/privatedns/armprivatedns"
)

// These tests drive the replay through the real SDK clients, as the
// provider does: only the transport differs from live Azure.

const (
	blSub     = "00000000-0000-0000-0000-000000000001"
	blRegID   = "/subscriptions/" + blSub + "/resourceGroups/rg-hub/providers/Microsoft.ContainerRegistry/registries/contosoreg"
	blNodeRG  = "MC_rg-spoke_aks1_westeurope"
	blZone    = "privatelink.azurecr.io"
	blKubelet = "c97076e7-a42f-5da7-b72a-14b385fe0c6b"
	acrPullID = "7f951dda-4ed3-4680-a7ca-43fe172d538d"
)

// armOptions are client options over tr; the SDK's own retries are off so
// that a test sees each answer.
func armOptions(tr policy.Transporter) *arm.ClientOptions {
	return &arm.ClientOptions{
		ClientOptions:         policy.ClientOptions{Transport: tr, Retry: policy.RetryOptions{MaxRetries: -1}},
		DisableRPRegistration: true,
	}
}

var fakeCred = &fake.TokenCredential{}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// collect drains a pager.
func collect[P, E any](t testing.TB, p *runtime.Pager[P], items func(P) []E) []E {
	t.Helper()
	var out []E
	for p.More() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, items(page)...)
	}
	return out
}

func names[E any](items []E, name func(E) *string) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, *name(it))
	}
	sort.Strings(out)
	return out
}

func TestSDKNetworkReads(t *testing.T) {
	opts := armOptions(loadReplay(t, "baseline_ok.json"))
	ctx := context.Background()

	vnets := must[*armnetwork.VirtualNetworksClient](t)(armnetwork.NewVirtualNetworksClient(blSub, fakeCred, opts))
	spoke, err := vnets.Get(ctx, "rg-spoke", "vnet-spoke", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := *spoke.Properties.AddressSpace.AddressPrefixes[0]; got != "10.1.0.0/16" {
		t.Errorf("address space %s", got)
	}
	if len(spoke.Properties.Subnets) != 1 || len(spoke.Properties.VirtualNetworkPeerings) != 1 {
		t.Errorf("embedded children: %d subnets, %d peerings", len(spoke.Properties.Subnets), len(spoke.Properties.VirtualNetworkPeerings))
	}

	peerings := must[*armnetwork.VirtualNetworkPeeringsClient](t)(armnetwork.NewVirtualNetworkPeeringsClient(blSub, fakeCred, opts))
	ps := collect(t, peerings.NewListPager("rg-spoke", "vnet-spoke", nil), func(p armnetwork.VirtualNetworkPeeringsClientListResponse) []*armnetwork.VirtualNetworkPeering {
		return p.Value
	})
	if len(ps) != 1 || *ps[0].Name != "spoke-to-hub" || *ps[0].Properties.PeeringState != armnetwork.VirtualNetworkPeeringStateConnected {
		t.Errorf("peerings %+v", ps)
	}
	p, err := peerings.Get(ctx, "RG-SPOKE", "vnet-spoke", "spoke-to-hub", nil)
	if err != nil || !*p.Properties.AllowForwardedTraffic {
		t.Errorf("get peering: %v", err)
	}

	subnets := must[*armnetwork.SubnetsClient](t)(armnetwork.NewSubnetsClient(blSub, fakeCred, opts))
	ss := collect(t, subnets.NewListPager("rg-hub", "vnet-hub", nil), func(p armnetwork.SubnetsClientListResponse) []*armnetwork.Subnet { return p.Value })
	if got := names(ss, func(s *armnetwork.Subnet) *string { return s.Name }); strings.Join(got, ",") != "GatewaySubnet,snet-dns-in,snet-nva,snet-pe" {
		t.Errorf("subnets %v", got)
	}
	pe, err := subnets.Get(ctx, "rg-hub", "vnet-hub", "snet-pe", nil)
	if err != nil || *pe.Properties.AddressPrefix != "10.0.2.0/24" || len(pe.Properties.PrivateEndpoints) != 1 {
		t.Errorf("get subnet: %v %+v", err, pe)
	}

	all := collect(t, vnets.NewListAllPager(nil), func(p armnetwork.VirtualNetworksClientListAllResponse) []*armnetwork.VirtualNetwork { return p.Value })
	if got := names(all, func(v *armnetwork.VirtualNetwork) *string { return v.Name }); strings.Join(got, ",") != "vnet-hub,vnet-spoke" {
		t.Errorf("subscription list %v", got)
	}
	inRG := collect(t, vnets.NewListPager("rg-hub", nil), func(p armnetwork.VirtualNetworksClientListResponse) []*armnetwork.VirtualNetwork { return p.Value })
	if len(inRG) != 1 || *inRG[0].Name != "vnet-hub" {
		t.Errorf("resource-group list %v", inRG)
	}

	_, err = vnets.Get(ctx, "rg-hub", "vnet-missing", nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != http.StatusNotFound || re.ErrorCode != "ResourceNotFound" {
		t.Errorf("missing vnet: %v", err)
	}
}

func TestSDKScaleSetNICs(t *testing.T) {
	opts := armOptions(loadReplay(t, "baseline_ok.json"))
	nics := must[*armnetwork.InterfacesClient](t)(armnetwork.NewInterfacesClient(blSub, fakeCred, opts))
	page := func(p armnetwork.InterfacesClientListVirtualMachineScaleSetNetworkInterfacesResponse) []*armnetwork.Interface {
		return p.Value
	}
	// The SDK sends the node resource group as given; ARM ids keep their
	// own case. Lower case must match too.
	got := collect(t, nics.NewListVirtualMachineScaleSetNetworkInterfacesPager(strings.ToLower(blNodeRG), "aks-system-12345678-vmss", nil), page)
	if len(got) != 2 {
		t.Fatalf("%d NICs, want 2", len(got))
	}
	for _, nic := range got {
		if !strings.Contains(*nic.ID, "/virtualMachines/") || *nic.Properties.IPConfigurations[0].Properties.Subnet.ID == "" {
			t.Errorf("NIC %s", *nic.ID)
		}
	}
	if got := collect(t, nics.NewListVirtualMachineScaleSetNetworkInterfacesPager(blNodeRG, "aks-user-12345679-vmss", nil), page); len(got) != 0 {
		t.Errorf("pool at zero nodes has %d NICs", len(got))
	}
	one, err := nics.GetVirtualMachineScaleSetNetworkInterface(context.Background(), blNodeRG, "aks-system-12345678-vmss", "1", "aks-system-12345678-vmss", nil)
	if err != nil || *one.Properties.IPConfigurations[0].Properties.PrivateIPAddress != "10.1.0.5" {
		t.Errorf("instance NIC: %v", err)
	}
}

func TestSDKLongRunningActions(t *testing.T) {
	opts := armOptions(loadReplay(t, "baseline_ok.json"))
	ctx := context.Background()
	poll := &runtime.PollUntilDoneOptions{Frequency: time.Millisecond}

	nics := must[*armnetwork.InterfacesClient](t)(armnetwork.NewInterfacesClient(blSub, fakeCred, opts))
	poller, err := nics.BeginGetEffectiveRouteTable(ctx, "rg-hub", "nic-vm-nva", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !poller.Done() {
		t.Error("a 200 answer must finish the LRO at once")
	}
	routes, err := poller.PollUntilDone(ctx, poll)
	if err != nil {
		t.Fatal(err)
	}
	if len(routes.Value) < 3 || *routes.Value[0].NextHopType != armnetwork.RouteNextHopTypeVnetLocal {
		t.Errorf("effective routes %+v", routes.Value)
	}

	// A scale-set NIC has no effective-route API: the replay says 404.
	_, err = nics.BeginGetEffectiveRouteTable(ctx, blNodeRG, "aks-system-12345678-vmss", nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != http.StatusNotFound || re.ErrorCode != "NotFound" {
		t.Errorf("action without entry: %v", err)
	}

	gws := must[*armnetwork.VirtualNetworkGatewaysClient](t)(armnetwork.NewVirtualNetworkGatewaysClient(blSub, fakeCred, opts))
	lp, err := gws.BeginGetLearnedRoutes(ctx, "rg-hub", "vpngw", nil)
	if err != nil {
		t.Fatal(err)
	}
	learned, err := lp.PollUntilDone(ctx, poll)
	if err != nil {
		t.Fatal(err)
	}
	if len(learned.Value) != 2 || *learned.Value[1].Network != "192.168.0.0/16" || *learned.Value[1].Origin != "EBgp" {
		t.Errorf("learned routes %+v", learned.Value)
	}
	ap, err := gws.BeginGetAdvertisedRoutes(ctx, "rg-hub", "vpngw", "192.168.255.1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if adv, err := ap.PollUntilDone(ctx, poll); err != nil || len(adv.Value) != 1 {
		t.Errorf("advertised routes: %v %+v", err, adv.Value)
	}
	bp, err := gws.BeginGetBgpPeerStatus(ctx, "rg-hub", "vpngw", nil)
	if err != nil {
		t.Fatal(err)
	}
	if peers, err := bp.PollUntilDone(ctx, poll); err != nil || *peers.Value[0].State != armnetwork.BgpPeerStateConnected {
		t.Errorf("BGP peers: %v", err)
	}

	// A POST pager (DNS resolvers of a VNet) replays as one page.
	resolvers := must[*armdnsresolver.DNSResolversClient](t)(armdnsresolver.NewDNSResolversClient(blSub, fakeCred, opts))
	got := collect(t, resolvers.NewListByVirtualNetworkPager("rg-spoke", "vnet-spoke", nil), func(p armdnsresolver.DNSResolversClientListByVirtualNetworkResponse) []*armdnsresolver.SubResource {
		return p.Value
	})
	if len(got) != 0 {
		t.Errorf("resolvers %v", got)
	}
}

func TestSDKPrivateDNS(t *testing.T) {
	opts := armOptions(loadReplay(t, "baseline_ok.json"))
	records := must[*armprivatedns.RecordSetsClient](t)(armprivatedns.NewRecordSetsClient(blSub, fakeCred, opts))
	all := collect(t, records.NewListPager("rg-hub", blZone, nil), func(p armprivatedns.RecordSetsClientListResponse) []*armprivatedns.RecordSet { return p.Value })
	if got := names(all, func(r *armprivatedns.RecordSet) *string { return r.Name }); strings.Join(got, ",") != "@,contosoreg,contosoreg.westeurope.data" {
		t.Errorf("ALL: %v", got)
	}
	a := collect(t, records.NewListByTypePager("rg-hub", blZone, armprivatedns.RecordTypeA, nil), func(p armprivatedns.RecordSetsClientListByTypeResponse) []*armprivatedns.RecordSet { return p.Value })
	if len(a) != 2 || *a[0].Properties.ARecords[0].IPv4Address != "10.0.2.5" {
		t.Errorf("A records %+v", a)
	}
	rs, err := records.Get(context.Background(), "rg-hub", blZone, armprivatedns.RecordTypeA, "contosoreg.westeurope.data", nil)
	if err != nil || *rs.Properties.Fqdn != "contosoreg.westeurope.data.privatelink.azurecr.io." {
		t.Errorf("get record: %v", err)
	}

	links := must[*armprivatedns.VirtualNetworkLinksClient](t)(armprivatedns.NewVirtualNetworkLinksClient(blSub, fakeCred, opts))
	ls := collect(t, links.NewListPager("rg-hub", blZone, nil), func(p armprivatedns.VirtualNetworkLinksClientListResponse) []*armprivatedns.VirtualNetworkLink {
		return p.Value
	})
	if got := names(ls, func(l *armprivatedns.VirtualNetworkLink) *string { return l.Name }); strings.Join(got, ",") != "link-hub,link-spoke" {
		t.Errorf("links %v", got)
	}
}

func TestSDKRoleAssignmentsAndAKS(t *testing.T) {
	opts := armOptions(loadReplay(t, "baseline_ok.json"))
	ras := must[*armauthorization.RoleAssignmentsClient](t)(armauthorization.NewRoleAssignmentsClient(blSub, fakeCred, opts))
	// The provider filters by principal itself; the filter is ignored.
	list := collect(t, ras.NewListForScopePager(blRegID, &armauthorization.RoleAssignmentsClientListForScopeOptions{Filter: to.Ptr("principalId eq '" + blKubelet + "'")}),
		func(p armauthorization.RoleAssignmentsClientListForScopeResponse) []*armauthorization.RoleAssignment {
			return p.Value
		})
	if len(list) != 3 {
		t.Fatalf("%d assignments at the registry, want 3 (two there, one inherited from the subscription)", len(list))
	}
	found := false
	for _, ra := range list {
		if *ra.Properties.PrincipalID == blKubelet && strings.HasSuffix(*ra.Properties.RoleDefinitionID, acrPullID) {
			found = true
		}
	}
	if !found {
		t.Error("kubelet AcrPull assignment missing")
	}

	clusters := must[*armcontainerservice.ManagedClustersClient](t)(armcontainerservice.NewManagedClustersClient(blSub, fakeCred, opts))
	mc, err := clusters.Get(context.Background(), "rg-spoke", "aks1", nil)
	if err != nil || *mc.Properties.IdentityProfile["kubeletidentity"].ObjectID != blKubelet {
		t.Fatalf("cluster: %v", err)
	}
	pools := must[*armcontainerservice.AgentPoolsClient](t)(armcontainerservice.NewAgentPoolsClient(blSub, fakeCred, opts))
	ap := collect(t, pools.NewListPager("rg-spoke", "aks1", nil), func(p armcontainerservice.AgentPoolsClientListResponse) []*armcontainerservice.AgentPool {
		return p.Value
	})
	if got := names(ap, func(a *armcontainerservice.AgentPool) *string { return a.Name }); strings.Join(got, ",") != "system,user" {
		t.Errorf("agent pools %v", got)
	}
}

// TestSDKFaults checks how faults surface through the SDK.
func TestSDKFaults(t *testing.T) {
	two := 2
	zero := 0
	r := replayWith(t, "baseline_ok.json", func(s *Snapshot) {
		s.Faults = map[string]Fault{
			"GET /subscriptions/" + blSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/vnet-hub": {
				Status: 403, Code: "AuthorizationFailed", Message: "The client does not have authorization to perform action 'Microsoft.Network/virtualNetworks/read'.",
			},
			"GET /subscriptions/" + blSub + "/resourceGroups/rg-hub/providers/Microsoft.Network/privateDnsZones/" + blZone + "/ALL": {
				Status: 429, RetryAfterS: &zero, Times: &two,
			},
		}
	})
	ctx := context.Background()
	vnets := must[*armnetwork.VirtualNetworksClient](t)(armnetwork.NewVirtualNetworksClient(blSub, fakeCred, armOptions(r)))
	_, err := vnets.Get(ctx, "rg-hub", "vnet-hub", nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != http.StatusForbidden || re.ErrorCode != "AuthorizationFailed" {
		t.Fatalf("403: %v", err)
	}

	// With the SDK's retry on, 429 twice then the answer.
	withRetry := armOptions(r)
	withRetry.Retry = policy.RetryOptions{MaxRetries: 3, RetryDelay: time.Millisecond, MaxRetryDelay: 5 * time.Millisecond}
	records := must[*armprivatedns.RecordSetsClient](t)(armprivatedns.NewRecordSetsClient(blSub, fakeCred, withRetry))
	all := collect(t, records.NewListPager("rg-hub", blZone, nil), func(p armprivatedns.RecordSetsClientListResponse) []*armprivatedns.RecordSet { return p.Value })
	if len(all) != 3 {
		t.Errorf("%d record sets after throttling", len(all))
	}
}
