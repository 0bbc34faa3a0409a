package model

// Fact names one value of a model object that a rule reads, for what a
// planned change (planned_changes_file) leaves unknown until apply: gather
// records, per object, which of its facts are unknown (UnknownFacts), and
// the rule that reads the fact asks for it, so that an unknown value makes
// unverified only the conclusions that read it.
type Fact string

const (
	// FactDNSServers is a VNet's dhcpOptions.dnsServers (VNet.DNSServers):
	// the DNS servers of the nodes whose NICs set none.
	FactDNSServers Fact = "dns_servers"
	// FactPrivateEndpointNetworkPolicies is a subnet's
	// privateEndpointNetworkPolicies
	// (Subnet.PrivateEndpointNetworkPolicies): whether the route table and
	// the security group of the subnet apply to the private endpoints in
	// it.
	FactPrivateEndpointNetworkPolicies Fact = "private_endpoint_network_policies"
)

// UnknownFacts are the facts of one object that are known only after a
// planned change is applied, each with its gap (kind GapPlannedUnknown,
// naming the change). The object's field for such a fact holds no value
// (never the value before the plan). nil: every fact is known.
type UnknownFacts map[Fact]Gap

// Of is the gap of fact f when f is unknown.
func (u UnknownFacts) Of(f Fact) (Gap, bool) {
	g, ok := u[f]
	return g, ok
}

// NameKnownAfterApply stands, in the id of a resource a planned change
// creates, for a name known only after apply (a name from random_string,
// a zone named from another new resource's output): planned builds such
// ids, the what-if overlay answers with them, and a rule that meets one
// knows that the resource may have any name. No ARM name holds
// parentheses and hyphens in this form.
const NameKnownAfterApply = "(known-after-apply)"
