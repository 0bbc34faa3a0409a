package snapshot

import (
	"fmt"
	"os"
	"path/filepath"
)

// Save validates s and writes it to path atomically: a temporary file in the
// same directory, mode 0600, synced, then renamed over path. A reader never
// sees half a snapshot, and a crash leaves the previous file intact.
func Save(path string, s *Snapshot) error {
	data, err := Marshal(s)
	if err != nil {
		return fmt.Errorf("writing snapshot %s: %w", path, err)
	}
	// Never write what Load would reject.
	if _, err := Parse(data); err != nil {
		return fmt.Errorf("writing snapshot %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing snapshot %s: %w", path, err)
	}
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(0o600); err != nil {
		return fmt.Errorf("writing snapshot %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("writing snapshot %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("writing snapshot %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing snapshot %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		done = true
		return fmt.Errorf("writing snapshot %s: %w", path, err)
	}
	done = true
	return nil
}
