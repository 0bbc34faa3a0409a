// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package firewall

import (
	"fmt"
	"net/netip"
	"testing"
)

func pfx(s string) netip.Prefix { return netip.MustParsePrefix(s) }

func TestParseAddress(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // fmt of the prefixes, "" when not an address
	}{
		{"*", "[0.0.0.0/0 ::/0]"},
		{"10.1.0.0/22", "[10.1.0.0/22]"},
		{"10.1.0.5/22", "[10.1.0.0/22]"},
		{" 10.1.0.4 ", "[10.1.0.4/32]"},
		{"10.1.0.0-10.1.0.255", "[10.1.0.0/24]"},
		{"10.1.0.1-10.1.0.6", "[10.1.0.1/32 10.1.0.2/31 10.1.0.4/31 10.1.0.6/32]"},
		{"10.1.0.9-10.1.0.1", ""},
		{"AzureContainerRegistry", ""},
		{"10.1.0.0/33", ""},
	} {
		ps, ok := parseAddress(tc.in)
		got := ""
		if ok {
			got = fmt.Sprint(ps)
		}
		if got != tc.want {
			t.Errorf("parseAddress(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestSplit(t *testing.T) {
	in, out := split(pfx("10.1.0.0/22"), []netip.Prefix{pfx("10.1.0.0/23")})
	if fmt.Sprint(in) != "[10.1.0.0/23]" || fmt.Sprint(out) != "[10.1.2.0/23]" {
		t.Errorf("split = %v / %v", in, out)
	}
	in, out = split(pfx("10.1.0.0/22"), []netip.Prefix{pfx("10.0.0.0/8")})
	if fmt.Sprint(in) != "[10.1.0.0/22]" || out != nil {
		t.Errorf("covered: %v / %v", in, out)
	}
	in, out = split(pfx("10.1.0.0/22"), []netip.Prefix{pfx("10.2.0.0/16"), pfx("::/0")})
	if in != nil || fmt.Sprint(out) != "[10.1.0.0/22]" {
		t.Errorf("disjoint: %v / %v", in, out)
	}
	in, out = split(pfx("10.1.0.0/22"), []netip.Prefix{pfx("10.1.1.0/24"), pfx("10.1.3.4/32")})
	if fmt.Sprint(in) != "[10.1.1.0/24 10.1.3.4/32]" || len(out) != 1+1+8 {
		t.Errorf("two holes: %v / %v", in, out)
	}
	// Outside and inside together are the prefix, without overlap.
	total := 0.0
	for _, p := range append(in, out...) {
		total += float64(uint64(1) << (32 - p.Bits()))
	}
	if total != 1024 {
		t.Errorf("pieces cover %v addresses, want 1024", total)
	}
	if fmt.Sprint(merge(append(append([]netip.Prefix{}, in...), out...))) != "[10.1.0.0/22]" {
		t.Errorf("merge does not restore the prefix: %v", merge(append(in, out...)))
	}
}

func TestPublicAddressIn(t *testing.T) {
	for _, tc := range []struct {
		set  string
		want match
	}{
		{"*", yes},
		{"0.0.0.0/0", yes},
		{"10.0.0.0/8", no},
		{"192.168.0.0/16", no},
		{"20.0.0.0/8", unknown},
		{"::/0", unknown},
	} {
		ps, _ := parseAddress(tc.set)
		if got := publicAddressIn(ps, true, false); got != tc.want {
			t.Errorf("publicAddressIn(%s) = %s, want %s", tc.set, got, tc.want)
		}
	}
	if publicAddressIn([]netip.Prefix{allV4}, true, true) != unknown {
		t.Error("dual-stack nodes: 0.0.0.0/0 alone does not cover an IPv6 public address")
	}
}

func TestPortMatch(t *testing.T) {
	for _, tc := range []struct {
		entry string
		want  match
	}{
		{"443", yes}, {"*", yes}, {"1-65535", yes}, {"400-450", yes},
		{"80", no}, {"8443", no}, {"444-500", no},
		{"https", unknown}, {"500-400", unknown}, {"", unknown},
	} {
		if got := portMatch(tc.entry, 443); got != tc.want {
			t.Errorf("portMatch(%q) = %s, want %s", tc.entry, got, tc.want)
		}
	}
}
