package handlers_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/trench-games/trench/rules"
)

// TestConditionalReply: the waiting player plans a reply on the game page;
// when the opponent plays the planned move, the reply is on the board at
// once, with JavaScript on and off. The opponent and a spectator never
// see the plan in any page, fragment, download, Atom feed, "your move"
// mail or daily digest they may get; once the reply is played, only the
// played move shows, never the rest of the plan.
func TestConditionalReply(t *testing.T) {
	for _, htmx := range []bool{false, true} {
		t.Run(fmt.Sprintf("htmx=%v", htmx), func(t *testing.T) {
			sink := startMailSink(t)
			s := startMailServer(t, "", nil, sink.Addr)
			a, b := signedUpPair(t, s)
			c := s.newClient(t)
			c.SignUp("carol")
			setNotify(t, a, "alice@example.org", "daily")
			setNotify(t, c, "carol@example.org", "move")
			aliceFeed, carolFeed := feedURL(t, a), feedURL(t, c)
			a.HTMX, b.HTMX, c.HTMX = htmx, htmx, htmx
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
			// w1, the reply to z1, is another move than y1: once x1 and y1
			// are played, it may show only if the plan leaked.
			var w1 string
			for _, m := range t1.Legal(rules.Side1) {
				if m != y1 {
					w1 = m
				}
			}
			if w1 == "" {
				t.Fatal("no reply to z1 other than y1")
			}
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
			// The refused plan stays, unfolded, to be mended.
			if got := b.Last.Find("#plan-text").Text(); got != x1+" "+x1 {
				t.Fatalf("after the refusal the plan box holds %q, want the plan as typed", got)
			}
			if _, open := b.Last.Find("details#plan").Attr("open"); !open {
				t.Fatal("after the refusal the plan panel is folded")
			}
			b.Get(page)
			b.Submit(b.Last.Find("#plan-form"), url.Values{"plan": {x1 + " " + y1 + "\n" + z1 + " " + w1}})
			b.wantStatus(http.StatusOK)
			b.Get(page)
			if got := b.Last.Find("#plan-text").Text(); got != x1+" "+y1+"\n"+z1+" "+w1 {
				t.Fatalf("bob's plan reads %q", got)
			}

			// Everything alice and carol may ask for or be sent carries
			// no trace of it.
			walk := func(when string, traces []string) {
				t.Helper()
				seen := func(who, what, text string) {
					t.Helper()
					for _, tr := range traces {
						if strings.Contains(text, tr) {
							t.Errorf("%s, %s's %s holds %q of bob's plan", when, who, what, tr)
						}
					}
				}
				paths := []string{page, page + "?confirm=resign", page + "/live", page + "/record", page + "/position.svg",
					page + "/analysis", fmt.Sprintf("/matches/%d", g.MatchID), "/", "/archive", "/players/bob", "/players/alice", "/players/carol"}
				for _, who := range []*client{a, c} {
					for _, path := range append(paths, page+"/social", "/settings/export") {
						who.Get(path)
						html, _ := who.Last.Html()
						seen(who.Name, path, html)
					}
				}
				for who, feed := range map[string]string{"alice": aliceFeed, "carol": carolFeed} {
					res, err := http.Get(feed)
					if err != nil {
						t.Fatal(err)
					}
					body, err := io.ReadAll(res.Body)
					res.Body.Close()
					if err != nil || res.StatusCode != http.StatusOK {
						t.Fatalf("%s's feed: %d, %v", who, res.StatusCode, err)
					}
					seen(who, "feed", string(body))
				}
				runMailJob(t, s)
				for _, m := range sink.Mails() {
					seen(strings.Join(m.To, ","), "mail "+m.Subject, m.Subject+"\n"+m.Body)
				}
			}
			traces := []string{"Conditional moves", "plan-form", y1, w1}
			walk("before alice moves", traces)
			// alice's daily digest came (her game waits for her); now a
			// mail for each turn instead.
			if n := len(sink.Mails()); n != 1 || sink.Mails()[0].To[0] != "alice@example.org" || !strings.Contains(sink.Mails()[0].Body, page+"\n") {
				t.Fatalf("%d mails, want alice's digest linking the game: %+v", n, sink.Mails())
			}
			setNotify(t, a, "alice@example.org", "move")
			runMailJob(t, s)
			if mails := sink.Mails(); len(mails) != 2 || !strings.HasPrefix(mails[1].Subject, "Your move against bob") {
				t.Fatalf("no \"your move\" mail for alice: %+v", mails)
			}
			walk("with alice on a mail per move", traces)

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
			// Now the reply shows, as a played move, and the line not
			// taken never does.
			before := len(sink.Mails())
			walk("after the planned reply", []string{"Conditional moves", "plan-form", w1, z1 + " " + w1})
			if mails := sink.Mails(); len(mails) != before+1 || !strings.HasPrefix(mails[before].Subject, "Your move against bob") {
				t.Errorf("alice's next turn: %d new mails, want her \"your move\" mail", len(mails)-before)
			}
			a.Get(page + "/record")
			if html, _ := a.Last.Html(); !strings.Contains(html, y1) {
				t.Errorf("the record does not show the reply %s that was played", y1)
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
