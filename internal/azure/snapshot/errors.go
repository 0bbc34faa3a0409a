package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Error is one problem in a snapshot: where it is and what to fix.
type Error struct {
	File string // empty when the snapshot came from bytes
	Path string // JSON path such as `resources[3].id` or `faults["GET /…"]`; empty for the document
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("snapshot")
	if e.File != "" {
		b.WriteString(" ")
		b.WriteString(e.File)
	}
	if e.Path != "" {
		b.WriteString(": ")
		b.WriteString(e.Path)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// maxErrors bounds the report for a badly broken file: the first problems
// are the useful ones.
const maxErrors = 20

func joinErrors(errs []*Error, file string) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	n := len(errs)
	if n > maxErrors {
		errs = append(errs[:maxErrors:maxErrors], &Error{File: file, Msg: fmt.Sprintf("%d more problems not shown", n-maxErrors)})
	}
	all := make([]error, len(errs))
	for i, e := range errs {
		all[i] = e
	}
	return errors.Join(all...)
}

// describeJSONError turns a decoding error into "line L, column C: …".
func describeJSONError(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := position(data, syn.Offset)
		return fmt.Sprintf("line %d, column %d: %s", line, col, syn.Error())
	case errors.As(err, &typ):
		line, col := position(data, typ.Offset)
		return fmt.Sprintf("line %d, column %d: expected %s, found a JSON %s", line, col, typ.Type, typ.Value)
	default:
		return strings.TrimPrefix(err.Error(), "json: ")
	}
}

// position converts encoding/json's offset, which points just past the
// offending byte, to the 1-based line and column of that byte.
func position(data []byte, offset int64) (line, col int) {
	offset--
	if offset < 0 {
		offset = 0
	}
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - bytes.LastIndexByte(before, '\n')
	return line, col
}

func keyPath(field, key string) string {
	return fmt.Sprintf("%s[%q]", field, key)
}
