// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"strings"
	"testing"
)

func TestPageWraps(t *testing.T) {
	id := "/subscriptions/8f3c2a71-5b4d-4e9a-b6c1-2d7e9f0a1b3c/resourceGroups/rg-dns-private/providers/Microsoft.Network/privateDnsZones/privatelink.azurecr.io"
	tests := []struct {
		name        string
		width       int
		first, rest string
		text, want  string
	}{
		{name: "fits", width: 40, first: "  ", rest: "    ", text: "a short line", want: "  a short line\n"},
		{name: "hanging indent, words whole", width: 30, first: "  Fix: ", rest: "       ",
			text: "route 10.10.3.4/32 to private endpoint pe-contosoprod-registry at 10.10.3.4",
			want: "  Fix: route 10.10.3.4/32 to\n       private endpoint\n       pe-contosoprod-registry\n       at 10.10.3.4\n"},
		{name: "a token longer than a line is cut after a slash", width: 70, first: "  Resource: ", rest: "            ", text: id,
			want: "  Resource: /subscriptions/8f3c2a71-5b4d-4e9a-b6c1-2d7e9f0a1b3c/\n" +
				"            resourceGroups/rg-dns-private/providers/Microsoft.Network/\n" +
				"            privateDnsZones/privatelink.azurecr.io\n"},
		{name: "a token without a slash is cut at the width", width: 12, first: "  ", rest: "  ", text: "abcdefghijklmnopqrstuvwxyz",
			want: "  abcdefghij\n  klmnopqrst\n  uvwxyz\n"},
		{name: "column 0 at most ParagraphWidth", width: 100, first: "", rest: "  ",
			text: strings.Repeat("word ", 20),
			want: strings.TrimSpace(strings.Repeat("word ", 15)) + "\n  " + strings.TrimSpace(strings.Repeat("word ", 5)) + "\n"},
		{name: "line breaks are kept", width: 40, first: "  ", rest: "    ", text: "one\ntwo", want: "  one\n    two\n"},
		{name: "runes, not bytes", width: 14, first: "", rest: "  ", text: "a → b → c → d → e",
			want: "a → b → c → d\n  → e\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &page{width: tt.width}
			p.para(tt.first, tt.rest, tt.text)
			if got := p.String(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			requireFits(t, p.String(), tt.width)
		})
	}
}

// A row that fits keeps its alignment; one that does not is wrapped, with
// its words whole.
func TestPageLine(t *testing.T) {
	p := &page{width: 41}
	p.line("    reachable    host.example    10.0.2.5", "      ")
	p.line("    reachable    a-longer-host.example.io    10.0.2.5, 10.0.2.6", "      ")
	want := "    reachable    host.example    10.0.2.5\n" +
		"    reachable a-longer-host.example.io\n" +
		"      10.0.2.5, 10.0.2.6\n"
	if got := p.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
