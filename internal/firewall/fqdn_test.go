// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package firewall

import (
	"regexp"
	"strings"
	"testing"
)

func TestMatchTargetFQDN(t *testing.T) {
	for _, tc := range []struct {
		pattern, host string
		want          match
	}{
		// Exact names, case-insensitive, trailing dot ignored.
		{"contosoreg.azurecr.io", "contosoreg.azurecr.io", yes},
		{"ContosoReg.AzureCR.io.", "contosoreg.azurecr.io", yes},
		{"contosoreg.azurecr.io", "contosoreg.westeurope.data.azurecr.io", no},
		// "*." : anything to the left, at any depth, but not the domain itself.
		{"*.azurecr.io", "contosoreg.azurecr.io", yes},
		{"*.azurecr.io", "contosoreg.westeurope.data.azurecr.io", yes},
		{"*.azurecr.io", "azurecr.io", no},
		{"*.azurecr.io", "contosoazurecr.io", no},
		{"*.data.mcr.microsoft.com", "westeurope.data.mcr.microsoft.com", yes},
		{"*.data.mcr.microsoft.com", "mcr.microsoft.com", no},
		// "*x": anything ending in x, the bare domain and look-alikes included.
		{"*contoso.com", "contoso.com", yes},
		{"*contoso.com", "www.contoso.com", yes},
		{"*contoso.com", "fakecontoso.com", yes},
		{"*contoso.com", "contoso.org", no},
		{"*", "anything.example", yes},
		// Wildcards Azure does not accept are undecided, never a miss.
		{"www.contoso.*", "www.contoso.com", unknown},
		{"*.contoso.*", "www.contoso.com", unknown},
		{"a*.contoso.com", "ab.contoso.com", unknown},
		{"", "contoso.com", unknown},
		// A set of names (an unnamed storage account).
		{"*.blob.core.windows.net", "*.blob.core.windows.net", yes},
		{"*.core.windows.net", "*.blob.core.windows.net", yes},
		{"*windows.net", "*.blob.core.windows.net", yes},
		{"*", "*.blob.core.windows.net", yes},
		{"acct.blob.core.windows.net", "*.blob.core.windows.net", unknown},
		{"*.x.blob.core.windows.net", "*.blob.core.windows.net", unknown},
		{"*acct.blob.core.windows.net", "*.blob.core.windows.net", unknown},
		{"*.azurecr.io", "*.blob.core.windows.net", no},
		{"blob.core.windows.net", "*.blob.core.windows.net", no},
		{"*xblob.core.windows.net", "*.blob.core.windows.net", no},
	} {
		if got := matchTargetFQDN(tc.pattern, parseHost(tc.host)); got != tc.want {
			t.Errorf("matchTargetFQDN(%q, %q) = %s, want %s", tc.pattern, tc.host, got, tc.want)
		}
	}
}

func TestMatchNetworkFQDNAndURL(t *testing.T) {
	h := parseHost("mcr.microsoft.com")
	if matchNetworkFQDN("MCR.microsoft.com", h) != yes || matchNetworkFQDN("other.microsoft.com", h) != no {
		t.Error("network FQDNs match exact names only")
	}
	if matchNetworkFQDN("*.microsoft.com", h) != unknown {
		t.Error("a wildcard in a network rule FQDN (which Azure refuses) must be undecided")
	}
	if matchTargetURL("mcr.microsoft.com/v2/*", h) != unknown || matchTargetURL("https://other.example/v2", h) != no {
		t.Error("target URLs: a matching host leaves the path undecided; another host never matches")
	}
}

// referenceMatch is an independent implementation of Azure's target FQDN
// wildcard rule for exact hosts (a left-most asterisk is a regular
// expression's ".*"), to compare the matcher with.
func referenceMatch(pattern, host string) (bool, bool) {
	p := normalizeName(pattern)
	if p == "" || strings.Count(p, "*") > 1 || (strings.Contains(p, "*") && p[0] != '*') {
		return false, false
	}
	// (?s): the asterisk stands for any characters, newlines included.
	re := "(?s)^" + strings.ReplaceAll(regexp.QuoteMeta(p), `\*`, ".*") + "$"
	if strings.HasPrefix(p, "*.") {
		re = "(?s)^.+" + regexp.QuoteMeta(p[1:]) + "$"
	}
	return regexp.MustCompile(re).MatchString(normalizeName(host)), true
}

