// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Command terraform-provider-pullpath is the pullpath provider for OpenTofu
// and Terraform: it proves at plan time that every AKS node pool can pull its
// images from a private registry.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/pullpath/terraform-provider-pullpath/internal/provider"
)

// The documentation in docs/ is generated from the provider schema and the
// files under templates/ and examples/ with "make generate".

// version is set by the build (goreleaser, make build/install):
//
//	go build -ldflags "-X main.version=1.2.3"
var version = "dev"

// address is the provider's source address.
const address = "registry.terraform.io/pullpath/pullpath"

// versionLine is what -version prints: the build's version (the one in the
// ARM User-Agent, pullpath/<version>) and the source address.
func versionLine() string {
	return fmt.Sprintf("terraform-provider-pullpath %s (%s, plugin protocol 6)", version, address)
}

func main() {
	var debug, showVersion bool

	flag.BoolVar(&debug, "debug", false, "set to true to run the provider with support for debuggers like delve")
	flag.BoolVar(&showVersion, "version", false, "print the provider's version and exit")
	flag.Parse()

	if showVersion {
		fmt.Fprintln(os.Stdout, versionLine())
		return
	}

	opts := providerserver.ServeOpts{
		Address: address,
		Debug:   debug,
	}

	if err := providerserver.Serve(context.Background(), provider.New(version), opts); err != nil {
		log.Fatal(err.Error())
	}
}
