package handlers

import (
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/views"
)

// authHandler serves sign-up, sign-in, sign-out and the settings page.
type authHandler struct {
	db     *db.DB
	store  sessions.Store
	limits *limits
	cost   int
	now    func() time.Time
	// settingsPage renders the settings page (notifyHandler.settingsPage).
	settingsPage func(c echo.Context, status int, p views.SettingsPage) error
}

// MinPasswordLength is the shortest password accepted, in characters.
const MinPasswordLength = 8

var validName = regexp.MustCompile(`^[A-Za-z0-9_-]{3,24}$`)

// safeNext returns next if it is a local path, "/" otherwise (no open
// redirects).
func safeNext(next string) string {
	if strings.HasPrefix(next, "/") && !strings.HasPrefix(next, "//") && !strings.Contains(next, "\\") {
		return next
	}
	return "/"
}

func (h *authHandler) signUpForm(c echo.Context) error {
	return render(c, http.StatusOK, views.AuthView(views.AuthForm{Page: pageOf(c, "Sign up"), SignUp: true, Next: c.QueryParam("next")}), nil)
}

func (h *authHandler) signInForm(c echo.Context) error {
	return render(c, http.StatusOK, views.AuthView(views.AuthForm{Page: pageOf(c, "Sign in"), Next: c.QueryParam("next")}), nil)
}

// formError re-renders the sign-up or sign-in form with a message.
func formError(c echo.Context, status int, signUp bool, name, msg string) error {
	title := "Sign in"
	if signUp {
		title = "Sign up"
	}
	f := views.AuthForm{Page: pageOf(c, title), SignUp: signUp, Name: name, Error: msg, Next: c.FormValue("next")}
	return render(c, status, views.AuthView(f), nil)
}

func (h *authHandler) signUp(c echo.Context) error {
	name := strings.TrimSpace(c.FormValue("name"))
	pw := c.FormValue("password")
	if !validName.MatchString(name) {
		return formError(c, http.StatusBadRequest, true, name, `A name is 3 to 24 letters, digits, "-" or "_".`)
	}
	if db.ReservedName(name) {
		return formError(c, http.StatusBadRequest, true, name, "Names beginning with \""+db.TombstonePrefix+"\" are kept for deleted accounts; please choose another.")
	}
	if utf8.RuneCountInString(pw) < MinPasswordLength {
		return formError(c, http.StatusBadRequest, true, name, "A password needs at least 8 characters.")
	}
	if len(pw) > 72 {
		return formError(c, http.StatusBadRequest, true, name, "A password can be at most 72 bytes long.")
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(pw), h.cost)
	if err != nil {
		return err
	}
	u, err := h.db.CreateUser(c.Request().Context(), name, string(hash), h.now())
	if db.KindOf(err) == db.KindConflict {
		return formError(c, http.StatusConflict, true, name, db.Message(err))
	} else if err != nil {
		return err
	}
	if err := h.startSession(c, u); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, safeNext(c.FormValue("next")))
}

func (h *authHandler) signIn(c echo.Context) error {
	name := strings.TrimSpace(c.FormValue("name"))
	pw := c.FormValue("password")
	if ok, err := h.limits.allowAccount(name); err != nil {
		return err
	} else if !ok {
		return formError(c, http.StatusTooManyRequests, false, name, "Too many sign-in attempts for this account. Please wait a minute and try again.")
	}
	u, err := h.db.UserByName(c.Request().Context(), name)
	if err != nil && db.KindOf(err) != db.KindNotFound {
		return err
	}
	if err != nil || bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(pw)) != nil {
		return formError(c, http.StatusUnauthorized, false, name, "Wrong name or password.")
	}
	if u.Suspended() {
		return formError(c, http.StatusForbidden, false, name, "This account is suspended. Please ask the server's admin.")
	}
	if err := h.startSession(c, u); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, safeNext(c.FormValue("next")))
}

// startSession signs u in: the session carries u's id and session
// generation (db.User.SessionGen).
func (h *authHandler) startSession(c echo.Context, u db.User) error {
	s, _ := h.store.Get(c.Request(), sessionName)
	s.Values = map[any]any{"uid": u.ID, "gen": u.SessionGen}
	return s.Save(c.Request(), c.Response())
}

func (h *authHandler) signOut(c echo.Context) error {
	if err := h.endSession(c); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/")
}

// endSession signs this browser out (its session cookie is removed).
func (h *authHandler) endSession(c echo.Context) error {
	s, _ := h.store.Get(c.Request(), sessionName)
	s.Values = map[any]any{}
	s.Options.MaxAge = -1
	return s.Save(c.Request(), c.Response())
}

func (h *authHandler) settings(c echo.Context) error {
	return h.settingsPage(c, http.StatusOK, views.SettingsPage{Page: pageOf(c, "Settings"), PasswordDone: c.QueryParam("done") == "1"})
}

func (h *authHandler) changePassword(c echo.Context) error {
	v := currentViewer(c)
	fail := func(status int, msg string) error {
		return h.settingsPage(c, status, views.SettingsPage{Page: pageOf(c, "Settings"), PasswordError: msg})
	}
	u, err := h.db.UserByID(c.Request().Context(), v.ID)
	if err != nil {
		return err
	}
	if ok, err := h.limits.allowAccount(u.Name); err != nil {
		return err
	} else if !ok {
		return fail(http.StatusTooManyRequests, "Too many attempts. Please wait a minute and try again.")
	}
	if bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(c.FormValue("current"))) != nil {
		return fail(http.StatusUnauthorized, "Your current password is not right.")
	}
	pw := c.FormValue("password")
	if utf8.RuneCountInString(pw) < MinPasswordLength || len(pw) > 72 {
		return fail(http.StatusBadRequest, "A password needs 8 to 72 characters.")
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(pw), h.cost)
	if err != nil {
		return err
	}
	if err := h.db.SetPassword(c.Request().Context(), v.ID, string(hash)); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/settings?done=1")
}
