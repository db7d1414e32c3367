package packs

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// parseKV reads DSM's KEY="value" files (/etc.defaults/VERSION,
// /etc/synoinfo.conf); a later key wins, as DSM's own get_key_value does.
func parseKV(s string) map[string]string {
	m := map[string]string{}
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok || strings.ContainsAny(k, " \t") {
			continue
		}
		m[k] = strings.Trim(strings.TrimSpace(v), `"`)
	}
	return m
}

// DSMVersion is the installed DSM, from /etc.defaults/VERSION.
type DSMVersion struct {
	OS        string `json:"os"`
	Version   string `json:"version"`
	Build     string `json:"build"`
	Update    string `json:"update" jsonschema:"The Update N of DSM x.y.z-BUILD Update N (smallfixnumber)."`
	BuildDate string `json:"build_date,omitempty"`
	// Display is how DSM names it: DSM 7.2.1-69057 Update 5.
	Display string `json:"display"`
}

func parseDSMVersion(s string) (DSMVersion, bool) {
	kv := parseKV(s)
	v := DSMVersion{OS: kv["os_name"], Version: kv["productversion"], Build: kv["buildnumber"], Update: kv["smallfixnumber"], BuildDate: kv["builddate"]}
	if v.OS == "" {
		v.OS = "DSM"
	}
	if v.Version == "" && kv["majorversion"] != "" {
		v.Version = kv["majorversion"] + "." + kv["minorversion"]
	}
	if v.Version == "" || v.Build == "" {
		return DSMVersion{}, false
	}
	v.Display = v.OS + " " + v.Version + "-" + v.Build
	if v.Update != "" && v.Update != "0" {
		v.Display += " Update " + v.Update
	}
	return v, true
}

// UpdateCheck is one update question and its answer.
type UpdateCheck struct {
	// Available is yes, no or unknown.
	Available string `json:"available"`
	Reason    string `json:"reason,omitempty"`
	// Answer is the checker's own first line, as printed.
	Answer  string   `json:"answer,omitempty"`
	Pending []string `json:"pending,omitempty"`
}

// DSMUpdate is dsm_update_status' result.
type DSMUpdate struct {
	Installed *DSMVersion `json:"installed"`
	// DSM is whether a DSM update is offered (synoupgrade --check).
	DSM UpdateCheck `json:"dsm"`
	// Packages are Package Center's pending updates (synopkg checkupdateall).
	Packages UpdateCheck `json:"packages"`
	Probes   []Probe     `json:"probes"`
}

// parseSynoupgrade reads synoupgrade --check. Synology does not document
// its answers: it prints one token, and DSM 7.2 and 7.3 print
// UPGRADE_CHECKNEWDSM with exit 255 whether an update is ready or not
// (see testdata/README.md), so no token is taken as a yes or a no.
func parseSynoupgrade(out string, code int, why string) UpdateCheck {
	first := strings.TrimSpace(strings.SplitN(strings.TrimSpace(out), "\n", 2)[0])
	c := UpdateCheck{Available: Unknown, Answer: first}
	switch {
	case first == "" && why != "":
		c.Reason = "synoupgrade --check did not answer: " + why
	case first == "":
		c.Reason = "synoupgrade --check printed nothing"
	case strings.Contains(first, "FAIL"):
		c.Reason = fmt.Sprintf("synoupgrade --check could not reach Synology's update server (%s, exit %d)", first, code)
	default:
		c.Reason = fmt.Sprintf("synoupgrade --check answered %s (exit %d); Synology does not document its answers and DSM prints this one both with and without an update ready — Control Panel > Update & Restore says which", first, code)
	}
	return c
}

