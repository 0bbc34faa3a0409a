// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

import "strings"

// Cloud is one Azure cloud as the provider knows it: the names its
// `environment` argument accepts, and the DNS domains registries use there.
// Clouds is the one table of them; the Azure session maps Name to the
// cloud's Entra ID and ARM endpoints.
type Cloud struct {
	// Name is the `environment` value: public, usgovernment, china.
	Name string
	// Aliases are further names accepted for the cloud (azurerm's long
	// names), compared case-insensitively.
	Aliases []string
	// RegistrySuffix is the login server domain: azurecr.io, azurecr.us,
	// azurecr.cn.
	RegistrySuffix string
	// PrivateLinkZone is the private link zone of registries:
	// privatelink.azurecr.io, privatelink.azurecr.us, privatelink.azurecr.cn.
	PrivateLinkZone string
	// BlobSuffix is the storage domain layers come from when a registry has
	// neither data endpoints nor private endpoints: blob.core.windows.net,
	// blob.core.usgovcloudapi.net, blob.core.chinacloudapi.cn.
	BlobSuffix string
}

// The clouds, by the provider's `environment` argument.
var (
	PublicCloud = Cloud{Name: "public", Aliases: []string{"azurepubliccloud"},
		RegistrySuffix: "azurecr.io", PrivateLinkZone: "privatelink.azurecr.io", BlobSuffix: "blob.core.windows.net"}
	USGovernmentCloud = Cloud{Name: "usgovernment", Aliases: []string{"azureusgovernmentcloud", "azureusgovernment"},
		RegistrySuffix: "azurecr.us", PrivateLinkZone: "privatelink.azurecr.us", BlobSuffix: "blob.core.usgovcloudapi.net"}
	ChinaCloud = Cloud{Name: "china", Aliases: []string{"azurechinacloud"},
		RegistrySuffix: "azurecr.cn", PrivateLinkZone: "privatelink.azurecr.cn", BlobSuffix: "blob.core.chinacloudapi.cn"}

	// Clouds are every cloud, public first.
	Clouds = []Cloud{PublicCloud, USGovernmentCloud, ChinaCloud}
)

// CloudNames are the Name of every cloud, in the order of Clouds.
func CloudNames() []string {
	out := make([]string, 0, len(Clouds))
	for _, c := range Clouds {
		out = append(out, c.Name)
	}
	return out
}

// LookupCloud returns the cloud an `environment` value names (its Name or
// an alias, case-insensitive, surrounding space ignored; empty is the public
// cloud), and false for any other value.
func LookupCloud(environment string) (Cloud, bool) {
	env := strings.ToLower(strings.TrimSpace(environment))
	if env == "" {
		return PublicCloud, true
	}
	for _, c := range Clouds {
		if env == c.Name {
			return c, true
		}
		for _, a := range c.Aliases {
			if env == a {
				return c, true
			}
		}
	}
	return Cloud{}, false
}

// CloudFor returns the cloud for an `environment` value; anything that
// names no cloud is the public cloud.
func CloudFor(environment string) Cloud {
	c, _ := LookupCloud(environment)
	if c.Name == "" {
		return PublicCloud
	}
	return c
}

// ZoneDomain is the domain a DNS name lies in, as the search for private
// DNS zone links groups zones: its last two labels, lower case, without a
// trailing dot (privatelink.azurecr.io and westeurope.data.privatelink.azurecr.io
// lie in azurecr.io, the registry suffix of the public cloud). A zone
// named like a name a pull resolves lies in the same domain as the name.
func ZoneDomain(name string) string {
	labels := strings.Split(NormalizeHost(name), ".")
	if len(labels) > 2 {
		labels = labels[len(labels)-2:]
	}
	return strings.Join(labels, ".")
}
