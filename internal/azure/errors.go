package azure

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure/snapshot"
	"github.com/pullpath/terraform-provider-pullpath/internal/ids"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Gap classifies a failed read of a resource into the evidence it leaves
// missing: refused (403, naming the permission the read needs), absent (404),
// unreachable (no answer: DNS, connection, TLS or proxy failure; see
// UnreachableError), or unavailable (throttling, 5xx, timeouts, anything
// else after retries); Snapshot says the answer came from snapshot_file;
// a read the planned changes leave unknown until apply
// (PlannedValueUnknownError) is model.GapPlannedUnknown, naming the change.
// A read that names no permission gets the read action of the id's type
// (ids.ReadPermission) here, where every gap is made, so that no consumer
// fills it in afterwards.
func Gap(id model.ResourceID, permission string, err error) model.Gap {
	if permission == "" {
		permission = ids.ReadPermission(string(id))
	}
	gap := model.Gap{ResourceID: id, Kind: model.GapUnavailable, Permission: permission, Detail: errorDetail(err)}
	var unknown *PlannedValueUnknownError
	if errors.As(err, &unknown) {
		gap.Kind, gap.Permission, gap.Planned = model.GapPlannedUnknown, "", unknown.Address
		return gap
	}
	var u *UnreachableError
	if errors.As(err, &u) {
		gap.Kind = model.GapUnreachable
		return gap
	}
	var re *azcore.ResponseError
	if errors.As(err, &re) {
		gap.Snapshot = re.RawResponse != nil && re.RawResponse.Header.Get(snapshot.AnswerHeader) != ""
		switch re.StatusCode {
		case http.StatusForbidden, http.StatusUnauthorized:
			gap.Kind = model.GapPermissionDenied
		case http.StatusNotFound:
			gap.Kind = model.GapNotFound
		}
	}
	return gap
}

// IsNotFound reports whether err is ARM's 404.
func IsNotFound(err error) bool {
	var re *azcore.ResponseError
	return errors.As(err, &re) && re.StatusCode == http.StatusNotFound
}

// errorDetail is a one-line description of err without request details
// (the SDK's full error text includes the request URL and headers dump).
func errorDetail(err error) string {
	var re *azcore.ResponseError
	var u *UnreachableError
	switch {
	case errors.As(err, &u):
		return u.Error()
	case errors.As(err, &re):
		code := re.ErrorCode
		if code == "" {
			code = http.StatusText(re.StatusCode)
		}
		return fmt.Sprintf("HTTP %d %s", re.StatusCode, code)
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out (the data source's read timeout was reached)"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case err == nil:
		return ""
	default:
		return err.Error()
	}
}
