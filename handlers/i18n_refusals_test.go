package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
)

// refused is a move the rules refuse and the status of its refusal.
type refused struct {
	move   string
	status int
}

// englishRefusalWords are the runs of three words or more of the rules'
// English refusals (their sentences cut at each value), which no other
// language may show.
func englishRefusalWords() []string {
	verb := regexp.MustCompile(`%(\[\d+\])?[sqvd]`)
	var out []string
	for _, code := range rules.RefusalCodes() {
		for _, part := range verb.Split(rules.RefusalText(code), -1) {
			part = strings.Trim(part, " :;,.()\"'")
			if len(strings.Fields(part)) >= 3 {
				out = append(out, part)
			}
		}
	}
	return out
}

// TestMoveRefusalsInThePlayersLanguage: refused moves of the three games,
// typed in the move box and in a conditional-move plan, read whole in the
// player's language: no English words of the rules' refusals, the move's
// notation kept.
func TestMoveRefusalsInThePlayersLanguage(t *testing.T) {
	english := englishRefusalWords()
	if len(english) < 20 {
		t.Fatalf("only %d English phrases to look for", len(english))
	}
	squash := func(s string) string {
		return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" \t\r\n", r) }), " ")
	}
	s := startServer(t, "", nil)
	for _, lang := range []string{"de", "fr", "es", "pt"} {
		t.Run(lang, func(t *testing.T) {
			a, b := s.newClient(t).speaks(lang), s.newClient(t).speaks(lang)
			a.SignUp("a" + lang)
			b.SignUp("b" + lang)
			check := func(c *client, what, move string, status int) {
				t.Helper()
				c.wantStatus(status)
				got := squash(c.Last.Find(".flash, #game-message").Text())
				if got == "" {
					t.Fatalf("%s %q: no message", what, move)
				}
				for _, w := range english {
					if strings.Contains(got, w) {
						t.Errorf("%s %q: %q holds the English %q", what, move, got, w)
					}
				}
				t.Logf("%s %q: %s", what, move, got)
			}
			play := func(game, variant string, moves []refused) {
				id := challenge(t, a, b, game, variant, "0")
				g, err := s.DB.Game(context.Background(), id)
				if err != nil {
					t.Fatal(err)
				}
				st, err := g.Decode()
				if err != nil {
					t.Fatal(err)
				}
				mover, waiting := a, b
				if g.Side[st.ToMove()].Name != a.Name {
					mover, waiting = b, a
				}
				page := fmt.Sprintf("/games/%d", id)
				for _, m := range moves {
					mover.Get(page)
					mover.Post(page+"/move", url.Values{"ply": {"0"}, "move": {m.move}})
					check(mover, game, m.move, m.status)
				}
				if game == "cards" {
					return
				}
				// The waiting player's plan quotes the same refusals.
				for _, m := range moves {
					waiting.Get(page)
					waiting.Submit(waiting.Last.Find("#plan-form"), url.Values{"plan": {m.move + " " + m.move}})
					check(waiting, game+" plan", m.move, http.StatusBadRequest)
				}
			}
			play("trench", "single", []refused{
				{"xx", http.StatusBadRequest},
				{"d4+d5", http.StatusBadRequest},
				{"a1-a8", http.StatusUnprocessableEntity},
				{"d4-d4", http.StatusBadRequest},
				{"e5-e4", http.StatusUnprocessableEntity},
				{"d4xd5", http.StatusUnprocessableEntity},
			})
			play("trenches", "standard", []refused{
				{"a4a6", http.StatusBadRequest},
				{"a4-a6/zz", http.StatusBadRequest},
				{"e5-e6", http.StatusUnprocessableEntity},
				{"a1-a2", http.StatusUnprocessableEntity},
			})
			play("cards", "short", []refused{
				{"charge F1", http.StatusBadRequest},
				{"attack F7", http.StatusBadRequest},
				{"shift F1", http.StatusBadRequest},
				{"refill F2 B2", http.StatusUnprocessableEntity},
				{"shift F1 F3", http.StatusUnprocessableEntity},
			})
		})
	}
}
