package handlers

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/views"
)

// adminHandler serves /admin: the server's figures, the announcement, and
// what an admin does about players, challenges and reported messages.
type adminHandler struct {
	db     *db.DB
	now    func() time.Time
	mailOn func() bool
	mail   func(to db.Recipient, subject, body string)
	base   func(c echo.Context) string
}

// requireAdmin answers 404 to anyone but an admin: the admin pages do not
// show that they exist.
func requireAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !currentViewer(c).Admin {
			return echo.ErrNotFound
		}
		return next(c)
	}
}

// adminDone are the confirmations the admin page shows after an action
// (?done=KEY).
var adminDone = map[string]string{
	"announcement": "The announcement was saved.",
	"suspend":      "The player is suspended: signed out everywhere, their open challenges withdrawn.",
	"unsuspend":    "The player is no longer suspended.",
	"delete":       "The account was deleted.",
	"remove":       "The challenge was removed.",
	"dismiss":      "The report was dismissed; the message stays.",
	"message":      "The message was deleted.",
}

// show renders the admin page.
func (h *adminHandler) show(c echo.Context) error {
	return h.page(c, http.StatusOK, views.AdminPage{Done: adminDone[c.QueryParam("done")]})
}

// page renders the admin page with status and what p already says.
func (h *adminHandler) page(c echo.Context, status int, p views.AdminPage) error {
	ctx := c.Request().Context()
	p.Page = pageOf(c, "Admin")
	p.Query = c.QueryParam("q")
	f, err := h.db.Figures(ctx, h.now())
	if err != nil {
		return err
	}
	p.Figures = []views.Figure{
		{Label: "Players", Value: fmt.Sprintf("%d (%d suspended)", f.Players, f.Suspended)},
		{Label: "Played in the last 30 days", Value: strconv.Itoa(f.ActivePlayers)},
		{Label: "Games", Value: fmt.Sprintf("%d (%d in progress)", f.Games, f.ActiveGames)},
		{Label: "Moves", Value: strconv.Itoa(f.Moves)},
		{Label: "Open challenges", Value: strconv.Itoa(f.OpenChallenges)},
		{Label: "Reported messages", Value: strconv.Itoa(f.OpenReports)},
		{Label: "Database", Value: fmt.Sprintf("%s (%d pages, %d free)", byteSize(f.DatabaseBytes), f.DatabasePages, f.DatabaseFreePgs)},
	}
	p.Replication = "off: no replica is configured (see --replicate)"
	if rs, err := h.db.Replication(ctx); err != nil {
		p.Replication = "unknown: " + err.Error()
	} else if rs.On {
		p.Replication = replicationLine(rs, h.now())
	}
	users, err := h.db.SearchUsers(ctx, p.Query)
	if err != nil {
		return err
	}
	p.MoreUsers = len(users) == db.MaxUserList
	for _, u := range users {
		p.Users = append(p.Users, views.AdminUser{ID: u.ID, Name: u.Name, Href: "/players/" + url.PathEscape(u.Name),
			Since: u.CreatedAt.Format("2 Jan 2006"), Admin: u.Admin, Suspended: u.Suspended(), Deleted: u.Deleted(), Self: u.ID == currentViewer(c).ID})
	}
	chs, err := h.db.AllOpenChallenges(ctx)
	if err != nil {
		return err
	}
	for _, ch := range chs {
		r := challengeRow(c.Request().Context(), ch, 0)
		p.Challenges = append(p.Challenges, views.AdminChallenge{ID: ch.ID, By: ch.Creator.Name, To: ch.Opponent.Name,
			What: fmt.Sprintf("%s, %s, %s", r.Game, r.Variant, r.Time), Created: ch.CreatedAt.Format("2 Jan 2006 15:04")})
	}
	reports, err := h.db.Reports(ctx)
	if err != nil {
		return err
	}
	for _, r := range reports {
		p.Reports = append(p.Reports, views.AdminReport{ID: r.ID, MessageID: r.MessageID, From: r.From.Name, Reporter: r.Reporter.Name,
			Body: r.Body, Reason: r.Reason, When: r.SentAt.Format("2 Jan 2006 15:04"), GameHref: fmt.Sprintf("/games/%d", r.GameID)})
	}
	return render(c, status, views.AdminView(p), nil)
}