// FuzzMatchTargetFQDN: never panics; for one host it is never undecided on
// a pattern Azure accepts and agrees with the reference; for a set of
// names, yes and no hold for every member tried.
func FuzzMatchTargetFQDN(f *testing.F) {
	for _, s := range [][2]string{
		{"*.azurecr.io", "contosoreg.azurecr.io"},
		{"*contoso.com", "fakecontoso.com"},
		{"*", "x"},
		{"mcr.microsoft.com", "MCR.microsoft.com."},
		{"*.blob.core.windows.net", "*.blob.core.windows.net"},
		{"a*b", "ab"},
		{"*.", "."},
	} {
		f.Add(s[0], s[1], "acct")
	}
	f.Fuzz(func(t *testing.T, pattern, host, label string) {
		for _, s := range []string{pattern, host} {
			if n := normalizeName(s); normalizeName(n) != n {
				t.Fatalf("normalizeName(%q) = %q, and normalised again %q", s, n, normalizeName(n))
			}
		}
		h := parseHost(host)
		got := matchTargetFQDN(pattern, h)
		if strings.Contains(h.name, "*") {
			return
		}
		if !h.wildcard {
			want, accepted := referenceMatch(pattern, h.name)
			if accepted && got != boolMatch(want) {
				t.Fatalf("matchTargetFQDN(%q, %q) = %s, reference says %v", pattern, host, got, want)
			}
			return
		}
		label = strings.ToLower(label)
		if label == "" || strings.ContainsAny(label, ".*") || strings.TrimSpace(label) != label {
			return
		}
		member := label + "." + h.name
		one := matchTargetFQDN(pattern, parseHost(member))
		if got == yes && one != yes || got == no && one == yes {
			t.Fatalf("pattern %q: set %s is %s but its member %s is %s", pattern, h, got, member, one)
		}
	})
}

func TestFQDNTags(t *testing.T) {
	for _, tc := range []struct {
		tag, host string
		want      match
	}{
		{"AzureKubernetesService", "mcr.microsoft.com", yes},
		{"azurekubernetesservice", "westeurope.data.mcr.microsoft.com", yes},
		{"AzureKubernetesService", "mcr-0001.mcr-msedge.net", yes},
		{"AzureKubernetesService", "packages.aks.azure.com", yes},
		{"AzureKubernetesService", "abc123.hcp.westeurope.azmk8s.io", yes},
		{"AzureKubernetesService", "hcp.westeurope.azmk8s.io", no},
		{"AzureKubernetesService", "abc.privatelink.westeurope.azmk8s.io", no},
		{"AzureKubernetesService", "contosoreg.azurecr.io", no},
		{"AzureKubernetesService", "*.blob.core.windows.net", no},
		{"AzureKubernetesService", "*.azmk8s.io", unknown},
		{"AzureKubernetesService", "*.mcr.microsoft.com", unknown},
		{"WindowsUpdate", "contosoreg.azurecr.io", unknown},
	} {
		if got, _ := matchFQDNTag(tc.tag, parseHost(tc.host)); got != tc.want {
			t.Errorf("matchFQDNTag(%q, %q) = %s, want %s", tc.tag, tc.host, got, tc.want)
		}
	}
	if !InFQDNTag(AKSFQDNTag, "mcr.microsoft.com") || InFQDNTag(AKSFQDNTag, "contosoreg.azurecr.io") {
		t.Error("InFQDNTag")
	}
}

func TestMatchServiceTag(t *testing.T) {
	for _, tc := range []struct {
		rule, tag string
		want      match
	}{
		{"AzureContainerRegistry.WestEurope", "AzureContainerRegistry.WestEurope", yes},
		{"azurecontainerregistry.westeurope", "AzureContainerRegistry.WestEurope", yes},
		{"AzureContainerRegistry", "AzureContainerRegistry.WestEurope", yes},
		{"AzureContainerRegistry.NorthEurope", "AzureContainerRegistry.WestEurope", no},
		{"AzureContainerRegistry.WestEurope", "AzureContainerRegistry", unknown},
		{"Storage", "AzureContainerRegistry.WestEurope", unknown},
		{"AzureCloud", "AzureContainerRegistry.WestEurope", unknown},
		{"AzureFrontDoor.Backend", "AzureFrontDoor.FirstParty", unknown},
		{"AzureContainerRegistry", "", unknown},
	} {
		if got, _ := matchServiceTag(tc.rule, tc.tag); got != tc.want {
			t.Errorf("matchServiceTag(%q, %q) = %s, want %s", tc.rule, tc.tag, got, tc.want)
		}
	}
}
