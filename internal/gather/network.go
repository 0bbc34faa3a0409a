package gather

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/ids"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// ErrNoEffectiveRouteAPI is returned by EffectiveRoutes for NICs that Azure
// offers no effective route table for (scale-set instance NICs); their
// routes must be computed from the configuration. No gap is recorded: it
// is not a failed read.
var ErrNoEffectiveRouteAPI = errors.New("scale-set instance network interfaces have no effective route table API in Azure")

// gatewaySubnetName is the subnet a VNet's VPN/ExpressRoute gateway lives in.
const gatewaySubnetName = "GatewaySubnet"

// VNet reads a virtual network with its subnets, peerings and DNS servers.
// Peering.Global is set from the remote VNet's location, which this reads
// (one hop, memoised); when the remote VNet cannot be read Global stays
// false and the remote read is a gap.
func (r *Reader) VNet(ctx context.Context, id model.ResourceID) (*model.VNet, error) {
	return once(r, memoKey("vnet", id), func() (*model.VNet, error) {
		v, err := r.vnetGet(ctx, id)
		if err != nil {
			return nil, err
		}
		out := cloneVNet(v)
		each(ctx, r, out.Peerings, func(ctx context.Context, p *model.Peering) {
			if p.RemoteVNetID.IsZero() || model.IsHubVNet(p.RemoteVNetID) {
				return // a Virtual WAN hub's VNet is Microsoft's: never read
			}
			if remote, err := r.vnetGet(ctx, p.RemoteVNetID); err == nil {
				p.Global = differentRegion(out.Location, remote.Location)
			}
		})
		return out, nil
	})
}

// VNets reads virtual networks like VNet, all at once: out[i] and errs[i]
// answer ids[i]. An empty id is not read (nil, nil).
func (r *Reader) VNets(ctx context.Context, ids []model.ResourceID) (out []*model.VNet, errs []error) {
	return mapEach(ctx, r, ids, func(ctx context.Context, id model.ResourceID) (*model.VNet, error) {
		if id.IsZero() {
			return nil, nil
		}
		return r.VNet(ctx, id)
	})
}

// vnetGet is the memoised GET of a virtual network, without Peering.Global.
// Under planned_changes_file, the facts of the VNet and its subnets the
// plan leaves unknown are marked so (VNet.Unknown, Subnet.Unknown; see
// plannedFacts); a member no fact stands for makes the whole VNet unknown.
func (r *Reader) vnetGet(ctx context.Context, id model.ResourceID) (*model.VNet, error) {
	return read(r, "vnet-get", id, permVNetRead, func() (*model.VNet, error) {
		ctx, unknown := azure.WithKnownPart(ctx)
		resp, err := networkGet(ctx, r, id, "virtualNetworks", func(f *armnetwork.ClientFactory, rg, name string) (armnetwork.VirtualNetworksClientGetResponse, error) {
			return f.NewVirtualNetworksClient().Get(ctx, rg, name, nil)
		})
		if err != nil {
			return nil, err
		}
		v, err := vnetFromSDK(&resp.VirtualNetwork)
		if err != nil {
			if u := unknown(); u != nil {
				return nil, u
			}
			return nil, err
		}
		if err := markVNetUnknown(v, unknown()); err != nil {
			return nil, err
		}
		return v, nil
	})
}

func cloneVNet(v *model.VNet) *model.VNet {
	out := *v
	out.Peerings = make([]*model.Peering, len(v.Peerings))
	for i, p := range v.Peerings {
		cp := *p
		out.Peerings[i] = &cp
	}
	return &out
}

func differentRegion(a, b string) bool {
	return a != "" && b != "" && normLocation(a) != normLocation(b)
}

