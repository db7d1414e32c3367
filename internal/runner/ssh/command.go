package ssh

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/shellword"
)

// lookupPath is where a program named without a slash is looked for when
// Request.Env has no PATH: the libc default that env's execvp uses then.
const lookupPath = "/usr/bin:/bin"

// command builds the one string the remote login shell runs for req. SSH
// has no argv: the server hands a command string to the user's login
// shell, so quoting happens here, once, on purpose. The script reports
// its pid (the session's process group, for kills), changes directory,
// checks the program exists, and then
//
//	exec env -i KEY=VALUE… <argv…>
//
// so the command gets exactly Request.Env and keeps the group's pid. It
// uses only what every POSIX-family login shell has (sh, dash, ash, bash,
// ksh, zsh); csh and fish login shells are not supported. A script for
// "sh -c" runs under the host's configured shell, an absolute path, since
// some firmware's sh on PATH is not a shell. marker prefixes the lines the
// script writes to stderr for the runner.
//
// When the request is "<shell> -c SCRIPT" with a PATH in Request.Env (as
// every request from the relay has) and the login shell is that very
// shell of the plain sh family (not bash or zsh, which read startup files
// the fresh shell would not, nor ksh or yash), the login shell runs SCRIPT
// itself: it unsets every exported
// variable with builtins, exports Request.Env and evals SCRIPT, which
// saves the two execs of env and a second shell. Where any variable cannot
// be unset (a read-only one) it takes the env -i path instead, so the
// environment is exactly Request.Env either way.
func command(shell string, req runner.Request, marker string, keepHome bool) (cmd, prog string, err error) {
	argv := req.Argv
	if len(argv) == 0 {
		return "", "", fmt.Errorf("empty argv")
	}
	if argv[0] == "" {
		return "", "", fmt.Errorf(`exec "": empty program name`)
	}
	if strings.Contains(argv[0], "=") {
		// env would take it for a variable assignment.
		return "", "", fmt.Errorf("exec %q: a remote program name cannot contain '='", argv[0])
	}
	// "sh -c" means the host's shell, wherever it lives.
	if argv[0] == "sh" && len(argv) >= 2 && argv[1] == "-c" {
		argv = append([]string{shell}, argv[1:]...)
	}
	for _, a := range argv {
		if strings.IndexByte(a, 0) >= 0 {
			return "", "", fmt.Errorf("argument %q contains NUL", a)
		}
	}
	path := lookupPath
	hasPath, hasHome := false, false
	for _, kv := range req.Env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !shellword.ValidName(name) {
			return "", "", fmt.Errorf("environment entry %q: want NAME=value with NAME of letters, digits and _", kv)
		}
		if strings.IndexByte(value, 0) >= 0 {
			return "", "", fmt.Errorf("environment entry %q contains NUL", name)
		}
		if name == "PATH" {
			path, hasPath = value, true
		}
		if name == "HOME" {
			hasHome = true
		}
	}
	if strings.IndexByte(req.Dir, 0) >= 0 {
		return "", "", fmt.Errorf("directory %q contains NUL", req.Dir)
	}

	m := shellword.Quote(marker)
	var s strings.Builder
	fmt.Fprintf(&s, "echo %spid:$$ >&2\n", m)
	if req.Dir != "" {
		fmt.Fprintf(&s, "cd -- %s 2>/dev/null || { echo %snodir >&2; exit 127; }\n", shellword.Quote(req.Dir), m)
	}
	q := shellword.Quote(argv[0])
	if strings.Contains(argv[0], "/") {
		fmt.Fprintf(&s, "[ -f %s ] && [ -x %s ] || { echo %snoprog >&2; exit 127; }\n", q, q, m)
	} else {
		fmt.Fprintf(&s, "o=$PATH; PATH=%s; command -v -- %s >/dev/null 2>&1; r=$?; PATH=$o\n", shellword.Quote(path), q)
		fmt.Fprintf(&s, "[ $r = 0 ] || { echo %snoprog >&2; exit 127; }\n", m)
	}
	// A remote login's home is only known there: keep the login's own
	// $HOME unless the request names one.
	keepLoginHome := keepHome && !hasHome
	// Without a PATH in Env a fresh shell falls back to its own default
	// search path, which an unset PATH in a running shell does not.
	fast := hasPath && len(argv) == 3 && argv[0] == shell && argv[1] == "-c"
	if fast {
		s.WriteString(inShellPrologue(shell, keepLoginHome))
		if len(req.Env) > 0 {
			s.WriteString("export")
			for _, kv := range req.Env {
				s.WriteString(" " + shellword.Quote(kv))
			}
			s.WriteString("\n")
		}
		s.WriteString("eval " + shellword.Quote(argv[2]) + "\nelse\n")
	}
	s.WriteString("exec env -i")
	if keepLoginHome {
		s.WriteString(` HOME="$HOME"`)
	}
	for _, kv := range req.Env {
		s.WriteString(" " + shellword.Quote(kv))
	}
	for _, a := range argv {
		s.WriteString(" " + shellword.Quote(a))
	}
	if fast {
		s.WriteString("\nfi")
	}
	return s.String(), argv[0], nil
}

