package gather

import (
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// newFaultyReader serves a scenario with the given requests ("GET /path")
// answered by an error status.
func newFaultyReader(t *testing.T, scenario string, faults map[string]int) (*Reader, *countingTransport) {
	t.Helper()
	s, err := snapshot.Load(filepath.Join("testdata", scenario+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Faults == nil {
		s.Faults = map[string]snapshot.Fault{}
	}
	for k, status := range faults {
		s.Faults[k] = snapshot.Fault{Status: status}
	}
	return newReaderFrom(t, s)
}

// A failed read returns an error that carries the gap the Reader recorded
// for it: the resource, list or action, the kind and the permission, so
// that callers never rebuild where the gap was filed. The error stays the
// ARM error underneath.
func TestReadErrorsCarryTheirGaps(t *testing.T) {
	resolvers := vnetSpoke + "/listDnsResolvers"
	r, _ := newFaultyReader(t, "baseline_ok", map[string]int{
		"GET " + string(vnetHub):    http.StatusForbidden,
		"POST " + string(resolvers): http.StatusForbidden,
		"GET " + string(acr):        http.StatusNotFound,
		"GET " + string(dnsNIC):     http.StatusForbidden,
	})
	ctx := testCtx(t)
	reads := []struct {
		name       string
		read       func() error
		resource   model.ResourceID
		kind       model.GapKind
		permission string
	}{
		{"vnet", func() error { _, err := r.VNet(ctx, vnetHub); return err }, vnetHub, model.GapPermissionDenied, permVNetRead},
		{"resolvers action", func() error { _, err := r.Resolvers(ctx, vnetSpoke); return err }, resolvers, model.GapPermissionDenied, permListDNSResolvers},
		{"registry", func() error { _, err := r.Registry(ctx, acr); return err }, acr, model.GapNotFound, permRegistryRead},
		{"nic", func() error { _, err := r.NIC(ctx, dnsNIC); return err }, dnsNIC, model.GapPermissionDenied, permNICRead},
	}
	for _, tt := range reads {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.read()
			g, ok := GapOf(err)
			if !ok || !g.ResourceID.Equal(tt.resource) || g.Kind != tt.kind || g.Permission != tt.permission {
				t.Fatalf("GapOf(%v) = %+v %v", err, g, ok)
			}
			if recorded, _ := r.Gaps().Lookup(tt.resource); recorded != g {
				t.Errorf("carried %+v, recorded %+v", g, recorded)
			}
			var re *azcore.ResponseError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), re.Error()) {
				t.Errorf("the ARM error must stay reachable and be the message: %v", err)
			}
			// The memoised second ask gets the same error.
			if again := tt.read(); !errors.Is(again, err) && again.Error() != err.Error() {
				t.Errorf("second read = %v", again)
			}
		})
	}

	if _, ok := GapOf(errors.New("plain")); ok {
		t.Error("a plain error carries no gap")
	}
	if _, ok := GapOf(nil); ok {
		t.Error("nil carries no gap")
	}
}

// GapsOf finds every failed read in joined and wrapped errors, in order.
func TestGapsOf(t *testing.T) {
	a := &ReadError{Gap: model.Gap{ResourceID: "/a"}, Err: errors.New("a")}
	b := &ReadError{Gap: model.Gap{ResourceID: "/b"}, Err: errors.New("b")}
	c := &ReadError{Gap: model.Gap{ResourceID: "/c"}, Err: errors.New("c")}
	err := errors.Join(a, errors.New("no gap"), fmt.Errorf("wrapped: %w", partialError{errors.Join(b, c)}))
	var got []string
	for _, g := range GapsOf(err) {
		got = append(got, string(g.ResourceID))
	}
	if !slices.Equal(got, []string{"/a", "/b", "/c"}) {
		t.Errorf("GapsOf = %v", got)
	}
	if g, ok := GapOf(err); !ok || g.ResourceID != "/a" {
		t.Errorf("GapOf = %+v, want the first", g)
	}
	if GapsOf(nil) != nil || GapsOf(errors.New("x")) != nil {
		t.Error("no read errors, no gaps")
	}
}