// RouteTable reads a route table with its routes.
func (r *Reader) RouteTable(ctx context.Context, id model.ResourceID) (*model.RouteTable, error) {
	return read(r, "routetable", id, permRouteTableRead, func() (*model.RouteTable, error) {
		resp, err := networkGet(ctx, r, id, "routeTables", func(f *armnetwork.ClientFactory, rg, name string) (armnetwork.RouteTablesClientGetResponse, error) {
			return f.NewRouteTablesClient().Get(ctx, rg, name, nil)
		})
		if err != nil {
			return nil, err
		}
		return routeTableFromSDK(&resp.RouteTable)
	})
}

// SecurityGroup reads a network security group with its rules. (The
// effective NSG API is never used: the SDK's model of it fails to decode
// real answers.)
func (r *Reader) SecurityGroup(ctx context.Context, id model.ResourceID) (*model.SecurityGroup, error) {
	return read(r, "nsg", id, permNSGRead, func() (*model.SecurityGroup, error) {
		resp, err := networkGet(ctx, r, id, "networkSecurityGroups", func(f *armnetwork.ClientFactory, rg, name string) (armnetwork.SecurityGroupsClientGetResponse, error) {
			return f.NewSecurityGroupsClient().Get(ctx, rg, name, nil)
		})
		if err != nil {
			return nil, err
		}
		return securityGroupFromSDK(&resp.SecurityGroup)
	})
}

// armGet is one GET of a top-level resource of namespace: typed id check,
// the subscription's client factory, and the call held within the Reader's
// concurrency bound (released as soon as the answer is in, so that nested
// reads cannot deadlock).
func armGet[F, T any](ctx context.Context, r *Reader, id model.ResourceID, namespace, resourceType string,
	factory func(subscription string) (F, error), get func(f F, resourceGroup, name string) (T, error)) (T, error) {
	var zero T
	a, err := parseTyped(id, namespace, resourceType)
	if err != nil {
		return zero, err
	}
	f, err := factory(a.SubscriptionID)
	if err != nil {
		return zero, err
	}
	release, err := r.acquire(ctx)
	if err != nil {
		return zero, err
	}
	defer release()
	return get(f, a.ResourceGroup, a.Names[0])
}

// networkGet is armGet for Microsoft.Network resources.
func networkGet[T any](ctx context.Context, r *Reader, id model.ResourceID, resourceType string, get func(f *armnetwork.ClientFactory, resourceGroup, name string) (T, error)) (T, error) {
	return armGet(ctx, r, id, "Microsoft.Network", resourceType, r.clients.Network, get)
}

// NIC reads a network interface: a standalone one
// (…/Microsoft.Network/networkInterfaces/{n}) or a scale-set instance's
// (…/virtualMachineScaleSets/{v}/virtualMachines/{i}/networkInterfaces/{n}).
func (r *Reader) NIC(ctx context.Context, id model.ResourceID) (*model.NIC, error) {
	return once(r, memoKey("nic", id), func() (*model.NIC, error) {
		raw, err := r.nicGet(ctx, id)
		if err != nil {
			return nil, err
		}
		nic, err := nicFromSDK(raw)
		if err != nil {
			return nil, r.fail(id, permNICRead, err)
		}
		return nic, nil
	})
}

// nicPermission is the action a GET of this NIC id needs.
func nicPermission(id model.ResourceID) string {
	if a, err := parseID(id); err == nil && strings.EqualFold(a.Provider, "Microsoft.Compute") {
		return permVMSSNICRead
	}
	return permNICRead
}

