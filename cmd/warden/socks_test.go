package main

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"
)

// echoOn listens on ip and answers each line with "echo:" and the line.
func echoOn(t *testing.T, ip string) (net.Listener, int) {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				line, _ := bufio.NewReader(c).ReadString('\n')
				io.WriteString(c, "echo:"+line)
			}()
		}
	}()
	return ln, ln.Addr().(*net.TCPAddr).Port
}

// socksConnect asks the SOCKS5 proxy at proxy for a destination of the
// given address type and returns the reply code, and the echo of a line
// sent through when the proxy connected.
func socksConnect(t *testing.T, proxy string, atyp byte, addr []byte, port int) (byte, string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", proxy, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(15 * time.Second))
	req := []byte{5, 1, 0, 5, 1, 0, atyp}
	if atyp == 3 {
		req = append(req, byte(len(addr)))
	}
	req = append(req, addr...)
	req = binary.BigEndian.AppendUint16(req, uint16(port))
	if _, err := c.Write(req); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	var greet [2]byte
	if _, err := io.ReadFull(br, greet[:]); err != nil {
		t.Fatalf("socks greeting: %v", err)
	}
	var reply [10]byte
	if _, err := io.ReadFull(br, reply[:]); err != nil {
		return 0xff, ""
	}
	if reply[1] != 0 {
		return reply[1], ""
	}
	io.WriteString(c, "ping\n")
	line, _ := br.ReadString('\n')
	return 0, line
}

// dynamicForwardChecks opens a SOCKS forward through host a and asks it
// for 127.0.0.3, which policy denies, in every spelling a SOCKS client
// can send; each is refused with "not allowed by ruleset", while an
// allowed destination connects.
func dynamicForwardChecks(t *testing.T, f *fleetFixture) {
	_, okPort := echoOn(t, "127.0.0.1")
	_, deniedPort := echoOn(t, "127.0.0.3")
	_, got := f.call(t, "forward_open", map[string]any{"host": "a", "spec": "D:0"})
	want(t, "forward_open D:0", got, "ok")
	proxy, id := got["listen"].(string), got["forward_id"].(string)
	defer f.call(t, "forward_close", map[string]any{"forward_id": id})

	if code, echo := socksConnect(t, proxy, 1, net.ParseIP("127.0.0.1").To4(), okPort); code != 0 || echo != "echo:ping\n" {
		t.Fatalf("an allowed destination through the SOCKS forward: reply %d, echo %q", code, echo)
	}
	denied := []struct {
		name string
		atyp byte
		addr []byte
	}{
		{"IPv4", 1, net.ParseIP("127.0.0.3").To4()},
		{"IPv4-mapped IPv6", 4, net.ParseIP("::ffff:127.0.0.3").To16()},
	}
	for _, name := range []string{
		"127.0.0.3", "2130706435", "0x7f000003", "0177.0.0.3", "127.3", "127.0.3", "0x7f.0.0.3",
		"127.0.0.3.", "::ffff:127.0.0.3", "::ffff:7f00:3", "64:ff9b::7f00:3",
	} {
		denied = append(denied, struct {
			name string
			atyp byte
			addr []byte
		}{"name " + name, 3, []byte(name)})
	}
	for _, d := range denied {
		if code, echo := socksConnect(t, proxy, d.atyp, d.addr, deniedPort); code != 2 {
			t.Errorf("SOCKS to a denied address, %s: reply %d, echo %q; want 2 (not allowed by ruleset)", d.name, code, echo)
		}
	}
	if code, _ := socksConnect(t, proxy, 1, net.ParseIP("127.0.0.1").To4(), okPort); code != 0 {
		t.Fatalf("the forward stopped serving after refusals: reply %d", code)
	}
}
