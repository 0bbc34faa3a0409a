package planned

import "fmt"

// MaxPlanSize bounds the plan file a caller should read: plans of large
// configurations are tens of megabytes; anything far larger is not one.
const MaxPlanSize = 512 << 20

// ParseFile is Parse for the contents of a file the caller read (this
// package does no I/O): errors name the file, for the planned_changes_file
// argument.
func ParseFile(path string, data []byte, opts Options) (*Plan, error) {
	if len(data) > MaxPlanSize {
		return nil, fmt.Errorf("planned changes file %s is %d bytes, larger than any plan JSON this provider reads (%d): %s", path, len(data), MaxPlanSize, showHint)
	}
	p, err := Parse(data, opts)
	if err != nil {
		return nil, fmt.Errorf("planned changes file %s: %w", path, err)
	}
	return p, nil
}

// ReadError is the error for a planned changes file that cannot be read
// (err from os.ReadFile or the like).
func ReadError(path string, err error) error {
	return fmt.Errorf("planned changes file %s cannot be read: %w; %s", path, err, showHint)
}
