package handlers

import (
	"net/http"
	"net/url"
	"strings"

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
	Turns     int
}

// loadUser reads the session cookie and puts the viewer in the context.
func (a *App) loadUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		v := viewer{BoardView: "diamond"}
		s, _ := a.sessions.Get(c.Request(), sessionName) // a bad cookie is a new session
		if id, ok := s.Values["uid"].(int64); ok && id > 0 {
			u, err := a.db.UserByID(c.Request().Context(), id)
			switch {
			case err == nil:
				v = viewer{ID: u.ID, Name: u.Name, BoardView: u.BoardView}
				if v.Turns, err = a.db.TurnCount(c.Request().Context(), u.ID); err != nil {
					return err
				}
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

// pageOf returns the layout's view model for the request.
func pageOf(c echo.Context, title string) views.Page {
	v := currentViewer(c)
	token, _ := c.Get("csrf").(string)
	return views.Page{Title: title, User: v.Name, TurnCount: v.Turns, CSRF: token}
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
