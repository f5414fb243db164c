package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// The boards as a screen reader and a keyboard meet them: every square
// and card named with what is there and what a click does, the squares in
// a grid of rows, the last move and the side to move in a live region, a
// move box under the board; in the language of the page.

// squareLabel is the accessible name of a board square as the page
// writes it (its hidden text, which its title repeats).
func squareLabel(el *goquery.Selection) string {
	return strings.TrimSpace(el.Find(".vh").Text())
}

// TestBoardsNameEverySquareAndCard: for the player to move, each of the
// three games names its squares or cards ("d4, Black Soldier, select"),
// lays the squares out as a grid of rows, says whose move it is in its
// live region and offers exactly the legal moves in its move box; the
// opponent gets no move box.
func TestBoardsNameEverySquareAndCard(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	for _, tc := range []struct {
		game, variant string
		rows          int    // 0: no grid (the card table)
		toMove        string // the live region, English
		unit          *regexp.Regexp
	}{
		{"trench", "single", 8, "Black to move.", regexp.MustCompile(`^[a-h][1-8], (Black|White) (Soldier|Sergeant|Captain|Colonel|General), select$`)},
		{"trenches", "standard", 10, "Light to move.", regexp.MustCompile(`^[a-j]([1-9]|10), (Light|Dark) (Tank|Soldier), select$`)},
		{"cards", "short", 0, "Your turn: choose an action.", regexp.MustCompile(`^Your hand, (Ace|King|Queen|Jack|[2-9]|10) of (hearts|diamonds|spades|clubs)$`)},
	} {
		id := challenge(t, a, b, tc.game, tc.variant, "0")
		p, g := whoMoves(t, s, id, a, b)
		other := a
		if p == a {
			other = b
		}
		page := fmt.Sprintf("/games/%d", id)
		p.Get(page)
		p.wantStatus(http.StatusOK)

		if tc.game == "trench" {
			// The diamond view (the default) and the square view alike.
			if p.Last.Find("#board .board-wrap.diamond").Length() != 1 {
				t.Fatal("trench: the game does not open in the diamond view")
			}
			p.Submit(p.Last.Find("#board-toggle-form"), nil)
			p.Get(page)
			if p.Last.Find("#board .board-wrap.square").Length() != 1 {
				t.Fatal("trench: the toggle did not show the square view")
			}
		}
		if tc.rows > 0 {
			rows := p.Last.Find(`#board [role="grid"] > [role="row"]`)
			if rows.Length() != tc.rows {
				t.Fatalf("%s: the grid has %d rows, want %d", tc.game, rows.Length(), tc.rows)
			}
			rows.Each(func(i int, row *goquery.Selection) {
				if n := row.Children().Filter(`[role="gridcell"]`).Length(); n != tc.rows {
					t.Errorf("%s: row %d has %d cells, want %d", tc.game, i+1, n, tc.rows)
				}
			})
			p.Last.Find(`#board [data-click]`).Each(func(_ int, sq *goquery.Selection) {
				name := sq.AttrOr("data-click", "")
				label := squareLabel(sq)
				if !strings.HasPrefix(label, name+", ") {
					t.Errorf("%s: square %s is named %q, want its name first", tc.game, name, label)
				}
				if title, ok := sq.Attr("title"); ok && title != label {
					t.Errorf("%s: square %s is titled %q but named %q", tc.game, name, title, label)
				}
			})
			if p.Last.Find(`#board [data-click]`).FilterFunction(func(_ int, sq *goquery.Selection) bool {
				return strings.HasSuffix(squareLabel(sq), ", empty")
			}).Length() == 0 {
				t.Errorf("%s: no square is named empty", tc.game)
			}
		}
		units := p.Last.Find(`#board a[data-click]`)
		if tc.game == "cards" {
			units = p.Last.Find(`.cards-info-mine .cards-hand .cards-place`)
		}
		if units.Length() == 0 {
			t.Fatalf("%s: nothing to name", tc.game)
		}
		units.Each(func(_ int, u *goquery.Selection) {
			label := squareLabel(u)
			if !tc.unit.MatchString(label) {
				t.Errorf("%s: a unit or card is named %q, want it to match %s", tc.game, label, tc.unit)
			}
		})

		status := p.Last.Find(`#board #board-status[aria-live="polite"]`)
		if got := strings.TrimSpace(status.Text()); status.Length() != 1 || !strings.Contains(got, tc.toMove) {
			t.Errorf("%s: the live region says %q, want %q", tc.game, got, tc.toMove)
		}

		st, err := g.Decode()
		if err != nil {
			t.Fatal(err)
		}
		legal := st.Legal(g.ToMove)
		box := p.Last.Find(`form#move-box`)
		if box.Length() != 1 || box.AttrOr("action", "") != page+"/move" || box.AttrOr("method", "") != "post" {
			t.Fatalf("%s: no move box posting to %s/move", tc.game, page)
		}
		if box.Find(`label[for="move-input"]`).Text() != "Move" || box.Find(`input#move-input[name="move"][list="move-list"]`).Length() != 1 ||
			box.Find(`input[name="ply"]`).AttrOr("value", "") != "0" {
			t.Errorf("%s: the move box lacks its label, its input or its ply", tc.game)
		}
		offered := func() []string {
			var out []string
			p.Last.Find("#move-box #move-list option").Each(func(_ int, o *goquery.Selection) { out = append(out, o.AttrOr("value", "")) })
			return out
		}
		if len(legal) <= 200 {
			if got := offered(); strings.Join(got, " ") != strings.Join(legal, " ") {
				t.Errorf("%s: the move box offers %d moves, want the %d legal ones", tc.game, len(got), len(legal))
			}
		} else {
			// Too many to list: the moves of the piece selected only.
			if got := offered(); len(got) != 0 {
				t.Errorf("%s: the move box lists %d of %d moves before a piece is selected", tc.game, len(got), len(legal))
			}
			from := p.Last.Find(`#board a[data-click]`).First()
			sq := from.AttrOr("data-click", "")
			p.Click(from)
			got := offered()
			if len(got) == 0 {
				t.Errorf("%s: the move box lists nothing once %s is selected", tc.game, sq)
			}
			for _, m := range got {
				if !strings.HasPrefix(m, sq+"-") {
					t.Errorf("%s: with %s selected the move box lists %s", tc.game, sq, m)
				}
			}
		}
		other.Get(page)
		if other.Last.Find("#move-box").Length() != 0 {
			t.Errorf("%s: the move box is offered to the player not to move", tc.game)
		}
	}
}

