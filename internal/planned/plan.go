// Package planned reads a saved Terraform / OpenTofu plan (the JSON of
// `terraform show -json PLANFILE` or `tofu show -json PLANFILE`) and
// translates the changes it makes to Azure resources into operations on
// ARM resources: what Resource Manager will answer for them after apply.
//
// It is pure: it parses bytes it is given and imports neither the Azure
// SDK nor the plugin framework. The session's overlay (internal/azure)
// applies the operations under every read; see docs/design/what-if.md.
package planned

import "github.com/pullpath/terraform-provider-pullpath/internal/model"

// OpKind is what a planned change does to one ARM resource.
type OpKind string

// Operation kinds.
const (
	// OpPut: after apply the resource is Body (created, updated or
	// replaced as a whole).
	OpPut OpKind = "put"
	// OpDelete: after apply the resource does not exist.
	OpDelete OpKind = "delete"
	// OpPatch: after apply the resource is what Azure has now with Body
	// merged into it as a JSON merge patch (RFC 7396: a null deletes a
	// member, an object merges, anything else replaces). Used by changes
	// that set part of a resource they do not own, such as a subnet's
	// route table association or a VNet's DNS servers.
	OpPatch OpKind = "patch"
	// OpCreateUnnamed: the plan creates a resource whose name, and so
	// whose id, is known only after apply (a name from random_string).
	// ID is the id with NameUnknown in place of each unknown segment, Body
	// is what is known of the resource beside its name (the body its
	// translation builds with that id; nil when it builds none), Unknown
	// says what is unknown. Nothing can be concluded from
	// the collection it will be an item of (or the parent that embeds it):
	// the overlay answers those reads with a planned unknown value.
	OpCreateUnnamed OpKind = "create-unnamed"
)

// NameUnknown stands in an OpCreateUnnamed id for a name (or resource
// group) known only after apply. No ARM name holds parentheses and
// hyphens in this form.
const NameUnknown = model.NameKnownAfterApply

// Op is one effect of one planned resource change on one ARM resource.
// One change may give several ops (a route table with inline routes puts
// the table and each route), and several changes may touch the same ARM
// resource (a subnet and its associations): they apply in plan order, puts
// and deletes before patches.
type Op struct {
	// Address is the resource address in the plan, as Terraform prints it:
	// `azurerm_private_dns_zone_virtual_network_link.spoke`,
	// `module.net.azurerm_route.r["fw"]`.
	Address string
	// Type is the Terraform resource type of the change.
	Type string
	Kind OpKind
	// ID is the ARM resource id the op applies to, as ARM spells it
	// (compared case-insensitively).
	ID string
	// Body is the resource after apply in the shape the ARM REST API
	// returns it (id, name, type, location, properties...) for OpPut, the
	// merge patch for OpPatch, nil for OpDelete. Child resources that ARM
	// embeds in their parent (subnets and peerings of a VNet, routes of a
	// route table, rules of a security group) are separate ops with their
	// own ids; the overlay embeds them.
	Body map[string]any
	// Unknown lists the members of the resulting resource whose values are
	// known only after apply, as dotted paths into Body
	// ("properties.addressSpace.addressPrefixes",
	// "properties.aRecords"). Only members the pull path can depend on
	// are listed.
	Unknown []string
	// Members, on an OpPatch, edits a list of references of the resource
	// by id instead of replacing it (a merge patch replaces lists whole):
	// what a membership association adds to or removes from a list the
	// resource's own change does not manage. nil for other ops.
	Members *MemberEdit
}

// MemberEdit adds references to, or removes them from, the list at Path
// (dotted, into the resource's body) of what Azure has: Add holds the ids
// the list gains when it lacks them, Remove those it loses (ids compared
// case-insensitively, as ARM does).
type MemberEdit struct {
	Path   string
	Add    []string
	Remove []string
}

// Plan is what a saved plan changes in Azure.
type Plan struct {
	// FormatVersion is the plan's format_version.
	FormatVersion string
	// TerraformVersion is the CLI version that wrote the plan.
	TerraformVersion string
	// Encoding is the text encoding the file was decoded from.
	Encoding Encoding
	// Mode is ModeEmpty or ModeRefreshOnly for a plan that changes no
	// resource.
	Mode Mode
	// Ops are the translated changes, in plan order.
	Ops []Op
	// Unsupported are the addresses of changed azurerm / azapi resources
	// whose type is not translated (they are read as they are now),
	// sorted.
	Unsupported []string
	// Untranslatable are changes of translated types whose values could
	// not be turned into ARM resources (they are read as they are now).
	Untranslatable []Problem
}

// Problem says why one resource change could not be translated.
type Problem struct {
	Address string
	Reason  string
}

// Mode says what kind of plan a file holds, when it is not a plan that
// changes resources: a pipeline that passed the wrong file (the plan of a
// run without changes, a refresh-only plan) learns so from the summary.
type Mode string

// Plan modes.
const (
	// ModeChanges: the plan changes at least one resource (of any
	// provider).
	ModeChanges Mode = ""
	// ModeEmpty: the plan changes no resource and reports no change
	// made outside Terraform.
	ModeEmpty Mode = "empty"
	// ModeRefreshOnly: the plan changes no resource; it only records in
	// the state what changed outside Terraform (`terraform plan
	// -refresh-only`, or a plan whose only content is resource_drift).
	ModeRefreshOnly Mode = "refresh-only"
)
