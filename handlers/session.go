package handlers

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/gorilla/securecookie"
	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/views"
)

const sessionName = "trench"

// SessionLifetime is how long a session lasts after the last visit: the
// cookie's Max-Age and the server-side record's end, both renewed while
// the player keeps coming back (at most every sessionRenewAfter).
const SessionLifetime = 60 * 24 * time.Hour

// sessionRenewAfter is how often a session in use is renewed (a write to
// the database and a fresh cookie).
const sessionRenewAfter = time.Hour

// viewer is the signed-in user of a request (ID 0 for a visitor).
type viewer struct {
	ID        int64
	Name      string
	BoardView string
	Admin     bool
	// ConfirmMoves: a completed move waits for "Send move".
	ConfirmMoves bool
	// Language is the player's chosen language ("" follows the browser);
	// Theme their colour theme ("system", "light", "dark"; "" for a
	// visitor, who gets the system's).
	Language, Theme string
	// SessionID is the server-side session of the request (0 for a visitor).
	SessionID int64
	// turns counts the games waiting for the viewer's move, once per
	// request and only when a page shows it.
	turns func() (int, error)
}

// sessionManager keeps sessions: a signed cookie carrying a random token,
// and a record on the server (db.Session) under the token's SHA-256.
type sessionManager struct {
	cookies *sessions.CookieStore
	db      *db.DB
	now     func() time.Time
	// decoded remembers what recent cookies said: checking a cookie's
	// signature and decrypting it costs more than the rest of a request's
	// reading of its viewer.
	decodedMu sync.Mutex
	decoded   map[string]decodedCookie
	// live holds the open pages' event streams, closed when their session
	// ends (nil: none).
	live *liveHub
}

// decodedCookie is what a valid session cookie says, and until when that
// answer is kept.
type decodedCookie struct {
	token, board string
	until        time.Time
}

// decodedFor is how long a cookie's decoding is kept, and maxDecoded how
// many are kept at once.
const (
	decodedFor = time.Minute
	maxDecoded = 10_000
)

// cookieValues returns the session token and the board view the request's
// session cookie carries ("" for none or a bad cookie).
func (m *sessionManager) cookieValues(r *http.Request) (token, board string) {
	raw, err := r.Cookie(sessionName)
	if err != nil {
		return "", ""
	}
	now := time.Now()
	m.decodedMu.Lock()
	e, ok := m.decoded[raw.Value]
	m.decodedMu.Unlock()
	if ok && now.Before(e.until) {
		return e.token, e.board
	}
	values := map[any]any{}
	if err := securecookie.DecodeMulti(sessionName, raw.Value, &values, m.cookies.Codecs...); err != nil {
		return "", "" // a bad cookie is a new session
	}
	e.token, _ = values["sid"].(string)
	e.board, _ = values["board"].(string)
	e.until = now.Add(decodedFor)
	m.decodedMu.Lock()
	if m.decoded == nil || len(m.decoded) >= maxDecoded {
		m.decoded = map[string]decodedCookie{}
	}
	m.decoded[raw.Value] = e
	m.decodedMu.Unlock()
	return e.token, e.board
}

// newSessionManager returns the session manager signing cookies with the
// keys given; cookies are HttpOnly, SameSite=Lax, Secure when secure.
func newSessionManager(store *db.DB, authKey, encKey []byte, secure bool, now func() time.Time) *sessionManager {
	cs := sessions.NewCookieStore(authKey, encKey)
	// MaxAge sets the cookie's Max-Age and the age past which a cookie's
	// signed timestamp is refused, so that both say the same.
	cs.MaxAge(int(SessionLifetime.Seconds()))
	cs.Options.HttpOnly = true
	cs.Options.Secure = secure
	cs.Options.SameSite = http.SameSiteLaxMode
	return &sessionManager{cookies: cs, db: store, now: now}
}

func tokenHash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// load returns the viewer of the request: the user of a session that is
// still open on the server, renewing it when it was last renewed more
// than sessionRenewAfter ago; a visitor otherwise.
func (m *sessionManager) load(c echo.Context) (viewer, error) {
	v := viewer{BoardView: "diamond"}
	token, bv := m.cookieValues(c.Request())
	if bv == "diamond" || bv == "square" {
		v.BoardView = bv
	}
	if token == "" {
		return v, nil
	}
	ctx := c.Request().Context()
	now := m.now()
	sess, u, err := m.db.SessionByToken(ctx, tokenHash(token), now)
	if db.KindOf(err) == db.KindNotFound {
		return v, nil
	} else if err != nil {
		return v, err
	}
	if !u.Active() {
		return v, nil // suspended or deleted
	}
	if now.Sub(sess.LastSeen) >= sessionRenewAfter || sess.IP != c.RealIP() {
		err := m.db.TouchSession(ctx, sess.ID, c.RealIP(), now, now.Add(SessionLifetime))
		if db.KindOf(err) == db.KindNotFound {
			return v, nil // ended meanwhile
		} else if err != nil {
			return v, err
		}
		if now.Sub(sess.LastSeen) >= sessionRenewAfter {
			s, _ := m.cookies.Get(c.Request(), sessionName)
			if err := s.Save(c.Request(), c.Response()); err != nil {
				return v, err
			}
		}
	}
	return viewer{ID: u.ID, Name: u.Name, BoardView: u.BoardView, ConfirmMoves: u.ConfirmMoves, Language: u.Language, Theme: u.Theme, Admin: u.Admin, SessionID: sess.ID,
		turns: sync.OnceValues(func() (int, error) { return m.db.TurnCount(ctx, u.ID) })}, nil
}

