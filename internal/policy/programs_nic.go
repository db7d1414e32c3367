package policy

import "strings"

// ethtoolChange are ethtool's long options that change a NIC's settings
// or disturb its link (a self-test, renegotiation, a cable test, blinking
// its LED). ethtool matches its option words whole, as they are listed.
var ethtoolChange = set(`--change --pause --coalesce --set-ring --features --offload --negotiate --identify
	--test --config-nfc --config-ntuple --set-rxfh-indir --rxfh --set-dump --set-channels --set-priv-flags
	--set-eee --set-phy-tunable --set-tunable --reset --set-fec --cable-test --cable-test-tdr --set-module
	--set-pse --set-hwtstamp-cfg --set-mm --set-plca-cfg`)

// ethtoolProgram classifies ethtool: writing EEPROM or firmware is tier 3,
// changing settings tier 2, and -w's "data FILE" writes the dump to FILE.
func ethtoolProgram(c *call) (Tier, string) {
	vals := c.vals()
	r := raiser{TierRead, "ethtool"}
	for i, v := range vals {
		switch {
		case v == "-E" || v == "-f" || v == "--change-eeprom" || strings.HasPrefix(v, "--flash"):
			r.raise(TierDestructive, "ethtool "+v+": writes NIC firmware or EEPROM")
		case len(v) == 2 && v[0] == '-' && strings.IndexByte("srtACGKLUXWNp", v[1]) >= 0,
			ethtoolChange[v], strings.HasPrefix(v, "--set-"):
			r.raise(TierMutate, "ethtool "+v+": changes NIC settings")
		case (v == "-w" || v == "--get-dump") && i+3 < len(vals) && vals[i+2] == "data":
			r.raise(c.writeArg(arg{val: vals[i+3], known: true}, "ethtool -w data"))
		}
	}
	return r.t, r.why
}

// smartctlNoValue are smartctl's short options that take no value; any
// other letter in a cluster takes the rest of the word, or the next one.
const smartctlNoValue = "axHicAjVhXC"

// smartctlProgram classifies smartctl: -s, -o, -S, -F and --set change the
// drive's settings, -t and -X start or stop a self-test. getopt_long
// takes the long names abbreviated (--sm=off) and the short ones with
// their value attached (-son) or ending a cluster (-as on).
func smartctlProgram(vals []string) (Tier, string) {
	r := raiser{TierRead, "smartctl"}
	// next is the word after vals[i], the value of an option that ends it.
	next := func(i int) string {
		if i+1 < len(vals) {
			return vals[i+1]
		}
		return ""
	}
	for i, v := range vals {
		if v == "--" {
			break
		}
		if strings.HasPrefix(v, "--") {
			for _, l := range []string{"--smart", "--offlineauto", "--saveauto", "--set", "--firmwarebug"} {
				if longFlag(v, l) {
					r.raise(TierMutate, "smartctl "+v+": changes drive settings")
				}
			}
			if longFlag(v, "--test") || longFlag(v, "--abort") {
				r.raise(TierBenign, "smartctl "+v+": starts or stops a self-test")
			}
			if longFlag(v, "--captive") {
				r.raise(TierMutate, "smartctl "+v+": a captive self-test keeps the drive busy until it ends")
			}
			if longFlag(v, "--log") {
				val, ok := strings.CutPrefix(v[strings.IndexByte(v+"=", '='):], "=")
				if !ok {
					val = next(i)
				}
				r.raise(smartctlLogSets(val))
			}
			continue
		}
		if len(v) < 2 || v[0] != '-' {
			continue
		}
		for k, f := range v[1:] {
			switch {
			case strings.ContainsRune("soSF", f):
				r.raise(TierMutate, "smartctl "+v+": changes drive settings")
			case f == 'C':
				r.raise(TierMutate, "smartctl "+v+": a captive self-test keeps the drive busy until it ends")
			case f == 't' && strings.HasPrefix(strings.ToLower(v[k+2:]+next(i)), "vendor"):
				r.raise(TierMutate, "smartctl "+v+": sends a vendor command to the drive")
			case f == 't' || f == 'X':
				r.raise(TierBenign, "smartctl "+v+": starts or stops a self-test")
			case f == 'l':
				val := v[k+2:]
				if val == "" {
					val = next(i)
				}
				r.raise(smartctlLogSets(val))
			}
			if !strings.ContainsRune(smartctlNoValue, f) {
				break // the rest of the word is this option's value
			}
		}
	}
	return r.t, r.why
}

// smartctlLogSets classifies a -l/--log value: most name a log to print,
// but scterc with times (scterc,70,70 or scterc,reset) sets the drive's
// error recovery timeouts and scttempint,N sets its temperature logging
// interval, with ",p" persistently.
func smartctlLogSets(val string) (Tier, string) {
	l := strings.ToLower(val)
	if strings.HasPrefix(l, "scterc,") || strings.HasPrefix(l, "scttempint") {
		return TierMutate, "smartctl -l " + truncate(val, 32) + ": changes drive settings"
	}
	return TierRead, ""
}

