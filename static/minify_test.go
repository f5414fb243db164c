package static

import (
	"io/fs"
	"strings"
	"testing"
)

// TestEveryFileMinifies: each script and style sheet of ours parses for
// the minifier and comes out smaller, comments gone, and that smaller
// copy is what is sent.
func TestEveryFileMinifies(t *testing.T) {
	names, err := fs.Glob(FS, "*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range names {
		if strings.HasSuffix(name, ".min.js") || !(strings.HasSuffix(name, ".js") || strings.HasSuffix(name, ".css")) {
			continue
		}
		n++
		b, err := FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Minified(name, b)
		if err != nil {
			t.Errorf("%s does not minify: %v", name, err)
			continue
		}
		if len(m) >= len(b)*9/10 {
			t.Errorf("%s: %d bytes minified from %d, want at least a tenth less", name, len(m), len(b))
		}
		if strings.Contains(string(m), "/*") || (strings.HasSuffix(name, ".js") && strings.Contains(string(m), "\n//")) {
			t.Errorf("%s: a comment is left in the minified copy", name)
		}
		if sent, ok := Content(name); !ok || string(sent) != string(m) {
			t.Errorf("%s: the content sent is not the minified copy", name)
		}
	}
	if n < 5 {
		t.Fatalf("%d scripts and style sheets found, want live.js, sw.js, push.js, style.css, dark.css and more", n)
	}
	htmx, err := FS.ReadFile("htmx.min.js")
	if err != nil {
		t.Fatal(err)
	}
	if sent, _ := Content("htmx.min.js"); string(sent) != string(htmx) {
		t.Error("htmx.min.js is not sent as vendored")
	}
}
