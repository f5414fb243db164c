package handlers

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/views"
)

// archiveHandler serves the archive of finished games, the players'
// profiles, and the downloads of a game: its record and position images.
type archiveHandler struct {
	db  *db.DB
	now func() time.Time
}

func (h *archiveHandler) archive(c echo.Context) error {
	f := db.ArchiveFilter{Game: c.QueryParam("game"), Variant: c.QueryParam("variant"),
		Player: c.QueryParam("player"), Result: c.QueryParam("result"), Before: c.QueryParam("before"), After: c.QueryParam("after")}
	var err error
	if f.Page, err = pageParam(c); err != nil {
		return err
	}
	if c.QueryParam("page") == "" && (f.Before != "" || f.After != "") {
		f.Page = 0 // a cursor without a page number: the number is unknown
	}
	if f.Game != "" {
		if _, ok := rules.Lookup(f.Game); !ok {
			return db.Errorf(db.KindInvalid, "Unknown game %q.", f.Game)
		}
	}
	res, err := h.db.Archive(c.Request().Context(), f)
	noPlayer := f.Player != "" && db.KindOf(err) == db.KindNotFound
	if err != nil && !noPlayer {
		return err
	}
	rows := res.Rows
	a := views.ArchivePage{Page: pageOf(c, tr(c, "Archive")), Total: res.Total, Capped: res.Capped, Player: f.Player, NoSuchPlayer: noPlayer, PageNo: res.Page}
	if !res.Capped {
		a.Pages = (res.Total + db.ArchivePageSize - 1) / db.ArchivePageSize
	}
	a.Games = []views.Option{{Value: "", Label: tr(c, "All games"), Selected: f.Game == ""}}
	a.Variants = []views.Option{{Value: "", Label: tr(c, "All rules"), Selected: f.Variant == ""}}
	for _, e := range engines() {
		a.Games = append(a.Games, views.Option{Value: e.Key(), Label: tr(c, e.Title()), Selected: f.Game == e.Key()})
		for _, v := range e.Variants() {
			a.Variants = append(a.Variants, views.Option{Value: v.Key, Label: tr(c, e.Title()) + " · " + tr(c, v.Title), Selected: f.Variant == v.Key})
		}
	}
	for _, r := range [][2]string{{"", tr(c, "Any result")}, {"decisive", tr(c, "Won by either side")}, {"drawn", tr(c, "Drawn")},
		{"won", tr(c, "Won by the player")}, {"lost", tr(c, "Lost by the player")}} {
		a.Results = append(a.Results, views.Option{Value: r[0], Label: r[1], Selected: f.Result == r[0]})
	}
	a.Rows = make([]views.ArchiveRow, 0, len(rows))
	for _, r := range rows {
		row, err := archiveRow(c.Request().Context(), r)
		if err != nil {
			return err
		}
		a.Rows = append(a.Rows, row)
	}
	if err := archiveRatings(c.Request().Context(), h.db, rows, a.Rows); err != nil {
		return err
	}
	// The latest finished matches of several games, on the first page:
	// the player's when the filter names one.
	if a.PageNo == 1 && !noPlayer {
		mf := db.MatchFilter{Finished: true, Multi: multiGameVariants(), Limit: 10}
		if f.Player != "" {
			u, err := h.db.UserByName(c.Request().Context(), f.Player)
			if err != nil {
				return err
			}
			mf.UserID = u.ID
		}
		ms, err := h.db.Matches(c.Request().Context(), mf)
		if err != nil {
			return err
		}
		if a.Matches, err = matchRows(c.Request().Context(), ms); err != nil {
			return err
		}
	}
	// The links to the pages next to this one carry cursors: however far
	// back, a page costs as little as the first.
	page := func(n int, cursor, key string) string {
		q := url.Values{}
		for k, v := range map[string]string{"game": f.Game, "variant": f.Variant, "player": f.Player, "result": f.Result} {
			if v != "" {
				q.Set(k, v)
			}
		}
		if n > 0 {
			q.Set("page", strconv.Itoa(n))
		}
		q.Set(cursor, key)
		return "/archive?" + q.Encode()
	}
	if res.Newer != "" {
		a.PrevHref = page(max(res.Page-1, 0), "after", res.Newer)
	}
	if res.Older != "" {
		a.NextHref = page(res.Page+min(res.Page, 1), "before", res.Older)
	}
	return render(c, http.StatusOK, views.ArchiveView(a), nil)
}

