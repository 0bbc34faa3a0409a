// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package model

// PullCredentials is how the nodes authenticate to the registry
// (pull_credentials of pullpath_verification).
type PullCredentials string

// The ways a pull authenticates.
const (
	// PullKubeletIdentity: the kubelet identity's token (the default); its
	// role assignments on the registry are checked.
	PullKubeletIdentity PullCredentials = "kubelet_identity"
	// PullImagePullSecret: workloads bring their own credentials (an
	// imagePullSecret), which Resource Manager does not show; the kubelet
	// identity's roles are not what the pull uses and are not checked.
	PullImagePullSecret PullCredentials = "image_pull_secret"
	// PullAnonymous: no credentials; the registry must allow anonymous
	// pull (anonymousPullEnabled).
	PullAnonymous PullCredentials = "anonymous"
)

// PullCredentialsValues are the accepted values, default first.
var PullCredentialsValues = []PullCredentials{PullKubeletIdentity, PullImagePullSecret, PullAnonymous}

// OrDefault is the value, or PullKubeletIdentity when unset.
func (p PullCredentials) OrDefault() PullCredentials {
	if p == "" {
		return PullKubeletIdentity
	}
	return p
}
