package routing

import (
	"net/netip"
	"sort"
)

// sortedKeys returns a map's keys in order, so that every walk over the
// model's maps is deterministic.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sortedAddrKeys returns a map's address keys in order.
func sortedAddrKeys[V any](m map[netip.Addr]V) []netip.Addr {
	keys := make([]netip.Addr, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].Less(keys[j]) })
	return keys
}
