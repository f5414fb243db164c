package handlers

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/views"
)

// TestRowTextsPerLanguage: the texts a list of games writes on each row
// (a game's title, the clock, a vacation) are kept once written; a
// viewer in another language, another span or another player still reads
// their own text, the same as one written afresh.
func TestRowTextsPerLanguage(t *testing.T) {
	eng, ok := rules.Lookup("trench")
	if !ok {
		t.Fatal("no trench engine")
	}
	match := ""
	for _, v := range eng.Variants() {
		if v.Match {
			match = v.Key
		}
	}
	if match == "" {
		t.Fatal("trench has no match of several games")
	}
	until := time.Date(2026, time.March, 21, 13, 0, 42, 0, time.UTC)
	for _, c := range []struct{ lang, left, later, vacation, game2 string }{
		{"en", "2 days 23 hours left", "3 days left", "bob is on vacation until 21 March 2026 13:00 UTC; 2 days 23 hours on the clock", "Game 2"},
		{"fr", "2 jours 23 heures", "3 jours", "bob est en vacances jusqu'au 21 mars 2026 à 13:00 UTC\u00a0; 2 jours 23 heures", "Partie 2"},
		{"de", "2 Tage 23 Stunden", "3 Tage", "bob ist bis zum 21. März 2026, 13:00 UTC im Urlaub; 2 Tage 23 Stunden", "Partie 2"},
	} {
		ctx := views.WithLang(context.Background(), c.lang)
		span := 2*24*time.Hour + 23*time.Hour + 10*time.Minute
		for range 2 { // written, then kept
			if got := clockText(ctx, span); !strings.Contains(got, c.left) {
				t.Errorf("%s: clockText = %q, want it to say %q", c.lang, got, c.left)
			}
			if got := clockText(ctx, 3*24*time.Hour+30*time.Minute); !strings.Contains(got, c.later) {
				t.Errorf("%s: clockText(3 days) = %q, want it to say %q", c.lang, got, c.later)
			}
			v := db.VacationStatus{On: true, EndsBy: until}
			if got := vacationClock(ctx, "bob", false, v, span); !strings.Contains(got, c.vacation) {
				t.Errorf("%s: vacationClock(bob) = %q, want it to say %q", c.lang, got, c.vacation)
			}
			if got := vacationClock(ctx, "carol", false, v, span); !strings.HasPrefix(got, "carol") {
				t.Errorf("%s: vacationClock(carol) = %q", c.lang, got)
			}
			you := vacationClock(ctx, "bob", true, v, span)
			if strings.Contains(you, "bob") || you != vacationClock(ctx, "carol", true, v, span) {
				t.Errorf("%s: vacationClock(you) = %q: names somebody", c.lang, you)
			}
			g1 := db.Game{MatchVariant: match, Variant: match, Number: 1}
			g2 := db.Game{MatchVariant: match, Variant: match, Number: 2}
			t1, t2 := gameTitle(ctx, eng, g1), gameTitle(ctx, eng, g2)
			if t1 == t2 || !strings.Contains(t2, c.game2) || strings.Contains(t1, c.game2) {
				t.Errorf("%s: titles of games 1 and 2 = %q, %q; want only the second to say %q", c.lang, t1, t2, c.game2)
			}
		}
		if got, want := clockText(ctx, 61*24*time.Hour), views.TN(ctx, "%s left", 61, views.Duration(ctx, 61*24*time.Hour)); got != want {
			t.Errorf("%s: clockText(61 days) = %q, want %q", c.lang, got, want)
		}
	}
}

// TestArchiveRowTextsPerLanguage: an archive row's result and score are
// kept once written; another language, another winner of the same score,
// another score or an aborted game each read their own text, the same as
// one written afresh.
func TestArchiveRowTextsPerLanguage(t *testing.T) {
	ended := time.Date(2026, time.March, 21, 13, 0, 0, 0, time.UTC)
	players := [2]db.Player{{ID: 1, Name: "bob"}, {ID: 2, Name: "carol"}}
	row := func(winner rules.Side, score [2]int, reason rules.Reason, ply int) db.ArchiveRow {
		g := db.Game{ID: 7, Game: "trench", Variant: "bga", MatchVariant: "bga", Number: 1, Status: "finished", ToMove: rules.NoSide,
			Winner: winner, Score: score, Reason: reason, Ply: ply, EndedAt: ended, Side: players}
		return db.ArchiveRow{Game: g, Moves: ply, MatchGames: 1, MatchStatus: "finished", MatchWinner: int(winner)}
	}
	eng, ok := rules.Lookup("trench")
	if !ok {
		t.Fatal("no trench engine")
	}
	for _, lang := range []string{"en", "fr", "de"} {
		ctx := views.WithLang(context.Background(), lang)
		for range 2 { // written, then kept
			players = [2]db.Player{{ID: 1, Name: "bob"}, {ID: 2, Name: "carol"}}
			bob := row(rules.Side0, [2]int{3, 1}, rules.ReasonTarget, 40)
			players = [2]db.Player{{ID: 2, Name: "carol"}, {ID: 1, Name: "bob"}}
			carol := row(rules.Side0, [2]int{3, 1}, rules.ReasonTarget, 40)
			for _, r := range []db.ArchiveRow{
				bob, carol,
				row(rules.Side1, [2]int{3, 1}, rules.ReasonTarget, 40),
				row(rules.Side0, [2]int{5, 1}, rules.ReasonTarget, 40),
				row(rules.NoSide, [2]int{2, 2}, rules.ReasonArmistice, 40),
				row(rules.Side1, [2]int{0, 0}, rules.ReasonResigned, 1),
			} {
				got, err := archiveRow(ctx, r)
				if err != nil {
					t.Fatal(err)
				}
				g := r.Game
				want := resultText(ctx, eng, g, rules.NoSide, "")
				if got.Result != want {
					t.Errorf("%s: result of %+v = %q, want %q", lang, g.Score, got.Result, want)
				}
				if g.Winner.Valid() && !g.Aborted() && !strings.Contains(got.Result, g.Side[g.Winner].Name) {
					t.Errorf("%s: result %q does not name the winner %s", lang, got.Result, g.Side[g.Winner].Name)
				}
				score := scoreText(ctx, eng, g.Score[0]) + " – " + scoreText(ctx, eng, g.Score[1])
				if g.Aborted() {
					score = views.T(ctx, "aborted")
				}
				if got.Score != score {
					t.Errorf("%s: score of %+v = %q, want %q", lang, g.Score, got.Score, score)
				}
				if got.Ended != "2026-03-21" {
					t.Errorf("%s: ended %q", lang, got.Ended)
				}
			}
		}
	}
}
