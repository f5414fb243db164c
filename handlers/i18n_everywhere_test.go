package handlers_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/trench-games/trench/rules/cards"
)

// englishWords are words a page in French, Portuguese, Spanish or German
// would not hold unless a text was left in English.
var englishWords = regexp.MustCompile(`(?i)\b(the|your|you|with|and|moves?|waiting|rated|challenges?|left|turn|won|lost|resign|games?|players?|settings|ply)\b`)

// visibleText returns the text a reader of doc sees (and hears: labels
// and titles), without the places where English stays by design: code
// and notation, player names, the language menu's own names of the
// languages.
func visibleText(doc *goquery.Document) string {
	body := doc.Find("body").Clone()
	body.Find("script, style, code, [lang], .notation, .movelist li .move, [hidden]").Remove()
	var b strings.Builder
	b.WriteString(body.Text())
	doc.Find("[aria-label], [title], [placeholder], [alt]").Each(func(_ int, s *goquery.Selection) {
		for _, a := range []string{"aria-label", "title", "placeholder", "alt"} {
			if v, ok := s.Attr(a); ok {
				b.WriteString(" " + v)
			}
		}
	})
	return strings.Join(strings.Fields(b.String()), " ")
}

// TestNoEnglishLeftOnAnyPage: a player reading the site in French,
// Portuguese, Spanish or German meets no English sentence on any page
// type: home, dashboard, the challenge form, each game's page mid-game and
// finished, the card table, the review, the archive, a profile, the
// settings, the rules, the leaderboard, the players and the tournaments.
func TestNoEnglishLeftOnAnyPage(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	pages := []string{"/", "/challenges/new", "/archive", "/players/bob", "/settings", "/rules",
		"/rules/trench", "/rules/trenches", "/rules/cards", "/leaderboard/trench", "/players", "/tournaments"}
	pages = append(pages, gamePagesOfEveryKind(t, s)...)
	for _, lang := range []string{"fr", "pt", "es", "de"} {
		for _, c := range []*client{a, b} {
			c.AcceptLanguage = lang
		}
		for _, p := range pages {
			doc := a.Get(p)
			if a.Status != 200 {
				t.Fatalf("%s %s: status %d", lang, p, a.Status)
			}
			text := visibleText(doc)
			text = strings.NewReplacer("alice", "", "bob", "").Replace(text)
			var left []string
			for _, loc := range englishWords.FindAllStringIndex(text, -1) {
				from, to := max(loc[0]-40, 0), min(loc[1]+40, len(text))
				left = append(left, "…"+text[from:to]+"…")
				if len(left) == 5 {
					break
				}
			}
			if len(left) > 0 {
				t.Errorf("%s %s: English left:\n  %s", lang, p, strings.Join(left, "\n  "))
			}
		}
	}
}

// gamePagesOfEveryKind starts, between alice and bob, a rated game of each
// kind and plays a few moves in it, and finishes a TRENCH game; it returns
// the pages of the three games being played, of the finished one and of
// its review.
func gamePagesOfEveryKind(t *testing.T, s *server) []string {
	t.Helper()
	trench := startRated(t, s, "alice", "bob", "trench", "single")
	playRandom(t, s, trench, 6)
	trenches := startRated(t, s, "alice", "bob", "trenches", "standard")
	playRandom(t, s, trenches, 4)
	card := startRated(t, s, "alice", "bob", "cards", cards.VariantShort)
	playRandom(t, s, card, 3)
	done := finishByResign(t, s, "alice", "bob", "bob", "trench", "single", 8)
	return []string{
		fmt.Sprintf("/games/%d", trench), fmt.Sprintf("/games/%d", trenches), fmt.Sprintf("/games/%d", card),
		fmt.Sprintf("/games/%d", done.ID), fmt.Sprintf("/games/%d?ply=3", done.ID),
	}
}