// ZoneNames lists every zone of the subscriptions once; a subscription
// whose list fails leaves a gap on that list, in the error, and the names
// found elsewhere. The lists are PrivateZones' own: reading the zones
// afterwards sends no list request again.
func TestZoneNames(t *testing.T) {
	const good, bad = "00000000-0000-0000-0000-000000000001", "00000000-0000-0000-0000-000000000009"
	badList := model.ResourceID("/subscriptions/" + bad + "/providers/Microsoft.Network/privateDnsZones")
	r, ct := newFaultyReader(t, "gateway_transit_missing", map[string]int{"GET " + string(badList): http.StatusForbidden})
	ctx := testCtx(t)

	names, err := r.ZoneNames(ctx, []string{good, bad, strings.ToUpper(good)})
	// The subscription asked twice (in another case) is listed once.
	if !slices.Equal(names, []string{"corp.example"}) {
		t.Errorf("names = %v", names)
	}
	gaps := GapsOf(err)
	if len(gaps) != 1 || !gaps[0].ResourceID.Equal(badList) || gaps[0].Kind != model.GapPermissionDenied || gaps[0].Permission != permPrivateZoneRead {
		t.Fatalf("gaps = %+v (%v)", gaps, err)
	}
	if c := ct.count("GET", sub+"/providers/Microsoft.Network/privateDnsZones"); c != 1 {
		t.Errorf("zone list of %s: %d requests, want 1", good, c)
	}
	if _, err := r.PrivateZones(ctx, []string{good}, names); err != nil {
		t.Fatal(err)
	}
	if c := ct.count("GET", sub+"/providers/Microsoft.Network/privateDnsZones"); c != 1 {
		t.Errorf("PrivateZones listed %s again: %d requests", good, c)
	}

	if names, err := r.ZoneNames(ctx, []string{good}); err != nil || len(names) == 0 {
		t.Errorf("a readable subscription alone: %v, %v", names, err)
	}
}

// Why a zone's links or a registry's replicas are unknown, as the Reader
// filed it.
func TestPartGaps(t *testing.T) {
	links := zoneACR + "/virtualNetworkLinks"
	r, _ := newFaultyReader(t, "baseline_ok", map[string]int{
		"GET " + string(links):                 http.StatusForbidden,
		"GET " + string(acr) + "/replications": http.StatusForbidden,
	})
	ctx := testCtx(t)
	z, err := r.ZoneByID(ctx, zoneACR)
	if err != nil || z.LinksKnown {
		t.Fatalf("zone = %+v, %v", z, err)
	}
	if g := r.ZoneLinksGap(zoneACR); !g.ResourceID.Equal(links) || g.Kind != model.GapPermissionDenied || g.Permission != permZoneLinkRead {
		t.Errorf("links gap = %+v", g)
	}
	reg, err := r.Registry(ctx, acr)
	if err != nil || reg.ReplicasKnown {
		t.Fatalf("registry = %+v, %v", reg, err)
	}
	if g, ok := r.ReplicationsGap(acr); !ok || g.Kind != model.GapPermissionDenied || g.Permission != permReplicationRead {
		t.Errorf("replications gap = %+v %v", g, ok)
	}

	// Nothing failed: no replications gap; links never read are unavailable.
	clean, _ := newReader(t, "baseline_ok")
	if _, err := clean.Registry(ctx, acr); err != nil {
		t.Fatal(err)
	}
	if g, ok := clean.ReplicationsGap(acr); ok {
		t.Errorf("replications gap without a failure: %+v", g)
	}
	if g := clean.ZoneLinksGap(zoneACR); g.Kind != model.GapUnavailable || !g.ResourceID.Equal(links) || g.Detail != "links not read" {
		t.Errorf("links gap without a failure: %+v", g)
	}
}
