package handlers

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/views"
)

// competitionHandler serves the leaderboards and the players directory.
type competitionHandler struct {
	db  *db.DB
	now func() time.Time
}

// listPageSize is how many lines a leaderboard or directory page holds.
const listPageSize = 50

// maxPageNo is the highest page number a list's ?page= is read as: a
// higher one (any number of digits) is read as this, so that no offset
// computed from it overflows; each list then shows its last page.
const maxPageNo = 1 << 20

// pageParam reads ?page= (1 when absent), at most maxPageNo. Errors:
// KindInvalid for what is not a whole number from 1.
func pageParam(c echo.Context) (int, error) {
	p := c.QueryParam("page")
	if p == "" {
		return 1, nil
	}
	n, err := strconv.Atoi(p)
	if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(p, "-") {
		return maxPageNo, nil
	}
	if err != nil || n < 1 {
		return 0, db.Errorf(db.KindInvalid, "Page %q is not a page number.", p)
	}
	return min(n, maxPageNo), nil
}

// pageLinks sets the previous and next links of page n of pages, href
// giving a page's address.
func pageLinks(n, pages int, href func(int) string) (prev, next string) {
	if n > 1 {
		prev = href(n - 1)
	}
	if n < pages {
		next = href(n + 1)
	}
	return prev, next
}

// leaderboard serves /leaderboard/:game. Errors: 404 for an unknown game,
// 400 for a bad page number.
func (h *competitionHandler) leaderboard(c echo.Context) error {
	eng, ok := rules.Lookup(c.Param("game"))
	if !ok {
		return db.Errorf(db.KindNotFound, "There is no game %q.", c.Param("game"))
	}
	n, err := pageParam(c)
	if err != nil {
		return err
	}
	ctx, now := c.Request().Context(), h.now()
	rows, counts, err := h.db.Leaderboard(ctx, eng.Key(), now, (n-1)*listPageSize, listPageSize)
	if err != nil {
		return err
	}
	pages := max(1, (counts.Lines()+listPageSize-1)/listPageSize)
	if n > pages {
		// Past the end (the list got shorter): the last page.
		n = pages
		if rows, counts, err = h.db.Leaderboard(ctx, eng.Key(), now, (n-1)*listPageSize, listPageSize); err != nil {
			return err
		}
	}
	total := counts.Established
	title := tr(c, eng.Title())
	p := views.LeaderboardPage{Page: pageOf(c, tr(c, "Leaderboard")+" · "+title), Game: title, Total: total, PageNo: n,
		Pages: pages,
		Rule: tr(c, "Players who have finished a rated game in the last %d days are listed by rating: first, ranked, those whose rating is established (deviation at most %d); then, marked provisional with “?”, the others.",
			db.LeaderboardDays, int(db.ProvisionalRD))}
	for _, e := range engines() {
		p.Tabs = append(p.Tabs, views.Option{Value: "/leaderboard/" + e.Key(), Label: tr(c, e.Title()), Selected: e.Key() == eng.Key()})
	}
	me := currentViewer(c).ID
	var mine *db.LeaderRow
	for i, r := range rows {
		p.Rows = append(p.Rows, leaderLine(ctx, r, me))
		if r.UserID == me {
			mine = &rows[i]
		}
	}
	if me != 0 && mine == nil {
		own, listed, err := h.db.LeaderboardRank(ctx, eng.Key(), me, now)
		if err != nil {
			return err
		}
		if listed {
			line := leaderLine(ctx, own, me)
			p.Own, mine = &line, &own
		} else {
			p.OwnNote = tr(c, "You are not listed: %s", h.whyUnlisted(ctx, eng.Key(), me, now))
		}
	}
	switch {
	case mine != nil && mine.Provisional:
		p.OwnNote = views.TN(ctx, "Your rating %s is still provisional (%d rated games so far): you are listed below the ranked players.",
			mine.Games, ratingText(mine.Rating, mine.RD), mine.Games)
	case mine != nil:
		p.OwnNote = tr(c, "You are ranked %d of %d.", mine.Rank, total)
	}
	p.PrevHref, p.NextHref = pageLinks(n, p.Pages, func(k int) string {
		return "/leaderboard/" + eng.Key() + "?page=" + strconv.Itoa(k)
	})
	return render(c, 200, views.LeaderboardView(p), nil)
}

