package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/trench-games/trench/handlers"
)

// organise fills the tournament form as org and returns the tournament's
// page address.
func organise(t *testing.T, org *client, form url.Values) string {
	t.Helper()
	org.Get("/tournaments")
	org.Click(org.Last.Find("#new-tournament"))
	org.wantStatus(http.StatusOK)
	org.Submit(org.Last.Find("#tournament-form"), form)
	org.wantStatus(http.StatusOK)
	if !strings.HasPrefix(org.URL, org.srv.URL+"/tournaments/") {
		t.Fatalf("after creating a tournament %s is at %s: %s", org.Name, org.URL, org.text(".flash"))
	}
	return strings.TrimPrefix(org.URL, org.srv.URL)
}

// signUpPlayers signs up n players, pl1 to pl<n>: their clients by name,
// and the names in order.
func signUpPlayers(t *testing.T, s *server, n int) (map[string]*client, []string) {
	t.Helper()
	players := map[string]*client{}
	var all []string
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("pl%d", i)
		c := s.newClient(t)
		c.SignUp(name)
		players[name] = c
		all = append(all, name)
	}
	return players, all
}

// tournamentAct submits one of the tournament page's action buttons.
func tournamentAct(t *testing.T, c *client, page, action string) {
	t.Helper()
	c.Get(page)
	form := c.Last.Find(fmt.Sprintf(`#tournament-actions form[action="%s/%s"]`, page, action))
	if form.Length() == 0 {
		t.Fatalf("%s sees no %q button on %s: %q", c.Name, action, page, c.text("#tournament-actions"))
	}
	c.Submit(form, nil)
	c.wantStatus(http.StatusOK)
}

