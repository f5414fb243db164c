package handlers

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/trench-games/trench/static"
)

// routes registers every route of the server. Errors: a middleware's
// settings are refused.
func (a *App) routes(e *echo.Echo) error {
	e.Pre(headAsGet)
	e.Use(a.observe)
	encode, err := compress()
	if err != nil {
		return err
	}
	e.Use(encode)
	e.Use(a.admit.middleware)
	e.Use(middleware.RecoverWithConfig(middleware.RecoverConfig{DisableStackAll: true, LogErrorFunc: a.logPanic}))
	e.Use(securityHeaders)

	e.GET("/static/*", echo.WrapHandler(static.Handler()))
	// The service worker and the manifest live at the root: a worker's
	// scope is the folder it is served from.
	e.GET("/sw.js", serviceWorker)
	e.GET("/manifest.webmanifest", manifest)
	e.GET("/healthz", func(c echo.Context) error { return c.String(http.StatusOK, "ok\n") })

	site := e.Group("", middleware.BodyLimit("64K"), csrfNotInAddress, a.csrf(), a.loadUser, a.loadAnnouncement)
	auth := &authHandler{db: a.db, sessions: a.sessions, limits: a.limits, cost: a.cfg.BcryptCost, now: a.cfg.Now, secure: a.cfg.SecureCookies}
	pages := &pageHandler{db: a.db, now: a.cfg.Now, live: a.live, pushKey: a.push.keys.Public}
	challenges := &challengeHandler{db: a.db, now: a.cfg.Now, seed: a.cfg.Seed, rateBots: a.cfg.RateBotGames}
	games := &gameHandler{db: a.db, now: a.cfg.Now, sessions: a.sessions, computers: a.computers, wake: a.computer.Wake, hub: a.live}
	archive := &archiveHandler{db: a.db, now: a.cfg.Now}

	site.GET("/", pages.home)
	prefs := &preferenceHandler{db: a.db, secure: a.cfg.SecureCookies}
	site.POST("/language", prefs.setLanguage)
	site.POST("/settings/theme", prefs.setTheme, requireUser)
	site.GET("/events", a.live.dashboardEvents, requireUser)
	site.GET("/rules", pages.rules)
	site.GET("/rules/:game", pages.rules)

	learn := &lessonHandler{db: a.db, now: a.cfg.Now, secure: a.cfg.SecureCookies}
	site.GET("/learn", learn.index)
	site.GET("/learn/:game", learn.course)
	site.GET("/learn/:game/play", learn.final)
	site.GET("/learn/:game/:n", learn.step)

	puzzle := &puzzleHandler{db: a.db, now: a.cfg.Now, secure: a.cfg.SecureCookies}
	site.GET("/puzzles", puzzle.index)
	site.GET("/puzzles/:game", puzzle.next)
	site.GET("/puzzles/:game/:id", puzzle.show)
	site.POST("/puzzles/:game/:id/move", puzzle.move)

	site.GET("/signup", auth.signUpForm)
	site.POST("/signup", auth.signUp)
	site.GET("/signin", auth.signInForm)
	site.POST("/signin", auth.signIn)
	site.POST("/signout", auth.signOut)
	site.GET("/settings", auth.settings, requireUser)
	site.POST("/settings/password", auth.changePassword, requireUser)
	notify := &notifyHandler{db: a.db, now: a.cfg.Now, baseURL: a.cfg.BaseURL, mailOn: func() bool { return a.cfg.SMTP.Addr != "" },
		pushKey: a.push.keys.Public}
	auth.settingsPage = notify.settingsPage
	notify.sessionRows = auth.sessionRows
	site.POST("/settings/signout-everywhere", auth.signOutEverywhere, requireUser)
	site.POST("/settings/notifications", notify.saveNotify, requireUser)
	site.POST("/settings/feed", notify.regenerateFeed, requireUser)
	push := &pushHandler{db: a.db, push: a.push, now: a.cfg.Now, settingsPage: notify.settingsPage}
	site.POST("/settings/push", push.subscribe, requireUser)
	site.GET("/offline", offline)
	site.POST("/settings/push/:id/delete", push.unsubscribe, requireUser)
	site.POST("/settings/push/:id/wants", push.setWants, requireUser)
	site.POST("/settings/moves", games.setConfirm, requireUser)
	mailOn := func() bool { return a.cfg.SMTP.Addr != "" }
	account := &accountHandler{db: a.db, sessions: a.sessions, limits: a.limits, cost: a.cfg.BcryptCost, now: a.cfg.Now,
		mailOn: mailOn, mail: a.mailLater, base: notify.base, settingsPage: notify.settingsPage}
	site.GET("/reset", account.resetForm)
	site.POST("/reset", account.requestReset)
	site.GET("/reset/:token", account.resetPasswordForm)
	site.POST("/reset/:token", account.resetPassword)
	site.GET("/verify/:token", account.verify)
	site.POST("/settings/email/verify", account.sendVerification, requireUser)
	site.GET("/settings/export", account.export, requireUser)
	site.POST("/settings/delete", account.deleteAccount, requireUser)

	admin := &adminHandler{db: a.db, now: a.cfg.Now, mailOn: mailOn, mail: a.mailLater, base: notify.base, live: a.live}
	site.GET("/admin", admin.show, requireAdmin)
	site.POST("/admin/announcement", admin.announce, requireAdmin)
	site.POST("/admin/users/:id/:action", admin.user, requireAdmin)
	site.POST("/admin/challenges/:id/remove", admin.removeChallenge, requireAdmin)
	site.POST("/admin/reports/:id/dismiss", admin.dismissReport, requireAdmin)
	site.POST("/admin/messages/:id/delete", admin.deleteMessage, requireAdmin)
	// The feed needs no session: its secret address is the credential.
	e.GET("/feeds/:file", notify.feed)

	vacation := &vacationHandler{db: a.db, now: a.cfg.Now}
	site.GET("/vacation", vacation.show, requireUser)
	site.POST("/vacation/start", vacation.start, requireUser)
	site.POST("/vacation/end", vacation.end, requireUser)

	site.GET("/challenges/new", challenges.form, requireUser)
	site.POST("/challenges", challenges.create, requireUser)
	site.POST("/challenges/:id/accept", challenges.accept, requireUser)
	site.POST("/challenges/:id/decline", challenges.decline, requireUser)
	site.POST("/challenges/:id/cancel", challenges.cancel, requireUser)

	computer := &computerHandler{db: a.db, now: a.cfg.Now, seed: a.cfg.Seed, rated: a.cfg.RateBotGames, maxGames: a.cfg.ComputerGames, wake: a.computer.Wake}
	site.POST("/computer", computer.start, requireUser)
	analysis := &analysisHandler{games: games, db: a.db, now: a.cfg.Now, nodes: a.cfg.AnalysisNodes, wake: a.computer.Wake}
	site.GET("/games/:id/analysis/panel", analysis.panel)
	board := &analysisBoardHandler{db: a.db, matchScore: a.computer.matchScore, evals: make(chan struct{}, 1)}
	site.GET("/games/:id/analysis", board.board)
	site.POST("/games/:id/analysis", analysis.queue, requireUser)

	site.GET("/games/:id", games.show)
	site.GET("/games/:id/live", games.live)
	site.GET("/games/:id/events", a.live.gameEvents)
	site.POST("/games/:id/view", games.setView)
	site.POST("/games/:id/move", games.move, requireUser)
	site.POST("/games/:id/resign", games.resign, requireUser)
	site.POST("/games/:id/plan", games.plan, requireUser)
	site.POST("/games/:id/notes", games.notes, requireUser)
	site.POST("/games/:id/armistice/:action", games.armistice, requireUser)
	site.POST("/games/:id/takeback/:action", games.takeback, requireUser)
	site.GET("/matches/:id", games.match)

	social := &socialHandler{games: games, db: a.db, now: a.cfg.Now, seed: a.cfg.Seed}
	site.GET("/games/:id/social", social.live, requireUser)
	site.POST("/games/:id/messages", social.send, requireUser)
	site.POST("/games/:id/messages/:mid/report", social.report, requireUser)
	site.POST("/games/:id/rematch/:action", social.rematch, requireUser)

	site.GET("/archive", archive.archive)
	competition := &competitionHandler{db: a.db, now: a.cfg.Now}
	site.GET("/leaderboard", func(c echo.Context) error { return c.Redirect(http.StatusSeeOther, "/leaderboard/trench") })
	site.GET("/leaderboard/:game", competition.leaderboard)
	site.GET("/players", competition.directory)
	tournaments := &tournamentHandler{db: a.db, now: a.cfg.Now, seed: a.cfg.Seed, adminsOnly: a.cfg.TournamentsByAdminsOnly,
		rateBots: a.cfg.RateBotGames, wake: a.computer.Wake, live: a.live}
	site.GET("/tournaments", tournaments.list)
	site.GET("/tournaments/new", tournaments.form, requireUser)
	site.POST("/tournaments", tournaments.create, requireUser)
	site.GET("/tournaments/:id", tournaments.show)
	site.GET("/tournaments/:id/events", a.live.tournamentEvents)
	site.POST("/tournaments/:id/:action", tournaments.act, requireUser)
	site.GET("/players/:name", archive.player)
	a.live.render = &liveRenderer{e: e, db: a.db, games: games, pages: pages, tournaments: tournaments}
	site.GET("/games/:id/record", archive.record)
	site.GET("/games/:id/position.svg", archive.image)
	site.GET("/games/:id/position.png", archive.png)
	return nil
}

