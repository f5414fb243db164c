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
	// rateBots: games against the computer are rated (the form says so).
	rateBots bool
}

// challengeForm builds the new-challenge form for game (the first game
// when empty or unknown), keeping what was filled in.
func challengeForm(c echo.Context, game string, in db.NewChallenge, msg string) views.ChallengeForm {
	f := views.ChallengeForm{Page: pageOf(c, tr(c, "New challenge")), Game: game, Opponent: in.Opponent, Error: msg}
	f.Rated = in.Rated
	f.Takebacks = []views.Option{
		{Value: "", Label: tr(c, "As usual: allowed in an unrated game, not in a rated one"), Selected: in.Takebacks == ""},
		{Value: "on", Label: tr(c, "Allowed (in a rated game too)"), Selected: in.Takebacks == "on"},
		{Value: "off", Label: tr(c, "Not allowed"), Selected: in.Takebacks == "off"},
	}
	engines := engines()
	if _, ok := rules.Lookup(game); !ok && len(engines) > 0 {
		f.Game = engines[0].Key()
		for _, e := range engines {
			if e.Key() == "trench" {
				f.Game = "trench"
			}
		}
	}
	for _, e := range engines {
		g := views.ChallengeGame{Key: e.Key(), Title: tr(c, e.Title())}
		if rules.HidesInformation(e) {
			g.NoTakebacks = tr(c, "No takebacks in Trench, the card game: a played card has been seen.")
		}
		for i, v := range e.Variants() {
			g.Variants = append(g.Variants, views.Option{Value: v.Key, Label: tr(c, v.Title), Selected: in.Variant == v.Key || in.Variant == "" && i == 0})
		}
		names := e.SideNames()
		if fixed, ok := e.(rules.CreatorSider); ok {
			g.FixedSide = tr(c, names[fixed.CreatorSide()])
			f.Games = append(f.Games, g)
			continue
		}
		g.Colors = []views.Option{
			{Value: "random", Label: tr(c, "Random|side"), Selected: in.Color == "" || in.Color == "random"},
			{Value: "0", Label: tr(c, "%s (moves first)", tr(c, names[0])), Selected: in.Color == "0"},
			{Value: "1", Label: tr(c, names[1]), Selected: in.Color == "1"},
		}
		f.Games = append(f.Games, g)
	}
	f.Clock = in.Clock.Kind
	bank := in.Clock
	if bank.Kind != "bank" {
		bank = defaultBank
	}
	for _, d := range bankDays {
		f.BankInitial = append(f.BankInitial, views.Option{Value: strconv.Itoa(d), Label: trn(c, "%d days", d, d), Selected: bank.BankInitial == time.Duration(d)*24*time.Hour})
		f.BankMax = append(f.BankMax, views.Option{Value: strconv.Itoa(d), Label: trn(c, "%d days", d, d), Selected: bank.BankMax == time.Duration(d)*24*time.Hour})
	}
	for _, hours := range bankAddHours {
		f.BankAdd = append(f.BankAdd, views.Option{Value: strconv.Itoa(hours), Label: trn(c, "%d hours", hours, hours), Selected: bank.BankAdd == time.Duration(hours)*time.Hour})
	}
	for _, d := range db.DaysPerMove {
		sel := in.DaysPerMove == d || in.DaysPerMove == 0 && d == 3
		f.Days = append(f.Days, views.Option{Value: strconv.Itoa(d), Label: trn(c, "%d days per move", d, d), Selected: sel})
	}
	return f
}

// The time bank's choices on the challenge form, and the default (Little
// Golem's: 10 days, +36 hours a move, at most 20 days).
var (
	bankDays     = []int{3, 5, 7, 10, 14, 20, 30}
	bankAddHours = []int{12, 24, 36, 48, 72}
	defaultBank  = db.TimeControl{Kind: "bank", BankInitial: 10 * 24 * time.Hour, BankAdd: 36 * time.Hour, BankMax: 20 * 24 * time.Hour}
)

// formClock reads the time control of the challenge form: days per move
// when "clock" is "move" or missing, a time bank for "bank"; any other
// kind, an empty one included, is passed on for CreateChallenge to refuse.
func formClock(c echo.Context) db.TimeControl {
	kind := c.FormValue("clock")
	if _, sent := c.Request().Form["clock"]; !sent {
		kind = "move"
	}
	switch kind {
	case "move":
		return db.TimeControl{}
	case "bank":
	default:
		if kind == "" {
			kind = "none"
		}
		return db.TimeControl{Kind: kind}
	}
	num := func(name string, unit time.Duration) time.Duration {
		n, err := strconv.Atoi(c.FormValue(name))
		if err != nil || n < 0 {
			return -1
		}
		return time.Duration(n) * unit
	}
	return db.TimeControl{Kind: "bank", BankInitial: num("bank_initial", 24*time.Hour),
		BankAdd: num("bank_add", time.Hour), BankMax: num("bank_max", 24*time.Hour)}
}

func (h *challengeHandler) form(c echo.Context) error {
	in := db.NewChallenge{Opponent: c.QueryParam("opponent"), Rated: true}
	f := challengeForm(c, c.QueryParam("game"), in, "")
	f.Computer = computerChoice(f.Game, "", h.rateBots, "")
	return render(c, http.StatusOK, views.ChallengeFormView(f), nil)
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
		Clock:       formClock(c),
		Rated:       c.FormValue("rated") != "",
		Takebacks:   c.FormValue("takebacks"),
	}
	_, err = h.db.CreateChallenge(c.Request().Context(), in, h.now())
	if k := db.KindOf(err); err != nil && (k == db.KindInvalid || k == db.KindNotFound || k == db.KindTooMany) {
		setRetryAfter(c, err)
		status, msg := statusOf(c, err)
		f := challengeForm(c, in.Game, in, msg)
		f.Computer = computerChoice(f.Game, "", h.rateBots, "")
		return render(c, status, views.ChallengeFormView(f), nil)
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
