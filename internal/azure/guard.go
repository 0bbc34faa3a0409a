package azure

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// ReadOnlyGuard is an azcore policy that refuses, before the request leaves
// the process, everything but GET and the POSTs of [model.ReadActions]. It is the
// provider's promise that a plan never changes Azure, kept in one place
// rather than trusted to every reader.
//
// Place it in ClientOptions.PerCallPolicies: it then runs before the retry
// policy and the bearer-token policy, so a refused request costs no token
// and is not retried. Its error is also marked non-retriable, so it is
// equally safe in PerRetryPolicies. LRO polls (GETs on operation URLs) and
// next-page fetches (GETs) pass.
type ReadOnlyGuard struct{}

// Do implements policy.Policy.
func (ReadOnlyGuard) Do(req *policy.Request) (*http.Response, error) {
	if err := CheckReadOnly(req.Raw().Method, req.Raw().URL); err != nil {
		return nil, err
	}
	return req.Next()
}

// CheckReadOnly returns a *ReadOnlyError unless method and u are a GET or
// one of the read actions of [model.ReadActions].
func CheckReadOnly(method string, u *url.URL) error {
	if u == nil {
		return &ReadOnlyError{Method: method}
	}
	if method == http.MethodGet {
		return nil
	}
	if _, ok := model.ReadActionAt(u.EscapedPath()); method == http.MethodPost && ok {
		return nil
	}
	return &ReadOnlyError{Method: method, Path: u.Path}
}

// ReadOnlyError is a request the guard refused.
type ReadOnlyError struct {
	Method string
	Path   string // without the query string
}

func (e *ReadOnlyError) Error() string {
	var names []string
	for _, a := range model.ReadActions() {
		names = append(names, a.Name())
	}
	return fmt.Sprintf("pullpath is read-only towards Azure: refusing %s %s (only GET and the read actions %s are allowed)",
		e.Method, e.Path, strings.Join(names, ", "))
}

// NonRetriable tells azcore's retry policy (and ours) that trying again
// cannot help.
func (*ReadOnlyError) NonRetriable() {}