// nicGet is the memoised GET of a NIC as the SDK returns it (private
// endpoints need its ip configurations' FQDNs, which the model does not
// keep). Scale-set NIC lists prime it.
func (r *Reader) nicGet(ctx context.Context, id model.ResourceID) (*armnetwork.Interface, error) {
	return read(r, "nic-get", id, nicPermission(id), func() (*armnetwork.Interface, error) {
		a, err := parseID(id)
		if err != nil {
			return nil, err
		}
		f, err := r.clients.Network(a.SubscriptionID)
		if err != nil {
			return nil, err
		}
		c := f.NewInterfacesClient()
		switch {
		case a.ResourceGroup != "" && isType(a, "Microsoft.Network", "networkInterfaces"):
			release, err := r.acquire(ctx)
			if err != nil {
				return nil, err
			}
			resp, err := c.Get(ctx, a.ResourceGroup, a.Names[0], nil)
			release()
			if err != nil {
				return nil, err
			}
			return &resp.Interface, nil
		case a.ResourceGroup != "" && isType(a, "Microsoft.Compute", "virtualMachineScaleSets", "virtualMachines", "networkInterfaces"):
			release, err := r.acquire(ctx)
			if err != nil {
				return nil, err
			}
			resp, err := c.GetVirtualMachineScaleSetNetworkInterface(ctx, a.ResourceGroup, a.Names[0], a.Names[1], a.Names[2], nil)
			release()
			if err != nil {
				return nil, err
			}
			return &resp.Interface, nil
		default:
			return nil, fmt.Errorf("resource id %q is not a network interface id", string(id))
		}
	})
}

// EffectiveRoutes reads the effective route table of a standalone NIC
// (attached to a running VM): one Route per address prefix of every entry.
// Scale-set instance NICs have no such API (ErrNoEffectiveRouteAPI).
func (r *Reader) EffectiveRoutes(ctx context.Context, nicID model.ResourceID) ([]model.Route, error) {
	if isScaleSetNIC(nicID) {
		return nil, ErrNoEffectiveRouteAPI
	}
	action := child(nicID, "effectiveRouteTable")
	return once(r, memoKey("effective", action), func() ([]model.Route, error) {
		routes, err := r.effectiveRoutes(ctx, nicID)
		switch {
		case err == nil:
			return routes, nil
		case azure.IsPlannedStale(err):
			// Not a gap: the table Azure has describes the network before
			// the planned changes; the caller computes the routes.
			return nil, fmt.Errorf("%w: %w", ErrEffectiveRoutesPlanned, err)
		default:
			return nil, r.fail(action, permEffectiveRoutes, err)
		}
	})
}

// ErrEffectiveRoutesPlanned is returned by EffectiveRoutes when the planned
// changes (planned_changes_file) alter the network the effective route
// table describes: its answer would be the routes before the plan, so the
// routes are computed from the planned configuration instead.
var ErrEffectiveRoutesPlanned = errors.New("the planned changes alter the network, so the effective route table Azure has now does not describe it")

// effectiveRoutes asks Azure for the effective route table of a NIC.
func (r *Reader) effectiveRoutes(ctx context.Context, nicID model.ResourceID) ([]model.Route, error) {
	a, err := parseTyped(nicID, "Microsoft.Network", "networkInterfaces")
	if err != nil {
		return nil, err
	}
	f, err := r.clients.Network(a.SubscriptionID)
	if err != nil {
		return nil, err
	}
	resp, err := pollAction(ctx, r.acquireAction, func(ctx context.Context) (*runtime.Poller[armnetwork.InterfacesClientGetEffectiveRouteTableResponse], error) {
		return f.NewInterfacesClient().BeginGetEffectiveRouteTable(ctx, a.ResourceGroup, a.Names[0], nil)
	})
	if err != nil {
		return nil, err
	}
	return effectiveRoutesFromSDK(nicID, resp.Value)
}