// playTournament has the players resign, through the game pages, every
// game of the tournament at page until it ends; the player named by
// loser(side0, side1) resigns.
func playTournament(t *testing.T, s *server, players map[string]*client, page string, loser func(a, b string) string) {
	t.Helper()
	ctx := context.Background()
	var id int64
	fmt.Sscanf(page, "/tournaments/%d", &id)
	for i := 0; i < 200; i++ {
		d, err := s.DB.Tournament(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if d.Status != "running" {
			return
		}
		for _, p := range d.Pairings {
			if p.Decided || p.GameID == 0 {
				continue
			}
			g, err := s.DB.Game(ctx, p.GameID)
			if err != nil {
				t.Fatal(err)
			}
			if g.Finished() {
				continue
			}
			playRandom(t, s, g.ID, 2) // both sides move: a game resigned before is not rated
			resign(t, players[loser(g.Side[0].Name, g.Side[1].Name)], g.ID)
		}
	}
	t.Fatal("the tournament never ended")
}

func names(sel *goquery.Selection, attr string) []string {
	var out []string
	sel.Each(func(_ int, s *goquery.Selection) {
		v, _ := s.Attr(attr)
		out = append(out, v)
	})
	return out
}

// TestTournamentsThroughTheSite runs a round robin of four in TRENCH's
// official match, a Swiss of six over three rounds and a knockout of
// eight, every step through the pages: organising, joining, starting,
// the games (ended by resignation), and the standings, crosstable,
// rounds and bracket.
func TestTournamentsThroughTheSite(t *testing.T) {
	s := startServer(t, "", nil)
	players, all := signUpPlayers(t, s, 8)
	lowerWins := func(a, b string) string { // "pl1" beats "pl2": the higher number resigns
		if a > b {
			return a
		}
		return b
	}

	// Round robin, official match, starts when full.
	rr := organise(t, players["pl1"], url.Values{"name": {"Round robin of four"}, "game": {"trench:match"}, "format": {"roundrobin"},
		"min": {"4"}, "max": {"4"}, "days": {"3"}, "starts": {""}})
	for _, n := range all[:4] {
		tournamentAct(t, players[n], rr, "join")
	}
	v := s.newClient(t)
	v.Get(rr)
	if st := v.text("#tournament-status"); !strings.Contains(st, "Running") {
		t.Fatalf("a full round robin says %q", st)
	}
	if n := v.Last.Find("#crosstable tbody a").Length(); n != 12 {
		t.Errorf("%d game links in the crosstable, want 12 (6 matches, both ways)", n)
	}
	// A tournament game's page names the tournament and the round.
	href, _ := v.Last.Find("#crosstable tbody a").First().Attr("href")
	v.Get(href)
	if got := v.text("#game-tournament"); !strings.HasPrefix(got, "Round robin of four · round ") {
		t.Errorf("the game page's tournament line: %q", got)
	}
	playTournament(t, s, players, rr, lowerWins)
	v.Get(rr)
	if st := v.text("#tournament-status"); st != "Finished: pl1 won the tournament." {
		t.Errorf("status %q", st)
	}
	if got := v.text("#tournament-computer-rule"); got != "" {
		t.Errorf("the finished tournament still says %q", got)
	}
	if got := strings.Join(names(v.Last.Find("#standings tr[data-player]"), "data-player"), ","); got != "pl1,pl2,pl3,pl4" {
		t.Errorf("round robin standings %s", got)
	}
	if pts := v.text(`#standings tr[data-player="pl1"] .points`); pts != "3" {
		t.Errorf("pl1 has %q points, want 3", pts)
	}

	// Swiss: six players, three rounds; the organiser starts it early.
	sw := organise(t, players["pl2"], url.Values{"name": {"Swiss of six"}, "game": {"trenches:standard"}, "format": {"swiss"},
		"rounds": {"3"}, "min": {"4"}, "max": {"8"}, "days": {"2"}, "starts": {"7"}})
	for _, n := range all[:6] {
		tournamentAct(t, players[n], sw, "join")
	}
	tournamentAct(t, players["pl6"], sw, "leave")
	tournamentAct(t, players["pl6"], sw, "join")
	players["pl3"].Get(sw)
	if players["pl3"].Last.Find(`#tournament-actions form[action$="/start"]`).Length() != 0 {
		t.Error("a player who is not the organiser may start the Swiss")
	}
	tournamentAct(t, players["pl2"], sw, "start")
	playTournament(t, s, players, sw, lowerWins)
	v.Get(sw)
	if n := v.Last.Find("#rounds section.round").Length(); n != 3 {
		t.Errorf("%d Swiss rounds shown, want 3", n)
	}
	if n := v.Last.Find("#rounds li.pairing").Length(); n != 9 {
		t.Errorf("%d Swiss pairings shown, want 9", n)
	}
	if top := names(v.Last.Find("#standings tr[data-player]"), "data-player"); len(top) != 6 || top[0] != "pl1" {
		t.Errorf("Swiss standings %v, want pl1 first of six", top)
	}

	// Knockout of eight.
	ko := organise(t, players["pl3"], url.Values{"name": {"Knockout of eight"}, "game": {"trench:single"}, "format": {"knockout"},
		"min": {"2"}, "max": {"8"}, "days": {"1"}, "starts": {""}, "rated": {"1"}})
	for _, n := range all {
		tournamentAct(t, players[n], ko, "join")
	}
	playTournament(t, s, players, ko, lowerWins)
	v.Get(ko)
	var titles []string
	v.Last.Find("#rounds.bracket section.round h3").Each(func(_ int, h *goquery.Selection) { titles = append(titles, h.Text()) })
	if strings.Join(titles, ",") != "Quarter-finals,Semi-finals,Final" {
		t.Errorf("bracket rounds %v", titles)
	}
	if final := v.Last.Find(`#rounds section.round[data-round="3"] li.pairing`).Text(); !strings.Contains(final, "pl1 – pl2") || !strings.Contains(final, "1 – 0") {
		t.Errorf("the final: %q, want pl1 – pl2 won by pl1", final)
	}
	v.Get("/tournaments")
	if n := v.Last.Find("#tournaments-finished tbody tr").Length(); n != 3 {
		t.Errorf("%d finished tournaments listed, want 3", n)
	}

	// Bad settings come back with the form and a 400; a visitor cannot
	// join.
	org := players["pl4"]
	org.Get("/tournaments/new")
	org.Submit(org.Last.Find("#tournament-form"), url.Values{"name": {"x"}})
	if org.Status != http.StatusBadRequest || org.Last.Find("#tournament-form").Length() != 1 {
		t.Errorf("a one-letter name: status %d", org.Status)
	}
	v.Post(rr+"/join", nil)
	if v.Status != http.StatusUnauthorized && v.Status != http.StatusForbidden {
		t.Errorf("a visitor joining: status %d", v.Status)
	}
	players["pl1"].Post("/tournaments/999/join", nil)
	players["pl1"].wantStatus(http.StatusNotFound)
}

// TestWithdrawingAsksFirst: withdrawing from a running tournament, which
// loses every remaining game, asks first as resigning does; a withdrawal
// sent without the confirmation (an old page's button) changes nothing.
func TestWithdrawingAsksFirst(t *testing.T) {
	s := startServer(t, "", nil)
	players := map[string]*client{}
	for _, n := range []string{"wa1", "wa2", "wa3", "wa4"} {
		players[n] = s.newClient(t)
		players[n].SignUp(n)
	}
	rr := organise(t, players["wa1"], url.Values{"name": {"Round robin to leave"}, "game": {"trench:single"}, "format": {"roundrobin"},
		"min": {"4"}, "max": {"4"}, "days": {"3"}, "starts": {""}})
	for _, n := range []string{"wa1", "wa2", "wa3", "wa4"} {
		tournamentAct(t, players[n], rr, "join")
	}
	me := players["wa2"]
	me.Get(rr)
	if st := me.text("#tournament-status"); !strings.HasPrefix(st, "Running") {
		t.Fatalf("the tournament is not running: %q", st)
	}
	if me.Last.Find(`#tournament-actions form[action$="/leave"]`).Length() != 0 {
		t.Fatal("the running tournament's page withdraws in one click")
	}
	withdrawn := func() bool {
		players["wa1"].Get(rr)
		return strings.Contains(players["wa1"].text("#entrants"), "(withdrawn)")
	}
	// An old page's button: no confirmation, nothing happens.
	me.Post(rr+"/leave", url.Values{"action": {"leave"}})
	me.wantStatus(http.StatusOK)
	if withdrawn() {
		t.Fatal("a withdrawal without confirmation was carried out")
	}
	if me.Last.Find("#confirm-withdraw").Length() == 0 {
		t.Fatalf("a withdrawal without confirmation does not ask for it: %q", me.text("#tournament-actions"))
	}
	// The page's link asks; the player keeps playing.
	me.Get(rr)
	me.Click(me.Last.Find("#withdraw"))
	me.wantStatus(http.StatusOK)
	if got := me.text("#confirm-withdraw p"); !strings.Contains(got, "is lost") {
		t.Fatalf("the confirmation says %q", got)
	}
	me.Click(me.Last.Find("#confirm-withdraw a"))
	if withdrawn() || me.Last.Find("#confirm-withdraw").Length() != 0 {
		t.Fatal("keeping on playing withdrew the player")
	}
	// Confirmed, the player is withdrawn.
	me.Click(me.Last.Find("#withdraw"))
	me.Submit(me.Last.Find("#confirm-withdraw"), url.Values{"confirm": {"yes"}})
	me.wantStatus(http.StatusOK)
	if !withdrawn() {
		t.Fatal("a confirmed withdrawal did not withdraw the player")
	}
}

// TestSwissShownARoundAtATime: a Swiss tournament with more pairings than
// its page lists at once shows one round, the latest unless the address
// names another, with a link to each round (the one shown marked); a
// page showing an earlier round keeps it in its live updates; a round
// that is not a number is refused and one past the latest shows the
// latest.
func TestSwissShownARoundAtATime(t *testing.T) {
	defer handlers.SetPairingsAtOnce(2)()
	s := startServer(t, "", nil)
	players, all := signUpPlayers(t, s, 6)
	sw := organise(t, players["pl1"], url.Values{"name": {"Swiss a round at a time"}, "game": {"trenches:standard"}, "format": {"swiss"},
		"rounds": {"3"}, "min": {"4"}, "max": {"6"}, "days": {"2"}, "starts": {""}})
	for _, n := range all {
		tournamentAct(t, players[n], sw, "join") // full: it starts
	}
	shown := func(c *client, want int, pairings int) {
		t.Helper()
		c.wantStatus(http.StatusOK)
		var rounds []string
		c.Last.Find("#rounds section.round").Each(func(_ int, r *goquery.Selection) {
			n, _ := r.Attr("data-round")
			rounds = append(rounds, n)
		})
		if strings.Join(rounds, ",") != fmt.Sprint(want) {
			t.Fatalf("rounds shown %v, want %d alone", rounds, want)
		}
		if n := c.Last.Find("#rounds li.pairing").Length(); n != pairings {
			t.Errorf("%d pairings shown, want %d", n, pairings)
		}
		if cur := c.Last.Find(`#round-links a[aria-current="page"]`).Text(); cur != fmt.Sprintf("Round %d", want) {
			t.Errorf("the link marked as shown is %q, want Round %d", cur, want)
		}
	}
	v := s.newClient(t)
	v.Get(sw + "?round=1")
	shown(v, 1, 3)
	stream := openStream(t, v, liveURL(t, v.Last), "")

	// Round 1 is played: round 2 begins. The page showing round 1 is
	// sent round 1 with its results, and a link to round 2.
	ctx := context.Background()
	var id int64
	fmt.Sscanf(sw, "/tournaments/%d", &id)
	d, err := s.DB.Tournament(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range d.Pairings {
		if p.Round == 1 && p.GameID != 0 {
			playRandom(t, s, p.GameID, 2)
			resign(t, players[p.Side[1].Name], p.GameID)
		}
	}
	var ev *goquery.Document
	for ev == nil || ev.Find(`#round-links a[href$="round=2#rounds"]`).Length() == 0 {
		ev = stream.next("update", 5*time.Second).doc(t)
	}
	if r, _ := ev.Find("#rounds section.round").Attr("data-round"); r != "1" || ev.Find("#rounds section.round").Length() != 1 {
		t.Fatalf("the update of a page showing round 1 shows round %q", r)
	}
	if got := ev.Find("#rounds li.pairing .result").Text(); strings.Contains(got, "playing") {
		t.Errorf("round 1's results in the update: %q", got)
	}

	// Without a round, the latest; by the links, each.
	v.Get(sw)
	shown(v, 2, 3)
	if n := v.Last.Find("#round-links a").Length(); n != 2 {
		t.Errorf("%d links to rounds, want 2", n)
	}
	v.Click(v.Last.Find(`#round-links a[href$="round=1#rounds"]`))
	shown(v, 1, 3)
	v.Get(sw + "?round=9")
	shown(v, 2, 3)
	v.Get(sw + "?round=first")
	v.wantStatus(http.StatusBadRequest)
}
