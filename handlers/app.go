// Package handlers is the web layer: small handler structs with their
// dependencies passed in, all routes in routes.go, one render helper and
// one error handler. The game flow (challenge → game → move → end → match)
// is written once here and in package db, against the rules interfaces.
package handlers

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"log/slog"
	"net"
	"runtime"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"

	"github.com/trench-games/trench/db"
	// The games this server offers: each registers its engine.
	_ "github.com/trench-games/trench/rules/cards"
	_ "github.com/trench-games/trench/rules/trench"
	_ "github.com/trench-games/trench/rules/trenches"
)

// Config is what the server is started with.
type Config struct {
	BaseURL       string // public URL, e.g. "https://trench.example.org"; "" for none
	SecureCookies bool   // mark cookies Secure (serve over HTTPS)
	// BcryptCost is the password hashing cost; 0 means bcrypt.DefaultCost.
	BcryptCost int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Seed returns the random seed of a new match; nil means crypto/rand.
	Seed func() int64
	// Logger receives one line per internal error; nil means slog.Default.
	Logger *slog.Logger
	// SMTP is the mail server for notifications; none when SMTP.Addr is
	// empty (see StartMail).
	SMTP SMTPConfig
	// TrustedProxies are the reverse proxies whose X-Forwarded-For is
	// believed (see clientIP); none by default.
	TrustedProxies []*net.IPNet
	// KeyFile is the file holding the session cookie's keys, created (mode
	// 0600) on first start; "" means DefaultKeyFile beside the database.
	// The VAPID key of push notifications is kept beside it
	// (VAPIDKeyFile).
	KeyFile string
	// VacationDays is every player's yearly vacation allowance in days;
	// 0 means db.DefaultVacationDays, a negative number none.
	VacationDays int
	// BotWorkers is the most searches of the computer players (moves and
	// analyses) run at once; 0 means 1.
	BotWorkers int
	// PageTurns is how many page reads are made at once (admission); 0
	// means one per processor.
	PageTurns int
	// NoPuzzleSearch keeps the computer's worker from looking for puzzles
	// in the finished games (the puzzle job): the puzzles stored, and the
	// ones shipped, are all there are.
	NoPuzzleSearch bool
	// ComputerGames is the most games one player may have in progress
	// against the computer: beyond it "Play the computer" is refused and
	// the computer declines their challenges and rematch offers. 0 means
	// DefaultComputerGames, a negative number no limit.
	ComputerGames int
	// RateBotGames makes games against the computer rated (they are not
	// by default).
	RateBotGames bool
	// TournamentsByAdminsOnly lets only the server's administrators
	// create tournaments (any signed-in player may by default).
	TournamentsByAdminsOnly bool
	// MoveNodes is the node budget of each computer move; 0 means the
	// level's own (a small budget makes tests fast).
	MoveNodes int64
	// AnalysisNodes is the search budget of each position of a game
	// analysis; 0 means the hard level's own budget.
	AnalysisNodes int64
	// AccessLog makes the server log one line per request (method, route,
	// status, duration, user id) at level Info.
	AccessLog bool
	// LiveMax is the most event streams (live updates of open pages) open
	// at once, LivePerUser the most of one account (or, signed out, of
	// one client: an IPv4 address or an IPv6 /64, and four times as many
	// of one IPv6 /48); beyond them a page is answered 429 and updates
	// when reloaded. 0 means DefaultLiveMax and DefaultLivePerUser.
	LiveMax, LivePerUser int
	// PushAllowLoopback lets push subscriptions name an endpoint on a
	// loopback address, over http:// too, and the server send to it: for
	// tests with a push service of their own. Never set it on a server
	// others use.
	PushAllowLoopback bool
	// LiveHeartbeat is how often an idle stream gets a comment line;
	// 0 means DefaultLiveHeartbeat.
	LiveHeartbeat time.Duration
}

// DefaultComputerGames is Config.ComputerGames' default: the most games
// one player may have in progress against the computer.
const DefaultComputerGames = 10

// App holds the server's dependencies.
type App struct {
	db       *db.DB
	cfg      Config
	sessions *sessionManager
	log      *slog.Logger
	limits   *limits
	computer *computer
	// computers are the computer accounts by user id.
	computers map[int64]db.Computer
	metrics   *metrics
	routeSet  map[string]struct{} // "METHOD /route/:pattern" of every route
	live      *liveHub            // the open pages' event streams
	push      *pusher             // the push notifications' sender
	traffic   traffic             // the requests being answered (the puzzle search stands aside)
	admit     *admission          // the turns in which pages are made
}

