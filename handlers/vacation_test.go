package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/handlers"
)

// TestVacationThroughTheBrowser: a player starts a vacation, the
// opponent's game page says so and the clock stands still, the player
// ends it.
func TestVacationThroughTheBrowser(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0") // alice to move, 3 days
	a.Get("/")
	href, ok := a.Last.Find("#vacation-link").Attr("href")
	if !ok {
		t.Fatal("no vacation link on the dashboard")
	}
	a.Get(href)
	if !strings.Contains(a.text("#vacation-status"), "20 days") {
		t.Fatalf("vacation page: %q", a.text("#vacation-status"))
	}
	a.Post("/vacation/start", nil)
	a.wantStatus(http.StatusOK)
	if !strings.Contains(a.text("#vacation-status"), "You are on vacation") {
		t.Fatalf("after starting: %q", a.text("#vacation-status"))
	}
	a.Post("/vacation/start", nil)
	a.wantStatus(http.StatusConflict)
	s.Clock.Advance(10 * 24 * time.Hour)
	if n, _ := s.DB.ExpireGames(context.Background(), s.Clock.Now()); n != 0 {
		t.Fatal("a player on vacation lost on time")
	}
	b.Get(fmt.Sprintf("/games/%d", id))
	if !strings.Contains(b.text(".vacation"), "alice is on vacation") || !strings.Contains(b.text("#clock"), "3 days") {
		t.Fatalf("bob sees %q / %q", b.text(".vacation"), b.text("#clock"))
	}
	a.Get("/vacation")
	a.Post("/vacation/end", nil)
	a.wantStatus(http.StatusOK)
	if !strings.Contains(a.text("#vacation-status"), "10 days") {
		t.Fatalf("after 10 days away: %q", a.text("#vacation-status"))
	}
	a.Get(fmt.Sprintf("/games/%d", id))
	if a.Last.Find(".vacation").Length() != 0 || !strings.Contains(a.text("#clock"), "You have 3 days") {
		t.Fatalf("back from vacation: %q", a.text("#clock"))
	}
}

// TestTimeBankChallenge creates a time-bank challenge through the form and
// plays on it: the banks are shown and change with the moves.
func TestTimeBankChallenge(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	a.Get("/challenges/new?game=trench")
	a.Post("/challenges", url.Values{"game": {"trench"}, "variant": {"single"}, "color": {"0"}, "opponent": {"bob"},
		"clock": {"bank"}, "days": {"3"}, "bank_initial": {"10"}, "bank_add": {"36"}, "bank_max": {"20"}})
	a.wantStatus(http.StatusOK)
	want := "time bank: 10 days, +36 hours a move, up to 20 days"
	if got := a.text("#my-challenges tbody tr"); !strings.Contains(got, want) {
		t.Fatalf("challenge row %q lacks %q", got, want)
	}
	b.Get("/")
	idText, _ := b.Last.Find("#open-challenges tr[data-challenge]").Attr("data-challenge")
	b.Post("/challenges/"+idText+"/accept", nil)
	id := gameIDOf(t, b.URL)
	s.Clock.Advance(4 * 24 * time.Hour)
	clickMove(t, a, id, func(int) int { return 0 })
	b.Get(fmt.Sprintf("/games/%d", id))
	if got := b.text("#banks"); got != "Time banks: Black 7 days 12 hours · White 10 days" {
		t.Fatalf("banks: %q", got)
	}
	// A bank with a bad shape is refused with a message.
	a.Get("/challenges/new?game=trench")
	a.Post("/challenges", url.Values{"game": {"trench"}, "variant": {"single"}, "color": {"0"},
		"clock": {"bank"}, "days": {"3"}, "bank_initial": {"20"}, "bank_add": {"36"}, "bank_max": {"5"}})
	a.wantStatus(http.StatusBadRequest)
	if !strings.Contains(a.Last.Text(), "maximum") {
		t.Fatal("no message for a bank whose maximum is below its start")
	}
}

