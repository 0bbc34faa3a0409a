// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/pullpath/terraform-provider-pullpath/internal/azure"
	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// gapOf is the gap a failed read of id left: the one the reader's error
// carries (gather.ReadError: the exact resource, list or action and the
// permission the read needed), else the reader's gap recorded for id, else
// the classification of err itself (an error from outside the reader, such
// as a cancelled context).
func gapOf(id model.ResourceID, err error, gaps model.Gaps) model.Gap {
	g, ok := gather.GapOf(err)
	if !ok {
		g, ok = gaps.Lookup(id)
	}
	if !ok {
		return azure.Gap(id, "", err)
	}
	return g
}

// readFailure is the diagnostic for a failed read of the resource an
// argument names. It says what happened to that concrete resource, named
// in words (model.ResourceID.Label), and what to do, on the argument's
// path.
//
// The reader (and azure.Gap) classify the error; a deadline is reported as
// the timeout it is, whatever the last HTTP answer was.
func readFailure(attr path.Path, id model.ResourceID, err error, gaps model.Gaps, timeout time.Duration) diag.Diagnostic {
	summary, detail := describeReadFailure(id, err, gapOf(id, err, gaps), timeout)
	return diag.NewAttributeErrorDiagnostic(attr, summary, detail)
}

// kindWords is the kind of resource id names, in words ("AKS cluster").
func kindWords(id model.ResourceID) string {
	if k, ok := model.KindOf(id); ok {
		return k
	}
	return "resource"
}

// describeReadFailure is readFailure's text, as a pure function for tests.
func describeReadFailure(id model.ResourceID, err error, gap model.Gap, timeout time.Duration) (summary, detail string) {
	var signIn *azure.SignInError
	var unreachable *azure.UnreachableError
	what, label := kindWords(id), id.Label()
	switch {
	case errors.As(err, &signIn):
		return signInText(err)
	case errors.As(err, &unreachable):
		return "Cannot reach " + unreachable.Host,
			fmt.Sprintf("Reading the %s %s (%s) got no answer: %v. %s", what, id.Name(), id, unreachable, unreachable.Advice())
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("Timed out reading the %s", what),
			fmt.Sprintf("Reading the %s (%s) did not finish within the read timeout (%s). "+
				"Raise timeouts { read = \"…\" } on this data source, or check for throttling (HTTP 429) in the provider log (TF_LOG=DEBUG).",
				label, id, timeout)
	}
	switch gap.Kind {
	case model.GapPlannedUnknown:
		change := gap.Planned
		if change == "" {
			change = "the planned change"
		}
		return fmt.Sprintf("A value of the %s is known only after apply", what),
			fmt.Sprintf("After the planned changes (planned_changes_file), the %s (%s) holds a value this data source reports that is known only after apply: %s. "+
				"Read it again after %s is applied, or give the value literally in the configuration instead of from a resource created in the same plan. "+
				"Granting permissions or planning again will not help: the value does not exist before apply.", label, id, gap.Detail, change)
	case model.GapUnreachable:
		return "Cannot reach Azure Resource Manager",
			fmt.Sprintf("Reading the %s (%s) got no answer: %s. Check that this machine can resolve and reach Azure Resource Manager "+
				"over HTTPS (port 443): its DNS, the proxy settings (HTTPS_PROXY, NO_PROXY) and a firewall between it and Azure. "+
				"Credentials and permissions are irrelevant here: no answer came back.", label, id, gap.Detail)
	case model.GapPermissionDenied:
		perm := gap.Permission
		if gap.Snapshot {
			return fmt.Sprintf("Permission denied reading the %s", what),
				fmt.Sprintf("The snapshot (snapshot_file) records that reading the %s (%s) was refused (%s): the identity that "+
					"recorded it lacks %s. Record the snapshot again (record_file) with an identity that holds %s on it, its resource "+
					"group (%s) or its subscription (%s).", label, id, gap.Detail, perm, roleHint(perm), id.ResourceGroup(), id.Subscription())
		}
		return fmt.Sprintf("Permission denied reading the %s", what),
			fmt.Sprintf("Azure refused to let the provider read the %s (%s) (%s). "+
				"The identity the provider signs in as needs %s on it: assign %s at the resource, "+
				"its resource group (%s) or its subscription (%s).",
				label, id, gap.Detail, perm, roleHint(perm), id.ResourceGroup(), id.Subscription())
	case model.GapNotFound:
		if gap.Snapshot {
			return fmt.Sprintf("The %s is not in the snapshot", what),
				fmt.Sprintf("The snapshot (snapshot_file) has no %s (%s). Check the subscription (%s), the resource group (%s) and "+
					"the name (%s) in the id; if the resource exists, record the snapshot again (record_file) so that it holds it.",
					label, id, id.Subscription(), id.ResourceGroup(), id.Name())
		}
		return fmt.Sprintf("The %s does not exist", what),
			fmt.Sprintf("Azure has no %s (%s) (%s), or it is in a subscription the provider's identity cannot see. "+
				"Check the subscription (%s), the resource group (%s) and the name (%s) in the id.",
				label, id, gap.Detail, id.Subscription(), id.ResourceGroup(), id.Name())
	default:
		detail := gap.Detail
		if detail == "" && err != nil {
			detail = err.Error()
		}
		return fmt.Sprintf("Could not read the %s", what),
			fmt.Sprintf("Reading the %s (%s) kept failing after retries: %s. "+
				"This is usually throttling or a transient Azure problem; plan again later.", label, id, detail)
	}
}