// Gateway reads a virtual network gateway with its learned routes
// (getLearnedRoutes) and the static prefixes of its site-to-site
// connections without BGP. A failed route read leaves LearnedKnown /
// StaticPrefixesKnown false and records a gap on the action
// (…/getLearnedRoutes), not on the gateway.
//
// What the gateway advertises to its BGP peers (AdvertisedRoutes) is not
// read here: only a path whose replies come back from on premises through
// the gateway needs it, so Network marks it pending
// (model.EvidenceAdvertisedRoutes) and it is read when an evaluation
// reaches it (ReadEvidence). Advertised stays empty and AdvertisedKnown
// false until then.
func (r *Reader) Gateway(ctx context.Context, id model.ResourceID) (*model.Gateway, error) {
	return once(r, memoKey("gateway", id), func() (*model.Gateway, error) {
		a, err := parseTyped(id, "Microsoft.Network", "virtualNetworkGateways")
		if err != nil {
			return nil, r.fail(id, permGatewayRead, err)
		}
		f, err := r.clients.Network(a.SubscriptionID)
		if err != nil {
			return nil, r.fail(id, permGatewayRead, err)
		}
		c := f.NewVirtualNetworkGatewaysClient()

		// The gateway ∥ its learned routes: the action needs only the
		// gateway's id, which the VNet named, and takes seconds. Its answer
		// (and its failure) counts only if the gateway itself was read.
		var (
			gw         *model.Gateway
			getErr     error
			getGap     bool
			learned    []model.GatewayRoute
			learnedErr error
		)
		action := child(id, "getLearnedRoutes")
		all(ctx, r, func(ctx context.Context) {
			release, err := r.acquire(ctx)
			if err != nil {
				getErr = err
				return
			}
			resp, err := c.Get(ctx, a.ResourceGroup, a.Names[0], nil)
			release()
			if err == nil {
				gw, err = gatewayFromSDK(&resp.VirtualNetworkGateway)
			}
			if err != nil {
				getErr, getGap = err, true
				return
			}
			var conns []model.UnmodelledSetting
			gw.StaticPrefixes, gw.StaticPrefixesKnown, conns = r.staticPrefixes(ctx, a, id)
			gw.Unmodelled = append(gw.Unmodelled, conns...)
		}, func(ctx context.Context) {
			learned, learnedErr = func() ([]model.GatewayRoute, error) {
				res, err := pollAction(ctx, r.acquireAction, func(ctx context.Context) (*runtime.Poller[armnetwork.VirtualNetworkGatewaysClientGetLearnedRoutesResponse], error) {
					return c.BeginGetLearnedRoutes(ctx, a.ResourceGroup, a.Names[0], nil)
				})
				if err != nil {
					return nil, err
				}
				return gatewayRoutesFromSDK(action, res.Value)
			}()
		})
		if getErr != nil {
			if getGap {
				return nil, r.fail(id, permGatewayRead, getErr)
			}
			return nil, getErr
		}
		if learnedErr != nil {
			r.record(action, permGatewayLearnedRoutes, learnedErr)
		} else {
			gw.Learned, gw.LearnedKnown = learned, true
		}
		return gw, nil
	})
}

// AdvertisedRoutes asks a BGP gateway what it advertises to each of its
// peers (getBgpPeerStatus, then getAdvertisedRoutes per peer), once per
// Reader. known is false when a read failed (its gap is recorded on the
// action) or the gateway runs no BGP (nothing to read, no gap).
func (r *Reader) AdvertisedRoutes(ctx context.Context, gw *model.Gateway) (routes map[netip.Addr][]model.GatewayRoute, known bool) {
	type advertised struct {
		routes map[netip.Addr][]model.GatewayRoute
		known  bool
	}
	v, _ := once(r, memoKey("advertised", gw.ID), func() (advertised, error) {
		if !gw.BGPEnabled {
			return advertised{}, nil
		}
		a, err := parseTyped(gw.ID, "Microsoft.Network", "virtualNetworkGateways")
		if err == nil {
			var f *armnetwork.ClientFactory
			if f, err = r.clients.Network(a.SubscriptionID); err == nil {
				m, ok := r.advertisedRoutes(ctx, f.NewVirtualNetworkGatewaysClient(), a, gw.ID, gw.PrivateIPs)
				return advertised{m, ok}, nil
			}
		}
		r.record(child(gw.ID, "getBgpPeerStatus"), permGatewayBGPPeerStatus, err)
		return advertised{}, nil
	})
	return v.routes, v.known
}

