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

// SSH has no argv: the server hands a command string to the user's login
// shell. A session therefore runs two scripts. The login shell runs stub,
// which knows nothing of the command; it then reads the command's script,
// built by command, from the session's stdin and evals it. Quoting
// happens in command, once, on purpose. Both use only what every
// POSIX-family login shell has (sh, dash, ash, bash, ksh, zsh); csh and
// fish login shells are not supported.

// stub is what the login shell runs when the session starts. It reports
// its pid (the session's process group, for kills) on stderr after
// marker, and saves the login's HOME and PATH. When the login shell is
// shell (by $SHELL, which sshd sets from the password entry) and of the
// plain sh family — none of bash, zsh, ksh and yash, which read startup
// files a fresh shell would not — it unsets every exported variable but
// PWD and HOME with builtins and sets __wd_ok if all of them could be
// unset. The names come from "export -p", whose lines start "export NAME"
// in every POSIX-family shell; a line that only continues a multi-line
// value is skipped, or at worst unsets a name the environment did not
// need. The plain sh family drops environment entries whose names are not
// identifiers instead of passing them on, so that clears everything.
//
// Then it reads the script: a line with its number of lines, then the
// lines. read takes one byte at a time, so what follows on stdin is left
// for the command. It reports "go" once it has the whole script and evals
// it; no report means the command never ran. Everything that costs a fork
// happens before the script arrives, so a session started ahead of its
// call (Options.Prestart) runs a command with none of its own.
func stub(shell, marker string) string {
	return `__wd_m=` + shellword.Quote(marker) + `
echo "${__wd_m}pid:$$" >&2
__wd_h=${HOME-} __wd_p=${PATH-} __wd_ok=
if [ "${SHELL-}" = ` + shellword.Quote(shell) + ` ] && [ -z "${BASH_VERSION-}${ZSH_VERSION-}${KSH_VERSION-}${YASH_VERSION-}" ] && __wd_e=$(export -p); then
__wd_ok=1
while IFS= read -r __wd_l; do
case $__wd_l in
'export '*) __wd_l=${__wd_l#export } ;;
*) continue ;;
esac
__wd_l=${__wd_l%%=*}
case $__wd_l in
''|PWD|HOME|*[!A-Za-z0-9_]*) continue ;;
esac
command unset "$__wd_l" 2>/dev/null || __wd_ok=
done <<__wd_EOF
$__wd_e
__wd_EOF
fi
IFS= read -r __wd_n || exit 125
case $__wd_n in ''|*[!0-9]*) exit 125 ;; esac
__wd_s=
while [ "$__wd_n" -gt 0 ] && IFS= read -r __wd_l; do
__wd_s="$__wd_s$__wd_l
"
__wd_n=$((__wd_n - 1))
done
[ "$__wd_n" = 0 ] || exit 125
echo "${__wd_m}go" >&2
eval "$__wd_s"`
}

// frame is script as stub reads it.
func frame(script string) []byte {
	return []byte(strconv.Itoa(strings.Count(script, "\n")+1) + "\n" + script + "\n")
}

