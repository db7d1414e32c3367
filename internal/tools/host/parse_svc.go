package host

import (
	"encoding/json"
	"regexp"
	"strings"
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

// parsePodmanPS reads podmanPSArgv output.
func parsePodmanPS(s string) ([]Container, error) {
	var v []struct {
		ID      string   `json:"Id"`
		Names   []string `json:"Names"`
		Image   string   `json:"Image"`
		State   string   `json:"State"`
		Status  string   `json:"Status"`
		Created string   `json:"CreatedAt"`
	}
	if strings.TrimSpace(s) == "" {
		return []Container{}, nil
	}
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, err
	}
	out := make([]Container, 0, len(v))
	for _, c := range v {
		out = append(out, Container{ID: c.ID, Name: strings.Join(c.Names, ","), Image: c.Image, State: c.State, Status: c.Status, Created: c.Created})
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
	Manager string `json:"manager" jsonschema:"systemd, openrc, sysv or unknown."`
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
		case "starting", "stopping":
			st.Active = "activating"
		}
		return st
	}
	st.Reason = "rc-service printed no status line (exit " + itoa(code) + ")"
	return st
}

// parseSysVStatus maps an LSB `service NAME status` exit code.
func parseSysVStatus(name, s string, code int) ServiceState {
	st := ServiceState{Name: name, Manager: "sysv", Exists: true, Sub: strings.TrimSpace(firstLine(s))}
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
		if strings.Contains(strings.ToLower(s), "unrecognized service") || strings.Contains(strings.ToLower(s), "not found") {
			st.Exists, st.Active, st.Reason = false, "inactive", "no init script for "+name
		}
	}
	return st
}

// initArgv tells which service manager runs the target.
var initArgv = []string{"sh", "-c", "if [ -d /run/systemd/system ]; then echo systemd; " +
	"elif command -v rc-service >/dev/null 2>&1; then echo openrc; " +
	"elif command -v service >/dev/null 2>&1; then echo sysv; else echo unknown; fi"}
