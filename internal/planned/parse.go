package planned

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// Options tune the translation of a plan.
type Options struct {
	// DefaultSubscriptionID is the subscription of resources whose ARM id
	// has to be built from names (a resource the plan creates, whose id is
	// known only after apply) when neither the provider configuration in
	// the plan nor the ids the plan already knows name exactly one
	// subscription. Usually the pullpath provider's subscription_id.
	DefaultSubscriptionID string
	// Cloud is the Azure cloud of the plan's resources (registry host
	// names of private endpoints); the zero value is the public cloud.
	Cloud model.Cloud
}

func (o Options) cloud() model.Cloud {
	if o.Cloud.RegistrySuffix == "" {
		return model.PublicCloud
	}
	return o.Cloud
}

// SupportedFormatVersions are the plan format_version values Parse reads:
// 0.2 (Terraform 0.15.4 to 1.0.x) and 1.x (Terraform 1.1 and later, every
// OpenTofu). Version 0.1 plans (Terraform 0.12 to 0.15.3) are refused with
// the CLI version that wrote them: their providers (azurerm v2 and older)
// predate the attribute names translated here. terraform-json's own
// fixtures show the versions (0.2 from Terraform 1.0, 1.0 from 1.1).
const SupportedFormatVersions = "0.2, 1.x"

// internalErrorText marks the error of a translation that panicked.
const internalErrorText = "internal error"

// showHint is how a user makes the file Parse wants.
const showHint = "run `terraform show -json tfplan > plan.json` (or `tofu show -json tfplan > plan.json`) on the saved plan and give that file"

// Parse reads the JSON of a saved plan and translates its changes to Azure
// resources into ARM operations. It does no I/O. A file that is not such a
// plan, or of a format version it does not read, is an error that says
// what the file looks like and how to make the right one; a resource
// change it cannot translate is not an error but a Problem (or, for a type
// it does not translate, an Unsupported address) in the Plan.
func Parse(data []byte, opts Options) (plan *Plan, err error) {
	defer func() {
		// Translation walks arbitrary JSON: a bug on some shape must be a
		// clear error, never a crash of the provider.
		if r := recover(); r != nil {
			plan, err = nil, fmt.Errorf("the plan could not be translated (%s: %v); please report this with the plan's resource types", internalErrorText, r)
		}
	}()
	text, enc, err := decodeText(data)
	if err != nil {
		return nil, err
	}
	hint := showHint
	if enc == EncodingUTF16LE || enc == EncodingUTF16BE {
		// The command that wrote this file (Windows PowerShell 5.1's `>`)
		// would write UTF-16 again: say how to write UTF-8.
		hint = writeUTF8Hint
	}
	head, err := precheck(text, hint)
	if err != nil {
		if enc != EncodingUTF8 {
			return nil, fmt.Errorf("%w (the file was read as %s)", err, enc)
		}
		return nil, err
	}
	var p tfjson.Plan
	if err := json.Unmarshal(bytes.TrimSpace(text), &p); err != nil {
		if enc != EncodingUTF8 {
			return nil, fmt.Errorf("not a valid plan JSON (the file was read as %s): %w; %s", enc, err, hint)
		}
		return nil, fmt.Errorf("not a valid plan JSON: %w; %s", err, hint)
	}
	out := translate(&p, opts)
	out.Encoding = enc
	out.Mode = planMode(&p, head)
	return out, nil
}

