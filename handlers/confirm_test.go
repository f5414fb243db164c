package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/trench-games/trench/db"
)

// setConfirmMoves turns c's "Confirm moves" setting on or off through
// the settings page's form.
func setConfirmMoves(t *testing.T, c *client, on bool) {
	t.Helper()
	c.Get("/settings")
	c.wantStatus(http.StatusOK)
	extra := url.Values{}
	if on {
		extra.Set("confirm", "on")
	}
	c.Submit(c.Last.Find("#moves-form"), extra)
	c.wantStatus(http.StatusOK)
	if _, checked := c.Last.Find("#confirm-moves").Attr("checked"); checked != on {
		t.Fatalf("%s's Confirm moves reads %v after saving %v", c.Name, checked, on)
	}
}

// clickToPending clicks c's way through the board of game id until the
// click that completes a move, which with Confirm moves on shows the move
// pending; it returns that move.
func clickToPending(t *testing.T, c *client, id int64) string {
	t.Helper()
	c.Get(fmt.Sprintf("/games/%d", id))
	c.wantStatus(http.StatusOK)
	for step := 0; step < 4; step++ {
		if c.Last.Find(`#board button[name="move"]`).Length() > 0 {
			t.Fatalf("%s: with Confirm moves on, a click on the board still sends a move", c.Name)
		}
		links := c.Last.Find(`#board a[data-click]`)
		if step > 0 && c.Last.Find(`#board a[data-click].target`).Length() > 0 {
			links = c.Last.Find(`#board a[data-click].target`)
		}
		if links.Length() == 0 {
			t.Fatalf("%s: nothing to click on the board", c.Name)
		}
		link := links.First()
		href, _ := link.Attr("href")
		c.Click(link)
		c.wantStatus(http.StatusOK)
		if u, err := url.Parse(href); err == nil && u.Query().Get("pending") != "" {
			if c.Last.Find("#pending-move").Length() != 1 {
				t.Fatalf("%s: the completing click shows no pending move", c.Name)
			}
			return u.Query().Get("pending")
		}
	}
	t.Fatalf("%s: no move after four clicks", c.Name)
	return ""
}

// sendPending clicks "Send move" under the move c's page shows pending:
// the board's form posts the move.
func sendPending(t *testing.T, c *client, extra ...string) {
	t.Helper()
	move, ok := c.Last.Find("#send-move").Attr("value")
	if !ok {
		t.Fatalf("%s: no Send move button", c.Name)
	}
	if f, _ := c.Last.Find("#send-move").Attr("form"); f != "board" {
		t.Fatalf("%s: Send move belongs to the form %q, want the board's", c.Name, f)
	}
	vals := url.Values{"move": {move}}
	if len(extra) > 0 {
		vals.Set("message", extra[0])
	}
	c.Submit(c.Last.Find("#board"), vals)
}

// TestPendingMoveHasOneMessageBox: with a move pending (Confirm moves),
// the game page shows one message box, the one that goes with the move,
// and a message typed in it is sent with "Send move"; with JavaScript the
// fragment that shows the pending move carries the social panel with the
// same field (same id, so that the text typed before the click stays).
func TestPendingMoveHasOneMessageBox(t *testing.T) {
	for _, js := range []bool{false, true} {
		t.Run(fmt.Sprintf("js=%v", js), func(t *testing.T) {
			s := startServer(t, "", nil)
			alice, bob := signedUpPair(t, s)
			setConfirmMoves(t, alice, true)
			id := challenge(t, alice, bob, "trench", "single", "0")
			if mover, _ := whoMoves(t, s, id, alice, bob); mover != alice {
				playRandom(t, s, id, 1)
			}
			alice.HTMX = js
			alice.Get(fmt.Sprintf("/games/%d", id))
			before, _ := alice.Last.Find(`textarea[name="message"]`).Attr("id")
			ply := gamePly(t, s, id).Ply
			clickToPending(t, alice, id)
			boxes := alice.Last.Find(`textarea[name="message"]`)
			if boxes.Length() != 1 {
				t.Fatalf("a pending move's page shows %d message boxes, want 1", boxes.Length())
			}
			if f, _ := boxes.Attr("form"); f != "board" {
				t.Fatalf("the message box belongs to the form %q, not the one Send move submits", f)
			}
			if id, _ := boxes.Attr("id"); id != before {
				t.Fatalf("the message box is %q while pending, %q before: what was typed is lost", id, before)
			}
			if js && alice.Last.Find(`#social-area[hx-swap-oob] #message-form`).Length() != 1 {
				t.Fatal("the fragment that shows the pending move does not carry the social panel")
			}
			sendPending(t, alice, "Well played so far")
			alice.wantStatus(http.StatusOK)
			if g := gamePly(t, s, id); g.Ply != ply+1 {
				t.Fatalf("Send move stored nothing (ply %d)", g.Ply)
			}
			bob.Get(fmt.Sprintf("/games/%d", id))
			if !strings.Contains(bob.text("#social-area"), "Well played so far") {
				t.Fatal("the message typed with the pending move did not reach the opponent")
			}
		})
	}
}