// New builds the application on an open database: it loads (or creates)
// the session keys from cfg.KeyFile and returns the configured echo server.
func New(ctx context.Context, store *db.DB, cfg Config) (*echo.Echo, *App, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Seed == nil {
		cfg.Seed = randomSeed
	}
	if cfg.BcryptCost == 0 {
		cfg.BcryptCost = bcrypt.DefaultCost
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	switch {
	case cfg.ComputerGames == 0:
		cfg.ComputerGames = DefaultComputerGames
	case cfg.ComputerGames < 0:
		cfg.ComputerGames = 0 // no limit
	}
	keyFile := cfg.KeyFile
	if keyFile == "" {
		keyFile = DefaultKeyFile(store.Path())
	}
	authKey, encKey, err := loadKeys(keyFile, cfg.Logger)
	if err != nil {
		return nil, nil, err
	}
	vapid, err := loadVAPIDKeys(VAPIDKeyFile(keyFile), cfg.Logger)
	if err != nil {
		return nil, nil, err
	}
	sm := newSessionManager(store, authKey, encKey, cfg.SecureCookies, cfg.Now)
	switch {
	case cfg.VacationDays > 0:
		store.SetVacationDays(cfg.VacationDays)
	case cfg.VacationDays < 0:
		store.SetVacationDays(0)
	}
	if err := loadStarterPuzzles(ctx, store); err != nil {
		return nil, nil, err
	}
	comps, err := store.Computers(ctx)
	if err != nil {
		return nil, nil, err
	}
	a := &App{db: store, cfg: cfg, sessions: sm, log: cfg.Logger, limits: newLimits(cfg.Now),
		computer: newComputer(store, cfg), computers: map[int64]db.Computer{}}
	for _, c := range comps {
		a.computers[c.ID] = c
	}
	a.computer.traffic = &a.traffic
	turns := cfg.PageTurns
	if turns <= 0 {
		turns = runtime.NumCPU()
	}
	a.admit = newAdmission(turns)
	a.metrics = newMetrics(store, cfg.Now, func() bool { return a.cfg.SMTP.Addr != "" })
	a.push = newPusher(store, vapid, cfg, a.metrics)
	a.live = newLiveHub(cfg, sm, cfg.Logger)
	sm.live = a.live
	a.metrics.liveStreams(a.live.open)
	a.metrics.readCache(store)
	a.metrics.pagesWaiting(a.admit.waiting.Load)
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.IPExtractor = clientIP(cfg.TrustedProxies)
	e.HTTPErrorHandler = a.handleError
	if err := a.routes(e); err != nil {
		return nil, nil, err
	}
	// Every committed write of a game or a tournament reaches the open
	// pages that show it.
	store.OnGameCommit(a.live.gamesCommitted)
	store.OnTournamentCommit(a.live.tournamentsCommitted)
	go a.live.run(ctx)
	a.routeSet = map[string]struct{}{}
	for _, r := range e.Routes() {
		a.routeSet[r.Method+" "+r.Path] = struct{}{}
	}
	return e, a, nil
}

// optimizeEvery is how often ExpireLoop refreshes the query planner's
// statistics (db.Optimize).
const optimizeEvery = 6 * time.Hour

// ExpireLoop starts the tournaments whose sign-up has ended and ends
// timed-out games every interval, and refreshes the query planner's
// statistics every optimizeEvery, until ctx is done.
func (a *App) ExpireLoop(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	optimized := time.Now()
	for {
		// The query planner's statistics follow the database as it grows.
		if time.Since(optimized) > optimizeEvery {
			optimized = time.Now()
			if err := a.db.Optimize(ctx); err != nil && ctx.Err() == nil {
				a.log.Error("optimize the database", "err", err)
			}
		}
		if n, err := a.db.StartDueTournaments(ctx, a.cfg.Now()); err != nil {
			if ctx.Err() == nil {
				a.log.Error("start tournaments", "err", err)
			}
		} else if n > 0 {
			a.log.Info("tournaments started", "count", n) // not shown
		}
		n, err := a.db.ExpireGames(ctx, a.cfg.Now())
		if ctx.Err() == nil {
			a.metrics.job("timeouts", err)
		}
		if err != nil {
			if ctx.Err() == nil {
				a.log.Error("expire games", "err", err)
			}
		} else if n > 0 {
			a.log.Info("games ended on time", "count", n) // not shown
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// StartMail checks smtp, makes it the server's mail server and sends the
// notifications due every interval (SendNotifications) until ctx is done.
// With an empty smtp.Addr it does nothing. Call it before serving.
func (a *App) StartMail(ctx context.Context, smtp SMTPConfig, interval time.Duration) error {
	if smtp.Addr == "" {
		return nil
	}
	if err := smtp.check(a.cfg.BaseURL); err != nil {
		return err
	}
	a.cfg.SMTP = smtp
	go a.MailLoop(ctx, interval)
	return nil
}

// MailLoop sends the notifications due every interval until ctx is done.
func (a *App) MailLoop(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		n, err := a.SendNotifications(ctx)
		if ctx.Err() == nil {
			a.metrics.job("mail", err)
		}
		if err != nil {
			if ctx.Err() == nil {
				a.log.Error("send notifications", "sent", n, "err", err)
			}
		} else if n > 0 {
			a.log.Info("notifications sent", "count", n) // not shown
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func randomSeed() int64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("crypto/rand: %v", err)) // never fails on supported systems
	}
	return int64(binary.LittleEndian.Uint64(b[:]))
}

// clientIP returns how the client's address is found: the peer's address,
// unless the peer is one of the trusted proxies; then the address that
// proxy added to X-Forwarded-For (the right-most entry; if that is a
// trusted proxy too, the one before it, and so on). Nothing else in
// X-Forwarded-For is believed, and without trusted proxies none of it.
func clientIP(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range trusted {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}
