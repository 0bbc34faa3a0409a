// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"net/netip"
	"reflect"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v8"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v9"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

const testFW = `/subscriptions/s/resourceGroups/rg-hub/providers/Microsoft.Network/azureFirewalls/fw-hub`

// TestFirewallDNSSettingsFromSDK: the DNS proxy's servers of a classic
// firewall and of a policy; an entry that is not an address is a malformed
// answer, never an empty list (which would mean Azure DNS).
func TestFirewallDNSSettingsFromSDK(t *testing.T) {
	fw, err := firewallFromSDK(sdk[armnetwork.AzureFirewall](t, []byte(`{"id":"`+testFW+`","name":"fw-hub","properties":{
		"additionalProperties":{"Network.DNS.EnableProxy":"true","Network.DNS.Servers":"10.0.1.10, 10.0.1.11"}}}`)))
	if err != nil {
		t.Fatal(err)
	}
	want := []netip.Addr{netip.MustParseAddr("10.0.1.10"), netip.MustParseAddr("10.0.1.11")}
	if !fw.DNSProxyEnabled || !reflect.DeepEqual(fw.ClassicDNSServers, want) {
		t.Errorf("classic: proxy %v servers %v", fw.DNSProxyEnabled, fw.ClassicDNSServers)
	}
	n := model.NewNetwork()
	if got := n.FirewallDNSOf(fw); !got.Known || !got.Proxy || !reflect.DeepEqual(got.Servers, want) || got.From != fw.ID {
		t.Errorf("classic settings %+v", got)
	}
	if _, err := firewallFromSDK(sdk[armnetwork.AzureFirewall](t, []byte(`{"id":"`+testFW+`","properties":{
		"additionalProperties":{"Network.DNS.Servers":"10.0.1.10,dns.contoso.com"}}}`))); err == nil || !strings.Contains(err.Error(), "Network.DNS.Servers") {
		t.Errorf("a server that is not an address: %v", err)
	}

	pol := `/subscriptions/s/resourceGroups/rg-hub/providers/Microsoft.Network/firewallPolicies/fwpol-hub`
	p, err := firewallPolicyFromSDK(sdk[armnetwork.FirewallPolicy](t, []byte(`{"id":"`+pol+`","name":"fwpol-hub","properties":{
		"dnsSettings":{"enableProxy":true,"servers":["168.63.129.16"]},
		"transportSecurity":{"certificateAuthority":{"name":"fw-ca","keyVaultSecretId":"https://kv.vault.azure.net/secrets/fw-ca"}}}}`)))
	if err != nil {
		t.Fatal(err)
	}
	if !p.DNSProxyEnabled || len(p.DNSServers) != 1 || p.DNSServers[0] != model.AzureDNS {
		t.Errorf("policy DNS %+v", p)
	}
	if p.TLSInspectionCA != (model.FirewallCA{Name: "fw-ca", KeyVaultSecretID: "https://kv.vault.azure.net/secrets/fw-ca"}) || p.TLSInspectionCA.IsZero() {
		t.Errorf("policy CA %+v", p.TLSInspectionCA)
	}
	bare, err := firewallPolicyFromSDK(sdk[armnetwork.FirewallPolicy](t, []byte(`{"id":"`+pol+`","properties":{}}`)))
	if err != nil || bare.DNSProxyEnabled || bare.DNSServers != nil || !bare.TLSInspectionCA.IsZero() {
		t.Errorf("a policy without settings: %+v %v", bare, err)
	}
	if _, err := firewallPolicyFromSDK(sdk[armnetwork.FirewallPolicy](t, []byte(`{"id":"`+pol+`","properties":{"dnsSettings":{"servers":["not-an-address"]}}}`))); err == nil {
		t.Error("a policy DNS server that is not an address must be a malformed answer")
	}

	// The firewall with a policy takes the policy's settings, known once
	// the policy is read.
	withPolicy := &model.AzureFirewall{ID: testFW, PolicyID: model.ResourceID(pol), DNSProxyEnabled: true}
	if got := n.FirewallDNSOf(withPolicy); got.Known || got.From != model.ResourceID(pol) {
		t.Errorf("policy not read: %+v", got)
	}
	n.AddFirewallPolicy(bare)
	if got := n.FirewallDNSOf(withPolicy); !got.Known || got.Proxy {
		t.Errorf("policy read, proxy off: %+v", got)
	}
}

// TestTerminateTLSFromSDK: an application rule's terminateTLS is kept.
func TestTerminateTLSFromSDK(t *testing.T) {
	g, err := ruleCollectionGroupFromSDK(sdk[armnetwork.FirewallPolicyRuleCollectionGroup](t, []byte(`{"id":"/x/ruleCollectionGroups/g","name":"g","properties":{"priority":100,
		"ruleCollections":[{"ruleCollectionType":"FirewallPolicyFilterRuleCollection","name":"c","priority":100,"action":{"type":"Allow"},"rules":[
		{"ruleType":"ApplicationRule","name":"inspect","terminateTLS":true,"protocols":[{"protocolType":"Https","port":443}],"targetFqdns":["*.azurecr.io"]},
		{"ruleType":"ApplicationRule","name":"plain","protocols":[{"protocolType":"Https","port":443}],"targetFqdns":["*.azurecr.io"]}]}]}}`)))
	if err != nil {
		t.Fatal(err)
	}
	rules := g.Collections[0].Rules
	if !rules[0].TerminateTLS || rules[1].TerminateTLS {
		t.Errorf("terminateTLS %v %v", rules[0].TerminateTLS, rules[1].TerminateTLS)
	}
}

// TestCustomCATrustCount: the certificates the cluster gives its nodes are
// counted, never kept.
func TestCustomCATrustCount(t *testing.T) {
	for _, tc := range []struct {
		body string
		want int
	}{
		{`{"id":"/c","properties":{}}`, 0},
		{`{"id":"/c","properties":{"securityProfile":{}}}`, 0},
		{`{"id":"/c","properties":{"securityProfile":{"customCATrustCertificates":["TFMwdExTMUNSVWRKVGlCRFJWSlU=","TFMwdExTMUNSVWRKVGlCRFJWSlU="]}}}`, 2},
		{`{"id":"/c","properties":{"securityProfile":{"customCATrustCertificates":[""]}}}`, 0},
	} {
		cl, err := clusterFromSDK(sdk[armcontainerservice.ManagedCluster](t, []byte(tc.body)))
		if err != nil {
			t.Fatal(err)
		}
		if cl.CustomCATrustCertificates != tc.want {
			t.Errorf("%s: %d, want %d", tc.body, cl.CustomCATrustCertificates, tc.want)
		}
	}
}
