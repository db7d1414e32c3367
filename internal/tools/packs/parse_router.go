package packs

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The parsers below are pure functions over text: what a router printed
// in, a structured result out. Golden tests hold each to captured output.

// Lease is one DHCP lease of dnsmasq (OpenWrt /tmp/dhcp.leases, Asuswrt
// /var/lib/misc/dnsmasq.leases).
type Lease struct {
	// Expires is the lease's end as a Unix time.
	Expires *int64 `json:"expires,omitempty"`
	// LeaseSeconds is the lease's length where dnsmasq was built for a
	// device without a real-time clock (HAVE_BROKEN_RTC, as on Asuswrt)
	// and writes that instead of an end time.
	LeaseSeconds *int64 `json:"lease_seconds,omitempty"`
	Infinite     bool   `json:"infinite,omitempty"`
	MAC          string `json:"mac"`
	IP           string `json:"ip"`
	Hostname     string `json:"hostname,omitempty"`
	ClientID     string `json:"client_id,omitempty"`
}

// brokenRTCLimit tells a lease length from an end time: no end time of a
// lease written by a running dnsmasq is before 2001.
const brokenRTCLimit = 1_000_000_000

// parseLeases reads dnsmasq's lease file: "EXPIRY MAC IP NAME CLIENTID",
// "*" for an unknown name or client id. IPv6 leases (a "duid" line and
// lines whose second field is an IAID) are skipped.
func parseLeases(s string) []Lease {
	out := []Lease{}
	for _, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if len(f) < 4 || f[0] == "duid" {
			continue
		}
		exp, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || exp < 0 {
			continue
		}
		mac, ok := normMAC(f[1])
		if !ok {
			continue
		}
		ip, err := netip.ParseAddr(f[2])
		if err != nil {
			continue
		}
		le := Lease{MAC: mac, IP: ip.String()}
		switch {
		case exp == 0:
			le.Infinite = true
		case exp < brokenRTCLimit:
			le.LeaseSeconds = ptr(exp)
		default:
			le.Expires = ptr(exp)
		}
		if f[3] != "*" {
			le.Hostname = f[3]
		}
		if len(f) > 4 && f[4] != "*" {
			le.ClientID = f[4]
		}
		out = append(out, le)
	}
	return out
}

var macRe = regexp.MustCompile(`^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$`)

// normMAC returns a MAC address in lowercase, or false.
func normMAC(s string) (string, bool) {
	if !macRe.MatchString(s) {
		return "", false
	}
	return strings.ToLower(s), true
}

// Neighbor is one complete entry of the kernel's ARP table.
type Neighbor struct {
	IP     string `json:"ip"`
	MAC    string `json:"mac"`
	Device string `json:"device"`
}

// parseARP reads /proc/net/arp; incomplete entries (flags 0x0, MAC all
// zeros) are left out.
func parseARP(s string) []Neighbor {
	out := []Neighbor{}
	for i, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if i == 0 || len(f) < 6 {
			continue
		}
		mac, ok := normMAC(f[3])
		if !ok || mac == "00:00:00:00:00:00" || f[2] == "0x0" {
			continue
		}
		if _, err := netip.ParseAddr(f[0]); err != nil {
			continue
		}
		out = append(out, Neighbor{IP: f[0], MAC: mac, Device: f[5]})
	}
	return out
}

// Station is one associated wireless client.
type Station struct {
	MAC       string `json:"mac"`
	Interface string `json:"interface"`
	// SignalDBm is the signal strength where the firmware prints it.
	SignalDBm *int `json:"signal_dbm,omitempty"`
}

var (
	iwinfoStaRe = regexp.MustCompile(`^([0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5})\s+(-?\d+) dBm`)
	wlStaRe     = regexp.MustCompile(`^assoclist\s+([0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5})\s*$`)
)

// parseAssoc reads one interface's association list, as OpenWrt's
// iwinfo (MAC, then signal in dBm) or Broadcom's wl ("assoclist MAC")
// prints it.
func parseAssoc(iface, s string) []Station {
	out := []Station{}
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimRight(l, "\r")
		if m := iwinfoStaRe.FindStringSubmatch(l); m != nil {
			mac, _ := normMAC(m[1])
			sig, _ := strconv.Atoi(m[2])
			out = append(out, Station{MAC: mac, Interface: iface, SignalDBm: &sig})
		} else if m := wlStaRe.FindStringSubmatch(l); m != nil {
			mac, _ := normMAC(m[1])
			out = append(out, Station{MAC: mac, Interface: iface})
		}
	}
	return out
}

