package confine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Landlock access rights warden grants, by what they are for.
const (
	readRights = ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSReadDir
	// fileRights are the rights a rule on a file (not a directory) may hold.
	fileRights = ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile |
		ll.AccessFSTruncate | ll.AccessFSIoctlDev
	deviceRights = ll.AccessFSReadFile | ll.AccessFSWriteFile | ll.AccessFSIoctlDev
)

// devices are the character devices every program may read and write:
// what a shell needs, and nothing that stores data.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// fsRights is every file-system right Landlock ABI abi knows.
func fsRights(abi int) uint64 {
	switch {
	case abi >= 5:
		return (1 << 16) - 1
	case abi >= 3:
		return (1 << 15) - 1
	case abi == 2:
		return (1 << 14) - 1
	default:
		return (1 << 13) - 1
	}
}

// watched is a directory whose entries a ruleset enumerated: a new entry
// in it is not covered until the ruleset is built again.
type watched struct {
	path  string
	mtime time.Time
	ino   uint64
}

// changed reports whether w's directory gained or lost entries since.
func (w watched) changed() bool {
	var st unix.Stat_t
	if err := unix.Stat(w.path, &st); err != nil {
		return true
	}
	return st.Ino != w.ino || !time.Unix(st.Mtim.Unix()).Equal(w.mtime)
}

// ruleset is a Landlock ruleset being built.
type ruleset struct {
	fd      int
	abi     int
	all     uint64 // every handled file-system right
	protect []string
	// covered is set when a mount namespace covers each protected path
	// that exists with a mount of its own, and makes each directory above
	// one a mount point too (see Confiner.mounts): a mount point cannot be
	// removed, renamed or replaced, reading or writing a mask reaches only
	// the empty mount, and nothing can be created inside one. A directory
	// above them then gets every right the tree grants, as if nothing
	// were protected, where that tree may be written.
	covered bool
	// uncovered are protected paths no mount covers: those that do not
	// exist and the directories warden adds its files to over time. They
	// and the directories above them get only the right to list them.
	uncovered []string
	watch     []watched
	seen      map[string]bool
}

// newRuleset creates a ruleset handling every file-system right of abi,
// TCP when noNet, and, when scoped (below tier 2), signals and abstract
// Unix sockets: a program may signal, or connect to an abstract socket
// of, only programs in its own domain. Scoped programs may bind a TCP
// socket only to a port the kernel picks (port 0): a program that binds
// a chosen port takes it from the service that listens there next (a
// database restarting, sshd after an upgrade) and answers its clients
// in its place, which no read needs.
func newRuleset(abi int, protect []string, noNet, scoped bool) (*ruleset, error) {
	attr := ll.RulesetAttr{HandledAccessFS: fsRights(abi)}
	if noNet {
		attr.HandledAccessNet = ll.AccessNetBindTCP | ll.AccessNetConnectTCP
	} else if scoped && abi >= 4 {
		attr.HandledAccessNet = ll.AccessNetBindTCP
	}
	if scoped && abi >= 6 {
		attr.Scoped = ll.ScopeSignal | ll.ScopeAbstractUnixSocket
	}
	fd, err := ll.LandlockCreateRuleset(&attr, 0)
	if err != nil {
		return nil, fmt.Errorf("landlock ruleset: %w", err)
	}
	if !noNet && attr.HandledAccessNet != 0 {
		if err := ll.LandlockAddNetPortRule(fd, &ll.NetPortAttr{AllowedAccess: ll.AccessNetBindTCP, Port: 0}, 0); err != nil {
			unix.Close(fd)
			return nil, fmt.Errorf("landlock port rule: %w", err)
		}
	}
	r := &ruleset{fd: fd, abi: abi, all: attr.HandledAccessFS, protect: protect, seen: map[string]bool{}}
	for _, p := range protect {
		if _, err := os.Lstat(p); err != nil {
			r.uncovered = append(r.uncovered, p)
		}
	}
	return r, nil
}

