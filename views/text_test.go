package views

import (
	"context"
	"strings"
	"testing"

	"github.com/a-h/templ"
)

// TestTextEscapesAsTemplDoes: a cell written through Text reads the same
// as through templ's { }, markup in it shown as text, never as markup.
func TestTextEscapesAsTemplDoes(t *testing.T) {
	for _, s := range []string{
		"", "ada0", "2 jours 23 heures", "TRENCH · Official match (2 games) · Game 1",
		`<script>alert("x")</script>`, "Tom & Jerry", "l'été", `a"b`, "x>y<z", "&amp;",
	} {
		var b strings.Builder
		if err := Text(s).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		if got, want := b.String(), templ.EscapeString(s); got != want {
			t.Errorf("Text(%q) = %q, want %q", s, got, want)
		}
		if strings.ContainsAny(s, "<>") && strings.ContainsAny(b.String(), "<>") {
			t.Errorf("Text(%q) = %q: markup left in", s, b.String())
		}
	}
}
