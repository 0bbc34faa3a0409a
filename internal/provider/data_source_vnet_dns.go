// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/provider/validators"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

var _ datasource.DataSourceWithConfigure = (*vnetDNSDataSource)(nil)

// NewVNetDNSDataSource is pullpath_vnet_dns.
func NewVNetDNSDataSource() datasource.DataSource { return &vnetDNSDataSource{} }

type vnetDNSDataSource struct{ dataSourceBase }

type vnetDNSModel struct {
	ID                         types.String     `tfsdk:"id"`
	VirtualNetworkID           types.String     `tfsdk:"virtual_network_id"`
	NetworkInterfaceID         types.String     `tfsdk:"network_interface_id"`
	DNSServers                 []string         `tfsdk:"dns_servers"`
	NetworkInterfaceDNSServers []string         `tfsdk:"network_interface_dns_servers"`
	EffectiveDNSServers        []string         `tfsdk:"effective_dns_servers"`
	EffectiveDNSSource         types.String     `tfsdk:"effective_dns_source"`
	UsesAzureDNS               types.Bool       `tfsdk:"uses_azure_dns"`
	Servers                    []dnsServerModel `tfsdk:"servers"`
	ForwardingRulesets         []rulesetModel   `tfsdk:"forwarding_rulesets"`
	DNSSecurityPolicies        []dnsPolicyModel `tfsdk:"dns_security_policies"`
	Timeouts                   timeouts.Value   `tfsdk:"timeouts"`
}

func (d *vnetDNSDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_vnet_dns"
}

