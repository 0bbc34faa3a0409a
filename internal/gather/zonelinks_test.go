package gather

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

const centralSub = "00000000-0000-0000-0000-0000000000d5"

var centralZone = model.ResourceID("/subscriptions/" + centralSub + "/resourceGroups/rg-dns/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io")

// centralZoneSnapshot is baseline_ok with privatelink.azurecr.io in a
// connectivity subscription nobody names and no DNS zone group on pe-acr
// (its records are written by policy): nothing but the zone's own links
// points at it. edit may change the snapshot further.
func centralZoneSnapshot(t *testing.T, edit func(m map[string]any)) *snapshot.Snapshot {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "baseline_ok.json"))
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.ReplaceAll(string(b), string(zoneACR), string(centralZone)))
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var kept []any
	for _, res := range m["resources"].([]any) {
		if !strings.Contains(res.(map[string]any)["id"].(string), "/privateDnsZoneGroups/") {
			kept = append(kept, res)
		}
	}
	m["resources"] = kept
	if edit != nil {
		edit(m)
	}
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func graphFault(status int) func(m map[string]any) {
	return func(m map[string]any) {
		m["faults"] = map[string]any{"POST " + string(ResourceGraphQuery): map[string]any{"status": status}}
	}
}

// A central zone in a subscription nobody named is found through Resource
// Graph, read by id, and answers: reachable.
func TestLinkedZonesCentralZone(t *testing.T) {
	r, ct := newReaderFrom(t, centralZoneSnapshot(t, nil))
	f, res := verifyFacts(t, r, acrRequest)
	requireNoGaps(t, r)
	if res.Verdict != model.Reachable || f.DNS.Zones[centralZone.Key()] == nil {
		t.Fatalf("verdict %s zones %v\n%s", res.Verdict, keys(f.DNS.Zones), res.Summary)
	}
	if n := ct.count("POST", ResourceGraphQuery); n != 1 {
		t.Errorf("%d Resource Graph queries, want 1", n)
	}
	if ct.count("GET", centralZone) != 1 || ct.count("GET", "/subscriptions/"+centralSub+"/providers/Microsoft.Network/privateDnsZones") != 0 {
		t.Errorf("the zone is read by id once, its subscription is not listed")
	}
	s := f.DNS.LinkSearch
	if !s.CoveredEverywhere(vnetSpoke) || s.Declared || !s.Query.Equal(ResourceGraphQuery) {
		t.Errorf("link search %+v", s)
	}
}

// Resource Graph refused: the central zone is unknown, and so is the answer.
// Never DNS_ZONE_NOT_LINKED for a zone the provider could not look for.
func TestLinkedZonesGraphRefused(t *testing.T) {
	r, ct := newReaderFrom(t, centralZoneSnapshot(t, graphFault(403)))
	f, res := verifyFacts(t, r, acrRequest)
	gap, ok := r.Gaps().Lookup(ResourceGraphQuery)
	if !ok || gap.Kind != model.GapPermissionDenied || gap.Permission != "Microsoft.ResourceGraph/resources/read" {
		t.Fatalf("gap %+v", gap)
	}
	if f.DNS.LinkSearch.CoveredEverywhere(vnetSpoke) || ct.count("GET", centralZone) != 0 {
		t.Errorf("link search %+v; zone read %d times", f.DNS.LinkSearch, ct.count("GET", centralZone))
	}
	if res.Verdict != model.Unverified || codes(res)[model.DNSZoneNotLinked] || codes(res)[model.EndpointPublicAccessDenied] {
		t.Fatalf("verdict %s codes %v", res.Verdict, codes(res))
	}
	if fd := findingOf(res, model.EvidencePermissionDenied); fd == nil || !fd.ResourceID.Equal(ResourceGraphQuery) ||
		!strings.Contains(fd.Remediation, " zone_subscription_ids") {
		t.Errorf("finding %+v", fd)
	}
}