// Client is one device the router knows, merged by MAC from the ARP
// table, the DHCP leases and the wireless association lists.
type Client struct {
	MAC       string `json:"mac"`
	IP        string `json:"ip,omitempty"`
	Hostname  string `json:"hostname,omitempty"`
	Device    string `json:"device,omitempty" jsonschema:"The interface the ARP entry is on."`
	Wireless  bool   `json:"wireless"`
	Interface string `json:"wireless_interface,omitempty"`
	SignalDBm *int   `json:"signal_dbm,omitempty"`
	// Lease is the client's DHCP lease, if it has one.
	Lease *Lease `json:"lease,omitempty"`
	// Sources name where the client was seen: arp, dhcp, wireless.
	Sources []string `json:"sources"`
}

// mergeClients merges the three views per MAC, sorted by IP then MAC.
func mergeClients(arp []Neighbor, leases []Lease, stations []Station) []Client {
	by := map[string]*Client{}
	get := func(mac string) *Client {
		c, ok := by[mac]
		if !ok {
			c = &Client{MAC: mac, Sources: []string{}}
			by[mac] = c
		}
		return c
	}
	add := func(c *Client, src string) {
		for _, s := range c.Sources {
			if s == src {
				return
			}
		}
		c.Sources = append(c.Sources, src)
	}
	for _, n := range arp {
		c := get(n.MAC)
		c.IP, c.Device = n.IP, n.Device
		add(c, "arp")
	}
	for _, l := range leases {
		c := get(l.MAC)
		if c.IP == "" {
			c.IP = l.IP
		}
		c.Hostname = l.Hostname
		c.Lease = &l
		add(c, "dhcp")
	}
	for _, s := range stations {
		c := get(s.MAC)
		c.Wireless, c.Interface, c.SignalDBm = true, s.Interface, s.SignalDBm
		add(c, "wireless")
	}
	out := make([]Client, 0, len(by))
	for _, c := range by {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		a, aerr := netip.ParseAddr(out[i].IP)
		b, berr := netip.ParseAddr(out[j].IP)
		switch {
		case aerr == nil && berr == nil && a != b:
			return a.Less(b)
		case (aerr == nil) != (berr == nil):
			return aerr == nil
		}
		return out[i].MAC < out[j].MAC
	})
	return out
}

// WAN is a router's uplink.
type WAN struct {
	// State is up, down or unknown.
	State   string   `json:"state"`
	Proto   string   `json:"proto,omitempty"`
	Device  string   `json:"device,omitempty"`
	IPv4    []string `json:"ipv4" jsonschema:"Addresses with prefix length."`
	IPv6    []string `json:"ipv6"`
	Gateway string   `json:"gateway,omitempty"`
	DNS     []string `json:"dns"`
	// UptimeSeconds is how long the uplink has been up, where known.
	UptimeSeconds *int64 `json:"uptime_seconds,omitempty"`
}

// parseUbusWAN reads OpenWrt's "ubus call network.interface.wan status".
func parseUbusWAN(s string) (WAN, error) {
	var st struct {
		Up       *bool  `json:"up"`
		Uptime   *int64 `json:"uptime"`
		Proto    string `json:"proto"`
		L3Device string `json:"l3_device"`
		Device   string `json:"device"`
		V4       []struct {
			Address string `json:"address"`
			Mask    int    `json:"mask"`
		} `json:"ipv4-address"`
		V6 []struct {
			Address string `json:"address"`
			Mask    int    `json:"mask"`
		} `json:"ipv6-address"`
		Route []struct {
			Target  string `json:"target"`
			Mask    int    `json:"mask"`
			Nexthop string `json:"nexthop"`
		} `json:"route"`
		DNS []string `json:"dns-server"`
	}
	if err := json.Unmarshal([]byte(s), &st); err != nil {
		return WAN{}, fmt.Errorf("ubus status is not JSON: %w", err)
	}
	w := WAN{State: Unknown, Proto: st.Proto, Device: st.L3Device, IPv4: []string{}, IPv6: []string{}, DNS: []string{}, UptimeSeconds: st.Uptime}
	if w.Device == "" {
		w.Device = st.Device
	}
	if st.Up != nil {
		w.State = map[bool]string{true: "up", false: "down"}[*st.Up]
	}
	for _, a := range st.V4 {
		w.IPv4 = append(w.IPv4, fmt.Sprintf("%s/%d", a.Address, a.Mask))
	}
	for _, a := range st.V6 {
		w.IPv6 = append(w.IPv6, fmt.Sprintf("%s/%d", a.Address, a.Mask))
	}
	for _, r := range st.Route {
		if (r.Target == "0.0.0.0" || r.Target == "::") && r.Mask == 0 {
			w.Gateway = r.Nexthop
			break
		}
	}
	if st.DNS != nil {
		w.DNS = st.DNS
	}
	return w, nil
}

