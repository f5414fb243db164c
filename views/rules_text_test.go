package views

import (
	"context"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestRulesMarkupKeepsOnlyInlineTags: a rules text shows its bold, italic
// and code as such, and anything else that looks like markup as written.
func TestRulesMarkupKeepsOnlyInlineTags(t *testing.T) {
	var b strings.Builder
	in := `<strong>Black</strong> <em>i</em> <code><board></code> <script>x</script> <a href="/">a</a> 3 < 4 & "q"`
	if err := rulesMarkup(in).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	want := `<strong>Black</strong> <em>i</em> <code>&lt;board&gt;</code> &lt;script&gt;x&lt;/script&gt; &lt;a href=&#34;/&#34;&gt;a&lt;/a&gt; 3 &lt; 4 &amp; &#34;q&#34;`
	if got := b.String(); got != want {
		t.Errorf("rulesMarkup wrote\n%s\nwant\n%s", got, want)
	}
}

var inlineTagRE = regexp.MustCompile(`</?(?:strong|em|code)>`)

// TestCataloguesKeepTheInlineTags: a translation of a message with inline
// tags holds the same tags, so no bold runs on to the end of a paragraph
// and no notation loses its code face.
func TestCataloguesKeepTheInlineTags(t *testing.T) {
	if err := CatalogueError(); err != nil {
		t.Fatal(err)
	}
	tags := func(s string) string {
		f := inlineTagRE.FindAllString(s, -1)
		sort.Strings(f)
		return strings.Join(f, "")
	}
	n := 0
	for id := range catalogues["en"].plain {
		want := tags(id)
		if want == "" {
			continue
		}
		n++
		for _, l := range Languages {
			if got := tags(catalogues[l.Code].plain[id]); got != want {
				t.Errorf("%s.toml: %q has the tags %s, want %s", l.Code, id, got, want)
			}
		}
	}
	if n == 0 {
		t.Fatal("no message with inline tags: the rules pages hold some")
	}
}
