// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"net/netip"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// classicDNSServersProperty is the additional property that lists where
// the DNS proxy of a firewall with classic rules forwards: addresses
// separated by commas.
const classicDNSServersProperty = "Network.DNS.Servers"

// classicDNSServers parses Network.DNS.Servers of a classic firewall. An
// entry that is not an address is a malformed answer: the proxy's answers
// would be unknown.
func classicDNSServers(id model.ResourceID, props map[string]*string) ([]netip.Addr, error) {
	v := props[classicDNSServersProperty]
	if v == nil {
		return nil, nil
	}
	var out []netip.Addr
	for _, s := range strings.Split(*v, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fieldError(id, "properties.additionalProperties."+classicDNSServersProperty, *v, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// policyDNSAndTLS fills what a policy's dnsSettings.servers and
// transportSecurity say (the proxy switch is converted with the policy).
func policyDNSAndTLS(out *model.FirewallPolicy, p *armnetwork.FirewallPolicyPropertiesFormat) error {
	if p.DNSSettings != nil {
		servers, err := addrs(out.ID, "properties.dnsSettings.servers", p.DNSSettings.Servers)
		if err != nil {
			return err
		}
		out.DNSServers = servers
	}
	if ts := p.TransportSecurity; ts != nil && ts.CertificateAuthority != nil {
		out.TLSInspectionCA = model.FirewallCA{Name: str(ts.CertificateAuthority.Name), KeyVaultSecretID: str(ts.CertificateAuthority.KeyVaultSecretID)}
	}
	return nil
}

// customCATrustCount is how many certificates the cluster adds to its
// nodes' trust store (securityProfile.customCATrustCertificates); an empty
// entry holds none.
func customCATrustCount(sp *armcontainerservice.ManagedClusterSecurityProfile) int {
	if sp == nil {
		return 0
	}
	n := 0
	for _, c := range sp.CustomCATrustCertificates {
		if len(c) > 0 {
			n++
		}
	}
	return n
}
