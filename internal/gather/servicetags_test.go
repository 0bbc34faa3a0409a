// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

const (
	nsgAKS   = model.ResourceID(spokeRG + "/providers/Microsoft.Network/networkSecurityGroups/nsg-aks")
	tagsPath = model.ResourceID(sub + "/providers/Microsoft.Network/locations/westeurope/serviceTags")
)

// tagsAnswer is a small Service Tag Discovery answer in the shape ARM
// gives it.
const tagsAnswer = `{"name":"Public","id":"` + sub + `/providers/Microsoft.Network/serviceTags/Public","type":"Microsoft.Network/serviceTags","changeNumber":"7","cloud":"Public","values":[` +
	`{"name":"AzureContainerRegistry","id":"AzureContainerRegistry","properties":{"changeNumber":"3","region":"","systemService":"AzureContainerRegistry","addressPrefixes":["20.61.0.0/27","51.12.0.0/24","2603:1020:206::/48"]}},` +
	`{"name":"AzureContainerRegistry.WestEurope","id":"AzureContainerRegistry.WestEurope","properties":{"changeNumber":"2","region":"westeurope","systemService":"AzureContainerRegistry","addressPrefixes":["20.61.0.0/27"]}},` +
	`{"name":"Storage.WestEurope","id":"Storage.WestEurope","properties":{"changeNumber":"5","region":"westeurope","systemService":"AzureStorage","addressPrefixes":["20.38.108.0/23","52.239.140.0/22"]}}]}`

// withServiceTags is baseline_ok with a security group on the node subnet
// that denies outbound HTTPS to the AzureContainerRegistry tag (so the
// tags are needed) and, when answer is not empty, the Service Tag
// Discovery answer for westeurope.
func withServiceTags(t *testing.T, answer string, faults map[string]snapshot.Fault) *snapshot.Snapshot {
	t.Helper()
	s, err := snapshot.Load(filepath.Join("testdata", "baseline_ok.json"))
	if err != nil {
		t.Fatal(err)
	}
	nsg := `{"id":"` + string(nsgAKS) + `","name":"nsg-aks","type":"Microsoft.Network/networkSecurityGroups","location":"westeurope","properties":{"securityRules":[` +
		`{"name":"DenyAcr","properties":{"priority":100,"direction":"Outbound","access":"Deny","protocol":"Tcp","sourcePortRange":"*","destinationPortRange":"443","sourceAddressPrefix":"*","destinationAddressPrefix":"AzureContainerRegistry"}}]}}`
	res, err := snapshot.NewResource([]byte(nsg))
	if err != nil {
		t.Fatal(err)
	}
	s.Resources = append(s.Resources, res)
	for i, r := range s.Resources {
		if !model.ResourceID(r.ID).Equal(vnetSpoke) {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal(r.Body, &v); err != nil {
			t.Fatal(err)
		}
		subnet := v["properties"].(map[string]any)["subnets"].([]any)[0].(map[string]any)
		subnet["properties"].(map[string]any)["networkSecurityGroup"] = map[string]any{"id": string(nsgAKS)}
		body, _ := json.Marshal(v)
		if s.Resources[i], err = snapshot.NewResource(body); err != nil {
			t.Fatal(err)
		}
	}
	if answer != "" {
		s.Actions["GET "+string(tagsPath)] = json.RawMessage(answer)
	}
	s.Faults = faults
	return s
}

func TestServiceTagsFromSDK(t *testing.T) {
	res := sdk[armnetwork.ServiceTagsListResult](t, []byte(tagsAnswer))
	tags, err := serviceTagsFromSDK(tagsPath, "West Europe", res)
	if err != nil {
		t.Fatal(err)
	}
	if tags.ID != tagsPath || tags.Location != "westeurope" || tags.Cloud != "Public" || tags.ChangeNumber != "7" || tags.Len() != 3 {
		t.Errorf("tags %+v", tags)
	}
	acrWE, ok := tags.Regional("AzureContainerRegistry", "westeurope")
	if !ok || acrWE.Region != "westeurope" || acrWE.SystemService != "AzureContainerRegistry" || len(acrWE.Prefixes) != 1 || acrWE.Prefixes[0] != pfx("20.61.0.0/27") {
		t.Errorf("AzureContainerRegistry.WestEurope = %+v, %v", acrWE, ok)
	}
	if acr, ok := tags.Lookup("azurecontainerregistry"); !ok || len(acr.Prefixes) != 3 || acr.Prefixes[2] != pfx("2603:1020:206::/48") {
		t.Errorf("AzureContainerRegistry = %+v, %v", acr, ok)
	}

	malformed := map[string]struct{ body, want string }{
		"null value":    {`{"values":[null]}`, "values[0] is null"},
		"no name":       {`{"values":[{"properties":{"addressPrefixes":[]}}]}`, "values[0] has no name"},
		"no properties": {`{"values":[{"name":"Storage"}]}`, "service tag Storage (values[0]) has no properties"},
		"bad prefix":    {`{"values":[{"name":"Storage","properties":{"addressPrefixes":["20.38.108.0/23","not-a-prefix"]}}]}`, `service tag Storage: addressPrefixes[1] "not-a-prefix" is not an address prefix`},
		"bare address":  {`{"values":[{"name":"Storage","properties":{"addressPrefixes":["20.38.108.1"]}}]}`, `"20.38.108.1" is not an address prefix`},
		"null prefix":   {`{"values":[{"name":"Storage","properties":{"addressPrefixes":[null]}}]}`, "addressPrefixes[0] is null"},
		"twice":         {`{"values":[{"name":"Storage","properties":{}},{"name":"storage","properties":{}}]}`, "listed twice"},
	}
	for name, tc := range malformed {
		_, err := serviceTagsFromSDK(tagsPath, "westeurope", sdk[armnetwork.ServiceTagsListResult](t, []byte(tc.body)))
		if err == nil || !strings.Contains(err.Error(), "malformed") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error naming %q", name, err, tc.want)
		}
	}
	if _, err := serviceTagsFromSDK(tagsPath, "westeurope", nil); err == nil {
		t.Error("a nil answer was accepted")
	}
	// A list without any tag tells nothing: as if nothing was read (what
	// the replay of a snapshot without the answer gives).
	for _, body := range []string{`{"values":[]}`, `{"value":[]}`} {
		empty, err := serviceTagsFromSDK(tagsPath, "westeurope", sdk[armnetwork.ServiceTagsListResult](t, []byte(body)))
		if err != nil || empty != nil {
			t.Errorf("%s: %v, %v", body, empty, err)
		}
	}
}

