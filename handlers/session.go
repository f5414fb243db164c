package handlers

import (
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/views"
)

const sessionName = "trench"

// viewer is the signed-in user of a request (ID 0 for a visitor).
type viewer struct {
	ID        int64
	Name      string
	BoardView string
	Admin     bool
	// turns counts the games waiting for the viewer's move, once per
	// request and only when a page shows it.
	turns func() (int, error)
}

// loadUser reads the session cookie and puts the viewer in the context.
func (a *App) loadUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		v := viewer{BoardView: "diamond"}
		s, _ := a.sessions.Get(c.Request(), sessionName) // a bad cookie is a new session
		if id, ok := s.Values["uid"].(int64); ok && id > 0 {
			u, err := a.db.UserByID(c.Request().Context(), id)
			switch {
			case err == nil && !sessionValid(s, u):
				// Ended (a reset), suspended or deleted: a visitor.
			case err == nil:
				ctx := c.Request().Context()
				v = viewer{ID: u.ID, Name: u.Name, BoardView: u.BoardView, Admin: u.Admin,
					turns: sync.OnceValues(func() (int, error) { return a.db.TurnCount(ctx, u.ID) })}
			case db.KindOf(err) != db.KindNotFound:
				return err
			}
		} else if bv, ok := s.Values["board"].(string); ok {
			v.BoardView = bv
		}
		c.Set("viewer", v)
		return next(c)
	}
}

// sessionValid reports whether session s, signed in as u, still holds:
// the account is active (not suspended, not deleted) and the session was
// started in the account's current session generation (db.User.SessionGen;
// a session from before generations counts as 0).
func sessionValid(s *sessions.Session, u db.User) bool {
	gen, _ := s.Values["gen"].(int64)
	return u.Active() && gen == u.SessionGen
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
	return views.Page{Title: title, User: v.Name, CSRF: token, Admin: v.Admin, Announcement: announcement}
}

// limits holds the sign-in rate limits: per client address and per
// account name.
type limits struct {
	ip      *middleware.RateLimiterMemoryStore
	account *middleware.RateLimiterMemoryStore
}

func newLimits() *limits {
	return &limits{
		// 10 attempts a minute from one address, bursts of 20.
		ip: middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
			Rate: rate.Limit(10.0 / 60), Burst: 20, ExpiresIn: 30 * 60e9}),
		// 5 attempts on one account, then one every 30 s.
		account: middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
			Rate: rate.Limit(1.0 / 30), Burst: 5, ExpiresIn: 30 * 60e9}),
	}
}

// perIP limits sign-in attempts per client address.
func (l *limits) perIP(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if ok, err := l.ip.Allow(c.RealIP()); err != nil {
			return err
		} else if !ok {
			return db.Errorf(db.KindTooMany, "Too many sign-in attempts from your address. Please wait a minute and try again.")
		}
		return next(c)
	}
}

// allowAccount reports whether another sign-in attempt on name is allowed.
func (l *limits) allowAccount(name string) (bool, error) {
	return l.account.Allow(strings.ToLower(name))
}
