package handlers

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules/trench"
	"github.com/trench-games/trench/views"
)

// A rating chart's line passes through every game drawn; its dots, which
// say a game's date and rating when pointed at, are one per game up to
// chartDots games, and past that evenly spaced, never closer than 7
// pixels, the last game always among them.
func TestRatingChartDotsCanBeToldApart(t *testing.T) {
	ctx := views.WithLang(context.Background(), "en")
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	history := func(n int) []db.RatingPoint {
		hist := make([]db.RatingPoint, n)
		r := 1500.0
		for i := range hist {
			hist[i] = db.RatingPoint{At: start.Add(time.Duration(i) * 24 * time.Hour), Before: r, Rating: r + float64(i%7) - 3, RD: 80}
			r = hist[i].Rating
		}
		return hist
	}
	for _, n := range []int{1, 40, chartDots, chartDots + 1, 119, 121, chartGames} {
		hist := history(n)
		ch := ratingChart(ctx, trench.Engine{}, hist, n)
		if pts := len(strings.Fields(ch.Points)); pts != n+1 {
			t.Errorf("%d games: the line has %d points, want %d (the start and each game)", n, pts, n+1)
		}
		if n <= chartDots && len(ch.Dots) != n {
			t.Errorf("%d games: %d dots, want one per game", n, len(ch.Dots))
		}
		if n > chartDots && (len(ch.Dots) > chartDots || len(ch.Dots) < chartDots/2) {
			t.Errorf("%d games: %d dots, want %d to %d", n, len(ch.Dots), chartDots/2, chartDots)
		}
		last := hist[n-1]
		wantLabel := views.Date(ctx, last.At) + ": " + strconv.Itoa(int(last.Rating+0.5))
		if got := ch.Dots[len(ch.Dots)-1].Label; got != wantLabel {
			t.Errorf("%d games: the last dot says %q, want the last game's %q", n, got, wantLabel)
		}
		for i := 1; i < len(ch.Dots); i++ {
			a, _ := strconv.ParseFloat(ch.Dots[i-1].X, 64)
			b, _ := strconv.ParseFloat(ch.Dots[i].X, 64)
			if b-a < 7 && (n > chartDots || n == chartGames) {
				t.Errorf("%d games: dots %d and %d are %.1f pixels apart", n, i-1, i, b-a)
				break
			}
		}
	}
}
