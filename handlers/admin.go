package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
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
	mail   func(to db.Recipient, lang, subject, body string)
	base   func(c echo.Context) string
	live   *liveHub // closes the streams of the sessions an action ends
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

// adminDone is the confirmation the admin page shows after the action
// key (?done=KEY), in the language of the request; "" for an unknown key.
func adminDone(c echo.Context, key string) string {
	switch key {
	case "announcement":
		return tr(c, "The announcement was saved.")
	case "suspend":
		return tr(c, "The player is suspended: signed out everywhere, their open challenges withdrawn.")
	case "unsuspend":
		return tr(c, "The player is no longer suspended.")
	case "delete":
		return tr(c, "The account was deleted.")
	case "remove":
		return tr(c, "The challenge was removed.")
	case "dismiss":
		return tr(c, "The report was dismissed; the message stays.")
	case "message":
		return tr(c, "The message was deleted.")
	}
	return ""
}

// show renders the admin page.
func (h *adminHandler) show(c echo.Context) error {
	return h.page(c, http.StatusOK, views.AdminPage{Done: adminDone(c, c.QueryParam("done"))})
}

// page renders the admin page with status and what p already says.
func (h *adminHandler) page(c echo.Context, status int, p views.AdminPage) error {
	ctx := c.Request().Context()
	p.Page = pageOf(c, tr(c, "Admin"))
	p.Query = c.QueryParam("q")
	f, err := h.db.Figures(ctx, h.now())
	if err != nil {
		return err
	}
	p.Figures = []views.Figure{
		{Label: tr(c, "Players"), Value: tr(c, "%d (%d suspended)", f.Players, f.Suspended)},
		{Label: tr(c, "Played in the last 30 days"), Value: views.Number(ctx, f.ActivePlayers)},
		{Label: tr(c, "Games"), Value: tr(c, "%d (%d in progress)", f.Games, f.ActiveGames)},
		{Label: tr(c, "Moves"), Value: views.Number(ctx, f.Moves)},
		{Label: tr(c, "Open challenges"), Value: views.Number(ctx, f.OpenChallenges)},
		{Label: tr(c, "Reported messages"), Value: views.Number(ctx, f.OpenReports)},
		{Label: tr(c, "Database"), Value: tr(c, "%s (%d pages, %d free)", byteSize(ctx, f.DatabaseBytes), f.DatabasePages, f.DatabaseFreePgs)},
	}
	p.Replication = tr(c, "off: no replica is configured (see --replicate)")
	if rs, err := h.db.Replication(ctx); err != nil {
		p.Replication = tr(c, "unknown: %s", err.Error())
	} else if rs.On {
		p.Replication = replicationLine(ctx, rs, h.now())
	}
	users, err := h.db.SearchUsers(ctx, p.Query)
	if err != nil {
		return err
	}
	p.MoreUsers = len(users) == db.MaxUserList
	for _, u := range users {
		p.Users = append(p.Users, views.AdminUser{ID: u.ID, Name: u.Name, Href: "/players/" + url.PathEscape(u.Name),
			Since: views.Date(ctx, u.CreatedAt), Admin: u.Admin, Suspended: u.Suspended(), Deleted: u.Deleted(), Self: u.ID == currentViewer(c).ID})
	}
	chs, err := h.db.AllOpenChallenges(ctx)
	if err != nil {
		return err
	}
	for _, ch := range chs {
		r := challengeRow(c.Request().Context(), ch, 0)
		p.Challenges = append(p.Challenges, views.AdminChallenge{ID: ch.ID, By: ch.Creator.Name, To: ch.Opponent.Name,
			What: fmt.Sprintf("%s, %s, %s", r.Game, r.Variant, r.Time), Created: views.DateTime(ctx, ch.CreatedAt)})
	}
	reports, err := h.db.Reports(ctx)
	if err != nil {
		return err
	}
	for _, r := range reports {
		p.Reports = append(p.Reports, views.AdminReport{ID: r.ID, MessageID: r.MessageID, From: r.From.Name, Reporter: r.Reporter.Name,
			Body: r.Body, Reason: r.Reason, When: views.DateTime(ctx, r.SentAt), GameHref: fmt.Sprintf("/games/%d", r.GameID)})
	}
	log, err := h.db.AdminLog(ctx, adminLogShown)
	if err != nil {
		return err
	}
	for _, a := range log {
		p.Log = append(p.Log, adminLogEntry(ctx, a))
	}
	return render(c, status, views.AdminView(p), nil)
}

