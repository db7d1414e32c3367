package host

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/warden-mcp/warden/internal/command"
)

// Container is one container as the runtime lists it.
type Container struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Image   string `json:"image"`
	State   string `json:"state"`
	Status  string `json:"status"`
	Created string `json:"created,omitempty"`
	Ports   string `json:"ports,omitempty"`
}

// dockerPSArgv lists every container, one JSON object per line.
var dockerPSArgv = []string{"docker", "ps", "-a", "--no-trunc", "--format", "{{json .}}"}

// podmanPSArgv lists every container as one JSON array.
var podmanPSArgv = []string{"podman", "ps", "-a", "--format", "json"}

// parseDockerPS reads dockerPSArgv output.
func parseDockerPS(s string) ([]Container, error) {
	out := []Container{}
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		var v struct {
			ID, Names, Image, State, Status, CreatedAt, Ports string
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			return nil, err
		}
		out = append(out, Container{ID: v.ID, Name: v.Names, Image: v.Image, State: v.State, Status: v.Status, Created: v.CreatedAt, Ports: v.Ports})
	}
	return out, nil
}

// parsePodmanPS reads podmanPSArgv output. Podman's CreatedAt is relative
// ("3 seconds ago"); Created, in Unix seconds, is printed in the layout of
// docker's CreatedAt instead.
func parsePodmanPS(s string) ([]Container, error) {
	var v []struct {
		ID        string          `json:"Id"`
		Names     []string        `json:"Names"`
		Image     string          `json:"Image"`
		State     string          `json:"State"`
		Status    string          `json:"Status"`
		Created   json.RawMessage `json:"Created"`
		CreatedAt string          `json:"CreatedAt"`
	}
	if strings.TrimSpace(s) == "" {
		return []Container{}, nil
	}
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, err
	}
	out := make([]Container, 0, len(v))
	for _, c := range v {
		created := c.CreatedAt
		if secs, err := strconv.ParseInt(string(c.Created), 10, 64); err == nil && secs > 0 {
			created = time.Unix(secs, 0).UTC().Format("2006-01-02 15:04:05 -0700 MST")
		}
		out = append(out, Container{ID: c.ID, Name: strings.Join(c.Names, ","), Image: c.Image, State: c.State, Status: c.Status, Created: created})
	}
	return out, nil
}

// Container and service names are checked before they reach argv; both
// patterns refuse a leading "-" so no name is read as an option.
var (
	containerNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$`)
	serviceNameRE   = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9@._:+\\-]{0,127}$`)
	sinceRE         = regexp.MustCompile(`^(?:[0-9]{1,6}[smhd]|[0-9]{4}-[0-9]{2}-[0-9]{2}(?:T[0-9]{2}:[0-9]{2}(?::[0-9]{2})?(?:Z|[+-][0-9]{2}:[0-9]{2})?)?|[0-9]{9,11})$`)
)

