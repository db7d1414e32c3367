package packs

import (
	"strings"
	"testing"
)

// TestNvramRealRouter reads a real Asuswrt-Merlin router's nvram (an
// RT-AC68U on 380.59, testdata/README.md): 2575 lines in nvram's own
// unsorted order, with the Broadcom "0:" / "1:" SROM keys, values that
// hold "=" and values that end in a newline (which leaves an empty line
// after them). What the Asuswrt pack asks for is there: productid,
// wl_ifnames and the primary WAN's wan0_* keys.
func TestNvramRealRouter(t *testing.T) {
	s := read(t, "merlinphp-rt-ac68u-380.59-nvram.txt")
	m := parseNvram(s)
	for k, want := range map[string]string{
		"productid":          "RT-AC68U",
		"odmpid":             "",
		"wl_ifnames":         "eth1 eth2",
		"wan0_state_t":       "2",
		"wan0_proto":         "pppoe",
		"wan0_ifname":        "eth0",
		"wan0_gw_ifname":     "ppp0",
		"wan0_ipaddr":        "125.96.194.0",
		"wan0_netmask":       "255.255.255.255",
		"wan0_gateway":       "125.96.128.1",
		"wan0_dns":           "8.8.8.8 8.8.4.4",
		"ftp_ports":          "ports=21,2021",
		"0:rxgains2gtrisoa0": "11",
		"ddns_ipaddr":        "125.96.194.0",
		"buildno":            "380.59",
		"extendno":           "X6.6.1",
		"usb_path_sdb_label": " ",
	} {
		if v, ok := m[k]; !ok || v != want {
			t.Errorf("%s = %q (present %v), want %q", k, v, ok, want)
		}
	}
	lines, keyed := 0, 0
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		lines++
		if strings.Contains(l, "=") {
			keyed++
		}
	}
	// Every NAME=VALUE line is a key (none repeats in this dump); the two
	// others are the empty lines after values ending in a newline.
	if lines != 2577 || keyed != 2575 || len(m) != 2575 {
		t.Errorf("%d lines, %d with =, %d keys; want 2577, 2575, 2575", lines, keyed, len(m))
	}
	w := nvramWAN(m)
	if w.State != "up" || w.Device != "ppp0" || w.Gateway != "125.96.128.1" || len(w.IPv4) != 1 || w.IPv4[0] != "125.96.194.0/32" {
		t.Errorf("nvramWAN = %+v", w)
	}
}
