package main

import (
	"debug/elf"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// copyTree copies the source files under src to dst (no .git, no build
// output, no databases).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			switch d.Name() {
			case ".git", "bin", "dist", "node_modules":
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() || strings.Contains(d.Name(), ".db") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReleaseIsReproducible runs `make release` for this machine's
// platform in the source tree and in a copy of it elsewhere: the sums
// must be equal, the binary static, and `trench version` must tell the
// version and commit given. (`make release` for every platform is the
// same loop.) It takes minutes on a cold build cache, so it runs only
// with TRENCH_RELEASE_TESTS=1.
func TestReleaseIsReproducible(t *testing.T) {
	if os.Getenv("TRENCH_RELEASE_TESTS") != "1" {
		t.Skip("compiles everything again for a release build: TRENCH_RELEASE_TESTS=1 runs it (CI)")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make on PATH")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(t.TempDir(), "elsewhere")
	copyTree(t, root, copied)
	platform := runtime.GOOS + "/" + runtime.GOARCH
	release := func(src string) (sums, bin string) {
		t.Helper()
		dist := filepath.Join(t.TempDir(), "dist")
		cmd := exec.Command("make", "-s", "-C", src, "release", "VERSION=v9.8.7", "COMMIT=0123456789abcdef",
			"PLATFORMS="+platform, "DIST="+dist)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("make release in %s: %v\n%s", src, err, out)
		}
		b, err := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
		if err != nil {
			t.Fatal(err)
		}
		name := "trench-" + runtime.GOOS + "-" + runtime.GOARCH
		if runtime.GOOS == "windows" {
			name += ".exe"
		}
		return string(b), filepath.Join(dist, name)
	}
	sums1, bin := release(root)
	sums2, _ := release(copied)
	if sums1 != sums2 || !strings.Contains(sums1, filepath.Base(bin)) {
		t.Fatalf("two release builds differ:\n%s\n%s", sums1, sums2)
	}
	out, err := exec.Command(bin, "version").CombinedOutput()
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
