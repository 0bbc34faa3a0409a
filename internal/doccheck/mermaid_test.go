// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package doccheck

import (
	"strings"
	"testing"
)

func TestFlowchart(t *testing.T) {
	valid := map[string]string{
		"the shapes the provider emits": `flowchart LR
    A_1[("10.0.2.5")]
    H_1(["contosoreg.azurecr.io"])
    N_1("dropped")
    P_1["node pools system, user<br/>subnet vnet-spoke/snet-aks"]
    R_1{{"DNS azure_dns 168.63.129.16"}}
    H_1 -->|"ROUTE_BLACKHOLE<br/>10.0.0.0/16 None (route table rt-aks)"| N_1
    P_1 --> R_1
    R_1 -.->|"RETURN_ROUTE_UNVERIFIED"| A_1
    classDef pool fill:#e3f2fd,stroke:#1565c0
    class P_1,R_1 pool
    linkStyle 0,1 stroke:#d32f2f,stroke-width:3px,color:#d32f2f
`,
		"graph, plain labels, chains, &, subgraphs, comments, other arrows": `graph TD;
    %% a comment
    subgraph hub["Hub VNet"]
      direction LR
      fw{Firewall}
    end
    a[Node pool] --> b((DNS)) ==> c>registry] & d[[cache]]
    a -- plain text --> d
    a --- e[/slanted/] -.- f[\back\]
    e --o g
    style a fill:#fff,stroke:#000
    linkStyle default stroke:#999
`,
	}
	for name, src := range valid {
		if errs := Flowchart(src); len(errs) != 0 {
			t.Errorf("%s: want valid, got %v", name, errs)
		}
	}

	invalid := map[string]struct{ src, want string }{
		"a hexagon whose braces a Go template ate": {
			"flowchart LR\n    R_1DNS azure_dns 168.63.129.16\n    R_1 --> H_1\n", "expected an edge"},
		"template action left over":       {"flowchart LR\n    A --> {{ .Target }}\n", "template syntax"},
		"no header":                       {"A --> B\n", "starts with `flowchart`"},
		"unknown direction":               {"flowchart XY\nA --> B\n", "starts with `flowchart`"},
		"empty":                           {"\n", "no `flowchart` header"},
		"unclosed bracket":                {"flowchart LR\n    A[\"label\" --> B\n", "A"},
		"unbalanced quotes":               {"flowchart LR\n    A[\"label] --> B\n", "A"},
		"parenthesis in a plain label":    {"flowchart LR\n    A[route (udr)] --> B\n", "quote the label"},
		"edge label not closed":           {"flowchart LR\n    A -->|\"x\" B\n", "closing |"},
		"dangling arrow":                  {"flowchart LR\n    A -->\n", "expected a node id"},
		"unknown arrow":                   {"flowchart LR\n    A ~~> B\n", "expected an edge"},
		"id with a hyphen":                {"flowchart LR\n    node-a --> B\n", "letters, digits and _"},
		"linkStyle beyond the edges":      {"flowchart LR\n    A --> B\n    linkStyle 0,1 stroke:#f00\n", "linkStyle 1: the diagram has 1 edges"},
		"malformed classDef":              {"flowchart LR\n    A --> B\n    classDef pool\n", "malformed classDef"},
		"class without a name":            {"flowchart LR\n    A --> B\n    class A,B\n", "malformed class"},
		"subgraph without end":            {"flowchart LR\n    subgraph hub\n    A --> B\n", "without `end`"},
		"end without subgraph":            {"flowchart LR\n    A --> B\n    end\n", "`end` without"},
		"style without properties":        {"flowchart LR\n    A --> B\n    style A\n", "malformed style"},
		"unknown text after a node shape": {"flowchart LR\n    A[\"x\"]y --> B\n", "unexpected"},
	}
	for name, c := range invalid {
		errs := Flowchart(c.src)
		if len(errs) == 0 {
			t.Errorf("%s: want an error, got none", name)
			continue
		}
		if !strings.Contains(errs[0].Error(), c.want) || !strings.HasPrefix(errs[0].Error(), "line ") {
			t.Errorf("%s: want an error with its line and %q, got %v", name, c.want, errs)
		}
	}
}
