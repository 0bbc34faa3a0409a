// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package validators holds the provider's framework validators.
package validators

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pullpath/terraform-provider-pullpath/internal/ids"
)

// ResourceID returns a string validator that accepts only ARM resource ids of
// one of the given full types (e.g. "Microsoft.Network/virtualNetworks"),
// compared case-insensitively as ARM does. It runs at validate time, so a
// subnet id given where a virtual network id belongs fails `validate` and
// `plan` before any request is made. Unknown and null values pass (they are
// checked once known).
func ResourceID(fullTypes ...string) validator.String {
	if len(fullTypes) == 0 {
		panic("validators.ResourceID needs at least one resource type")
	}
	return resourceIDValidator{fullTypes: fullTypes}
}

type resourceIDValidator struct{ fullTypes []string }

func (v resourceIDValidator) Description(context.Context) string {
	return fmt.Sprintf("must be a %s resource id, such as %s", orList(v.fullTypes, ""), exampleID(v.fullTypes[0]))
}

func (v resourceIDValidator) MarkdownDescription(ctx context.Context) string {
	return fmt.Sprintf("must be a %s resource id", orList(v.fullTypes, "`"))
}

func (v resourceIDValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if msg := CheckResourceID(req.ConfigValue.ValueString(), v.fullTypes...); msg != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid resource id", msg)
	}
}

// CheckResourceID returns "" when s is an id of one of fullTypes, else a
// message that says what is wrong and how to fix it. It is the validator's
// logic as a pure function, for reuse where the id is not a schema
// attribute (ids in lists, ids read from Azure).
func CheckResourceID(s string, fullTypes ...string) string {
	want := orList(fullTypes, "")
	id, err := ids.Parse(s)
	if err != nil {
		reason := err.Error()
		var pe *ids.ParseError
		if errors.As(err, &pe) {
			reason = pe.Reason
		}
		return fmt.Sprintf("The value %q is not a valid Azure resource id: it %s. Expected a %s id such as %s.",
			s, reason, want, exampleID(fullTypes[0]))
	}
	for _, t := range fullTypes {
		if id.IsType(t) {
			return ""
		}
	}
	got := id.Type()
	switch {
	case got == "" && id.ResourceGroup != "":
		got = "resource group"
	case got == "":
		got = "subscription"
	}
	msg := fmt.Sprintf("expected a %s id, got a %s id: %s", want, got, s)
	// The most common mistakes are a child or parent of the right resource
	// (a subnet instead of its virtual network): name the id to use.
	for _, t := range fullTypes {
		if hint := relativeHint(id, t); hint != "" {
			return msg + ". " + hint
		}
	}
	// Otherwise show the shape, so that the fix is clear even when the
	// wrong id came from an unrelated output.
	shapes := make([]string, len(fullTypes))
	for i, t := range fullTypes {
		shapes[i] = exampleID(t)
	}
	return fmt.Sprintf("%s. Give the id of the %s itself instead, shaped like %s.", msg, want, strings.Join(shapes, " or "))
}

// relativeHint suggests the ancestor id when the given id is a child of the
// expected type.
func relativeHint(id ids.ResourceID, fullType string) string {
	for p, ok := id.Parent(); ok; p, ok = p.Parent() {
		if p.IsType(fullType) {
			return fmt.Sprintf("Use the enclosing resource's id instead: %s", p.String())
		}
	}
	if strings.HasPrefix(strings.ToLower(fullType), strings.ToLower(id.Type())+"/") && id.Type() != "" {
		return fmt.Sprintf("This is the id of a parent resource: append /%s/{name}", strings.TrimPrefix(fullType[len(id.Type()):], "/"))
	}
	return ""
}

// exampleID is a placeholder id of fullType for messages.
func exampleID(fullType string) string {
	ns, rest, ok := strings.Cut(fullType, "/")
	if !ok {
		return "/subscriptions/{subscription-id}/resourceGroups/{group}"
	}
	var b strings.Builder
	b.WriteString("/subscriptions/{subscription-id}/resourceGroups/{group}/providers/" + ns)
	for _, t := range strings.Split(rest, "/") {
		b.WriteString("/" + t + "/{name}")
	}
	return b.String()
}

// orList joins types as "A", "A or B", "A, B or C", each quoted with q.
func orList(types []string, q string) string {
	quoted := make([]string, len(types))
	for i, t := range types {
		quoted[i] = q + t + q
	}
	if len(quoted) == 1 {
		return quoted[0]
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
}