func (d *vnetDNSDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	list := func(desc string) schema.ListAttribute {
		return schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: desc}
	}
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The DNS servers a virtual network (and optionally one network interface) gives its nodes, what kind of " +
			"resolver each one is, and the DNS forwarding rulesets linked to the virtual network. The node's resolver decides " +
			"whether the registry's names resolve to private endpoints: Azure-provided DNS answers from the private DNS zones " +
			"linked to the virtual network; a custom server must forward the `privatelink` zones there itself.",
		Attributes: map[string]schema.Attribute{
			"id": str("The virtual network id."),
			"virtual_network_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: idDescription("Resource id of the virtual network (typically the one holding the node subnet)."),
				Validators:          []validator.String{validators.ResourceID(vnetType)},
			},
			"network_interface_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: idDescription("Resource id of a network interface whose own DNS servers (which override the virtual network's) to take " +
					"into account: a standalone NIC, or a scale-set instance's NIC (" + "`…/virtualMachineScaleSets/{vmss}/virtualMachines/{i}/networkInterfaces/{nic}`)."),
				Validators: []validator.String{validators.ResourceID(nicType, vmssNICType)},
			},
			"dns_servers": list("The virtual network's DNS servers (`dhcpOptions.dnsServers`). Empty means Azure-provided DNS."),
			"network_interface_dns_servers": list("The network interface's own DNS servers (`dnsSettings.dnsServers`); empty when it " +
				"uses the virtual network's, null when `network_interface_id` is not set."),
			"effective_dns_servers": list("The servers nodes actually use: the network interface's when it sets any, else the " +
				"virtual network's, else Azure-provided DNS (`168.63.129.16`)."),
			"effective_dns_source": str("Where `effective_dns_servers` come from: `network_interface`, `virtual_network` or `azure_default`."),
			"uses_azure_dns": schema.BoolAttribute{Computed: true, MarkdownDescription: "True when an effective server is Azure-provided " +
				"DNS (`168.63.129.16`): its answers come from the private DNS zones linked to the virtual network."},
			"servers": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "Each effective DNS server with what it is, in `effective_dns_servers` order.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"address": str("The server's IP address."),
					"kind": str("What the server is: `azure_dns` (168.63.129.16); `private_resolver_inbound` (an inbound endpoint of a " +
						"DNS private resolver in this or a peered virtual network, or, for an address outside them, one that Azure Resource " +
						"Graph finds in any subscription the identity can read, such as a spoke of another Virtual WAN hub); `vm` (a " +
						"network interface in this or a peered virtual network holds the address: a DNS server on a VM, whose " +
						"forwarding Azure cannot show); `external` (outside every known virtual network and no resolver inbound " +
						"endpoint: on-premises or public); `azure_firewall` (the private address of an Azure Firewall in a known virtual " +
						"network, or of a secured Virtual WAN hub's: its DNS proxy decides what answers, and the note says what it does: off, " +
						"so nothing answers; forwarding to Azure DNS or to resolver inbound endpoints, and from which virtual network; or " +
						"why that is unverified); `unknown` (inside a known virtual network, but nothing found holding it, " +
						"or the lookup failed; or outside them, and the search for resolver inbound endpoints failed)."),
					"resource_id": str("What serves the address: the resolver's inbound endpoint, the VM (the network interface " +
						"when it is attached to none), or the Azure Firewall. Null for `azure_dns`, `external` and most `unknown`."),
					"network_interface_id": str("The network interface holding the address (kind `vm`)."),
					"virtual_network_id": str("The known virtual network whose address space holds the address; for a resolver " +
						"inbound endpoint outside them, the resolver's virtual network."),
					"note": str("What the kind means for this server, in words."),
				}},
			},
			"forwarding_rulesets": schema.ListNestedAttribute{
				Computed: true,
				MarkdownDescription: "DNS forwarding rulesets linked to the virtual network, ordered by name. A rule for the registry's " +
					"domain sends its queries to other servers instead of Azure DNS. Null when they could not be read (see the warning).",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":   str("Resource id of the ruleset."),
					"name": str("Name of the ruleset."),
					"rules": schema.ListNestedAttribute{
						Computed:            true,
						MarkdownDescription: "The ruleset's forwarding rules, ordered by domain.",
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"name":    str("Name of the rule."),
							"domain":  str("The domain the rule forwards, with the trailing dot Azure stores (`azurecr.io.`)."),
							"targets": list("Target DNS servers as `address:port`."),
							"state":   str("`Enabled` or `Disabled`."),
						}},
					},
				}},
			},
			"dns_security_policies": schema.ListNestedAttribute{
				Computed: true,
				MarkdownDescription: "DNS security policies (DNS resolver policies) linked to the virtual network (Azure links at most one). " +
					"The policy filters the queries Azure DNS answers in this virtual network: its first enabled rule, by priority, " +
					"whose domain lists hold the queried name (or a parent domain, or a name of its CNAME chain) decides; `Block` " +
					"fails the query. Null when they could not be listed (see the warning).",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":   str("Resource id of the policy."),
					"name": str("Name of the policy."),
					"rules": schema.ListNestedAttribute{
						Computed:            true,
						MarkdownDescription: "The policy's DNS traffic rules, by priority (lower numbers first). Null when they could not be read (see the warning).",
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"name":         str("Name of the rule."),
							"priority":     schema.Int64Attribute{Computed: true, MarkdownDescription: "Priority of the rule (100-65000; lower numbers are evaluated first)."},
							"action":       str("`Allow`, `Alert` or `Block`, as Azure stores it."),
							"state":        str("`Enabled` or `Disabled`, as Azure stores it (empty when absent)."),
							"domain_lists": list("Resource ids of the DNS domain lists the rule applies to."),
							"domains": list("The domains of those lists, as Azure stores them (`azurecr.io.`; `.` is every name), " +
								"ordered and without repeats."),
							"domains_complete": schema.BoolAttribute{Computed: true, MarkdownDescription: "False when a domain list could not be " +
								"read or is a large domain list (its domains are behind a download link the provider does not follow): " +
								"`domains` is then incomplete."},
						}},
					},
				}},
			},
		},
		Blocks: map[string]schema.Block{"timeouts": timeoutsBlock(ctx)},
	}
}