// A zone Resource Graph names that cannot be read is recorded as unread:
// the answer is unknown, never DNS_ZONE_NOT_LINKED.
func TestLinkedZonesUnreadableZone(t *testing.T) {
	r, _ := newReaderFrom(t, centralZoneSnapshot(t, func(m map[string]any) {
		m["faults"] = map[string]any{"GET " + string(centralZone): map[string]any{"status": 403}}
	}))
	f, res := verifyFacts(t, r, acrRequest)
	if !reflect.DeepEqual(f.DNS.LinkSearch.Unread, []model.ResourceID{centralZone}) || !f.DNS.LinkSearch.CoveredEverywhere(vnetSpoke) {
		t.Errorf("link search %+v", f.DNS.LinkSearch)
	}
	if res.Verdict != model.Unverified || codes(res)[model.DNSZoneNotLinked] {
		t.Errorf("verdict %s codes %v", res.Verdict, codes(res))
	}
	if fd := findingOf(res, model.EvidencePermissionDenied); fd == nil || !fd.ResourceID.Equal(centralZone) {
		t.Errorf("finding %+v", fd)
	}
}

// With the zone subscriptions named, Resource Graph is not asked: a refusal
// of it changes nothing, and the named subscription's zones answer.
func TestLinkedZonesDeclaredSubscriptions(t *testing.T) {
	r, ct := newReaderFrom(t, centralZoneSnapshot(t, graphFault(403)))
	q := acrRequest
	q.ZoneSubscriptionIDs = []string{centralSub}
	f, res := verifyFacts(t, r, q)
	requireNoGaps(t, r)
	if res.Verdict != model.Reachable || ct.count("POST", ResourceGraphQuery) != 0 {
		t.Fatalf("verdict %s, %d queries\n%s", res.Verdict, ct.count("POST", ResourceGraphQuery), res.Summary)
	}
	s := f.DNS.LinkSearch
	if !s.Declared || !s.Query.IsZero() || !reflect.DeepEqual(s.Subscriptions, []string{"00000000-0000-0000-0000-000000000001", centralSub}) {
		t.Errorf("link search %+v", s)
	}
}

// No name a pull resolves can come from a private zone: nothing is asked.
func TestLinkedZonesNotAskedWithoutPrivateNames(t *testing.T) {
	r, ct := withSnapshot(t, "baseline_ok", func(m map[string]any) {
		for _, res := range m["resources"].([]any) {
			obj := res.(map[string]any)
			if strings.EqualFold(obj["id"].(string), string(acr)) {
				obj["properties"].(map[string]any)["privateEndpointConnections"] = []any{}
			}
		}
	})
	if _, _ = verifyFacts(t, r, acrRequest); ct.count("POST", ResourceGraphQuery) != 0 {
		t.Errorf("a registry without private endpoints needs no zone search")
	}
	r, ct = withSnapshot(t, "gateway_transit_missing", func(map[string]any) {})
	q := harborRequest
	q.Declared = &model.DeclaredRegistry{Hosts: []string{"harbor.corp.example"}, Addresses: map[string]netip.Addr{"harbor.corp.example": ip("192.168.1.4")}}
	if _, _ = verifyFacts(t, r, q); ct.count("POST", ResourceGraphQuery) != 0 {
		t.Errorf("declared hosts with declared addresses need no zone search")
	}
	r, ct = withSnapshot(t, "gateway_transit_missing", func(map[string]any) {})
	if _, _ = verifyFacts(t, r, harborRequest); ct.count("POST", ResourceGraphQuery) != 1 {
		t.Errorf("a declared host without an address is looked for in private zones")
	}
}

// graphPages answers Resource Graph queries with scripted pages, by the
// $skipToken of the request body, and everything else from the replay.
type graphPages struct {
	inner  policy.Transporter
	pages  map[string]string // skip token ("" for the first page) → body
	bodies []string
}

func (g *graphPages) Do(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || !strings.EqualFold(req.URL.Path, string(ResourceGraphQuery)) {
		return g.inner.Do(req)
	}
	raw, _ := io.ReadAll(req.Body)
	g.bodies = append(g.bodies, string(raw))
	var q struct {
		Options struct {
			SkipToken string `json:"$skipToken"`
		} `json:"options"`
	}
	_ = json.Unmarshal(raw, &q)
	body, ok := g.pages[q.Options.SkipToken]
	if !ok {
		body = `{"error":{"code":"BadRequest","message":"unknown skip token"}}`
		return &http.Response{StatusCode: 400, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
	}
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader([]byte(body))), Request: req}, nil
}

