package docker

import (
	"archive/tar"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/declare/sandboxtest"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/local"
	"github.com/warden-mcp/warden/internal/runner/runnertest"
)

// TestImage is the local image the tests run: busybox alone, imported
// from the host's busybox-static binary, since no registry is reachable.
const TestImage = "warden-test/busybox:local"

// dockerEnv returns the docker CLI and DOCKER_HOST, building the test image
// if needed, or skips the test with the reason docker cannot run here
// unless WARDEN_REQUIRE_DOCKER=1.
func dockerEnv(t *testing.T) (path, host string) {
	t.Helper()
	skip := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("WARDEN_REQUIRE_DOCKER") == "1" {
			t.Fatalf("docker required but unusable: "+format, args...)
		}
		t.Skipf("docker unusable here ("+format+"); set WARDEN_REQUIRE_DOCKER=1 to fail instead", args...)
	}
	path, err := exec.LookPath("docker")
	if err != nil {
		skip("%v", err)
	}
	host = os.Getenv("DOCKER_HOST")
	if out, err := exec.Command(path, "info", "--format", "{{.ServerVersion}}").CombinedOutput(); err != nil {
		skip("no docker daemon: %v: %s", err, bytes.TrimSpace(out))
	}
	if exec.Command(path, "image", "inspect", TestImage).Run() != nil {
		if err := importBusybox(path); err != nil {
			skip("cannot build %s: %v", TestImage, err)
		}
	}
	return path, host
}