// adminLogShown is how many of the latest admin actions the admin page
// lists.
const adminLogShown = 50

// adminLogEntry writes admin action a for the admin page, in the
// language of ctx.
func adminLogEntry(ctx context.Context, a db.AdminAction) views.AdminLogEntry {
	e := views.AdminLogEntry{When: views.DateTime(ctx, a.At), Who: a.AdminName, From: a.Address, Target: a.TargetName}
	if a.Via == db.ViaCLI {
		e.Who = views.T(ctx, "cli (%s)", a.AdminName)
		e.From = views.T(ctx, "command line")
	}
	switch a.Action {
	case db.ActionGrant:
		e.Action = views.T(ctx, "Admin right given")
	case db.ActionRevoke:
		e.Action = views.T(ctx, "Admin right taken away")
	case db.ActionSuspend:
		e.Action = views.T(ctx, "Suspended")
	case db.ActionUnsuspend:
		e.Action = views.T(ctx, "Suspension lifted")
	case db.ActionReset:
		e.Action = views.T(ctx, "Password reset forced")
	case db.ActionDelete:
		e.Action = views.T(ctx, "Account deleted")
	case db.ActionRemoveChallenge:
		e.Action = views.T(ctx, "Challenge removed")
	case db.ActionDismissReport:
		e.Action = views.T(ctx, "Report dismissed")
	case db.ActionDeleteMessage:
		e.Action = views.T(ctx, "Message deleted")
	case db.ActionAnnounce:
		e.Action = views.T(ctx, "Announcement set")
		if a.TargetName == "" {
			e.Action = views.T(ctx, "Announcement removed")
		}
	default:
		e.Action = a.Action
	}
	switch a.TargetKind {
	case db.TargetChallenge:
		e.Target = views.T(ctx, "challenge #%d by %s", a.TargetID, a.TargetName)
	case db.TargetReport:
		e.Target = views.T(ctx, "report #%d on a message by %s", a.TargetID, a.TargetName)
	case db.TargetMessage:
		e.Target = views.T(ctx, "message #%d by %s", a.TargetID, a.TargetName)
	}
	return e
}

// replicationLine says how far the replica is, in the language of ctx:
// "to URL: in sync, last caught up 3s ago" (the span as Go writes it).
func replicationLine(ctx context.Context, rs db.ReplicationStatus, now time.Time) string {
	state := views.T(ctx, "in sync")
	if rs.Behind > 0 {
		state = views.TN(ctx, "%d transactions behind", int(rs.Behind), rs.Behind)
	}
	if !rs.LastSync.IsZero() {
		return views.T(ctx, "to %s: %s, last caught up %s ago", rs.URL, state, now.Sub(rs.LastSync).Round(time.Second))
	}
	return views.T(ctx, "to %s: %s, not caught up yet", rs.URL, state)
}

// byteSize writes n bytes for people, in the language of ctx: "812 kB",
// "3.4 MB" ("3,4 MB" in French).
func byteSize(ctx context.Context, n int64) string {
	switch {
	case n < 1000:
		return views.TN(ctx, "%d bytes", int(n), n)
	case n < 1000*1000:
		return views.T(ctx, "%s kB", decimal(ctx, float64(n)/1000, 0))
	case n < 1000*1000*1000:
		return views.T(ctx, "%s MB", decimal(ctx, float64(n)/1e6, 1))
	}
	return views.T(ctx, "%s GB", decimal(ctx, float64(n)/1e9, 2))
}

