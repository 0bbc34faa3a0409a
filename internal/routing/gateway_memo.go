package routing

import (
	"net/netip"
	"sync"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// gatewayMemo keeps, per gateway, the routes it propagates, sorted once.
// They are the bulk of every computed table (a hub gateway may hold 10,000
// learned routes, and every spoke subnet behind it carries them all), so an
// engine computes and sorts them once instead of once per subnet and per
// trace. A nil memo computes afresh each time.
type gatewayMemo struct {
	mu sync.Mutex
	m  map[*model.Gateway]*gatewayEntry
}

// gatewayEntry is one gateway's routes with their sort keys and a table of
// them alone (to ask whether the gateway has a route for an address).
// Shared read-only: callers copy routes before changing any.
type gatewayEntry struct {
	once   sync.Once
	routes []model.Route
	gaps   []scopedGap
	block  *sortedBlock

	tableOnce sync.Once
	table     *Table
}

func (m *gatewayMemo) get(net *model.Network, gw *model.Gateway) *gatewayEntry {
	if m == nil {
		return newGatewayEntry(net, gw)
	}
	m.mu.Lock()
	if m.m == nil {
		m.m = map[*model.Gateway]*gatewayEntry{}
	}
	e, ok := m.m[gw]
	if !ok {
		e = &gatewayEntry{}
		m.m[gw] = e
	}
	m.mu.Unlock()
	e.once.Do(func() { e.fill(net, gw) })
	return e
}

func newGatewayEntry(net *model.Network, gw *model.Gateway) *gatewayEntry {
	e := &gatewayEntry{}
	e.fill(net, gw)
	return e
}

func (e *gatewayEntry) fill(net *model.Network, gw *model.Gateway) {
	routes, gaps := gatewayRoutes(net, gw)
	e.routes, e.block = firstPerPrefix(routes)
	e.gaps = gaps
}

// covers reports whether the gateway has a route for dst: known says
// whether the answer rests on complete data.
func (e *gatewayEntry) covers(dst netip.Addr) (covered, known bool) {
	e.tableOnce.Do(func() {
		e.table = buildTable(nil, 0, e.block, false)
	})
	if e.table.LookupIndex(dst) >= 0 {
		return true, true
	}
	return false, len(e.gaps) == 0
}
