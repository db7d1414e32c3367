package packs

import (
	"regexp"
	"strings"
)

// FirmwareUpdate is whether newer firmware is offered for the router.
type FirmwareUpdate struct {
	Installed string `json:"installed"`
	// Available is yes, no or unknown.
	Available string `json:"available"`
	Latest    string `json:"latest,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// RouterUpdates is router_updates' result: the routers' pending_updates.
type RouterUpdates struct {
	Firmware FirmwareUpdate `json:"firmware"`
	Packages UpdateCheck    `json:"packages"`
	Probes   []Probe        `json:"probes"`
}

// asusFirmware reads the nvram values Asuswrt's firmware check
// (webs_update.sh) leaves: webs_state_update 1 once a check finished (0
// while one runs or none has), webs_state_flag 0 no newer firmware, 1 a
// newer one, 2 a forced upgrade, webs_state_error 1 download failed, 2 no
// memory, 3 check or signature failed, webs_state_info the newer version
// (3004_388_8_4 is 3.0.0.4.388.8_4). The installed version is firmver,
// buildno and extendno.
func asusFirmware(nv map[string]string) FirmwareUpdate {
	f := FirmwareUpdate{Available: Unknown}
	if nv["firmver"] != "" || nv["buildno"] != "" {
		f.Installed = strings.Trim(nv["firmver"]+"."+nv["buildno"], ".")
		if e := nv["extendno"]; e != "" && e != "0" {
			f.Installed += "_" + e
		}
	}
	if info := nv["webs_state_info"]; info != "" {
		f.Latest = info
		if p := strings.SplitN(info, "_", 4); len(p) == 4 && len(p[0]) == 4 {
			f.Latest = strings.Join(strings.Split(p[0], ""), ".") + "." + p[1] + "." + p[2] + "_" + p[3]
		}
	}
	_, checked := nv["webs_state_update"]
	switch {
	case !checked:
		f.Reason = "the router has not run its firmware check (no webs_state_update in nvram)"
	case nv["webs_state_update"] != "1":
		f.Reason = "a firmware check is running or never finished (webs_state_update=" + nv["webs_state_update"] + ")"
	case nv["webs_state_error"] != "" && nv["webs_state_error"] != "0":
		f.Reason = map[string]string{"1": "the last firmware check could not download the release list",
			"2": "the last firmware check ran out of memory", "3": "the last firmware check failed its signature check"}[nv["webs_state_error"]]
		if f.Reason == "" {
			f.Reason = "the last firmware check failed (webs_state_error=" + nv["webs_state_error"] + ")"
		}
	case nv["webs_state_flag"] == "0":
		f.Available = "no"
	case nv["webs_state_flag"] == "1" || nv["webs_state_flag"] == "2":
		f.Available = "yes"
		if nv["webs_state_flag"] == "2" {
			f.Reason = "the vendor marks this update as required"
		}
	default:
		f.Reason = "webs_state_flag=" + nv["webs_state_flag"] + " is not a value warden knows"
	}
	return f
}

// parseOpkgUpgradable reads opkg list-upgradable: "NAME - OLD - NEW".
func parseOpkgUpgradable(s string) []string {
	out := []string{}
	for _, l := range strings.Split(s, "\n") {
		p := strings.Split(strings.TrimSpace(l), " - ")
		if len(p) == 3 && !strings.ContainsAny(p[0], " \t") && p[0] != "" {
			out = append(out, p[0]+" "+p[1]+" → "+p[2])
		}
	}
	return out
}

var (
	apkUpgradableRe = regexp.MustCompile(`^(\S+) .*\[upgradable from: (\S+)\]`)
	// apkNameVersion splits apk's NAME-VERSION: the version starts at the
	// last "-" followed by a digit and ends in -rN.
	apkNameVersion = regexp.MustCompile(`^(.+)-(\d[^-]*-r\d+)$`)
)

// parseApkUpgradable reads apk list --upgradable (OpenWrt 25 and later):
// "NAME-NEW ARCH {ORIGIN} (LICENSE) [upgradable from: NAME-OLD]", as
// "NAME OLD → NEW" like opkg's, or both words whole where the name and
// version cannot be told apart.
func parseApkUpgradable(s string) []string {
	out := []string{}
	for _, l := range strings.Split(s, "\n") {
		m := apkUpgradableRe.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		nw, old := apkNameVersion.FindStringSubmatch(m[1]), apkNameVersion.FindStringSubmatch(m[2])
		if nw != nil && old != nil && nw[1] == old[1] {
			out = append(out, nw[1]+" "+old[2]+" → "+nw[2])
		} else {
			out = append(out, m[2]+" → "+m[1])
		}
	}
	return out
}

func parseRouterUpdatesOpenWrt(_ map[string]string, o outs) RouterUpdates {
	u := RouterUpdates{Firmware: FirmwareUpdate{Available: Unknown,
		Reason: "OpenWrt has no firmware check of its own: owut or auc (attended sysupgrade) ask the build server, and neither is installed by default"}}
	if s, ok := o.first("release"); ok {
		kv := parseKV(strings.ReplaceAll(s, "'", `"`))
		u.Firmware.Installed = strings.TrimSpace(kv["DISTRIB_ID"] + " " + kv["DISTRIB_RELEASE"] + " " + kv["DISTRIB_REVISION"])
	}
	u.Packages = UpdateCheck{Available: Unknown}
	var pending []string
	answered := ""
	var why []string
	for _, id := range []string{"opkg", "apk"} {
		for _, r := range o[id] {
			if r.why != "" {
				why = append(why, r.why)
				continue
			}
			answered = id
			if id == "opkg" {
				pending = append(pending, parseOpkgUpgradable(r.stdout)...)
			} else {
				pending = append(pending, parseApkUpgradable(r.stdout)...)
			}
		}
	}
	switch {
	case answered == "":
		u.Packages.Reason = "neither opkg nor apk answered: " + strings.Join(why, "; ")
	case len(pending) > 0:
		u.Packages.Available, u.Packages.Pending = "yes", pending
	case !listsFetched(o, answered):
		// Both keep their package lists in /tmp: after a reboot, until
		// opkg update or apk update runs, nothing looks upgradable.
		u.Packages.Reason = "the package lists have not been downloaded since boot (" + answered + " update has not run; it is tier 2, so warden does not run it for a read)"
	default:
		u.Packages.Available, u.Packages.Pending = "no", []string{}
	}
	return u
}

// listsFetched reports whether the package lists of the manager that
// answered are present: opkg's in /var/opkg-lists; apk's in its cache,
// which apk list never fills — a missing index is a warning on stderr
// ("WARNING: opening from cache URL: No such file or directory") and an
// exit 0 with nothing listed.
func listsFetched(o outs, manager string) bool {
	if manager == "apk" {
		for _, r := range o["apk"] {
			if strings.Contains(r.stderr, "WARNING: opening") && strings.Contains(r.stderr, "No such file or directory") {
				return false
			}
		}
		return true
	}
	s, ok := o.first("lists")
	return ok && strings.TrimSpace(s) != ""
}

func parseRouterUpdatesAsus(_ map[string]string, o outs) RouterUpdates {
	u := RouterUpdates{Firmware: FirmwareUpdate{Available: Unknown, Reason: "nvram show did not answer"},
		Packages: UpdateCheck{Available: Unknown, Reason: "Asuswrt has no package manager (Entware's opkg, where installed, is not the firmware's)"}}
	if s, ok := o.first("nvram"); ok {
		u.Firmware = asusFirmware(parseNvram(s))
	}
	return u
}