// parseNvram reads "nvram show" (NAME=VALUE lines; values may hold "=").
func parseNvram(s string) map[string]string {
	m := map[string]string{}
	for _, l := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(strings.TrimRight(l, "\r"), "=")
		if ok && k != "" && !strings.ContainsAny(k, " \t") {
			m[k] = v
		}
	}
	return m
}

// nvramWAN reads the primary WAN unit (wan0_*) of Asuswrt's nvram:
// wan0_state_t 2 is connected, 0-1 connecting or initialising, 3-5
// stopped, disabled or failed (Asuswrt's WAN_STATE_* values). The device
// is the one holding the address, as OpenWrt's l3_device is: over PPPoE
// wan0_ifname is the Ethernet port under the link and wan0_gw_ifname the
// ppp interface (a real RT-AC68U: eth0 and ppp0).
func nvramWAN(m map[string]string) WAN {
	w := WAN{State: Unknown, Proto: m["wan0_proto"], Device: m["wan0_gw_ifname"], IPv4: []string{}, IPv6: []string{}, DNS: []string{}}
	if w.Device == "" {
		w.Device = m["wan0_ifname"]
	}
	if ip := m["wan0_ipaddr"]; ip != "" && ip != "0.0.0.0" {
		bits := 32
		if mask, err := netip.ParseAddr(m["wan0_netmask"]); err == nil && mask.Is4() {
			b := mask.As4()
			bits = 0
			for _, x := range b {
				for ; x != 0; x <<= 1 {
					bits++
				}
			}
		}
		w.IPv4 = append(w.IPv4, fmt.Sprintf("%s/%d", ip, bits))
	}
	if g := m["wan0_gateway"]; g != "" && g != "0.0.0.0" {
		w.Gateway = g
	}
	w.DNS = append(w.DNS, strings.Fields(m["wan0_dns"])...)
	switch m["wan0_state_t"] {
	case "2":
		w.State = "up"
	case "0", "1", "3", "4", "5":
		w.State = "down"
	}
	return w
}

// Interface is one network interface with its addresses and counters.
type Interface struct {
	Name    string   `json:"name"`
	State   string   `json:"state"`
	MAC     string   `json:"mac,omitempty"`
	MTU     int      `json:"mtu,omitempty"`
	Addrs   []string `json:"addresses"`
	RxBytes *int64   `json:"rx_bytes,omitempty"`
	TxBytes *int64   `json:"tx_bytes,omitempty"`
	RxErrs  *int64   `json:"rx_errors,omitempty"`
	TxErrs  *int64   `json:"tx_errors,omitempty"`
}

var ifHeadRe = regexp.MustCompile(`^\d+:\s+([^:@\s]+)(?:@\S+)?:\s+<([^>]*)>.*?\bmtu (\d+)(?:.*\bstate (\S+))?`)

// parseIPAddr reads "ip addr" as iproute2 and BusyBox print it.
func parseIPAddr(s string) []Interface {
	out := []Interface{}
	var cur *Interface
	for _, l := range strings.Split(s, "\n") {
		if m := ifHeadRe.FindStringSubmatch(l); m != nil {
			out = append(out, Interface{Name: m[1], Addrs: []string{}})
			cur = &out[len(out)-1]
			cur.MTU, _ = strconv.Atoi(m[3])
			cur.State = strings.ToLower(m[4])
			if cur.State == "" || cur.State == "unknown" {
				cur.State = "down"
				for _, f := range strings.Split(m[2], ",") {
					if f == "UP" {
						cur.State = "up"
					}
				}
			}
			continue
		}
		f := strings.Fields(l)
		if cur == nil || len(f) < 2 {
			continue
		}
		switch f[0] {
		case "link/ether":
			cur.MAC, _ = normMAC(f[1])
		case "inet", "inet6":
			cur.Addrs = append(cur.Addrs, f[1])
		}
	}
	return out
}

