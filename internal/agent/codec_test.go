package agent

import (
	"bytes"
	"context"
	"errors"
	"net"
	"reflect"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
)

// fill sets every field of the struct v points to a value that is not
// zero, so a field the binary form leaves out shows in a round trip. A
// field of a kind it cannot fill fails the test: the codec must learn it.
func fill(t *testing.T, v any) {
	t.Helper()
	s := reflect.ValueOf(v).Elem()
	for i := range s.NumField() {
		f, name := s.Field(i), s.Type().Field(i).Name
		switch f.Kind() {
		case reflect.String:
			f.SetString(name + " ✓")
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Int64:
			f.SetInt(-int64(i+1) * 1_000_003)
		case reflect.Slice:
			switch f.Type().Elem().Kind() {
			case reflect.Uint8:
				f.SetBytes([]byte{0, byte(i), 0xff, '\n'})
			case reflect.String:
				f.Set(reflect.ValueOf([]string{name, "", "a=b c"}))
			default:
				t.Fatalf("cannot fill %s %s", name, f.Type())
			}
		default:
			t.Fatalf("cannot fill %s %s", name, f.Type())
		}
	}
}

// Every field of a run and of its result survives the binary form, and
// the binary form is what a run uses.
func TestRunCodecRoundTrip(t *testing.T) {
	rc := &runCall{}
	fill(t, rc)
	c := call{Op: opRun, Level: "read", Tool: "run_command", Daemons: true, Run: rc}
	b, err := encodeCall(c)
	if err != nil || len(b) == 0 || b[0] != runTag {
		t.Fatalf("a run is not sent in the binary form: %q %v", b, err)
	}
	got, err := decodeCall(b)
	if err != nil || !reflect.DeepEqual(got, c) {
		t.Errorf("run call: got %+v %+v %v, want %+v %+v", got, got.Run, err, c, c.Run)
	}

	res := &runner.Result{}
	fill(t, res)
	r := reply{Run: res}
	b, err = encodeReply(r)
	if err != nil || len(b) == 0 || b[0] != runTag {
		t.Fatalf("a run's result is not sent in the binary form: %q %v", b, err)
	}
	gotr, err := decodeReply(b)
	if err != nil || !reflect.DeepEqual(gotr, r) {
		t.Errorf("run result: got %+v %v, want %+v", gotr.Run, err, r.Run)
	}
}

// What the binary form cannot hold goes as JSON, and JSON still decodes.
func TestRunCodecFallsBackToJSON(t *testing.T) {
	for name, c := range map[string]call{
		"hello":           {Op: opHello},
		"run and a path":  {Op: opRun, Run: &runCall{Argv: []string{"true"}}, Path: "/etc"},
		"run, no command": {Op: opRun},
	} {
		b, err := encodeCall(c)
		if err != nil || len(b) == 0 || b[0] != '{' {
			t.Errorf("%s: %q %v, want JSON", name, b, err)
			continue
		}
		if got, err := decodeCall(b); err != nil || !reflect.DeepEqual(got, c) {
			t.Errorf("%s: got %+v %v", name, got, err)
		}
	}
	for name, r := range map[string]reply{
		"error":             {Err: "no such file", Kind: "not_exist"},
		"result and errors": {Run: &runner.Result{ExitCode: 1}, Err: "x"},
		"hello":             {Hello: &Hello{Protocol: Protocol}},
	} {
		b, err := encodeReply(r)
		if err != nil || len(b) == 0 || b[0] != '{' {
			t.Errorf("%s: %q %v, want JSON", name, b, err)
			continue
		}
		if got, err := decodeReply(b); err != nil || !reflect.DeepEqual(got, r) {
			t.Errorf("%s: got %+v %v", name, got, err)
		}
	}
}

