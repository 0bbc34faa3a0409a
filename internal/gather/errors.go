package gather

import (
	"errors"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// ReadError is a failed read with the gap it left: the resource (or the
// list or action) that could not be read, why (refused, absent,
// unavailable) and the permission the read needs, exactly as the Reader
// records it in Gaps. Callers take the gap from the error (GapOf, GapsOf)
// instead of rebuilding where the Reader filed it.
type ReadError struct {
	Gap model.Gap
	Err error
}

// Error is the underlying error's text.
func (e *ReadError) Error() string { return e.Err.Error() }

// Unwrap gives the underlying error (an ARM response error, a deadline).
func (e *ReadError) Unwrap() error { return e.Err }

// GapOf returns the gap of the first failed read err carries (errors
// joined from several reads: the first of them).
func GapOf(err error) (model.Gap, bool) {
	var re *ReadError
	if errors.As(err, &re) {
		return re.Gap, true
	}
	return model.Gap{}, false
}

// GapsOf returns the gap of every failed read err carries, in order: one
// per ReadError in the tree of joined and wrapped errors.
func GapsOf(err error) []model.Gap {
	var out []model.Gap
	var walk func(error)
	walk = func(e error) {
		switch x := e.(type) { //nolint:errorlint // walks the wrap tree itself, one level per step
		case nil:
		case *ReadError:
			out = append(out, x.Gap)
		case interface{ Unwrap() []error }:
			for _, inner := range x.Unwrap() {
				walk(inner)
			}
		case interface{ Unwrap() error }:
			walk(x.Unwrap())
		}
	}
	walk(err)
	return out
}
