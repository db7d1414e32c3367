package sshstart

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/warden-mcp/warden/internal/session"
)

// A program that ignores Ctrl-C or reads keys raw still holds the terminal
// after it, and takes what is typed next (session/foreground.go). The
// remote terminal's foreground is the far side's, so it is asked there,
// from a control session, as Signal finds it: field 8 (tpgid) of the
// session leader's /proc stat. The foreground's leader must be a shell at
// its prompt, the session's own or one typed into it, alone in its process
// group ("shared" when not: with job control off a shell runs its programs
// in its own group): its name, whether it runs the system's program of
// that name, its input and its arguments are reported for
// session.ShellAtPrompt to judge as it does locally. The
// session's own program counts only as such a shell: one started with a
// command (sh -c 'x; sh') runs x in its own process group, the foreground
// while x reads. A host without /proc cannot tell, and the answer is no.

// foregroundScript prints "fg N" for the session led by %[1]d, and what
// ShellAtPrompt needs of the foreground's leader, a line each: a
// newline in a name (a program or input file named "…\nsame") is dropped,
// so that no name adds a line of its own.
const foregroundScript = `p=%[1]d
s=$(cat /proc/$p/stat) || exit 1
s=${s##*")"}
set -- $s
fg=$6
echo "fg $fg"
for f in /proc/[0-9]*/stat; do
	[ "$f" = "/proc/$fg/stat" ] && continue
	l=
	# comm may hold a newline: the record is every line of the file.
	{ while IFS= read -r x; do l="$l $x"; done; l="$l $x"; } 2>/dev/null <"$f" || continue
	l=${l##*")"}
	set -- $l
	if [ "$3" = "$fg" ]; then echo shared; break; fi
done
c=$(tr -d '\n' < /proc/$fg/comm) || exit 0
echo "comm $c"
case $c in */*) ;; *)
	for d in /bin /usr/bin /usr/local/bin; do
		if [ /proc/$fg/exe -ef $d/$c ]; then echo same; break; fi
	done ;;
esac
echo "in $(readlink /proc/$fg/fd/0 | tr -d '\n')"
tr '\000' '\n' < /proc/$fg/cmdline | sed 1d | sed 's/^/arg /'
`

// Foreground reports what leads the remote terminal's foreground process
// group: a shell at its prompt, the session's program (the session
// leader, whose process group is its pid) or another. Where the far side
// cannot tell (no /proc), there is no shell, so that a send after Ctrl-C
// is not taken to reach the shell on trust.
func (p *process) Foreground() (session.Foreground, error) {
	if !p.pty {
		return session.Foreground{}, session.ErrNoTerminal
	}
	select {
	case <-p.done:
		return session.Foreground{}, session.ErrNotFound
	default:
	}
	pid, err := p.remotePid()
	if err != nil {
		return session.Foreground{}, err
	}
	out, err := p.controlOutput(fmt.Sprintf(foregroundScript, pid), 64<<10)
	if err != nil {
		return session.Foreground{}, nil
	}
	shell, fg := ownsForeground(out)
	return session.Foreground{Shell: shell, Own: shell && fg == pid, Group: fg}, nil
}

// ownsForeground reads foregroundScript's report out: whether the
// foreground's leader is a shell at its prompt, and the foreground.
func ownsForeground(out string) (bool, int) {
	fg, comm, in, same, shared := 0, "", "", false, false
	var args []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), " ")
		switch k {
		case "fg":
			fg, _ = strconv.Atoi(v)
		case "comm":
			comm = v
		case "same":
			same = true
		case "shared":
			shared = true
		case "in":
			in = v
		case "arg":
			args = append(args, v)
		}
	}
	if fg <= 0 {
		return false, 0
	}
	if shared {
		// Another process is in the foreground's group: the shell runs
		// its programs there with job control off (set +m).
		return false, fg
	}
	return session.ShellAtPrompt(comm, same, in, args), fg
}

// controlOutput runs a short sh script in a control session of the
// connection and returns what it printed, up to limit bytes. The login
// shell is given only "sh -s", which every shell runs alike, and sh reads
// the script on its input: given the script itself, a zsh login shell
// does not split "set -- $s" into words, and fish or csh read none of
// $(…), ${…##…} or case, so the foreground would never be known and
// session_signal's kill would miss.
func (p *process) controlOutput(script string, limit int64) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ch, reqs, release, err := p.lease.ControlChannel(ctx)
	if err != nil {
		return "", err
	}
	defer release()
	go ssh.DiscardRequests(reqs)
	defer ch.Close()
	ok, err := ch.SendRequest("exec", true, ssh.Marshal(struct{ Command string }{"sh -s"}))
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errors.New("exec request refused")
	}
	if _, err := io.WriteString(ch, script+"\n"); err != nil {
		return "", err
	}
	if err := ch.CloseWrite(); err != nil {
		return "", err
	}
	b, err := io.ReadAll(io.LimitReader(ch, limit))
	return string(b), err
}