// ServiceState is a service as its manager reports it.
type ServiceState struct {
	Name    string `json:"name"`
	Manager string `json:"manager" jsonschema:"systemd, openrc, sysv, busybox or unknown."`
	// Exists is false when the manager does not know the service.
	Exists bool `json:"exists"`
	// Active is active, inactive, failed, activating … or unknown.
	Active      string `json:"active"`
	Sub         string `json:"sub,omitempty"`
	Enabled     string `json:"enabled,omitempty"`
	Description string `json:"description,omitempty"`
	MainPID     string `json:"main_pid,omitempty"`
	Since       string `json:"since,omitempty"`
	Restarts    string `json:"restarts,omitempty"`
	Result      string `json:"result,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

// systemctlShowArgv asks systemd about one unit.
func systemctlShowArgv(unit string) []string {
	return []string{"systemctl", "show", "--no-pager",
		"--property=Id,LoadState,ActiveState,SubState,UnitFileState,Description,MainPID,ActiveEnterTimestamp,NRestarts,Result",
		"--", unit}
}

// parseSystemctlShow reads `systemctl show` KEY=value output.
func parseSystemctlShow(name, s string) ServiceState {
	kv := map[string]string{}
	for _, l := range strings.Split(s, "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			kv[k] = strings.TrimSpace(v)
		}
	}
	st := ServiceState{Name: name, Manager: "systemd", Active: Unknown}
	if kv["LoadState"] == "" {
		st.Reason = "systemctl show printed no LoadState"
		return st
	}
	st.Exists = kv["LoadState"] != "not-found"
	if !st.Exists {
		st.Active = "inactive"
		st.Reason = "systemd has no unit " + name
		return st
	}
	st.Active, st.Sub, st.Enabled, st.Description = kv["ActiveState"], kv["SubState"], kv["UnitFileState"], kv["Description"]
	if kv["MainPID"] != "0" {
		st.MainPID = kv["MainPID"]
	}
	st.Since, st.Restarts, st.Result = kv["ActiveEnterTimestamp"], kv["NRestarts"], kv["Result"]
	if st.Active == "" {
		st.Active = Unknown
	}
	return st
}

// parseOpenRCStatus reads `rc-service NAME status` (" * status: started").
func parseOpenRCStatus(name, s string, code int) ServiceState {
	st := ServiceState{Name: name, Manager: "openrc", Active: Unknown, Exists: true}
	low := strings.ToLower(s)
	if strings.Contains(low, "does not exist") {
		st.Exists, st.Active, st.Reason = false, "inactive", "openrc has no service "+name
		return st
	}
	if i := strings.Index(low, "status:"); i >= 0 {
		st.Sub = strings.TrimSpace(strings.SplitN(low[i+len("status:"):], "\n", 2)[0])
		switch st.Sub {
		case "started":
			st.Active = "active"
		case "stopped":
			st.Active = "inactive"
		case "crashed":
			st.Active = "failed"
		case "starting":
			st.Active = "activating"
		case "stopping":
			st.Active = "deactivating"
		}
		return st
	}
	st.Reason = "rc-service printed no status line (exit " + itoa(code) + ")"
	return st
}

// parseSysVStatus maps an LSB `service NAME status` exit code. A name with
// no init script is told by its message first: Debian's service(8) prints
// "NAME: unrecognized service" and exits 1, the code LSB gives a dead
// daemon whose pid file remains.
func parseSysVStatus(name, s string, code int) ServiceState {
	st := ServiceState{Name: name, Manager: "sysv", Exists: true, Sub: strings.TrimSpace(command.FirstLine(s))}
	if low := strings.ToLower(s); code != 0 && (strings.Contains(low, "unrecognized service") || strings.Contains(low, "not found")) {
		st.Exists, st.Active, st.Reason = false, "inactive", "no init script for "+name
		return st
	}
	switch code {
	case 0:
		st.Active = "active"
	case 1, 2:
		st.Active = "failed"
		st.Reason = "not running, but a pid or lock file remains"
	case 3:
		st.Active = "inactive"
	default:
		st.Active = Unknown
		st.Reason = "service status exited " + itoa(code)
	}
	return st
}

// initArgv tells which service manager runs the target. BusyBox init is
// told by PID 1's executable being busybox under the name init (or
// linuxrc); where /proc/1/exe cannot be read (not root) /sbin/init
// resolving to busybox stands in. Systemd and OpenRC come first: Alpine
// boots BusyBox init, but OpenRC manages its services.
var initArgv = []string{"sh", "-c", "b=; if e=$(readlink /proc/1/exe 2>/dev/null); then " +
	"case \"$e\" in */busybox) case \"$(cat /proc/1/comm 2>/dev/null)\" in init|linuxrc) b=1;; esac;; esac; " +
	"else case \"$(readlink -f /sbin/init 2>/dev/null)\" in */busybox) b=1;; esac; fi; " +
	"if [ -d /run/systemd/system ]; then echo systemd; " +
	"elif command -v rc-service >/dev/null 2>&1; then echo openrc; " +
	"elif [ -n \"$b\" ]; then echo busybox; " +
	"elif command -v service >/dev/null 2>&1; then echo sysv; else echo unknown; fi"}

// busyboxStatusArgv gathers what a BusyBox init system can tell about a
// service without running anything of it: its init script (/etc/init.d/NAME
// or the S??NAME of rcS), an inittab entry naming it, and the processes
// named after it. The name is a positional parameter, never shell text.
// Init scripts are not run with "status": under BusyBox init they follow no
// convention, and many treat an unknown action as start.
func busyboxStatusArgv(name string) []string {
	return []string{"sh", "-c", "s=; for f in /etc/init.d/\"$1\" /etc/init.d/S[0-9][0-9]\"$1\"; do " +
		"if [ -f \"$f\" ]; then s=$f; break; fi; done; echo \"script=$s\"; " +
		"i=; if [ -f /etc/inittab ] && grep -v '^#' /etc/inittab | grep -Fqw \"$1\"; then i=1; fi; echo \"inittab=$i\"; " +
		"echo \"pids=$(pidof \"$1\")\"", "sh", name}
}

// parseBusyBoxStatus reads busyboxStatusArgv's output. BusyBox init has no
// service manager, so a service is active only in the sense that a process
// of its name runs; without one the state is unknown, not inactive, since
// the daemon may run under another name.
func parseBusyBoxStatus(name, s string) ServiceState {
	kv := map[string]string{}
	for _, l := range strings.Split(s, "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			kv[k] = strings.TrimSpace(v)
		}
	}
	st := ServiceState{Name: name, Manager: "busybox", Active: Unknown}
	script, inittab, pids := kv["script"], kv["inittab"] != "", strings.Fields(kv["pids"])
	var found []string
	if script != "" {
		found = append(found, "init script "+script)
	}
	if inittab {
		found = append(found, "an /etc/inittab entry naming it")
	}
	st.Exists = len(found) > 0 || len(pids) > 0
	const noManager = "BusyBox init has no service manager to ask; "
	switch {
	case len(pids) > 0:
		st.Active, st.Sub = "active", "running"
		st.MainPID = lowestPID(pids)
		st.Reason = noManager + "a process named " + name + " runs (pidof)"
	case st.Exists:
		st.Reason = noManager + "no process is named " + name + ", but the daemon may run under another name"
	default:
		st.Reason = noManager + "no init script, inittab entry or process named " + name
	}
	if len(found) > 0 {
		st.Reason += "; found " + strings.Join(found, " and ")
	}
	return st
}

// lowestPID returns the smallest of pids, normally the parent that started
// any workers of the same name.
func lowestPID(pids []string) string {
	low, lowN := "", 0
	for _, p := range pids {
		if n, err := strconv.Atoi(p); err == nil && (low == "" || n < lowN) {
			low, lowN = p, n
		}
	}
	return low
}
