package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	netmail "net/mail"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/wneessen/go-mail"
	"golang.org/x/crypto/bcrypt"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/views"
)

// accountHandler serves what a player does with the account itself: a
// forgotten password (a reset link by e-mail), verifying the e-mail
// address, downloading their data and deleting the account.
type accountHandler struct {
	db       *db.DB
	sessions *sessionManager
	cost     int
	now      func() time.Time
	// mailOn reports whether the server sends e-mail; mail sends one in
	// the background (so that answering takes as long whether a mail goes
	// out or not).
	mailOn func() bool
	mail   func(to db.Recipient, lang, subject, body string)
	base   func(c echo.Context) string // the server's public URL
	// limits counts reset requests (per client and per e-mail address,
	// whether or not the address is known) and wrong passwords at
	// deletion (with the password change's back-off).
	limits *limits
	// settingsPage renders the settings page (notifyHandler.settingsPage).
	settingsPage func(c echo.Context, status int, p views.SettingsPage) error
}

func (h *accountHandler) resetForm(c echo.Context) error {
	return render(c, http.StatusOK, views.ResetRequestView(views.ResetRequestPage{Page: pageOf(c, tr(c, "Forgot your password?")),
		MailOff: !h.mailOn()}), nil)
}

// requestReset mails a reset link to the account with the verified
// address given, if there is one. The answer is the same either way, and
// rate-limited per client and per address either way.
func (h *accountHandler) requestReset(c echo.Context) error {
	p := views.ResetRequestPage{Page: pageOf(c, tr(c, "Forgot your password?")), MailOff: !h.mailOn()}
	if p.MailOff {
		return render(c, http.StatusNotFound, views.ResetRequestView(p), nil)
	}
	raw := strings.TrimSpace(c.FormValue("email"))
	p.Email = raw
	addr, err := netmail.ParseAddress(raw)
	if err != nil || len(raw) > db.MaxEmailLength {
		p.Error = tr(c, "That is not an e-mail address; write it as name@example.org.")
		return render(c, http.StatusBadRequest, views.ResetRequestView(p), nil)
	}
	ok, wait := h.limits.resetIP.allow(c.RealIP())
	if ok {
		ok, wait = h.limits.resetAddr.allow(strings.ToLower(addr.Address))
	}
	if !ok {
		retryAfter(c, wait)
		p.Error = tr(c, "Too many requests for a reset link. Please wait a while and try again.")
		return render(c, http.StatusTooManyRequests, views.ResetRequestView(p), nil)
	}
	r, err := h.db.RequestPasswordReset(c.Request().Context(), addr.Address, h.now())
	switch db.KindOf(err) {
	case db.KindInternal:
		if err != nil {
			return err
		}
		base := h.base(c)
		// In the language the account chose: whoever asks may not be its owner.
		ctx := mailContext(c.Request().Context(), r.To, "")
		h.mail(r.To, views.Lang(ctx), views.T(ctx, "Choose a new password"), mailHello(ctx, r.To)+
			views.T(ctx, "somebody (you, we hope) asked for a new password for your account %s on %s.\nTo choose one, open this link within an hour; it works once:", r.To.Name, base)+
			"\n\n"+base+"/reset/"+r.Token+"\n\n"+
			views.T(ctx, "Every session of your account ends when you use it. If you did not ask for it, ignore this mail: your password stays as it is.")+"\n")
	case db.KindNotFound, db.KindTooMany:
		// The same answer as for a known address.
	default:
		return err
	}
	p.Sent = true
	return render(c, http.StatusOK, views.ResetRequestView(p), nil)
}

// resetPasswordForm is the page behind a reset link.
func (h *accountHandler) resetPasswordForm(c echo.Context) error {
	u, err := h.db.ResetTokenUser(c.Request().Context(), c.Param("token"), h.now())
	if err != nil {
		return h.badLink(c, err)
	}
	return render(c, http.StatusOK, views.ResetPasswordView(views.ResetPasswordPage{Page: pageOf(c, tr(c, "New password")),
		Action: "/reset/" + c.Param("token"), Name: u.Name}), nil)
}

