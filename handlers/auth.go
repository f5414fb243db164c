package handlers

import (
	"context"
	"crypto/rand"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"github.com/mileusna/useragent"
	"golang.org/x/crypto/bcrypt"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/views"
)

// authHandler serves sign-up, sign-in, sign-out and the settings page.
type authHandler struct {
	db       *db.DB
	sessions *sessionManager
	limits   *limits
	cost     int
	now      func() time.Time
	// dummy is the hash compared against for an unknown name (dummyHash).
	dummyOnce sync.Once
	dummy     []byte
	dummyErr  error
	// secure: cookies only over HTTPS (the lesson cookie's name).
	secure bool
	// settingsPage renders the settings page (notifyHandler.settingsPage).
	settingsPage func(c echo.Context, status int, p views.SettingsPage) error
}

// MinPasswordLength is the shortest password accepted, in characters.
const MinPasswordLength = 8

var validName = regexp.MustCompile(`^[A-Za-z0-9_-]{3,24}$`)

// safeNext returns next if it is a path on this site, "/" otherwise (no
// open redirects): it must start with one "/", hold no control character
// (browsers drop tabs and newlines, so "/\t/host" would become "//host")
// nor backslash, and read as a URL with no scheme and no host.
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") ||
		strings.ContainsFunc(next, func(r rune) bool { return r == '\\' || unicode.IsControl(r) }) {
		return "/"
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") {
		return "/"
	}
	return next
}

func (h *authHandler) signUpForm(c echo.Context) error {
	return render(c, http.StatusOK, views.AuthView(views.AuthForm{Page: pageOf(c, tr(c, "Sign up")), SignUp: true, Next: c.QueryParam("next")}), nil)
}

func (h *authHandler) signInForm(c echo.Context) error {
	return render(c, http.StatusOK, views.AuthView(views.AuthForm{Page: pageOf(c, tr(c, "Sign in")), Next: c.QueryParam("next")}), nil)
}

// formError re-renders the sign-up or sign-in form with a message.
func formError(c echo.Context, status int, signUp bool, name, msg string) error {
	title := tr(c, "Sign in")
	if signUp {
		title = tr(c, "Sign up")
	}
	f := views.AuthForm{Page: pageOf(c, title), SignUp: signUp, Name: name, Error: msg, Next: c.FormValue("next")}
	return render(c, status, views.AuthView(f), nil)
}

func (h *authHandler) signUp(c echo.Context) error {
	name := strings.TrimSpace(c.FormValue("name"))
	pw := c.FormValue("password")
	if !validName.MatchString(name) {
		return formError(c, http.StatusBadRequest, true, name, tr(c, `A name is 3 to 24 letters, digits, "-" or "_".`))
	}
	if db.ReservedName(name) {
		return formError(c, http.StatusBadRequest, true, name, tr(c, "Names beginning with %q are kept for deleted accounts; please choose another.", db.TombstonePrefix))
	}
	if db.ComputerLikeName(name) {
		return formError(c, http.StatusBadRequest, true, name, tr(c, "Names beginning with %q are kept for the computer players; please choose another.", db.ComputerPrefix))
	}
	if utf8.RuneCountInString(pw) < MinPasswordLength {
		return formError(c, http.StatusBadRequest, true, name, tr(c, "A password needs at least %d characters.", MinPasswordLength))
	}
	if len(pw) > 72 {
		return formError(c, http.StatusBadRequest, true, name, tr(c, "A password can be at most %d bytes long.", 72))
	}
	if ok, wait := h.limits.signUpIP.allow(c.RealIP()); !ok {
		return tooManyForm(c, true, name, tooMany(tr(c, "Too many new accounts from your address."), wait))
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(pw), h.cost)
	if err != nil {
		return err
	}
	u, err := h.db.CreateUser(c.Request().Context(), name, string(hash), h.now())
	if db.KindOf(err) == db.KindConflict {
		_, msg := statusOf(c, err)
		return formError(c, http.StatusConflict, true, name, msg)
	} else if err != nil {
		return err
	}
	if err := h.rememberBrowserLanguage(c, u.ID); err != nil {
		return err
	}
	if err := carryLessonProgress(c, h.db, h.secure, u.ID, h.now()); err != nil {
		return err
	}
	if err := h.sessions.start(c, u.ID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, safeNext(c.FormValue("next")))
}

// tooManyForm re-renders the sign-up or sign-in form with the 429 of a
// refused attempt, saying when to try again.
func tooManyForm(c echo.Context, signUp bool, name string, err error) error {
	setRetryAfter(c, err)
	_, msg := statusOf(c, err)
	return formError(c, http.StatusTooManyRequests, signUp, name, msg)
}

// dummyHash returns a bcrypt hash of a random password at the server's
// cost, compared against when the name is unknown so that a sign-in takes
// as long for an unknown name as for a known one.
func (h *authHandler) dummyHash() ([]byte, error) {
	h.dummyOnce.Do(func() {
		h.dummy, h.dummyErr = bcrypt.GenerateFromPassword([]byte(rand.Text()), h.cost)
	})
	return h.dummy, h.dummyErr
}

