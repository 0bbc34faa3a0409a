package routing

import (
	"net/netip"
	"slices"
	"sort"
	"sync"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Table selects routes the way Azure does (see select.go) for any address,
// IPv4 or IPv6. It is immutable once built.
//
// Design: CIDR prefixes nest or are disjoint, so the address space splits
// into elementary intervals in each of which the set of matching prefixes,
// and therefore the selected route, is constant. NewTable resolves every
// interval once (a sweep over the prefixes in nesting order); Lookup is then
// a binary search over the interval starts: no pointers, no allocation, and
// about log2(2n) comparisons for n prefixes. Rebuilding on change is fine:
// a subnet's table changes only when configuration does.
type Table struct {
	// The routes, by index: own[:start], then the shared block, then
	// own[start:]. own belongs to the table; block is a gateway's routes,
	// shared read-only by every table that carries them (thousands of
	// learned routes are not copied per subnet); over holds the block
	// routes this table lists differently (Invalid: a same-prefix route
	// outside the block wins).
	own   []model.Route
	block []model.Route
	start int
	over  map[int32]model.Route

	allOnce sync.Once
	all     []model.Route

	v4Starts []uint32
	v4Routes []int32
	v4Index  bucketIndex
	v6Starts []u128
	v6Routes []int32
	v6Index  bucketIndex
}

// NewTable builds a table from routes. Routes without a valid prefix (a UDR
// addressed by service tag) cannot be matched and are kept only in Routes.
func NewTable(routes []model.Route) *Table {
	return buildTable(append([]model.Route(nil), routes...), 0, nil, false)
}

// sortedBlock is a run of routes whose keys were built and sorted once, so
// tables that share it (every subnet behind one hub gateway carries the
// same thousands of learned routes) merge it in linear time instead of
// sorting it again: routes are the block's routes (with masked prefixes,
// never changed), keys index them from 0.
type sortedBlock struct {
	routes []model.Route
	keys   []keyedRoute
}

// sortBlock builds and sorts the keys of routes, which must already carry
// masked prefixes.
func sortBlock(routes []model.Route) *sortedBlock {
	keys := make([]keyedRoute, 0, len(routes))
	for i := range routes {
		if p := routes[i].Prefix; p.IsValid() {
			keys = append(keys, keyOf(p.Masked(), int32(i)))
		}
	}
	slices.SortFunc(keys, compareKeyed)
	return &sortedBlock{routes: routes, keys: keys}
}

// at is the route at index i; a block route must not be changed through it.
func (t *Table) at(i int32) *model.Route {
	n := int32(len(t.block))
	switch s := int32(t.start); {
	case i < s:
		return &t.own[i]
	case i < s+n:
		if r, ok := t.over[i]; ok {
			return &r
		}
		return &t.block[i-s]
	default:
		return &t.own[i-n]
	}
}

// invalidate lists the route at index i as Invalid.
func (t *Table) invalidate(i int32) {
	if s := int32(t.start); i >= s && i < s+int32(len(t.block)) {
		r := *t.at(i)
		r.State = model.RouteStateInvalid
		if t.over == nil {
			t.over = map[int32]model.Route{}
		}
		t.over[i] = r
		return
	}
	t.at(i).State = model.RouteStateInvalid
}

// buildTable builds a table over own, which it owns (it masks their
// prefixes in place), with block, when set, placed at index start (see
// Table). markLosers marks, among routes sharing a prefix, every active one
// that selection does not pick Invalid, as Azure lists overridden routes;
// computed tables want that, tables of real effective routes already say
// it.
func buildTable(own []model.Route, start int, block *sortedBlock, markLosers bool) *Table {
	t := &Table{own: own, start: start}
	nb := 0
	if block != nil {
		t.block, nb = block.routes, len(block.routes)
	}
	// Order the routes by family, start and length, so that routes sharing a
	// prefix are adjacent and prefixes come in nesting order for the sweep.
	keyed := make([]keyedRoute, 0, len(own))
	for j := range own {
		p := own[j].Prefix
		if !p.IsValid() {
			continue
		}
		p = p.Masked()
		own[j].Prefix = p
		idx := j
		if j >= start {
			idx += nb
		}
		keyed = append(keyed, keyOf(p, int32(idx)))
	}
	slices.SortFunc(keyed, compareKeyed)
	// The routes in key order: the sorted keys outside the block merged
	// with the block's presorted ones as they are walked (no merged copy of
	// thousands of keys per table).
	it := keyMerge{keyed: keyed, block: block, start: int32(start)}
	v4 := make([]sweepPrefix, 0, len(keyed)+len(it.blockKeys()))
	var v6 []sweepPrefix
	group := make([]int32, 0, 4)
	for it.more() {
		k := it.peek()
		group = group[:0]
		for it.more() && it.peek().samePrefix(k) {
			group = append(group, it.next().idx)
		}
		if markLosers && len(group) > 1 {
			markGroupLosers(t, group)
		}
		sp := sweepPrefix{start: k.start, end: k.end, bits: k.bits, choice: choose(t, group)}
		if k.v6 {
			v6 = append(v6, sp)
		} else {
			v4 = append(v4, sp)
		}
	}
	starts4, routes4 := sweep(v4, u128{0, 0xffffffff})
	t.v4Starts = make([]uint32, len(starts4))
	for i, s := range starts4 {
		t.v4Starts[i] = uint32(s.lo)
	}
	t.v4Routes = routes4
	t.v4Index = newBucketIndex(len(t.v4Starts), 32, func(i int) uint64 { return uint64(t.v4Starts[i]) })
	t.v6Starts, t.v6Routes = sweep(v6, u128{^uint64(0), ^uint64(0)})
	t.v6Index = newBucketIndex(len(t.v6Starts), 64, func(i int) uint64 { return t.v6Starts[i].hi })
	return t
}

// keyMerge walks the sorted keys of the routes outside the block and the
// block's own (shifted to the block's place) as one sorted sequence.
type keyMerge struct {
	keyed []keyedRoute
	block *sortedBlock
	start int32
	i, j  int
}

func (m *keyMerge) blockKeys() []keyedRoute {
	if m.block == nil {
		return nil
	}
	return m.block.keys
}

func (m *keyMerge) more() bool { return m.i < len(m.keyed) || m.j < len(m.blockKeys()) }

// head returns the next key and whether it is the block's; more must be
// true. Ties go to the block's key as before orders them.
func (m *keyMerge) head() (keyedRoute, bool) {
	if bks := m.blockKeys(); m.j < len(bks) {
		bk := bks[m.j]
		bk.idx += m.start
		if m.i == len(m.keyed) || bk.before(m.keyed[m.i]) {
			return bk, true
		}
	}
	return m.keyed[m.i], false
}

func (m *keyMerge) peek() keyedRoute {
	k, _ := m.head()
	return k
}

// next returns the next key and moves past it.
func (m *keyMerge) next() keyedRoute {
	k, fromBlock := m.head()
	if fromBlock {
		m.j++
	} else {
		m.i++
	}
	return k
}

// markGroupLosers sets every active route of one prefix that loses to
// another route of that prefix to Invalid: Azure lists an overridden system route (the
// 0.0.0.0/0 Internet route under a 0.0.0.0/0 UDR, the 192.168.0.0/16 None
// route under a BGP route for it) with state Invalid. A BGP route more
// specific than a protected system prefix stays listed Active (it is only
// unselectable inside that prefix).
func markGroupLosers(t *Table, group []int32) {
	w := choose(t, group).winner(false)
	if w < 0 {
		return
	}
	for _, i := range group {
		if i != w && isActive(t.at(i)) {
			t.invalidate(i)
		}
	}
}

func keyOf(p netip.Prefix, idx int32) keyedRoute {
	start, end := prefixRange(p)
	return keyedRoute{v6: p.Addr().Is6(), start: start, end: end, bits: p.Bits(), idx: idx}
}

func compareKeyed(a, b keyedRoute) int {
	switch {
	case a.before(b):
		return -1
	case b.before(a):
		return 1
	}
	return 0
}

// keyedRoute is a route's prefix as an interval, for ordering.
type keyedRoute struct {
	v6         bool
	start, end u128
	bits       int
	idx        int32
}

// before orders IPv4 first, then by start, shorter prefix first, then by
// position in the input (which betterSamePrefix uses as the last tie-break).
func (a keyedRoute) before(b keyedRoute) bool {
	switch {
	case a.v6 != b.v6:
		return !a.v6
	case a.start != b.start:
		return a.start.less(b.start)
	case a.bits != b.bits:
		return a.bits < b.bits
	}
	return a.idx < b.idx
}

func (a keyedRoute) samePrefix(b keyedRoute) bool {
	return a.v6 == b.v6 && a.start == b.start && a.bits == b.bits
}

// Lookup returns the route Azure selects for the address, and false when no
// route matches (Azure then drops the packet).
func (t *Table) Lookup(a netip.Addr) (model.Route, bool) {
	i := t.LookupIndex(a)
	if i < 0 {
		return model.Route{}, false
	}
	return *t.at(int32(i)), true
}

// LookupIndex is Lookup as an index into Routes, or -1.
func (t *Table) LookupIndex(a netip.Addr) int {
	if a.Is4In6() {
		a = a.Unmap()
	}
	switch {
	case a.Is4():
		k := key4(a)
		s := t.v4Starts
		lo, n := t.v4Index.window(uint64(k))
		// Branch-free binary search for the last start ≤ k in the
		// bucket's window; s[lo] ≤ k holds throughout.
		for n > 1 {
			half := n >> 1
			if s[lo+half] <= k {
				lo += half
			}
			n -= half
		}
		return int(t.v4Routes[lo])
	case a.Is6():
		k := key6(a)
		s := t.v6Starts
		lo, n := t.v6Index.window(k.hi)
		for n > 1 {
			half := n >> 1
			if s[lo+half].lessEq(k) {
				lo += half
			}
			n -= half
		}
		return int(t.v6Routes[lo])
	}
	return -1
}

// Route returns the route at index i (as LookupIndex gives).
func (t *Table) Route(i int) model.Route { return *t.at(int32(i)) }

// Routes returns a copy of every route the table was built from.
func (t *Table) Routes() []model.Route { return append([]model.Route(nil), t.list()...) }

// list is every route in index order, built once; callers must not change
// it.
func (t *Table) list() []model.Route {
	t.allOnce.Do(func() {
		if len(t.block) == 0 {
			t.all = t.own
			return
		}
		all := make([]model.Route, 0, t.Len())
		all = append(all, t.own[:t.start]...)
		all = append(all, t.block...)
		for i, r := range t.over {
			all[i] = r
		}
		t.all = append(all, t.own[t.start:]...)
	})
	return t.all
}

// Len is the number of routes.
func (t *Table) Len() int { return len(t.own) + len(t.block) }

// Matching returns every route whose prefix contains the address, whatever
// its state, most specific first: the candidates behind a selection, for
// evidence and diagnosis (not for the hot path).
func (t *Table) Matching(a netip.Addr) []model.Route {
	a = a.Unmap()
	var out []model.Route
	for _, r := range t.list() {
		if r.Prefix.IsValid() && r.Prefix.Contains(a) {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Prefix.Bits() > out[j].Prefix.Bits() })
	return out
}

// sweepPrefix is one distinct prefix as an interval, with its choice.
type sweepPrefix struct {
	start, end u128
	bits       int
	choice     prefixChoice
}

// frame is a prefix on the nesting stack during the sweep, with the
// selection in force inside it and whether a protected system route covers
// it (at its own or a shorter prefix).
type frame struct {
	end       u128
	selected  int32
	protected bool
}

// sweep resolves the elementary intervals of one family. prefixes are
// distinct and ordered by start address, shorter first, so each prefix is
// pushed after the prefixes that contain it; the stack is always the chain
// of prefixes containing the current address, which is exactly what
// selection needs. The result is the start of each interval with its
// selected route index, adjacent intervals with the same selection merged.
func sweep(prefixes []sweepPrefix, maxAddr u128) ([]u128, []int32) {
	// Each prefix opens at most two intervals (its start, the address
	// after its end).
	out := intervals{starts: make([]u128, 0, 2*len(prefixes)+1), routes: make([]int32, 0, 2*len(prefixes)+1)}
	stack := []frame{{end: maxAddr, selected: -1}}
	out.emit(u128{}, -1)
	pop := func() {
		done := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if done.end != maxAddr {
			out.emit(done.end.addOne(), stack[len(stack)-1].selected)
		}
	}
	for _, p := range prefixes {
		for stack[len(stack)-1].end.less(p.start) {
			pop()
		}
		parent := stack[len(stack)-1]
		f := frame{end: p.end, protected: parent.protected || p.choice.protected}
		f.selected = p.choice.winner(parent.protected)
		if f.selected < 0 {
			f.selected = parent.selected
		}
		stack = append(stack, f)
		out.emit(p.start, f.selected)
	}
	for len(stack) > 1 {
		pop()
	}
	return out.starts, out.routes
}

// intervals accumulates interval starts in increasing order.
type intervals struct {
	starts []u128
	routes []int32
}

// emit records that from start on the selection is route. A later emit at
// the same start replaces the earlier one (a prefix that begins where
// another ends); an emit that changes nothing is dropped.
func (iv *intervals) emit(start u128, route int32) {
	n := len(iv.starts)
	if n > 0 && iv.starts[n-1] == start {
		iv.routes[n-1] = route
		if n > 1 && iv.routes[n-2] == route {
			iv.starts, iv.routes = iv.starts[:n-1], iv.routes[:n-1]
		}
		return
	}
	if n > 0 && iv.routes[n-1] == route {
		return
	}
	iv.starts = append(iv.starts, start)
	iv.routes = append(iv.routes, route)
}

// bucketIndex narrows the binary search: for each value of the key's top
// bits it records the interval in force at the bucket's first address, so
// a lookup searches only the intervals that start inside its bucket. Its
// size adapts to the table (about one bucket per interval, at most 2^16
// buckets); tiny tables get a single bucket.
type bucketIndex struct {
	shift uint
	first []int32 // len buckets+1; first[b] = last interval starting ≤ bucket b's first address
}

func newBucketIndex(n int, width uint, top func(i int) uint64) bucketIndex {
	bits := uint(0)
	for n > 8 && (1<<bits) < n && bits < 16 {
		bits++
	}
	ix := bucketIndex{shift: width - bits, first: make([]int32, (1<<bits)+1)}
	i := 0
	for b := 0; b < 1<<bits; b++ {
		start := uint64(b) << ix.shift
		for i+1 < n && top(i+1) <= start {
			i++
		}
		ix.first[b] = int32(i)
	}
	ix.first[1<<bits] = int32(n - 1)
	return ix
}

// window is the search range for a key whose top bits (in a word of the
// index's width, right-aligned for IPv4) are top: the first candidate
// interval and the number of candidates.
func (ix *bucketIndex) window(top uint64) (lo, n int) {
	b := top >> ix.shift
	lo = int(ix.first[b])
	return lo, int(ix.first[b+1]) - lo + 1
}
