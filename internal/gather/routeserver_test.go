package gather

import (
	"net/netip"
	"reflect"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

const rsHub = model.ResourceID("/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualHubs/rs-hub")

func TestRouteServerIDs(t *testing.T) {
	v, err := vnetFromSDK(sdk[armnetwork.VirtualNetwork](t, []byte(`{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v",
		"properties":{"subnets":[
		{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v/subnets/RouteServerSubnet","name":"RouteServerSubnet",
		 "properties":{"addressPrefix":"10.0.4.0/27","ipConfigurations":[{"id":"`+string(rsHub)+`/ipConfigurations/ipconfig1"},{"id":"`+string(rsHub)+`/ipConfigurations/ipconfig2"}]}},
		{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v/subnets/snet-nva","name":"snet-nva",
		 "properties":{"addressPrefix":"10.0.1.0/24","ipConfigurations":[{"id":"/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/networkInterfaces/nic/ipConfigurations/c"}]}}]}}`)))
	if err != nil {
		t.Fatal(err)
	}
	if got := v.RouteServerIDs(); !reflect.DeepEqual(got, []model.ResourceID{rsHub}) {
		t.Errorf("RouteServerIDs = %v", got)
	}
	if got := (&model.VNet{}).RouteServerIDs(); len(got) != 0 {
		t.Errorf("a VNet without RouteServerSubnet names %v", got)
	}
}

func TestRouteServerFromSDK(t *testing.T) {
	rs, err := routeServerFromSDK(sdk[armnetwork.VirtualHub](t, []byte(`{"id":"`+string(rsHub)+`","name":"rs-hub",
		"properties":{"sku":"Standard","virtualRouterAsn":65515,"virtualRouterIps":["10.0.4.4","10.0.4.5"],"allowBranchToBranchTraffic":true}}`)))
	if err != nil {
		t.Fatal(err)
	}
	if rs.Name != "rs-hub" || !rs.ID.Equal(rsHub) || !reflect.DeepEqual(rs.RouterIPs, []netip.Addr{ip("10.0.4.4"), ip("10.0.4.5")}) {
		t.Errorf("route server = %+v", rs)
	}
	if _, err := routeServerFromSDK(sdk[armnetwork.VirtualHub](t, []byte(`{"id":"`+string(rsHub)+`","properties":{"virtualRouterIps":["10.0.4.999"]}}`))); err == nil ||
		!strings.Contains(err.Error(), "virtualRouterIps") {
		t.Errorf("bad address: %v", err)
	}

	coll := rsHub + "/bgpConnections"
	peers, err := routeServerPeersFromSDK(coll, sdk[armnetwork.ListVirtualHubBgpConnectionResults](t, []byte(`{"value":[
		{"id":"`+string(coll)+`/nva2","name":"nva2","properties":{"peerIp":"10.0.1.5","peerAsn":65020}},
		{"name":"nva1","properties":{"peerIp":"10.0.1.4","peerAsn":65020}}]}`)).Value)
	if err != nil {
		t.Fatal(err)
	}
	if len(peers) != 2 || peers[0].Name != "nva1" || !peers[0].ID.Equal(coll+"/nva1") || peers[0].IP != ip("10.0.1.4") || peers[1].IP != ip("10.0.1.5") {
		t.Errorf("peers = %+v", peers)
	}

	action := coll + "/nva1/learnedRoutes"
	// The answer is the map itself (instance → routes), as the SDK decodes it.
	var answer armnetwork.VirtualHubBgpConnectionsClientListLearnedRoutesResponse
	if err := answer.UnmarshalJSON([]byte(`{
		"RouteServiceRole_IN_1":[{"localAddress":"10.0.4.5","network":"192.168.10.0/24","nextHop":"10.0.1.4","sourcePeer":"10.0.1.4","origin":"EBgp","asPath":"65020","weight":0}],
		"RouteServiceRole_IN_0":[{"localAddress":"10.0.4.4","network":"192.168.10.0/24","nextHop":"10.0.1.4","sourcePeer":"10.0.1.4","origin":"EBgp","asPath":"65020","weight":0},
		                         {"localAddress":"10.0.4.4","network":"172.20.0.0/16","nextHop":"10.0.1.4","sourcePeer":"10.0.1.4","origin":"EBgp","asPath":"65020 65030","weight":0}]}`)); err != nil {
		t.Fatal(err)
	}
	routes, err := peerRoutesFromSDK(action, answer.Value)
	if err != nil {
		t.Fatal(err)
	}
	want := []model.GatewayRoute{
		{Prefix: pfx("192.168.10.0/24"), NextHop: ip("10.0.1.4"), SourcePeer: ip("10.0.1.4"), Origin: "EBgp", ASPath: "65020"},
		{Prefix: pfx("172.20.0.0/16"), NextHop: ip("10.0.1.4"), SourcePeer: ip("10.0.1.4"), Origin: "EBgp", ASPath: "65020 65030"},
	}
	if !reflect.DeepEqual(routes, want) {
		t.Errorf("learned routes (one per prefix and next hop, both instances merged) =\n%+v\nwant\n%+v", routes, want)
	}
	bad := map[string][]*armnetwork.PeerRoute{"i": {{Network: new("192.168.10.0/33")}}}
	if _, err := peerRoutesFromSDK(action, bad); err == nil || !strings.Contains(err.Error(), "learnedRoutes") {
		t.Errorf("bad prefix: %v", err)
	}
}
