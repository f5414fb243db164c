package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/views"
)

// tabOf is the name of the stream of a game page (its views.TabHeader),
// checked against the ?tab= of the stream's address.
func tabOf(t *testing.T, doc *goquery.Document) string {
	t.Helper()
	raw, _ := doc.Find("[sse-connect]").Attr("hx-headers")
	var tab string
	if _, after, ok := strings.Cut(raw, `"`+views.TabHeader+`":"`); ok {
		tab, _, _ = strings.Cut(after, `"`)
	}
	u, err := url.Parse(liveURL(t, doc))
	if err != nil {
		t.Fatal(err)
	}
	if tab == "" || u.Query().Get("tab") != tab {
		t.Fatalf("the page's requests name stream %q (hx-headers %q), its stream is %q", tab, raw, u)
	}
	return tab
}

// liveMove plays a move as c from the game page c shows, through its
// board form with JavaScript on: the form's request names the page's
// stream (tab) and the ply it shows, as the page's hx-headers make htmx
// do.
func liveMove(t *testing.T, c *client, id int64, tab, message string) {
	t.Helper()
	for step := 0; step < 8; step++ {
		if buttons := c.Last.Find(`#board button[name="move"]`); buttons.Length() > 0 {
			move, _ := buttons.First().Attr("value")
			req, htmx := c.formRequest(c.Last.Find("#board"), url.Values{"move": {move}, "message": {message}})
			req.Header.Set(views.TabHeader, tab)
			ply, _ := c.Last.Find("#game").Attr("data-ply")
			req.Header.Set(views.PlyHeader, ply)
			c.do(req, htmx)
			c.wantStatus(http.StatusOK)
			return
		}
		links := c.Last.Find(`#board a[data-click]`)
		if step > 0 && c.Last.Find(`#board a[data-click].target`).Length() > 0 {
			links = c.Last.Find(`#board a[data-click].target`)
		}
		if links.Length() == 0 {
			t.Fatalf("%s: nothing to click in game %d", c.Name, id)
		}
		c.Click(links.First())
		c.wantStatus(http.StatusOK)
	}
	t.Fatalf("%s: no move after eight clicks", c.Name)
}

// TestLiveMoveNotPushedToItsOwnPage: the page that makes a move gets it
// in the answer, and its stream is not sent it again; the player's other
// page, the opponent's page and, once the opponent answers, the mover's
// page get their updates as before. A request naming another player's
// page does not keep that page's update from it.
func TestLiveMoveNotPushedToItsOwnPage(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	a.HTMX, b.HTMX = true, true
	id := challenge(t, a, b, "trench", "single", "0")
	page := fmt.Sprintf("/games/%d", id)

	a.HTMX = false
	a.Get(page)
	other := openStream(t, a, liveURL(t, a.Last), "")
	otherTab := tabOf(t, a.Last)
	a.Get(page)
	tab := tabOf(t, a.Last)
	if tab == otherTab {
		t.Fatalf("two pages of the game share the stream name %q", tab)
	}
	mine := openStream(t, a, liveURL(t, a.Last), "")
	a.HTMX = true
	b.Get(page)
	theirs := openStream(t, b, liveURL(t, b.Last), "")
	tabOf(t, b.Last)
	time.Sleep(100 * time.Millisecond) // the streams are registered

	liveMove(t, a, id, tab, "")
	if ply, _ := a.Last.Find("#game").Attr("data-ply"); ply != "1" || a.Last.Find("#moves li").Length() != 1 {
		t.Fatalf("the answer to the move shows ply %q and %d moves in the list, want 1 and 1", ply, a.Last.Find("#moves li").Length())
	}
	for who, st := range map[string]*stream{"bob's page": theirs, "alice's other page": other} {
		if ply, _ := st.next("update", 5*time.Second).doc(t).Find("#game").Attr("data-ply"); ply != "1" {
			t.Fatalf("%s got an update of ply %q, want 1", who, ply)
		}
	}
	mine.none(500 * time.Millisecond)

	// Bob answers from his page, naming alice's page instead of his own:
	// alice's page gets his move all the same.
	b.Get(page)
	liveMove(t, b, id, tab, "")
	if ply, _ := mine.next("update", 5*time.Second).doc(t).Find("#game").Attr("data-ply"); ply != "2" {
		t.Fatalf("alice's page got an update of ply %q after bob's move, want 2", ply)
	}
	// His own page was not named: it gets the update too.
	if ply, _ := theirs.next("update", 5*time.Second).doc(t).Find("#game").Attr("data-ply"); ply != "2" {
		t.Fatalf("bob's page got an update of ply %q after his move, want 2", ply)
	}
	// A move sent with a message: bob's page gets both.
	a.Get(page)
	liveMove(t, a, id, tab, "Your turn, Bob")
	d := theirs.next("update", 5*time.Second).doc(t)
	if ply, _ := d.Find("#game").Attr("data-ply"); ply != "3" || !strings.Contains(d.Find("#social-live").Text(), "Your turn, Bob") {
		t.Fatalf("bob's page got ply %q and the messages %q after alice's move with a message", ply, d.Find("#social-live").Text())
	}
}