// precheck says what a file that is not a plan JSON of a supported format
// looks like, before terraform-json's own (terser) checks.
func precheck(data []byte, hint string) (map[string]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, fmt.Errorf("the file is empty, not a plan JSON: %s", hint)
	}
	if looksLikePlanBinary(trimmed) {
		return nil, fmt.Errorf("not a plan JSON: it looks like a saved plan file (the binary of `terraform plan -out`): %s", hint)
	}
	if !utf8.Valid(trimmed) {
		return nil, notUTF8Error(trimmed)
	}
	if trimmed[0] != '{' {
		if looksLikeHCL(trimmed) {
			return nil, fmt.Errorf("not a plan JSON: it looks like Terraform configuration (HCL): %s", hint)
		}
		if trimmed[0] == '[' {
			return nil, fmt.Errorf("not a plan JSON: the file is a JSON array, a plan is an object: %s", hint)
		}
		if looksLikeHumanPlan(trimmed) {
			return nil, fmt.Errorf("not a plan JSON: it looks like the text output of `terraform plan`: %s", hint)
		}
	}
	var head map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(&head); err != nil {
		return nil, syntaxError(trimmed, err, hint)
	}
	if dec.More() {
		// Streamed JSON (`terraform plan -json` writes one message a line).
		if _, ok := head["@level"]; ok {
			return nil, fmt.Errorf("not a plan JSON: it looks like the machine-readable log of `terraform plan -json`, not a saved plan: %s", hint)
		}
		return nil, fmt.Errorf("not a plan JSON: the file holds more than one JSON value: %s", hint)
	}
	if _, ok := head["@level"]; ok {
		return nil, fmt.Errorf("not a plan JSON: it looks like a line of the machine-readable log of `terraform plan -json`: %s", hint)
	}
	var fv string
	if raw, ok := head["format_version"]; ok {
		if err := json.Unmarshal(raw, &fv); err != nil {
			return nil, fmt.Errorf("not a plan JSON: format_version is %s, not a version string: %s", string(raw), hint)
		}
	}
	_, hasChanges := head["resource_changes"]
	_, hasPlanned := head["planned_values"]
	_, hasConfig := head["configuration"]
	_, hasValues := head["values"]
	_, hasLineage := head["lineage"]
	_, hasSerial := head["serial"]
	switch {
	case hasLineage || hasSerial:
		return nil, fmt.Errorf("not a plan JSON: it looks like a state file (it has lineage/serial), which says what exists, not what a plan changes: %s", hint)
	case fv == "" && !hasChanges && !hasPlanned:
		if _, ok := head["provider_schemas"]; ok {
			return nil, fmt.Errorf("not a plan JSON: it looks like the output of `terraform providers schema -json`: %s", hint)
		}
		return nil, fmt.Errorf("not a plan JSON: it has neither format_version nor resource_changes: %s", hint)
	case fv == "":
		return nil, fmt.Errorf("not a plan JSON: format_version is missing: %s", hint)
	case !hasChanges && !hasPlanned && !hasConfig && head["provider_schemas"] != nil:
		return nil, fmt.Errorf("not a plan JSON: it looks like the output of `terraform providers schema -json`: %s", hint)
	case hasValues && !hasChanges && !hasPlanned && !hasConfig:
		return nil, fmt.Errorf("not a plan JSON: it looks like the JSON of a state (`terraform show -json` without a plan file): %s", hint)
	}
	major, minor, ok := formatVersion(fv)
	if !ok {
		return nil, fmt.Errorf("not a plan JSON: format_version %q is not a version: %s", fv, hint)
	}
	var tv string
	if raw, ok := head["terraform_version"]; ok {
		_ = json.Unmarshal(raw, &tv)
	}
	if err := checkFormat(fv, major, minor, tv); err != nil {
		return nil, err
	}
	var errored bool
	if raw, ok := head["errored"]; ok && json.Unmarshal(raw, &errored) == nil && errored {
		by := "Terraform or OpenTofu"
		if tv != "" {
			by += " " + tv
		}
		return nil, fmt.Errorf("the plan is incomplete: %s stopped planning on an error (the plan JSON has \"errored\": true), so the file holds only what was planned before the error, "+
			"not the network the configuration will build: fix the errors `terraform plan` (or `tofu plan`) reported, plan again and give the JSON of the new plan", by)
	}
	return head, nil
}

// checkFormat accepts the plan formats of SupportedFormatVersions and
// says, for any other, which CLI wrote it and what to use instead.
func checkFormat(fv string, major, minor int, tv string) error {
	wrote := ""
	if tv != "" {
		wrote = fmt.Sprintf(" (this file was written by Terraform %s)", tv)
	}
	switch {
	case major == 1, major == 0 && minor == 2:
		return nil
	case major == 0 && minor < 2:
		return fmt.Errorf("the plan's format_version %s is the JSON plan format of Terraform 0.12 to 0.15.3%s, whose azurerm provider (v2 and older) predates the attributes this provider reads: "+
			"plan with Terraform 1.0 or later (format 0.2 and 1.x) or OpenTofu, and the azurerm provider 3.x or 4.x", fv, wrote)
	}
	return fmt.Errorf("the plan's format_version %s is newer than the formats this provider reads (0.2 from Terraform 1.0, 1.x from Terraform 1.1 and later and every OpenTofu)%s: "+
		"show the plan with a Terraform 1.x or OpenTofu 1.x CLI, or upgrade the pullpath provider", fv, wrote)
}

