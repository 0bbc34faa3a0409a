// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package validators

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pullpath/terraform-provider-pullpath/internal/model"
)

// PullCredentials accepts a value of pull_credentials of
// pullpath_verification: one of model.PullCredentialsValues
// (kubelet_identity, image_pull_secret, anonymous).
func PullCredentials() validator.String {
	values := make([]string, len(model.PullCredentialsValues))
	for i, v := range model.PullCredentialsValues {
		values[i] = string(v)
	}
	return stringvalidator.OneOf(values...)
}
