// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package verify

import (
	"strings"
	"unicode/utf8"
)

// Widths of the text the provider prints, in columns (one rune is one
// column: the texts hold no double-width characters).
const (
	// SummaryWidth bounds every line of the summary attribute.
	SummaryWidth = 100
	// DiagnosticWidth bounds every line of a diagnostic's detail: in a
	// terminal the CLIs frame each line with "│ ", which takes two columns
	// of a 100-column terminal.
	DiagnosticWidth = 98
	// ParagraphWidth bounds a line that starts at column 0. Terraform and
	// OpenTofu leave a diagnostic's indented lines as they are but re-wrap
	// every other line to the terminal, or to 78 columns when they do not
	// write to one (CI logs; a check block shows the summary as a
	// diagnostic), so a longer line would come out ragged.
	ParagraphWidth = 76
)

// page is text being laid out in lines of at most width columns; lines
// that start at column 0 are at most ParagraphWidth. The zero value is not
// usable: set width.
type page struct {
	b     strings.Builder
	width int
}

func (p *page) String() string { return p.b.String() }

// blank ends a section with an empty line.
func (p *page) blank() { p.b.WriteString("\n") }

// line writes s as one line if it fits, else word-wrapped like para with
// a hanging indent of hang: an aligned table row stays aligned when it
// fits and is wrapped, not cut, when it does not.
func (p *page) line(s, hang string) {
	indent := leadingSpaces(s)
	if columns(s) <= p.limit(indent) {
		p.b.WriteString(s + "\n")
		return
	}
	p.para(indent, hang, s[len(indent):])
}

// para writes text word-wrapped: the first line starts with first, the
// others with rest (a hanging indent). A word is never split unless it
// alone is longer than a line: then it is cut after the last '/' that
// fits (resource ids, subnet names), else at the width. Line breaks in
// text start a new line with rest.
func (p *page) para(first, rest, text string) {
	limit := p.limit(first)
	for i, paragraph := range strings.Split(text, "\n") {
		prefix := first
		if i > 0 {
			prefix = rest
		}
		p.words(prefix, rest, strings.Fields(paragraph), limit)
	}
}

// limit is the width of a paragraph whose first line starts with first.
func (p *page) limit(first string) int {
	if first == "" {
		return min(p.width, ParagraphWidth)
	}
	return p.width
}

// words lays words out after prefix, continuing with rest, in lines of
// at most limit columns.
func (p *page) words(prefix, rest string, words []string, limit int) {
	if len(words) == 0 {
		p.b.WriteString("\n")
		return
	}
	line, n, empty := prefix, columns(prefix), true
	emit := func() {
		p.b.WriteString(strings.TrimRight(line, " ") + "\n")
		line, n, empty = rest, columns(rest), true
	}
	for _, w := range words {
		for w != "" {
			need := columns(w)
			if !empty {
				need++
			}
			switch {
			case n+need <= limit:
				if !empty {
					line += " "
				}
				line, n, empty, w = line+w, n+need, false, ""
			case !empty:
				emit()
			default: // longer than a whole line: cut it
				head, tail := cut(w, max(limit-n, 1))
				line, empty, w = line+head, false, tail
				emit()
			}
		}
	}
	if !empty {
		emit()
	}
}

// cut splits w after at most room runes, after the last '/' in them if
// there is one.
func cut(w string, room int) (head, tail string) {
	runes := []rune(w)
	if room >= len(runes) {
		return w, ""
	}
	at := room
	if i := strings.LastIndex(string(runes[:room]), "/"); i > 0 {
		at = utf8.RuneCountInString(string(runes[:room])[:i+1])
	}
	return string(runes[:at]), string(runes[at:])
}

// columns is the width of s.
func columns(s string) int { return utf8.RuneCountInString(s) }

func leadingSpaces(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " "))] }