// badLink answers a reset or verification link that does not work.
func (h *accountHandler) badLink(c echo.Context, err error) error {
	if db.KindOf(err) != db.KindNotFound && db.KindOf(err) != db.KindConflict {
		return err
	}
	status, msg := statusOf(c, err)
	return render(c, status, views.NoticeView(views.NoticePage{Page: pageOf(c, tr(c, "Link not valid")), Heading: tr(c, "This link does not work"),
		Message: msg, LinkHref: "/reset", LinkText: tr(c, "Ask for a new password link")}), nil)
}

// resetPassword uses the reset link: the new password is set, every
// session of the account ends, and this browser is signed in afresh.
func (h *accountHandler) resetPassword(c echo.Context) error {
	tok := c.Param("token")
	pw := c.FormValue("password")
	if utf8.RuneCountInString(pw) < MinPasswordLength || len(pw) > 72 {
		u, err := h.db.ResetTokenUser(c.Request().Context(), tok, h.now())
		if err != nil {
			return h.badLink(c, err)
		}
		return render(c, http.StatusBadRequest, views.ResetPasswordView(views.ResetPasswordPage{Page: pageOf(c, tr(c, "New password")),
			Action: "/reset/" + tok, Name: u.Name, Error: tr(c, "A password needs 8 to 72 characters.")}), nil)
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(pw), h.cost)
	if err != nil {
		return err
	}
	u, err := h.db.ResetPassword(c.Request().Context(), tok, string(hash), h.now())
	if err != nil {
		return h.badLink(c, err)
	}
	h.sessions.live.sessionsEnded(c.Request().Context(), u.ID)
	if err := h.sessions.start(c, u.ID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/settings?done=1")
}

// sendVerification mails the signed-in user a link proving their address.
func (h *accountHandler) sendVerification(c echo.Context) error {
	if !h.mailOn() {
		return db.Errorf(db.KindNotFound, "This server does not send e-mail.")
	}
	v, err := h.db.StartEmailVerification(c.Request().Context(), currentViewer(c).ID, h.now())
	if k := db.KindOf(err); k == db.KindInvalid || k == db.KindTooMany {
		status, msg := statusOf(c, err)
		return h.settingsPage(c, status, views.SettingsPage{Page: pageOf(c, tr(c, "Settings")), VerifyError: msg})
	} else if err != nil {
		return err
	}
	base := h.base(c)
	// The player asking is the one mailed: their pages' language is theirs.
	ctx := mailContext(c.Request().Context(), v.To, views.Lang(c.Request().Context()))
	h.mail(v.To, views.Lang(ctx), views.T(ctx, "Verify your e-mail address"), mailHello(ctx, v.To)+
		views.T(ctx, "to confirm that %s is your address on %s, open this link within two days:", v.To.Email, base)+
		"\n\n"+base+"/verify/"+v.Token+"\n\n"+views.T(ctx, "If you did not ask for it, ignore this mail.")+"\n")
	return c.Redirect(http.StatusSeeOther, "/settings?verify=sent#email")
}

// verify uses a verification link (a GET: it is opened from the mail).
func (h *accountHandler) verify(c echo.Context) error {
	_, email, err := h.db.VerifyEmail(c.Request().Context(), c.Param("token"), h.now())
	if err != nil {
		if db.KindOf(err) == db.KindNotFound || db.KindOf(err) == db.KindConflict {
			status, msg := statusOf(c, err)
			return render(c, status, views.NoticeView(views.NoticePage{Page: pageOf(c, tr(c, "Link not valid")),
				Heading: tr(c, "This link does not work"), Message: msg, LinkHref: "/settings#email", LinkText: tr(c, "Your settings")}), nil)
		}
		return err
	}
	return render(c, http.StatusOK, views.NoticeView(views.NoticePage{Page: pageOf(c, tr(c, "Address verified")), Heading: tr(c, "Address verified"),
		OK: true, Message: tr(c, "%s is verified: a forgotten password can now be reset through it.", email),
		LinkHref: "/settings#email", LinkText: tr(c, "Your settings")}), nil)
}

// exportGame is one game in a player's data download.
type exportGame struct {
	ID      int64  `json:"id"`
	URL     string `json:"url"`
	Game    string `json:"game"`
	Variant string `json:"variant"`
	Status  string `json:"status"`
	// Record is the game's record as /games/ID/record serves it; empty
	// for a game in progress that hides information (cards) until its end.
	Record string `json:"record"`
	// Notes are the player's own private notes on the game (absent when
	// none), NotesSaved when they were last saved.
	Notes      string     `json:"notes,omitempty"`
	NotesSaved *time.Time `json:"notes_saved,omitempty"`
}

// exportRating is one rating in a player's data download.
type exportRating struct {
	Game   string  `json:"game"`
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
	Games  int     `json:"games"`
}

// exportData is the shape of a player's data download.
type exportData struct {
	Exported time.Time `json:"exported"`
	Profile  struct {
		Name          string    `json:"name"`
		Created       time.Time `json:"created"`
		Admin         bool      `json:"admin"`
		Email         string    `json:"email"`
		EmailVerified bool      `json:"email_verified"`
		Notifications string    `json:"notifications"`
		BoardView     string    `json:"board_view"`
	} `json:"profile"`
	// Devices are the devices that get push notifications, without
	// their keys.
	Devices []exportDevice `json:"push_devices"`
	Ratings []exportRating `json:"ratings"`
	Games   []exportGame   `json:"games"`
}

// exportDevice is one device that gets push notifications, in the data
// download: the push service's address, never the keys.
type exportDevice struct {
	Device      string     `json:"device"`
	Endpoint    string     `json:"endpoint"`
	Wants       []string   `json:"wants"`
	Created     time.Time  `json:"created"`
	LastSuccess *time.Time `json:"last_success,omitempty"`
}

// export sends the signed-in user's data as a JSON download: profile,
// ratings and every game with its record and the user's own notes.
func (h *accountHandler) export(c echo.Context) error {
	d, err := h.db.ExportAccount(c.Request().Context(), currentViewer(c).ID)
	if err != nil {
		return err
	}
	out := exportData{Exported: h.now().UTC(), Devices: []exportDevice{}, Ratings: []exportRating{}, Games: []exportGame{}}
	for _, p := range d.Push {
		e := exportDevice{Device: p.Device, Endpoint: p.Endpoint, Wants: p.Wants, Created: p.Created.UTC()}
		if !p.LastSuccess.IsZero() {
			last := p.LastSuccess.UTC()
			e.LastSuccess = &last
		}
		out.Devices = append(out.Devices, e)
	}
	out.Profile.Name, out.Profile.Created, out.Profile.Admin = d.User.Name, d.User.CreatedAt, d.User.Admin
	out.Profile.Email, out.Profile.EmailVerified, out.Profile.Notifications = d.Notify.Email, d.Notify.Verified, string(d.Notify.Mode)
	out.Profile.BoardView = d.User.BoardView
	for _, r := range d.Ratings {
		out.Ratings = append(out.Ratings, exportRating{Game: r.Game, Rating: r.Rating, RD: r.RD, Games: r.Games})
	}
	base := h.base(c)
	for _, gm := range d.Games {
		g := gm.Game
		eng, err := g.Engine()
		if err != nil {
			return err
		}
		e := exportGame{ID: g.ID, URL: fmt.Sprintf("%s/games/%d", base, g.ID), Game: g.Game, Variant: g.Variant, Status: g.Status}
		if !rules.HidesInformation(eng) || g.Finished() {
			e.Record = gameRecord(eng, g, gm.Moves).String()
		}
		if gm.Note.Body != "" {
			saved := gm.Note.Updated.UTC()
			e.Notes, e.NotesSaved = gm.Note.Body, &saved
		}
		out.Games = append(out.Games, e)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="trench-%s.json"`, d.User.Name))
	return c.Blob(http.StatusOK, "application/json; charset=utf-8", append(b, '\n'))
}

// deleteAccount deletes the signed-in user's account once they confirm
// it with their password, and signs them out. Wrong passwords back off
// as at a password change (limits.passwordFor).
func (h *accountHandler) deleteAccount(c echo.Context) error {
	ctx := c.Request().Context()
	u, err := h.db.UserByID(ctx, currentViewer(c).ID)
	if err != nil {
		return err
	}
	// Wrong passwords back off as at a password change, on the same count.
	key := strconv.FormatInt(u.ID, 10)
	if wait := h.limits.passwordFor.wait(key); wait > 0 {
		err := tooMany(tr(c, "Too many wrong passwords."), wait)
		setRetryAfter(c, err)
		_, msg := statusOf(c, err)
		return h.settingsPage(c, http.StatusTooManyRequests, views.SettingsPage{Page: pageOf(c, tr(c, "Settings")), DeleteError: msg})
	}
	if bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(c.FormValue("password"))) != nil {
		h.limits.passwordFor.fail(key)
		return h.settingsPage(c, http.StatusUnauthorized, views.SettingsPage{Page: pageOf(c, tr(c, "Settings")),
			DeleteError: tr(c, "That is not your password; nothing was deleted.")})
	}
	h.limits.passwordFor.succeed(key)
	if err := h.db.DeleteAccount(ctx, u.ID, h.now()); err != nil {
		return err
	}
	if err := h.sessions.end(c); err != nil {
		return err
	}
	c.Set("viewer", viewer{BoardView: "diamond"})
	return render(c, http.StatusOK, views.NoticeView(views.NoticePage{Page: pageOf(c, tr(c, "Account deleted")), Heading: tr(c, "Account deleted"),
		OK: true, Message: tr(c, "Your account %s is deleted. Thank you for playing.", u.Name), LinkHref: "/", LinkText: tr(c, "The start page")}), nil)
}

// mailLater sends one mail to r, written in the language lang, in the
// background through the configured mail server; a failure is logged (the user can ask again), and a mail
// the mail server refused is recorded for r as the notifications' are
// (RecordMailFailure: their settings page says so).
func (a *App) mailLater(r db.Recipient, lang, subject, body string) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		err := a.sendMail(ctx, r, lang, subject, body)
		if err == nil {
			return
		}
		a.log.Error("mail: send", "to_user", r.UserID, "subject", subject, "err", err)
		var se *mail.SendError
		if !errors.As(err, &se) || se.ErrorCode() == 0 {
			return
		}
		reason := views.T(mailContext(ctx, r, ""), "the mail server answered %s", smtpReason(se))
		if err := a.db.RecordMailFailure(ctx, r.UserID, r.Email, reason, a.cfg.Now()); err != nil {
			a.log.Error("mail: record a refusal", "to_user", r.UserID, "err", err)
		}
	}()
}

// sendMail sends one mail to r, written in the language lang, now.
func (a *App) sendMail(ctx context.Context, r db.Recipient, lang, subject, body string) error {
	cfg := a.cfg.SMTP
	if cfg.Addr == "" {
		return fmt.Errorf("mail: no mail server")
	}
	msg, err := a.newMail(r, lang, subject, body+mailSignature(strings.TrimRight(a.cfg.BaseURL, "/")), a.cfg.Now())
	if err != nil {
		return fmt.Errorf("mail: compose: %w", err)
	}
	client, err := cfg.client()
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	return client.DialAndSendWithContext(ctx, msg)
}

// mailContext returns ctx in the language of a mail to r: the one r
// chose for their pages and mails, else fallback ("" for English).
func mailContext(ctx context.Context, r db.Recipient, fallback string) context.Context {
	lang := r.Language
	if lang == "" {
		lang = fallback
	}
	return views.WithLang(ctx, lang)
}

// mailHello is the first line of every mail to r and the blank line after
// it, in the language of ctx.
func mailHello(ctx context.Context, r db.Recipient) string {
	return views.T(ctx, "Hello %s,", r.Name) + "\n\n"
}

func mailSignature(base string) string {
	return "\n-- \nTrench " + base + "\n"
}