// hdparmMaxSectors reports why an hdparm command sets the drive's visible
// size: -N reads it alone, but -N with a count (-N1000, -N p1000, -Np1000,
// the "p" making it permanent) hides every sector past the count, and
// hdparm takes the count attached to the cluster or as the next word when
// that starts with a digit or "p".
func hdparmMaxSectors(vals []string) string {
	for i, v := range vals {
		if v == "--" {
			return ""
		}
		if len(v) < 2 || v[0] != '-' || v[1] == '-' {
			continue
		}
		k := strings.IndexByte(v, 'N')
		if k < 0 {
			continue
		}
		count := v[k+1:]
		if count == "" && i+1 < len(vals) {
			if n := vals[i+1]; n != "" && (n[0] >= '0' && n[0] <= '9' || n[0] == 'p' || n[0] == 'P') {
				count = n
			}
		}
		if count != "" {
			return "hdparm -N " + truncate(count, 32) + ": changes the drive's visible size (host protected area)"
		}
	}
	return ""
}

// iwTop are iw's own top-level words; any other first word is an
// interface or phy name (iw wlan0 link, iw phy0 info).
var iwTop = set(`dev phy wdev reg list event features commands help`)

// iwReads are the iw commands that only report, by their first word and,
// where the first word also sets (station, wowlan, reg), the second. iw
// has dozens of commands that configure a radio, start an access point,
// send raw vendor or management frames or leave the channel (ap start,
// vendor send, offchannel, switch, roc, wowlan enable, cqm); none of
// those is listed, so a command iw adds later is not read-only either.
var iwReads = map[string]map[string]bool{
	"info": nil, "link": nil, "channels": nil, "get": nil, "scan": nil, "list": nil,
	"event": nil, "features": nil, "commands": nil, "help": nil,
	"station": {"dump": true, "get": true}, "mpath": {"dump": true, "get": true},
	"mpp": {"dump": true, "get": true}, "survey": {"dump": true},
	"wowlan": {"show": true}, "coalesce": {"show": true}, "reg": {"get": true},
}

// iwProgram classifies iw by the command after the device it names:
// tier 0 for iwReads (a scan reads, scan abort stops one), tier 2 for
// the rest.
func iwProgram(ops []string) (Tier, string) {
	rest := ops
	switch {
	case len(ops) == 0:
		return TierRead, "iw"
	case ops[0] == "dev" || ops[0] == "phy" || ops[0] == "wdev":
		if len(ops) <= 2 {
			return TierRead, "iw " + ops[0]
		}
		rest = ops[2:]
	case !iwTop[ops[0]]:
		rest = ops[1:]
		if len(rest) == 0 {
			return TierRead, "iw"
		}
	}
	second, ok := iwReads[rest[0]]
	switch {
	case !ok:
	case rest[0] == "scan":
		// scan dump lists the results the kernel holds; a scan (scan,
		// scan trigger) sends probes and takes the radio off its channel
		// for a while, as nmcli device wifi list --rescan does (tier 1).
		switch {
		case len(rest) > 1 && rest[1] == "dump":
			return TierRead, "iw scan dump"
		case len(rest) > 1 && rest[1] == "abort":
		default:
			return TierBenign, "iw scan: sends probe requests and leaves the channel while it scans"
		}
	case second == nil:
		return TierRead, "iw " + rest[0]
	case len(rest) > 1 && second[rest[1]]:
		return TierRead, "iw " + rest[0] + " " + rest[1]
	}
	return TierMutate, "iw " + strings.Join(rest[:min(2, len(rest))], " ") + ": configures wireless"
}

// hdparmDestructive are hdparm's options that destroy data or can brick or
// lock a drive: sector writes, firmware downloads (every --fwdownload-*
// mode), DCO capacity changes, a new logical sector size, setting or
// disabling the ATA security password, and a provoked controller error.
var hdparmDestructive = []string{"--write-sector", "--repair-sector", "--fwdownload", "--dco-restore",
	"--dco-setmax", "--set-sector-size", "--security-set-pass", "--security-disable", "--drq-hsm-error"}

// badblocksProgram classifies badblocks: -w overwrites the whole device
// with test patterns, -n rewrites every block in place, -o writes the
// list of bad blocks to a file; otherwise it only reads.
func badblocksProgram(c *call) (Tier, string) {
	vals := c.vals()
	if hasFlag(vals, 'w', "") {
		return TierDestructive, "badblocks -w: overwrites the device"
	}
	r := raiser{TierRead, "badblocks: read-only test"}
	if hasFlag(vals, 'n', "") {
		r.raise(TierMutate, "badblocks -n: rewrites every block in place")
	}
	for _, f := range c.optVals(c.args, "-o") {
		r.raise(c.writeArg(f, "badblocks -o"))
	}
	return r.t, r.why
}
