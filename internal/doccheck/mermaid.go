// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package doccheck

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Flowchart checks src, the text of one Mermaid block, against the
// flowchart syntax Mermaid accepts, for the subset this provider emits and
// its documentation uses:
//
//   - a header `flowchart` or `graph`, optionally with a direction (TB, TD,
//     BT, LR, RL), before any statement; `%%` comment lines anywhere;
//   - node statements: an id (letters, digits, `_`) with an optional shape
//     holding a label: `[…]`, `(…)`, `([…])`, `[[…]]`, `[(…)]`, `((…))`,
//     `(((…)))`, `{…}`, `{{…}}`, `>…]`, `[/…/]`, `[\…\]`, `[/…\]`, `[\…/]`,
//     and an optional `:::class`;
//   - edges between node statements (`&` joins several): `-->`, `---`,
//     `-.->`, `-.-`, `==>`, `===`, `--o`, `--x`, with an optional label
//     `|…|` after the arrow or `-- text -->` inside it;
//   - `classDef`, `class`, `style`, `linkStyle` (each index below the
//     number of edges, as Mermaid requires), `subgraph` … `end` (balanced),
//     `direction`.
//
// A label is either quoted ("…", no `"` inside) or plain text without
// brackets, braces, parentheses, quotes or `|`, which Mermaid would read as
// syntax. Text left over by a template engine (`{{ .Name }}`, a shape
// whose `{{`/`}}` were eaten) is not a statement and fails. The result
// lists every problem with its line number; nil means the block is valid.
func Flowchart(src string) []error {
	c := checker{}
	c.run(src)
	return c.errs
}

type checker struct {
	errs      []error
	line      int
	edges     int
	linkStyle []linkRef
	depth     int
}

type linkRef struct{ line, index int }

func (c *checker) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("line %d: "+format, append([]any{c.line}, args...)...))
}

var (
	headerRE    = regexp.MustCompile(`^(flowchart|graph)(\s+(TB|TD|BT|LR|RL))?\s*;?$`)
	directionRE = regexp.MustCompile(`^direction\s+(TB|TD|BT|LR|RL)$`)
	classDefRE  = regexp.MustCompile(`^classDef\s+[\w-]+(,[\w-]+)*\s+(\S.*)$`)
	classRE     = regexp.MustCompile(`^class\s+\w+(\s*,\s*\w+)*\s+[\w-]+\s*;?$`)
	styleRE     = regexp.MustCompile(`^style\s+\w+\s+(\S.*)$`)
	linkStyleRE = regexp.MustCompile(`^linkStyle\s+(default|\d+(\s*,\s*\d+)*)\s+(\S.*)$`)
	subgraphRE  = regexp.MustCompile(`^subgraph\s+(\w+\s*(\[("[^"]*"|[^\[\]"]*)\])?|"[^"]*"|[\w .-]+)$`)
	styleListRE = regexp.MustCompile(`^[\w-]+:[^,;]+(,[\w-]+:[^,;]+)*;?$`)
)

func (c *checker) run(src string) {
	header := false
	for i, raw := range strings.Split(src, "\n") {
		c.line = i + 1
		s := strings.TrimSpace(raw)
		if s == "" || strings.HasPrefix(s, "%%") {
			continue
		}
		if !header {
			if !headerRE.MatchString(s) {
				c.errorf("a flowchart starts with `flowchart` or `graph` and a direction (LR, TD, …), not %q", s)
				return
			}
			header = true
			continue
		}
		if strings.Contains(s, "{{ ") || strings.Contains(s, "{{.") || strings.Contains(s, "{{-") || strings.Contains(s, " }}") {
			c.errorf("template syntax left in the diagram: %q", s)
			continue
		}
		c.statement(s)
	}
	if !header {
		c.line = 1
		c.errorf("empty diagram: no `flowchart` header")
	}
	if c.depth > 0 {
		c.errorf("%d subgraph(s) without `end`", c.depth)
	}
	for _, l := range c.linkStyle {
		if l.index >= c.edges {
			c.line = l.line
			c.errorf("linkStyle %d: the diagram has %d edges (indices 0 to %d)", l.index, c.edges, c.edges-1)
		}
	}
}

func (c *checker) statement(s string) {
	switch {
	case s == "end":
		if c.depth == 0 {
			c.errorf("`end` without `subgraph`")
		} else {
			c.depth--
		}
	case strings.HasPrefix(s, "subgraph "):
		if !subgraphRE.MatchString(s) {
			c.errorf("malformed subgraph: %q", s)
		}
		c.depth++
	case strings.HasPrefix(s, "direction "):
		if !directionRE.MatchString(s) {
			c.errorf("malformed direction: %q", s)
		}
	case strings.HasPrefix(s, "classDef "):
		m := classDefRE.FindStringSubmatch(s)
		if m == nil || !styleListRE.MatchString(m[2]) {
			c.errorf("malformed classDef (want `classDef name prop:value,…`): %q", s)
		}
	case strings.HasPrefix(s, "class "):
		if !classRE.MatchString(s) {
			c.errorf("malformed class (want `class id1,id2 name`): %q", s)
		}
	case strings.HasPrefix(s, "style "):
		m := styleRE.FindStringSubmatch(s)
		if m == nil || !styleListRE.MatchString(m[1]) {
			c.errorf("malformed style (want `style id prop:value,…`): %q", s)
		}
	case strings.HasPrefix(s, "linkStyle "):
		m := linkStyleRE.FindStringSubmatch(s)
		if m == nil || !styleListRE.MatchString(m[3]) {
			c.errorf("malformed linkStyle (want `linkStyle 0,1 prop:value,…`): %q", s)
			return
		}
		if m[1] != "default" {
			for _, f := range strings.Split(m[1], ",") {
				n, _ := strconv.Atoi(strings.TrimSpace(f))
				c.linkStyle = append(c.linkStyle, linkRef{c.line, n})
			}
		}
	default:
		c.chain(strings.TrimSuffix(s, ";"))
	}
}

