package views

import (
	"context"
	"io"

	"github.com/a-h/templ"
)

// Text is s as { s } writes it in a template, escaped for HTML, without
// the formatting of a value that { } goes through (fmt.Sprint): for the
// cells of long lists, where that formatting was a tenth of a dashboard
// of 200 games.
type Text string

// Render writes t escaped to w.
func (t Text) Render(_ context.Context, w io.Writer) error {
	_, err := io.WriteString(w, templ.EscapeString(string(t)))
	return err
}
