package azure

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/compute/armcompute/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerregistry/armcontainerregistry/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/dnsresolver/armdnsresolver"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/resourcegraph/armresourcegraph"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
)

const (
	replaySub            = "00000000-0000-0000-0000-000000000001"
	baselineSnapshotPath = "snapshot/testdata/baseline_ok.json"
	publicARM            = "https://management.azure.com"
)

// spyTransport records what reaches the transport.
type spyTransport struct {
	inner policy.Transporter
	mu    sync.Mutex
	seen  []string
}

func (c *spyTransport) Do(req *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.seen = append(c.seen, req.Method+" "+req.URL.Path)
	c.mu.Unlock()
	return c.inner.Do(req)
}

func (c *spyTransport) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.seen)
}

// spyCredential hands out a fake token and counts how often it was asked.
type spyCredential struct {
	mu sync.Mutex
	n  int
}

func (c *spyCredential) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return azcore.AccessToken{Token: "fake_token", ExpiresOn: time.Now().Add(time.Hour)}, nil
}

func baselineReplay(t testing.TB) *snapshot.Replay {
	t.Helper()
	r, err := snapshot.LoadReplay(baselineSnapshotPath)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func guardedClientOptions(tr policy.Transporter) *arm.ClientOptions {
	return &arm.ClientOptions{
		ClientOptions: policy.ClientOptions{
			Transport:       tr,
			Retry:           SDKRetryOptions(),
			PerCallPolicies: []policy.Policy{ReadOnlyGuard{}},
		},
		DisableRPRegistration: true,
	}
}

func assertRefused(t *testing.T, err error, method string) {
	t.Helper()
	var roe *ReadOnlyError
	if !errors.As(err, &roe) {
		t.Fatalf("not refused by the guard: %v", err)
	}
	prefix := "pullpath is read-only towards Azure: refusing " + method + " /subscriptions/"
	if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), "(only GET and the read actions effectiveRouteTable, ") {
		t.Errorf("message %q", err)
	}
}

// TestGuardRefusesWritesThroughSDK drives real SDK calls that would change
// Azure; none may reach the transport or even ask for a token.
func TestGuardRefusesWritesThroughSDK(t *testing.T) {
	tr := &spyTransport{inner: baselineReplay(t)}
	cred := &spyCredential{}
	opts := guardedClientOptions(tr)
	ctx := context.Background()
	vnets, _ := armnetwork.NewVirtualNetworksClient(replaySub, cred, opts)
	vms, _ := armcompute.NewVirtualMachinesClient(replaySub, cred, opts)
	registries, _ := armcontainerregistry.NewRegistriesClient(replaySub, cred, opts)
	clusters, _ := armcontainerservice.NewManagedClustersClient(replaySub, cred, opts)

	calls := []struct {
		name, method string
		call         func() error
	}{
		{"create VNet", http.MethodPut, func() error {
			_, err := vnets.BeginCreateOrUpdate(ctx, "rg-hub", "vnet-hub", armnetwork.VirtualNetwork{Location: to.Ptr("westeurope")}, nil)
			return err
		}},
		{"update tags", http.MethodPatch, func() error {
			_, err := vnets.UpdateTags(ctx, "rg-hub", "vnet-hub", armnetwork.TagsObject{Tags: map[string]*string{"a": to.Ptr("b")}}, nil)
			return err
		}},
		{"delete VNet", http.MethodDelete, func() error {
			_, err := vnets.BeginDelete(ctx, "rg-hub", "vnet-hub", nil)
			return err
		}},
		{"start VM", http.MethodPost, func() error {
			_, err := vms.BeginStart(ctx, "rg-hub", "vm-nva", nil)
			return err
		}},
		{"registry credentials", http.MethodPost, func() error {
			_, err := registries.ListCredentials(ctx, "rg-hub", "contosoreg", nil)
			return err
		}},
		{"cluster admin credentials", http.MethodPost, func() error {
			_, err := clusters.ListClusterAdminCredentials(ctx, "rg-spoke", "aks1", nil)
			return err
		}},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			assertRefused(t, c.call(), c.method)
		})
	}
	if n := tr.count(); n != 0 {
		t.Errorf("the transport saw %d refused requests: %v", n, tr.seen)
	}
	if cred.n != 0 {
		t.Errorf("a token was requested %d times for refused requests", cred.n)
	}
}