// whyUnlisted says in words, in the language of ctx, why user is not on
// game's leaderboard: no rated game of it, or none lately (a provisional
// rating of an active player is listed).
func (h *competitionHandler) whyUnlisted(ctx context.Context, game string, user int64, now time.Time) string {
	r, err := h.db.Rating(ctx, user, game, now)
	if err != nil || r.Games == 0 {
		return views.T(ctx, "you have not finished a rated game of it yet.")
	}
	return views.T(ctx, "your last rated game of it is more than %d days old.", db.LeaderboardDays)
}

// leaderLine is r's line of a leaderboard, its date in the language of
// ctx; me is the signed-in player (0 for a visitor).
func leaderLine(ctx context.Context, r db.LeaderRow, me int64) views.LeaderLine {
	return views.LeaderLine{Rank: r.Rank, Name: r.Name, Rating: strconv.Itoa(int(math.Round(r.Rating))),
		RD: strconv.Itoa(int(math.Round(r.RD))), Games: r.Games, LastGame: views.Date(ctx, r.LastGame), Self: r.UserID == me,
		Provisional: r.Provisional}
}

// directory serves /players?q=…&page=…. Errors: 400 for a bad page.
func (h *competitionHandler) directory(c echo.Context) error {
	n, err := pageParam(c)
	if err != nil {
		return err
	}
	q := strings.TrimSpace(c.QueryParam("q"))
	rows, total, err := h.db.Players(c.Request().Context(), q, h.now(), (n-1)*listPageSize, listPageSize)
	if err != nil {
		return err
	}
	pages := max(1, (total+listPageSize-1)/listPageSize)
	if n > pages {
		// Past the end: the last page.
		n = pages
		if rows, total, err = h.db.Players(c.Request().Context(), q, h.now(), (n-1)*listPageSize, listPageSize); err != nil {
			return err
		}
	}
	p := views.DirectoryPage{Page: pageOf(c, tr(c, "Players")), Query: q, Total: total, PageNo: n,
		Pages: max(1, (total+listPageSize-1)/listPageSize)}
	titles := map[string]string{}
	order := map[string]int{}
	for i, e := range engines() {
		titles[e.Key()], order[e.Key()] = tr(c, e.Title()), i
	}
	for _, r := range rows {
		line := views.DirectoryLine{Name: r.Name, LastActive: views.Date(c.Request().Context(), r.LastActive)}
		rs := r.Ratings
		sortByGame(rs, order)
		for _, pr := range rs {
			line.Ratings = append(line.Ratings, titles[pr.Game]+" "+ratingText(pr.Rating, pr.RD))
		}
		p.Rows = append(p.Rows, line)
	}
	p.PrevHref, p.NextHref = pageLinks(n, p.Pages, func(k int) string {
		v := url.Values{"page": {strconv.Itoa(k)}}
		if q != "" {
			v.Set("q", q)
		}
		return "/players?" + v.Encode()
	})
	return render(c, 200, views.DirectoryView(p), nil)
}

// sortByGame orders ratings as the games are shown everywhere.
func sortByGame(rs []db.PlayerRating, order map[string]int) {
	slices.SortStableFunc(rs, func(a, b db.PlayerRating) int { return cmp.Compare(order[a.Game], order[b.Game]) })
}

// Chart geometry of a profile's rating history.
const (
	chartWidth  = 480
	chartHeight = 120
	chartMargin = 16
)

// chartGames is how many of a player's latest rated games a rating chart
// draws.
const chartGames = 200

// chartDots is how many of the games drawn a chart marks with a dot that
// says the game's date and rating when pointed at: at most one every 7
// pixels of the line, so that no dot hides another. The line itself
// passes through every game.
const chartDots = 60

