package handlers

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/views"
)

// pageHandler serves the start page (the dashboard when signed in) and
// the rules pages.
type pageHandler struct {
	db   *db.DB
	now  func() time.Time
	live *liveHub // for the dashboard's event stream
	// pushKey is the server's VAPID public key, base64url, for the
	// dashboard's offer of notifications.
	pushKey string
}

// gameSummary is the one-line description of the game with engine key
// key on the start page, in the language of the request ("" for a game
// without one).
func gameSummary(c echo.Context, key string) string {
	switch key {
	case "trench":
		return tr(c, "8×8 diamond board split by a trench; Soldiers to General; capture across the trench line.")
	case "trenches":
		return tr(c, "10×10: Tanks and Soldiers leave debris behind; the player who cannot move loses.")
	case "cards":
		return tr(c, "Hidden cards in two trenches: shift, recon and attack.")
	}
	return ""
}

func (h *pageHandler) home(c echo.Context) error {
	v := currentViewer(c)
	if v.ID == 0 {
		var err error
		home := views.Home{Page: pageOf(c, tr(c, "Welcome"))}
		for _, e := range engines() {
			home.Games = append(home.Games, views.GameInfo{Key: e.Key(), Title: tr(c, e.Title()), Summary: gameSummary(c, e.Key())})
		}
		if home.Daily, err = dailyPuzzle(c, h.db, h.now()); err != nil {
			return err
		}
		return render(c, http.StatusOK, views.HomeView(home), nil)
	}
	d, err := h.dashboard(c)
	if err != nil {
		return err
	}
	d.LiveURL = fmt.Sprintf("/events?g=%d", h.live.gen(liveTopic{liveUser, v.ID}))
	for _, g := range d.Games {
		if g.YourTurn {
			d.PushKey = h.pushKey // a game waits: the page offers notifications
			break
		}
	}
	if d.Daily, err = dailyPuzzle(c, h.db, h.now()); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.DashboardView(d), nil)
}

// dashboard is the signed-in viewer's dashboard: their games, matches and
// challenges and the unread messages.
func (h *pageHandler) dashboard(c echo.Context) (views.Dashboard, error) {
	v := currentViewer(c)
	ctx := c.Request().Context()
	now := h.now()
	d := views.Dashboard{Page: pageOf(c, tr(c, "Your games")), VacationsOn: h.db.VacationAllowance() > 0}
	active, err := h.db.ActiveGames(ctx, v.ID)
	if err != nil {
		return d, err
	}
	finished, err := h.db.FinishedGames(ctx, v.ID, 10)
	if err != nil {
		return d, err
	}
	if d.Games, err = gameRows(ctx, h.db, active, v.ID, v.ID, now); err != nil {
		return d, err
	}
	if d.Finished, err = gameRows(ctx, h.db, finished, v.ID, v.ID, now); err != nil {
		return d, err
	}
	for _, finished := range []bool{false, true} {
		ms, err := h.db.Matches(ctx, db.MatchFilter{UserID: v.ID, Finished: finished, Multi: multiGameVariants(), Limit: 10})
		if err != nil {
			return d, err
		}
		rows, err := matchRows(ctx, ms)
		if err != nil {
			return d, err
		}
		d.Matches = append(d.Matches, rows...)
	}
	mine, err := h.db.ChallengesBy(ctx, v.ID)
	if err != nil {
		return d, err
	}
	open, err := h.db.OpenChallenges(ctx, v.ID)
	if err != nil {
		return d, err
	}
	for _, ch := range mine {
		d.MyChallenges = append(d.MyChallenges, challengeRow(ctx, ch, v.ID))
	}
	for _, ch := range open {
		d.OpenChallenge = append(d.OpenChallenge, challengeRow(ctx, ch, v.ID))
	}
	if d.Unread, err = unreadRows(ctx, h.db, v.ID); err != nil {
		return d, err
	}
	return d, nil
}

func (h *pageHandler) rules(c echo.Context) error {
	game := c.Param("game")
	title := tr(c, "Rules")
	var start any // the starting position's view, drawn as a diagram
	if game != "" {
		e, ok := rules.Lookup(game)
		if !ok {
			return db.Errorf(db.KindNotFound, "There is no game called %q here.", game)
		}
		title = tr(c, "%s rules", tr(c, e.Title()))
		st, err := e.Start(e.FirstGame(e.Variants()[0].Key), 1)
		if err != nil {
			return err
		}
		start = st.View(rules.NoSide)
	}
	return render(c, http.StatusOK, views.RulesView(pageOf(c, title), game, start), nil)
}

// paramID parses the :id path parameter. Errors: KindNotFound.
func paramID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, db.Errorf(db.KindNotFound, "There is no such page.")
	}
	return id, nil
}
