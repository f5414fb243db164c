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

// Render writes t escaped to w: as it is when it holds none of the
// characters HTML escapes (most cells: names, dates, spans), else through
// templ.EscapeString.
func (t Text) Render(_ context.Context, w io.Writer) error {
	s := string(t)
	for i := 0; i < len(s); i++ {
		if escaped[s[i]] {
			s = templ.EscapeString(s)
			break
		}
	}
	_, err := io.WriteString(w, s)
	return err
}

// escaped marks the bytes templ.EscapeString replaces.
var escaped = [256]bool{'<': true, '>': true, '&': true, '\'': true, '"': true}