// parseCheckUpdateAll reads synopkg checkupdateall: a JSON array of the
// packages with an update ({"beta","id","name","version"}), [] when none;
// each is given as "ID → VERSION".
func parseCheckUpdateAll(out, why string) UpdateCheck {
	s := strings.TrimSpace(out)
	if s == "" {
		r := "synopkg checkupdateall printed nothing"
		if why != "" {
			r = "synopkg checkupdateall did not answer: " + why
		}
		return UpdateCheck{Available: Unknown, Reason: r}
	}
	var list []json.RawMessage
	if err := json.Unmarshal([]byte(s), &list); err != nil {
		return UpdateCheck{Available: Unknown, Reason: "synopkg checkupdateall's output is not a JSON list", Answer: firstLine(s)}
	}
	c := UpdateCheck{Available: "no", Pending: []string{}}
	for _, raw := range list {
		var m map[string]any
		name := "?"
		if json.Unmarshal(raw, &m) == nil {
			for _, k := range []string{"id", "package", "name"} {
				if v, ok := m[k].(string); ok && v != "" {
					name = v
					break
				}
			}
		}
		if v, ok := m["version"].(string); ok && v != "" && name != "?" {
			name += " → " + v
		}
		c.Pending = append(c.Pending, name)
	}
	if len(c.Pending) > 0 {
		c.Available = "yes"
	}
	return c
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	if len(l) > 200 {
		l = l[:200]
	}
	return l
}

func parseDSMUpdate(_ map[string]string, o outs) DSMUpdate {
	u := DSMUpdate{}
	if s, ok := o.first("version"); ok {
		if v, ok := parseDSMVersion(s); ok {
			u.Installed = &v
		}
	}
	u.DSM = UpdateCheck{Available: Unknown, Reason: "synoupgrade --check did not run"}
	for _, r := range o["check"] {
		u.DSM = parseSynoupgrade(r.stdout, r.code, r.why)
	}
	u.Packages = UpdateCheck{Available: Unknown, Reason: "synopkg checkupdateall did not run"}
	for _, r := range o["packages"] {
		u.Packages = parseCheckUpdateAll(r.stdout, r.why)
	}
	return u
}

// Exposure is one way the NAS may be reachable from the internet.
type Exposure struct {
	Name string `json:"name"`
	// State is on, off or unknown.
	State  string   `json:"state"`
	Detail []string `json:"detail,omitempty"`
	Reason string   `json:"reason,omitempty"`
}

// DSMExposure is dsm_exposure's result.
type DSMExposure struct {
	Items []Exposure `json:"items"`
	// Exposed names the items that are on; Unknown those that could not
	// be told.
	Exposed []string `json:"exposed"`
	Unknown []string `json:"unknown"`
	Probes  []Probe  `json:"probes"`
}

var qcAliasRe = regexp.MustCompile(`"alias"\s*:\s*"([A-Za-z0-9_-]{1,64})"`)

// quickConnect: synorelayd is the daemon DSM runs while QuickConnect is
// enabled; its configuration names the QuickConnect ID.
func quickConnect(o outs) Exposure {
	e := Exposure{Name: "quickconnect", State: Unknown}
	for _, r := range o["relayd"] {
		switch parseStateWord(r.stdout, activeWords) {
		case "active":
			e.State = "on"
		case "inactive", "failed":
			e.State = "off"
		default:
			e.Reason = "synosystemctl did not say whether synorelayd (QuickConnect) runs"
			if r.why != "" {
				e.Reason += ": " + r.why
			}
		}
	}
	if s, ok := o.first("relayd_conf"); ok {
		if m := qcAliasRe.FindStringSubmatch(s); m != nil {
			e.Detail = append(e.Detail, "QuickConnect ID "+m[1]+" ("+m[1]+".quickconnect.to)")
		}
	}
	return e
}

// ddnsRecords reads DSM's /etc/ddns.conf: an INI section per record
// ([Synology], [Cloudflare] …) with hostname, status and ip. Credentials
// (username, passwd) are never repeated.
func ddnsRecords(o outs) Exposure {
	e := Exposure{Name: "ddns", State: Unknown}
	rs := o["ddns"]
	if len(rs) == 0 {
		e.Reason = "/etc/ddns.conf was not read"
		return e
	}
	if rs[0].why != "" {
		e.Reason = "DSM's DDNS settings (/etc/ddns.conf) could not be read: " + rs[0].why
		return e
	}
	type rec struct{ section, host, status, ip, enable string }
	var recs []rec
	for _, l := range strings.Split(rs[0].stdout, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			recs = append(recs, rec{section: strings.Trim(l, "[]")})
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok || len(recs) == 0 {
			continue
		}
		r := &recs[len(recs)-1]
		v = strings.Trim(strings.TrimSpace(v), `"`)
		switch strings.TrimSpace(k) {
		case "hostname":
			r.host = v
		case "status":
			r.status = v
		case "ip":
			r.ip = v
		case "enable":
			r.enable = v
		}
	}
	e.State = "off"
	for _, r := range recs {
		if r.host == "" || r.enable == "no" || r.enable == "false" {
			continue
		}
		e.State = "on"
		d := r.section + ": " + r.host
		if r.ip != "" {
			d += " → " + r.ip
		}
		if r.status != "" {
			d += " (" + r.status + ")"
		}
		e.Detail = append(e.Detail, d)
	}
	return e
}

