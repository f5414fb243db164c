package db_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
)

// playOut resigns the side to move in every active game of tournament id
// until the tournament ends, choosing the loser with lose(round, board,
// leg, side0, side1) (true: side 0 of the pairing resigns). A drawn result
// is made by an agreed armistice where draw says so. It fails after limit
// games.
func playOut(t *testing.T, store *db.DB, id int64, lose func(p db.TournamentPairing) bool, draw func(p db.TournamentPairing) bool, now time.Time) db.TournamentDetail {
	t.Helper()
	ctx := context.Background()
	for i := 0; i < 500; i++ {
		d, err := store.Tournament(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if d.Status != "running" {
			return d
		}
		progressed := false
		for _, p := range d.Pairings {
			if p.Decided || p.GameID == 0 {
				continue
			}
			g, err := store.Game(ctx, p.GameID)
			if err != nil {
				t.Fatal(err)
			}
			if g.Finished() {
				continue
			}
			g = playOpeningAt(t, store, g, now) // so that rated games are rated
			if draw != nil && draw(p) {
				if _, err := store.OfferArmistice(ctx, g.ID, g.Side[g.ToMove].ID, g.Ply, now); err != nil {
					t.Fatal(err)
				}
				g, _ = store.Game(ctx, g.ID)
				if _, err := store.AnswerArmistice(ctx, g.ID, g.Side[1-g.ToMove].ID, g.Ply, true, now); err != nil {
					t.Fatal(err)
				}
			} else {
				loser := p.Side[1].ID
				if lose(p) {
					loser = p.Side[0].ID
				}
				if _, err := store.Resign(ctx, g.ID, loser, g.Ply, now); err != nil {
					t.Fatal(err)
				}
			}
			progressed = true
		}
		if !progressed {
			t.Fatalf("tournament %d stuck in round %d: %+v", id, d.Round, d.Pairings)
		}
	}
	t.Fatal("the tournament never ended")
	return db.TournamentDetail{}
}

func newTournament(t *testing.T, store *db.DB, org db.User, nt db.NewTournament, players []db.User) db.Tournament {
	t.Helper()
	ctx := context.Background()
	nt.OrganiserID = org.ID
	tr, err := store.CreateTournament(ctx, nt, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range players {
		if err := store.JoinTournament(ctx, tr.ID, u.ID, t0); err != nil {
			t.Fatal(err)
		}
	}
	d, err := store.Tournament(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	return d.Tournament
}

// TestRoundRobinOfficialMatches: four players in TRENCH's official match
// start when full, every pairing is one match (not doubled), all of them
// begin at once, and the standings come out of the results.
func TestRoundRobinOfficialMatches(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	us := users(t, store, "ann", "bob", "cid", "dan")
	tr := newTournament(t, store, us[0], db.NewTournament{Name: "Spring round robin", Game: "trench", Variant: "match",
		Format: db.FormatRoundRobin, MinPlayers: 4, MaxPlayers: 4, Clock: db.TimeControl{Kind: "move", DaysPerMove: 3}, Rated: true, Seed: 9}, us)
	if tr.Status != "running" {
		t.Fatalf("a full tournament without a deadline is %s, want running", tr.Status)
	}
	d, _ := store.Tournament(ctx, tr.ID)
	if len(d.Pairings) != 6 {
		t.Fatalf("%d pairings, want 6 (every two players once)", len(d.Pairings))
	}
	for _, p := range d.Pairings {
		if p.MatchID == 0 || p.GameID == 0 {
			t.Fatalf("pairing %+v has no match: a round robin starts every game at once", p)
		}
	}
	// The lower id always wins: ann 3, bob 2, cid 1, dan 0.
	d = playOut(t, store, tr.ID, func(p db.TournamentPairing) bool { return p.Side[0].ID > p.Side[1].ID }, nil, t0)
	if d.Status != "finished" {
		t.Fatalf("status %s", d.Status)
	}
	st, err := d.Standings()
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct {
		id     int64
		points float64
	}{{us[0].ID, 3}, {us[1].ID, 2}, {us[2].ID, 1}, {us[3].ID, 0}} {
		if st[i].ID != want.id || st[i].Points != want.points || st[i].Games != 3 {
			t.Errorf("line %d: %+v, want player %d with %v points from 3 games", i+1, st[i], want.id, want.points)
		}
	}
	// Rated: the matches changed the ratings.
	if r := rating(t, store, us[0], "trench"); r.Games == 0 || r.Rating <= 1500 {
		t.Errorf("ann's rating after winning everything: %+v", r)
	}
}

// TestSwissSixThreeRounds: six players, three rounds; each round is paired
// once the last game of the one before ends; nobody meets twice.
func TestSwissSixThreeRounds(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	us := users(t, store, "p1", "p2", "p3", "p4", "p5", "p6")
	tr := newTournament(t, store, us[0], db.NewTournament{Name: "Swiss six", Game: "trenches", Variant: "standard",
		Format: db.FormatSwiss, Rounds: 3, MinPlayers: 4, MaxPlayers: 6, Clock: db.TimeControl{Kind: "move", DaysPerMove: 2}, Seed: 3}, us)
	d, _ := store.Tournament(ctx, tr.ID)
	if d.Round != 1 || len(d.Pairings) != 3 {
		t.Fatalf("round %d with %d pairings at the start, want round 1 with 3", d.Round, len(d.Pairings))
	}
	d = playOut(t, store, tr.ID, func(p db.TournamentPairing) bool { return p.Side[0].ID > p.Side[1].ID }, nil, t0)
	if d.Status != "finished" || d.Round != 3 || len(d.Pairings) != 9 {
		t.Fatalf("%s after round %d with %d pairings, want finished after 3 rounds of 3", d.Status, d.Round, len(d.Pairings))
	}
	met := map[[2]int64]bool{}
	for _, p := range d.Pairings {
		a, b := p.Side[0].ID, p.Side[1].ID
		if a > b {
			a, b = b, a
		}
		if met[[2]int64{a, b}] {
			t.Errorf("%d and %d meet twice", a, b)
		}
		met[[2]int64{a, b}] = true
	}
	st, _ := d.Standings()
	if st[0].ID != us[0].ID || st[0].Points != 3 {
		t.Errorf("p1 wins every game but the standings start %+v", st[0])
	}
}

// TestKnockoutEightWithReplay: eight players; a drawn pairing is replayed
// with the colours reversed; the final leaves one winner.
func TestKnockoutEightWithReplay(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	var names []string
	for i := 1; i <= 8; i++ {
		names = append(names, fmt.Sprintf("k%d", i))
	}
	us := users(t, store, names...)
	tr := newTournament(t, store, us[0], db.NewTournament{Name: "Knockout eight", Game: "trench", Variant: "single",
		Format: db.FormatKnockout, MinPlayers: 2, MaxPlayers: 8, Clock: db.TimeControl{Kind: "move", DaysPerMove: 2}, Seed: 5}, us)
	d, _ := store.Tournament(ctx, tr.ID)
	if len(d.Pairings) != 4 || d.Rounds != 3 {
		t.Fatalf("%d first-round pairings, %d rounds; want 4 and 3", len(d.Pairings), d.Rounds)
	}
	drawn := false
	d = playOut(t, store, tr.ID, func(p db.TournamentPairing) bool { return p.Side[0].ID > p.Side[1].ID },
		func(p db.TournamentPairing) bool {
			// The first leg of round 1, board 1 is drawn once.
			if p.Round == 1 && p.Board == 1 && p.Leg == 1 && !drawn {
				drawn = true
				return true
			}
			return false
		}, t0)
	if d.Status != "finished" {
		t.Fatalf("status %s", d.Status)
	}
	var replay *db.TournamentPairing
	for i, p := range d.Pairings {
		if p.Round == 1 && p.Board == 1 && p.Leg == 2 {
			replay = &d.Pairings[i]
		}
	}
	if replay == nil {
		t.Fatalf("the drawn pairing was not replayed: %+v (drawn %v)", d.Pairings, drawn)
	}
	first := d.Pairings[0]
	if replay.Side[0].ID != first.Side[1].ID || replay.Side[1].ID != first.Side[0].ID {
		t.Errorf("the replay %v does not reverse the colours of %v", replay.Side, first.Side)
	}
	final := d.Pairings[len(d.Pairings)-1]
	if final.Round != 3 || !final.Decided {
		t.Fatalf("the last pairing %+v is not a decided final", final)
	}
	if rounds := map[int]int{}; true {
		for _, p := range d.Pairings {
			rounds[p.Round]++
		}
		if rounds[1] != 5 || rounds[2] != 2 || rounds[3] != 1 {
			t.Errorf("pairings per round %v, want 5 (with the replay), 2, 1", rounds)
		}
	}
}

// TestTournamentSignUpRules: joining twice, a full field, leaving before
// the start, the organiser's start and cancel, the deadline (starting or
// cancelling), and a withdrawal after the start forfeiting the rest.
func TestTournamentSignUpRules(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	us := users(t, store, "org", "a", "b", "c", "d")
	org := us[0]
	tr, err := store.CreateTournament(ctx, db.NewTournament{OrganiserID: org.ID, Name: "Sign-up", Game: "trenches", Variant: "standard",
		Format: db.FormatRoundRobin, MinPlayers: 3, MaxPlayers: 4, Clock: db.TimeControl{Kind: "move", DaysPerMove: 3},
		StartsAt: t0.Add(48 * time.Hour), Seed: 1}, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range us[1:3] {
		if err := store.JoinTournament(ctx, tr.ID, u.ID, t0); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.JoinTournament(ctx, tr.ID, us[1].ID, t0); db.KindOf(err) != db.KindConflict {
		t.Errorf("joining twice: %v, want a conflict", err)
	}
	if err := store.StartTournament(ctx, tr.ID, org.ID, t0); db.KindOf(err) != db.KindConflict {
		t.Errorf("starting with 2 of a minimum of 3: %v, want a conflict", err)
	}
	if err := store.StartTournament(ctx, tr.ID, us[1].ID, t0); db.KindOf(err) != db.KindForbidden {
		t.Errorf("a player starting it: %v, want forbidden", err)
	}
	if err := store.LeaveTournament(ctx, tr.ID, us[2].ID, t0); err != nil {
		t.Fatal(err)
	}
	// The deadline passes with one player: cancelled.
	if n, err := store.StartDueTournaments(ctx, t0.Add(49*time.Hour)); err != nil || n != 0 {
		t.Fatalf("start due: %d, %v", n, err)
	}
	if d, _ := store.Tournament(ctx, tr.ID); d.Status != "cancelled" {
		t.Fatalf("a tournament short of players at its deadline is %s, want cancelled", d.Status)
	}

	// A second one starts at its deadline; then c withdraws and forfeits.
	tr2, err := store.CreateTournament(ctx, db.NewTournament{OrganiserID: org.ID, Name: "Deadline", Game: "trenches", Variant: "standard",
		Format: db.FormatRoundRobin, MinPlayers: 3, MaxPlayers: 8, Clock: db.TimeControl{Kind: "move", DaysPerMove: 3},
		StartsAt: t0.Add(24 * time.Hour), Seed: 2}, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range us[1:5] {
		if err := store.JoinTournament(ctx, tr2.ID, u.ID, t0); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := store.StartDueTournaments(ctx, t0.Add(25*time.Hour)); err != nil || n != 1 {
		t.Fatalf("start due: %d, %v; want 1 started", n, err)
	}
	if err := store.JoinTournament(ctx, tr2.ID, org.ID, t0); db.KindOf(err) != db.KindConflict {
		t.Errorf("joining a running tournament: %v", err)
	}
	if err := store.CancelTournament(ctx, tr2.ID, org.ID, t0); db.KindOf(err) != db.KindConflict {
		t.Errorf("cancelling a running tournament: %v", err)
	}
	c := us[3]
	if err := store.LeaveTournament(ctx, tr2.ID, c.ID, t0.Add(26*time.Hour)); err != nil {
		t.Fatal(err)
	}
	d, _ := store.Tournament(ctx, tr2.ID)
	lost := 0
	for _, p := range d.Pairings {
		if p.Side[0].ID != c.ID && p.Side[1].ID != c.ID {
			continue
		}
		if !p.Decided {
			t.Errorf("c withdrew but still plays %+v", p)
		}
		if p.Side[0].ID == c.ID && p.Points0 == 0 || p.Side[1].ID == c.ID && p.Points0 == 1 {
			lost++
		}
	}
	if lost != 6 {
		t.Errorf("c forfeited %d games, want all 6 (a double round robin of 4)", lost)
	}
	if err := store.LeaveTournament(ctx, tr2.ID, c.ID, t0); db.KindOf(err) != db.KindConflict {
		t.Errorf("withdrawing twice: %v", err)
	}
	// Bad settings.
	for _, nt := range []db.NewTournament{
		{Name: "x", Game: "trench", Variant: "single", Format: db.FormatSwiss, Rounds: 3, MinPlayers: 4, MaxPlayers: 8},
		{Name: "Good name", Game: "chess", Variant: "single", Format: db.FormatSwiss, Rounds: 3, MinPlayers: 4, MaxPlayers: 8},
		{Name: "Good name", Game: "trench", Variant: "single", Format: "ladder", MinPlayers: 4, MaxPlayers: 8},
		{Name: "Good name", Game: "trench", Variant: "single", Format: db.FormatSwiss, Rounds: 0, MinPlayers: 4, MaxPlayers: 8},
		{Name: "Good name", Game: "trench", Variant: "single", Format: db.FormatSwiss, Rounds: 4, MinPlayers: 4, MaxPlayers: 8},
		{Name: "Good name", Game: "trench", Variant: "single", Format: db.FormatKnockout, MinPlayers: 8, MaxPlayers: 4},
		{Name: "Good name", Game: "trench", Variant: "single", Format: db.FormatKnockout, MinPlayers: 2, MaxPlayers: 4, StartsAt: t0.Add(-time.Hour)},
	} {
		nt.OrganiserID = org.ID
		nt.Clock = db.TimeControl{Kind: "move", DaysPerMove: 3}
		if _, err := store.CreateTournament(ctx, nt, t0); db.KindOf(err) != db.KindInvalid {
			t.Errorf("%+v: %v, want invalid", nt, err)
		}
	}
}

// TestComputerEntrants: only the organiser enters a computer player, each
// level once, before the start; it fills a place like anyone (a
// tournament without a deadline starts when that fills it); its games are
// rated in a rated tournament only when it was entered rated.
func TestComputerEntrants(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	us := users(t, store, "org", "ann", "bob")
	org, ann, bob := us[0], us[1], us[2]
	easy, medium := computer(t, store, "easy"), computer(t, store, "medium")
	// games is how many of ann's games in d were against opponent.
	games := func(d db.TournamentDetail, opponent int64) int {
		n := 0
		for _, p := range d.Pairings {
			if p.GameID != 0 && (p.Side[0].ID == ann.ID && p.Side[1].ID == opponent || p.Side[1].ID == ann.ID && p.Side[0].ID == opponent) {
				n++
			}
		}
		return n
	}
	play := func(name string, comp db.Computer, rated bool) db.TournamentDetail {
		t.Helper()
		tr, err := store.CreateTournament(ctx, db.NewTournament{OrganiserID: org.ID, Name: name, Game: "trenches", Variant: "standard",
			Format: db.FormatRoundRobin, MinPlayers: 2, MaxPlayers: 3, Clock: db.TimeControl{Kind: "move", DaysPerMove: 3}, Rated: true, Seed: 4}, t0)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range []db.User{ann, bob} {
			if err := store.JoinTournament(ctx, tr.ID, u.ID, t0); err != nil {
				t.Fatal(err)
			}
		}
		if err := store.AddComputerEntrant(ctx, tr.ID, ann.ID, comp.Level, rated, t0); db.KindOf(err) != db.KindForbidden {
			t.Errorf("a player who is not the organiser adds the computer: %v, want forbidden", err)
		}
		if err := store.AddComputerEntrant(ctx, tr.ID, org.ID, "grandmaster", rated, t0); db.KindOf(err) != db.KindInvalid {
			t.Errorf("an unknown level: %v, want invalid", err)
		}
		if err := store.JoinTournament(ctx, tr.ID, comp.ID, t0); db.KindOf(err) != db.KindForbidden {
			t.Errorf("the computer joining by itself: %v, want forbidden", err)
		}
		if err := store.AddComputerEntrant(ctx, tr.ID, org.ID, comp.Level, rated, t0); err != nil {
			t.Fatal(err)
		}
		d, err := store.Tournament(ctx, tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		if d.Status != "running" || len(d.Entrants) != 3 {
			t.Fatalf("after the computer filled the last place: %s with %d entrants, want running with 3", d.Status, len(d.Entrants))
		}
		if err := store.AddComputerEntrant(ctx, tr.ID, org.ID, "hard", rated, t0); db.KindOf(err) != db.KindConflict {
			t.Errorf("adding a computer after the start: %v, want a conflict", err)
		}
		if err := store.RemoveComputerEntrant(ctx, tr.ID, org.ID, comp.Level); db.KindOf(err) != db.KindConflict {
			t.Errorf("removing the computer after the start: %v, want a conflict", err)
		}
		return playOut(t, store, tr.ID, func(p db.TournamentPairing) bool { return p.Side[0].ID == ann.ID }, nil, t0)
	}
	d := play("Unrated computer", easy, false)
	if d.Status != "finished" {
		t.Fatalf("status %s", d.Status)
	}
	want := games(d, bob.ID)
	if r := rating(t, store, ann, "trenches"); r.Games != want || games(d, easy.ID) == 0 {
		t.Errorf("ann has %d rated games after playing bob and an unrated computer entrant, want %d (those against bob)", r.Games, want)
	}
	d = play("Rated computer", medium, true)
	want += games(d, bob.ID) + games(d, medium.ID)
	if r := rating(t, store, ann, "trenches"); r.Games != want || games(d, medium.ID) == 0 {
		t.Errorf("ann has %d rated games after playing bob and a rated computer entrant, want %d", r.Games, want)
	}

	// Before the start: each level once; removed by the organiser only.
	tr, err := store.CreateTournament(ctx, db.NewTournament{OrganiserID: org.ID, Name: "Sign-up", Game: "trenches", Variant: "standard",
		Format: db.FormatRoundRobin, MinPlayers: 2, MaxPlayers: 4, Clock: db.TimeControl{Kind: "move", DaysPerMove: 3}, Seed: 5}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.AddComputerEntrant(ctx, tr.ID, org.ID, "easy", false, t0); err != nil {
		t.Fatal(err)
	}
	if err := store.AddComputerEntrant(ctx, tr.ID, org.ID, "easy", false, t0); db.KindOf(err) != db.KindConflict {
		t.Errorf("the same level twice: %v, want a conflict", err)
	}
	if err := store.RemoveComputerEntrant(ctx, tr.ID, ann.ID, "easy"); db.KindOf(err) != db.KindForbidden {
		t.Errorf("a player removing the computer: %v, want forbidden", err)
	}
	if err := store.RemoveComputerEntrant(ctx, tr.ID, org.ID, "medium"); db.KindOf(err) != db.KindConflict {
		t.Errorf("removing a level not entered: %v, want a conflict", err)
	}
	if err := store.RemoveComputerEntrant(ctx, tr.ID, org.ID, "easy"); err != nil {
		t.Fatal(err)
	}
	if d, _ := store.Tournament(ctx, tr.ID); len(d.Entrants) != 0 {
		t.Errorf("entrants after the removal: %+v", d.Entrants)
	}
}

// TestTournamentNeedsTwoPeople: the computer players take at most the
// places beside two kept for people, so a tournament never fills itself
// with them; one with fewer than two people among its players does not
// start, by the organiser's hand or at its deadline (it is cancelled).
func TestTournamentNeedsTwoPeople(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	us := users(t, store, "org", "ann", "bob")
	org, ann, bob := us[0], us[1], us[2]
	create := func(name string, starts time.Time) db.Tournament {
		t.Helper()
		tr, err := store.CreateTournament(ctx, db.NewTournament{OrganiserID: org.ID, Name: name, Game: "trenches", Variant: "standard",
			Format: db.FormatRoundRobin, MinPlayers: 2, MaxPlayers: 4, Clock: db.TimeControl{Kind: "move", DaysPerMove: 3}, StartsAt: starts, Seed: 6}, t0)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	status := func(id int64) string {
		t.Helper()
		d, err := store.Tournament(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return d.Status
	}

	// Filling itself: two computers at most in four places.
	full := create("Computers only", time.Time{})
	for _, level := range []string{"easy", "medium"} {
		if err := store.AddComputerEntrant(ctx, full.ID, org.ID, level, false, t0); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.AddComputerEntrant(ctx, full.ID, org.ID, "hard", false, t0); db.KindOf(err) != db.KindConflict {
		t.Fatalf("a third computer in four places: %v, want a conflict", err)
	}
	// The organiser's start: refused with one person; allowed with two.
	if err := store.StartTournament(ctx, full.ID, org.ID, t0); db.KindOf(err) != db.KindConflict {
		t.Fatalf("the organiser starts a tournament of computers: %v, want a conflict", err)
	}
	if err := store.JoinTournament(ctx, full.ID, ann.ID, t0); err != nil {
		t.Fatal(err)
	}
	if err := store.StartTournament(ctx, full.ID, org.ID, t0); db.KindOf(err) != db.KindConflict {
		t.Fatalf("the organiser starts a tournament of computers and ann: %v, want a conflict", err)
	}
	if got := status(full.ID); got != "signup" {
		t.Fatalf("after the refused starts the tournament is %s", got)
	}
	if err := store.JoinTournament(ctx, full.ID, bob.ID, t0); err != nil {
		t.Fatal(err)
	}
	if got := status(full.ID); got != "running" {
		t.Fatalf("filled with two people, the tournament is %s", got)
	}

	// At the deadline: cancelled with one person, started with two.
	lonely, paired := create("Ann and computers", t0.Add(24*time.Hour)), create("Ann, bob and a computer", t0.Add(24*time.Hour))
	for _, tr := range []db.Tournament{lonely, paired} {
		for _, level := range []string{"easy", "medium"} {
			if err := store.AddComputerEntrant(ctx, tr.ID, org.ID, level, false, t0); err != nil {
				t.Fatal(err)
			}
		}
		if err := store.JoinTournament(ctx, tr.ID, ann.ID, t0); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.JoinTournament(ctx, paired.ID, bob.ID, t0); err != nil {
		t.Fatal(err)
	}
	if n, err := store.StartDueTournaments(ctx, t0.Add(25*time.Hour)); err != nil || n != 1 {
		t.Fatalf("started %d (%v), want 1", n, err)
	}
	if a, b := status(lonely.ID), status(paired.ID); a != "cancelled" || b != "running" {
		t.Fatalf("at the deadline: ann alone with computers %s, with bob %s", a, b)
	}
	if games, err := store.ActiveGames(ctx, ann.ID); err != nil || len(games) == 0 {
		t.Fatalf("ann has %d games (%v) in the tournament that started", len(games), err)
	}
}

// TestTournamentGamePageSaysRated: a game page says a rated tournament's
// game is rated and an unrated one's is not, and the ratings it shows
// follow the end of the game (what the page remembers is forgotten).
func TestTournamentGamePageSaysRated(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	us := users(t, store, "org", "ann", "bob")
	for _, rated := range []bool{true, false} {
		tr := newTournament(t, store, us[0], db.NewTournament{Name: fmt.Sprintf("Rated %v", rated), Game: "trench", Variant: "single",
			Format: db.FormatRoundRobin, MinPlayers: 2, MaxPlayers: 2, Clock: db.TimeControl{Kind: "move", DaysPerMove: 3}, Rated: rated, Seed: 3}, us[1:])
		d, err := store.Tournament(ctx, tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		g, err := store.Game(ctx, d.Pairings[0].GameID)
		if err != nil {
			t.Fatal(err)
		}
		before, err := store.GameRatings(ctx, g, t0)
		if err != nil {
			t.Fatal(err)
		}
		if before.Rated != rated {
			t.Errorf("the page of a game of a tournament rated %v says rated %v", rated, before.Rated)
		}
		g = playOpeningAt(t, store, g, t0)
		if _, err := store.Resign(ctx, g.ID, g.Side[1].ID, g.Ply, t0); err != nil {
			t.Fatal(err)
		}
		g, _ = store.Game(ctx, g.ID)
		after, err := store.GameRatings(ctx, g, t0)
		if err != nil {
			t.Fatal(err)
		}
		if after.Changed != rated {
			t.Errorf("after the end of a game of a tournament rated %v, the page shows a rating change: %v", rated, after.Changed)
		}
	}
}

// A tournament's page is remembered, and shows each sign-up, departure
// and withdrawal at once.
func TestRememberedTournamentFollowsItsEntrants(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	us := users(t, store, "ann", "bob", "cid")
	tr := newTournament(t, store, us[0], db.NewTournament{Name: "Winter cup", Game: "trenches", Variant: "standard",
		Format: db.FormatRoundRobin, MinPlayers: 2, MaxPlayers: 3, Clock: db.TimeControl{Kind: "move", DaysPerMove: 3}, Seed: 3}, us[:1])
	entrants := func() []string {
		t.Helper()
		d, err := store.Tournament(ctx, tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range d.Entrants {
			name := e.Name
			if e.Withdrawn {
				name += " (withdrawn)"
			}
			names = append(names, name)
		}
		return names
	}
	check := func(when string, want ...string) {
		t.Helper()
		for range 2 { // read, then remembered
			if got := entrants(); !slices.Equal(got, want) {
				t.Fatalf("%s: entrants %q, want %q", when, got, want)
			}
		}
	}
	check("created", "ann")
	if err := store.JoinTournament(ctx, tr.ID, us[1].ID, t0); err != nil {
		t.Fatal(err)
	}
	check("bob joined", "ann", "bob")
	if err := store.LeaveTournament(ctx, tr.ID, us[1].ID, t0); err != nil {
		t.Fatal(err)
	}
	check("bob left", "ann")
	if err := store.JoinTournament(ctx, tr.ID, us[1].ID, t0); err != nil {
		t.Fatal(err)
	}
	if err := store.StartTournament(ctx, tr.ID, us[0].ID, t0); err != nil {
		t.Fatal(err)
	}
	check("started", "ann", "bob")
	if err := store.LeaveTournament(ctx, tr.ID, us[1].ID, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	check("bob withdrew", "ann", "bob (withdrawn)")
}
