package gather

import (
	"fmt"
	"net/netip"
	"strings"
	"unicode"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Helpers shared by the conversion functions (SDK struct → model). The SDK
// models every field as a pointer and every enum as an open string type;
// the helpers read them without panicking on absent values and keep enum
// values verbatim.

func str[S ~string](p *S) string {
	if p == nil {
		return ""
	}
	return string(*p)
}

func boolv(p *bool) bool { return p != nil && *p }

func i32(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

func rid(p *string) model.ResourceID { return model.ResourceID(str(p)) }

// fieldError names the resource and field a value came from.
func fieldError(id model.ResourceID, field, value string, err error) error {
	return fmt.Errorf("%s: field %s: invalid value %q: %w", string(id), field, value, err)
}

// parsePrefix reads a CIDR prefix. Azure accepts (and some answers contain)
// a bare address where a prefix is expected; it means a host route.
func parsePrefix(s string) (netip.Prefix, error) {
	s = strings.TrimSpace(s)
	if !strings.Contains(s, "/") {
		a, err := netip.ParseAddr(s)
		if err != nil {
			return netip.Prefix{}, err
		}
		return netip.PrefixFrom(a, a.BitLen()), nil
	}
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	return p.Masked(), nil
}

// prefixes parses a list of prefixes (nil entries and empty strings are
// skipped) and fails naming the resource and field.
func prefixes(id model.ResourceID, field string, in []*string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range in {
		if s == nil || strings.TrimSpace(*s) == "" {
			continue
		}
		p, err := parsePrefix(*s)
		if err != nil {
			return nil, fieldError(id, field, *s, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// addr parses one address; an empty string is the zero Addr.
func addr(id model.ResourceID, field string, s *string) (netip.Addr, error) {
	if s == nil || strings.TrimSpace(*s) == "" {
		return netip.Addr{}, nil
	}
	a, err := netip.ParseAddr(strings.TrimSpace(*s))
	if err != nil {
		return netip.Addr{}, fieldError(id, field, *s, err)
	}
	return a, nil
}

// addrs parses a list of addresses, skipping empty entries.
func addrs(id model.ResourceID, field string, in []*string) ([]netip.Addr, error) {
	var out []netip.Addr
	for _, s := range in {
		a, err := addr(id, field, s)
		if err != nil {
			return nil, err
		}
		if a.IsValid() {
			out = append(out, a)
		}
	}
	return out, nil
}

// isServiceTag reports whether a route's address prefix is a service tag
// (AzureCloud, Storage.WestEurope, …) rather than an address: tags start
// with a letter, addresses with a digit (IPv4) or a hex digit followed by a
// colon somewhere (IPv6).
func isServiceTag(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || strings.Contains(s, ":") {
		return false
	}
	return unicode.IsLetter(rune(s[0]))
}

func appendUniqueAddr(list []netip.Addr, a netip.Addr) []netip.Addr {
	for _, x := range list {
		if x == a {
			return list
		}
	}
	return append(list, a)
}

func appendUniqueID(list []model.ResourceID, id model.ResourceID) []model.ResourceID {
	if id.IsZero() {
		return list
	}
	for _, x := range list {
		if x.Equal(id) {
			return list
		}
	}
	return append(list, id)
}

// idsOf are the non-zero ids of items (id of each), each once, in order.
func idsOf[T any](items []T, id func(T) model.ResourceID) []model.ResourceID {
	var out []model.ResourceID
	for _, it := range items {
		out = appendUniqueID(out, id(it))
	}
	return out
}

// normLocation makes "West Europe" and "westeurope" compare equal.
func normLocation(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, " ", ""))
}
