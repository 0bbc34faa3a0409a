// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package firewall

import (
	"sort"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// terminatesTLS reports whether a rule inspects TLS: an application rule
// of a policy with terminateTLS, on the HTTPS traffic it allows (Azure
// Firewall Premium; docs/design/azure-behaviour.md, "Azure Firewall TLS
// inspection"). Network rules never do; classic rules have no such
// setting.
func terminatesTLS(r *model.FirewallRule) bool {
	if r == nil || r.Kind != model.FirewallApplicationRule || !r.TerminateTLS {
		return false
	}
	for _, p := range r.Protocols {
		if strings.EqualFold(p.Type, "Https") {
			return true
		}
	}
	return false
}

// inspecting are the rules that allowed some of the node addresses and
// terminate TLS, each once, ordered by how they are named: the flow
// of any node those rules decide reaches the registry with a certificate
// the firewall re-signed.
func inspecting(pieces []*piece) []RuleRef {
	seen := map[string]bool{}
	var out []RuleRef
	for _, p := range pieces {
		if p.decided && p.verdict == Allowed && p.rule != nil && p.rule.TerminateTLS {
			if k := p.rule.String(); !seen[k] {
				seen[k] = true
				out = append(out, *p.rule)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}