func (r *ruleset) close() { unix.Close(r.fd) }

// kind is what a directory's listing says an entry is, so that it need
// not be asked: a mount point is listed by the file system it is mounted
// on, and asking the mounted one for its attributes waits in the kernel
// when that file system's server does not answer (a hard NFS mount, a
// stopped FUSE daemon) — which would keep every program from starting.
type kind int

const (
	kindUnknown kind = iota
	kindDir
	kindOther
)

// add grants rights beneath path (a file gets only file rights); k is
// what path is, when known. A path that does not exist is skipped.
func (r *ruleset) add(path string, rights uint64, k kind) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.EACCES) || errors.Is(err, unix.ELOOP) {
			return nil
		}
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer unix.Close(fd)
	if k == kindUnknown {
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return fmt.Errorf("stat %s: %w", path, err)
		}
		if k = kindOther; st.Mode&unix.S_IFMT == unix.S_IFDIR {
			k = kindDir
		}
	}
	rights &= r.all
	if k != kindDir {
		rights &= fileRights
	}
	if rights == 0 {
		return nil
	}
	err = ll.LandlockAddPathBeneathRule(r.fd, &ll.PathBeneathAttr{AllowedAccess: rights, ParentFd: fd}, 0)
	if errors.Is(err, unix.EINVAL) && k == kindDir && rights&^fileRights != 0 {
		// Directory rights on what is no longer a directory: the entry
		// was replaced since its directory was listed. It gets what a
		// file gets.
		err = ll.LandlockAddPathBeneathRule(r.fd, &ll.PathBeneathAttr{AllowedAccess: rights & fileRights, ParentFd: fd}, 0)
	}
	if err != nil {
		return fmt.Errorf("landlock rule on %s: %w", path, err)
	}
	return nil
}

// tree grants rights on root and everything beneath it except the
// protected paths: a directory with a protected path beneath it gets only
// the right to list it (when covered, every right), and each of its
// entries is granted in turn (Landlock rules reach everything beneath the
// directory they name, so the grant must stop above a protected path).
func (r *ruleset) tree(root string, rights uint64) error {
	return r.walk(root, rights, 0, kindUnknown)
}

// maxWalkDepth bounds the descent toward a protected path.
const maxWalkDepth = 64

func (r *ruleset) walk(dir string, rights uint64, depth int, k kind) error {
	if depth > maxWalkDepth {
		return fmt.Errorf("protected path too deep below %s", dir)
	}
	above := false
	for _, p := range r.protect {
		if within(dir, p) {
			return nil // dir is protected
		}
		if within(p, dir) {
			above = true
		}
	}
	if !above {
		return r.add(dir, rights, k)
	}
	key := fmt.Sprintf("%s\x00%d", dir, rights)
	if r.seen[key] {
		return nil
	}
	r.seen[key] = true
	// Only where programs may write: a file that replaces one of warden's
	// by a rename is covered for programs started after the change, and
	// a read-only session may run for hours.
	own := uint64(ll.AccessFSReadDir)
	if r.covered && rights&ll.AccessFSMakeReg != 0 && !slices.ContainsFunc(r.uncovered, func(p string) bool { return within(p, dir) }) {
		own = r.all
	}
	if err := r.add(dir, rights&own, kindDir); err != nil {
		return err
	}
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		return nil // gone: nothing beneath to grant
	}
	r.watch = append(r.watch, watched{path: dir, mtime: time.Unix(st.Mtim.Unix()), ino: st.Ino})
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // unreadable by warden: nothing to grant
	}
	for _, e := range entries {
		if e.Type()&os.ModeSymlink != 0 {
			continue // the path it names is granted where it really is
		}
		k := kindOther
		if e.IsDir() {
			k = kindDir
		}
		if err := r.walk(filepath.Join(dir, e.Name()), rights, depth+1, k); err != nil {
			return err
		}
	}
	return nil
}
