package policy

import (
	"fmt"
	"net/netip"
	"path"
	"strconv"
	"strings"
)

// Destinations that are neither URLs nor a client's server option: the
// operands of scanners and probes (nmap 169.254.169.254, arping, fping,
// hping3, tcptraceroute), of SNMP, NTP and SMB clients (snmpwalk … HOST,
// ntpdate -q HOST, smbclient -L HOST or //HOST/share), and an rsync
// daemon's HOST::module, whose double colon hostKey does not split. A
// probe or query carries data to the host as curl's request does, so
// each meets the host deny rules; a word that is not a host (an OID, a
// port) is checked too, which can only deny more. So are the mail
// submitters' recipients (user@[169.254.169.254] is delivered there) and
// the DNS servers resolvectl and nmcli set (every lookup then goes
// there).

// probeOperands are the programs whose every operand may be a host.
var probeOperands = set(`arping arping6 fping fping6 hping hping2 hping3 nping tcping tcptraceroute tcptraceroute6
	masscan zmap nmap unicornscan ntpdate sntp rdate ntpdig ntpq snmpwalk snmpbulkwalk snmpget snmpbulkget
	snmpgetnext snmpset snmptable snmpstatus snmpdf snmpnetstat snmptrap snmpinform smbclient rpcclient
	nmblookup smbtree smbcacls smbget rsync iperf iperf3 chronyc wakeonlan etherwake ndisc6 rdisc6 traceproto
	tftp atftp httping grpcurl kcat kafkacat rpcinfo ztcp zsocket gnutls-cli sslscan sslyze testssl testssl.sh
	nikto whatweb hydra ncrack medusa ike-scan onesixtyone nbtscan pwncat cryptcat sbd ssh-keyscan
	pdsh pdcp rpdcp pssh parallel-ssh pscp pscp.pssh prsync pslurp clush clustershell mussh dsh
	xfreerdp xfreerdp3 wlfreerdp rdesktop vncviewer xtightvncviewer tigervnc remmina
	cqlsh memcached-tool memcstat sqlcmd swaks msmtp sendmail ssmtp resolvectl systemd-resolve nmcli`)

// knownHostWords are the programs among probeOperands whose known words are
// held to the host rules but whose words computed at run time are not
// raised for it: most of their words are not hosts (nmcli con up "$c",
// a recipient "$to").
var knownHostWords = set(`swaks msmtp sendmail ssmtp resolvectl systemd-resolve nmcli`)

// probeHosts denies an operand, or a value of -c (iperf's server), -h
// (chronyc's), -L and -I (smbclient's), naming a host a deny rule names.
func (e *eval) probeHosts(args []arg) {
	if len(e.p.denyHosts) == 0 || len(args) < 2 || !args[0].known || !probeOperands[path.Base(args[0].val)] {
		return
	}
	name := path.Base(args[0].val)
	if (name == "resolvectl" || name == "systemd-resolve") && !setsDNS(args[1:]) {
		return // resolvectl query NAME asks the resolver; only dns sets a server
	}
	for _, a := range args[1:] {
		v := a.val
		if !a.known && knownHostWords[name] {
			continue
		}
		if !a.known {
			// Any operand may be a host (above): one known only at run
			// time may be one the rules deny.
			e.opaque = true
			e.note(TierDestructive, false, "%s: %s is known only at run time and may be a host the host rules deny", name, truncate(v, 64))
			return
		}
		if v == "" {
			continue
		}
		if v[0] == '-' {
			// -c169.254.169.254, --client=…: an attached value.
			if _, val, ok := strings.Cut(v, "="); ok {
				v = val
			} else if len(v) > 2 && v[1] != '-' {
				v = v[2:]
			} else {
				continue
			}
		}
		for _, h := range probeHostWords(v) {
			if r, ok := e.p.hostDenied(h); ok {
				e.deny(fmt.Sprintf("%s: destination %q is denied by host rule %q", name, truncate(a.val, 96), r))
				return
			}
		}
		// Host lists and specs: pdsh -w a,b, xfreerdp /v:HOST.
		if r, ok := e.p.forwardDenied(v); ok {
			e.deny(fmt.Sprintf("%s: destination %q is denied by host rule %q", name, truncate(a.val, 96), r))
			return
		}
		if pfx, ok := targetRange(v); ok {
			for _, r := range e.p.denyHosts {
				if r.prefix.IsValid() && r.prefix.Overlaps(pfx) {
					e.deny(fmt.Sprintf("%s: range %q holds hosts denied by host rule %q", name, truncate(a.val, 96), r.raw))
					return
				}
			}
		}
	}
}

// probeHostWords returns the places a word may name a host: the word,
// the host of //HOST/share or \\HOST\share, and the host before an rsync
// daemon's "::module".
func probeHostWords(v string) []string {
	out := []string{v}
	for _, p := range []string{"//", `\\`} {
		if rest, ok := strings.CutPrefix(v, p); ok {
			h, _, _ := strings.Cut(strings.ReplaceAll(rest, `\`, "/"), "/")
			out = append(out, h)
		}
	}
	if i := strings.LastIndex(v, "::"); i > 0 {
		out = append(out, v[:i]) // [fd00::1]::module too
	}
	return out
}

// targetRange reads a scanner's address range as the prefix that holds
// it: a CIDR (169.254.0.0/16), or nmap's octet ranges and wildcards
// (169.254.169.1-255, 169.254.*.*, 10.0.0,1.1), whose fixed leading
// octets make the prefix.
func targetRange(v string) (netip.Prefix, bool) {
	if addr, bits, ok := strings.Cut(v, "/"); ok {
		if strings.Count(addr, ".") != 3 && !strings.Contains(addr, ":") {
			return netip.Prefix{}, false // chronyc burst 4/4 is no range
		}
		a, aok := parseAddr(CanonicalHost(addr))
		n, err := strconv.Atoi(bits)
		if !aok || err != nil || n < 0 || n > a.BitLen() {
			return netip.Prefix{}, false
		}
		return netip.PrefixFrom(a, n).Masked(), true
	}
	parts := strings.Split(v, ".")
	if len(parts) != 4 || !strings.ContainsAny(v, "-*,") {
		return netip.Prefix{}, false
	}
	var b [4]byte
	fixed := 0
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 255 {
			if strings.Trim(p, "0123456789-*,") != "" {
				return netip.Prefix{}, false // not an octet range
			}
			break
		}
		b[i], fixed = byte(n), i+1
	}
	return netip.PrefixFrom(netip.AddrFrom4(b), 8*fixed).Masked(), true
}

// setsDNS reports whether resolvectl's words set a DNS server: the dns
// verb or systemd-resolve's --set-dns.
func setsDNS(args []arg) bool {
	for _, a := range args {
		if a.val == "dns" || strings.HasPrefix(a.val, "--set-dns") {
			return true
		}
	}
	return false
}