// archiveRow is a finished game as the archive lists it, in the language
// of ctx; a game that finished its match shows the match totals.
func archiveRow(ctx context.Context, r db.ArchiveRow) (views.ArchiveRow, error) {
	g := r.Game
	eng, err := g.Engine()
	if err != nil {
		return views.ArchiveRow{}, err
	}
	k := endKey{game: eng.Key(), winner: g.Winner, score: g.Score, reason: g.Reason, aborted: g.Aborted()}
	if g.Winner.Valid() {
		k.winnerName = g.Side[g.Winner].Name
	}
	row := views.ArchiveRow{
		Href:    "/games/" + strconv.FormatInt(g.ID, 10),
		Game:    gameTitle(ctx, eng, g),
		Players: [2]string{g.Side[0].Name, g.Side[1].Name},
		Sides:   eng.SideNames(),
		Result:  keptResults.Text(ctx, k, func() string { return resultText(ctx, eng, g, rules.NoSide, "") }),
		Score: keptScores.Text(ctx, scoreKey{k.game, k.score, k.reason, k.aborted}, func() string {
			switch {
			case k.aborted:
				return views.T(ctx, "aborted")
			case !rules.Scored(eng, k.reason):
				return endingText(ctx, k.reason)
			}
			return scoreText(ctx, eng, k.score[0]) + " – " + scoreText(ctx, eng, k.score[1])
		}),
		Moves: r.Moves,
		Ended: g.EndedAt.Format("2006-01-02"),
	}
	if r.MatchGames > 1 && r.MatchStatus == "finished" {
		row.Score += " · " + views.T(ctx, "match %s %d – %d %s", r.MatchPlayer[0].Name, r.MatchTotals[0], r.MatchTotals[1], r.MatchPlayer[1].Name)
	}
	return row, nil
}

// keptResults and keptScores keep an archive row's result ("Drawn 3–3
// (armistice)") and score ("3 pts – 3 pts") texts.
var (
	keptResults views.Kept[endKey]
	keptScores  views.Kept[scoreKey]
)

// scoreKey is what an archive row's score text depends on besides the
// language: endKey without the winner, whom the score does not name.
type scoreKey struct {
	game    string
	score   [2]int
	reason  rules.Reason
	aborted bool
}

// endKey is what an archive row's result and score texts depend on
// besides the language: the game (engine key), the winner and their name
// (the result names them), the scores by side, the reason it ended and
// whether it was aborted.
type endKey struct {
	game       string
	winner     rules.Side
	winnerName string
	score      [2]int
	reason     rules.Reason
	aborted    bool
}

// profileActiveGames is how many of a player's games in progress their
// profile lists before a link to all of them.
const profileActiveGames = 50

func (h *archiveHandler) player(c echo.Context) error {
	ctx := c.Request().Context()
	u, err := h.db.UserByName(ctx, c.Param("name"))
	if err != nil {
		return err
	}
	p := views.PlayerPage{Page: pageOf(c, u.Name), Name: u.Name, Since: views.Date(ctx, u.CreatedAt),
		ArchiveHref: "/archive?player=" + url.QueryEscape(u.Name)}
	if v := currentViewer(c); v.ID != 0 && v.ID != u.ID {
		p.ChallengeHref = "/challenges/new?opponent=" + url.QueryEscape(u.Name)
	}
	records, err := h.db.PlayerRecords(ctx, u.ID)
	if err != nil {
		return err
	}
	for _, r := range records {
		title := r.Game
		if e, ok := rules.Lookup(r.Game); ok {
			title = e.Title()
		}
		p.Records = append(p.Records, views.PlayerRecordRow{Game: title, Wins: r.Wins, Losses: r.Losses, Draws: r.Draws})
	}
	if p.Ratings, err = playerRatings(ctx, h.db, u.ID, h.now()); err != nil {
		return err
	}
	if p.Charts, err = ratingCharts(ctx, h.db, u.ID); err != nil {
		return err
	}
	active, err := h.db.ActiveGames(ctx, u.ID)
	if err != nil {
		return err
	}
	if len(active) > profileActiveGames && c.QueryParam("active") != "all" {
		p.ActiveAll, p.ActiveAllHref = len(active), "/players/"+url.PathEscape(u.Name)+"?active=all#player-active"
		active = active[:profileActiveGames]
	}
	finished, err := h.db.FinishedGames(ctx, u.ID, 20)
	if err != nil {
		return err
	}
	now, viewer := h.now(), currentViewer(c).ID
	who := u.Name
	if viewer == u.ID {
		who = ""
	}
	if p.Active, err = gameRowsAs(ctx, h.db, active, u.ID, viewer, who, now); err != nil {
		return err
	}
	if p.Finished, err = gameRowsAs(ctx, h.db, finished, u.ID, viewer, who, now); err != nil {
		return err
	}
	for _, list := range [][]views.GameRow{p.Active, p.Finished} {
		for i := range list {
			list[i].YourTurn = false
		}
	}
	ms, err := h.db.Matches(ctx, db.MatchFilter{UserID: u.ID, Finished: true, Multi: multiGameVariants()})
	if err != nil {
		return err
	}
	if p.Matches, err = matchRows(ctx, ms); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.PlayerView(p), nil)
}

// loadGame returns game :id with its moves.
func (h *archiveHandler) loadGame(c echo.Context) (db.Game, []db.Move, error) {
	id, err := paramID(c)
	if err != nil {
		return db.Game{}, nil, err
	}
	g, err := h.db.Game(c.Request().Context(), id)
	if err != nil {
		return db.Game{}, nil, err
	}
	moves, err := h.db.Moves(c.Request().Context(), id)
	return g, moves, err
}