// open reports whether the session of token hash th is still open, as
// one of account uid, and the account active (not suspended or deleted).
// Errors: reading the session.
func (m *sessionManager) open(ctx context.Context, th []byte, uid int64) (bool, error) {
	_, u, err := m.db.SessionByToken(ctx, th, m.now())
	if db.KindOf(err) == db.KindNotFound {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return u.ID == uid && u.Active(), nil
}

// start signs user uid in: a new session on the server and a cookie with
// its token (replacing the request's session, if any, which ends).
func (m *sessionManager) start(c echo.Context, uid int64) error {
	if v := currentViewer(c); v.SessionID != 0 {
		if err := m.db.EndSession(c.Request().Context(), v.ID, v.SessionID); err != nil {
			return err
		}
		m.live.sessionsEnded(c.Request().Context(), v.ID)
	}
	token := rand.Text()
	r := c.Request()
	if _, err := m.db.CreateSession(r.Context(), uid, tokenHash(token), r.UserAgent(), c.RealIP(), m.now(), SessionLifetime); err != nil {
		return err
	}
	s, _ := m.cookies.Get(r, sessionName)
	s.Values = map[any]any{"sid": token}
	return s.Save(r, c.Response())
}

// end signs the request's viewer out: their session ends on the server and
// the cookie is removed.
func (m *sessionManager) end(c echo.Context) error {
	if v := currentViewer(c); v.SessionID != 0 {
		if err := m.db.EndSession(c.Request().Context(), v.ID, v.SessionID); err != nil {
			return err
		}
		// The sessions ended with this one (everywhere, a deleted
		// account) close their streams too.
		m.live.sessionsEnded(c.Request().Context(), v.ID)
	}
	s, _ := m.cookies.Get(c.Request(), sessionName)
	s.Values = map[any]any{}
	s.Options.MaxAge = -1
	return s.Save(c.Request(), c.Response())
}

// setBoardView keeps a visitor's board view in their cookie.
func (m *sessionManager) setBoardView(c echo.Context, view string) error {
	s, _ := m.cookies.Get(c.Request(), sessionName)
	s.Values["board"] = view
	return s.Save(c.Request(), c.Response())
}

// loadUser reads the session cookie and puts the viewer in the context,
// and the language of the pages in the request's context (views.Lang):
// the player's setting, else a visitor's choice (the lang cookie), else
// the browser's Accept-Language, else English.
func (a *App) loadUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		v, err := a.sessions.load(c)
		if err != nil {
			return err
		}
		c.Set("viewer", v)
		setLanguage(c, v.Language)
		return next(c)
	}
}

// setLanguage puts the language of the pages in the request's context
// (views.Lang): chosen, when a code; else a visitor's choice (the lang
// cookie); else the browser's Accept-Language; else English.
func setLanguage(c echo.Context, chosen string) {
	r := c.Request()
	lang := chosen
	if lang == "" {
		if ck, err := r.Cookie(langCookie); err == nil && views.IsLanguage(ck.Value) {
			lang = ck.Value
		}
	}
	if lang == "" {
		lang = views.MatchLanguage(r.Header.Get("Accept-Language"))
	}
	c.SetRequest(r.WithContext(views.WithLang(r.Context(), lang)))
	c.Set("lang", lang)
	h := c.Response().Header()
	h.Set("Content-Language", lang)
	h.Add("Vary", "Accept-Language")
}

// langCookie keeps a visitor's choice of language (a code of
// views.Languages).
const langCookie = "lang"

// tr returns the message msg in the language of the request, formatted
// with args (views.T).
func tr(c echo.Context, msg string, args ...any) string {
	return views.T(c.Request().Context(), msg, args...)
}

// trn returns the plural form of msg for count in the language of the
// request, formatted with args (views.TN).
func trn(c echo.Context, msg string, count int, args ...any) string {
	return views.TN(c.Request().Context(), msg, count, args...)
}

// loadAnnouncement puts the server's announcement in the context, for
// every page to show.
func (a *App) loadAnnouncement(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		text, err := a.db.Announcement(c.Request().Context())
		if err != nil {
			return err
		}
		c.Set("announcement", text)
		return next(c)
	}
}

func currentViewer(c echo.Context) viewer {
	v, _ := c.Get("viewer").(viewer)
	return v
}

// requireUser sends a visitor to the sign-in page (GET) or answers 401.
func requireUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if currentViewer(c).ID != 0 {
			return next(c)
		}
		if c.Request().Method == http.MethodGet {
			return c.Redirect(http.StatusSeeOther, "/signin?next="+url.QueryEscape(c.Request().URL.RequestURI()))
		}
		return db.Errorf(db.KindUnauthorized, "Please sign in first.")
	}
}

// pageOf returns the layout's view model for the request, with the count
// of games waiting for the viewer's move (for the navigation bar).
func pageOf(c echo.Context, title string) views.Page {
	p := basePage(c, title)
	if v := currentViewer(c); v.turns != nil {
		n, err := v.turns()
		if err != nil {
			// The page is still useful without the count.
			c.Logger().Errorf("turn count: %v", err)
		}
		p.TurnCount = n
	}
	return p
}

// basePage is pageOf without the turn count: for a fragment that does not
// show it.
func basePage(c echo.Context, title string) views.Page {
	v := currentViewer(c)
	token, _ := c.Get("csrf").(string)
	announcement, _ := c.Get("announcement").(string)
	theme := v.Theme
	if theme == "system" {
		theme = ""
	}
	return views.Page{Title: title, User: v.Name, CSRF: token, Admin: v.Admin, Announcement: announcement,
		Path: c.Request().URL.RequestURI(), Theme: theme}
}
