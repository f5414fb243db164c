package handlers_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
)

// finishByResign creates a challenge from creator to opponent in the
// store, accepts it and has loser resign (moves plies first), returning the
// game.
func finishByResign(t *testing.T, s *server, creator, opponent, loser string, game, variant string, plies int) db.Game {
	t.Helper()
	ctx := context.Background()
	cu, _ := s.DB.UserByName(ctx, creator)
	ou, _ := s.DB.UserByName(ctx, opponent)
	ch, err := s.DB.CreateChallenge(ctx, db.NewChallenge{CreatorID: cu.ID, Game: game, Variant: variant, Color: "0", DaysPerMove: 3}, s.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.DB.AcceptChallenge(ctx, ch.ID, ou.ID, 5, s.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	g := playRandom(t, s, id, plies)
	lu, _ := s.DB.UserByName(ctx, loser)
	if g, err = s.DB.Resign(ctx, id, lu.ID, g.Ply, s.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	s.Clock.Advance(time.Minute)
	return g
}

// playRandom plays up to plies random legal moves in game id through the
// store and returns the game.
func playRandom(t *testing.T, s *server, id int64, plies int) db.Game {
	t.Helper()
	ctx := context.Background()
	g, err := s.DB.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(id), 1))
	for i := 0; i < plies && !g.Finished(); i++ {
		st, _ := g.Decode()
		legal := st.Legal(g.ToMove)
		if g, err = s.DB.PlayMove(ctx, db.Play{GameID: id, UserID: g.Side[g.ToMove].ID, Ply: g.Ply, Move: legal[rng.IntN(len(legal))]}, s.Clock.Now()); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

func archiveIDs(t *testing.T, c *client, query string) []int64 {
	t.Helper()
	c.Get("/archive" + query)
	c.wantStatus(http.StatusOK)
	var ids []int64
	c.Last.Find("#archive tbody tr td:first-child a").Each(func(_ int, a *goquery.Selection) {
		href, _ := a.Attr("href")
		ids = append(ids, gameIDOf(t, href))
	})
	return ids
}

func TestArchiveFiltersAndPages(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	c := s.newClient(t)
	c.SignUp("carol")
	g1 := finishByResign(t, s, "alice", "bob", "alice", "trench", "single", 4)   // bob wins
	g2 := finishByResign(t, s, "carol", "alice", "carol", "trench", "bga", 2)    // alice wins
	g3 := finishByResign(t, s, "bob", "carol", "bob", "trenches", "standard", 3) // carol wins
	// A drawn game: an armistice.
	ctx := context.Background()
	ch, _ := s.DB.CreateChallenge(ctx, db.NewChallenge{CreatorID: mustUser(t, s, "alice"), Game: "trench", Variant: "single", Color: "0", DaysPerMove: 3}, s.Clock.Now())
	id4, _ := s.DB.AcceptChallenge(ctx, ch.ID, mustUser(t, s, "carol"), 9, s.Clock.Now())
	ply := playRandom(t, s, id4, 2).Ply
	if _, err := s.DB.OfferArmistice(ctx, id4, mustUser(t, s, "alice"), ply, s.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	s.Clock.Advance(time.Minute)
	if _, err := s.DB.AnswerArmistice(ctx, id4, mustUser(t, s, "carol"), ply, true, s.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	// An active game is not in the archive.
	active := challenge(t, a, b, "trench", "single", "0")

	v := s.newClient(t) // a visitor
	cases := []struct {
		query string
		want  []int64
	}{
		{"", []int64{id4, g3.ID, g2.ID, g1.ID}},
		{"?game=trenches", []int64{g3.ID}},
		{"?game=trench&variant=bga", []int64{g2.ID}},
		{"?player=alice", []int64{id4, g2.ID, g1.ID}},
		{"?player=alice&result=won", []int64{g2.ID}},
		{"?player=alice&result=lost", []int64{g1.ID}},
		{"?result=drawn", []int64{id4}},
		{"?result=decisive&player=carol", []int64{g3.ID, g2.ID}},
		{"?variant=bga", []int64{g2.ID}},
		{"?result=decisive", []int64{g3.ID, g2.ID, g1.ID}},
		{"?game=trenches&variant=bga", nil},
	}
	for _, tc := range cases {
		got := archiveIDs(t, v, tc.query)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("/archive%s lists %v, want %v", tc.query, got, tc.want)
		}
		for _, id := range got {
			if id == active {
				t.Error("an active game is in the archive")
			}
		}
	}
	// A row says who played, the result, the score and the moves.
	v.Get("/archive?game=trench&variant=bga")
	row := v.text("#archive tbody tr")
	for _, want := range []string{"carol", "alice", "won", "2"} {
		if !strings.Contains(row, want) {
			t.Errorf("the archive row %q does not show %q", row, want)
		}
	}
	// Bad filters are 4xx, not 500.
	for _, q := range []string{"?result=won", "?page=0", "?page=x", "?game=chess", "?result=maybe", "?variant=nosuchrules"} {
		v.Get("/archive" + q)
		if v.Status < 400 || v.Status >= 500 {
			t.Errorf("/archive%s: status %d", q, v.Status)
		}
	}
	// The profile: a record per game and a link to the archive.
	v.Get("/players/carol")
	v.wantStatus(http.StatusOK)
	rec := v.text("#records")
	if !strings.Contains(rec, "Trenches") || !strings.Contains(rec, "TRENCH") {
		t.Fatalf("carol's record: %q", rec)
	}
	var trenchRow string
	v.Last.Find("#records tbody tr").Each(func(_ int, tr *goquery.Selection) {
		cells := tr.Find("td").Map(func(_ int, td *goquery.Selection) string { return strings.TrimSpace(td.Text()) })
		if cells[0] == "TRENCH" {
			trenchRow = strings.Join(cells, " ")
		}
	})
	if trenchRow != "TRENCH 0 1 1" {
		t.Errorf("carol's TRENCH record row %q, want won 0 lost 1 drawn 1", trenchRow)
	}
	href, _ := v.Last.Find("#player-archive").Attr("href")
	if got := archiveIDs(t, v, strings.TrimPrefix(href, "/archive")); len(got) != 3 {
		t.Errorf("carol's archive link lists %v", got)
	}
	// The navigation bar reaches the archive.
	a.Get("/")
	if a.Last.Find(`nav.top a[href="/archive"]`).Length() != 1 {
		t.Error("no archive link in the navigation bar")
	}
}

func TestArchivePagination(t *testing.T) {
	s := startServer(t, "", nil)
	signedUpPair(t, s)
	var ids []int64
	for i := 0; i < db.ArchivePageSize+3; i++ {
		ids = append(ids, finishByResign(t, s, "alice", "bob", "bob", "trench", "single", 0).ID)
	}
	v := s.newClient(t)
	first := archiveIDs(t, v, "")
	if len(first) != db.ArchivePageSize || first[0] != ids[len(ids)-1] {
		t.Fatalf("page 1 has %d games starting with %v", len(first), first[:1])
	}
	next, ok := v.Last.Find("#next-page").Attr("href")
	if !ok || v.Last.Find("#prev-page").Length() != 0 {
		t.Fatal("page 1 has no link to page 2 (or a link back)")
	}
	second := archiveIDs(t, v, strings.TrimPrefix(next, "/archive"))
	if len(second) != 3 || second[2] != ids[0] {
		t.Fatalf("page 2: %v", second)
	}
	if !strings.Contains(v.text("#archive-count"), strconv.Itoa(db.ArchivePageSize+3)) {
		t.Fatalf("count %q", v.text("#archive-count"))
	}
}

// TestReviewStepsThroughEveryPly steps through a finished game ply by ply
// with the review links, with JavaScript off and on, and checks that the
// board shows each position.
func TestReviewStepsThroughEveryPly(t *testing.T) {
	s := startServer(t, "", nil)
	signedUpPair(t, s)
	g := finishByResign(t, s, "alice", "bob", "bob", "trench", "single", 12)
	moves, _ := s.DB.Moves(context.Background(), g.ID)
	for _, htmx := range []bool{false, true} {
		v := s.newClient(t)
		v.HTMX = htmx
		v.Get(fmt.Sprintf("/games/%d", g.ID))
		if v.text("#review-ply") != strconv.Itoa(g.Ply) {
			t.Fatalf("a finished game opens at ply %q, want its end %d", v.text("#review-ply"), g.Ply)
		}
		v.Click(v.Last.Find("#review-first"))
		for ply := 0; ; ply++ {
			v.wantStatus(http.StatusOK)
			if got := v.text("#review-ply"); got != strconv.Itoa(ply) {
				t.Fatalf("after %d steps the review shows ply %s", ply, got)
			}
			// The board shows the unit that moved at ply+1 still on its
			// start square, and the one that moved at ply on its arrival.
			if ply < len(moves) {
				from := moves[ply].Move[:2]
				if v.Last.Find(fmt.Sprintf(`#board [data-click="%s"] svg`, from)).Length() != 1 {
					t.Fatalf("ply %d: no unit on %s, which moves next", ply, from)
				}
			}
			if ply > 0 {
				to := moves[ply-1].Move[3:5]
				if v.Last.Find(fmt.Sprintf(`#board [data-click="%s"] svg`, to)).Length() != 1 {
					t.Fatalf("ply %d: no unit on %s, where the last move went", ply, to)
				}
				if htmx && v.Last.Find(`#moves[hx-swap-oob] li.current`).Text() != v.Last.Find(fmt.Sprintf(`#moves li[data-ply="%d"]`, ply)).Text() {
					t.Fatalf("ply %d is not marked in the move list", ply)
				}
			}
			next := v.Last.Find("#review-next")
			if next.Length() == 0 {
				if ply != g.Ply {
					t.Fatalf("no forward link at ply %d of %d", ply, g.Ply)
				}
				break
			}
			v.Click(next)
		}
		// A move of the list links to its position; a wrong ply is 404.
		v.Get(fmt.Sprintf("/games/%d", g.ID))
		href, _ := v.Last.Find(`#moves li[data-ply="3"] a`).Attr("href")
		v.Get(href)
		if v.text("#review-ply") != "3" {
			t.Fatalf("the move list link %s shows ply %s", href, v.text("#review-ply"))
		}
		for _, bad := range []string{"-1", "x", strconv.Itoa(g.Ply + 1)} {
			v.Get(fmt.Sprintf("/games/%d?ply=%s", g.ID, bad))
			v.wantStatus(http.StatusNotFound)
		}
	}
}

// TestReviewOfAGameInProgress: players and spectators can look back; the
// review has a way back to the live game and takes no moves.
func TestReviewOfAGameInProgress(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	rng := rand.New(rand.NewPCG(9, 9))
	for i := 0; i < 4; i++ {
		p, _ := whoMoves(t, s, id, a, b)
		clickMove(t, p, id, func(n int) int { return rng.IntN(n) })
	}
	a.Get(fmt.Sprintf("/games/%d?ply=2", id))
	if a.text("#review-ply") != "2" || a.Last.Find(`#board button[name="move"], #board a[data-click]`).Length() != 0 {
		t.Fatal("the review of ply 2 is not shown, or offers moves")
	}
	live, ok := a.Last.Find("#review-live").Attr("href")
	if !ok {
		t.Fatal("no way back to the game")
	}
	a.Get(live)
	if a.Last.Find("#review").Length() != 0 || a.Last.Find(`#board a[data-click]`).Length() == 0 {
		t.Fatal("back at the game, alice (to move) cannot move")
	}
}

// TestRecordDownloadReplays downloads a game record and replays it to the
// stored final position.
func TestRecordDownloadReplays(t *testing.T) {
	s := startServer(t, "", nil)
	signedUpPair(t, s)
	for _, game := range []struct{ key, variant string }{{"trench", "single"}, {"trenches", "standard"}} {
		g := finishByResign(t, s, "alice", "bob", "alice", game.key, game.variant, 30)
		v := s.newClient(t)
		v.Get(fmt.Sprintf("/games/%d", g.ID))
		href, ok := v.Last.Find("#record").Attr("href")
		if !ok {
			t.Fatal("no record link on a finished game")
		}
		res, err := http.Get(s.URL + href)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") ||
			!strings.Contains(res.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("record: %d %v", res.StatusCode, res.Header)
		}
		rec, err := rules.ParseRecord(string(body))
		if err != nil {
			t.Fatalf("the downloaded record does not parse: %v\n%s", err, body)
		}
		st, err := rec.Replay()
		if err != nil {
			t.Fatal(err)
		}
		if st.Encode() != g.State || len(rec.Moves) != g.Ply {
			t.Fatalf("the record replays to %q (%d moves), the game ended at %q (%d)", st.Encode(), len(rec.Moves), g.State, g.Ply)
		}
		if !strings.Contains(string(body), `[Result "`) || !strings.Contains(string(body), `"alice"]`) {
			t.Fatalf("record headers missing:\n%s", body[:200])
		}
	}
}

// TestPositionImage downloads the position at a ply as an SVG image.
func TestPositionImage(t *testing.T) {
	s := startServer(t, "", nil)
	signedUpPair(t, s)
	g := finishByResign(t, s, "alice", "bob", "alice", "trench", "single", 6)
	v := s.newClient(t)
	v.Get(fmt.Sprintf("/games/%d?ply=0", g.ID))
	href, ok := v.Last.Find("#image").Attr("href")
	if !ok {
		t.Fatal("no image link")
	}
	res, err := http.Get(s.URL + href)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("image: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if err := xml.Unmarshal(body, new(struct{})); err != nil {
		t.Fatalf("the image is not well-formed XML: %v", err)
	}
	// The start position: 32 units drawn, 16 of each side.
	if n := strings.Count(string(body), `<use href="#b`); n != 16 {
		t.Fatalf("%d Black units in the start image", n)
	}
	if n := strings.Count(string(body), `<use href="#w`); n != 16 {
		t.Fatalf("%d White units in the start image", n)
	}
	v.Get(fmt.Sprintf("/games/%d/position.svg?ply=999", g.ID))
	v.wantStatus(http.StatusNotFound)
}

// TestPositionPicture: a TRENCH position is also a PNG picture of 320
// pixels (what a notification shows), at any ply; a ply past the last and
// a card game have none.
func TestPositionPicture(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	get := func(path string) (*http.Response, []byte) {
		t.Helper()
		res, err := http.Get(s.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res, body
	}
	res, body := get(fmt.Sprintf("/games/%d/position.png?ply=0", id))
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/png" || res.Header.Get("ETag") == "" {
		t.Fatalf("picture: %d %q, ETag %q", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("ETag"))
	}
	img, err := png.Decode(bytes.NewReader(body))
	if err != nil || img.Bounds().Dx() != 320 || img.Bounds().Dy() != 320 {
		t.Fatalf("not a 320-pixel PNG picture: %v", err)
	}
	if res, _ := get(fmt.Sprintf("/games/%d/position.png?ply=99", id)); res.StatusCode != http.StatusNotFound {
		t.Fatalf("a ply past the last: %d", res.StatusCode)
	}
	cid := challenge(t, a, b, "cards", "short", "0")
	if res, _ := get(fmt.Sprintf("/games/%d/position.png", cid)); res.StatusCode != http.StatusNotFound {
		t.Fatalf("a card game's picture: %d", res.StatusCode)
	}
}

// TestCardImageHidesWhatASpectatorMayNotSee: the image of a card game in
// progress shows face-down cards as backs; once it has ended, every card.
func TestCardImageHidesWhatASpectatorMayNotSee(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "cards", "short", "0")
	fetch := func() string {
		res, err := http.Get(fmt.Sprintf("%s/games/%d/position.svg", s.URL, id))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("image: %d", res.StatusCode)
		}
		if err := xml.Unmarshal(body, new(struct{})); err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		return string(body)
	}
	img := fetch()
	faces := strings.Count(img, `font-size="24"`)
	if backs := strings.Count(img, `fill="url(#back)"`); backs != 14 || faces != 0 {
		t.Fatalf("at the start the image shows %d backs and %d faces, want 14 face-down trench cards", backs, faces)
	}
	g, _ := s.DB.Game(context.Background(), id)
	if _, err := s.DB.Resign(context.Background(), id, g.Side[0].ID, g.Ply, s.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	img = fetch()
	if backs := strings.Count(img, `fill="url(#back)"`); backs != 0 || strings.Count(img, `font-size="24"`) != 14 {
		t.Fatalf("after the end the image still hides %d cards", backs)
	}
}

// A page number past the last shows the last page.
func TestArchivePageClamped(t *testing.T) {
	s := startServer(t, "", nil)
	signedUpPair(t, s)
	var ids []int64
	for range 2 {
		ids = append(ids, finishByResign(t, s, "alice", "bob", "bob", "trench", "single", 0).ID)
	}
	v := s.newClient(t)
	for _, p := range []string{"9223372036854775807", "2", "368934881474191033"} {
		got := archiveIDs(t, v, "?page="+p)
		v.wantStatus(http.StatusOK)
		if len(got) != 2 || got[0] != ids[1] {
			t.Errorf("page %s shows %v, want the last page %v", p, got, ids)
		}
		if v.Last.Find("#prev-page").Length() != 0 || strings.Contains(v.text("main"), "Page "+p) {
			t.Errorf("page %s: a link back or the page number shown on the only page", p)
		}
	}
}

// A profile lists a player's first 50 games in progress and links to a
// profile listing all of them; with 50 or fewer there is no such link.
func TestProfileListsFiftyGamesInProgressThenAll(t *testing.T) {
	s := startServer(t, "", nil)
	a, _ := signedUpPair(t, s)
	visitor := s.newClient(t)
	ctx := context.Background()
	alice, bob := mustUser(t, s, "alice"), mustUser(t, s, "bob")
	start := func(n int) {
		t.Helper()
		for range n {
			ch, err := s.DB.CreateChallenge(ctx, db.NewChallenge{CreatorID: alice, Game: "trenches", Variant: "standard", Color: "0", DaysPerMove: 3}, s.Clock.Now())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.DB.AcceptChallenge(ctx, ch.ID, bob, 5, s.Clock.Now()); err != nil {
				t.Fatal(err)
			}
		}
	}
	listed := func(c *client) int { return c.Last.Find(`#player-active + table tbody tr`).Length() }
	start(50)
	visitor.Get("/players/alice")
	if n := listed(visitor); n != 50 || visitor.Last.Find("#player-active-all").Length() != 0 {
		t.Fatalf("50 games in progress: %d listed, link to all %d times; want all 50 and no link", n, visitor.Last.Find("#player-active-all").Length())
	}
	start(3)
	for _, c := range []*client{visitor, a} {
		c.Get("/players/alice")
		link := c.Last.Find("#player-active-all")
		href, _ := link.Attr("href")
		if n := listed(c); n != 50 || link.Text() != "Show all 53 games in progress" || href != "/players/alice?active=all#player-active" {
			t.Fatalf("53 games in progress: %d listed, link %q to %q; want 50 and a link to all 53", n, link.Text(), href)
		}
		c.Get(href)
		if n := listed(c); n != 53 || c.Last.Find("#player-active-all").Length() != 0 {
			t.Errorf("the profile with all games in progress lists %d, want 53 and no link", n)
		}
	}
}