// devCounters are one interface's /proc/net/dev counters.
type devCounters struct{ rx, rxErr, tx, txErr int64 }

// parseNetDev reads /proc/net/dev.
func parseNetDev(s string) map[string]devCounters {
	m := map[string]devCounters{}
	for _, l := range strings.Split(s, "\n") {
		name, rest, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) < 16 {
			continue
		}
		n := make([]int64, 16)
		bad := false
		for i := range n {
			v, err := strconv.ParseInt(f[i], 10, 64)
			if err != nil {
				bad = true
				break
			}
			n[i] = v
		}
		if !bad {
			m[strings.TrimSpace(name)] = devCounters{rx: n[0], rxErr: n[2], tx: n[8], txErr: n[10]}
		}
	}
	return m
}

// PingSummary is what ping's last lines say, in the iputils and BusyBox
// spellings.
type PingSummary struct {
	Transmitted int      `json:"transmitted"`
	Received    int      `json:"received"`
	LossPct     float64  `json:"loss_pct"`
	RTTMinMS    *float64 `json:"rtt_min_ms,omitempty"`
	RTTAvgMS    *float64 `json:"rtt_avg_ms,omitempty"`
	RTTMaxMS    *float64 `json:"rtt_max_ms,omitempty"`
}

var (
	pingCountRe = regexp.MustCompile(`(\d+) packets transmitted, (\d+) (?:packets )?received`)
	pingLossRe  = regexp.MustCompile(`([\d.]+)% packet loss`)
	pingRTTRe   = regexp.MustCompile(`(?:rtt|round-trip) min/avg/max(?:/\w+)? = ([\d.]+)/([\d.]+)/([\d.]+)`)
)

// parsePing reads ping's summary; false when there is none.
func parsePing(s string) (PingSummary, bool) {
	m := pingCountRe.FindStringSubmatch(s)
	if m == nil {
		return PingSummary{}, false
	}
	p := PingSummary{}
	p.Transmitted, _ = strconv.Atoi(m[1])
	p.Received, _ = strconv.Atoi(m[2])
	if l := pingLossRe.FindStringSubmatch(s); l != nil {
		p.LossPct, _ = strconv.ParseFloat(l[1], 64)
	}
	if r := pingRTTRe.FindStringSubmatch(s); r != nil {
		f := func(x string) *float64 { v, _ := strconv.ParseFloat(x, 64); return &v }
		p.RTTMinMS, p.RTTAvgMS, p.RTTMaxMS = f(r[1]), f(r[2]), f(r[3])
	}
	return p, true
}

// parseNslookup returns the addresses nslookup printed for the name asked
// (those after the "Name:" line; the server's own address comes before).
func parseNslookup(s string) []string {
	out := []string{}
	seenName := false
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "Name:") {
			seenName = true
			continue
		}
		if !seenName {
			continue
		}
		if v, ok := strings.CutPrefix(l, "Address:"); ok {
			l = strings.TrimSpace(v)
		} else if v, ok := strings.CutPrefix(l, "Address 1:"); ok {
			l = strings.TrimSpace(v)
		} else {
			continue
		}
		if f := strings.Fields(l); len(f) > 0 {
			if a, err := netip.ParseAddr(f[0]); err == nil {
				out = append(out, a.String())
			}
		}
	}
	return out
}

// Hop is one line of traceroute.
type Hop struct {
	TTL  int    `json:"ttl"`
	Line string `json:"line"`
}

var hopRe = regexp.MustCompile(`^\s*(\d+)\s+(.*)$`)

// parseTraceroute keeps each hop's line, numbered.
func parseTraceroute(s string) []Hop {
	out := []Hop{}
	for _, l := range strings.Split(s, "\n") {
		if m := hopRe.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			out = append(out, Hop{TTL: n, Line: strings.TrimSpace(m[2])})
		}
	}
	return out
}