// TestWholeMoveListAfterTakeback: a game page shows the whole move list
// (kept from one page to the next and extended); after a takeback and a
// different move in its place, and after a takeback alone, the list is
// the game's new one, each move described in the position it was made
// in.
func TestWholeMoveListAfterTakeback(t *testing.T) {
	s := startServer(t, "", nil)
	alice, bob := signedUpPair(t, s)
	id := challenge(t, alice, bob, "trench", "single", "0")
	page := fmt.Sprintf("/games/%d", id)
	ctx := context.Background()
	// want is the list as described afresh from the stored moves.
	want := func() []string {
		t.Helper()
		_, moves, st := storedGame(t, s, id)
		var err error
		var out []string
		for _, m := range moves {
			out = append(out, st.Describe(m.Move, 0))
			if st, err = st.Apply(m.Move); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	// listed is the list on alice's page.
	listed := func() []string {
		t.Helper()
		alice.Get(page)
		alice.wantStatus(http.StatusOK)
		var out []string
		alice.Last.Find("#moves li a").Each(func(_ int, a *goquery.Selection) { out = append(out, a.Text()) })
		return out
	}
	check := func(when string) {
		t.Helper()
		got, w := listed(), want()
		if !slices.Equal(got, w) || len(w) == 0 {
			t.Fatalf("%s: the list is %q, want %q", when, got, w)
		}
	}
	for range 3 {
		playFirstLegal(t, s, id)
		check(fmt.Sprintf("at ply %d", len(want())))
	}
	// The player who made the last move takes it back, with bob's consent.
	g, err := s.DB.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	mover, other := alice, bob
	if g.ToMove == 0 {
		mover, other = bob, alice
	}
	takeBack := func() {
		t.Helper()
		mover.Get(page)
		mover.Submit(mover.Last.Find("#takeback-ask-form"), nil)
		mover.wantStatus(http.StatusOK)
		other.Get(page)
		other.Submit(other.Last.Find("#takeback-accept-form"), nil)
		other.wantStatus(http.StatusOK)
	}
	takeBack()
	if g, _ := s.DB.Game(ctx, id); g.Ply != 2 {
		t.Fatalf("ply %d after the takeback, want 2", g.Ply)
	}
	// Another move in its place, before alice's page asks again: her list
	// has as many moves as before, the last one different.
	g, _ = s.DB.Game(ctx, id)
	st, err := g.Decode()
	if err != nil {
		t.Fatal(err)
	}
	legal := st.Legal(g.ToMove)
	if _, err := s.DB.PlayMove(ctx, db.Play{GameID: id, UserID: g.Side[g.ToMove].ID, Ply: g.Ply, Move: legal[len(legal)-1], TakenBack: &g.TakenBack}, s.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	check("after another move in its place")
	// A takeback alone (the same player's new move): the list is one
	// move shorter.
	takeBack()
	check("after a takeback alone")
}