// advertisedRoutes asks the gateway what it advertises to each BGP peer.
func (r *Reader) advertisedRoutes(ctx context.Context, c *armnetwork.VirtualNetworkGatewaysClient, a ids.ResourceID, id model.ResourceID, own []netip.Addr) (map[netip.Addr][]model.GatewayRoute, bool) {
	statusAction := child(id, "getBgpPeerStatus")
	peers, err := func() ([]netip.Addr, error) {
		res, err := pollAction(ctx, r.acquireAction, func(ctx context.Context) (*runtime.Poller[armnetwork.VirtualNetworkGatewaysClientGetBgpPeerStatusResponse], error) {
			return c.BeginGetBgpPeerStatus(ctx, a.ResourceGroup, a.Names[0], nil)
		})
		if err != nil {
			return nil, err
		}
		return bgpPeersFromSDK(statusAction, own, res.Value)
	}()
	if err != nil {
		r.record(statusAction, permGatewayBGPPeerStatus, err)
		return nil, false
	}
	action := child(id, "getAdvertisedRoutes")
	routes, errs := mapEach(ctx, r, peers, func(ctx context.Context, peer netip.Addr) ([]model.GatewayRoute, error) {
		res, err := pollAction(ctx, r.acquireAction, func(ctx context.Context) (*runtime.Poller[armnetwork.VirtualNetworkGatewaysClientGetAdvertisedRoutesResponse], error) {
			return c.BeginGetAdvertisedRoutes(ctx, a.ResourceGroup, a.Names[0], peer.String(), nil)
		})
		if err != nil {
			return nil, err
		}
		return gatewayRoutesFromSDK(action, res.Value)
	})
	out := map[netip.Addr][]model.GatewayRoute{}
	known := true
	for i, peer := range peers {
		if errs[i] != nil {
			// One gap for the action: the first failed peer's, in
			// the order getBgpPeerStatus lists them.
			r.record(action, permGatewayAdvertised, errs[i])
			known = false
			continue
		}
		out[peer] = routes[i]
	}
	return out, known
}

// staticPrefixes collects the local network gateway prefixes of the
// gateway's site-to-site connections without BGP (a local network gateway
// is read only for those). Connections are listed in the gateway's
// resource group, where they normally are; a connection kept in another
// resource group is not seen. (The gateway's own connection list,
// …/virtualNetworkGateways/{gw}/connections, would see it, but snapshots
// cannot serve it: their collections follow resource ids.)
func (r *Reader) staticPrefixes(ctx context.Context, a ids.ResourceID, gwID model.ResourceID) ([]netip.Prefix, bool, []model.UnmodelledSetting) {
	conns, err := r.connectionsInGroup(ctx, a.SubscriptionID, a.ResourceGroup)
	if err != nil {
		return nil, false, nil
	}
	var out []netip.Prefix
	var unmodelled []model.UnmodelledSetting
	known := true
	for _, c := range conns {
		if c.Properties == nil || c.Properties.VirtualNetworkGateway1 == nil || !rid(c.Properties.VirtualNetworkGateway1.ID).Equal(gwID) {
			continue
		}
		// The connection's unmodelled settings go with its gateway: every
		// path through the gateway may use it.
		unmodelled = append(unmodelled, unmodelledOf(rid(c.ID), c)...)
		if !staticConnection(c) {
			continue // BGP: its routes are in getLearnedRoutes
		}
		// The local gateway's prefixes, embedded in the connection when
		// the answer has them, else read.
		lgw := c.Properties.LocalNetworkGateway2
		if lgw.Properties == nil || lgw.Properties.LocalNetworkAddressSpace == nil {
			full, err := r.localGateway(ctx, rid(lgw.ID))
			if err != nil {
				known = false
				continue
			}
			lgw = full
		}
		pfx, err := localGatewayPrefixes(lgw)
		if err != nil {
			r.record(rid(lgw.ID), permLocalGatewayRead, err)
			known = false
			continue
		}
		out = append(out, pfx...)
	}
	return out, known, unmodelled
}

