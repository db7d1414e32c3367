package landlock

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"github.com/warden-mcp/warden/internal/runner"
)

// MinABI is the Landlock ABI the runner needs: 1 for files; networking off
// needs NetABI.
const (
	MinABI = 1
	NetABI = 4
)

// Available reports why the runner cannot confine here, or nil: Landlock
// must be enabled, and networking off needs TCP restrictions (ABI 4).
func Available(allowNetworking bool) error {
	abi, err := llsys.LandlockGetABIVersion()
	if err != nil || abi < MinABI {
		return fmt.Errorf("landlock is not enabled in this kernel (%v)", err)
	}
	if !allowNetworking && abi < NetABI {
		return fmt.Errorf("landlock ABI %d cannot restrict networking (needs %d)", abi, NetABI)
	}
	return nil
}

// Helper restricts the process and executes the command: args are the
// JSON options, "--" and the command's argv. It returns only on failure,
// with exit status 126 and nothing run.
func Helper(args []string, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "warden landlock: %v; nothing was run\n", err)
		return 126
	}
	if len(args) < 3 || args[1] != "--" {
		return fail(errors.New("usage: " + HelperArg + " OPTIONS -- ARGV…"))
	}
	var o Options
	if err := json.Unmarshal([]byte(args[0]), &o); err != nil {
		return fail(fmt.Errorf("options: %w", err))
	}
	argv := args[2:]
	path, err := runner.LookPath(argv[0], os.Environ())
	if err != nil {
		return fail(err)
	}
	if err := Available(o.AllowNetworking); err != nil {
		return fail(err)
	}
	// The namespace belongs to this thread, which is the one that execs.
	runtime.LockOSThread()
	if !o.AllowNetworking && os.Geteuid() == 0 {
		if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
			return fail(fmt.Errorf("network namespace: %w", err))
		}
	}
	if err := restrict(o); err != nil {
		return fail(err)
	}
	err = syscall.Exec(path, argv, os.Environ())
	return fail(fmt.Errorf("exec %q: %w", path, err))
}

// restrict applies the ruleset to every thread of the process.
func restrict(o Options) error {
	read := append([]string(nil), systemDirs...)
	if o.AllowUserFolders {
		read = append(read, userDirs...)
	}
	read = append(read, o.ReadFolders...)
	hide := runner.RealPaths(o.Hide)
	ro, rw := around(read, hide), around(o.WriteFolders, hide)
	listOnly := landlock.AccessFSSet(llsys.AccessFSReadDir)
	rules := []landlock.Rule{
		landlock.RODirs(ro.whole...).IgnoreIfMissing(),
		landlock.RWFiles("/dev/null").IgnoreIfMissing(),
		landlock.ROFiles("/dev/zero", "/dev/urandom", "/dev/random").IgnoreIfMissing(),
	}
	for _, r := range []struct {
		paths []string
		rule  func(...string) landlock.FSRule
	}{
		{ro.listed, func(p ...string) landlock.FSRule { return landlock.PathAccess(listOnly, p...) }},
		{ro.files, landlock.ROFiles},
		{keepOut(o.ReadFiles, hide), landlock.ROFiles},
		{rw.whole, landlock.RWDirs},
		{rw.listed, func(p ...string) landlock.FSRule { return landlock.PathAccess(listOnly, p...) }},
		{rw.files, landlock.RWFiles},
		{keepOut(o.WriteFiles, hide), landlock.RWFiles},
	} {
		if len(r.paths) > 0 {
			rules = append(rules, r.rule(r.paths...).IgnoreIfMissing())
		}
	}
	if err := landlock.V5.BestEffort().RestrictPaths(rules...); err != nil {
		return fmt.Errorf("restrict paths: %w", err)
	}
	if !o.AllowNetworking {
		// Strict: no silent downgrade of networking off.
		if err := landlock.V4.RestrictNet(); err != nil {
			return fmt.Errorf("restrict network: %w", err)
		}
	}
	if err := landlock.V6.BestEffort().RestrictScoped(); err != nil {
		return fmt.Errorf("restrict scopes: %w", err)
	}
	return nil
}
