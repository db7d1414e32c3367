package agent

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// reapSession kills every process of this user still in the session of
// a dead agent. An agent started by sshd leads a session of its own, and
// the commands it runs stay in it (each in its own process group), so
// what an agent killed with SIGKILL left behind is exactly that session's
// processes. The kernel allocates no new process ID equal to a session ID
// still in use, so no other program is hit.
func reapSession(sid int) (int, error) {
	if sid <= 1 || sid == os.Getpid() {
		return 0, fmt.Errorf("agent: %d is not a dead agent's session", sid)
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, fmt.Errorf("agent: reaping needs /proc: %w", err)
	}
	n := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if s, ok := sessionOf(pid); ok && s == sid {
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				n++
			}
		}
	}
	return n, nil
}

// sessionOf reads a process's session ID from /proc/PID/stat.
func sessionOf(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	// After the command: state, ppid, pgrp, session.
	f := strings.Fields(s[i+1:])
	if len(f) < 4 {
		return 0, false
	}
	sid, err := strconv.Atoi(f[3])
	return sid, err == nil
}

// Reap has the agent kill what a dead agent of the same host, whose
// process ID was pid, left running; it returns how many processes it
// killed.
func (c *Client) Reap(ctx context.Context, pid int) (int, error) {
	r, err := c.do(ctx, call{Op: opReap, PID: pid})
	return r.Reaped, err
}
