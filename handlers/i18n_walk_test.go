package handlers_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// catalogueTexts returns the texts of the catalogue of lang (every form
// of every message).
func catalogueTexts(t *testing.T, lang string) []string {
	t.Helper()
	b, err := os.ReadFile("../views/locales/" + lang + ".toml")
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := toml.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, v := range raw {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case map[string]any:
			for _, f := range v {
				if s, ok := f.(string); ok {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// englishSentences returns patterns of the English catalogue's sentences
// (its texts cut at markup and sentence marks) of three words or more,
// each value of a sentence standing for any short text, that the
// catalogue of lang does not hold too.
func englishSentences(t *testing.T, lang string) []*regexp.Regexp {
	t.Helper()
	cut := regexp.MustCompile(`<[^>]*>|[.:;!?()“”"«»—…·|]|\n`)
	verb := regexp.MustCompile(`%(\[\d+\])?[-+# 0-9.]*[a-zA-Z]`)
	word := regexp.MustCompile(`\pL+`)
	other := strings.Join(catalogueTexts(t, lang), "\n")
	seen := map[string]bool{}
	var out []*regexp.Regexp
	for _, text := range catalogueTexts(t, "en") {
		for _, part := range cut.Split(strings.ReplaceAll(text, "%%", "%"), -1) {
			part = strings.Trim(part, " ,'-")
			literal := verb.ReplaceAllString(part, " ")
			if len(word.FindAllString(literal, -1)) < 3 || seen[part] || strings.Contains(other, part) {
				continue
			}
			seen[part] = true
			pieces := verb.Split(part, -1)
			for i, p := range pieces {
				pieces[i] = regexp.QuoteMeta(p)
			}
			out = append(out, regexp.MustCompile(`\b`+strings.Join(pieces, `\S+(?: \S+){0,6}?`)+`\b`))
		}
	}
	return out
}

// TestNoEnglishSentenceAnywhere: a player who signed up from a browser in
// French, Portuguese, Spanish or German meets no sentence of the English
// catalogue (three words or more) on the main pages, in a game's page and
// its fragment, a refused move, the "your move" mail or the Atom feed.
func TestNoEnglishSentenceAnywhere(t *testing.T) {
	sink := startMailSink(t)
	s := startMailServer(t, "", nil, sink.Addr)
	tags := regexp.MustCompile(`<[^>]*>`)
	for _, lang := range []string{"fr", "pt", "es", "de"} {
		t.Run(lang, func(t *testing.T) {
			english := englishSentences(t, lang)
			if len(english) < 500 {
				t.Fatalf("only %d English sentences to look for", len(english))
			}
			check := func(what, text string) {
				t.Helper()
				var left []string
				for _, e := range english {
					if m := e.FindString(text); m != "" {
						left = append(left, m)
					}
				}
				if len(left) > 0 {
					t.Errorf("%s %s holds English: %q", lang, what, left)
				}
			}
			a, b := s.newClient(t).speaks(lang), s.newClient(t).speaks(lang)
			a.SignUp("a" + lang)
			b.SignUp("b" + lang)
			setNotify(t, a, "a"+lang+"@example.org", "move")
			feed := feedURL(t, a)
			id := challenge(t, a, b, "trench", "single", "0")
			page := fmt.Sprintf("/games/%d", id)
			for _, p := range []string{"/", "/challenges/new", "/settings", "/archive", "/players", "/tournaments", "/leaderboard/trench", "/rules/cards", page} {
				check(p, visibleText(a.Get(p)))
			}
			a.HTMX = true
			check(page+" (fragment)", visibleText(a.Get(page)))
			a.Post(page+"/move", map[string][]string{"ply": {"0"}, "move": {"a1-a8"}})
			check("a refused move", visibleText(a.Last))
			a.HTMX = false
			before := len(sink.Mails())
			runMailJob(t, s)
			mails := sink.Mails()
			if len(mails) != before+1 {
				t.Fatalf("%d mails, want the move notice", len(mails)-before)
			}
			check("the move mail", mails[before].Subject+"\n"+mails[before].Body)
			check("the feed", tags.ReplaceAllString(rawFeed(t, feed), " "))
		})
	}
}