// formatVersion is the major and minor number of a "major.minor" format
// version.
func formatVersion(fv string) (major, minor int, ok bool) {
	parts := strings.Split(fv, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, 0, false
	}
	var n [3]int
	for i, part := range parts {
		v, err := strconv.Atoi(part)
		if err != nil || v < 0 {
			return 0, 0, false
		}
		n[i] = v
	}
	return n[0], n[1], true
}

// syntaxError turns a JSON decoding error into a message with line:column.
func syntaxError(data []byte, err error, hint string) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		l, c := lineCol(data, se.Offset)
		return fmt.Errorf("not a plan JSON: JSON syntax error at line %d, column %d: %w: %s", l, c, se, hint)
	case errors.As(err, &te):
		l, c := lineCol(data, te.Offset)
		return fmt.Errorf("not a plan JSON: at line %d, column %d the file holds %s where a plan has an object: %s", l, c, te.Value, hint)
	case errors.Is(err, io.EOF) || strings.Contains(err.Error(), "unexpected EOF"):
		l, c := lineCol(data, int64(len(data)))
		return fmt.Errorf("not a plan JSON: the JSON ends early at line %d, column %d (is the file truncated?): %s", l, c, hint)
	}
	return fmt.Errorf("not a plan JSON: %w: %s", err, hint)
}

// lineCol gives the 1-based line and column of a byte offset.
func lineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	last := bytes.LastIndexByte(before, '\n')
	col = utf8.RuneCount(before[last+1:])
	if col == 0 {
		col = 1
	}
	return line, col
}

func looksLikePlanBinary(b []byte) bool {
	// `terraform plan -out` writes a zip archive ("PK\x03\x04").
	return bytes.HasPrefix(b, []byte("PK\x03\x04")) || bytes.HasPrefix(b, []byte("PK\x05\x06"))
}

func looksLikeHCL(b []byte) bool {
	first := firstLine(b)
	for _, kw := range []string{"resource ", "data ", "module ", "provider ", "terraform ", "variable ", "output ", "locals ", "import ", "moved ", "removed "} {
		if strings.HasPrefix(first, kw) || strings.HasPrefix(first, strings.TrimSpace(kw)+"{") {
			return true
		}
	}
	return strings.HasPrefix(first, "#") || strings.HasPrefix(first, "//") || strings.HasPrefix(first, "/*")
}

func looksLikeHumanPlan(b []byte) bool {
	s := string(b[:min(len(b), 4096)])
	return strings.Contains(s, "Terraform will perform") || strings.Contains(s, "OpenTofu will perform") ||
		strings.Contains(s, "Plan:") || strings.Contains(s, "No changes.") || strings.Contains(s, "Terraform used the selected providers")
}

func firstLine(b []byte) string {
	s := string(b[:min(len(b), 512)])
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// planMode tells a plan that changes no resource: refresh-only when the
// file says so (plan_mode) or when its only content is the drift it
// found, empty otherwise. Reading a data source, forgetting a resource
// and a no-op are no changes.
func planMode(p *tfjson.Plan, head map[string]json.RawMessage) Mode {
	var mode string
	if raw, ok := head["plan_mode"]; ok {
		_ = json.Unmarshal(raw, &mode)
	}
	for _, rc := range p.ResourceChanges {
		if rc == nil || rc.Change == nil {
			continue
		}
		a := rc.Change.Actions
		if len(a) > 0 && !a.NoOp() && !a.Read() && !a.Forget() {
			return ModeChanges
		}
	}
	m := strings.ToLower(strings.ReplaceAll(mode, "_", "-"))
	if m == "refresh-only" || len(p.ResourceDrift) > 0 {
		return ModeRefreshOnly
	}
	return ModeEmpty
}