// chain parses `nodes (edge nodes)*`, where nodes is `node (& node)*`.
func (c *checker) chain(s string) {
	p := &parser{s: s}
	if !c.nodes(p) {
		return
	}
	for {
		p.space()
		if p.done() {
			return
		}
		if !c.edge(p) {
			return
		}
		c.edges++
		p.space()
		if !c.nodes(p) {
			return
		}
	}
}

func (c *checker) nodes(p *parser) bool {
	for {
		p.space()
		if !c.node(p) {
			return false
		}
		p.space()
		if !p.eat("&") {
			return true
		}
	}
}

var idRE = regexp.MustCompile(`^\w+`)

// shapes, longest opening first so that `([` wins over `(`.
var shapes = []struct{ open, close string }{
	{"(((", ")))"}, {"([", "])"}, {"[(", ")]"}, {"[[", "]]"}, {"((", "))"}, {"{{", "}}"},
	{"[/", "/]"}, {"[/", "\\]"}, {"[\\", "\\]"}, {"[\\", "/]"},
	{"[", "]"}, {"(", ")"}, {"{", "}"}, {">", "]"},
}

func (c *checker) node(p *parser) bool {
	id := idRE.FindString(p.rest())
	if id == "" {
		c.errorf("expected a node id at %q", p.rest())
		return false
	}
	p.i += len(id)
	if strings.HasPrefix(p.rest(), "-") && !strings.HasPrefix(p.rest(), "--") && !strings.HasPrefix(p.rest(), "-.") {
		c.errorf("a node id is letters, digits and _: %q", id+p.rest())
		return false
	}
	for _, sh := range shapes {
		if !strings.HasPrefix(p.rest(), sh.open) {
			continue
		}
		body := p.rest()[len(sh.open):]
		label, n, ok := labelUntil(body, sh.close)
		if !ok {
			continue // another shape with the same opening may close it
		}
		if err := checkLabel(label); err != "" {
			c.errorf("node %s: %s", id, err)
			return false
		}
		p.i += len(sh.open) + n + len(sh.close)
		break
	}
	if p.eat(":::") {
		cls := idRE.FindString(p.rest())
		if cls == "" {
			c.errorf("node %s: `:::` without a class name", id)
			return false
		}
		p.i += len(cls)
	}
	if r := p.rest(); r != "" && !strings.HasPrefix(r, " ") && !strings.HasPrefix(r, "&") && !strings.HasPrefix(r, "-") &&
		!strings.HasPrefix(r, "=") && !strings.HasPrefix(r, ".") {
		c.errorf("node %s: unexpected %q after it (an unclosed or unknown shape?)", id, r)
		return false
	}
	return true
}

// labelUntil returns the label before closing: a quoted string followed by
// closing, or plain text up to the first closing.
func labelUntil(body, closing string) (label string, n int, ok bool) {
	if strings.HasPrefix(body, `"`) {
		end := strings.Index(body[1:], `"`)
		if end < 0 || !strings.HasPrefix(body[end+2:], closing) {
			return "", 0, false
		}
		return body[:end+2], end + 2, true
	}
	end := strings.Index(body, closing)
	if end < 0 {
		return "", 0, false
	}
	return body[:end], end, true
}

// checkLabel returns why a label would not parse, or "".
func checkLabel(l string) string {
	if strings.HasPrefix(l, `"`) {
		if len(l) < 2 || !strings.HasSuffix(l, `"`) || strings.Contains(l[1:len(l)-1], `"`) {
			return fmt.Sprintf("unbalanced quotes in label %s", l)
		}
		return ""
	}
	if strings.TrimSpace(l) == "" {
		return "empty label"
	}
	if i := strings.IndexAny(l, "[](){}\"|"); i >= 0 {
		return fmt.Sprintf("label %q has %q, which Mermaid reads as syntax: quote the label", l, l[i])
	}
	return ""
}

var arrows = []string{"-.->", "-.-", "-->", "---", "==>", "===", "--o", "--x"}

var textArrowRE = regexp.MustCompile(`^(--|-\.|==) ([^|"\[\](){}]+?) (-->|---|\.->|\.-|==>|===)`)

func (c *checker) edge(p *parser) bool {
	r := p.rest()
	if m := textArrowRE.FindStringSubmatch(r); m != nil {
		p.i += len(m[0])
		return true
	}
	for _, a := range arrows {
		if !strings.HasPrefix(r, a) {
			continue
		}
		p.i += len(a)
		if p.eat("|") {
			body := p.rest()
			label, n, ok := labelUntil(body, "|")
			if !ok {
				c.errorf("edge label without its closing |: %q", r)
				return false
			}
			if err := checkLabel(label); err != "" {
				c.errorf("edge label: %s", err)
				return false
			}
			p.i += n + 1
		}
		return true
	}
	c.errorf("expected an edge (-->, -.->, ==>, …) or the end of the statement at %q", r)
	return false
}

type parser struct {
	s string
	i int
}

func (p *parser) rest() string { return p.s[p.i:] }
func (p *parser) done() bool   { return p.i >= len(p.s) }
func (p *parser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}
func (p *parser) eat(tok string) bool {
	if strings.HasPrefix(p.rest(), tok) {
		p.i += len(tok)
		return true
	}
	return false
}
