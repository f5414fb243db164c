package views

import (
	"html"
	"strings"

	"github.com/a-h/templ"
)

// rulesTags are the inline tags a message of the rules pages may hold, so
// that a sentence with a word in bold or a bit of notation stays one
// message a translation can reorder.
var rulesTags = strings.NewReplacer(
	"&lt;strong&gt;", "<strong>", "&lt;/strong&gt;", "</strong>",
	"&lt;em&gt;", "<em>", "&lt;/em&gt;", "</em>",
	"&lt;code&gt;", "<code>", "&lt;/code&gt;", "</code>",
)

// rulesMarkup renders s, a translated text of the rules pages, escaped
// as any text is, except that its <strong>, <em> and <code> tags (and
// their ends, exactly so written) stay tags. Anything else that looks
// like markup ("<board>") is shown as written.
func rulesMarkup(s string) templ.Component {
	return templ.Raw(rulesTags.Replace(html.EscapeString(s)))
}
