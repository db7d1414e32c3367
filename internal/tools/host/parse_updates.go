package host

import (
	"regexp"
	"strconv"
	"strings"
)

// Update is one package with a newer version available.
type Update struct {
	Name      string `json:"name"`
	Current   string `json:"current,omitempty"`
	Available string `json:"available"`
	Repo      string `json:"repo,omitempty"`
	Security  bool   `json:"security,omitempty"`
	// Held is an update the operator holds back (pacman's IgnorePkg):
	// listed, but not one an upgrade installs.
	Held bool `json:"held,omitempty"`
}

// updateArgv is the read-only listing command of each package manager.
var updateArgv = map[string][]string{
	"apt":    {"apt", "list", "--upgradable"},
	"dnf":    {"dnf", "-q", "-C", "check-update"},
	"apk":    {"apk", "list", "-u"},
	"pacman": {"pacman", "-Qu"},
	"pkg":    {"pkg", "version", "-vRL="},
}

// refreshArgv refreshes the package index (tier 1); pacman and pkg are not
// refreshed since their refresh commands also change what an upgrade would
// pull in partially.
var refreshArgv = map[string][]string{
	"apt": {"apt-get", "update", "-q"},
	"dnf": {"dnf", "-q", "makecache"},
	"apk": {"apk", "update"},
}

// managers is the detection order.
var managers = []string{"apt", "dnf", "apk", "pacman", "pkg"}

var aptRE = regexp.MustCompile(`^([^/\s]+)/(\S+)\s+(\S+)\s+(\S+)\s+\[upgradable from:\s*([^\]]+)\]`)

// parseApt reads `apt list --upgradable`.
func parseApt(s string) []Update {
	out := []Update{}
	for _, l := range strings.Split(s, "\n") {
		m := aptRE.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		out = append(out, Update{Name: m[1], Repo: m[2], Available: m[3], Current: m[5], Security: strings.Contains(m[2], "-security")})
	}
	return out
}

// parseDnf reads `dnf check-update` (exit 100 when updates exist): "name.arch
// version repo" lines until an "Obsoleting Packages" section.
func parseDnf(s string) []Update {
	out := []Update{}
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "Obsoleting") {
			break
		}
		f := strings.Fields(l)
		if len(f) != 3 || !strings.Contains(f[0], ".") || strings.HasPrefix(l, " ") {
			continue
		}
		out = append(out, Update{Name: f[0], Available: f[1], Repo: f[2], Security: strings.Contains(f[2], "security")})
	}
	return out
}

var apkRE = regexp.MustCompile(`^(\S+)-([0-9][^-\s]*-r[0-9]+)\s+\S+\s+\{([^}]*)\}.*\[upgradable from:\s*(\S+)-([0-9][^-\s]*-r[0-9]+)\]`)

// parseApk reads `apk list -u`: "name-1.2-r0 x86_64 {origin} (license)
// [upgradable from: name-1.1-r0]".
func parseApk(s string) []Update {
	out := []Update{}
	for _, l := range strings.Split(s, "\n") {
		m := apkRE.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		out = append(out, Update{Name: m[1], Available: m[2], Current: m[5]})
	}
	return out
}

// parsePacman reads `pacman -Qu`: "name old -> new", with " [ignored]"
// after a package IgnorePkg holds back.
func parsePacman(s string) []Update {
	out := []Update{}
	for _, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if len(f) >= 4 && f[2] == "->" {
			out = append(out, Update{Name: f[0], Current: f[1], Available: f[3], Held: len(f) > 4 && f[4] == "[ignored]"})
		}
	}
	return out
}

var pkgRE = regexp.MustCompile(`^(\S+)-([^-\s]+)\s+<\s+needs updating \((?:remote|index) has ([^)]+)\)`)

// parsePkg reads FreeBSD `pkg version -vRL=`: "name-1.0 < needs updating
// (remote has 1.1)".
func parsePkg(s string) []Update {
	out := []Update{}
	for _, l := range strings.Split(s, "\n") {
		if m := pkgRE.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			out = append(out, Update{Name: m[1], Current: m[2], Available: m[3]})
		}
	}
	return out
}

// parseUpdates dispatches on the manager.
func parseUpdates(mgr, s string) []Update {
	switch mgr {
	case "apt":
		return parseApt(s)
	case "dnf":
		return parseDnf(s)
	case "apk":
		return parseApk(s)
	case "pacman":
		return parsePacman(s)
	case "pkg":
		return parsePkg(s)
	}
	return nil
}

func itoa(i int) string { return strconv.Itoa(i) }
