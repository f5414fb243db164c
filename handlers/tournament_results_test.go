package handlers

import (
	"context"
	"strings"
	"testing"

	"github.com/trench-games/trench/db"
)

// A tournament's rendered results are drawn again whenever anything they
// show changes: a result, a withdrawal, a player's name, a new round.
func TestTournamentResultsFollowWhatTheyShow(t *testing.T) {
	ann, bob, cid := db.Player{ID: 1, Name: "ann"}, db.Player{ID: 2, Name: "bob"}, db.Player{ID: 3, Name: "cid"}
	base := db.TournamentDetail{
		Tournament: db.Tournament{ID: 7, Format: db.FormatSwiss, Status: "running", Rounds: 2, Round: 1},
		Entrants:   []db.Entrant{{Player: ann}, {Player: bob}, {Player: cid}},
		Pairings: []db.TournamentPairing{
			{Round: 1, Board: 1, Leg: 1, Side: [2]db.Player{ann, bob}, MatchID: 1, GameID: 1},
			{Round: 1, Board: 2, Leg: 1, Side: [2]db.Player{cid, {}}, Decided: true, Points0: 1},
		},
	}
	clone := func() db.TournamentDetail {
		d := base
		d.Entrants = append([]db.Entrant(nil), base.Entrants...)
		d.Pairings = append([]db.TournamentPairing(nil), base.Pairings...)
		return d
	}
	ctx := context.Background()
	m := resultsMemo{memo[resultsKey, renderedResults]{size: 64}}
	show := func(d db.TournamentDetail) string {
		t.Helper()
		r, err := m.get(ctx, d, 0)
		if err != nil {
			t.Fatal(err)
		}
		return r.html
	}
	before := show(base)
	if !strings.Contains(before, "ann") || !strings.Contains(before, "playing") {
		t.Fatalf("results of a running round: %s", before)
	}
	if again := show(clone()); again != before {
		t.Fatalf("the same tournament drawn twice differs")
	}
	won, lost := clone(), clone()
	won.Pairings[0].Decided, won.Pairings[0].Points0 = true, 1
	lost.Pairings[0].Decided, lost.Pairings[0].Points0 = true, 0
	if show(won) == show(lost) {
		t.Errorf("a game won and the same game lost are drawn alike")
	}
	for name, change := range map[string]func(*db.TournamentDetail){
		"a result":     func(d *db.TournamentDetail) { d.Pairings[0].Decided, d.Pairings[0].Points0 = true, 1 },
		"a draw":       func(d *db.TournamentDetail) { d.Pairings[0].Decided, d.Pairings[0].Points0 = true, 0.5 },
		"a withdrawal": func(d *db.TournamentDetail) { d.Entrants[1].Withdrawn = true },
		"a new name":   func(d *db.TournamentDetail) { d.Entrants[0].Name, d.Pairings[0].Side[0].Name = "anne", "anne" },
		"a new round": func(d *db.TournamentDetail) {
			d.Round = 2
			d.Pairings = append(d.Pairings, db.TournamentPairing{Round: 2, Board: 1, Leg: 1, Side: [2]db.Player{cid, ann}, MatchID: 3, GameID: 3})
		},
	} {
		d := clone()
		change(&d)
		if show(d) == before {
			t.Errorf("after %s the results are drawn as before", name)
		}
	}
}
