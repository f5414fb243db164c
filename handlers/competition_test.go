package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/trench-games/trench/db"
)

// ratedGame stores one rated Trenches game between a and b, won by winner,
// through the game flow (challenge, acceptance, resignation).
func ratedGame(t *testing.T, s *server, a, b, winner string, when time.Time) {
	t.Helper()
	ctx := context.Background()
	ua, err := s.DB.UserByName(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	ub, err := s.DB.UserByName(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := s.DB.CreateChallenge(ctx, db.NewChallenge{CreatorID: ua.ID, Opponent: b, Game: "trenches", Variant: "standard",
		Color: "0", DaysPerMove: 3, Rated: true}, when)
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.DB.AcceptChallenge(ctx, ch.ID, ub.ID, 7, when)
	if err != nil {
		t.Fatal(err)
	}
	loser := ua.ID
	if winner == a {
		loser = ub.ID
	}
	// Both sides move first: a game resigned before that is not rated.
	g, err := s.DB.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for g.Ply < 2 {
		st, _ := g.Decode()
		if g, err = s.DB.PlayMove(ctx, db.Play{GameID: id, UserID: g.Side[g.ToMove].ID, Ply: g.Ply, Move: st.Legal(g.ToMove)[0]}, when); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.DB.Resign(ctx, id, loser, g.Ply, when); err != nil {
		t.Fatal(err)
	}
}

// TestLeaderboardAndDirectory: established, active players appear on the
// leaderboard by rating; a provisional player is not ranked, told why, and
// shown with "?" in the directory and on their profile; the profile draws
// the rating history; the directory searches by name prefix.
func TestLeaderboardAndDirectory(t *testing.T) {
	s := startServer(t, "", nil)
	now := s.Clock.Now()
	clients := map[string]*client{}
	for _, name := range []string{"ann", "bob", "cid", "dan", "Anneke"} {
		c := s.newClient(t)
		c.SignUp(name)
		clients[name] = c
	}
	at := now.Add(-20 * time.Hour)
	for i := 0; i < 20; i++ {
		w := "ann"
		if i%3 == 0 {
			w = "bob"
		}
		ratedGame(t, s, "ann", "bob", w, at)
		w = "ann"
		if i%4 == 0 {
			w = "cid"
		}
		ratedGame(t, s, "ann", "cid", w, at)
		w = "bob"
		if i%3 == 1 {
			w = "cid"
		}
		ratedGame(t, s, "bob", "cid", w, at)
		at = at.Add(time.Hour)
	}
	ratedGame(t, s, "dan", "bob", "dan", at)

	visitor := s.newClient(t)
	visitor.Get("/leaderboard/trenches")
	visitor.wantStatus(http.StatusOK)
	var listed []string
	visitor.Last.Find("#leaderboard tbody tr[data-player]:not(.provisional)").Each(func(_ int, r *goquery.Selection) {
		name, _ := r.Attr("data-player")
		listed = append(listed, name)
	})
	if strings.Join(listed, ",") != "ann,bob,cid" {
		t.Errorf("leaderboard ranks %v, want ann, bob, cid", listed)
	}
	if rule := visitor.text("#leaderboard-rule"); !strings.Contains(rule, "90 days") || !strings.Contains(rule, "provisional") {
		t.Errorf("the page does not say who is listed: %q", rule)
	}
	if rank := visitor.Last.Find(`#leaderboard tr[data-player="cid"] .rank`).Text(); rank != "3" {
		t.Errorf("cid ranked %q, want 3", rank)
	}

	dan := clients["dan"]
	dan.Get("/leaderboard/trenches")
	if note := dan.text("#own-rank"); !strings.Contains(note, "provisional") {
		t.Errorf("dan is not told why he is not ranked: %q", note)
	}
	bob := clients["bob"]
	bob.Get("/leaderboard/trenches")
	if note := bob.text("#own-rank"); note != "You are ranked 2 of 3." {
		t.Errorf("bob's own rank: %q", note)
	}
	if bob.Last.Find(`#leaderboard tr.self[data-player="bob"]`).Length() != 1 {
		t.Error("bob's line is not marked as his")
	}
	dan.Get("/leaderboard/trench")
	if note := dan.text("#own-rank"); !strings.Contains(note, "not finished a rated game") {
		t.Errorf("TRENCH leaderboard for dan: %q", note)
	}
	if dan.Last.Find("#leaderboard-empty").Length() != 1 {
		t.Error("an empty TRENCH leaderboard does not say so")
	}

	visitor.Get("/players?q=AN")
	var found []string
	visitor.Last.Find("#players tr[data-player]").Each(func(_ int, r *goquery.Selection) {
		name, _ := r.Attr("data-player")
		found = append(found, name)
	})
	if strings.Join(found, ",") != "ann,Anneke" {
		t.Errorf("players starting with AN: %v, want ann, Anneke", found)
	}
	visitor.Get("/players?q=dan")
	if r := visitor.Last.Find(`#players tr[data-player="dan"] .rating`).Text(); !strings.HasSuffix(r, "?") {
		t.Errorf("dan's provisional rating in the directory: %q, want a trailing ?", r)
	}
	visitor.Get("/players?q=ann")
	if r := visitor.Last.Find(`#players tr[data-player="ann"] .rating`).Text(); strings.Contains(r, "?") || !strings.HasPrefix(r, "Trenches ") {
		t.Errorf("ann's established rating in the directory: %q", r)
	}

	visitor.Get("/players/dan")
	if visitor.Last.Find(`#ratings .rating abbr`).Text() != "?" {
		t.Error("dan's profile does not mark his rating provisional")
	}
	visitor.Get("/players/ann")
	if visitor.Last.Find(`#ratings .rating abbr`).Length() != 0 {
		t.Error("ann's established rating is marked provisional")
	}
	if dots := visitor.Last.Find(`#rating-history-trenches svg circle`).Length(); dots != 40 {
		t.Errorf("ann's rating history has %d points, want one per rated game (40)", dots)
	}
	if visitor.Last.Find(`#rating-history-trench`).Length() != 0 {
		t.Error("a rating history for a game ann never played rated")
	}
	clients["cid"].Get("/players/ann")
	if clients["cid"].Last.Find(`a[href="/challenges/new?opponent=ann"]`).Length() != 1 {
		t.Error("no button to challenge ann on her profile")
	}

	visitor.Get("/leaderboard/chess")
	visitor.wantStatus(http.StatusNotFound)
	visitor.Get("/leaderboard/trenches?page=x")
	visitor.wantStatus(http.StatusBadRequest)
	visitor.Get("/leaderboard/trenches?page=2")
	if visitor.Status != http.StatusOK || visitor.Last.Find("#leaderboard tr[data-player]").Length() != 4 {
		t.Errorf("a page past the end: status %d, want the last page", visitor.Status)
	}
}

// TestLeaderboardListsProvisionalPlayers: on a new server, where nobody
// has played enough rated games to be established, the leaderboard lists
// the players who have played, by rating, marked provisional with their
// "?", and tells a provisional player where they stand; established
// players are ranked above them.
func TestLeaderboardListsProvisionalPlayers(t *testing.T) {
	s := startServer(t, "", nil)
	now := s.Clock.Now()
	clients := map[string]*client{}
	for _, name := range []string{"ann", "bob", "cid", "dan", "eve"} {
		c := s.newClient(t)
		c.SignUp(name)
		clients[name] = c
	}
	at := now.Add(-10 * time.Hour)
	for i := 0; i < 8; i++ {
		a, b := []string{"ann", "bob", "cid", "dan"}[i%4], []string{"bob", "cid", "dan", "ann"}[i%4]
		ratedGame(t, s, a, b, "ann", at)
		at = at.Add(time.Hour)
	}
	lines := func(c *client) []string {
		var out []string
		c.Last.Find("#leaderboard tbody tr[data-player]").Each(func(_ int, r *goquery.Selection) {
			name, _ := r.Attr("data-player")
			out = append(out, name+" "+strings.TrimSpace(r.Find(".rank").Text())+" "+strings.TrimSpace(r.Find(".rating").Text()))
		})
		return out
	}
	visitor := s.newClient(t)
	visitor.Get("/leaderboard/trenches")
	visitor.wantStatus(http.StatusOK)
	if visitor.Last.Find("#leaderboard-empty").Length() != 0 {
		t.Fatal("after 8 rated games the leaderboard says nobody is listed")
	}
	got := lines(visitor)
	if len(got) != 4 || !strings.HasPrefix(got[0], "ann provisional ") || !strings.HasSuffix(got[0], "?") {
		t.Fatalf("leaderboard after 8 rated games: %q, want the four players, ann first, marked provisional with ?", got)
	}
	for _, l := range got {
		if !strings.Contains(l, " provisional ") || !strings.HasSuffix(l, "?") {
			t.Errorf("line %q is not marked provisional", l)
		}
	}
	if visitor.Last.Find("#provisional-ratings").Length() != 1 {
		t.Error("the provisional ratings have no heading")
	}
	eve := clients["eve"]
	eve.Get("/leaderboard/trenches")
	if note := eve.text("#own-rank"); !strings.Contains(note, "not finished a rated game") {
		t.Errorf("eve, without a rated game: %q", note)
	}
	dan := clients["dan"]
	dan.Get("/leaderboard/trenches")
	if note := dan.text("#own-rank"); !strings.Contains(note, "provisional") || !strings.Contains(note, "below the ranked players") {
		t.Errorf("dan's note: %q", note)
	}
	// ann and bob play on until both are established: they are ranked
	// above the provisional cid and dan.
	for i := 0; i < 30; i++ {
		ratedGame(t, s, "ann", "bob", []string{"ann", "bob"}[i%3/2], at)
		at = at.Add(time.Minute)
	}
	visitor.Get("/leaderboard/trenches")
	got = lines(visitor)
	if len(got) != 4 || !strings.HasPrefix(got[0], "ann 1 ") || !strings.HasPrefix(got[1], "bob 2 ") ||
		!strings.Contains(got[2], " provisional ") || !strings.Contains(got[3], " provisional ") {
		t.Errorf("leaderboard: %q, want ann 1, bob 2, then cid and dan provisional", got)
	}
	clients["bob"].Get("/leaderboard/trenches")
	if note := clients["bob"].text("#own-rank"); note != "You are ranked 2 of 2." {
		t.Errorf("bob's note: %q", note)
	}
	// A hundred days later nobody has played lately: dan, whose rating is
	// still provisional, is told that, not that it is provisional.
	s.Clock.Advance(100 * 24 * time.Hour)
	dan = s.newClient(t)
	if st := dan.SignIn("dan", "correct horse"); st != http.StatusOK {
		t.Fatalf("dan signs in again: %d", st)
	}
	dan.Get("/leaderboard/trenches")
	if note := dan.text("#own-rank"); !strings.Contains(note, "more than 90 days old") {
		t.Errorf("dan, 100 days later: %q", note)
	}
}
