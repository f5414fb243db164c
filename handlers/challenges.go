package handlers

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/views"
)

// challengeHandler creates, lists, accepts, declines and cancels
// challenges.
type challengeHandler struct {
	db   *db.DB
	now  func() time.Time
	seed func() int64
}

// challengeForm builds the new-challenge form for game (the first game
// when empty or unknown), keeping what was filled in.
func challengeForm(c echo.Context, game string, in db.NewChallenge, msg string) views.ChallengeForm {
	f := views.ChallengeForm{Page: pageOf(c, "New challenge"), Game: game, Opponent: in.Opponent, Error: msg}
	engines := rules.Engines()
	if _, ok := rules.Lookup(game); !ok && len(engines) > 0 {
		f.Game = engines[0].Key()
		for _, e := range engines {
			if e.Key() == "trench" {
				f.Game = "trench"
			}
		}
	}
	for _, e := range engines {
		g := views.ChallengeGame{Key: e.Key(), Title: e.Title()}
		for i, v := range e.Variants() {
			g.Variants = append(g.Variants, views.Option{Value: v.Key, Label: v.Title, Selected: in.Variant == v.Key || in.Variant == "" && i == 0})
		}
		names := e.SideNames()
		if fixed, ok := e.(rules.CreatorSider); ok {
			g.FixedSide = names[fixed.CreatorSide()]
			f.Games = append(f.Games, g)
			continue
		}
		g.Colors = []views.Option{
			{Value: "random", Label: "Random", Selected: in.Color == "" || in.Color == "random"},
			{Value: "0", Label: names[0] + " (moves first)", Selected: in.Color == "0"},
			{Value: "1", Label: names[1], Selected: in.Color == "1"},
		}
		f.Games = append(f.Games, g)
	}
	for _, d := range db.DaysPerMove {
		sel := in.DaysPerMove == d || in.DaysPerMove == 0 && d == 3
		f.Days = append(f.Days, views.Option{Value: strconv.Itoa(d), Label: fmt.Sprintf("%d day%s per move", d, map[bool]string{true: "s"}[d > 1]), Selected: sel})
	}
	return f
}

func (h *challengeHandler) form(c echo.Context) error {
	in := db.NewChallenge{Opponent: c.QueryParam("opponent")}
	return render(c, http.StatusOK, views.ChallengeFormView(challengeForm(c, c.QueryParam("game"), in, "")), nil)
}

func (h *challengeHandler) create(c echo.Context) error {
	days, err := strconv.Atoi(c.FormValue("days"))
	if err != nil {
		days = -1
	}
	in := db.NewChallenge{
		CreatorID:   currentViewer(c).ID,
		Opponent:    strings.TrimSpace(c.FormValue("opponent")),
		Game:        c.FormValue("game"),
		Variant:     c.FormValue("variant"),
		Color:       c.FormValue("color"),
		DaysPerMove: days,
	}
	_, err = h.db.CreateChallenge(c.Request().Context(), in, h.now())
	if k := db.KindOf(err); err != nil && (k == db.KindInvalid || k == db.KindNotFound) {
		status, msg := statusOf(err)
		return render(c, status, views.ChallengeFormView(challengeForm(c, in.Game, in, msg)), nil)
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/")
}

func (h *challengeHandler) accept(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	gameID, err := h.db.AcceptChallenge(c.Request().Context(), id, currentViewer(c).ID, h.seed(), h.now())
	if err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/games/%d", gameID))
}

func (h *challengeHandler) decline(c echo.Context) error {
	return h.close(c, h.db.DeclineChallenge)
}

func (h *challengeHandler) cancel(c echo.Context) error {
	return h.close(c, h.db.CancelChallenge)
}

func (h *challengeHandler) close(c echo.Context, fn func(ctx context.Context, id, userID int64) error) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	if err := fn(c.Request().Context(), id, currentViewer(c).ID); err != nil {
		return err
	}
	return redirect(c, "/")
}

// redirect sends the browser to url after a POST: a 303 for a plain form,
// an HX-Redirect for htmx (which then loads url in place).
func redirect(c echo.Context, url string) error {
	if isHTMX(c) {
		c.Response().Header().Set("HX-Redirect", url)
		return c.NoContent(http.StatusNoContent)
	}
	return c.Redirect(http.StatusSeeOther, url)
}