// decimal writes x with digits decimals and the decimal separator of the
// language of ctx: "3.4", "3,4".
func decimal(ctx context.Context, x float64, digits int) string {
	s := strconv.FormatFloat(x, 'f', digits, 64)
	if views.Lang(ctx) != "en" {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
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

// audit readies the admin log's entry saying that the signed-in admin
// does action to the target of kind with id and name, from the client's
// address: the returned context carries it to the action's transaction,
// which records it as it commits (db.WithAudit), and recorded records it
// apart when the action's writes could not (called once the action is
// done).
func (h *adminHandler) audit(c echo.Context, action, kind string, id int64, name string) (ctx context.Context, recorded func() error, err error) {
	v := currentViewer(c)
	a := db.AdminAction{At: h.now(), AdminID: v.ID, AdminName: v.Name,
		Via: db.ViaWeb, Address: c.RealIP(), Action: action, TargetKind: kind, TargetID: id, TargetName: name}
	ctx, err = db.WithAudit(c.Request().Context(), a)
	return ctx, func() error {
		if db.Audited(ctx) {
			return nil
		}
		return h.db.RecordAdminAction(ctx, a)
	}, err
}

// reportedAuthor is the author of the reported message that match
// picks among the open reports ("" when none does).
func (h *adminHandler) reportedAuthor(ctx context.Context, match func(db.Report) bool) (string, error) {
	reports, err := h.db.Reports(ctx)
	if err != nil {
		return "", err
	}
	for _, r := range reports {
		if match(r) {
			return r.From.Name, nil
		}
	}
	return "", nil
}

func (h *adminHandler) announce(c echo.Context) error {
	text := c.FormValue("text")
	ctx, recorded, err := h.audit(c, db.ActionAnnounce, db.TargetAnnouncement, 0, strings.TrimSpace(text))
	if err != nil {
		return err
	}
	if err := h.db.SetAnnouncement(ctx, text); err != nil {
		return h.failed(c, err)
	}
	if err := recorded(); err != nil {
		return err
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
	// The name before the action (a deleted account loses it), for the
	// admin log; an unknown account is refused by the action itself.
	var name string
	if u, err := h.db.UserByID(ctx, id); err == nil {
		name = u.Name
	} else if db.KindOf(err) != db.KindNotFound {
		return err
	}
	switch action {
	case "suspend", "unsuspend", "delete", "reset":
	default:
		return echo.ErrNotFound
	}
	actx, recorded, err := h.audit(c, action, db.TargetUser, id, name)
	if err != nil {
		return err
	}
	switch action {
	case "suspend":
		err = h.db.SuspendUser(actx, id, h.now())
	case "unsuspend":
		err = h.db.UnsuspendUser(actx, id)
	case "delete":
		err = h.db.DeleteAccount(actx, id, h.now())
	case "reset":
		r, err := h.db.ForcePasswordReset(actx, id, h.now())
		if err != nil {
			return h.failed(c, err)
		}
		h.live.sessionsEnded(ctx, id)
		if err := recorded(); err != nil {
			return err
		}
		link := h.base(c) + "/reset/" + r.Token
		mailed := r.To.Email != "" && h.mailOn()
		if mailed {
			// In the language the player chose, not the admin's.
			mctx := mailContext(ctx, r.To, "")
			h.mail(r.To, views.Lang(mctx), views.T(mctx, "Choose a new password"), mailHello(mctx, r.To)+
				views.T(mctx, "the admin of %s has reset your password. To choose a new one, open this link within three days; it works once:", h.base(c))+
				"\n\n"+link+"\n")
		}
		return h.page(c, http.StatusOK, views.AdminPage{ResetLink: link, ResetFor: r.To.Name, ResetMailed: mailed})
	}
	if err != nil {
		return h.failed(c, err)
	}
	h.live.sessionsEnded(ctx, id)
	if err := recorded(); err != nil {
		return err
	}
	return h.done(c, action)
}

func (h *adminHandler) removeChallenge(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	var by string
	if ch, err := h.db.Challenge(ctx, id); err == nil {
		by = ch.Creator.Name
	} else if db.KindOf(err) != db.KindNotFound {
		return err
	}
	actx, recorded, err := h.audit(c, db.ActionRemoveChallenge, db.TargetChallenge, id, by)
	if err != nil {
		return err
	}
	if err := h.db.RemoveChallenge(actx, id); err != nil {
		return h.failed(c, err)
	}
	if err := recorded(); err != nil {
		return err
	}
	return h.done(c, "remove")
}

func (h *adminHandler) dismissReport(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	author, err := h.reportedAuthor(ctx, func(r db.Report) bool { return r.ID == id })
	if err != nil {
		return err
	}
	actx, recorded, err := h.audit(c, db.ActionDismissReport, db.TargetReport, id, author)
	if err != nil {
		return err
	}
	if err := h.db.DismissReport(actx, id); err != nil {
		return h.failed(c, err)
	}
	if err := recorded(); err != nil {
		return err
	}
	return h.done(c, "dismiss")
}

func (h *adminHandler) deleteMessage(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	author, err := h.reportedAuthor(ctx, func(r db.Report) bool { return r.MessageID == id })
	if err != nil {
		return err
	}
	actx, recorded, err := h.audit(c, db.ActionDeleteMessage, db.TargetMessage, id, author)
	if err != nil {
		return err
	}
	if err := h.db.DeleteMessage(actx, id); err != nil {
		return h.failed(c, err)
	}
	if err := recorded(); err != nil {
		return err
	}
	return h.done(c, "message")
}
