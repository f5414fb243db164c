package handlers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// TestPagesShowAFinishedGameAtOnce: the archive, a profile (its record
// and its rating chart) and the leaderboard, each looked at twice (the
// second time from memory), show a rated game the moment it has
// finished.
func TestPagesShowAFinishedGameAtOnce(t *testing.T) {
	s := startServer(t, "", nil)
	now := s.Clock.Now()
	visitor := s.newClient(t)
	for _, name := range []string{"ann", "bob"} {
		s.newClient(t).SignUp(name)
	}
	ratedGame(t, s, "ann", "bob", "ann", now.Add(-2*time.Hour))
	type seen struct {
		archive, dots int
		record        string
	}
	look := func() seen {
		t.Helper()
		var v seen
		for range 2 {
			visitor.Get("/archive")
			v.archive = visitor.Last.Find("#archive tbody tr").Length()
			visitor.Get("/players/ann")
			v.dots = visitor.Last.Find(`#rating-history-trenches svg circle`).Length()
			var cells []string
			visitor.Last.Find(`#records tbody td`).Each(func(_ int, td *goquery.Selection) { cells = append(cells, td.Text()) })
			v.record = strings.Join(cells, " ")
		}
		return v
	}
	before := look()
	if before.archive != 1 || before.dots != 1 {
		t.Fatalf("after one rated game: %d games in the archive, %d points on ann's chart", before.archive, before.dots)
	}
	visitor.Get("/leaderboard/trenches")
	board := visitor.Last.Find("#leaderboard").Text()

	ratedGame(t, s, "ann", "bob", "bob", now.Add(-time.Hour))
	after := look()
	if after.archive != 2 || after.dots != 2 {
		t.Errorf("after a second rated game: %d games in the archive, %d points on ann's chart, want 2 and 2", after.archive, after.dots)
	}
	if before.record != "Trenches 1 0 0" || after.record != "Trenches 1 1 0" {
		t.Errorf("ann's record: %q, then %q; want Trenches 1 0 0, then 1 1 0", before.record, after.record)
	}
	visitor.Get("/leaderboard/trenches")
	if again := visitor.Last.Find("#leaderboard").Text(); again == board {
		t.Error("the leaderboard did not change with a rated game's result")
	}
}
