// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"reflect"
	"testing"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// A verification reports the pending evidence its paths reached in Needs
// and stays unverified until it is read; once read, the same facts verify
// as if it had been read from the start.
func TestVerifyReportsNeeds(t *testing.T) {
	transit := func() model.Facts {
		f := gatewayFacts()
		f.Network.VNet(spokeID).Peerings[0].UseRemoteGateways = true
		gw := f.Network.Gateway(hubGatewayID)
		peer := ip("192.168.255.1")
		gw.Advertised[peer] = append(gw.Advertised[peer], model.GatewayRoute{Prefix: pfx("10.1.0.0/16"), NextHop: ip("10.0.0.30"), Origin: "Igp"})
		return f
	}
	read := Run(transit())
	if read.Verdict != model.Reachable || len(read.Needs) != 0 {
		t.Fatalf("with the advertised routes read: %s, needs %v\n%s", read.Verdict, read.Needs, read.Summary)
	}

	// The same facts with the advertised routes still pending.
	f := transit()
	gw := *f.Network.Gateway(hubGatewayID)
	gw.Advertised, gw.AdvertisedKnown = nil, false
	f.Network.Gateways[hubGatewayID.Key()] = &gw
	f.Network.Pending.Add(model.AdvertisedRoutesOf(hubGatewayID))
	pending := Run(f)
	if want := []model.Evidence{model.AdvertisedRoutesOf(hubGatewayID)}; !reflect.DeepEqual(pending.Needs, want) {
		t.Errorf("needs %v, want %v", pending.Needs, want)
	}
	if pending.Verdict != model.Unverified {
		t.Errorf("verdict %s with evidence pending, want unverified", pending.Verdict)
	}

	// A registry whose paths never reach the gateway needs nothing.
	b := baselineFacts()
	b.Network.Pending.Add(model.AdvertisedRoutesOf(hubGatewayID))
	if res := Run(b); len(res.Needs) != 0 || res.Verdict != model.Reachable {
		t.Errorf("baseline with the gateway's evidence pending: %s, needs %v", res.Verdict, res.Needs)
	}
}