// command builds the script stub evals for req. It changes directory,
// checks the program exists (reporting "nodir" or "noprog"), and then
//
//	exec env -i KEY=VALUE… <argv…>
//
// so the command gets exactly Request.Env and keeps the session's process
// group. A script for "sh -c" runs under the host's configured shell, an
// absolute path, since some firmware's sh on PATH is not a shell.
//
// When the request is "<shell> -c SCRIPT" with a PATH in Request.Env (as
// every request from the relay has) and stub cleared the environment
// (__wd_ok), the login shell runs SCRIPT itself: it drops stub's
// variables, exports Request.Env and evals SCRIPT, which saves the two
// execs of env and a second shell. The environment is exactly Request.Env
// either way, plus the login's HOME when keepHome and Env names none: a
// remote login's home is only known there.
func command(shell string, req runner.Request, keepHome bool) (script, prog string, err error) {
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

	var s strings.Builder
	if req.Dir != "" {
		fmt.Fprintf(&s, "cd -- %s 2>/dev/null || { echo \"${__wd_m}nodir\" >&2; exit 127; }\n", shellword.Quote(req.Dir))
	}
	q := shellword.Quote(argv[0])
	if strings.Contains(argv[0], "/") {
		fmt.Fprintf(&s, "[ -f %s ] && [ -x %s ]", q, q)
	} else {
		fmt.Fprintf(&s, "PATH=%s; command -v -- %s >/dev/null 2>&1", shellword.Quote(path), q)
	}
	s.WriteString(" || { echo \"${__wd_m}noprog\" >&2; exit 127; }\n")
	keepLoginHome := keepHome && !hasHome
	// Without a PATH in Env a fresh shell falls back to its own default
	// search path, which an unset PATH in a running shell does not.
	fast := hasPath && len(argv) == 3 && argv[0] == shell && argv[1] == "-c"
	if fast {
		s.WriteString("if [ -n \"$__wd_ok\" ]; then\nunset __wd_m __wd_h __wd_p __wd_ok __wd_e __wd_l __wd_n __wd_s")
		if !keepLoginHome {
			s.WriteString(" HOME")
		}
		s.WriteString("\n")
		if len(req.Env) > 0 {
			s.WriteString("export")
			for _, kv := range req.Env {
				s.WriteString(" " + shellword.Quote(kv))
			}
			s.WriteString("\n")
		}
		s.WriteString("eval " + shellword.Quote(argv[2]) + "\nelse\n")
	}
	// env is found in the login's PATH, as a fresh login would find it.
	s.WriteString("PATH=$__wd_p; exec env -i")
	if keepLoginHome {
		s.WriteString(` HOME="$__wd_h"`)
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

// report is what the script told the runner on stderr.
type report struct {
	mu     sync.Mutex
	pid    int
	pidSet chan struct{}
	noDir  bool
	noProg bool
	// started is set when the stub has the whole script: from then on
	// the command may have run.
	started bool
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
	case s == "go":
		r.started = true
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
// stub and script write, each starting with the session's random marker.
// Until the stub reports "go" the command has not started, so a report
// may follow anything the login shell's startup files printed, even on the
// same line. After it, only the lines that come first are reports (the
// script's, before the command starts), so nothing the command prints is
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
	var pass []byte
	for !f.through && len(f.buf) > 0 {
		if !f.started() {
			i := bytes.Index(f.buf, f.marker)
			if i < 0 {
				// Keep what may be the start of a marker.
				keep := min(len(f.buf), len(f.marker)-1)
				pass = append(pass, f.buf[:len(f.buf)-keep]...)
				f.buf = f.buf[len(f.buf)-keep:]
				break
			}
			pass = append(pass, f.buf[:i]...)
			f.buf = f.buf[i:]
		} else {
			n := min(len(f.buf), len(f.marker))
			if !bytes.Equal(f.buf[:n], f.marker[:n]) {
				f.through = true
				break
			}
		}
		i := bytes.IndexByte(f.buf, '\n')
		if i < 0 {
			if len(f.buf) > maxReportLine {
				f.through = true
			}
			break
		}
		if i < len(f.marker) {
			f.through = true
			break
		}
		f.rep.line(string(f.buf[len(f.marker):i]))
		f.buf = f.buf[i+1:]
	}
	if f.through {
		pass = append(pass, f.buf...)
		f.buf = nil
	}
	if len(pass) > 0 {
		if _, err := f.w.Write(pass); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// flush passes on what is still held back, at the end of the stream.
func (f *stderrFilter) flush() {
	if len(f.buf) > 0 {
		_, _ = f.w.Write(f.buf)
		f.buf = nil
	}
}

func (f *stderrFilter) started() bool {
	f.rep.mu.Lock()
	defer f.rep.mu.Unlock()
	return f.rep.started
}
