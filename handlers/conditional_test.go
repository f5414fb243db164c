package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
)

// TestConditionalReply: the waiting player plans a reply on the game page;
// when the opponent plays the planned move, the reply is on the board at
// once, with JavaScript on and off. The opponent never sees the plan in
// any page or download they may ask for.
func TestConditionalReply(t *testing.T) {
	for _, htmx := range []bool{false, true} {
		t.Run(fmt.Sprintf("htmx=%v", htmx), func(t *testing.T) {
			s := startServer(t, "", nil)
			a, b := signedUpPair(t, s)
			a.HTMX, b.HTMX = htmx, htmx
			id := challenge(t, a, b, "trenches", "standard", "0")
			g, err := s.DB.Game(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if g.Side[0].Name != a.Name {
				t.Fatalf("alice does not move first")
			}
			st, _ := g.Decode()
			x1, z1 := st.Legal(rules.Side0)[0], st.Legal(rules.Side0)[1]
			s1, _ := st.Apply(x1)
			y1 := s1.Legal(rules.Side1)[len(s1.Legal(rules.Side1))-1]
			t1, _ := st.Apply(z1)
			w1 := t1.Legal(rules.Side1)[len(t1.Legal(rules.Side1))-1]
			page := fmt.Sprintf("/games/%d", id)

			// A plan with an illegal move is refused, naming it.
			b.Get(page)
			form := b.Last.Find("#plan-form")
			if form.Length() == 0 {
				t.Fatal("the waiting player has no plan form")
			}
			b.Submit(form, url.Values{"plan": {x1 + " " + x1}})
			if b.Status != http.StatusBadRequest || !strings.Contains(b.Last.Text(), "move 2") {
				t.Fatalf("an illegal reply: status %d, page says %q", b.Status, b.text("#game-message, .flash"))
			}
			b.Get(page)
			b.Submit(b.Last.Find("#plan-form"), url.Values{"plan": {x1 + " " + y1 + "\n" + z1 + " " + w1}})
			b.wantStatus(http.StatusOK)
			b.Get(page)
			if got := b.Last.Find("#plan-text").Text(); got != x1+" "+y1+"\n"+z1+" "+w1 {
				t.Fatalf("bob's plan reads %q", got)
			}

			// Everything alice may ask for carries no trace of it.
			traces := []string{"Conditional moves", "plan-form", y1, w1}
			for _, path := range []string{page, page + "?confirm=resign", page + "/social", page + "/record", page + "/position.svg",
				"/", "/archive", "/players/bob", "/players/alice"} {
				a.Get(path)
				html, _ := a.Last.Html()
				for _, tr := range traces {
					if strings.Contains(html, tr) {
						t.Errorf("alice's %s holds %q of bob's plan", path, tr)
					}
				}
			}

			// alice plays x1: bob's reply is on the board at once.
			a.Get(page)
			a.Post(page+"/move", url.Values{"ply": {"0"}, "move": {x1}})
			a.wantStatus(http.StatusOK)
			g, _ = s.DB.Game(context.Background(), id)
			if g.Ply != 2 || g.LastMove != y1 {
				t.Fatalf("after x1: ply %d, last move %q; want bob's planned %q at ply 2", g.Ply, g.LastMove, y1)
			}
			a.Get(page)
			if !strings.Contains(a.text("#status"), "Your move") && !strings.Contains(strings.ToLower(a.text("#status")), "your") {
				t.Errorf("alice's page after the planned reply: %q", a.text("#status"))
			}
			// The plan is used up: bob's form is empty again (and absent
			// while it is his turn).
			b.Get(page)
			if got := b.Last.Find("#plan-text").Text(); got != "" {
				t.Errorf("bob's plan after its only reply: %q", got)
			}
			// A plan against a position that has moved on is refused.
			b.Post(page+"/plan", url.Values{"ply": {"0"}, "plan": {x1 + " " + y1}})
			if b.Status != http.StatusConflict {
				t.Errorf("a stale plan: status %d, want 409", b.Status)
			}
		})
	}
}
