package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// processTree describes pid's descendants for a failure message: state,
// process group, the terminal's foreground group, what each waits in, its
// command line, and the modes of the terminal a process holds. A session
// that stops answering shows there whether its shell waits, is stopped or
// is gone.
func processTree(pid int) string {
	children := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if f := procStat(p); len(f) > 2 {
			pp, _ := strconv.Atoi(f[1])
			children[pp] = append(children[pp], p)
		}
	}
	var b strings.Builder
	var walk func(p, depth int)
	walk = func(p, depth int) {
		f := procStat(p)
		if len(f) < 6 {
			return
		}
		wchan, _ := os.ReadFile(fmt.Sprintf("/proc/%d/wchan", p))
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
		// stat after the command: state, ppid, pgrp, session, tty, tpgid.
		fmt.Fprintf(&b, "%s%d state=%s pgrp=%s tpgid=%s wchan=%s %q\n", strings.Repeat("  ", depth), p, f[0], f[2], f[5], wchan, strings.ReplaceAll(strings.TrimRight(string(cmdline), "\x00"), "\x00", " "))
		if f[4] != "0" && depth > 0 {
			if tty, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/0", p)); err == nil && strings.HasPrefix(tty, "/dev/pts/") {
				out, _ := exec.Command("stty", "-a", "-F", tty).CombinedOutput()
				fmt.Fprintf(&b, "%s  %s: %s\n", strings.Repeat("  ", depth), tty, strings.ReplaceAll(strings.TrimSpace(string(out)), "\n", " "))
			}
		}
		for _, c := range children[p] {
			walk(c, depth+1)
		}
	}
	walk(pid, 0)
	return b.String()
}

// procStat is /proc/pid/stat's fields after the command's name.
func procStat(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(s[i+1:])
}

// recordingTail is the last n bytes of a session's recording.
func recordingTail(state, id string, n int) string {
	b, err := os.ReadFile(filepath.Join(state, "recordings", id+".cast"))
	if err != nil {
		return err.Error()
	}
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
