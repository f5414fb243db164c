package handlers_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules/trench"
)

// TestPendingCaptureGreyed: with Confirm moves on, a pending TRENCH
// capture shows the capturing unit on its new square and every unit it
// captures still on its square, greyed (class pending-capture, a greyed
// unit, "captured" in the square's hidden text); no other square is
// marked, and nothing is marked once the move is sent. With and without
// htmx.
func TestPendingCaptureGreyed(t *testing.T) {
	for _, js := range []bool{false, true} {
		t.Run(fmt.Sprintf("js=%v", js), func(t *testing.T) {
			s := startServer(t, "", nil)
			alice, bob := signedUpPair(t, s)
			setConfirmMoves(t, alice, true)
			id := challenge(t, alice, bob, "trench", "single", "0")
			ctx := context.Background()
			var g db.Game
			capture := ""
			for i := 0; i < 200 && capture == ""; i++ {
				g = gamePly(t, s, id)
				st, _ := g.Decode()
				legal := st.Legal(g.ToMove)
				if g.Side[g.ToMove].Name == "alice" {
					if k := slices.IndexFunc(legal, func(m string) bool { return strings.Contains(m, "x") }); k >= 0 {
						capture = legal[k]
						break
					}
				}
				k := slices.IndexFunc(legal, func(m string) bool { return !strings.Contains(m, "x") })
				if _, err := s.DB.PlayMove(ctx, db.Play{GameID: id, UserID: g.Side[g.ToMove].ID, Ply: g.Ply, Move: legal[k]}, s.Clock.Now()); err != nil {
					t.Fatal(err)
				}
			}
			if capture == "" {
				t.Fatal("alice never had a capture")
			}
			st, _ := g.Decode()
			next, err := st.Apply(capture)
			if err != nil {
				t.Fatal(err)
			}
			before := st.View(g.ToMove).(trench.BoardView).Position
			after := next.View(g.ToMove).(trench.BoardView).Position
			var want []string
			for f := 0; f < 8; f++ {
				for r := 0; r < 8; r++ {
					sq := trench.NewSquare(f, r)
					u, had := before.At(sq)
					now, has := after.At(sq)
					if had && u.Side() != g.ToMove && (!has || now.Side() != u.Side()) {
						want = append(want, sq.String())
					}
				}
			}
			if len(want) == 0 {
				t.Fatalf("%s captures nothing", capture)
			}
			slices.Sort(want)

			alice.HTMX = js
			page := fmt.Sprintf("/games/%d", id)
			alice.get(page+"?pending="+url.QueryEscape(capture), js)
			alice.wantStatus(200)
			if alice.Last.Find("#pending-move").Length() != 1 {
				t.Fatal("the capture is not shown pending")
			}
			var got []string
			alice.Last.Find("#board .pending-capture").Each(func(_ int, c *goquery.Selection) {
				name, _ := c.Attr("data-click")
				got = append(got, name)
				if c.Find("svg.ghost use").Length() != 1 {
					t.Errorf("%s: no greyed unit drawn", name)
				}
				if !strings.Contains(c.Find(".vh").Text(), "captured") {
					t.Errorf("%s: the hidden text does not say captured: %q", name, c.Find(".vh").Text())
				}
			})
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("squares greyed %v, want the captured %v", got, want)
			}
			// The capturer stands on its new square.
			clicks := st.Clicks(capture)
			to := clicks[len(clicks)-1]
			if alice.Last.Find(fmt.Sprintf(`#board [data-click=%q] svg.unit:not(.ghost)`, to)).Length() != 1 {
				t.Errorf("the capturing unit is not drawn on %s", to)
			}

			sendPending(t, alice)
			alice.wantStatus(200)
			alice.Get(page)
			if n := alice.Last.Find("#board .pending-capture, #board svg.ghost").Length(); n != 0 {
				t.Fatalf("%d squares still greyed after the move was sent", n)
			}
			if gamePly(t, s, id).Ply != g.Ply+1 {
				t.Fatal("the capture was not stored")
			}
		})
	}
}
