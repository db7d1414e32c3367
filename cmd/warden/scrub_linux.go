package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/warden-mcp/warden/internal/confine"
)

// envFD names the descriptor that carries warden's real environment into
// the re-executed process.
const envFD = "WARDEN_ENV_FD"

// scrubEnvironment keeps secrets out of /proc/PID/environ, which shows the
// environment a process was started with whatever it changes later: warden
// re-executes itself once with an environment that names only a memory
// file holding the real one, which the new process reads back and closes.
// It also makes warden non-dumpable, so that no program of its user can
// read its /proc files or trace it. Failures leave warden running as it
// was, with a warning.
func scrubEnvironment() {
	if err := confine.HideProcess(); err != nil {
		fmt.Fprintf(os.Stderr, "warden: cannot make the process non-dumpable: %v\n", err)
	}
	if v, ok := os.LookupEnv(envFD); ok {
		if err := restoreEnvironment(v); err != nil {
			fmt.Fprintf(os.Stderr, "warden: %v\n", err)
			os.Exit(1)
		}
		return
	}
	env := os.Environ()
	if len(env) == 0 {
		return
	}
	fd, err := unix.MemfdCreate("warden-env", 0) // no CLOEXEC: it must survive the exec
	if err != nil {
		fmt.Fprintf(os.Stderr, "warden: environment not scrubbed (memfd: %v)\n", err)
		return
	}
	var b bytes.Buffer
	for _, kv := range env {
		b.WriteString(kv)
		b.WriteByte(0)
	}
	if _, err := unix.Write(fd, b.Bytes()); err != nil {
		unix.Close(fd)
		fmt.Fprintf(os.Stderr, "warden: environment not scrubbed (write: %v)\n", err)
		return
	}
	err = syscall.Exec("/proc/self/exe", os.Args, []string{envFD + "=" + strconv.Itoa(fd)})
	unix.Close(fd)
	fmt.Fprintf(os.Stderr, "warden: environment not scrubbed (exec: %v)\n", err)
}

// restoreEnvironment reads the environment back from descriptor v.
func restoreEnvironment(v string) error {
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return fmt.Errorf("%s=%q is not a descriptor warden passed itself", envFD, v)
	}
	f := os.NewFile(uintptr(fd), "warden-env")
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("%s: %w", envFD, err)
	}
	buf := make([]byte, st.Size)
	if _, err := f.ReadAt(buf, 0); err != nil {
		return fmt.Errorf("%s: read: %w", envFD, err)
	}
	os.Clearenv()
	for _, kv := range bytes.Split(buf, []byte{0}) {
		if k, val, ok := bytes.Cut(kv, []byte{'='}); ok && len(k) > 0 {
			os.Setenv(string(k), string(val))
		}
	}
	return nil
}
