// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package gather

import (
	"reflect"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v8"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// TestHTTPProxyFromSDK: httpProxyConfig becomes the cluster's proxy (the
// trusted CA only as present or not); a configuration that sets no proxy
// is none.
func TestHTTPProxyFromSDK(t *testing.T) {
	tests := []struct {
		name string
		in   *armcontainerservice.ManagedClusterHTTPProxyConfig
		want *model.HTTPProxy
	}{
		{"absent", nil, nil},
		{"no proxy set", &armcontainerservice.ManagedClusterHTTPProxyConfig{NoProxy: []*string{to.Ptr("localhost")}}, nil},
		{"full", &armcontainerservice.ManagedClusterHTTPProxyConfig{HTTPProxy: to.Ptr("http://10.0.1.4:3128"), HTTPSProxy: to.Ptr("http://10.0.1.4:3128"),
			NoProxy: []*string{to.Ptr("localhost"), nil, to.Ptr(".azurecr.io")}, TrustedCa: to.Ptr("LS0t")},
			&model.HTTPProxy{HTTPProxy: "http://10.0.1.4:3128", HTTPSProxy: "http://10.0.1.4:3128", NoProxy: []string{"localhost", ".azurecr.io"}, TrustedCA: true}},
		{"http only", &armcontainerservice.ManagedClusterHTTPProxyConfig{HTTPProxy: to.Ptr("http://10.0.1.4:3128")},
			&model.HTTPProxy{HTTPProxy: "http://10.0.1.4:3128"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := httpProxyFromSDK(tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("httpProxyFromSDK = %+v, want %+v", got, tc.want)
			}
		})
	}
}
