package gather

import (
	"context"
	"encoding/json"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Ids of the scenario snapshots.
const (
	sub       = "/subscriptions/00000000-0000-0000-0000-000000000001"
	hubRG     = sub + "/resourceGroups/rg-hub"
	spokeRG   = sub + "/resourceGroups/rg-spoke"
	nodeRG    = sub + "/resourceGroups/MC_rg-spoke_aks1_westeurope"
	vnetHub   = model.ResourceID(hubRG + "/providers/Microsoft.Network/virtualNetworks/vnet-hub")
	vnetSpoke = model.ResourceID(spokeRG + "/providers/Microsoft.Network/virtualNetworks/vnet-spoke")
	snetAKS   = vnetSpoke + "/subnets/snet-aks"
	snetPE    = vnetHub + "/subnets/snet-pe"
	snetNVA   = vnetHub + "/subnets/snet-nva"
	gwSubnet  = vnetHub + "/subnets/GatewaySubnet"
	vpngw     = model.ResourceID(hubRG + "/providers/Microsoft.Network/virtualNetworkGateways/vpngw")
	peACR     = model.ResourceID(hubRG + "/providers/Microsoft.Network/privateEndpoints/pe-acr")
	peNIC     = model.ResourceID(hubRG + "/providers/Microsoft.Network/networkInterfaces/pe-acr.nic.214b77c1-f82a-5a35-881f-d6a8b4c2e087")
	nvaNIC    = model.ResourceID(hubRG + "/providers/Microsoft.Network/networkInterfaces/nic-vm-nva")
	dnsNIC    = model.ResourceID(hubRG + "/providers/Microsoft.Network/networkInterfaces/nic-vm-dns")
	vmNVA     = model.ResourceID(hubRG + "/providers/Microsoft.Compute/virtualMachines/vm-nva")
	aks1      = model.ResourceID(spokeRG + "/providers/Microsoft.ContainerService/managedClusters/aks1")
	vmssSys   = model.ResourceID(nodeRG + "/providers/Microsoft.Compute/virtualMachineScaleSets/aks-system-12345678-vmss")
	vmssUser  = model.ResourceID(nodeRG + "/providers/Microsoft.Compute/virtualMachineScaleSets/aks-user-12345679-vmss")
	vmssNIC0  = vmssSys + "/virtualMachines/0/networkInterfaces/aks-system-12345678-vmss"
	vmssNIC1  = vmssSys + "/virtualMachines/1/networkInterfaces/aks-system-12345678-vmss"
	acr       = model.ResourceID(hubRG + "/providers/Microsoft.ContainerRegistry/registries/contosoreg")
	zoneACR   = model.ResourceID(hubRG + "/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io")
	rtAKS     = model.ResourceID(spokeRG + "/providers/Microsoft.Network/routeTables/rt-aks")
	lgwOnprem = model.ResourceID(hubRG + "/providers/Microsoft.Network/localNetworkGateways/lgw-onprem")
	cnOnprem  = model.ResourceID(hubRG + "/providers/Microsoft.Network/connections/cn-onprem")
	kubeletID = "c97076e7-a42f-5da7-b72a-14b385fe0c6b"
)

// rawSnapshot is a testdata snapshot as plain JSON, for the conversion
// tests (which take ARM bodies from the scenarios).
type rawSnapshot struct {
	Resources []json.RawMessage          `json:"resources"`
	Actions   map[string]json.RawMessage `json:"actions"`
}

func loadRaw(t *testing.T, scenario string) rawSnapshot {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", scenario+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var s rawSnapshot
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// resource returns the ARM body with that id from a scenario.
func resource(t *testing.T, scenario string, id model.ResourceID) []byte {
	t.Helper()
	for _, r := range loadRaw(t, scenario).Resources {
		var head struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(r, &head); err != nil {
			t.Fatal(err)
		}
		if model.ResourceID(head.ID).Equal(id) {
			return r
		}
	}
	t.Fatalf("%s: no resource %s", scenario, id)
	return nil
}

// action returns the body of a POST action of a scenario.
func action(t *testing.T, scenario string, path model.ResourceID) []byte {
	t.Helper()
	for k, v := range loadRaw(t, scenario).Actions {
		if strings.EqualFold(k, "POST "+string(path)) {
			return v
		}
	}
	t.Fatalf("%s: no action POST %s", scenario, path)
	return nil
}

// sdk unmarshals an ARM body into an SDK model.
func sdk[T any](t *testing.T, body []byte) *T {
	t.Helper()
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("unmarshal into %T: %v", v, err)
	}
	return &v
}

func pfx(s string) netip.Prefix { return netip.MustParsePrefix(s) }
func ip(s string) netip.Addr    { return netip.MustParseAddr(s) }

// countingTransport counts requests per method and path (lower case).
type countingTransport struct {
	inner    policy.Transporter
	mu       sync.Mutex
	n        map[string]int
	total    int
	inFlight int
	maxIn    int
	queries  []string
}

func (c *countingTransport) Do(req *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.n[req.Method+" "+strings.ToLower(req.URL.Path)]++
	c.queries = append(c.queries, req.URL.RawQuery)
	c.total++
	c.inFlight++
	c.maxIn = max(c.maxIn, c.inFlight)
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.inFlight--
		c.mu.Unlock()
	}()
	return c.inner.Do(req)
}

func (c *countingTransport) maxInFlight() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.maxIn
}

func (c *countingTransport) count(method string, path model.ResourceID) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[method+" "+strings.ToLower(string(path))]
}

func (c *countingTransport) requests() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}

// newReader returns a Reader over a testdata snapshot served by the
// snapshot replay through the real SDK clients, and the request counter.
func newReader(t *testing.T, scenario string) (*Reader, *countingTransport) {
	t.Helper()
	s, err := snapshot.Load(filepath.Join("testdata", scenario+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return newReaderFrom(t, s)
}

func newReaderFrom(t *testing.T, s *snapshot.Snapshot) (*Reader, *countingTransport) {
	t.Helper()
	replay, err := snapshot.NewReplay(s)
	if err != nil {
		t.Fatal(err)
	}
	ct := &countingTransport{inner: replay, n: map[string]int{}}
	clients := azure.NewClients(azure.Options{
		Transport:  ct,
		Credential: func() (azcore.TokenCredential, error) { return &fake.TokenCredential{}, nil },
		Retry:      policy.RetryOptions{MaxRetries: 3, RetryDelay: time.Millisecond, MaxRetryDelay: 5 * time.Millisecond},
	})
	return New(clients), ct
}

func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func requireNoGaps(t *testing.T, r *Reader) {
	t.Helper()
	for _, g := range r.Gaps().Sorted() {
		t.Errorf("unexpected gap: %s %s (%s): %s", g.Kind, g.ResourceID, g.Permission, g.Detail)
	}
}

func idList(in ...model.ResourceID) []model.ResourceID { return in }