// connectionsInGroup lists the gateway connections of a resource group.
func (r *Reader) connectionsInGroup(ctx context.Context, sub, group string) ([]*armnetwork.VirtualNetworkGatewayConnection, error) {
	coll := groupCollection(sub, group, "Microsoft.Network", "connections")
	return read(r, "list", coll, permConnectionRead, func() ([]*armnetwork.VirtualNetworkGatewayConnection, error) {
		f, err := r.clients.Network(sub)
		if err != nil {
			return nil, err
		}
		return collect(ctx, r, f.NewVirtualNetworkGatewayConnectionsClient().NewListPager(group, nil),
			func(p armnetwork.VirtualNetworkGatewayConnectionsClientListResponse) []*armnetwork.VirtualNetworkGatewayConnection {
				return p.Value
			})
	})
}

// localGateway reads a local network gateway.
func (r *Reader) localGateway(ctx context.Context, id model.ResourceID) (*armnetwork.LocalNetworkGateway, error) {
	return read(r, "lgw", id, permLocalGatewayRead, func() (*armnetwork.LocalNetworkGateway, error) {
		resp, err := networkGet(ctx, r, id, "localNetworkGateways", func(f *armnetwork.ClientFactory, rg, name string) (armnetwork.LocalNetworkGatewaysClientGetResponse, error) {
			return f.NewLocalNetworkGatewaysClient().Get(ctx, rg, name, nil)
		})
		if err != nil {
			return nil, err
		}
		return &resp.LocalNetworkGateway, nil
	})
}

// GatewaysOfVNet returns the VPN/ExpressRoute gateway(s) of a VNet: those
// whose ip configuration sits in its GatewaySubnet.
//
// This does not rely on a gateway living in its VNet's resource group
// (Azure's documentation does not promise it, and the API takes any
// subnet id): the GatewaySubnet's ipConfigurations name the gateways
// directly (…/virtualNetworkGateways/{gw}/ipConfigurations/{c}) wherever
// they are, at no extra read. Only when that list names none (an answer
// without ipConfigurations) are the gateways of the VNet's resource group
// listed and matched by subnet. Partial results come with the joined
// errors of the reads that failed.
func (r *Reader) GatewaysOfVNet(ctx context.Context, vnet *model.VNet) ([]*model.Gateway, error) {
	if vnet == nil {
		return nil, nil
	}
	var gwSubnet *model.Subnet
	for _, s := range vnet.Subnets {
		if strings.EqualFold(s.Name, gatewaySubnetName) {
			gwSubnet = s
		}
	}
	if gwSubnet == nil {
		return nil, nil
	}
	var ids []model.ResourceID
	for _, c := range gwSubnet.IPConfigurationIDs {
		ids = appendUniqueID(ids, gatewayOfIPConfig(c))
	}
	if len(ids) == 0 {
		found, err := r.gatewaysInGroup(ctx, vnet.ID)
		if err != nil {
			return nil, err
		}
		ids = found
	}
	gws, errs := mapEach(ctx, r, ids, r.Gateway)
	var out []*model.Gateway
	for _, g := range gws {
		if g != nil {
			out = append(out, g)
		}
	}
	return out, joinErrs(errs)
}