// FuzzServiceTagsFromSDK: whatever ARM (or a snapshot) answers, the
// conversion never panics, and an answer it accepts has every tag it lists
// under its name, with valid masked prefixes.
func FuzzServiceTagsFromSDK(f *testing.F) {
	f.Add([]byte(tagsAnswer))
	f.Add([]byte(`{"values":[{"name":"Storage","properties":{"addressPrefixes":["20.38.108.0/23","::/0"]}}]}`))
	f.Add([]byte(`{"values":[{"name":"","properties":null}]}`))
	f.Add([]byte(`{"values":[{"name":"A.b","properties":{"region":"West Europe","addressPrefixes":["1.2.3.4/33"]}}],"nextLink":"x"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var res armnetwork.ServiceTagsListResult
		if json.Unmarshal(body, &res) != nil {
			return
		}
		tags, err := serviceTagsFromSDK(tagsPath, "westeurope", &res)
		if err != nil || tags == nil {
			return
		}
		if tags.Len() != len(res.Values) {
			t.Fatalf("%d tags from %d values", tags.Len(), len(res.Values))
		}
		for _, v := range res.Values {
			got, ok := tags.Lookup(*v.Name)
			if !ok {
				t.Fatalf("tag %q lost", *v.Name)
			}
			for _, p := range got.Prefixes {
				if !p.IsValid() || p != p.Masked() {
					t.Fatalf("tag %q: prefix %v", *v.Name, p)
				}
			}
		}
	})
}

// TestIncludeServiceTags: a security rule that names a tag makes the
// verification read the service tags of the VNets' location once, through
// the SDK and the replay, and the network carries them; a network that
// names no tag reads nothing.
func TestIncludeServiceTags(t *testing.T) {
	r, ct := newReaderFrom(t, withServiceTags(t, tagsAnswer, nil))
	ctx := testCtx(t)
	f, err := r.VerificationFacts(ctx, acrRequest)
	if err != nil {
		t.Fatal(err)
	}
	requireNoGaps(t, r)
	tags, gap := f.Network.ServiceTagsAt("westeurope")
	if gap != nil || tags == nil || tags.ID != tagsPath {
		t.Fatalf("service tags %v, gap %v", tags, gap)
	}
	if got, ok := tags.Lookup("AzureContainerRegistry.westeurope"); !ok || got.Prefixes[0] != pfx("20.61.0.0/27") {
		t.Errorf("AzureContainerRegistry.westeurope = %+v, %v", got, ok)
	}
	r.IncludeServiceTags(ctx, f.Network)
	if c := ct.count("GET", tagsPath); c != 1 {
		t.Errorf("%d requests for the service tags, want 1", c)
	}

	plain, ct := newReader(t, "baseline_ok")
	f, err = plain.VerificationFacts(ctx, acrRequest)
	if err != nil {
		t.Fatal(err)
	}
	if c := ct.count("GET", tagsPath); c != 0 || f.Network.ServiceTags != nil || f.Network.ServiceTagGaps != nil {
		t.Errorf("no tag is named, yet %d requests, tags %v, gaps %v", c, f.Network.ServiceTags, f.Network.ServiceTagGaps)
	}
}

// TestNeedsServiceTags: what makes the tags needed.
func TestNeedsServiceTags(t *testing.T) {
	base := func() *model.Network {
		n := model.NewNetwork()
		n.AddVNet(&model.VNet{ID: vnetSpoke, Location: "westeurope", Subnets: []*model.Subnet{{ID: snetAKS}}})
		return n
	}
	if needsServiceTags(base()) {
		t.Error("an empty network needs tags")
	}
	n := base()
	n.Subnet(snetAKS).ServiceEndpoints = []model.ServiceEndpoint{{Service: "Microsoft.Storage", Locations: []string{"westeurope"}}}
	if !needsServiceTags(n) {
		t.Error("a service endpoint does not need tags")
	}
	n.Subnet(snetAKS).ServiceEndpoints[0].PrefixesKnown = true
	if needsServiceTags(n) {
		t.Error("a service endpoint with known prefixes needs tags")
	}
	n = base()
	n.RouteTables[rtAKS.Key()] = &model.RouteTable{ID: rtAKS, Routes: []model.Route{{Name: "r", ServiceTag: "Storage"}}}
	if !needsServiceTags(n) {
		t.Error("a route by tag does not need tags")
	}
	for rule, want := range map[string]bool{"Storage": true, "VirtualNetwork": false, "Internet": false, "AzureLoadBalancer": false, "*": false, "10.0.0.0/8": false} {
		n = base()
		n.SecurityGroups[nsgAKS.Key()] = &model.SecurityGroup{ID: nsgAKS, Rules: []model.SecurityRule{{SourcePrefixes: []string{"*"}, DestinationPrefixes: []string{rule}}}}
		if got := needsServiceTags(n); got != want {
			t.Errorf("a rule to %s: needs tags %v, want %v", rule, got, want)
		}
	}
}

// TestServiceTagsFaults: a read that fails, or an answer that is
// malformed, is a gap of the location naming the read (and, for 403, the
// permission); nothing is made up, and the verdict is never reachable.
func TestServiceTagsFaults(t *testing.T) {
	two := 2
	tests := []struct {
		name   string
		answer string
		fault  *snapshot.Fault
		kind   model.GapKind
		detail string // in the gap's detail
	}{
		{name: "403", answer: tagsAnswer, fault: &snapshot.Fault{Status: 403}, kind: model.GapPermissionDenied, detail: "403"},
		{name: "404", answer: tagsAnswer, fault: &snapshot.Fault{Status: 404}, kind: model.GapNotFound, detail: "404"},
		{name: "500", answer: tagsAnswer, fault: &snapshot.Fault{Status: 500}, kind: model.GapUnavailable, detail: "500"},
		{name: "429 twice", answer: tagsAnswer, fault: &snapshot.Fault{Status: 429, Times: &two}},
		{name: "malformed", answer: `{"values":[{"name":"AzureContainerRegistry","properties":{"addressPrefixes":["20.61.0.0/33"]}}]}`,
			kind: model.GapUnavailable, detail: `service tag AzureContainerRegistry: addressPrefixes[0] "20.61.0.0/33" is not an address prefix`},
		{name: "404 for an unknown location", kind: model.GapNotFound, detail: "NoRegisteredProviderFound"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var faults map[string]snapshot.Fault
			if tc.fault != nil {
				faults = map[string]snapshot.Fault{"GET " + string(tagsPath): *tc.fault}
			}
			snap := withServiceTags(t, tc.answer, faults)
			if tc.name == "404 for an unknown location" {
				snap.Faults = map[string]snapshot.Fault{"GET " + string(tagsPath): {Status: 404, Code: "NoRegisteredProviderFound"}}
			}
			r, _ := newReaderFrom(t, snap)
			f, err := r.VerificationFacts(testCtx(t), acrRequest)
			if err != nil {
				t.Fatal(err)
			}
			tags, gap := f.Network.ServiceTagsAt("westeurope")
			if tc.kind == "" {
				if gap != nil || tags == nil {
					t.Fatalf("a transient fault left tags %v, gap %+v", tags, gap)
				}
				requireNoGaps(t, r)
				return
			}
			if tags != nil || gap == nil {
				t.Fatalf("tags %v, gap %v", tags, gap)
			}
			if gap.ResourceID != tagsPath || gap.Kind != tc.kind || gap.Permission != permServiceTagsRead || !strings.Contains(gap.Detail, tc.detail) {
				t.Errorf("gap %+v, want %s on %s with %q", gap, tc.kind, tagsPath, tc.detail)
			}
			if g, ok := f.Gaps.Lookup(tagsPath); !ok || g != *gap {
				t.Errorf("the facts' gaps lack the read: %+v %v", g, ok)
			}
		})
	}
}

// TestServiceTagsReadOncePerPlan: data sources of one plan (Readers of one
// session) ask the same path, so the session cache sends it once.
func TestServiceTagsReadOncePerPlan(t *testing.T) {
	raw, err := snapshot.Marshal(withServiceTags(t, tagsAnswer, nil))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "snapshot.json")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := azure.NewSession(azure.Config{SnapshotFile: path})
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	for range 3 {
		r := New(s.Clients)
		f, err := r.VerificationFacts(ctx, acrRequest)
		if err != nil {
			t.Fatal(err)
		}
		if tags, _ := f.Network.ServiceTagsAt("westeurope"); tags == nil {
			t.Fatal("no service tags")
		}
		n, _ := r.Network(ctx, idList(snetAKS))
		r.IncludeServiceTags(ctx, n)
	}
	requests, distinct, _ := s.ReplayStats()
	if requests != distinct {
		t.Errorf("three readers sent %d requests for %d distinct reads", requests, distinct)
	}
}

// TestServiceTagsMissingFromSnapshot: a snapshot recorded without the
// answer (the replay gives an empty list) leaves the facts as without the
// read: no tags, no gap, so the rules that name tags stay unverified with
// today's findings.
func TestServiceTagsMissingFromSnapshot(t *testing.T) {
	r, ct := newReaderFrom(t, withServiceTags(t, "", nil))
	f, err := r.VerificationFacts(testCtx(t), acrRequest)
	if err != nil {
		t.Fatal(err)
	}
	requireNoGaps(t, r)
	if c := ct.count("GET", tagsPath); c != 1 {
		t.Errorf("%d requests for the service tags, want 1", c)
	}
	if tags, gap := f.Network.ServiceTagsAt("westeurope"); tags != nil || gap != nil {
		t.Errorf("tags %v, gap %v", tags, gap)
	}
}

// TestSubnetServiceEndpointsFromSDK: a subnet's serviceEndpoints (service
// and locations; the prefixes come from the service tags).
func TestSubnetServiceEndpointsFromSDK(t *testing.T) {
	body := `{"id":"` + string(vnetSpoke) + `","name":"vnet-spoke","location":"westeurope","properties":{"addressSpace":{"addressPrefixes":["10.1.0.0/16"]},"subnets":[` +
		`{"id":"` + string(snetAKS) + `","name":"snet-aks","properties":{"addressPrefix":"10.1.0.0/22","serviceEndpoints":[` +
		`{"service":"Microsoft.Storage","locations":["westeurope"," northeurope ",""],"provisioningState":"Succeeded"},` +
		`{"service":"","locations":["westeurope"]},null,` +
		`{"service":"Microsoft.ContainerRegistry","locations":["*"]}]}}]}}`
	v, err := vnetFromSDK(sdk[armnetwork.VirtualNetwork](t, []byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	got := v.Subnets[0].ServiceEndpoints
	if len(got) != 2 || got[0].Service != "Microsoft.Storage" || strings.Join(got[0].Locations, ",") != "westeurope,northeurope" ||
		got[1].Service != "Microsoft.ContainerRegistry" || strings.Join(got[1].Locations, ",") != "*" || got[0].PrefixesKnown {
		t.Errorf("service endpoints %+v", got)
	}
}
