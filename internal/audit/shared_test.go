package audit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

const writerEnv = "WARDEN_AUDIT_WRITER_CHILD"

// writerChild appends WARDEN_AUDIT_WRITER_N records from 4 goroutines as
// node WARDEN_AUDIT_WRITER_NODE, printing "ready" after the first, then
// exits. N = 0 appends until killed.
func writerChild(path string) {
	n, _ := strconv.Atoi(os.Getenv(writerEnv + "_N"))
	node := os.Getenv(writerEnv + "_NODE")
	l, err := Open(Options{Path: path, Sync: SyncMode(os.Getenv(writerEnv + "_SYNC")), RotateBytes: 128 << 10, Node: node})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var next sync.Mutex
	i := 0
	var once sync.Once
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				next.Lock()
				if n > 0 && i >= n {
					next.Unlock()
					return
				}
				k := i
				i++
				next.Unlock()
				r := sample(k)
				r.ID = fmt.Sprintf("%s-%d", node, k)
				if _, err := l.Append(context.Background(), r); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(3)
				}
				once.Do(func() { fmt.Println("ready") })
			}
		}()
	}
	wg.Wait()
	if err := l.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(4)
	}
}

func startWriter(t *testing.T, path, node string, n int, mode SyncMode) (*exec.Cmd, *bufio.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), writerEnv+"="+path, writerEnv+"_N="+strconv.Itoa(n),
		writerEnv+"_NODE="+node, writerEnv+"_SYNC="+string(mode))
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, bufio.NewReader(out)
}

// recordsByNode counts the records of each node across the log's files and
// checks that no ID appears twice.
func recordsByNode(t *testing.T, path string) map[string]int {
	t.Helper()
	files, err := Files(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	count := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, maxLine)
		for sc.Scan() {
			var r Record
			if json.Unmarshal(sc.Bytes(), &r) != nil || r.Tool == recoveryTool {
				continue
			}
			if seen[r.ID] {
				t.Fatalf("record %s appears twice", r.ID)
			}
			seen[r.ID] = true
			count[r.Node]++
		}
	}
	return count
}

// TestManyProcessesShareOneLog runs writer processes at once on one log,
// killing one of them mid-burst: every record of every other writer is
// there exactly once, the chain verifies, and the killed writer's records
// are there up to its last complete one.
func TestManyProcessesShareOneLog(t *testing.T) {
	if testing.Short() {
		t.Skip("re-execs the test binary")
	}
	each := 2000
	if raceEnabled {
		each = 500
	}
	for _, mode := range []SyncMode{SyncNone, SyncGroup} {
		t.Run(string(mode), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			var cmds []*exec.Cmd
			for w := 0; w < 3; w++ {
				cmd, _ := startWriter(t, path, fmt.Sprintf("w%d", w), each, mode)
				cmds = append(cmds, cmd)
			}
			victim, out := startWriter(t, path, "victim", 0, mode)
			if line, err := out.ReadString('\n'); err != nil || line != "ready\n" {
				t.Fatalf("victim: %q %v", line, err)
			}
			time.Sleep(100 * time.Millisecond)
			victim.Process.Signal(syscall.SIGKILL)
			victim.Wait()
			for i, cmd := range cmds {
				if err := cmd.Wait(); err != nil {
					t.Fatalf("writer %d: %v", i, err)
				}
			}
			rep := verifyPath(t, path, nil)
			if rep.Problem != nil {
				t.Fatalf("Verify: %v", rep.Problem)
			}
			got := recordsByNode(t, path)
			for w := 0; w < 3; w++ {
				if n := got[fmt.Sprintf("w%d", w)]; n != each {
					t.Errorf("writer w%d: %d records, want %d", w, n, each)
				}
			}
			if got["victim"] == 0 {
				t.Error("the killed writer left no records")
			}
			if rep.Records < 3*each+got["victim"] {
				t.Errorf("verified %d records, want at least %d", rep.Records, 3*each+got["victim"])
			}
			head, err := ReadHead(HeadPath(path))
			if err != nil {
				t.Fatal(err)
			}
			if p, note := CheckHead(rep, head); p != nil || note != "" {
				t.Fatalf("head %+v against the log (last seq %d): %v %s", head, rep.LastSeq, p, note)
			}
			t.Logf("%d records in %d files; victim wrote %d; recovered %d", rep.Records, len(rep.Files), got["victim"], len(rep.Recovered))
		})
	}
}