// TestGuardPathShapes sends raw POSTs the SDK would not build: the match is
// on whole segments, not substrings.
func TestGuardPathShapes(t *testing.T) {
	nic := "/subscriptions/" + replaySub + "/resourceGroups/rg-hub/providers/Microsoft.Network/networkInterfaces/nic-vm-nva"
	gw := "/subscriptions/" + replaySub + "/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworkGateways/vpngw"
	tests := []struct {
		name, method, path string
		allowed            bool
	}{
		{"effectiveRouteTable", "POST", nic + "/effectiveRouteTable", true},
		{"other case", "POST", strings.ToLower(nic) + "/EFFECTIVEROUTETABLE", true},
		{"query ignored", "POST", nic + "/effectiveRouteTable?api-version=2024-05-01&x=/listKeys", true},
		{"getAdvertisedRoutes with peer", "POST", gw + "/getAdvertisedRoutes?peer=10.0.0.1", true},
		{"hub effectiveRoutes", "POST", "/subscriptions/" + replaySub + "/resourceGroups/rg-vwan/providers/Microsoft.Network/virtualHubs/hub-weu/effectiveRoutes", true},
		{"hub inboundRoutes", "POST", "/subscriptions/" + replaySub + "/resourceGroups/rg-vwan/providers/Microsoft.Network/virtualHubs/hub-weu/inboundRoutes", false},
		{"hub effectiveRoutes under a child", "POST", "/subscriptions/" + replaySub + "/resourceGroups/rg-vwan/providers/Microsoft.Network/virtualHubs/hub-weu/hubRouteTables/defaultRouteTable/effectiveRoutes", false},
		{"longer action name", "POST", nic + "/effectiveRouteTableX", false},
		{"extra segment", "POST", nic + "/effectiveRouteTable/start", false},
		{"trailing slash", "POST", nic + "/effectiveRouteTable/", false},
		{"empty segment", "POST", nic + "//effectiveRouteTable", false},
		{"dot segments", "POST", nic + "/../nic-2/effectiveRouteTable", false},
		{"escaped slash in name", "POST", nic + "%2Fx/effectiveRouteTable", false},
		{"listKeys", "POST", "/subscriptions/" + replaySub + "/resourceGroups/rg-hub/providers/Microsoft.Storage/storageAccounts/sa/listKeys", false},
		{"action name as resource name", "POST", "/subscriptions/" + replaySub + "/resourceGroups/rg-hub/providers/Microsoft.Compute/virtualMachines/effectiveRouteTable/start", false},
		{"action name in name position", "POST", "/subscriptions/" + replaySub + "/resourceGroups/rg-hub/providers/Microsoft.Network/virtualNetworks/effectiveRouteTable", false},
		{"no resource group", "POST", "/subscriptions/" + replaySub + "/providers/Microsoft.Network/networkInterfaces/nic/effectiveRouteTable", false},
		{"scale-set NIC", "POST", "/subscriptions/" + replaySub + "/resourceGroups/rg/providers/Microsoft.Compute/virtualMachineScaleSets/v/virtualMachines/0/networkInterfaces/n/effectiveRouteTable", false},
		{"PUT on an action path", "PUT", nic + "/effectiveRouteTable", false},
		{"Resource Graph query", "POST", "/providers/Microsoft.ResourceGraph/resources?api-version=2024-04-01", true},
		{"Resource Graph query, other case", "POST", "/PROVIDERS/microsoft.resourcegraph/RESOURCES", true},
		{"Resource Graph history", "POST", "/providers/Microsoft.ResourceGraph/resourcesHistory", false},
		{"Resource Graph resource changes", "POST", "/providers/Microsoft.ResourceGraph/resourceChanges", false},
		{"Resource Graph query with extra segment", "POST", "/providers/Microsoft.ResourceGraph/resources/x", false},
		{"Resource Graph query in a subscription", "POST", "/subscriptions/" + replaySub + "/providers/Microsoft.ResourceGraph/resources", false},
		{"shared query created", "PUT", "/subscriptions/" + replaySub + "/resourceGroups/rg/providers/Microsoft.ResourceGraph/queries/q", false},
		{"HEAD", "HEAD", nic, false},
		{"GET", "GET", nic, true},
		{"LRO status poll", "GET", "/subscriptions/" + replaySub + "/providers/Microsoft.Network/locations/westeurope/operations/abc", true},
		{"LRO result poll", "GET", "/subscriptions/" + replaySub + "/providers/Microsoft.Network/locations/westeurope/operationResults/abc", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &spyTransport{inner: baselineReplay(t)}
			pl := runtime.NewPipeline("test", "v0", runtime.PipelineOptions{}, &policy.ClientOptions{
				Transport: tr, Retry: SDKRetryOptions(), PerCallPolicies: []policy.Policy{ReadOnlyGuard{}},
			})
			req, err := runtime.NewRequest(context.Background(), tt.method, publicARM+tt.path)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := pl.Do(req)
			if resp != nil {
				_ = resp.Body.Close()
			}
			var roe *ReadOnlyError
			refused := errors.As(err, &roe)
			if refused == tt.allowed {
				t.Errorf("allowed=%v, but refused=%v (err %v)", tt.allowed, refused, err)
			}
			if want := map[bool]int{true: 1, false: 0}[tt.allowed]; tr.count() != want {
				t.Errorf("transport saw %d requests, want %d", tr.count(), want)
			}
			if refused && strings.Contains(err.Error(), "?") {
				t.Errorf("the message carries the query string: %v", err)
			}
		})
	}
}