// csrf protects every state-changing request, with or without htmx: the
// token travels in a cookie and in each form's _csrf field (or the
// X-CSRF-Token header); browsers' same-origin fetch metadata is accepted
// too.
func (a *App) csrf() echo.MiddlewareFunc {
	return middleware.CSRFWithConfig(middleware.CSRFConfig{
		TokenLookup:    "form:_csrf,header:X-CSRF-Token", // not shown
		CookieName:     cookieName("_csrf", a.cfg.SecureCookies),
		CookiePath:     "/",
		CookieMaxAge:   int((60 * 24 * time.Hour).Seconds()),
		CookieHTTPOnly: true,
		CookieSecure:   a.cfg.SecureCookies,
		CookieSameSite: http.SameSiteLaxMode,
		ErrorHandler: func(err error, c echo.Context) error {
			return echo.NewHTTPError(http.StatusForbidden,
				tr(c, "This form has expired or did not come from this site. Reload the page and try again."))
		},
	})
}

// csrfNotInAddress removes _csrf from the address of a state-changing
// request before the CSRF check, which would otherwise read it there too:
// the token counts only in the form body or the X-CSRF-Token header (an
// address leaks into logs, history and Referer headers).
func csrfNotInAddress(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		default:
			if q := r.URL.Query(); q.Has("_csrf") {
				q.Del("_csrf")
				r.URL.RawQuery = q.Encode()
				r.Form = nil
			}
		}
		return next(c)
	}
}

// securityHeaders sets a strict Content-Security-Policy (no inline script
// or style), forbids framing and MIME sniffing, and limits the referrer.
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "+
			"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		if !strings.HasPrefix(c.Request().URL.Path, "/static/") {
			h.Set("Cache-Control", "no-store")
			h.Add("Vary", "HX-Request")
		}
		return next(c)
	}
}

// headAsGet routes a HEAD request as the GET of the same address, so that
// every page answers HEAD: the handler runs as for GET and the body it
// writes is dropped, leaving the status and headers.
func headAsGet(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if r := c.Request(); r.Method == http.MethodHead {
			r.Method = http.MethodGet
			c.Response().Writer = noBody{c.Response().Writer}
		}
		return next(c)
	}
}

// noBody is a ResponseWriter that drops the body.
type noBody struct{ http.ResponseWriter }

func (noBody) Write(p []byte) (int, error) { return len(p), nil }

// Unwrap lets http.ResponseController reach the server's writer.
func (w noBody) Unwrap() http.ResponseWriter { return w.ResponseWriter }