func gamePly(t *testing.T, s *server, id int64) db.Game {
	t.Helper()
	g, err := s.DB.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestConfirmMoves: with "Confirm moves" on, the click that completes a
// move shows it pending on the board and stores nothing; "Cancel" stores
// nothing; "Send move" stores it; a pending move made stale (the game
// moved on meanwhile) is refused and the page shows the opponent's new
// move. With JavaScript on (htmx) and off.
func TestConfirmMoves(t *testing.T) {
	for _, js := range []bool{false, true} {
		t.Run(fmt.Sprintf("js=%v", js), func(t *testing.T) {
			s := startServer(t, "", nil)
			alice, bob := signedUpPair(t, s)
			bob.Get("/settings")
			if _, on := bob.Last.Find("#confirm-moves").Attr("checked"); on {
				t.Fatal("Confirm moves is on by default")
			}
			setConfirmMoves(t, alice, true)
			id := challenge(t, alice, bob, "trench", "single", "0")
			if mover, _ := whoMoves(t, s, id, alice, bob); mover != alice {
				playRandom(t, s, id, 1)
			}
			alice.HTMX = js
			ply := gamePly(t, s, id).Ply

			// Cancel: nothing stored, the board is playable again.
			clickToPending(t, alice, id)
			if g := gamePly(t, s, id); g.Ply != ply {
				t.Fatalf("a pending move was stored (ply %d → %d)", ply, g.Ply)
			}
			alice.Click(alice.Last.Find("#cancel-move"))
			alice.wantStatus(http.StatusOK)
			if alice.Last.Find("#pending-move").Length() != 0 || alice.Last.Find(`#board a[data-click]`).Length() == 0 {
				t.Fatal("after Cancel the board is not back to choosing a move")
			}
			if g := gamePly(t, s, id); g.Ply != ply {
				t.Fatalf("Cancel stored a move (ply %d → %d)", ply, g.Ply)
			}

			// Send move: stored, as shown while pending.
			move := clickToPending(t, alice, id)
			shown := alice.text("#board .board")
			sendPending(t, alice)
			alice.wantStatus(http.StatusOK)
			g := gamePly(t, s, id)
			if g.Ply != ply+1 {
				t.Fatalf("Send move stored nothing (ply %d)", g.Ply)
			}
			if m, _ := s.DB.Moves(context.Background(), id); m[ply].Move != move {
				t.Fatalf("stored %q, the pending move was %q", m[ply].Move, move)
			}
			alice.Get(fmt.Sprintf("/games/%d", id))
			if after := alice.text("#board .board"); after != shown {
				t.Errorf("the pending board differs from the board after the move:\npending %q\nafter   %q", shown, after)
			}

			// A stale pending move: the game moves on before it is sent.
			playRandom(t, s, id, 1) // bob replies
			ply = gamePly(t, s, id).Ply
			clickToPending(t, alice, id)
			form := alice.Last.Find("#board").Clone()
			pending, _ := alice.Last.Find("#send-move").Attr("value")
			playRandom(t, s, id, 2) // the move sent from elsewhere, and bob's reply
			alice.Submit(form, url.Values{"move": {pending}})
			alice.wantStatus(http.StatusConflict)
			if g := gamePly(t, s, id); g.Ply != ply+2 {
				t.Fatalf("the stale move changed the game: ply %d, want %d", g.Ply, ply+2)
			}
			if got, _ := alice.Last.Find("#game").Attr("data-ply"); got != fmt.Sprint(ply+2) {
				t.Errorf("the refusal shows ply %s, want the opponent's new move (ply %d)", got, ply+2)
			}
			if strings.TrimSpace(alice.Last.Find("#game-message").Text()) == "" {
				t.Error("the refusal gives no reason")
			}
			if alice.Last.Find("#pending-move").Length() != 0 {
				t.Error("the refused move is still shown pending")
			}
		})
	}
}

// TestConfirmMovesOfferedOnFirstGame: a player's first game page offers
// "Confirm moves"; taking the offer turns it on and comes back to the
// game; a later game does not offer it again.
func TestConfirmMovesOfferedOnFirstGame(t *testing.T) {
	s := startServer(t, "", nil)
	alice, bob := signedUpPair(t, s)
	first := challenge(t, alice, bob, "trench", "single", "0")
	page := fmt.Sprintf("/games/%d", first)
	alice.Get(page)
	if alice.Last.Find("#offer-confirm").Length() != 1 {
		t.Fatal("alice's first game does not offer Confirm moves")
	}
	alice.Submit(alice.Last.Find("#offer-confirm"), nil)
	alice.wantStatus(http.StatusOK)
	if alice.URL != s.URL+page || alice.Last.Find("#offer-confirm").Length() != 0 {
		t.Fatalf("after taking the offer alice is at %s (offer shown: %d)", alice.URL, alice.Last.Find("#offer-confirm").Length())
	}
	alice.Get("/settings")
	if _, on := alice.Last.Find("#confirm-moves").Attr("checked"); !on {
		t.Fatal("taking the offer did not turn Confirm moves on")
	}
	second := challenge(t, bob, alice, "trench", "single", "0")
	bob.Get(fmt.Sprintf("/games/%d", second))
	if bob.Last.Find("#offer-confirm").Length() != 0 {
		t.Fatal("bob's second game offers Confirm moves again")
	}
}