// TestGuardAllowsReadActionsThroughSDK: every allowed action passes the
// guard when the real SDK builds it.
func TestGuardAllowsReadActionsThroughSDK(t *testing.T) {
	tr := &spyTransport{inner: baselineReplay(t)}
	opts := guardedClientOptions(tr)
	cred := &spyCredential{}
	ctx := context.Background()
	nics, _ := armnetwork.NewInterfacesClient(replaySub, cred, opts)
	gws, _ := armnetwork.NewVirtualNetworkGatewaysClient(replaySub, cred, opts)
	watchers, _ := armnetwork.NewWatchersClient(replaySub, cred, opts)
	vnets, _ := armnetwork.NewVirtualNetworksClient(replaySub, cred, opts)
	resolvers, _ := armdnsresolver.NewDNSResolversClient(replaySub, cred, opts)
	rulesets, _ := armdnsresolver.NewDNSForwardingRulesetsClient(replaySub, cred, opts)
	graph, _ := armresourcegraph.NewClient(cred, opts)

	calls := map[string]func() error{
		"GET VNet": func() error { _, err := vnets.Get(ctx, "rg-hub", "vnet-hub", nil); return err },
		"effectiveRouteTable": func() error {
			_, err := nics.BeginGetEffectiveRouteTable(ctx, "rg-hub", "nic-vm-nva", nil)
			return err
		},
		"effectiveNetworkSecurityGroups": func() error {
			_, err := nics.BeginListEffectiveNetworkSecurityGroups(ctx, "rg-hub", "nic-vm-nva", nil)
			return err
		},
		"getLearnedRoutes": func() error { _, err := gws.BeginGetLearnedRoutes(ctx, "rg-hub", "vpngw", nil); return err },
		"getAdvertisedRoutes": func() error {
			_, err := gws.BeginGetAdvertisedRoutes(ctx, "rg-hub", "vpngw", "192.168.255.1", nil)
			return err
		},
		"getBgpPeerStatus": func() error { _, err := gws.BeginGetBgpPeerStatus(ctx, "rg-hub", "vpngw", nil); return err },
		"nextHop": func() error {
			_, err := watchers.BeginGetNextHop(ctx, "NetworkWatcherRG", "NetworkWatcher_westeurope", armnetwork.NextHopParameters{
				TargetResourceID: to.Ptr("/subscriptions/x/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm"),
				SourceIPAddress:  to.Ptr("10.1.0.4"), DestinationIPAddress: to.Ptr("10.0.2.5"),
			}, nil)
			return err
		},
		"listDnsResolvers": func() error {
			_, err := resolvers.NewListByVirtualNetworkPager("rg-hub", "vnet-hub", nil).NextPage(ctx)
			return err
		},
		"listDnsForwardingRulesets": func() error {
			_, err := rulesets.NewListByVirtualNetworkPager("rg-hub", "vnet-hub", nil).NextPage(ctx)
			return err
		},
		"Resource Graph query": func() error {
			_, err := graph.Resources(ctx, armresourcegraph.QueryRequest{Query: to.Ptr("resources | take 1")}, nil)
			return err
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			before := tr.count()
			err := call()
			var roe *ReadOnlyError
			if errors.As(err, &roe) {
				t.Fatalf("refused: %v", err)
			}
			// The replay has no entry for some of them (404): that is
			// an answer from the transport, which is what counts here.
			var re *azcore.ResponseError
			if err != nil && !errors.As(err, &re) {
				t.Fatalf("unexpected error: %v", err)
			}
			if tr.count() != before+1 {
				t.Errorf("transport saw %d requests, want 1", tr.count()-before)
			}
		})
	}
}

// TestGuardInPerRetrySlot: placed after the SDK's retry, the refusal is not
// retried either.
func TestGuardInPerRetrySlot(t *testing.T) {
	tr := &spyTransport{inner: baselineReplay(t)}
	calls := 0
	counted := guardPolicyFunc(func(req *policy.Request) (*http.Response, error) {
		calls++
		return ReadOnlyGuard{}.Do(req)
	})
	opts := &arm.ClientOptions{ClientOptions: policy.ClientOptions{
		Transport:        tr,
		Retry:            policy.RetryOptions{MaxRetries: 3, RetryDelay: time.Millisecond},
		PerRetryPolicies: []policy.Policy{counted},
	}, DisableRPRegistration: true}
	vnets, _ := armnetwork.NewVirtualNetworksClient(replaySub, &spyCredential{}, opts)
	_, err := vnets.BeginDelete(context.Background(), "rg-hub", "vnet-hub", nil)
	assertRefused(t, err, http.MethodDelete)
	if calls != 1 || tr.count() != 0 {
		t.Errorf("guard ran %d times, transport saw %d requests; want 1 and 0", calls, tr.count())
	}
}

