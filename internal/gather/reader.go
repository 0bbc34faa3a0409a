// Package gather reads Azure Resource Manager through the SDK clients of
// package azure and turns what it reads into the plain model. Reads run
// concurrently; each resource is read at most once per Reader, and a read
// that fails becomes a model.Gap, so that verification can say exactly
// which evidence is missing; the error a failed read returns carries that
// gap (ReadError).
package gather

import (
	"sync"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Reader reads ARM resources into the model for one run (one data source
// read). It is safe for concurrent use.
type Reader struct {
	clients *azure.Clients

	memoMu sync.Mutex
	memo   map[string]*call

	gapsMu sync.Mutex
	gaps   model.Gaps
}

// New returns a Reader over the given clients.
func New(clients *azure.Clients) *Reader {
	return &Reader{clients: clients, memo: map[string]*call{}, gaps: model.Gaps{}}
}

// call is one memoised read: concurrent askers wait on done.
type call struct {
	done chan struct{}
	val  any
	err  error
}

// once runs read at most once per key for the Reader's lifetime; concurrent
// callers for the same key wait for the one read in flight and share its
// result, error included (a Reader lives for one run, so errors are not
// cached beyond it).
func once[T any](r *Reader, key string, read func() (T, error)) (T, error) {
	r.memoMu.Lock()
	if c, ok := r.memo[key]; ok {
		r.memoMu.Unlock()
		<-c.done
		v, _ := c.val.(T)
		return v, c.err
	}
	c := &call{done: make(chan struct{})}
	r.memo[key] = c
	r.memoMu.Unlock()

	v, err := read()
	c.val, c.err = v, err
	close(c.done)
	return v, err
}

// fail records a failed read of id as a gap and returns err carrying it
// (ReadError).
func (r *Reader) fail(id model.ResourceID, permission string, err error) error {
	return &ReadError{Gap: r.record(id, permission, err), Err: err}
}

// record records a failed read of id as a gap, for a caller that goes on
// without returning the error (the gap is what the facts carry).
func (r *Reader) record(id model.ResourceID, permission string, err error) model.Gap {
	gap := azure.Gap(id, permission, err)
	r.gapsMu.Lock()
	r.gaps.Add(gap)
	r.gapsMu.Unlock()
	return gap
}

// Gaps returns the failed reads so far.
func (r *Reader) Gaps() model.Gaps {
	r.gapsMu.Lock()
	defer r.gapsMu.Unlock()
	out := make(model.Gaps, len(r.gaps))
	for k, v := range r.gaps {
		out[k] = v
	}
	return out
}

// prime stores v as the memoised result of key when nothing is stored yet:
// a list that returned whole resources saves reading them one by one.
func prime[T any](r *Reader, key string, v T) {
	r.memoMu.Lock()
	defer r.memoMu.Unlock()
	if _, ok := r.memo[key]; ok {
		return
	}
	c := &call{done: make(chan struct{}), val: v}
	close(c.done)
	r.memo[key] = c
}
