package routing

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// tagsFor returns a service tag list for the hub-spoke fixtures (westeurope).
func tagsFor(t *testing.T) *model.ServiceTags {
	t.Helper()
	tags, err := model.NewServiceTags(model.ServiceTagsID("s", "westeurope"), "westeurope", "Public", "9", []model.ServiceTag{
		{Name: "AzureContainerRegistry", Prefixes: []netip.Prefix{pfx("20.61.0.0/27"), pfx("51.12.0.0/24")}},
		{Name: "AzureContainerRegistry.WestEurope", Region: "westeurope", Prefixes: []netip.Prefix{pfx("20.61.0.0/27")}},
		{Name: "Storage.WestEurope", Region: "westeurope", Prefixes: []netip.Prefix{pfx("20.60.0.0/17"), pfx("52.239.140.0/22")}},
		{Name: "Storage.NorthEurope", Region: "northeurope", Prefixes: []netip.Prefix{pfx("52.164.0.0/16")}},
		{Name: "AzureCloud", Prefixes: []netip.Prefix{pfx("20.0.0.0/8"), pfx("51.0.0.0/8")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return tags
}

// prefixesOf lists the prefixes of the routes with that next hop type and
// an origin containing origin.
func prefixesOf(c *Computed, hop, origin string) []string {
	var out []string
	for _, r := range c.Routes() {
		if r.NextHopType == hop && strings.Contains(r.Origin, origin) && r.Prefix.IsValid() {
			out = append(out, r.Prefix.String()+" "+r.State)
		}
	}
	return out
}

func TestServiceTagRoutes(t *testing.T) {
	t.Run("a UDR by tag is one route per prefix of the tag", func(t *testing.T) {
		h := newHubSpoke()
		h.net.SetServiceTags("westeurope", tagsFor(t))
		h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, model.Route{Name: "acr", ServiceTag: "azurecontainerregistry", NextHopType: model.NextHopVirtualAppliance, NextHopIP: ip("10.0.1.4")}))
		comp := mustCompute(t, h.net, h.aks.ID)
		got := prefixesOf(comp, model.NextHopVirtualAppliance, "route acr, service tag AzureContainerRegistry")
		if strings.Join(got, ",") != "20.61.0.0/27 Active,51.12.0.0/24 Active" {
			t.Errorf("routes %v", got)
		}
		if len(comp.Gaps) != 0 {
			t.Errorf("the table lacks nothing, got gaps %v", comp.Gaps)
		}
		if r, _ := comp.Select(ip("20.61.0.10")); r.NextHopType != model.NextHopVirtualAppliance || r.ServiceTag != "AzureContainerRegistry" {
			t.Errorf("a registry address selects %+v", r)
		}
		if r, _ := comp.Select(ip("20.62.0.10")); r.NextHopType != model.NextHopInternet {
			t.Errorf("an address outside the tag selects %+v", r)
		}
		for _, dst := range []string{"20.61.0.10", "20.62.0.10", "10.0.2.5"} {
			if g := comp.GapsFor(ip(dst)); len(g) != 0 {
				t.Errorf("%s: a named address is decided by the expanded routes, got gaps %v", dst, g)
			}
		}
		// A public address Resource Manager does not name may be in the
		// tag: where the tag's routes go elsewhere than its own route,
		// it is unverified.
		if g := comp.GapsFor(PublicStandIn); len(g) != 1 || !strings.Contains(g[0].Detail, "service tag AzureContainerRegistry") {
			t.Errorf("the stand-in: want the tag's gap, got %v", g)
		}
	})
	t.Run("a tag route with the next hop the stand-in takes anyway is no gap", func(t *testing.T) {
		h := newHubSpoke()
		h.net.SetServiceTags("westeurope", tagsFor(t))
		h.attach(h.aks, h.routeTable("rg-spoke", "rt", false,
			udr("fw", "0.0.0.0/0", model.NextHopVirtualAppliance, "10.0.1.4"),
			model.Route{Name: "acr", ServiceTag: "AzureContainerRegistry", NextHopType: model.NextHopVirtualAppliance, NextHopIP: ip("10.0.1.4")}))
		if g := mustCompute(t, h.net, h.aks.ID).GapsFor(PublicStandIn); len(g) != 0 {
			t.Errorf("same appliance either way, got gaps %v", g)
		}
	})
	t.Run("a tag the list lacks stays unresolved, named", func(t *testing.T) {
		h := newHubSpoke()
		h.net.SetServiceTags("westeurope", tagsFor(t))
		h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, model.Route{Name: "kv", ServiceTag: "AzureKeyVault", NextHopType: model.NextHopInternet}))
		comp := mustCompute(t, h.net, h.aks.ID)
		g := comp.GapsFor(ip("20.61.0.10"))
		if len(g) != 1 || !strings.Contains(g[0].Detail, `service tag "AzureKeyVault", which the service tags read for westeurope (change 9) do not list`) {
			t.Errorf("gaps %v", g)
		}
		if len(comp.GapsFor(ip("10.0.2.5"))) != 0 {
			t.Error("a private destination depends on a public tag")
		}
	})
	t.Run("tags not read: the read's gap", func(t *testing.T) {
		h := newHubSpoke()
		readGap := model.Gap{ResourceID: model.ServiceTagsID("s", "westeurope"), Kind: model.GapPermissionDenied, Permission: "Microsoft.Network/locations/serviceTags/read"}
		h.net.SetServiceTagGap("westeurope", readGap)
		h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, model.Route{Name: "acr", ServiceTag: "AzureContainerRegistry", NextHopType: model.NextHopInternet}))
		h.aks.ServiceEndpoints = []model.ServiceEndpoint{{Service: "Microsoft.Storage", Locations: []string{"westeurope"}}}
		comp := mustCompute(t, h.net, h.aks.ID)
		if len(comp.Gaps) != 1 || comp.Gaps[0] != readGap {
			t.Errorf("want the read's gap once, got %v", comp.Gaps)
		}
		if g := comp.GapsFor(ip("20.61.0.10")); len(g) != 1 || g[0] != readGap {
			t.Errorf("public destination: %v", g)
		}
		if len(prefixesOf(comp, model.NextHopServiceEndpoint, "")) != 0 {
			t.Error("service endpoint routes without their prefixes")
		}
	})
	t.Run("an explicit prefix beats a tag of the same prefix, a regional tag beats a global one", func(t *testing.T) {
		h := newHubSpoke()
		h.net.SetServiceTags("westeurope", tagsFor(t))
		h.attach(h.aks, h.routeTable("rg-spoke", "rt", false,
			model.Route{Name: "cloud", ServiceTag: "AzureCloud", NextHopType: model.NextHopNone},
			model.Route{Name: "acr", ServiceTag: "AzureContainerRegistry", NextHopType: model.NextHopVirtualAppliance, NextHopIP: ip("10.0.1.5")},
			model.Route{Name: "acr-we", ServiceTag: "AzureContainerRegistry.WestEurope", NextHopType: model.NextHopVirtualAppliance, NextHopIP: ip("10.0.1.4")},
			udr("explicit", "51.12.0.0/24", model.NextHopInternet, "")))
		comp := mustCompute(t, h.net, h.aks.ID)
		for dst, want := range map[string]string{
			"20.61.0.1": "VirtualAppliance 10.0.1.4", // regional over top-level
			"51.12.0.1": "Internet",                  // explicit over top-level
			"20.1.0.1":  "None",                      // AzureCloud alone
		} {
			r, _ := comp.Select(ip(dst))
			if got := hopLabel(r); got != want {
				t.Errorf("%s selects %s (%s), want %s", dst, got, r.Origin, want)
			}
		}
		if got := prefixesOf(comp, model.NextHopVirtualAppliance, "route acr, service tag AzureContainerRegistry"); strings.Join(got, ",") != "20.61.0.0/27 Invalid,51.12.0.0/24 Invalid" {
			t.Errorf("the top-level tag's routes are listed Invalid where another wins: %v", got)
		}
	})
	t.Run("service endpoint routes: one per prefix of the regional tag of each location", func(t *testing.T) {
		h := newHubSpoke()
		h.net.SetServiceTags("westeurope", tagsFor(t))
		h.aks.ServiceEndpoints = []model.ServiceEndpoint{{Service: "Microsoft.Storage", Locations: []string{"westeurope", "northeurope"}}}
		comp := mustCompute(t, h.net, h.aks.ID)
		we := prefixesOf(comp, model.NextHopServiceEndpoint, "service endpoint Microsoft.Storage, service tag Storage.WestEurope")
		ne := prefixesOf(comp, model.NextHopServiceEndpoint, "service endpoint Microsoft.Storage, service tag Storage.NorthEurope")
		if strings.Join(we, ",") != "20.60.0.0/17 Active,52.239.140.0/22 Active" || strings.Join(ne, ",") != "52.164.0.0/16 Active" {
			t.Errorf("service endpoint routes %v, %v", we, ne)
		}
		if len(comp.Gaps) != 0 {
			t.Errorf("gaps %v", comp.Gaps)
		}
		if r, _ := comp.Select(ip("52.164.1.1")); r.NextHopType != model.NextHopServiceEndpoint {
			t.Errorf("a storage address of the paired region selects %+v", r)
		}
		// Forced tunnelling: the endpoint takes storage addresses past
		// the appliance; a named one is decided, the stand-in is not.
		h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, udr("fw", "0.0.0.0/0", model.NextHopVirtualAppliance, "10.0.1.4")))
		comp = mustCompute(t, h.net, h.aks.ID)
		if r, _ := comp.Select(ip("20.60.1.1")); r.NextHopType != model.NextHopServiceEndpoint || len(comp.GapsFor(ip("20.60.1.1"))) != 0 {
			t.Errorf("storage address under forced tunnelling: %+v, gaps %v", r, comp.GapsFor(ip("20.60.1.1")))
		}
		if g := comp.GapsFor(PublicStandIn); len(g) != 1 {
			t.Errorf("the stand-in under forced tunnelling: want the endpoint's gap, got %v", g)
		}
	})
	t.Run("a service endpoint whose regional tag is missing", func(t *testing.T) {
		h := newHubSpoke()
		h.net.SetServiceTags("westeurope", tagsFor(t))
		h.aks.ServiceEndpoints = []model.ServiceEndpoint{{Service: "Microsoft.KeyVault", Locations: []string{"westeurope"}}}
		h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, udr("fw", "0.0.0.0/0", model.NextHopVirtualAppliance, "10.0.1.4")))
		g := mustCompute(t, h.net, h.aks.ID).GapsFor(ip("20.60.1.1"))
		if len(g) != 1 || !strings.Contains(g[0].Detail, "do not list AzureKeyVault.westeurope") {
			t.Errorf("gaps %v", g)
		}
	})
	t.Run("prefixes of a family the VNet has no space in are left out", func(t *testing.T) {
		tags, err := model.NewServiceTags("x", "westeurope", "", "", []model.ServiceTag{
			{Name: "Storage.WestEurope", Region: "westeurope", Prefixes: []netip.Prefix{pfx("20.60.0.0/17"), pfx("2603:1020:205::/48")}},
		})
		if err != nil {
			t.Fatal(err)
		}
		h := newHubSpoke()
		h.net.SetServiceTags("westeurope", tags)
		h.aks.ServiceEndpoints = []model.ServiceEndpoint{{Service: "Microsoft.Storage", Locations: []string{"westeurope"}}}
		h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, model.Route{Name: "st", ServiceTag: "Storage.WestEurope", NextHopType: model.NextHopInternet}))
		comp := mustCompute(t, h.net, h.aks.ID)
		if se, udr := prefixesOf(comp, model.NextHopServiceEndpoint, ""), prefixesOf(comp, model.NextHopInternet, "route st"); strings.Join(se, ",") != "20.60.0.0/17 Invalid" || strings.Join(udr, ",") != "20.60.0.0/17 Active" {
			t.Errorf("IPv4-only VNet: service endpoint %v, tag route %v", se, udr)
		}
		h.spoke.AddressSpace = append(h.spoke.AddressSpace, pfx("fd00:1::/48"))
		comp = mustCompute(t, h.net, h.aks.ID)
		if se := prefixesOf(comp, model.NextHopServiceEndpoint, ""); strings.Join(se, ",") != "20.60.0.0/17 Invalid,2603:1020:205::/48 Invalid" {
			t.Errorf("dual-stack VNet: service endpoint %v (a user-defined route of the same prefix wins)", se)
		}
	})
	t.Run("tags of another location do not apply", func(t *testing.T) {
		h := newHubSpoke()
		h.net.SetServiceTags("northeurope", tagsFor(t))
		h.attach(h.aks, h.routeTable("rg-spoke", "rt", false, model.Route{Name: "acr", ServiceTag: "AzureContainerRegistry", NextHopType: model.NextHopInternet}))
		comp := mustCompute(t, h.net, h.aks.ID)
		if len(prefixesOf(comp, model.NextHopInternet, "service tag")) != 0 || len(comp.GapsFor(ip("20.61.0.10"))) != 1 {
			t.Errorf("routes %v, gaps %v", comp.Routes(), comp.Gaps)
		}
	})
}

func TestTagRank(t *testing.T) {
	p := pfx("20.0.0.0/8")
	for _, tc := range []struct {
		r    model.Route
		want int
	}{
		{model.Route{Prefix: p}, 0},
		{model.Route{Prefix: p, ServiceTag: "Storage.EastUS"}, 1},
		{model.Route{Prefix: p, ServiceTag: "Storage"}, 2},
		{model.Route{Prefix: p, ServiceTag: "AzureCloud.eastasia"}, 3},
		{model.Route{Prefix: p, ServiceTag: "azurecloud"}, 4},
		{model.Route{ServiceTag: "Storage"}, 0}, // unexpanded: never selected
	} {
		if got := tagRank(&tc.r); got != tc.want {
			t.Errorf("tagRank(%+v) = %d, want %d", tc.r, got, tc.want)
		}
	}
}
