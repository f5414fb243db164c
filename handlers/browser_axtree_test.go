package handlers_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/chromedp"
)

// axNames returns the accessible names Chromium computes for the nodes of
// role in the page's accessibility tree (what a screen reader announces).
func (b *tab) axNames(role string) []string {
	b.t.Helper()
	res, err := chromedp.Call(b.ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		b.t.Fatalf("read the accessibility tree: %v", err)
	}
	var names []string
	for _, n := range res.Nodes {
		if n.Ignored || n.Role == nil || n.Name == nil {
			continue
		}
		var r, name string
		if json.Unmarshal(n.Role.Value, &r) != nil || r != role {
			continue
		}
		if err := json.Unmarshal(n.Name.Value, &name); err != nil {
			b.t.Fatalf("the name of a %s node: %v", role, err)
		}
		names = append(names, name)
	}
	return names
}

// TestBrowserSquareNamesSayTheirCoordinateOnce: a screen reader announces
// each square of the board by its coordinate once ("a5, Black Sergeant,
// select"), not twice: the coordinate drawn in the square's corner is
// decoration, left out of the name Chromium computes.
func TestBrowserSquareNamesSayTheirCoordinateOnce(t *testing.T) {
	needChromium(t)
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	browserGame(t, s, b)
	names := b.axNames("gridcell")
	if len(names) < 64 {
		t.Fatalf("the accessibility tree has %d squares, want 64: %q", len(names), names)
	}
	for _, name := range names {
		f := strings.Fields(strings.ReplaceAll(name, ",", " "))
		if len(f) == 0 {
			t.Fatalf("a square has no accessible name")
		}
		if len(f) > 1 && f[0] == f[1] {
			t.Fatalf("a square is announced as %q: its coordinate twice", name)
		}
	}
}
