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
// never changed), keys index them from 0. alone is, for each key, the
// choice its route makes at its prefix when no other route shares it
// (indexes from 0, see prefixChoice.shifted): most block prefixes are
// alone in a table, and their choice is then made once, not per table. v4
// is the number of IPv4 keys (they sort first).
type sortedBlock struct {
	routes []model.Route
	keys   []keyedRoute
	alone  []prefixChoice
	v4     int
}

// sortBlock builds and sorts the keys of routes, which must already carry
// masked prefixes.
func sortBlock(routes []model.Route) *sortedBlock {
	keys := make([]keyedRoute, 0, len(routes))
	v4 := 0
	for i := range routes {
		if p := routes[i].Prefix; p.IsValid() {
			k := keyOf(p.Masked(), int32(i))
			if !k.v6 {
				v4++
			}
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, compareKeyed)
	// A gateway's routes share their source, state and next hop type:
	// classify each distinct combination once.
	alone := make([]prefixChoice, len(keys))
	var prev *model.Route
	var prevChoice prefixChoice
	for j := range keys {
		i := keys[j].idx
		r := &routes[i]
		if prev == nil || r.Source != prev.Source || r.State != prev.State || r.NextHopType != prev.NextHopType {
			prev, prevChoice = r, chooseOne(r, 0)
		}
		alone[j] = prevChoice.shifted(i)
	}
	return &sortedBlock{routes: routes, keys: keys, alone: alone, v4: v4}
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
//
// The routes are walked in key order (family, start, length: routes
// sharing a prefix are adjacent and prefixes come in nesting order): the
// sorted keys outside the block merged with the block's presorted ones
// (no merged copy of thousands of keys per table), each prefix fed to its
// family's sweep as it comes.
func buildTable(own []model.Route, start int, block *sortedBlock, markLosers bool) *Table {
	t := &Table{own: own, start: start}
	var bkeys []keyedRoute
	var alone []prefixChoice
	nb, nb4 := 0, 0
	if block != nil {
		t.block, nb = block.routes, len(block.routes)
		bkeys, alone, nb4 = block.keys, block.alone, block.v4
	}
	keyed := make([]keyedRoute, 0, len(own))
	n4 := 0
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
		k := keyOf(p, int32(idx))
		if !k.v6 {
			n4++
		}
		keyed = append(keyed, k)
	}
	slices.SortFunc(keyed, compareKeyed)
	v4 := newSweeper(false, n4+nb4)
	v6 := newSweeper(true, len(keyed)-n4+len(bkeys)-nb4)
	shift := int32(start)
	// blockFirst: the next key is the block's (ties go to the block's key
	// as keyedRoute.before orders them, its index shifted by start).
	blockFirst := func(i, j int) bool {
		return j < len(bkeys) && (i == len(keyed) || bkeys[j].beforeShifted(shift, &keyed[i]))
	}
	var group []int32
	i, j := 0, 0
	for i < len(keyed) || j < len(bkeys) {
		var k *keyedRoute
		var c prefixChoice
		if blockFirst(i, j) && (j+1 == len(bkeys) || !bkeys[j+1].samePrefix(&bkeys[j])) &&
			(i == len(keyed) || !keyed[i].samePrefix(&bkeys[j])) {
			// A block route alone at its prefix: its choice is known.
			k, c = &bkeys[j], alone[j].shifted(shift)
			j++
		} else {
			group = group[:0]
			for i < len(keyed) || j < len(bkeys) {
				fromBlock := blockFirst(i, j)
				var next *keyedRoute
				var idx int32
				if fromBlock {
					next = &bkeys[j]
					idx = next.idx + shift
				} else {
					next = &keyed[i]
					idx = next.idx
				}
				if k == nil {
					k = next
				} else if !next.samePrefix(k) {
					break
				}
				if fromBlock {
					j++
				} else {
					i++
				}
				group = append(group, idx)
			}
			if markLosers && len(group) > 1 {
				markGroupLosers(t, group)
			}
			c = choose(t, group)
		}
		if k.v6 {
			v6.push(k.start, k.last(), c)
		} else {
			v4.push(k.start, k.last(), c)
		}
	}
	v4.finish()
	v6.finish()
	t.v4Starts, t.v4Routes = v4.out.starts4, v4.out.routes
	t.v4Index = newBucketIndex4(t.v4Starts)
	t.v6Starts, t.v6Routes = v6.out.starts6, v6.out.routes
	t.v6Index = newBucketIndex6(t.v6Starts)
	return t
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
	start, _ := prefixRange(p)
	return keyedRoute{v6: p.Addr().Is6(), start: start, bits: uint8(p.Bits()), idx: idx}
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

// keyedRoute is a route's prefix as an interval (its first address and
// length: 24 bytes, as a gateway's thousands of keys are kept and walked
// per table), for ordering.
type keyedRoute struct {
	start u128
	idx   int32
	bits  uint8
	v6    bool
}

// last is the last address of the prefix.
func (a *keyedRoute) last() u128 {
	width := 32
	if a.v6 {
		width = 128
	}
	m := hostMask(width - int(a.bits))
	return u128{a.start.hi | m.hi, a.start.lo | m.lo}
}

// before orders IPv4 first, then by start, shorter prefix first, then by
// position in the input (which betterSamePrefix uses as the last tie-break).
func (a keyedRoute) before(b keyedRoute) bool { return a.beforeShifted(0, &b) }

// beforeShifted is before with a's index moved by shift (a block key at
// its place in a table).
func (a *keyedRoute) beforeShifted(shift int32, b *keyedRoute) bool {
	switch {
	case a.v6 != b.v6:
		return !a.v6
	case a.start != b.start:
		return a.start.less(b.start)
	case a.bits != b.bits:
		return a.bits < b.bits
	}
	return a.idx+shift < b.idx
}

func (a *keyedRoute) samePrefix(b *keyedRoute) bool {
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

// frame is a prefix on the nesting stack during the sweep, with the
// selection in force inside it and whether a protected system route covers
// it (at its own or a shorter prefix).
type frame struct {
	end       u128
	selected  int32
	protected bool
}

// sweeper resolves the elementary intervals of one family. Prefixes are
// pushed distinct and ordered by start address, shorter first, so each
// prefix comes after the prefixes that contain it; the stack is always the
// chain of prefixes containing the current address, which is exactly what
// selection needs. The result (out) is the start of each interval with its
// selected route index, adjacent intervals with the same selection merged.
type sweeper struct {
	maxAddr u128
	stack   []frame
	out     intervals
}

// newSweeper starts the sweep of one family for about n prefixes.
func newSweeper(v6 bool, n int) sweeper {
	maxAddr := u128{0, 0xffffffff}
	if v6 {
		maxAddr = u128{^uint64(0), ^uint64(0)}
	}
	s := sweeper{maxAddr: maxAddr, stack: make([]frame, 1, 16)}
	s.stack[0] = frame{end: maxAddr, selected: -1}
	// Each prefix opens at most two intervals (its start, the address
	// after its end).
	s.out = newIntervals(v6, 2*n+1)
	s.out.emit(u128{}, -1)
	return s
}

// push adds the next prefix [start, end] with its choice.
func (s *sweeper) push(start, end u128, c prefixChoice) {
	for s.stack[len(s.stack)-1].end.less(start) {
		s.pop()
	}
	parent := s.stack[len(s.stack)-1]
	f := frame{end: end, protected: parent.protected || c.protected}
	f.selected = c.winner(parent.protected)
	if f.selected < 0 {
		f.selected = parent.selected
	}
	s.stack = append(s.stack, f)
	s.out.emit(start, f.selected)
}

func (s *sweeper) pop() {
	done := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	if done.end != s.maxAddr {
		s.out.emit(done.end.addOne(), s.stack[len(s.stack)-1].selected)
	}
}

// finish closes every prefix still open.
func (s *sweeper) finish() {
	for len(s.stack) > 1 {
		s.pop()
	}
}

// intervals accumulates interval starts in increasing order: IPv4 starts
// as 32-bit words (what Lookup searches), IPv6 ones as u128.
type intervals struct {
	v6      bool
	starts4 []uint32
	starts6 []u128
	routes  []int32
}

func newIntervals(v6 bool, n int) intervals {
	iv := intervals{v6: v6, routes: make([]int32, 0, n)}
	if v6 {
		iv.starts6 = make([]u128, 0, n)
	} else {
		iv.starts4 = make([]uint32, 0, n)
	}
	return iv
}

func (iv *intervals) startAt(i int) u128 {
	if iv.v6 {
		return iv.starts6[i]
	}
	return u128{0, uint64(iv.starts4[i])}
}

// emit records that from start on the selection is route. A later emit at
// the same start replaces the earlier one (a prefix that begins where
// another ends); an emit that changes nothing is dropped.
func (iv *intervals) emit(start u128, route int32) {
	n := len(iv.routes)
	if n > 0 && iv.startAt(n-1) == start {
		iv.routes[n-1] = route
		if n > 1 && iv.routes[n-2] == route {
			iv.routes = iv.routes[:n-1]
			if iv.v6 {
				iv.starts6 = iv.starts6[:n-1]
			} else {
				iv.starts4 = iv.starts4[:n-1]
			}
		}
		return
	}
	if n > 0 && iv.routes[n-1] == route {
		return
	}
	if iv.v6 {
		iv.starts6 = append(iv.starts6, start)
	} else {
		iv.starts4 = append(iv.starts4, uint32(start.lo))
	}
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

// newBucketIndex4 indexes IPv4 interval starts.
func newBucketIndex4(s []uint32) bucketIndex {
	ix := newBuckets(len(s), 32)
	i, n := 0, len(s)
	for b := 0; b < len(ix.first)-1; b++ {
		start := uint64(b) << ix.shift
		for i+1 < n && uint64(s[i+1]) <= start {
			i++
		}
		ix.first[b] = int32(i)
	}
	return ix
}

// newBucketIndex6 indexes IPv6 interval starts by their top 64 bits.
func newBucketIndex6(s []u128) bucketIndex {
	ix := newBuckets(len(s), 64)
	i, n := 0, len(s)
	for b := 0; b < len(ix.first)-1; b++ {
		start := uint64(b) << ix.shift
		for i+1 < n && s[i+1].hi <= start {
			i++
		}
		ix.first[b] = int32(i)
	}
	return ix
}

// newBuckets sizes the index of n intervals over keys of width bits; the
// last entry is set, the others are for the caller to fill.
func newBuckets(n int, width uint) bucketIndex {
	bits := uint(0)
	for n > 8 && (1<<bits) < n && bits < 16 {
		bits++
	}
	ix := bucketIndex{shift: width - bits, first: make([]int32, (1<<bits)+1)}
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