// gatewaysInGroup lists the gateways of the VNet's resource group whose ip
// configuration subnet is in that VNet.
func (r *Reader) gatewaysInGroup(ctx context.Context, vnetID model.ResourceID) ([]model.ResourceID, error) {
	a, err := parseTyped(vnetID, "Microsoft.Network", "virtualNetworks")
	if err != nil {
		return nil, err
	}
	coll := groupCollection(a.SubscriptionID, a.ResourceGroup, "Microsoft.Network", "virtualNetworkGateways")
	list, err := read(r, "list", coll, permGatewayRead, func() ([]*armnetwork.VirtualNetworkGateway, error) {
		f, err := r.clients.Network(a.SubscriptionID)
		if err != nil {
			return nil, err
		}
		return collect(ctx, r, f.NewVirtualNetworkGatewaysClient().NewListPager(a.ResourceGroup, nil),
			func(p armnetwork.VirtualNetworkGatewaysClientListResponse) []*armnetwork.VirtualNetworkGateway {
				return p.Value
			})
	})
	if err != nil {
		return nil, err
	}
	var ids []model.ResourceID
	for _, g := range list {
		if g.Properties == nil {
			continue
		}
		for _, c := range g.Properties.IPConfigurations {
			if c != nil && c.Properties != nil && c.Properties.Subnet != nil && rid(c.Properties.Subnet.ID).Parent().Equal(vnetID) {
				ids = appendUniqueID(ids, rid(g.ID))
			}
		}
	}
	return ids, nil
}

// PrivateEndpoint reads a private endpoint with its connections,
// customDnsConfigs completed by its NICs' FQDNs, NIC ids, and its private
// DNS zone groups (ZoneGroupsKnown false when they cannot be listed).
func (r *Reader) PrivateEndpoint(ctx context.Context, id model.ResourceID) (*model.PrivateEndpoint, error) {
	return once(r, memoKey("pe", id), func() (*model.PrivateEndpoint, error) {
		a, err := parseTyped(id, "Microsoft.Network", "privateEndpoints")
		if err != nil {
			return nil, r.fail(id, permPrivateEndpointRead, err)
		}
		f, err := r.clients.Network(a.SubscriptionID)
		if err != nil {
			return nil, r.fail(id, permPrivateEndpointRead, err)
		}
		release, err := r.acquire(ctx)
		if err != nil {
			return nil, err
		}
		resp, err := f.NewPrivateEndpointsClient().Get(ctx, a.ResourceGroup, a.Names[0], nil)
		release()
		if err != nil {
			return nil, r.fail(id, permPrivateEndpointRead, err)
		}
		pe, err := privateEndpointFromSDK(&resp.PrivateEndpoint)
		if err != nil {
			return nil, r.fail(id, permPrivateEndpointRead, err)
		}

		var nics []*armnetwork.Interface
		all(ctx, r, func(ctx context.Context) {
			groupsID := child(id, "privateDnsZoneGroups")
			groups, err := collect(ctx, r, f.NewPrivateDNSZoneGroupsClient().NewListPager(a.Names[0], a.ResourceGroup, nil),
				func(p armnetwork.PrivateDNSZoneGroupsClientListResponse) []*armnetwork.PrivateDNSZoneGroup {
					return p.Value
				})
			if err != nil {
				r.record(groupsID, permZoneGroupRead, err)
				return
			}
			var configs []model.ZoneGroupConfig
			for _, g := range groups {
				zc, err := zoneGroupFromSDK(g)
				if err != nil {
					r.record(groupsID, permZoneGroupRead, err)
					return
				}
				configs = append(configs, zc...)
			}
			pe.ZoneGroups, pe.ZoneGroupsKnown = configs, true
		}, func(ctx context.Context) {
			nics, _ = mapEach(ctx, r, pe.NICIDs, r.nicGet)
		})
		for _, n := range nics {
			if err := mergeNICFQDNs(pe, n); err != nil {
				r.record(rid(n.ID), permNICRead, err)
			}
		}
		return pe, nil
	})
}

// PrivateEndpoints reads private endpoints like PrivateEndpoint, all at
// once: out[i] and errs[i] answer ids[i]. An empty id is not read (nil,
// nil).
func (r *Reader) PrivateEndpoints(ctx context.Context, ids []model.ResourceID) (out []*model.PrivateEndpoint, errs []error) {
	return mapEach(ctx, r, ids, func(ctx context.Context, id model.ResourceID) (*model.PrivateEndpoint, error) {
		if id.IsZero() {
			return nil, nil
		}
		return r.PrivateEndpoint(ctx, id)
	})
}

