package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/warden-mcp/warden/internal/relay"
)

// ActivityFile is the file in the state dir where a warden serving with an
// idle exit says when it was last used, for a watchdog outside it (a
// systemd timer, a NAS task, a compose healthcheck) to read: the content
// is one JSON object and the file's modification time is the last
// activity too, so "find -mmin" works. Several processes sharing a state
// dir overwrite each other's: the file is its newest writer's.
const ActivityFile = "last_activity"

// activityRecord is the file's content.
type activityRecord struct {
	// LastActivity is when a call last started or ended (RFC 3339, UTC).
	LastActivity time.Time `json:"last_activity"`
	InFlight     int       `json:"in_flight"`
	IdleExitS    float64   `json:"idle_exit_s"`
	PID          int       `json:"pid"`
	// State is serving, or stopped once warden has shut down.
	State string `json:"state"`
}

// activityStopWait bounds how long shutdown waits on the file's final
// write.
const activityStopWait = 5 * time.Second

// keepActivityFile rewrites the activity file whenever the activity
// changes, checking every second, until ctx ends; then it writes it once
// more as stopped. Writes are atomic (a temporary file renamed over it);
// a failed write is logged, never fatal.
func keepActivityFile(ctx context.Context, dir string, a *relay.Activity, idle time.Duration, log *slog.Logger) {
	path := filepath.Join(dir, ActivityFile)
	var wrote time.Time
	wroteN := -1
	write := func(state string) {
		last, n := a.Last()
		if state == "serving" && last.Equal(wrote) && n == wroteN {
			return
		}
		if err := writeActivity(path, activityRecord{LastActivity: last.UTC(), InFlight: n, IdleExitS: idle.Seconds(), PID: os.Getpid(), State: state}); err != nil {
			log.Warn("last_activity file", "path", path, "err", err)
			return
		}
		wrote, wroteN = last, n
	}
	write("serving")
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			write("stopped")
			return
		case <-tick.C:
			write("serving")
		}
	}
}

func writeActivity(path string, r activityRecord) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".last_activity-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(append(b, '\n'))
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		if werr != nil {
			return werr
		}
		return cerr
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if !r.LastActivity.IsZero() {
		_ = os.Chtimes(tmp.Name(), r.LastActivity, r.LastActivity)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
