package handlers_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
)

// TestTournamentCreationByAdminsOnly: by default any signed-in player
// organises tournaments; with the server's flag only the administrators
// do: the others are told so on the list (which has no "create" button
// for them) and get a 403 from the form and its target, which creates
// nothing.
func TestTournamentCreationByAdminsOnly(t *testing.T) {
	t.Run("anyone", func(t *testing.T) {
		s := startServer(t, "", nil)
		a, _ := signedUpPair(t, s)
		a.Get("/tournaments")
		if got := a.text("#tournament-creators"); !strings.Contains(got, "Any signed-in player") {
			t.Errorf("the list says %q about who organises", got)
		}
		organise(t, a, url.Values{"name": {"Open to all"}, "game": {"trenches:standard"}, "format": {"roundrobin"},
			"min": {"2"}, "max": {"4"}, "days": {"3"}, "starts": {""}})
	})
	t.Run("admins only", func(t *testing.T) {
		s := startServerWith(t, "", nil, func(cfg *handlers.Config, _ string) { cfg.TournamentsByAdminsOnly = true })
		a, b := signedUpPair(t, s)
		if _, err := s.DB.SetAdmin(context.Background(), "alice", true); err != nil {
			t.Fatal(err)
		}
		b.Get("/tournaments")
		b.wantStatus(http.StatusOK)
		if b.Last.Find("#new-tournament").Length() != 0 {
			t.Error("a player who is not an administrator sees the create button")
		}
		if got := b.text("#tournament-creators"); !strings.Contains(got, "only the administrators") {
			t.Errorf("the list says %q about who organises", got)
		}
		b.Get("/tournaments/new")
		if b.Status != http.StatusForbidden || !strings.Contains(b.Last.Text(), "only the administrators create tournaments") {
			t.Errorf("the form for a player: status %d, %q", b.Status, b.text("main"))
		}
		b.Post("/tournaments", url.Values{"name": {"Not allowed"}, "game": {"trenches:standard"}, "format": {"roundrobin"},
			"min": {"2"}, "max": {"4"}, "days": {"3"}})
		if b.Status != http.StatusForbidden {
			t.Errorf("a player creating a tournament: status %d, want 403", b.Status)
		}
		if ts, _, err := s.DB.Tournaments(context.Background(), 1); err != nil || len(ts) != 0 {
			t.Fatalf("%d tournaments after the refusal (%v), want none", len(ts), err)
		}
		// The administrator organises as usual.
		page := organise(t, a, url.Values{"name": {"By the admin"}, "game": {"trenches:standard"}, "format": {"roundrobin"},
			"min": {"2"}, "max": {"4"}, "days": {"3"}, "starts": {""}})
		b.Get("/tournaments")
		if b.Last.Find(fmt.Sprintf(`#tournaments-upcoming a[href="%s"]`, page)).Length() != 1 {
			t.Error("the admin's tournament is not listed")
		}
	})
}