// A malformed binary body is an error naming it, never a panic or a
// partial call: every truncation of a good body, bytes left over, a
// length beyond the body, a number out of range, unknown flags.
func TestRunCodecMalformed(t *testing.T) {
	cb, _ := encodeCall(call{Op: opRun, Level: "read", Run: &runCall{Argv: []string{"/bin/sh", "-c", "echo hi"}, Env: env, Stdin: []byte("in"), Timeout: time.Second}})
	rb, _ := encodeReply(reply{Run: &runner.Result{ExitCode: 3, Stdout: []byte("hi\n"), TimedOut: true, Duration: time.Millisecond}})
	for i := 1; i < len(cb); i++ {
		if _, err := decodeCall(cb[:i]); !errors.Is(err, errBody) {
			t.Errorf("call cut at %d of %d: %v", i, len(cb), err)
		}
	}
	for i := 1; i < len(rb); i++ {
		if _, err := decodeReply(rb[:i]); !errors.Is(err, errBody) {
			t.Errorf("reply cut at %d of %d: %v", i, len(rb), err)
		}
	}
	for name, b := range map[string][]byte{
		"left over":      append(append([]byte(nil), cb...), 0),
		"huge length":    {runTag, 0xff, 0xff, 0xff, 0xff, 0x0f},
		"endless number": append([]byte{runTag}, bytes.Repeat([]byte{0x80}, 20)...),
	} {
		if _, err := decodeCall(b); !errors.Is(err, errBody) {
			t.Errorf("call, %s: %v", name, err)
		}
	}
	// The daemons flag is 0 or 1: tag, "read" (length 4), tool "", flag.
	daemons, _ := encodeCall(call{Op: opRun, Level: "read", Run: &runCall{Argv: []string{"sh"}}})
	if daemons[7] != 0 {
		t.Fatalf("the flag is not where the test looks: %v", daemons)
	}
	daemons[7] = 2
	if _, err := decodeCall(daemons); !errors.Is(err, errBody) {
		t.Errorf("call with a daemons flag of 2: %v", err)
	}
	flags := []byte{runTag, 0, 0, 0, 8, 0, 0}
	if _, err := decodeReply(flags); !errors.Is(err, errBody) {
		t.Errorf("reply with unknown flags: %v", err)
	}
}

// A malformed binary call ends the stream with a protocol error, as bad
// JSON does.
func TestRunCodecBadCallEndsStream(t *testing.T) {
	a, b := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- Serve(context.Background(), b, ServeOptions{}) }()
	go func() {
		a.Write(appendFrame(nil, frame{typ: frameCall, id: 1, payload: []byte{runTag, 9}}))
		a.Close()
	}()
	select {
	case err := <-served:
		if !errors.Is(err, errFrame) || !errors.Is(err, errBody) {
			t.Errorf("Serve: %v, want a malformed body", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve hung on a malformed call")
	}
}

func FuzzDecodeBody(f *testing.F) {
	c, _ := encodeCall(call{Op: opRun, Level: "read", Tool: "run_command", Run: &runCall{Argv: []string{"sh", "-c", "echo hi"}, Env: env, Timeout: time.Minute, MaxBytes: 1000}})
	r, _ := encodeReply(reply{Run: &runner.Result{ExitCode: 1, Stdout: []byte("hi\n"), Stderr: []byte("x"), Canceled: true, TotalBytes: 5}})
	f.Add(c)
	f.Add(r)
	f.Add([]byte(`{"op":"hello"}`))
	f.Add([]byte{runTag})
	f.Fuzz(func(t *testing.T, b []byte) {
		if c, err := decodeCall(b); err == nil && len(b) > 0 && b[0] == runTag {
			// What decodes encodes back to a body that decodes the same.
			again, err := encodeCall(c)
			if err != nil {
				t.Fatal(err)
			}
			if c2, err := decodeCall(again); err != nil || !reflect.DeepEqual(c2, c) {
				t.Fatalf("call round trip: %+v, then %+v %v", c, c2, err)
			}
		}
		if r, err := decodeReply(b); err == nil && len(b) > 0 && b[0] == runTag {
			again, err := encodeReply(r)
			if err != nil {
				t.Fatal(err)
			}
			if r2, err := decodeReply(again); err != nil || !reflect.DeepEqual(r2, r) {
				t.Fatalf("reply round trip: %+v, then %+v %v", r.Run, r2.Run, err)
			}
		}
	})
}