// roleHint says which role grants an action: Reader covers every */read,
// but none of the read-only POST actions (listDnsResolvers/action,
// effectiveRouteTable/action, …), which need a custom role.
func roleHint(permission string) string {
	if strings.HasSuffix(strings.ToLower(permission), "/action") {
		return "a custom role with that action; the built-in Reader role does not include it"
	}
	return "the built-in Reader role, or a custom role with that action"
}

// gapWarning describes a failed read of a secondary resource (one the data
// source reports on but does not depend on): the result is still returned,
// with that part marked unreadable or unknown. subject names what was read
// ("the remote virtual network vnet-hub").
func gapWarning(subject string, gap model.Gap, consequence string) diag.Diagnostic {
	var why string
	switch gap.Kind {
	case model.GapPermissionDenied:
		perm := gap.Permission
		why = fmt.Sprintf("the read was refused (%s); the provider's identity needs %s there (%s)", gap.Detail, perm, roleHint(perm))
	case model.GapNotFound:
		why = fmt.Sprintf("it does not exist or is not visible to the provider's identity (%s)", gap.Detail)
		if gap.Snapshot {
			why = "the snapshot (snapshot_file) has no such resource"
		}
	default:
		why = fmt.Sprintf("the read kept failing (%s)", gap.Detail)
	}
	return diag.NewWarningDiagnostic("Could not read "+subject,
		fmt.Sprintf("Reading %s (%s) failed: %s. %s", subject, gap.ResourceID, why, consequence))
}

// signInFailure is the diagnostic for a credential that does not work
// (azure.SignInError), or for a read timeout while signing in.
func signInFailure(err error) diag.Diagnostic {
	summary, detail := signInText(err)
	return diag.NewErrorDiagnostic(summary, detail)
}

func signInText(err error) (summary, detail string) {
	var unreachable *azure.UnreachableError
	if errors.As(err, &unreachable) {
		return "Cannot reach " + unreachable.Host,
			fmt.Sprintf("Signing in to Azure got no answer: %v. Nothing was read. %s", unreachable, unreachable.Advice())
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "Timed out signing in to Azure",
			fmt.Sprintf("Getting a token from Microsoft Entra ID did not finish within the read timeout: %v. Nothing was read. "+
				"Check that the machine can reach the Entra ID endpoint of the configured environment (proxy, firewall), "+
				"or raise timeouts { read = \"…\" }.", err)
	}
	advice := "Fix the credentials the provider is configured with (the provider block or the ARM_* environment variables)."
	var signIn *azure.SignInError
	if errors.As(err, &signIn) {
		advice = signIn.Advice()
	}
	return "Could not sign in to Azure",
		fmt.Sprintf("%v.\n\nNothing was read. %s To work without Azure, set snapshot_file.", err, advice)
}

// gapSummary is a gap in a few words, for notes and warnings.
func gapSummary(g model.Gap) string {
	switch g.Kind {
	case model.GapPermissionDenied:
		if g.Permission != "" {
			return "permission denied; needs " + g.Permission
		}
		return "permission denied"
	case model.GapNotFound:
		if g.Snapshot {
			return "not in the snapshot"
		}
		return "not found"
	default:
		if g.Detail != "" {
			return g.Detail
		}
		return "unavailable"
	}
}
