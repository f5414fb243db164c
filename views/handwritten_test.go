package views

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestHandWrittenMarkupEscapesText: the parts of a game page written by
// hand (board squares, the move list, the move box's options) escape
// every text they write, as templ would, so that no label, move or link
// can open a tag or leave its attribute.
func TestHandWrittenMarkupEscapesText(t *testing.T) {
	const evil = `"><script>alert(1)</script>&`
	render := func(what string, write func(ctx context.Context, buf *bytes.Buffer) error) {
		t.Helper()
		var buf bytes.Buffer
		if err := write(context.Background(), &buf); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		out := buf.String()
		if strings.Contains(out, "<script") || strings.Contains(out, evil) {
			t.Errorf("%s writes the text unescaped: %s", what, out)
		}
		if !strings.Contains(out, "&#34;&gt;&lt;script&gt;") {
			t.Errorf("%s does not show the text escaped: %s", what, out)
		}
	}
	render("a square", func(ctx context.Context, buf *bytes.Buffer) error {
		return boardRow([]square{
			{Step: Step{Move: evil}, Name: evil, Class: evil, Label: evil},
			{Step: Step{Href: "/games/1?sel=" + evil}, Name: "d4", Label: evil},
			{Name: "e5", Label: evil, Labelled: true},
		}).Render(ctx, buf)
	})
	render("the move list", func(ctx context.Context, buf *bytes.Buffer) error {
		return logLines(GamePage{LogHref: "/games/1?ply=" + evil}, []LogLine{{Ply: 1, Text: evil, Mistake: true}}).Render(ctx, buf)
	})
	render("the move box's options", func(ctx context.Context, buf *bytes.Buffer) error {
		return moveListOptions([]string{evil}).Render(ctx, buf)
	})
}