func (d *vnetDNSDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m vnetDNSModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	run, ctx, done := d.startRead(ctx, m.Timeouts, &resp.Diagnostics)
	defer done()
	if run == nil {
		return
	}
	r := run.reader

	vnetID := model.ResourceID(m.VirtualNetworkID.ValueString())
	vnet, err := r.VNet(ctx, vnetID)
	if err == nil {
		// The VNet's DNS servers are what this data source reports: when
		// planned_changes_file leaves them unknown, so is its answer.
		if g, unknown := vnet.Unknown.Of(model.FactDNSServers); unknown {
			err = &gather.ReadError{Gap: g, Err: errors.New(g.Detail)}
		}
	}
	if err != nil {
		resp.Diagnostics.Append(readFailure(path.Root("virtual_network_id"), vnetID, err, r.Gaps(), run.timeout))
		return
	}
	var nic *model.NIC
	if !m.NetworkInterfaceID.IsNull() {
		nicID := model.ResourceID(m.NetworkInterfaceID.ValueString())
		nic, err = r.NIC(ctx, nicID)
		if err != nil {
			resp.Diagnostics.Append(readFailure(path.Root("network_interface_id"), nicID, err, r.Gaps(), run.timeout))
			return
		}
		if w := nicOutsideVNet(nic, vnet); w != "" {
			resp.Diagnostics.AddAttributeWarning(path.Root("network_interface_id"), "Network interface is in another virtual network", w)
		}
	}

	var nics []*model.NIC
	if nic != nil {
		nics = []*model.NIC{nic}
	}
	effective := model.NodeDNSServers(nil, nics, vnet)
	read := r.VNetDNS(ctx, vnet, effective.Servers)
	resp.Diagnostics.Append(dnsLookupWarnings(read.Failed)...)
	evidence := dnsEvidence(read)
	rulesets, rulesetErr := read.Rulesets, read.RulesetsErr

	m.ID = types.StringValue(string(vnet.ID))
	m.DNSServers = addrStrings(vnet.DNSServers)
	m.NetworkInterfaceDNSServers = nil
	if nic != nil {
		m.NetworkInterfaceDNSServers = addrStrings(nic.DNSServers)
	}
	m.EffectiveDNSServers = addrStrings(effective.Servers)
	m.EffectiveDNSSource = types.StringValue(dnsSourceName(effective.Source))
	m.UsesAzureDNS = types.BoolValue(effective.UsesAzureDNS())
	m.Servers = make([]dnsServerModel, 0, len(effective.Servers))
	for _, a := range effective.Servers {
		s := verify.ClassifyDNSServer(a, evidence)
		if fw, ok := read.FirewallAt(a); ok {
			m.Servers = append(m.Servers, firewallServerToModel(s, verify.ClassifyFirewallDNS(fw.Firewall, fw.DNS, evidence)))
			continue
		}
		m.Servers = append(m.Servers, dnsServerToModel(s))
	}
	m.ForwardingRulesets = nil
	if rulesetErr != nil && rulesets == nil {
		resp.Diagnostics.Append(gapWarning("the DNS forwarding rulesets of "+vnet.ID.Name(), gapOf(vnet.ID, rulesetErr, nil),
			"forwarding_rulesets is null: whether a ruleset diverts the registry's domain is unknown."))
	} else {
		if rulesetErr != nil {
			resp.Diagnostics.AddWarning("Some DNS forwarding rulesets could not be read completely",
				fmt.Sprintf("The rulesets linked to %s were listed, but reading some of their rules or links failed (%s). "+
					"forwarding_rulesets shows what was read.", vnet.ID.Name(), gapSummary(gapOf(vnet.ID, rulesetErr, nil))))
		}
		m.ForwardingRulesets = rulesetsToModel(rulesets)
	}
	m.DNSSecurityPolicies = nil
	switch {
	case read.PoliciesErr != nil && read.Policies == nil:
		resp.Diagnostics.Append(gapWarning("the DNS security policies of "+vnet.ID.Name(), gapOf(model.DNSPoliciesAction(vnet.ID), read.PoliciesErr, nil),
			"dns_security_policies is null: whether a policy blocks the registry's names is unknown."))
	default:
		if read.PoliciesErr != nil {
			resp.Diagnostics.AddWarning("Some DNS security policies could not be read completely",
				fmt.Sprintf("The DNS security policies linked to %s were listed, but reading some of their rules or domain lists failed (%s). "+
					"dns_security_policies shows what was read.", vnet.ID.Name(), gapSummary(gapOf(model.DNSPoliciesAction(vnet.ID), read.PoliciesErr, nil))))
		}
		m.DNSSecurityPolicies = dnsPoliciesToModel(read.Policies, read.DomainLists)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// dnsEvidence is what classification (verify.ClassifyDNSServer) looks at,
// from what was read.
func dnsEvidence(read gather.VNetDNS) verify.DNSEvidence {
	return verify.DNSEvidence{VNets: read.VNets, Resolvers: read.Resolvers, NICs: read.NICs, LookupGaps: read.LookupGaps, SearchGaps: read.SearchGaps}
}

// dnsLookupWarnings are the warnings of the lookups that failed: each names
// what could not be read, and the server it concerns is reported as
// unknown, never external.
func dnsLookupWarnings(failed []gather.DNSLookupFailure) diag.Diagnostics {
	var diags diag.Diagnostics
	for _, f := range failed {
		switch f.Lookup {
		case gather.LookupResolvers:
			diags.Append(gapWarning("the DNS private resolvers of "+f.VNetID.Name(), f.Gap,
				"A DNS server address in that virtual network may be a resolver inbound endpoint the provider cannot see; it is reported as unknown or vm."))
		case gather.LookupResolverSearch:
			diags.Append(gapWarning("the DNS private resolver inbound endpoints across the subscriptions", f.Gap,
				fmt.Sprintf("The DNS server address %s lies in no virtual network that was read; only the search for DNS private resolver inbound endpoints can tell whether it is one. It is reported as unknown.", f.Addr)))
		case gather.LookupPeeredVNet:
			diags.Append(gapWarning("the peered virtual network "+f.VNetID.Name(), f.Gap,
				fmt.Sprintf("What holds the DNS server address %s cannot be looked up; it is reported as unknown.", f.Addr)))
		case gather.LookupFirewallDNS:
			diags.Append(gapWarning("the DNS settings of the Azure Firewall at "+f.Addr.String()+" ("+f.VNetID.Name()+")", f.Gap,
				fmt.Sprintf("Whether the firewall's DNS proxy answers at %s, and from where, is unknown; the server is reported as azure_firewall with unknown settings.", f.Addr)))
		case gather.LookupVirtualHub:
			diags.Append(gapWarning("the Virtual WAN hub whose VNet "+f.VNetID.Name()+" holds "+f.Addr.String(), f.Gap,
				fmt.Sprintf("Whether the DNS server address %s is the hub's Azure Firewall cannot be looked up; it is reported as unknown.", f.Addr)))
		default:
			diags.AddWarning("Could not look up a DNS server's network interface",
				fmt.Sprintf("Some network interfaces in %s could not be read while looking for the one holding the DNS server address %s (%s). "+
					"The server is reported as unknown.", f.VNetID.Name(), f.Addr, gapSummary(f.Gap)))
		}
	}
	return diags
}

// nicOutsideVNet explains a NIC that is attached to another VNet than the
// one asked about, or "".
func nicOutsideVNet(nic *model.NIC, vnet *model.VNet) string {
	if nic == nil || nic.SubnetID.IsZero() {
		return ""
	}
	if strings.HasPrefix(nic.SubnetID.Key(), vnet.ID.Key()+"/subnets/") {
		return ""
	}
	return fmt.Sprintf("The network interface %s is attached to subnet %s, which is not in virtual network %s. Its own DNS servers are taken into "+
		"account; when it sets none, the servers of %s are reported, which are not the ones it uses.",
		nic.ID.Name(), nic.SubnetID, vnet.ID.Name(), vnet.ID.Name())
}
