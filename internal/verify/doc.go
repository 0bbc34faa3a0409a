// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package verify decides, for every node pool and every registry hostname a
// pull touches, whether a freshly created node can pull an image, and says
// why not in findings addressed to the owner who must act (the catalogue is
// docs/design/findings.md).
//
// It is pure: it reads model.Facts (everything gathered from Azure Resource
// Manager, or a snapshot of it) and asks the route engine about flows
// through the Tracer interface. It never performs I/O, never imports the
// SDK, and never guesses: a fact it does not have makes the conclusion that
// needed it unverified, with the permission or resource that was missing.
//
// A path follows the pull chain in order — resolve the name through the
// resolver the node really uses, route there and back (for a public
// address: the way out and the registry's IP rules), TLS name, pull
// identity — and stops at the first broken link, so each problem is
// reported once, by its cause, with the most specific code
// (docs/design/findings.md, "most specific cause"; the Azure rules are in
// docs/design/azure-behaviour.md).
//
// # Reading order
//
//  1. verify.go: Run and Verify, the entry points, and what they return
//     (Result, Path, RouteSource).
//  2. paths.go: one verification run, pool by pool and host by host, in
//     chain order.
//  3. resolver.go and dns.go: the DNS servers a node uses (precedence and
//     kind of each) and what they answer; dnsservers.go: the one
//     classification of a DNS server's kind (ClassifyDNSServer, also used
//     by pullpath_vnet_dns over what gather's Reader.VNetDNS reads; which
//     known VNet holds an address is model.KnownVNets');
//     resolver_platform_dns.go: the security
//     groups on queries to Azure DNS; resolver_firewall.go: an Azure
//     Firewall's DNS proxy as a DNS server; zonesearch.go: when "no linked
//     zone holds the name" is known (the Resource Graph search covered
//     every subscription) and when it is unverified; resolve.go turns that
//     into the address a path goes to; dnspolicy.go: the DNS security
//     policies linked to the VNets whose Azure DNS answered the lookup
//     (DNS_POLICY_BLOCKED, or undecided and unverified).
//  4. tracer.go, tracer_routing.go and tracer_security.go (with
//     tracer_admin.go, the security admin rules at each point, those of a
//     VNet other than the node's needed when the flow gets there): the route
//     engine (package routing) and network security groups (package
//     security) behind the Tracer interface; tracer_firewall.go: every
//     Azure Firewall a flow crosses decides it (ROUTE_FIREWALL_DENIED on a
//     private path) and, by what it does to the source address, its
//     return path; space_memo.go: what the VirtualNetwork service tag
//     means per VNet, computed once per verification.
//  5. endpoint.go (private endpoints, public access, data endpoint
//     coverage), tls.go (the name the node uses), identity.go (the pull
//     role of the kubelet identity).
//  6. egress.go: the public path — what a flow to a public address leaves
//     through (NAT gateway, node public IPs, outbound type, appliances,
//     forced tunnelling) and the registry's IP rules; egress_instances.go:
//     the instance-level public IPs of a pool without a prefix (the
//     addresses its instances hold, and the addresses other resources
//     hold, which no instance can); egress_firewall.go:
//     the one place the public path asks an Azure Firewall
//     (firewallDecision), answered by firewall.go: what the firewall does
//     with a pull (package firewall decides; this turns the decision into
//     EGRESS_FIREWALL_DENIED, EGRESS_UNVERIFIED and evidence), and
//     firewall_tls.go: what TLS inspection by an allowing rule does to
//     the registry's certificate; proxy.go: a pull the cluster's HTTP
//     proxy carries (httpProxyConfig): noProxy decided as containerd
//     does, the nodes' leg to the proxy and the proxy's leg to the
//     registry, evaluated from the proxy's own network interface.
//  7. unmodelled.go: settings of the resources a path goes through that
//     can change a pull and are not evaluated (gather's open-world
//     table): COVERAGE_FEATURE_UNMODELLED, never reachable;
//     unmodelled_network.go: which network resources (interfaces, route
//     tables, peerings, gateways, firewall policies, ...) a path goes
//     through, so that their settings reach only the paths through them;
//     evidence.go: reads that failed, and the conclusions they leave
//     unverified; blame.go: reads that failed only in a verification the
//     what-if blame compared with (WithBlameGaps).
//  8. accept.go: the accept blocks of the verification, applied to the
//     findings before any verdict (accepted findings decide none; expired
//     and unused blocks are reported); summary.go and summary_paths.go:
//     the human-readable report (the
//     summary attribute); diagnostic.go: the text of the diagnostics
//     enforce raises; wrap.go: the line widths both keep to.
//  9. noderoutes.go: pullpath_node_routes, evaluated the same way: from
//     the route sets gather read (model.NodeRouteFacts) and the
//     destinations, each set's routes and each destination traced with
//     the route engine, the security rules on the path and the return
//     path, in the same finding vocabulary.
package verify