// record sends a game's record as plain text, with an ETag (a 304 while
// it has not changed). A game with hidden information (the card game) is
// published only once it has ended.
func (h *archiveHandler) record(c echo.Context) error {
	g, moves, err := h.loadGame(c)
	if err != nil {
		return err
	}
	eng, err := g.Engine()
	if err != nil {
		return err
	}
	if rules.HidesInformation(eng) && !g.Finished() {
		return db.Errorf(db.KindForbidden, "The record of a %s game is published once the game has ended: until then it would show hidden cards.", eng.Title())
	}
	r := gameRecord(eng, g, moves)
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%d.txt"`, g.Game, g.ID))
	return sendTagged(c, "text/plain; charset=utf-8", "no-cache", []byte(r.String()))
}

// gameRecord is the record of game g (engine eng) with its moves: the
// tags naming the players, dates and result, and the move list. A record
// is a file for programs as much as for people: its words are English
// whatever the language of the pages (context.Background).
func gameRecord(eng rules.Engine, g db.Game, moves []db.Move) rules.Record {
	names := eng.SideNames()
	r := rules.Record{Game: g.Game, Variant: g.Variant, Seed: g.Seed, Tags: [][2]string{
		{"Site", "Trench"},
		{"Match", strconv.FormatInt(g.MatchID, 10)},
		{"Round", strconv.Itoa(g.Number)},
		{"Rules", variantTitle(context.Background(), eng, g.Variant)},
		{names[0], g.Side[0].Name},
		{names[1], g.Side[1].Name},
		{"Started", g.CreatedAt.Format(time.RFC3339)},
	}}
	if g.Finished() {
		r.Tags = append(r.Tags,
			[2]string{"Ended", g.EndedAt.Format(time.RFC3339)},
			[2]string{"Result", resultText(context.Background(), eng, g, rules.NoSide, "")},
			[2]string{"Score", fmt.Sprintf("%d-%d", g.Score[0], g.Score[1])},
		)
	} else {
		// not shown on a page: the record is a file in a fixed format, its tags in English
		r.Tags = append(r.Tags, [2]string{"Result", "in progress"})
	}
	for _, m := range moves {
		r.Moves = append(r.Moves, m.Move)
	}
	return r
}

// image sends the position after ?ply=N (default: the current one) as an
// SVG image, as a spectator (or, once over, anyone) may see it, with an
// ETag (a 304 while it has not changed).
func (h *archiveHandler) image(c echo.Context) error {
	g, n, view, err := h.imageView(c)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := views.PositionImage(view).Render(c.Request().Context(), &buf); err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf(`inline; filename="%s-%d-ply-%d.svg"`, g.Game, g.ID, n))
	return sendTagged(c, "image/svg+xml", "no-cache", buf.Bytes())
}

// png sends the position after ?ply=N as image does, as a PNG picture
// (views.PositionPNG) for where SVG is not drawn: a push notification's
// image. Errors: those of image, and 404 for the card game.
func (h *archiveHandler) png(c echo.Context) error {
	g, n, view, err := h.imageView(c)
	if err != nil {
		return err
	}
	b, ok, err := views.PositionPNG(view)
	if err != nil {
		return err
	}
	if !ok {
		return db.Errorf(db.KindNotFound, "There is no picture of this position: see its SVG image.")
	}
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf(`inline; filename="%s-%d-ply-%d.png"`, g.Game, g.ID, n))
	return sendTagged(c, "image/png", "no-cache", b)
}

// imageView is the game of the address, the ply of ?ply=N (default: the
// current one) and the view of its position a spectator (or, once the
// game is over, anyone) may see. Errors: 404 for no such game or ply, or
// a game without an image.
func (h *archiveHandler) imageView(c echo.Context) (db.Game, int, any, error) {
	g, moves, err := h.loadGame(c)
	if err != nil {
		return db.Game{}, 0, nil, err
	}
	eng, err := g.Engine()
	if err != nil {
		return db.Game{}, 0, nil, err
	}
	n := g.Ply
	if q := c.QueryParam("ply"); q != "" {
		if n, err = strconv.Atoi(q); err != nil || n < 0 || n > g.Ply {
			return db.Game{}, 0, nil, db.Errorf(db.KindNotFound, "This game has no ply %q: it has plies 0 to %d.", q, g.Ply)
		}
	}
	st, err := stateAt(eng, g, moves, n)
	if err != nil {
		return db.Game{}, 0, nil, err
	}
	seer := rules.NoSide
	if g.Finished() {
		seer = rules.Reveal
	}
	view := st.View(seer)
	if !views.HasImage(view) {
		return db.Game{}, 0, nil, db.Errorf(db.KindNotFound, "There is no image of a %s position.", eng.Title())
	}
	return g, n, view, nil
}
