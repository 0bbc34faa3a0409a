package routing

import (
	"errors"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// A subnet is absent from the model because its VNet could not be read (a
// 403 on the VNet: gather records the gap on the VNet, not on each subnet).
// The missing evidence is the VNet read, with the permission it needs, not
// a synthesized "subnet not found".
func TestEffectiveRoutesSubnetOfUnreadableVNet(t *testing.T) {
	h := newHubSpoke()
	delete(h.net.VNets, h.spoke.ID.Key())
	delete(h.net.Subnets, h.aks.ID.Key())
	h.net.Gaps.Add(model.Gap{ResourceID: h.spoke.ID, Kind: model.GapPermissionDenied,
		Permission: "Microsoft.Network/virtualNetworks/read", Detail: "HTTP 403 AuthorizationFailed"})

	_, err := EffectiveRoutes(h.net, h.aks.ID)
	var ge *GapError
	if !errors.As(err, &ge) {
		t.Fatalf("want a *GapError, got %v", err)
	}
	if !ge.Gap.ResourceID.Equal(h.spoke.ID) || ge.Gap.Kind != model.GapPermissionDenied || ge.Gap.Permission != "Microsoft.Network/virtualNetworks/read" {
		t.Errorf("want the VNet's permission gap, got %+v", ge.Gap)
	}

	res := Trace(h.net, h.aks.ID, ip("10.0.2.5"), Options{})
	if res.Verdict != model.Unverified || len(res.Gaps) != 1 || res.Gaps[0].Kind != model.GapPermissionDenied || !res.Gaps[0].ResourceID.Equal(h.spoke.ID) {
		t.Errorf("trace: verdict %s, gaps %+v; want unverified by the VNet's permission gap", res.Verdict, res.Gaps)
	}

	// A gap recorded on the subnet itself still wins.
	h.net.Gaps.Add(model.Gap{ResourceID: h.aks.ID, Kind: model.GapNotFound, Detail: "SubnetNotFound"})
	if _, err := EffectiveRoutes(h.net, h.aks.ID); !errors.As(err, &ge) || !ge.Gap.ResourceID.Equal(h.aks.ID) {
		t.Errorf("want the subnet's own gap, got %v", err)
	}
}
