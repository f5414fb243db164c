package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReleaseIsReproducible runs `make release-check` for this machine's
// platform: `make release`, then again from a copy of the source
// elsewhere with an empty build cache, the two SHA256SUMS equal. It then
// checks what only running the binary tells: `trench version` gives the
// version and commit passed to make, and the binary is static. CI runs
// `make release-check` for all four platforms; this test takes minutes
// (everything is compiled again), so it runs only with
// TRENCH_RELEASE_TESTS=1.
func TestReleaseIsReproducible(t *testing.T) {
	if os.Getenv("TRENCH_RELEASE_TESTS") != "1" {
		t.Skip("compiles everything twice for a release build: TRENCH_RELEASE_TESTS=1 runs it")
	}
	for _, tool := range []string{"make", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s on PATH", tool)
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dist := filepath.Join(t.TempDir(), "dist")
	cmd := exec.Command("make", "-s", "-C", root, "release-check", "VERSION=v9.8.7", "COMMIT=0123456789abcdef",
		"PLATFORMS="+runtime.GOOS+"/"+runtime.GOARCH, "DIST="+dist)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "the two builds are identical") {
		t.Fatalf("make release-check: %v\n%s", err, out)
	}
	bin := filepath.Join(dist, downloadName())
	sums, err := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
	if err != nil || !strings.Contains(string(sums), "  "+downloadName()+"\n") {
		t.Fatalf("SHA256SUMS does not list %s: %v\n%s", downloadName(), err, sums)
	}
	out, err = exec.Command(bin, "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "trench v9.8.7\ncommit 0123456789abcdef\n") {
		t.Fatalf("%s version: %v\n%s", bin, err, out)
	}
	if runtime.GOOS == "linux" {
		f, err := elf.Open(bin)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
				t.Fatal("the release binary is dynamically linked")
			}
		}
	}
}