type guardPolicyFunc func(*policy.Request) (*http.Response, error)

func (f guardPolicyFunc) Do(req *policy.Request) (*http.Response, error) { return f(req) }

// TestReadActionsData checks the exported allow-list: POST only, and each
// RBAC action names the resource type and operation of its path, so that a
// custom role built from it grants exactly these reads.
func TestReadActionsData(t *testing.T) {
	list := ReadActions()
	if len(list) != 12 {
		t.Fatalf("%d allowed actions, want 12", len(list))
	}
	for _, a := range list {
		segs := strings.Split(strings.TrimPrefix(a.PathPattern, "/"), "/")
		if a.Method != http.MethodPost {
			t.Errorf("unexpected method %+v", a)
			continue
		}
		var want string
		switch {
		// providers/Microsoft.ResourceGraph/resources: a query, which
		// needs read on the resources it returns.
		case len(segs) == 3 && segs[0] == "providers" && segs[1] == "Microsoft.ResourceGraph":
			want = segs[1] + "/" + segs[2] + "/read"
		// subscriptions/{}/resourceGroups/{}/providers/{ns}/{type}/{name}[/{child type}/{name}]/{op}
		case (len(segs) == 9 || len(segs) == 11) && segs[4] == "providers":
			want = segs[5] + "/" + segs[6]
			if len(segs) == 11 {
				want += "/" + segs[8]
			}
			want += "/" + segs[len(segs)-1] + "/action"
		default:
			t.Errorf("unexpected entry %+v", a)
			continue
		}
		if a.Action != want {
			t.Errorf("%s: action %q, want %q", a.PathPattern, a.Action, want)
		}
	}
	list[0].PathPattern = "/{anything}"
	if ReadActions()[0].PathPattern == "/{anything}" {
		t.Error("ReadActions exposes the guard's own slice")
	}
}

func TestRequiredAction(t *testing.T) {
	const rg = "/subscriptions/s/resourceGroups/rg/providers/"
	for _, tc := range []struct{ method, path, want string }{
		{"GET", rg + "Microsoft.Network/virtualNetworks/v?api-version=1", "Microsoft.Network/virtualNetworks/read"},
		{"GET", rg + "Microsoft.Network/virtualNetworks", "Microsoft.Network/virtualNetworks/read"},
		{"GET", "/subscriptions/s/providers/Microsoft.Network/privateDnsZones", "Microsoft.Network/privateDnsZones/read"},
		{"GET", rg + "Microsoft.Network/privateDnsZones/z/ALL", "Microsoft.Network/privateDnsZones/ALL/read"},
		{"GET", rg + "Microsoft.Compute/virtualMachineScaleSets/v/virtualMachines/1/networkInterfaces/n", "Microsoft.Compute/virtualMachineScaleSets/virtualMachines/networkInterfaces/read"},
		{"GET", rg + "Microsoft.ContainerRegistry/registries/r/providers/Microsoft.Authorization/roleAssignments", "Microsoft.Authorization/roleAssignments/read"},
		{"GET", "/subscriptions/s/providers/Microsoft.Authorization/roleDefinitions/7f951dda", "Microsoft.Authorization/roleDefinitions/read"},
		{"post", rg + "Microsoft.Network/networkInterfaces/nic/effectiveRouteTable", "Microsoft.Network/networkInterfaces/effectiveRouteTable/action"},
		{"POST", "/providers/Microsoft.ResourceGraph/resources?api-version=2024-04-01", "Microsoft.ResourceGraph/resources/read"},
	} {
		if got, err := RequiredAction(tc.method, tc.path); err != nil || got != tc.want {
			t.Errorf("%s %s: %q, %v; want %q", tc.method, tc.path, got, err, tc.want)
		}
	}
	for _, bad := range [][2]string{
		{"POST", rg + "Microsoft.Network/networkInterfaces/nic/write"},
		{"PUT", rg + "Microsoft.Network/virtualNetworks/v"},
		{"GET", "/subscriptions/s/resourceGroups/rg"},
		{"POST", "/providers/Microsoft.ResourceGraph/resourceChanges"},
	} {
		if got, err := RequiredAction(bad[0], bad[1]); err == nil {
			t.Errorf("%s %s: %q, want an error", bad[0], bad[1], got)
		}
	}
}