// signIn checks the name and password. Attempts are limited per client
// (an IPv4 address or an IPv6 /64, with its /48 capped too) and, with a
// growing back-off after a few failures, per (client, account) pair: a
// guesser elsewhere never locks the owner out.
func (h *authHandler) signIn(c echo.Context) error {
	name := strings.TrimSpace(c.FormValue("name"))
	pw := c.FormValue("password")
	ip := c.RealIP()
	if ok, wait := h.limits.signInIP.allow(ip); !ok {
		return tooManyForm(c, false, name, tooMany(tr(c, "Too many sign-in attempts from your address."), wait))
	}
	if wait := h.limits.signInPair.wait(ip, name); wait > 0 {
		return tooManyForm(c, false, name, tooMany(tr(c, "Too many wrong passwords for this account from your address."), wait))
	}
	u, err := h.db.UserByName(c.Request().Context(), name)
	found := err == nil
	if err != nil && db.KindOf(err) != db.KindNotFound {
		return err
	}
	hash := []byte(u.PasswordHash)
	if !found {
		if hash, err = h.dummyHash(); err != nil {
			return err
		}
	}
	if bcrypt.CompareHashAndPassword(hash, []byte(pw)) != nil || !found {
		h.limits.signInPair.fail(ip, name)
		return formError(c, http.StatusUnauthorized, false, name, tr(c, "Wrong name or password."))
	}
	h.limits.signInPair.succeed(ip, name)
	if u.Suspended() {
		return formError(c, http.StatusForbidden, false, name, tr(c, "This account is suspended. Please ask the server's admin."))
	}
	if err := h.rememberBrowserLanguage(c, u.ID); err != nil {
		return err
	}
	if err := carryLessonProgress(c, h.db, h.secure, u.ID, h.now()); err != nil {
		return err
	}
	if err := h.sessions.start(c, u.ID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, safeNext(c.FormValue("next")))
}

// rememberBrowserLanguage stores the language the browser of the request
// asks for (its Accept-Language, matched to the site's languages) as
// player id's, for the mails and the feed written while they choose none.
// A request without the header changes nothing.
func (h *authHandler) rememberBrowserLanguage(c echo.Context, id int64) error {
	accept := c.Request().Header.Get("Accept-Language")
	if accept == "" {
		return nil
	}
	return h.db.SetBrowserLanguage(c.Request().Context(), id, views.MatchLanguage(accept))
}

func (h *authHandler) signOut(c echo.Context) error {
	if err := h.sessions.end(c); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/")
}

func (h *authHandler) settings(c echo.Context) error {
	return h.settingsPage(c, http.StatusOK, views.SettingsPage{Page: pageOf(c, tr(c, "Settings")), PasswordDone: c.QueryParam("done") == "1"})
}

func (h *authHandler) changePassword(c echo.Context) error {
	v := currentViewer(c)
	fail := func(status int, msg string) error {
		return h.settingsPage(c, status, views.SettingsPage{Page: pageOf(c, tr(c, "Settings")), PasswordError: msg})
	}
	u, err := h.db.UserByID(c.Request().Context(), v.ID)
	if err != nil {
		return err
	}
	key := strconv.FormatInt(u.ID, 10)
	if wait := h.limits.passwordFor.wait(key); wait > 0 {
		err := tooMany(tr(c, "Too many wrong passwords."), wait)
		setRetryAfter(c, err)
		_, msg := statusOf(c, err)
		return fail(http.StatusTooManyRequests, msg)
	}
	if bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(c.FormValue("current"))) != nil {
		h.limits.passwordFor.fail(key)
		return fail(http.StatusUnauthorized, tr(c, "Your current password is not right."))
	}
	h.limits.passwordFor.succeed(key)
	pw := c.FormValue("password")
	if utf8.RuneCountInString(pw) < MinPasswordLength || len(pw) > 72 {
		return fail(http.StatusBadRequest, tr(c, "A password needs 8 to 72 characters."))
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(pw), h.cost)
	if err != nil {
		return err
	}
	if err := h.db.SetPassword(c.Request().Context(), v.ID, string(hash), v.SessionID); err != nil {
		return err
	}
	h.sessions.live.sessionsEnded(c.Request().Context(), v.ID)
	return c.Redirect(http.StatusSeeOther, "/settings?done=1")
}

// sessionRows lists the viewer's open sessions for the settings page.
func (h *authHandler) sessionRows(c echo.Context) ([]views.SessionRow, error) {
	v := currentViewer(c)
	ss, err := h.db.Sessions(c.Request().Context(), v.ID, h.now())
	if err != nil {
		return nil, err
	}
	ctx := c.Request().Context()
	rows := make([]views.SessionRow, len(ss))
	for i, s := range ss {
		rows[i] = views.SessionRow{Device: deviceName(ctx, s.Device), IP: s.IP, Since: views.DateTime(ctx, s.CreatedAt),
			LastSeen: views.DateTime(ctx, s.LastSeen), Current: s.ID == v.SessionID}
	}
	return rows, nil
}

// deviceName describes a browser by its User-Agent, in the language of
// ctx: "Firefox 128 on Linux", or the raw string when it is not
// recognised.
func deviceName(ctx context.Context, userAgent string) string {
	ua := useragent.Parse(userAgent)
	if ua.Name == "" {
		if userAgent == "" {
			return views.T(ctx, "Unknown browser")
		}
		return userAgent
	}
	name := ua.Name
	if ua.VersionNo.Major > 0 {
		name += " " + strconv.Itoa(ua.VersionNo.Major)
	}
	if ua.OS != "" {
		name = views.T(ctx, "%s on %s|browser", name, ua.OS)
	}
	return name
}

// signOutEverywhere ends every session of the viewer, this one included,
// and sends them to the sign-in page.
func (h *authHandler) signOutEverywhere(c echo.Context) error {
	v := currentViewer(c)
	if _, err := h.db.EndSessions(c.Request().Context(), v.ID, 0); err != nil {
		return err
	}
	if err := h.sessions.end(c); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/signin")
}