// routerForwards: DSM's Router Configuration keeps what it asked the
// router to forward under /usr/syno/etc/portforward; the format of those
// files is not documented, so only their presence is reported.
func routerForwards(o outs) Exposure {
	e := Exposure{Name: "router_port_forwards", State: Unknown}
	rs := o["portforward"]
	if len(rs) == 0 {
		e.Reason = "/usr/syno/etc/portforward was not listed"
		return e
	}
	if rs[0].why != "" {
		if strings.Contains(rs[0].why, "No such file") {
			e.State = "off"
			e.Reason = "DSM's Router Configuration was never used (no /usr/syno/etc/portforward); the router may still forward ports DSM does not know about — ask the router"
			return e
		}
		e.Reason = "could not list /usr/syno/etc/portforward: " + rs[0].why
		return e
	}
	files := strings.Fields(rs[0].stdout)
	if len(files) == 0 {
		e.State = "off"
		e.Reason = "DSM's Router Configuration holds no rules; the router may still forward ports DSM does not know about — ask the router"
		return e
	}
	e.Detail = files
	e.Reason = "DSM's Router Configuration has rule files (" + strings.Join(files, ", ") + ") whose format is not documented, so warden does not read the rules; see Control Panel > External Access > Router Configuration, or ask the router"
	return e
}

// upnp: synoinfo.conf's runupnp says whether DSM maps its ports on the
// router through UPnP; miniupnpc's upnpc -l, where DSM has it, lists the
// router's mappings.
func upnp(o outs) Exposure {
	e := Exposure{Name: "upnp", State: Unknown}
	if s, ok := o.first("synoinfo"); ok {
		switch parseKV(s)["runupnp"] {
		case "yes":
			e.State = "on"
		case "no":
			e.State = "off"
		default:
			e.Reason = "synoinfo.conf has no runupnp setting"
		}
	} else {
		e.Reason = "/etc/synoinfo.conf could not be read"
	}
	for _, r := range o["upnpc"] {
		text := strings.TrimSpace(r.stdout + "\n" + r.stderr)
		switch {
		case strings.Contains(text, "No IGD UPnP Device found"):
			e.Detail = append(e.Detail, "mappings: unknown — no UPnP router answered upnpc -l (UPnP off on the router, or not on this network)")
		case strings.Contains(text, "No valid UPNP Internet Gateway Device found"):
			// miniupnpc: a router answered, but its WAN is not up or its
			// external address is private, so it lists no mappings.
			e.Detail = append(e.Detail, "mappings: unknown — a UPnP router answered upnpc -l but not as a connected gateway (no valid IGD: its WAN is down or its external address is private)")
		case r.why != "":
			e.Detail = append(e.Detail, "mappings: unknown — upnpc -l did not answer: "+r.why)
		default:
			n := 0
			for _, l := range strings.Split(text, "\n") {
				if l = strings.TrimSpace(l); mappingRe.MatchString(l) && n < 64 {
					e.Detail = append(e.Detail, "mapping: "+l)
					n++
				}
			}
			switch {
			case n == 0 && strings.Contains(text, "exPort->inAddr:inPort"):
				e.Detail = append(e.Detail, "mappings: none — the router lists no UPnP mappings")
			case n == 0:
				e.Detail = append(e.Detail, "mappings: unknown — upnpc -l printed no mapping table")
			}
		}
	}
	return e
}

var mappingRe = regexp.MustCompile(`^\d+\s+(TCP|UDP)\s+\d+->`)

func parseExposure(_ map[string]string, o outs) DSMExposure {
	x := DSMExposure{Items: []Exposure{quickConnect(o), ddnsRecords(o), routerForwards(o), upnp(o)}, Exposed: []string{}, Unknown: []string{}}
	for _, e := range x.Items {
		switch e.State {
		case "on":
			x.Exposed = append(x.Exposed, e.Name)
		case Unknown:
			x.Unknown = append(x.Unknown, e.Name)
		}
	}
	return x
}
