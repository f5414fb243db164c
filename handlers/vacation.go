package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/views"
)

// vacationHandler shows a player's vacation and starts or ends it: while
// on vacation, their clocks stop in every game.
type vacationHandler struct {
	db  *db.DB
	now func() time.Time
}

func (h *vacationHandler) show(c echo.Context) error {
	return h.render(c, http.StatusOK, "")
}

func (h *vacationHandler) render(c echo.Context, status int, msg string) error {
	st, err := h.db.Vacation(c.Request().Context(), currentViewer(c).ID, h.now())
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	p := views.VacationPage{Page: pageOf(c, tr(c, "Vacation")), On: st.On, Auto: st.Auto, Error: msg,
		Left: span(ctx, st.Left), Allowance: span(ctx, st.Allowance), CanStart: !st.On && st.Left > 0, Off: st.Allowance == 0}
	if st.On {
		p.Since, p.EndsBy = dateTimeLocal(ctx, st.Since), dateTimeLocal(ctx, st.EndsBy)
	}
	return render(c, status, views.VacationView(p), nil)
}

func (h *vacationHandler) start(c echo.Context) error {
	return h.change(c, h.db.StartVacation)
}

func (h *vacationHandler) end(c echo.Context) error {
	return h.change(c, h.db.EndVacation)
}

func (h *vacationHandler) change(c echo.Context, fn func(ctx context.Context, userID int64, now time.Time) error) error {
	if err := fn(c.Request().Context(), currentViewer(c).ID, h.now()); err != nil {
		if db.KindOf(err) == db.KindConflict {
			status, msg := statusOf(c, err)
			return h.render(c, status, msg)
		}
		return err
	}
	return redirect(c, "/vacation")
}