// TestBoardsNamedInFrench: the names of the squares, the live region and
// the move box follow the language of the page.
func TestBoardsNamedInFrench(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	u, _ := url.Parse(s.URL)
	for _, tc := range []struct{ game, variant, square, status, label string }{
		{"trench", "single", `^[a-h][1-8], (Soldat|Sergent|Capitaine|Colonel|Général) (noir|blanc), sélectionner$`, "Aux Noirs de jouer.", "Coup"},
		{"trenches", "standard", `^[a-j]([1-9]|10), (Char|Soldat) (clair|sombre), sélectionner$`, "Au tour de Clair.", "Coup"},
		{"cards", "short", `^Votre main, (As|Roi|Dame|Valet|[2-9]|10) de (cœur|carreau|pique|trèfle)$`, "À vous\u00a0: choisissez une action.", "Coup"},
	} {
		id := challenge(t, a, b, tc.game, tc.variant, "0")
		p, _ := whoMoves(t, s, id, a, b)
		fr := p.copyCookies(t)
		fr.http.Jar.SetCookies(u, []*http.Cookie{{Name: "lang", Value: "fr", Path: "/"}})
		fr.Get(fmt.Sprintf("/games/%d", id))
		fr.wantStatus(http.StatusOK)
		sel := `#board a[data-click]`
		if tc.game == "cards" {
			sel = `.cards-info-mine .cards-hand .cards-place`
		}
		re := regexp.MustCompile(tc.square)
		fr.Last.Find(sel).Each(func(_ int, sq *goquery.Selection) {
			if label := squareLabel(sq); !re.MatchString(label) {
				t.Errorf("%s: %q does not match %s", tc.game, label, tc.square)
			}
		})
		if got := strings.TrimSpace(fr.Last.Find("#board-status").Text()); !strings.Contains(got, tc.status) {
			t.Errorf("%s: the live region says %q, want %q", tc.game, got, tc.status)
		}
		if got := fr.Last.Find(`label[for="move-input"]`).Text(); got != tc.label {
			t.Errorf("%s: the move box is labelled %q, want %q", tc.game, got, tc.label)
		}
	}
}

// TestMoveBoxRefusesBadMoves: a move typed in the move box goes to the
// move route with the ply of the page: a malformed or illegal one gets a
// 4xx answer with the reason and changes nothing; a legal one is played
// and the next page's live region says it.
func TestMoveBoxRefusesBadMoves(t *testing.T) {
	for _, htmx := range []bool{false, true} {
		s := startServer(t, "", nil)
		a, b := signedUpPair(t, s)
		id := challenge(t, a, b, "trench", "single", "0")
		p, g := whoMoves(t, s, id, a, b)
		p.HTMX = htmx
		page := fmt.Sprintf("/games/%d", id)
		for _, bad := range []string{"zz", "a1-a1", "d4-d5x", "h8-h1"} {
			p.Get(page)
			p.Submit(p.Last.Find("form#move-box"), url.Values{"move": {bad}})
			if p.Status < 400 || p.Status > 499 {
				t.Errorf("htmx %v: the move %q typed in the box got status %d, want 4xx", htmx, bad, p.Status)
			}
			if msg := strings.TrimSpace(p.Last.Find("#game-message").Text()); msg == "" {
				t.Errorf("htmx %v: the move %q got no message", htmx, bad)
			}
			wantPly(t, s, id, 0, "")
		}
		st, err := g.Decode()
		if err != nil {
			t.Fatal(err)
		}
		move := st.Legal(g.ToMove)[0]
		p.Get(page)
		p.Submit(p.Last.Find("form#move-box"), url.Values{"move": {move}})
		p.wantStatus(http.StatusOK)
		wantPly(t, s, id, 1, move)
		if got := strings.TrimSpace(p.Last.Find("#board-status").Text()); !strings.HasPrefix(got, "Last move "+move+".") {
			t.Errorf("htmx %v: after the move the live region says %q", htmx, got)
		}
		if p.Last.Find("#move-box").Length() != 0 {
			t.Errorf("htmx %v: the move box is still offered after the move", htmx)
		}
	}
}