// TestTournamentWithComputerEntrant runs a rated round robin of alice,
// bob and the easy computer player to its end: only the organiser adds
// the computer, before the start and once; its games are played by the
// computer's worker; the humans resign to it (and bob to alice). The
// standings put the computer first; the games against it are not rated
// (the server does not rate games against the computer), the humans'
// game is.
func TestTournamentWithComputerEntrant(t *testing.T) {
	s, _ := startWithComputer(t, "", nil)
	a, b := signedUpPair(t, s)
	players := map[string]*client{"alice": a, "bob": b}
	page := organise(t, a, url.Values{"name": {"Three with the computer"}, "game": {"trenches:standard"}, "format": {"roundrobin"},
		"min": {"3"}, "max": {"3"}, "days": {"3"}, "starts": {"7"}, "rated": {"1"}})
	tournamentAct(t, a, page, "join")
	tournamentAct(t, b, page, "join")

	// Only the organiser adds a computer player, and says why not rated.
	b.Get(page)
	if b.Last.Find("#add-computer").Length() != 0 {
		t.Error("bob, not the organiser, sees the form adding a computer player")
	}
	if got := b.text("#tournament-computer-rule"); !strings.Contains(got, "not rated") {
		t.Errorf("the page's rule for the computer: %q", got)
	}
	b.Post(page+"/computer", url.Values{"level": {"easy"}})
	b.wantStatus(http.StatusForbidden)
	a.Get(page)
	form := a.Last.Find("#add-computer")
	if form.Length() != 1 {
		t.Fatal("the organiser has no form adding a computer player")
	}
	a.Submit(form, url.Values{"level": {"easy"}})
	a.wantStatus(http.StatusOK)
	if got := a.text("#entrants"); !strings.Contains(got, "Computer · easy") {
		t.Fatalf("entrants after adding the computer: %q", got)
	}
	if a.Last.Find(`#add-computer option[value="easy"]`).Length() != 0 {
		t.Error("the easy level is offered again")
	}
	if a.Last.Find("#add-computer").Length() != 0 {
		t.Error("a full tournament still offers computer players")
	}
	a.Post(page+"/computer", url.Values{"level": {"easy"}})
	a.wantStatus(http.StatusConflict)
	a.Post(page+"/computer", url.Values{"level": {"grandmaster"}})
	a.wantStatus(http.StatusBadRequest)
	// Removed and added again, through the page.
	a.Get(page)
	a.Submit(a.Last.Find(`form.remove-computer`).First(), url.Values{"level": {"easy"}})
	a.wantStatus(http.StatusOK)
	if strings.Contains(a.text("#entrants"), "Computer") {
		t.Fatal("the computer is still entered after its removal")
	}
	a.Submit(a.Last.Find("#add-computer"), url.Values{"level": {"easy"}})
	a.wantStatus(http.StatusOK)
	tournamentAct(t, a, page, "start")
	a.Post(page+"/computer", url.Values{"level": {"medium"}})
	a.wantStatus(http.StatusConflict)
	a.Get(page)
	if a.Last.Find("#add-computer").Length() != 0 {
		t.Error("the form adding a computer player is still there after the start")
	}

	ctx := context.Background()
	const computer = "Computer · easy"
	playWithComputer(t, s, players, page, computer)

	v := s.newClient(t)
	v.Get(page)
	if st := v.text("#tournament-status"); st != "Finished: "+computer+" won the tournament." {
		t.Errorf("status %q", st)
	}
	if got := strings.Join(names(v.Last.Find("#standings tr[data-player]"), "data-player"), ","); got != computer+",alice,bob" {
		t.Errorf("standings %s", got)
	}
	if pts := v.text(`#standings tr[data-player="` + computer + `"] .points`); pts != "6" {
		t.Errorf("the computer has %q points, want 6 (four wins, two byes)", pts)
	}
	if n := v.Last.Find("#crosstable tbody a").Length(); n != 6 {
		t.Errorf("%d game links in the crosstable, want 6", n)
	}
	rated := func(name string) int {
		rs, err := s.DB.Ratings(ctx, mustUser(t, s, name), s.Clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range rs {
			n += r.Games
		}
		return n
	}
	if ga, gb, gc := rated("alice"), rated("bob"), rated(computer); ga != 2 || gb != 2 || gc != 0 {
		t.Errorf("rated games: alice %d, bob %d, the computer %d; want 2, 2, 0 (only alice v bob rated)", ga, gb, gc)
	}
}

// playWithComputer plays tournament page to its end with the computer's
// worker running: in a game between two people the one with the later
// name resigns after a move each; against the computer the person makes
// a random move until both sides have moved, waiting for the computer's
// answers, then resigns.
func playWithComputer(t *testing.T, s *server, players map[string]*client, page, computer string) {
	t.Helper()
	ctx := context.Background()
	var id int64
	fmt.Sscanf(page, "/tournaments/%d", &id)
	rng := rand.New(rand.NewPCG(5, 5))
	for i := 0; i < 500; i++ {
		d, err := s.DB.Tournament(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if d.Status == "finished" {
			return
		}
		for _, p := range d.Pairings {
			if p.Decided || p.GameID == 0 || s.game(t, p.GameID).Finished() {
				continue
			}
			names := [2]string{p.Side[0].Name, p.Side[1].Name}
			if names[0] != computer && names[1] != computer {
				playRandom(t, s, p.GameID, 2)
				resign(t, players[max(names[0], names[1])], p.GameID)
				continue
			}
			human := names[0]
			if human == computer {
				human = names[1]
			}
			g := waitHuman(t, s, p.GameID, human)
			switch {
			case g.Finished():
			case g.Ply < 2: // both sides move before a resignation counts
				st, _ := g.Decode()
				legal := st.Legal(g.ToMove)
				if _, err := s.DB.PlayMove(ctx, db.Play{GameID: g.ID, UserID: g.Side[g.ToMove].ID, Ply: g.Ply,
					Move: legal[rng.IntN(len(legal))]}, s.Clock.Now()); err != nil {
					t.Fatal(err)
				}
			default:
				resign(t, players[human], g.ID)
			}
		}
	}
	t.Fatal("the tournament never ended")
}

// TestKnockoutWithComputerEntrant: a knockout of four, three people and
// the medium computer player, runs through its rounds to the end: the
// final is paired as the semi-finals end, and the computer, which nobody
// beats, wins it.
func TestKnockoutWithComputerEntrant(t *testing.T) {
	s, _ := startWithComputer(t, "", nil)
	players := map[string]*client{}
	for _, n := range []string{"ann", "ben", "cyd"} {
		c := s.newClient(t)
		c.SignUp(n)
		players[n] = c
	}
	page := organise(t, players["ann"], url.Values{"name": {"Knockout with the computer"}, "game": {"trench:single"}, "format": {"knockout"},
		"min": {"4"}, "max": {"4"}, "days": {"3"}, "starts": {""}})
	for _, n := range []string{"ann", "ben", "cyd"} {
		tournamentAct(t, players[n], page, "join")
	}
	a := players["ann"]
	a.Get(page)
	a.Submit(a.Last.Find("#add-computer"), url.Values{"level": {"medium"}})
	a.wantStatus(http.StatusOK)
	if st := a.text("#tournament-status"); !strings.Contains(st, "Round 1 of 2") {
		t.Fatalf("the knockout filled by the computer says %q", st)
	}
	const computer = "Computer · medium"
	playWithComputer(t, s, players, page, computer)
	v := s.newClient(t)
	v.Get(page)
	if st := v.text("#tournament-status"); st != "Finished." {
		t.Errorf("status %q", st)
	}
	final := v.text(`#rounds section.round[data-round="2"] li.pairing`)
	if !strings.Contains(final, computer) || !strings.Contains(final, "ann") {
		t.Errorf("the final: %q, want the computer against ann", final)
	}
	if top := names(v.Last.Find("#standings tr[data-player]"), "data-player"); len(top) != 4 || top[0] != computer {
		t.Errorf("standings %v, want the computer first of four", top)
	}
}

// TestTournamentComputerRatedRule: on a server that rates games against
// the computer, a rated tournament's page says its games against the
// computer are rated, and they are.
func TestTournamentComputerRatedRule(t *testing.T) {
	s, _ := startWithComputer(t, "", func(cfg *handlers.Config) { cfg.RateBotGames = true })
	a, b := signedUpPair(t, s)
	page := organise(t, a, url.Values{"name": {"Rated computer"}, "game": {"trenches:standard"}, "format": {"roundrobin"},
		"min": {"2"}, "max": {"2"}, "days": {"3"}, "starts": {""}, "rated": {"1"}})
	tournamentAct(t, b, page, "join")
	a.Get(page)
	a.Submit(a.Last.Find("#add-computer"), url.Values{"level": {"hard"}})
	a.wantStatus(http.StatusOK)
	// Full, it has started: the page says what holds for its games.
	if got := a.text("#tournament-computer-rule"); got != "Games against the computer are rated on this server." {
		t.Errorf("the page's rule for the computer: %q", got)
	}
	playWithComputer(t, s, map[string]*client{"alice": a, "bob": b}, page, "Computer · hard")
	rs, err := s.DB.Ratings(context.Background(), mustUser(t, s, "bob"), s.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].Games != 2 {
		t.Errorf("bob's ratings after two games against the computer: %+v, want 2 rated games", rs)
	}
}