// replicationLine says how far the replica is.
func replicationLine(rs db.ReplicationStatus, now time.Time) string {
	s := "to " + rs.URL + ": "
	switch {
	case rs.Behind > 0:
		s += fmt.Sprintf("%d transactions behind", rs.Behind)
	default:
		s += "in sync"
	}
	if !rs.LastSync.IsZero() {
		s += fmt.Sprintf(", last caught up %s ago", now.Sub(rs.LastSync).Round(time.Second))
	} else {
		s += ", not caught up yet"
	}
	return s
}

// byteSize writes n bytes for people: "812 kB", "3.4 MB".
func byteSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d bytes", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.0f kB", float64(n)/1000)
	case n < 1000*1000*1000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.2f GB", float64(n)/1e9)
}

// done answers a successful action: back to the admin page with its
// confirmation.
func (h *adminHandler) done(c echo.Context, key string) error {
	return c.Redirect(http.StatusSeeOther, "/admin?done="+key)
}

// failed answers a refused action: the admin page with the reason and the
// error's status; an internal error goes to the error handler.
func (h *adminHandler) failed(c echo.Context, err error) error {
	status, msg := statusOf(c, err)
	if status >= 500 {
		return err
	}
	return h.page(c, status, views.AdminPage{Error: msg})
}

func (h *adminHandler) announce(c echo.Context) error {
	if err := h.db.SetAnnouncement(c.Request().Context(), c.FormValue("text")); err != nil {
		return h.failed(c, err)
	}
	return h.done(c, "announcement")
}

// user runs one action on the account :id: suspend, unsuspend, delete or
// reset (a forced password reset, answered with the link to pass on).
func (h *adminHandler) user(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	action := c.Param("action")
	if id == currentViewer(c).ID && action != "reset" {
		return h.failed(c, db.Errorf(db.KindInvalid, "Not your own account: change it from your settings, or ask another admin."))
	}
	switch action {
	case "suspend":
		err = h.db.SuspendUser(ctx, id, h.now())
	case "unsuspend":
		err = h.db.UnsuspendUser(ctx, id)
	case "delete":
		err = h.db.DeleteAccount(ctx, id, h.now())
	case "reset":
		r, err := h.db.ForcePasswordReset(ctx, id, h.now())
		if err != nil {
			return h.failed(c, err)
		}
		link := h.base(c) + "/reset/" + r.Token
		mailed := r.To.Email != "" && h.mailOn()
		if mailed {
			h.mail(r.To, "Choose a new password", fmt.Sprintf("Hello %s,\n\nthe admin of %s has reset your password. "+
				"To choose a new one, open this link within three days; it works once:\n\n%s\n", r.To.Name, h.base(c), link))
		}
		return h.page(c, http.StatusOK, views.AdminPage{ResetLink: link, ResetFor: r.To.Name, ResetMailed: mailed})
	default:
		return echo.ErrNotFound
	}
	if err != nil {
		return h.failed(c, err)
	}
	return h.done(c, action)
}

func (h *adminHandler) removeChallenge(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	if err := h.db.RemoveChallenge(c.Request().Context(), id); err != nil {
		return h.failed(c, err)
	}
	return h.done(c, "remove")
}

func (h *adminHandler) dismissReport(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	if err := h.db.DismissReport(c.Request().Context(), id); err != nil {
		return h.failed(c, err)
	}
	return h.done(c, "dismiss")
}

func (h *adminHandler) deleteMessage(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	if err := h.db.DeleteMessage(c.Request().Context(), id); err != nil {
		return h.failed(c, err)
	}
	return h.done(c, "message")
}