func readerWithGraph(t *testing.T, pages map[string]string) (*Reader, *graphPages) {
	t.Helper()
	replay, err := snapshot.NewReplay(centralZoneSnapshot(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	g := &graphPages{inner: replay, pages: pages}
	clients := azure.NewClients(azure.Options{
		Transport:  g,
		Credential: func() (azcore.TokenCredential, error) { return &fake.TokenCredential{}, nil },
		Retry:      policy.RetryOptions{MaxRetries: 1, RetryDelay: time.Millisecond, MaxRetryDelay: time.Millisecond},
	})
	return New(clients), g
}

// Every page is read (objectArray or table), links to other VNets are
// left out, and the query names the VNets.
func TestZonesLinkedToPages(t *testing.T) {
	other := model.ResourceID("/subscriptions/" + centralSub + "/resourceGroups/rg-dns/providers/Microsoft.Network/privateDnsZones/privatelink.blob.core.windows.net")
	regional := model.ResourceID("/subscriptions/" + centralSub + "/resourceGroups/rg-dns/providers/Microsoft.Network/privateDnsZones/westeurope.data.privatelink.azurecr.io")
	row := func(zone, vnet model.ResourceID) string {
		return `{"id":"` + string(zone) + `/virtualNetworkLinks/l-` + vnet.Name() + `","vnetId":"` + strings.ToLower(string(vnet)) + `"}`
	}
	r, g := readerWithGraph(t, map[string]string{
		"": `{"totalRecords":3,"count":2,"resultTruncated":"false","$skipToken":"p2","data":[` +
			row(centralZone, vnetSpoke) + `,` + row(other, "/subscriptions/x/resourceGroups/y/providers/Microsoft.Network/virtualNetworks/elsewhere") + `]}`,
		"p2": `{"totalRecords":3,"count":1,"resultTruncated":"false","data":{"columns":[{"name":"id","type":"string"},{"name":"vnetId","type":"string"}],` +
			`"rows":[["` + string(regional) + `/virtualNetworkLinks/l","` + string(vnetHub) + `"]]}}`,
	})
	got, err := r.ZonesLinkedTo(testCtx(t), []model.ResourceID{vnetSpoke, vnetHub, vnetSpoke})
	if err != nil {
		t.Fatal(err)
	}
	if want := []model.ResourceID{centralZone, regional}; !reflect.DeepEqual(got, want) {
		t.Errorf("zones %v, want %v", got, want)
	}
	if len(g.bodies) != 2 || !strings.Contains(g.bodies[1], `"$skipToken":"p2"`) {
		t.Fatalf("requests %v", g.bodies)
	}
	for _, want := range []string{"privatednszones/virtualnetworklinks", "'" + vnetHub.Key() + "', '" + vnetSpoke.Key() + "'", `"resultFormat":"objectArray"`} {
		if !strings.Contains(g.bodies[0], want) {
			t.Errorf("query %s lacks %s", g.bodies[0], want)
		}
	}
	requireNoGaps(t, r)
}

// A result Resource Graph cut short is an error and a gap, never a
// partial answer.
func TestZonesLinkedToTruncated(t *testing.T) {
	endless := `{"totalRecords":5000,"count":0,"resultTruncated":"false","$skipToken":"again","data":[]}`
	for name, pages := range map[string]map[string]string{
		"truncated": {"": `{"totalRecords":5000,"count":1000,"resultTruncated":"true","data":[]}`},
		"endless":   {"": endless, "again": endless},
		"refused":   {},
	} {
		t.Run(name, func(t *testing.T) {
			r, _ := readerWithGraph(t, pages)
			if got, err := r.ZonesLinkedTo(testCtx(t), []model.ResourceID{vnetSpoke}); err == nil {
				t.Fatalf("no error, zones %v", got)
			}
			if _, ok := r.Gaps().Lookup(ResourceGraphQuery); !ok {
				t.Errorf("no gap on %s", ResourceGraphQuery)
			}
		})
	}
}

func TestLinkedZoneRows(t *testing.T) {
	want := model.NewZoneLinkQuery([]model.ResourceID{vnetSpoke})
	link := string(centralZone) + "/virtualNetworkLinks/l"
	for _, tc := range []struct {
		name string
		row  map[string]any
		ok   bool
	}{
		{"projected", map[string]any{"id": link, "vnetId": strings.ToUpper(string(vnetSpoke))}, true},
		{"whole resource", map[string]any{"id": link, "properties": map[string]any{"virtualNetwork": map[string]any{"id": string(vnetSpoke)}}}, true},
		{"another VNet", map[string]any{"id": link, "vnetId": string(vnetHub)}, false},
		{"VNet not said: the zone's own links decide", map[string]any{"id": link}, true},
		{"not a zone link", map[string]any{"id": string(vnetSpoke) + "/virtualNetworkLinks/l"}, false},
		{"no id", map[string]any{"vnetId": string(vnetSpoke)}, false},
	} {
		var zones []model.ResourceID
		if l, ok := linkRow(tc.row, want); ok {
			zones = graphLinks{l}.linkedTo(want.VNets)
		}
		if ok := len(zones) == 1; ok != tc.ok || (ok && !zones[0].Equal(centralZone)) {
			t.Errorf("%s: %v", tc.name, zones)
		}
	}
	if _, err := graphRows("rows"); err == nil {
		t.Error("a string result is accepted")
	}
}

// The zone search asks for the links of every zone in the registry's
// domains (every cloud's, the login server not being read yet) and answers
// for the VNets from them; a name in another domain (a CNAME target) asks
// for the VNets' links instead. Each query is sent once.
func TestZoneSearchByDomain(t *testing.T) {
	other := model.ResourceID("/subscriptions/" + centralSub + "/resourceGroups/rg-dns/providers/Microsoft.Network/privateDnsZones/contoso.internal")
	row := func(zone, vnet model.ResourceID) string {
		return `{"id":"` + string(zone) + `/virtualNetworkLinks/l-` + vnet.Name() + `","vnetId":"` + strings.ToLower(string(vnet)) + `"}`
	}
	r, g := readerWithGraph(t, map[string]string{
		"": `{"totalRecords":3,"count":3,"resultTruncated":"false","data":[` +
			row(centralZone, vnetSpoke) + `,` + row(centralZone, "/subscriptions/x/resourceGroups/y/providers/Microsoft.Network/virtualNetworks/elsewhere") + `,` +
			row(other, vnetSpoke) + `]}`,
	})
	s := newZoneSearch(VerificationRequest{ClusterID: "/c", RegistryID: "/r"})
	if want := []string{"azurecr.cn", "azurecr.io", "azurecr.us"}; !reflect.DeepEqual(s.domains, want) {
		t.Fatalf("domains %v, want %v", s.domains, want)
	}
	if named := newZoneSearch(VerificationRequest{RegistryID: "/r", ZoneSubscriptionIDs: []string{"s"}}); len(named.domains) != 0 {
		t.Errorf("zone subscriptions named, still a search by %v", named.domains)
	}
	lookup := &zoneLinkLookup{search: s, vnets: []model.ResourceID{vnetSpoke}}
	for range 2 {
		got, err := lookup.zones(testCtx(t), r, []string{"contosoreg.azurecr.io", "privatelink.azurecr.io"})
		if err != nil || !reflect.DeepEqual(got, []model.ResourceID{centralZone}) {
			t.Fatalf("zones %v, %v; want the central zone only (the search's other rows are another domain or VNet)", got, err)
		}
	}
	if len(g.bodies) != 1 || !strings.Contains(g.bodies[0], `zoneDomain in ('azurecr.cn', 'azurecr.io', 'azurecr.us')`) || strings.Contains(g.bodies[0], "vnetId in") {
		t.Fatalf("requests %v", g.bodies)
	}
	got, err := lookup.zones(testCtx(t), r, []string{"registry.contoso.internal"})
	if err != nil || !reflect.DeepEqual(got, []model.ResourceID{other, centralZone}) {
		t.Errorf("zones for a name in another domain %v, %v", got, err)
	}
	if len(g.bodies) != 2 || !strings.Contains(g.bodies[1], "vnetId in ('"+vnetSpoke.Key()+"')") {
		t.Errorf("requests %v", g.bodies)
	}
	requireNoGaps(t, r)
}
