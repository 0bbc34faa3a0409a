// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package report

import (
	"fmt"
	"strings"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// maxNamePart bounds each half of a report name, so that the file name
// stays far below the 255 bytes file systems allow.
const maxNamePart = 100

// Name is the name the report's files share, without the suffix of a
// second verification of the same pair and without extension:
// "<nodes>.<registry>", in lower case (Azure names are case-insensitive).
//
//   - nodes: the cluster's name; for node_subnet_ids the first subnet's
//     name, followed by "+N" when N more subnets are verified together
//     ("snet-nodes+2");
//   - registry: the registry's name; for a registry block its first host
//     (the login host, "harbor.corp.example.com").
//
// Characters other than letters, digits, '.', '_', '-' and '+' become '_',
// and a leading '.' is dropped, so a name is always one plain file name.
func Name(r Report) string {
	nodes := ""
	switch s := r.Subject; {
	case s.ClusterID != nil:
		nodes = model.ResourceID(*s.ClusterID).Name()
	case len(s.NodeSubnetIDs) > 0:
		nodes = model.ResourceID(s.NodeSubnetIDs[0]).Name()
		if more := len(s.NodeSubnetIDs) - 1; more > 0 {
			nodes += fmt.Sprintf("+%d", more)
		}
	}
	registry := ""
	switch s := r.Subject; {
	case s.RegistryID != nil:
		registry = model.ResourceID(*s.RegistryID).Name()
	case len(s.RegistryHosts) > 0:
		registry = s.RegistryHosts[0]
	}
	return namePart(nodes, "nodes") + "." + namePart(registry, "registry")
}

// namePart is s as a safe part of a file name; fallback when s is empty.
func namePart(s, fallback string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '.', c == '_', c == '-', c == '+':
			b.WriteRune(c)
		default:
			b.WriteByte('_')
		}
	}
	out := strings.TrimLeft(b.String(), ".")
	if len(out) > maxNamePart {
		out = out[:maxNamePart]
	}
	if out == "" {
		return fallback
	}
	return out
}
