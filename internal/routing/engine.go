package routing

import (
	"net/netip"
	"sync"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Options tune computation and tracing. The zero value is the default.
type Options struct {
	// ReservedNone replaces ReservedNonePrefixes as the reserved default
	// None ranges of computed tables (see ReservedNoneFromEffective).
	ReservedNone []netip.Prefix
	// MaxHops bounds the subnets one traced packet may be routed from
	// (appliance hops); beyond it the path is a loop. Default 8.
	MaxHops int
	// Source is the node address flows start from and replies return to.
	// Default: the first address Azure hands out in the source subnet
	// (its first prefix + 4; .0 to .3 are reserved).
	Source netip.Addr
}

func (o Options) maxHops() int {
	if o.MaxHops <= 0 {
		return 8
	}
	return o.MaxHops
}

func (o Options) reservedNone() []netip.Prefix {
	if o.ReservedNone != nil {
		return o.ReservedNone
	}
	return ReservedNonePrefixes
}

// Engine computes and traces over one network, caching computed tables and
// address indexes. It is safe for concurrent use. The network must not
// change while an Engine uses it.
type Engine struct {
	net  *model.Network
	opts Options

	mu       sync.Mutex
	computed map[string]computedEntry
	gateways gatewayMemo
	real     map[string]*realFirstHop // by NIC, for TraceEffective

	indexOnce sync.Once
	index     *addrIndex
}

type computedEntry struct {
	c   *Computed
	err error
}

// NewEngine returns an engine over net.
func NewEngine(net *model.Network, opts Options) *Engine {
	if net == nil {
		net = model.NewNetwork()
	}
	return &Engine{net: net, opts: opts, computed: map[string]computedEntry{}}
}

// EffectiveRoutes is Engine.EffectiveRoutes with default options.
func EffectiveRoutes(net *model.Network, subnetID model.ResourceID) (*Computed, error) {
	return NewEngine(net, Options{}).EffectiveRoutes(subnetID)
}

// Trace is Engine.Trace on a fresh engine.
func Trace(net *model.Network, fromSubnetID model.ResourceID, dst netip.Addr, opts Options) Result {
	return NewEngine(net, opts).Trace(fromSubnetID, dst)
}

// EffectiveRoutes returns the routes Azure would program for the subnet,
// computed from configuration (see effective.go). The error is a *GapError
// when the subnet or its VNet could not be read; every other missing fact is
// in Computed.Gaps.
func (e *Engine) EffectiveRoutes(subnetID model.ResourceID) (*Computed, error) {
	key := subnetID.Key()
	e.mu.Lock()
	if ce, ok := e.computed[key]; ok {
		e.mu.Unlock()
		return ce.c, ce.err
	}
	shared, shareKey := e.sharedFor(subnetID)
	e.mu.Unlock()
	var c *Computed
	var err error
	if shared != nil {
		c = shared.forSubnet(e.net.Subnet(subnetID))
	} else {
		c, err = computeEffective(e.net, subnetID, e.opts.reservedNone(), &e.gateways)
	}
	e.mu.Lock()
	e.computed[key] = computedEntry{c, err}
	if shareKey != "" && shared == nil && err == nil {
		e.computed[shareKey] = computedEntry{c, nil}
	}
	e.mu.Unlock()
	return c, err
}

// sharedFor finds a table already computed for another subnet with the same
// inputs. A subnet's routes depend on its VNet, its route table, its
// service endpoints and the subnet peerings that name it only, and Azure
// programs every subnet of a VNet with the same VNet-wide routes: subnets of
// one VNet with the same route table, the same subnet peerings and no
// service endpoints share one table (a spoke's node subnets carry
// the same thousands of gateway routes). The second result is the key under
// which to keep this subnet's table for the next, or "" when it cannot be
// shared. Called with e.mu held.
func (e *Engine) sharedFor(subnetID model.ResourceID) (*Computed, string) {
	sub := e.net.Subnet(subnetID)
	if sub == nil || len(sub.ServiceEndpoints) > 0 {
		return nil, ""
	}
	if !sub.RouteTableID.IsZero() && e.net.RouteTable(sub.RouteTableID) == nil {
		return nil, "" // its gap names the subnet
	}
	vnetID := vnetOfSubnet(e.net, subnetID)
	key := "shared|" + vnetID.Key() + "|" + sub.RouteTableID.Key()
	if v := e.net.VNet(vnetID); v != nil {
		// Subnet peerings give their routes to the subnets they name only.
		key += "|" + peeringSignature(v, sub)
	}
	if ce, ok := e.computed[key]; ok {
		return ce.c, key
	}
	return nil, key
}

// addrs returns the address index, built once.
func (e *Engine) addrs() *addrIndex {
	e.indexOnce.Do(func() { e.index = buildAddrIndex(e.net) })
	return e.index
}

// addrIndex finds NICs and private endpoints by address. Unpeered VNets may
// reuse address space, so every lookup is scoped to a VNet.
type addrIndex struct {
	nics map[vnetAddr]*model.NIC
	pes  map[vnetAddr]*model.PrivateEndpoint
}

type vnetAddr struct {
	vnet string
	addr netip.Addr
}

func buildAddrIndex(net *model.Network) *addrIndex {
	ix := &addrIndex{nics: map[vnetAddr]*model.NIC{}, pes: map[vnetAddr]*model.PrivateEndpoint{}}
	for _, key := range sortedKeys(net.NICs) {
		nic := net.NICs[key]
		v := vnetOfSubnet(net, nic.SubnetID).Key()
		for _, a := range nic.PrivateIPs {
			k := vnetAddr{v, a.Unmap()}
			if _, dup := ix.nics[k]; !dup {
				ix.nics[k] = nic
			}
		}
	}
	for _, key := range sortedKeys(net.PrivateEndpoints) {
		pe := net.PrivateEndpoints[key]
		v := vnetOfSubnet(net, pe.SubnetID).Key()
		addrs, _ := privateEndpointAddrs(net, pe)
		for _, a := range addrs {
			k := vnetAddr{v, a}
			if _, dup := ix.pes[k]; !dup {
				ix.pes[k] = pe
			}
		}
	}
	return ix
}

func (ix *addrIndex) nic(vnet model.ResourceID, a netip.Addr) *model.NIC {
	return ix.nics[vnetAddr{vnet.Key(), a.Unmap()}]
}

func (ix *addrIndex) privateEndpoint(vnet model.ResourceID, a netip.Addr) *model.PrivateEndpoint {
	return ix.pes[vnetAddr{vnet.Key(), a.Unmap()}]
}

// vnetOfSubnet is the VNet a subnet belongs to: the subnet's VNetID when
// known, else the parent of its id.
func vnetOfSubnet(net *model.Network, subnetID model.ResourceID) model.ResourceID {
	if s := net.Subnet(subnetID); s != nil && !s.VNetID.IsZero() {
		return s.VNetID
	}
	return subnetID.Parent()
}

// subnetContaining returns the subnet of vnet whose prefixes contain a.
func subnetContaining(vnet *model.VNet, a netip.Addr) *model.Subnet {
	for _, s := range vnet.Subnets {
		if anyContains(s.Prefixes, a) {
			return s
		}
	}
	return nil
}