// TestVacationsOff: on a server with no vacation allowance (serve's
// --vacation-days 0) the pages say that vacations are off and offer none.
func TestVacationsOff(t *testing.T) {
	s := startServerWith(t, "", nil, func(cfg *handlers.Config, _ string) { cfg.VacationDays = -1 })
	a, b := signedUpPair(t, s)
	challenge(t, a, b, "trench", "single", "0")
	a.Get("/")
	if a.Last.Find("#vacation-link").Length() != 0 || strings.Contains(a.Last.Text(), "vacation") {
		t.Fatalf("the dashboard offers a vacation: %q", a.text("#vacation-link"))
	}
	a.Get("/vacation")
	a.wantStatus(http.StatusOK)
	if got := a.text("#vacation-status"); got != "Vacations are off on this server: your clocks run in every game until the game ends." {
		t.Fatalf("the vacation page says %q", got)
	}
	if a.Last.Find(`form[action="/vacation/start"]`).Length() != 0 || strings.Contains(a.Last.Text(), "0 hours") {
		t.Fatal("the vacation page offers a vacation of 0 hours")
	}
	a.Post("/vacation/start", nil)
	a.wantStatus(http.StatusConflict)
	if got := a.text(`.flash[role="alert"]`); got != "Vacations are off on this server." {
		t.Fatalf("starting one anyway says %q", got)
	}
}

// TestVacationShownWithTheClock: while the player to move is on vacation
// every page that shows the game's clock says until when, and shows the
// time on the clock itself (not the clock plus the allowance).
func TestVacationShownWithTheClock(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0") // alice to move, 3 days
	feed := feedURL(t, a)
	s.Clock.Advance(time.Hour)
	a.Get("/vacation")
	a.Post("/vacation/start", nil)
	a.wantStatus(http.StatusOK)
	s.Clock.Advance(5 * 24 * time.Hour) // the clock stands still meanwhile
	until := "on vacation until 21 March 2026 13:00 UTC; 2 days 23 hours on the clock"
	row := func(c *client, path string) string {
		c.Get(path)
		c.wantStatus(http.StatusOK)
		return strings.TrimSpace(c.Last.Find(fmt.Sprintf(`a[href="/games/%d"]`, id)).First().Closest("tr").Text())
	}
	if got := row(b, "/"); !strings.Contains(got, "alice is "+until) {
		t.Errorf("bob's dashboard row reads %q, want %q", got, "alice is "+until)
	}
	if got := row(a, "/"); !strings.Contains(got, "You are "+until) {
		t.Errorf("alice's dashboard row reads %q, want %q", got, "You are "+until)
	}
	if got := row(b, "/players/alice"); !strings.Contains(got, "alice is "+until) {
		t.Errorf("alice's profile row reads %q, want %q", got, "alice is "+until)
	}
	b.Get(fmt.Sprintf("/games/%d", id))
	if got := b.text("#clock"); got != "The clock is stopped: alice is "+until+"." {
		t.Errorf("the game page's clock reads %q", got)
	}
	if _, f := getFeed(t, feed); len(f.Entries) != 1 || !strings.Contains(f.Entries[0].Summary, "You are "+until+".") {
		t.Errorf("alice's feed: %+v, want the summary to say %q", f.Entries, "You are "+until)
	}
}

// TestVacationAcrossNewYearThroughTheBrowser: a vacation started on 20
// December at noon with the whole allowance charges 11.5 days to the old
// year and runs until the new year's 20 days are used up; after that no
// second vacation can follow in the new year.
func TestVacationAcrossNewYearThroughTheBrowser(t *testing.T) {
	s := startServer(t, "", &clock{now: time.Date(2026, 12, 20, 12, 0, 0, 0, time.UTC)})
	a, _ := signedUpPair(t, s)
	a.Get("/vacation")
	a.Submit(a.Last.Find(`form[action="/vacation/start"]`), nil)
	a.wantStatus(http.StatusOK)
	want := "You are on vacation since 20 December 2026 12:00, until 21 January 2027 00:00 at the latest."
	if got := a.text("#vacation-status"); got != want {
		t.Fatalf("the vacation page says %q, want %q", got, want)
	}
	s.Clock.Advance(33 * 24 * time.Hour) // 22 January 2027, 12:00
	a.Get("/vacation")
	if got := a.text("#vacation-status"); got != "You are not on vacation. Left this year: 0 hours." {
		t.Fatalf("on 22 January the vacation page says %q", got)
	}
	if a.Last.Find(`form[action="/vacation/start"]`).Length() != 0 {
		t.Fatal("a second vacation is offered with 2027's allowance used up")
	}
}