// importBusybox builds TestImage from /bin/busybox with docker import.
func importBusybox(docker string) error {
	bb, err := os.ReadFile("/bin/busybox")
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dirs := []string{"bin/", "etc/", "tmp/", "root/"}
	for _, d := range dirs {
		_ = tw.WriteHeader(&tar.Header{Name: d, Typeflag: tar.TypeDir, Mode: 0o755})
	}
	_ = tw.WriteHeader(&tar.Header{Name: "bin/busybox", Mode: 0o755, Size: int64(len(bb))})
	_, _ = tw.Write(bb)
	passwd := "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n"
	_ = tw.WriteHeader(&tar.Header{Name: "etc/passwd", Mode: 0o644, Size: int64(len(passwd))})
	_, _ = tw.Write([]byte(passwd))
	list, err := exec.Command("/bin/busybox", "--list").Output()
	if err != nil {
		return err
	}
	for _, name := range strings.Fields(string(list)) {
		if name != "busybox" {
			_ = tw.WriteHeader(&tar.Header{Name: "bin/" + name, Typeflag: tar.TypeSymlink, Linkname: "busybox", Mode: 0o777})
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	cmd := exec.Command(docker, "import", "-", TestImage)
	cmd.Stdin = &buf
	if out, err := cmd.CombinedOutput(); err != nil {
		return &importError{err, out}
	}
	return nil
}

type importError struct {
	err error
	out []byte
}

func (e *importError) Error() string { return e.err.Error() + ": " + string(e.out) }

func testBase() *local.Runner {
	return local.New(local.Options{ProgressEvery: 50 * time.Millisecond, KillGrace: 300 * time.Millisecond})
}

func TestConformance(t *testing.T) {
	path, host := dockerEnv(t)
	runnertest.Run(t, func(t *testing.T) runner.Runner {
		r, err := New(testBase(), path, host, Options{Image: TestImage})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}, runnertest.Options{KillGrace: 300 * time.Millisecond, ProgressEvery: 50 * time.Millisecond, LargeOutput: 16 << 20,
		Skip: map[string]string{
			"env":       "docker sets HOME and HOSTNAME in every container",
			"env-exact": "docker sets HOME and HOSTNAME in every container",
			"errors":    "docker creates a missing working directory inside the container",
		}})
}

func TestConfinement(t *testing.T) {
	path, host := dockerEnv(t)
	sandboxtest.Run(t, func(t *testing.T, p sandboxtest.Policy) runner.Runner {
		o := Options{Image: TestImage, AllowNetworking: p.Network}
		if p.Network {
			// The test daemon may have no bridge; the host network reaches the listener.
			o.Network = "host"
		}
		for _, d := range p.ReadFolders {
			o.Mounts = append(o.Mounts, d+":"+d+":ro")
		}
		for _, d := range p.WriteFolders {
			o.Mounts = append(o.Mounts, d+":"+d+":rw")
		}
		r, err := New(testBase(), path, host, o)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}, sandboxtest.Options{Env: []string{"PATH=/bin"}, Connect: func(h string, port int) string {
		return "nc -w 3 " + h + " " + strconv.Itoa(port) + " </dev/null"
	}})
}

func TestPrepareAndOptions(t *testing.T) {
	path, host := dockerEnv(t)
	sw := 10
	r, err := New(testBase(), path, host, Options{Image: TestImage, Prepare: "echo prepared > /tmp/p", Workdir: "/tmp", RunOpts: "--pids-limit 64 --read-only --tmpfs=/tmp", MemorySwappiness: &sw, CapDrop: []string{"ALL"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Run(t.Context(), runner.Request{Argv: []string{"/bin/sh", "-c", "cat /tmp/p; pwd; touch /x 2>&1 || echo ro"}, Env: []string{"PATH=/bin"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Stdout); !strings.Contains(got, "prepared\n/tmp\n") || !strings.Contains(got, "ro") {
		t.Errorf("stdout = %q, want prepared, /tmp and a read-only root", got)
	}
}

func TestOptionChecks(t *testing.T) {
	bad := []Options{
		{},
		{Image: "x; rm -rf /"},
		{Image: "a", Network: "host"},
		{Image: "a", Mounts: []string{"rel:/x"}},
		{Image: "a", Mounts: []string{"/a:/b:rwx"}},
		{Image: "a", Mounts: []string{"/:/host"}},
		{Image: "a", Mounts: []string{"/a/../etc:/b"}},
		{Image: "a", User: "root;id"},
		{Image: "a", Workdir: "tmp"},
		{Image: "a", Memory: "1g; id"},
		{Image: "a", CapAdd: []string{"SYS ADMIN"}},
		{Image: "a", DNS: []string{"dns.example"}},
		{Image: "a", Platform: "linux"},
		{Image: "a", RunOpts: "--privileged"},
		{Image: "a", RunOpts: "--cpus 1 -v /:/host"},
		{Image: "a", RunOpts: "--cpus $(id)"},
		{Image: "a", RunOpts: "--security-opt seccomp=unconfined"},
		{Image: "a", RunOpts: "--cpus 1; id"},
		{Image: "a", RunOpts: "--label a=$HOME"},
	}
	for _, o := range bad {
		if _, err := New(testBase(), "/usr/bin/docker", "", o); err == nil {
			t.Errorf("New(%+v): error = nil, want one", o)
		}
	}
	r, err := New(testBase(), "/usr/bin/docker", "", Options{Image: "alpine:3", RunOpts: `--cpus 1 --label "a=b c" --read-only`})
	if err == nil {
		t.Errorf("label with a space: error = nil, want one (%v)", r.args)
	}
	r, err = New(testBase(), "/usr/bin/docker", "", Options{Image: "alpine:3", RunOpts: `--cpus "1.5" --read-only --pids-limit=5`})
	if err != nil {
		t.Fatal(err)
	}
	argv, _ := r.Argv(runner.Request{Argv: []string{"sh"}})
	got := strings.Join(argv, " ")
	for _, want := range []string{"--network none", "--cpus=1.5", "--read-only", "--pids-limit=5", "--security-opt no-new-privileges", "-- alpine:3 sh"} {
		if !strings.Contains(got, want) {
			t.Errorf("argv %q lacks %q", got, want)
		}
	}
}
