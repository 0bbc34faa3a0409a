// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pullpath/terraform-provider-pullpath/internal/gather"
	"github.com/pullpath/terraform-provider-pullpath/internal/model"
	"github.com/pullpath/terraform-provider-pullpath/internal/verify"
)

// contents are the four files of a report whose every file says key.
func contents(key string) [][]byte {
	return [][]byte{[]byte(key + " json"), []byte(key + " sarif"), []byte(key + " md"), []byte(key + " junit")}
}

// filesByKey reads the numbered reports of name: file i's key.
func filesByKey(t *testing.T, dir, name string, n int) []string {
	t.Helper()
	var out []string
	for i := range n {
		for j, ext := range reportExtensions {
			data, err := os.ReadFile(filepath.Join(dir, fileName(name, i, ext)))
			if err != nil {
				t.Fatal(err)
			}
			key, _, _ := strings.Cut(string(data), " ")
			if j == 0 {
				out = append(out, key)
			} else if key != out[i] {
				t.Fatalf("report %d: %s holds %s, its json %s", i, ext, key, out[i])
			}
		}
	}
	return out
}

func TestReportFilesNumberByKeyWhateverTheOrder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "dir")
	w := newReportFiles(dir)
	for _, key := range []string{"b", "a", "c"} {
		paths, err := w.write("aks1.reg", key, contents(key))
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) != len(reportExtensions) || filepath.Dir(paths[0]) != dir {
			t.Errorf("paths %v", paths)
		}
	}
	if _, err := w.write("other.reg", "z", contents("z")); err != nil {
		t.Fatal(err)
	}
	if got := filesByKey(t, dir, "aks1.reg", 3); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("files in order %v, want a, b, c", got)
	}
	if got := filesByKey(t, dir, "other.reg", 1); !slices.Equal(got, []string{"z"}) {
		t.Errorf("other name: %v", got)
	}
	want := []string{
		"aks1.reg-2.json", "aks1.reg-2.junit.xml", "aks1.reg-2.md", "aks1.reg-2.sarif",
		"aks1.reg-3.json", "aks1.reg-3.junit.xml", "aks1.reg-3.md", "aks1.reg-3.sarif",
		"aks1.reg.json", "aks1.reg.junit.xml", "aks1.reg.md", "aks1.reg.sarif",
		"other.reg.json", "other.reg.junit.xml", "other.reg.md", "other.reg.sarif"}
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		names = append(names, e.Name())
		if info, _ := e.Info(); info.Mode().Perm() != 0o644 {
			t.Errorf("%s has mode %v, want 0644", e.Name(), info.Mode().Perm())
		}
	}
	if !slices.Equal(names, want) {
		t.Errorf("directory holds %v, want %v (no temporary files)", names, want)
	}
}

// Concurrent reads of one plan end with the same files as any serial
// order: numbered by key.
func TestReportFilesConcurrentWritesAreOrdered(t *testing.T) {
	dir := t.TempDir()
	w := newReportFiles(dir)
	keys := make([]string, 16)
	for i := range keys {
		keys[i] = fmt.Sprintf("k%02d", i)
	}
	shuffled := slices.Clone(keys)
	rand.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	var wg sync.WaitGroup
	for _, k := range shuffled {
		wg.Go(func() {
			if _, err := w.write("aks1.reg", k, contents(k)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := filesByKey(t, dir, "aks1.reg", len(keys)); !slices.Equal(got, keys) {
		t.Errorf("files in order %v, want %v", got, keys)
	}
}

// The same key twice (identical verifications) gets two files; a write
// replaces what an earlier run left.
func TestReportFilesSameKeyAndLeftovers(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "aks1.reg.json"), []byte("old run"), 0o600); err != nil {
		t.Fatal(err)
	}
	w := newReportFiles(dir)
	for range 2 {
		if _, err := w.write("aks1.reg", "a", contents("a")); err != nil {
			t.Fatal(err)
		}
	}
	if got := filesByKey(t, dir, "aks1.reg", 2); !slices.Equal(got, []string{"a", "a"}) {
		t.Errorf("files %v", got)
	}
}

func TestReportFilesUnwritableDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	w := newReportFiles(filepath.Join(file, "reports"))
	if _, err := w.write("aks1.reg", "a", contents("a")); err == nil {
		t.Fatal("writing below a regular file succeeded")
	}

	diags := writeReports(w, verificationRun{request: gather.VerificationRequest{ClusterID: "/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks1",
		RegistryID: "/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerRegistry/registries/reg"}},
		verify.Result{Verdict: model.Reachable})
	if !diags.HasError() {
		t.Fatal("no error diagnostic")
	}
	d := diags.Errors()[0]
	for _, want := range []string{"aks1 → reg", "verdict reachable", filepath.Join(file, "reports"), "aks1.reg.{json,sarif,md,junit.xml}", "Set report_dir (or PULLPATH_REPORT_DIR)", "unset it"} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("detail lacks %q: %s", want, d.Detail())
		}
	}
}

func TestNoReportDirWritesNothing(t *testing.T) {
	if newReportFiles("") != nil {
		t.Error("an empty report_dir gives a writer")
	}
	if diags := writeReports(nil, verificationRun{}, verify.Result{}); diags.HasError() {
		t.Errorf("without report_dir: %v", diags)
	}
}

func TestReportDirFallsBackToTheEnvironment(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == envReportDir {
				return v
			}
			return ""
		}
	}
	cases := []struct {
		arg  types.String
		env  string
		want string
	}{
		{types.StringValue("/from/arg"), "/from/env", "/from/arg"},
		{types.StringNull(), " /from/env ", "/from/env"},
		{types.StringNull(), "", ""},
	}
	for _, c := range cases {
		if got := reportDir(c.arg, env(c.env)); got != c.want {
			t.Errorf("reportDir(%v, %q) = %q, want %q", c.arg, c.env, got, c.want)
		}
	}
}

// The key that numbers reports follows the arguments, not their spelling.
func TestReportKeyOrdersByArguments(t *testing.T) {
	base := verificationRun{request: gather.VerificationRequest{ClusterID: "/subscriptions/s/x/AKS1", NodePools: []string{"user", "system"}}}
	same := verificationRun{request: gather.VerificationRequest{ClusterID: "/subscriptions/s/x/aks1", NodePools: []string{"system", "user"}}}
	if reportKey(base) != reportKey(same) {
		t.Error("the key depends on the order of a set or the case of an id")
	}
	other := base
	other.request.NodePools = []string{"system"}
	if reportKey(base) == reportKey(other) {
		t.Error("different node pools give the same key")
	}
}
