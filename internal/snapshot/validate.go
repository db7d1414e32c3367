package snapshot

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// Names reach `zfs list` and `btrfs subvolume show` as argv elements and
// paths; they are held to a strict alphabet so that none can look like an
// option, a shell word boundary or a path step.
var (
	datasetNameRE  = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,63}$`)
	snapshotNameRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.:+@-]{0,254}$`)
	zfsDatasetRE   = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.:/-]{0,254}$`)
)

// MaxPathLen is the longest agent path accepted.
const MaxPathLen = 4096

// ValidateDatasetName reports whether name is an acceptable dataset name for
// a tool argument: 1–64 characters of letters, digits, _ . : -, not starting
// with - or . .
func ValidateDatasetName(name string) error {
	if name == "" {
		return invalidf("dataset name is empty")
	}
	if len(name) > 64 {
		return invalidf("dataset name is %d bytes long; at most 64 allowed", len(name))
	}
	if !datasetNameRE.MatchString(name) {
		return invalidf("dataset name %q: only letters, digits and _ . : - are allowed, and it must not start with - or .", name)
	}
	return nil
}

// ValidateSnapshotName reports whether name is an acceptable snapshot name:
// 1–255 characters of letters, digits, _ . : + @ -, not starting with - . or
// @, and no "..". LiveSnapshot is accepted.
func ValidateSnapshotName(name string) error {
	if name == LiveSnapshot {
		return nil
	}
	if name == "" {
		return invalidf("snapshot name is empty")
	}
	if len(name) > 255 {
		return invalidf("snapshot name is %d bytes long; at most 255 allowed", len(name))
	}
	if !snapshotNameRE.MatchString(name) || strings.Contains(name, "..") {
		return invalidf("snapshot name %q: only letters, digits and _ . : + @ - are allowed, it must not start with - . or @, and must not contain ..", name)
	}
	return nil
}

// validateZFSDataset reports whether name is a ZFS dataset name safe to pass
// to zfs list: pool/fs/child, no snapshot part, no empty or dot components.
func validateZFSDataset(name string) error {
	if !zfsDatasetRE.MatchString(name) {
		return invalidf("zfs dataset %q: only letters, digits and _ . : - / are allowed, and it must not start with - . or /", name)
	}
	for _, c := range strings.Split(name, "/") {
		if c == "" || c == "." || c == ".." {
			return invalidf("zfs dataset %q has an empty or dot component", name)
		}
	}
	return nil
}

// Validate reports whether the source configuration is complete and safe.
func (s SourceConfig) Validate() error {
	if err := ValidateDatasetName(s.Name); err != nil {
		return err
	}
	switch s.Kind {
	case KindZFS, KindBtrfs, KindDir:
	default:
		return fmt.Errorf("dataset %q: kind %q is not one of zfs, btrfs, dir", s.Name, s.Kind)
	}
	if !filepath.IsAbs(s.Path) || filepath.Clean(s.Path) != s.Path {
		return fmt.Errorf("dataset %q: path %q must be absolute and clean", s.Name, s.Path)
	}
	if s.Live != "" && (!filepath.IsAbs(s.Live) || filepath.Clean(s.Live) != s.Live) {
		return fmt.Errorf("dataset %q: live %q must be absolute and clean", s.Name, s.Live)
	}
	if s.Pattern != "" {
		if s.Kind != KindDir {
			return fmt.Errorf("dataset %q: pattern applies only to kind dir", s.Name)
		}
		if strings.Contains(s.Pattern, "/") {
			return fmt.Errorf("dataset %q: pattern %q must match names, not paths", s.Name, s.Pattern)
		}
		if _, err := path.Match(s.Pattern, ""); err != nil {
			return fmt.Errorf("dataset %q: pattern %q: %w", s.Name, s.Pattern, err)
		}
	}
	if s.TimeFormat != "" && s.Kind != KindDir {
		return fmt.Errorf("dataset %q: time_format applies only to kind dir", s.Name)
	}
	if s.Dataset != "" {
		if s.Kind != KindZFS {
			return fmt.Errorf("dataset %q: dataset applies only to kind zfs", s.Name)
		}
		if err := validateZFSDataset(s.Dataset); err != nil {
			return fmt.Errorf("dataset %q: %w", s.Name, err)
		}
	}
	return nil
}

// cleanRel turns an agent path into a clean slash-separated path relative to
// a snapshot root ("." for the root). Absolute paths and any ".." component
// are refused rather than reinterpreted, so the agent learns the rule.
func cleanRel(p string) (string, error) {
	if len(p) > MaxPathLen {
		return "", invalidf("path is %d bytes long; at most %d allowed", len(p), MaxPathLen)
	}
	if strings.ContainsRune(p, 0) {
		return "", invalidf("path contains a NUL byte")
	}
	if strings.HasPrefix(p, "/") {
		return "", invalidf("path %q is absolute; give it relative to the snapshot root, e.g. %q", p, strings.TrimLeft(p, "/"))
	}
	for _, c := range strings.Split(p, "/") {
		if c == ".." {
			return "", invalidf("path %q contains ..; paths stay inside the snapshot root", p)
		}
	}
	if p == "" {
		return ".", nil
	}
	return path.Clean(p), nil
}

// joinRel joins a clean relative directory and an entry name.
func joinRel(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

// CleanRel validates an agent's snapshot-relative path and returns it
// clean ("." for the root): absolute paths and ".." are refused.
func CleanRel(p string) (string, error) { return cleanRel(p) }
