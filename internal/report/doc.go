// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

// Package report renders one verification for CI, as the four files that
// pullpath_verification writes into the provider's report_dir, also for a
// read that failed closed (Input.NotChecked: outcome not_checked):
//
//   - JSON in the versioned format [Format] ("pullpath.report/v1"): the whole
//     result (verdict, paths, findings with every field, stats, planned
//     changes, the ids checked, provider version and time), documented in
//     docs/guides/ci-reports.md and published as the JSON Schema
//     docs/reports/pullpath.report.v1.schema.json;
//   - SARIF 2.1.0 ([SARIF]): one rule per catalogue code with its help text,
//     one result per finding anchored in the file that declares the
//     verification, for code-scanning views;
//   - Markdown ([Markdown]): the verdict, the Mermaid diagram and a findings
//     table with one row per cause, at most [MaxMarkdown] characters, for a
//     pull request comment or a job summary;
//   - JUnit XML ([JUnit]): a test case per node pool × hostname, for test
//     views.
//
// Contract: the package is pure. [Build] turns a verification's result and
// what the caller knows about it ([Input]) into a [Report]; the renderers
// turn a Report into bytes. Nothing here reads a clock, a file or the
// environment: the same Input gives byte-identical files, so the caller
// supplies the generation time. Writing the files (names, the directory,
// atomic replacement) is the provider's (internal/provider/report_files.go).
//
// Imports: model, verify and diagram only (architecture_test.go).
package report