// peIPConfigPrefix starts the name Azure gives every ip configuration of a
// private endpoint's NIC, whatever the NIC is called.
const peIPConfigPrefix = "privateendpointipconfig."

// PrivateEndpointsInVNet reads the private endpoints whose subnet is in the
// VNet.
//
// The subnets' privateEndpoints lists (part of the VNet answer already
// read) name them, so finding them costs no read at all; listing private
// endpoints per subscription would cost a read per subscription and return
// every endpoint there. Only for a subnet whose answer lacks that list are
// NICs read, and only those whose ip configuration is named the way Azure
// names private endpoint ip configurations. Partial results come with the
// joined errors of the reads that failed.
func (r *Reader) PrivateEndpointsInVNet(ctx context.Context, vnet *model.VNet) ([]*model.PrivateEndpoint, error) {
	if vnet == nil {
		return nil, nil
	}
	var ids []model.ResourceID
	var errs []error
	for _, s := range vnet.Subnets {
		for _, pe := range s.PrivateEndpointIDs {
			ids = appendUniqueID(ids, pe)
		}
		if len(s.PrivateEndpointIDs) > 0 {
			continue
		}
		for _, c := range s.IPConfigurationIDs {
			if !strings.HasPrefix(strings.ToLower(c.Name()), peIPConfigPrefix) {
				continue
			}
			nicID := nicOfIPConfig(c)
			if nicID.IsZero() {
				continue
			}
			nic, err := r.nicGet(ctx, nicID)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if nic.Properties != nil && nic.Properties.PrivateEndpoint != nil {
				ids = appendUniqueID(ids, rid(nic.Properties.PrivateEndpoint.ID))
			}
		}
	}
	pes, perrs := mapEach(ctx, r, ids, r.PrivateEndpoint)
	var out []*model.PrivateEndpoint
	for _, pe := range pes {
		if pe != nil {
			out = append(out, pe)
		}
	}
	return out, joinErrs(append(errs, perrs...))
}

// NICByAddress finds the NIC holding a private IP in a VNet (an appliance
// by its next-hop address, a DNS server VM): it reads only the NICs of the
// subnets whose prefixes contain the address, named by those subnets'
// ipConfigurations, a few at a time, and stops at the first match. It
// returns nil when no NIC holds the address (it may belong to a load
// balancer frontend, a firewall or a gateway, which have no NIC), with an
// error when some NIC could not be read (the answer is then unknown).
func (r *Reader) NICByAddress(ctx context.Context, vnet *model.VNet, ip netip.Addr) (*model.NIC, error) {
	if vnet == nil || !ip.IsValid() {
		return nil, nil
	}
	type result struct {
		nic *model.NIC
		err error
	}
	res, _ := once(r, "nic-by-address "+vnet.ID.Key()+" "+ip.String(), func() (result, error) {
		var candidates []model.ResourceID
		for _, s := range vnet.Subnets {
			in := false
			for _, p := range s.Prefixes {
				in = in || p.Contains(ip)
			}
			if !in {
				continue
			}
			for _, c := range s.IPConfigurationIDs {
				candidates = appendUniqueID(candidates, nicOfIPConfig(c))
			}
		}
		var errs []error
		const batch = DefaultConcurrency
		for start := 0; start < len(candidates); start += batch {
			end := min(start+batch, len(candidates))
			nics, nerrs := mapEach(ctx, r, candidates[start:end], r.NIC)
			for i, n := range nics {
				if n == nil {
					errs = append(errs, nerrs[i])
					continue
				}
				for _, a := range n.PrivateIPs {
					if a == ip {
						return result{nic: n}, nil
					}
				}
			}
		}
		return result{err: joinErrs(errs)}, nil
	})
	return res.nic, res.err
}
