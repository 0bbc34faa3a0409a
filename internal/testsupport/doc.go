// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package testsupport holds what the tests and benchmarks share and the
// provider binary never links: gentopo, a generator of large hub-and-spoke
// ARM snapshots (with a small command, gentopo/cmd, that scripts/bench.sh
// runs), benchutil, the CPU-time clock of the benchmarks, and schemacheck, which
// validates the report files against the published JSON Schema and the
// official SARIF 2.1.0 schema.
package testsupport
