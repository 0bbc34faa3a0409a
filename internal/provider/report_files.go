// Copyright (c) The pullpath authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// envReportDir is report_dir's environment variable.
const envReportDir = "PULLPATH_REPORT_DIR"

// reportExtensions are the files of one report, in the order they are
// written: the JSON report, the SARIF log, the Markdown summary, the JUnit
// XML.
var reportExtensions = []string{".json", ".sarif", ".md", ".junit.xml"}

// reportFiles writes the reports of pullpath_verification into report_dir.
//
// Every file is written atomically: into a temporary file of the same
// directory, then renamed over the name, so a reader (a CI step, an
// artifact upload) sees the old file or the new one, never half of one.
// The directory is created (with its parents) when it does not exist.
//
// Names: a report's files are report.Name ("<cluster>.<registry>") plus an
// extension. Verifications of one plan that share a name are numbered
// "-2", "-3", … in the order of their arguments (key), not in the order
// Terraform reads them, which is concurrent: when a verification arrives
// whose key sorts before names already written, those files move up one
// number. So the same configuration gives the same files, whatever the
// scheduling. Verifications with identical arguments are numbered in the
// order they finish; their reports hold the same verdict and findings.
//
// Concurrency: safe for concurrent use. One reportFiles serves one
// provider configuration, whose reads all run in one provider process;
// two provider configurations (aliases) must not share a report_dir, and
// files left in it by an earlier run are overwritten, not removed.
type reportFiles struct {
	dir string

	mu sync.Mutex
	// keys holds, per name, the keys of the reports written under it,
	// sorted: the report of keys[name][i] is in file i (see fileName).
	keys map[string][]string
}

// newReportFiles returns the writer for dir; nil when dir is empty (no
// report_dir: nothing is written).
func newReportFiles(dir string) *reportFiles {
	if dir == "" {
		return nil
	}
	return &reportFiles{dir: dir, keys: map[string][]string{}}
}

// fileName is the name of the i-th report (0-based) named name, with ext.
func fileName(name string, i int, ext string) string {
	if i == 0 {
		return name + ext
	}
	return fmt.Sprintf("%s-%d%s", name, i+1, ext)
}

// write writes one report's files (contents in reportExtensions order)
// and returns their paths. key orders reports that share name.
func (w *reportFiles) write(name, key string, contents [][]byte) ([]string, error) {
	if len(contents) != len(reportExtensions) {
		return nil, fmt.Errorf("%d report contents for %d files", len(contents), len(reportExtensions))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := os.MkdirAll(w.dir, 0o755); err != nil {
		return nil, err
	}
	keys := w.keys[name]
	at := sort.Search(len(keys), func(i int) bool { return keys[i] > key })
	// Reports sorting after this one move up one number, the last first.
	for j := len(keys) - 1; j >= at; j-- {
		for _, ext := range reportExtensions {
			from, to := filepath.Join(w.dir, fileName(name, j, ext)), filepath.Join(w.dir, fileName(name, j+1, ext))
			// A report whose writing failed (and was reported) has no files.
			if err := os.Rename(from, to); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("renaming %s to %s to keep the reports in order: %w", from, to, err)
			}
		}
	}
	w.keys[name] = append(keys[:at], append([]string{key}, keys[at:]...)...)
	paths := make([]string, 0, len(reportExtensions))
	for i, ext := range reportExtensions {
		p := filepath.Join(w.dir, fileName(name, at, ext))
		if err := writeAtomic(p, contents[i]); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// writeAtomic replaces the file at path with data: a temporary file in
// the same directory, synced, then renamed over path. The file is
// readable by everyone (0644): reports hold resource ids and findings,
// never a credential.
func writeAtomic(path string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