// ratingCharts draws userID's rating history in every game they have
// played rated, in the games' usual order: their last chartGames rated
// games of each.
func ratingCharts(ctx context.Context, store *db.DB, userID int64) (templ.Component, error) {
	ratings, err := store.Ratings(ctx, userID, time.Time{})
	if err != nil {
		return nil, err
	}
	var out strings.Builder
	for _, e := range engines() {
		hist, err := store.RatingHistory(ctx, userID, e.Key(), chartGames)
		if err != nil {
			return nil, err
		}
		if len(hist) == 0 {
			continue
		}
		games := len(hist)
		for _, r := range ratings {
			if r.Game == e.Key() {
				games = max(games, r.Games)
			}
		}
		html, err := charts.draw(ctx, e, hist, games)
		if err != nil {
			return nil, err
		}
		out.WriteString(html)
	}
	if out.Len() == 0 {
		return nil, nil
	}
	return templ.Raw(out.String()), nil
}

// chartMemo remembers the rating charts drawn, as HTML, by language, game
// and history: drawing one writes a date and a rating for each of its 200
// points, and a profile draws up to three. A history is known by a
// checksum of all its points, so a new rated game draws anew.
type chartMemo struct{ memo[chartKey, string] }

// chartKey is what a drawn chart depends on.
type chartKey struct {
	lang, game string
	games, n   int
	sum        uint64
}

// charts is the server's chartMemo, of at most 512 charts.
var charts = chartMemo{memo[chartKey, string]{size: 512}}

// draw returns ratingChart(ctx, e, hist, games) drawn (views.RatingChartView),
// drawn once.
func (c *chartMemo) draw(ctx context.Context, e rules.Engine, hist []db.RatingPoint, games int) (string, error) {
	h := fnv.New64a()
	var b [32]byte
	for _, p := range hist {
		binary.LittleEndian.PutUint64(b[0:], uint64(p.At.UnixNano()))
		binary.LittleEndian.PutUint64(b[8:], math.Float64bits(p.Before))
		binary.LittleEndian.PutUint64(b[16:], math.Float64bits(p.Rating))
		binary.LittleEndian.PutUint64(b[24:], math.Float64bits(p.RD))
		h.Write(b[:])
	}
	k := chartKey{lang: views.Lang(ctx), game: e.Key(), games: games, n: len(hist), sum: h.Sum64()}
	return c.memo.get(k, func() (string, error) {
		var out strings.Builder
		err := views.RatingChartView(ratingChart(ctx, e, hist, games)).Render(ctx, &out)
		return out.String(), err
	})
}

// ratingChart draws one game's history, the last of games rated games:
// the first point is the rating before the first of them (1500 before the
// first rated game), then one per rated game; its words in the language
// of ctx.
func ratingChart(ctx context.Context, e rules.Engine, hist []db.RatingPoint, games int) views.RatingChart {
	start := db.RatingPoint{Rating: hist[0].Before}
	pts := append([]db.RatingPoint{start}, hist...)
	lo, hi := pts[0].Rating, pts[0].Rating
	for _, p := range pts {
		lo, hi = math.Min(lo, p.Rating), math.Max(hi, p.Rating)
	}
	lo, hi = math.Floor(lo/50)*50-50, math.Ceil(hi/50)*50+50
	ch := views.RatingChart{Key: e.Key(), Game: views.T(ctx, e.Title()), Width: chartWidth, Height: chartHeight,
		Low: strconv.Itoa(int(lo)), High: strconv.Itoa(int(hi)),
		Summary: views.TN(ctx, "%d rated games, from %d to %d", games, games, 1500, int(math.Round(hist[len(hist)-1].Rating)))}
	// Every step-th game has a dot, counted back from the last one.
	step := (len(hist) + chartDots - 1) / chartDots
	var b strings.Builder
	for i, p := range pts {
		x := float64(chartMargin*2) + float64(i)*float64(chartWidth-chartMargin*3)/float64(max(1, len(pts)-1))
		y := float64(chartMargin) + (hi-p.Rating)*float64(chartHeight-2*chartMargin)/(hi-lo)
		xs, ys := strconv.FormatFloat(x, 'f', 1, 64), strconv.FormatFloat(y, 'f', 1, 64)
		if i > 0 {
			b.WriteByte(' ')
			if (len(pts)-1-i)%step == 0 {
				ch.Dots = append(ch.Dots, views.ChartDot{X: xs, Y: ys,
					Label: fmt.Sprintf("%s: %d", views.Date(ctx, p.At), int(math.Round(p.Rating)))})
			}
		}
		b.WriteString(xs + "," + ys)
	}
	ch.Points = b.String()
	return ch
}