// inShellPrologue opens the "if" of the in-shell path: it holds when the
// login shell is shell (by $SHELL, which sshd sets from the password
// entry), is none of bash, zsh, ksh and yash, and every exported variable
// could be unset. That leaves the plain sh family (dash, BusyBox ash),
// which also drops environment entries whose names are not identifiers
// instead of passing them on, so unsetting what export -p lists clears
// everything. PWD stays: a fresh shell exports it too. So does HOME when
// keepHome. The names come from "export -p", whose lines start "export
// NAME" in every POSIX-family shell; a line that only continues a
// multi-line value is skipped, or at worst unsets a name the environment
// did not need.
func inShellPrologue(shell string, keepHome bool) string {
	skip := "PWD"
	if keepHome {
		skip += "|HOME"
	}
	return `__wd_ok=
if [ "${SHELL-}" = ` + shellword.Quote(shell) + ` ] && [ -z "${BASH_VERSION-}${ZSH_VERSION-}${KSH_VERSION-}${YASH_VERSION-}" ] && __wd_e=$(export -p); then
__wd_ok=1
while IFS= read -r __wd_l; do
case $__wd_l in
'export '*) __wd_l=${__wd_l#export } ;;
*) continue ;;
esac
__wd_l=${__wd_l%%=*}
case $__wd_l in
''|` + skip + `|*[!A-Za-z0-9_]*) continue ;;
esac
command unset "$__wd_l" 2>/dev/null || __wd_ok=
done <<__wd_EOF
$__wd_e
__wd_EOF
fi
if [ -n "${__wd_ok-}" ]; then
unset __wd_e __wd_l __wd_ok
`
}

// report is what the script told the runner on stderr.
type report struct {
	mu     sync.Mutex
	pid    int
	pidSet chan struct{}
	noDir  bool
	noProg bool
}

func newReport() *report { return &report{pidSet: make(chan struct{})} }

func (r *report) line(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case strings.HasPrefix(s, "pid:"):
		if n, err := strconv.Atoi(s[4:]); err == nil && n > 1 && r.pid == 0 {
			r.pid = n
			close(r.pidSet)
		}
	case s == "nodir":
		r.noDir = true
	case s == "noprog":
		r.noProg = true
	}
}

// getPid returns the remote process group id, or 0 if the script has not
// reported it.
func (r *report) getPid() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pid
}

// maxReportLine bounds how much stderr is held back looking for a report
// line.
const maxReportLine = 128

// stderrFilter passes stderr on to w, taking out the report lines the
// script writes before the command starts: they come first, each starting
// with the run's random marker, so nothing the command prints can be
// mistaken for one.
type stderrFilter struct {
	w       io.Writer
	marker  []byte
	rep     *report
	buf     []byte
	through bool
}

func (f *stderrFilter) Write(p []byte) (int, error) {
	if f.through {
		return f.w.Write(p)
	}
	f.buf = append(f.buf, p...)
	for !f.through {
		n := min(len(f.buf), len(f.marker))
		if !bytes.Equal(f.buf[:n], f.marker[:n]) {
			f.through = true
			break
		}
		i := bytes.IndexByte(f.buf, '\n')
		if i < 0 {
			if len(f.buf) > maxReportLine {
				f.through = true
				break
			}
			return len(p), nil
		}
		if i < len(f.marker) {
			f.through = true
			break
		}
		f.rep.line(string(f.buf[len(f.marker):i]))
		f.buf = f.buf[i+1:]
		if len(f.buf) == 0 {
			return len(p), nil
		}
	}
	rest := f.buf
	f.buf = nil
	if _, err := f.w.Write(rest); err != nil {
		return 0, err
	}
	return len(p), nil
}
