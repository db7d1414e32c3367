package main

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

const modulePath = "github.com/warden-mcp/warden"

// moduleFiles lists the repository's files as a module zip holds them:
// the files git shows (tracked, and untracked ones it does not ignore, as
// go build in this tree sees them; outside a checkout, every regular file
// but .git and bin), without vendor directories and nested modules.
func moduleFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil {
		for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
			if st, err := os.Lstat(filepath.Join(root, f)); err == nil && st.Mode().IsRegular() {
				files = append(files, f)
			}
		}
	} else {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			if d.IsDir() && (rel == ".git" || rel == "bin") {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				files = append(files, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var nested []string
	for _, f := range files {
		if strings.HasSuffix(f, "/go.mod") {
			nested = append(nested, strings.TrimSuffix(f, "go.mod"))
		}
	}
	return slices.DeleteFunc(files, func(f string) bool {
		if strings.HasPrefix(f, "vendor/") || strings.Contains(f, "/vendor/") {
			return true
		}
		return slices.ContainsFunc(nested, func(d string) bool { return strings.HasPrefix(f, d) })
	})
}

// fileProxy writes a GOPROXY directory (the layout `GOPROXY=file://DIR`
// reads: @v/list, .info, .mod, .zip) serving the repository's tree as
// one version of the module, and returns the directory and the version.
// The version is named by the tree's content, so the module cache entry
// `go install` makes is the same tree whenever the name is the same.
func fileProxy(t *testing.T, root string) (string, string) {
	t.Helper()
	files := moduleFiles(t, root)
	slices.Sort(files)
	h := sha256.New()
	contents := make([][]byte, len(files))
	for i, f := range files {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		contents[i] = b
		h.Write([]byte(f + "\x00"))
		h.Write(b)
		h.Write([]byte{0})
	}
	version := "v0.0.0-proxytest.h" + hex.EncodeToString(h.Sum(nil))[:12]
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for i, f := range files {
		w, err := zw.Create(modulePath + "@" + version + "/" + f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(contents[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	v := filepath.Join(dir, filepath.FromSlash(modulePath), "@v")
	if err := os.MkdirAll(v, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": []byte(`{"Version":"` + version + `","Time":"2026-01-01T00:00:00Z"}`),
		version + ".mod":  gomod,
		version + ".zip":  zb.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(v, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, version
}

// TestGoInstallLatest: the README's `go install …/cmd/warden@latest`
// works, without network: the module is served from a file GOPROXY made
// of this tree, the dependencies from the module cache's own download
// directory, and the installed binary reports the module version go
// install fetched, not dev.
func TestGoInstallLatest(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go toolchain")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const install = "go install " + modulePath + "/cmd/warden@latest"
	if !bytes.Contains(readme, []byte(install)) {
		t.Fatalf("the README no longer offers %q; update this test", install)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(goBin, "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	modcache := strings.TrimSpace(string(out))
	proxy, version := fileProxy(t, root)
	gobin := t.TempDir()

	// Leave the shared module cache as it was; the build cache keeps
	// what is worth keeping.
	t.Cleanup(func() {
		_ = os.RemoveAll(filepath.Join(modcache, filepath.FromSlash(modulePath)+"@"+version))
		for _, ext := range []string{".info", ".mod", ".zip", ".ziphash", ".lock"} {
			_ = os.Remove(filepath.Join(modcache, "cache", "download", filepath.FromSlash(modulePath), "@v", version+ext))
		}
		_ = os.Remove(filepath.Join(modcache, "cache", "download", filepath.FromSlash(modulePath), "@v"))
		_ = os.Remove(filepath.Join(modcache, "cache", "download", filepath.FromSlash(modulePath)))
	})

	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, strings.Fields(install)[1:]...)
	cmd.Dir = t.TempDir() // outside any module
	cmd.Env = append(os.Environ(),
		"GOBIN="+gobin,
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(filepath.Join(modcache, "cache", "download")),
		"GOSUMDB=off", "GONOSUMDB=*", "GOPRIVATE=", "GONOPROXY=",
		"GOFLAGS=-modcacherw", "GOTOOLCHAIN=local", "GOWORK=off",
	)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", install, err, b)
	}
	v, err := exec.Command(filepath.Join(gobin, "warden"), "version").Output()
	if err != nil {
		t.Fatalf("installed warden version: %v", err)
	}
	first, _, _ := strings.Cut(string(v), "\n")
	if first != "warden "+version {
		t.Errorf("installed warden version says %q, want %q (the module version go install fetched)\n%s", first, "warden "+version, v)
	}
}
