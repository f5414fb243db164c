package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/trench-games/trench/cmd/trench/internal/https"
	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
)

// env returns the environment variable name, or def when unset.
func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

// listFlag is a flag that may be given more than once.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// serveConfig is what `trench serve` (and `trench doctor`, which checks
// it) is given.
type serveConfig struct {
	Addr     string // the HTTP or HTTPS listener
	HTTPAddr string // with HTTPS: the plain-HTTP listener (ACME challenge, redirect); "" for none
	DB       string
	BaseURL  string
	Secure   bool // Secure cookies
	Vacation int  // days, 0 for none
	SMTP     handlers.SMTPConfig
	Replica  string
	Restore  bool
	TLS      https.Config
	// MetricsAddr is the address of /metrics, "" for none; LogFormat is
	// "text" or "json".
	MetricsAddr string
	LogFormat   string
	// MetricsToken, when not "", is the bearer token /metrics asks for.
	MetricsToken string
	// KeyFile holds the session cookie's keys ("" for the database's path
	// with .keys added); TrustedProxies are the reverse proxies whose
	// X-Forwarded-For is believed.
	KeyFile        string
	TrustedProxies []*net.IPNet
	// BotWorkers is how many computer searches may run at once; RateBots
	// makes games against the computer rated.
	BotWorkers int
	RateBots   bool
	// PageTurns is how many page reads are made at once (0: one per
	// processor).
	PageTurns int
	// NoPuzzleSearch keeps the computer from looking for puzzles in the
	// finished games.
	NoPuzzleSearch bool
	// ComputerGames is the most games one player may have in progress
	// against the computer; 0 means no limit.
	ComputerGames int
	// LiveMax and LivePerUser bound the event streams (live updates) open
	// at once: in all, and of one account (or address, signed out).
	LiveMax     int
	LivePerUser int
	// PprofAddr is a loopback address serving the Go profiler
	// (/debug/pprof/), "" for none.
	PprofAddr string
	// AdminTournaments lets only administrators create tournaments.
	AdminTournaments bool

	// ReplicaOverwrite starts the replica anew from this database even
	// when the database is behind it.
	ReplicaOverwrite bool
}

// parseServeFlags reads the flags of serve (with the environment as
// defaults) into a serveConfig. With --domain or --tls-cert, the defaults
// change: HTTPS on :443, plain HTTP on :80, Secure cookies, and with
// --domain the base URL https://DOMAIN.
func parseServeFlags(name string, args []string) (serveConfig, error) {
	var c serveConfig
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&c.Addr, "addr", env("TRENCH_ADDR", ""), "address to listen on: default localhost:8080, or :443 with --domain or --tls-cert (TRENCH_ADDR)")
	fs.StringVar(&c.HTTPAddr, "http-addr", env("TRENCH_HTTP_ADDR", ":80"), "with HTTPS, the plain-HTTP address that answers ACME challenges and redirects to HTTPS; \"\" for none (TRENCH_HTTP_ADDR)")
	fs.StringVar(&c.DB, "db", env("TRENCH_DB", "trench.db"), "SQLite database file, created on first start (TRENCH_DB)")
	fs.StringVar(&c.BaseURL, "base-url", env("TRENCH_BASE_URL", ""), "public URL of the server, e.g. https://trench.example.org; with --domain https://DOMAIN (TRENCH_BASE_URL)")
	secureDefault, _ := strconv.ParseBool(env("TRENCH_SECURE_COOKIES", "false"))
	fs.BoolVar(&c.Secure, "secure-cookies", secureDefault, "mark cookies Secure; use when serving over HTTPS, always on with --domain or --tls-cert (TRENCH_SECURE_COOKIES)")
	vacationDefault, err := strconv.Atoi(env("TRENCH_VACATION_DAYS", "20"))
	if err != nil {
		return c, fmt.Errorf("TRENCH_VACATION_DAYS: %w", err)
	}
	fs.IntVar(&c.Vacation, "vacation-days", vacationDefault, "every player's yearly vacation allowance in days, 0 for none (TRENCH_VACATION_DAYS)")
	fs.StringVar(&c.SMTP.Addr, "smtp-addr", env("TRENCH_SMTP_ADDR", ""), "mail server host:port for notifications; no e-mail when empty (TRENCH_SMTP_ADDR)")
	fs.StringVar(&c.SMTP.User, "smtp-user", env("TRENCH_SMTP_USER", ""), "user name at the mail server, if it wants one (TRENCH_SMTP_USER)")
	fs.StringVar(&c.SMTP.Password, "smtp-password", env("TRENCH_SMTP_PASSWORD", ""), "password at the mail server; prefer the environment variable (TRENCH_SMTP_PASSWORD)")
	fs.StringVar(&c.SMTP.From, "smtp-from", env("TRENCH_SMTP_FROM", ""), "sender of the notifications, e.g. \"Trench <trench@example.org>\" (TRENCH_SMTP_FROM)")
	fs.StringVar(&c.Replica, "replicate", env("TRENCH_REPLICATE", ""), "stream every committed transaction to this replica: file:///path or s3://bucket/path (TRENCH_REPLICATE)")
	restoreDefault, err := strconv.ParseBool(env("TRENCH_RESTORE_IF_MISSING", "true"))
	if err != nil {
		return c, fmt.Errorf("TRENCH_RESTORE_IF_MISSING: %w", err)
	}
	fs.BoolVar(&c.Restore, "restore-if-missing", restoreDefault, "with --replicate, restore the database from the replica when its file is missing (TRENCH_RESTORE_IF_MISSING)")
	fs.BoolVar(&c.ReplicaOverwrite, "replica-overwrite", false, "with --replicate, start even when the database is behind the replica (new or older): the replica then starts anew from this database")
	var domains listFlag
	fs.Var(&domains, "domain", "serve HTTPS for this domain with a certificate from the ACME CA; repeatable (TRENCH_DOMAIN, separated by commas)")
	fs.StringVar(&c.TLS.Directory, "acme-directory", env("TRENCH_ACME_DIRECTORY", https.LetsEncrypt), "the ACME CA's directory URL (TRENCH_ACME_DIRECTORY)")
	fs.StringVar(&c.TLS.Email, "acme-email", env("TRENCH_ACME_EMAIL", ""), "e-mail address given to the ACME CA for notices (TRENCH_ACME_EMAIL)")
	fs.StringVar(&c.TLS.DirectoryRoots, "acme-ca-roots", env("TRENCH_ACME_CA_ROOTS", ""), "PEM file of the CA certificates to trust for the ACME directory's HTTPS, for a private CA (TRENCH_ACME_CA_ROOTS)")
	fs.StringVar(&c.TLS.CertFile, "tls-cert", env("TRENCH_TLS_CERT", ""), "serve HTTPS with this PEM certificate chain, reloaded when it changes (TRENCH_TLS_CERT)")
	fs.StringVar(&c.TLS.KeyFile, "tls-key", env("TRENCH_TLS_KEY", ""), "the private key of --tls-cert, PEM (TRENCH_TLS_KEY)")
	fs.StringVar(&c.KeyFile, "key-file", env("TRENCH_KEY_FILE", ""), "file holding the session cookie's keys, created (mode 0600) on first start; default: the database's path with .keys added; the push notifications' VAPID key is kept beside it, with .vapid added (TRENCH_KEY_FILE)")
	addProxy := func(v string) error {
		n, err := parseProxy(v)
		if err != nil {
			return err
		}
		c.TrustedProxies = append(c.TrustedProxies, n)
		return nil
	}
	for _, v := range strings.FieldsFunc(env("TRENCH_TRUSTED_PROXIES", ""), func(r rune) bool { return r == ',' || r == ' ' }) {
		if err := addProxy(v); err != nil {
			return c, fmt.Errorf("TRENCH_TRUSTED_PROXIES: %w", err)
		}
	}
	fs.Func("trusted-proxy", "a reverse proxy's own address whose X-Forwarded-For is believed (a CIDR of at most /24 or /64 if it must be a range); repeat for several; none by default (TRENCH_TRUSTED_PROXIES, comma-separated)", addProxy)
	botWorkersDefault, err := strconv.Atoi(env("TRENCH_BOT_WORKERS", "1"))
	if err != nil {
		return c, fmt.Errorf("TRENCH_BOT_WORKERS: %w", err)
	}
	fs.IntVar(&c.BotWorkers, "bot-workers", botWorkersDefault, "most computer searches (moves and analyses) run at once (TRENCH_BOT_WORKERS)")
	pageTurnsDefault, err := strconv.Atoi(env("TRENCH_PAGE_TURNS", "0"))
	if err != nil {
		return c, fmt.Errorf("TRENCH_PAGE_TURNS: %w", err)
	}
	fs.IntVar(&c.PageTurns, "page-turns", pageTurnsDefault, "most page reads made at once, the others waiting their turn in order; 0: one per processor (TRENCH_PAGE_TURNS)")
	computerGamesDefault, err := strconv.Atoi(env("TRENCH_COMPUTER_GAMES", strconv.Itoa(handlers.DefaultComputerGames)))
	if err != nil {
		return c, fmt.Errorf("TRENCH_COMPUTER_GAMES: %w", err)
	}
	fs.IntVar(&c.ComputerGames, "computer-games", computerGamesDefault, "most games one player may have in progress against the computer; 0 for no limit (TRENCH_COMPUTER_GAMES)")
	rateBotsDefault, _ := strconv.ParseBool(env("TRENCH_RATE_BOT_GAMES", "false"))
	fs.BoolVar(&c.RateBots, "rate-bot-games", rateBotsDefault, "games against the computer change ratings (TRENCH_RATE_BOT_GAMES)")
	puzzleSearchDefault, err := strconv.ParseBool(env("TRENCH_PUZZLE_SEARCH", "true"))
	if err != nil {
		return c, fmt.Errorf("TRENCH_PUZZLE_SEARCH: %w", err)
	}
	puzzleSearch := fs.Bool("puzzle-search", puzzleSearchDefault, "the computer looks for puzzles in the finished games at the lowest priority, the older ones too (TRENCH_PUZZLE_SEARCH); false: only the puzzles there are")
	liveMaxDefault, err := strconv.Atoi(env("TRENCH_LIVE_MAX", strconv.Itoa(handlers.DefaultLiveMax)))
	if err != nil {
		return c, fmt.Errorf("TRENCH_LIVE_MAX: %w", err)
	}
	fs.IntVar(&c.LiveMax, "live-max", liveMaxDefault, "most pages receiving live updates at once; beyond it a page updates when reloaded (TRENCH_LIVE_MAX)")
	livePerUserDefault, err := strconv.Atoi(env("TRENCH_LIVE_PER_USER", strconv.Itoa(handlers.DefaultLivePerUser)))
	if err != nil {
		return c, fmt.Errorf("TRENCH_LIVE_PER_USER: %w", err)
	}
	fs.IntVar(&c.LivePerUser, "live-per-user", livePerUserDefault, "most pages of one player (or one address, signed out) receiving live updates at once (TRENCH_LIVE_PER_USER)")
	adminTournamentsDefault, err := strconv.ParseBool(env("TRENCH_TOURNAMENTS_BY_ADMINS_ONLY", "false"))
	if err != nil {
		return c, fmt.Errorf("TRENCH_TOURNAMENTS_BY_ADMINS_ONLY: %w", err)
	}
	fs.BoolVar(&c.AdminTournaments, "tournaments-by-admins-only", adminTournamentsDefault, "only administrators create tournaments; any signed-in player otherwise (TRENCH_TOURNAMENTS_BY_ADMINS_ONLY)")
	fs.StringVar(&c.MetricsAddr, "metrics-addr", env("TRENCH_METRICS_ADDR", ""), "address for /metrics in the Prometheus format, e.g. localhost:9090; off when empty, never on the public address (TRENCH_METRICS_ADDR)")
	fs.StringVar(&c.MetricsToken, "metrics-token", env("TRENCH_METRICS_TOKEN", ""), "bearer token /metrics asks for (401 without it); prefer the environment variable or --metrics-token-file (TRENCH_METRICS_TOKEN)")
	metricsTokenFile := fs.String("metrics-token-file", env("TRENCH_METRICS_TOKEN_FILE", ""), "file whose first line is the bearer token of /metrics (TRENCH_METRICS_TOKEN_FILE)")
	fs.StringVar(&c.PprofAddr, "pprof-addr", env("TRENCH_PPROF_ADDR", ""), "loopback address for the Go profiler (/debug/pprof/), e.g. 127.0.0.1:6060; off when empty (TRENCH_PPROF_ADDR)")
	fs.StringVar(&c.LogFormat, "log-format", env("TRENCH_LOG_FORMAT", "text"), "log format: text or json (TRENCH_LOG_FORMAT)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() != 0 {
		return c, fmt.Errorf("%s: unexpected arguments %q", name, fs.Args())
	}
	c.NoPuzzleSearch = !*puzzleSearch
	if c.MetricsToken, err = metricsToken(c.MetricsToken, *metricsTokenFile); err != nil {
		return c, err
	}
	if err := checkBaseURL(c.BaseURL); err != nil {
		return c, err
	}
	if c.PprofAddr != "" && !loopbackAddr(c.PprofAddr) {
		return c, fmt.Errorf("--pprof-addr %q: want a loopback address, e.g. 127.0.0.1:6060", c.PprofAddr)
	}
	if c.ComputerGames < 0 {
		return c, fmt.Errorf("--computer-games must be 0 (no limit) or more, not %d", c.ComputerGames)
	}
	if c.BotWorkers < 1 {
		return c, fmt.Errorf("--bot-workers must be at least 1, not %d", c.BotWorkers)
	}
	if c.PageTurns < 0 {
		return c, fmt.Errorf("--page-turns must be 0 (one per processor) or more, not %d", c.PageTurns)
	}
	if c.LiveMax < 1 || c.LivePerUser < 1 {
		return c, fmt.Errorf("--live-max and --live-per-user must be at least 1, not %d and %d", c.LiveMax, c.LivePerUser)
	}
	if len(domains) == 0 && os.Getenv("TRENCH_DOMAIN") != "" {
		domains = listFlag{os.Getenv("TRENCH_DOMAIN")}
	}
	if c.TLS.Domains, err = https.ParseDomains(domains); err != nil {
		return c, err
	}
	c.TLS.CacheDir = https.CacheDirFor(c.DB)
	if !c.TLS.Enabled() {
		if c.Addr == "" {
			c.Addr = "localhost:8080"
		}
		c.HTTPAddr = ""
		return c, nil
	}
	if c.Addr == "" {
		c.Addr = ":443"
	}
	c.Secure = true
	if c.BaseURL == "" && len(c.TLS.Domains) > 0 {
		c.BaseURL = "https://" + c.TLS.Domains[0]
		if _, port, err := net.SplitHostPort(c.Addr); err == nil && port != "443" && port != "0" {
			c.BaseURL += ":" + port
		}
	}
	return c, nil
}

// serveGCPercent is the server's garbage-collection target (GOGC).
const serveGCPercent = 400

// serve runs the server until ctx is done, then shuts it down cleanly:
// in-flight requests finish (up to 10 s) and the database is closed;
// a replica that could not take every transaction makes it an error.
func serve(ctx context.Context, args []string) (err error) {
	c, err := parseServeFlags("serve", args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil // the usage is printed: asking for it is no error
		}
		return err
	}
	logBuf := newBufferedLog(os.Stderr)
	defer logBuf.Close()
	logger, err := newLogger(logBuf, c.LogFormat)
	if err != nil {
		return err
	}
	logger = slog.New(urgentFlush{logger.Handler(), logBuf})
	warnProxyRanges(logger, c.TrustedProxies)
	var secure *https.Server
	if c.TLS.Enabled() {
		c.TLS.Logger = logger
		if secure, err = https.New(c.TLS); err != nil {
			return err
		}
	}
	// The computer's searches run on low-priority threads of their own; a
	// processor more for each keeps them from holding one the requests
	// need.
	runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + c.BotWorkers)
	// The live heap is a few tens of MiB: collecting when it has grown
	// fourfold instead of twofold spends less CPU per request for little
	// memory. GOGC in the environment still decides.
	if _, ok := os.LookupEnv("GOGC"); !ok {
		debug.SetGCPercent(serveGCPercent)
	}

	store, err := db.OpenWith(ctx, c.DB, db.Options{Replica: c.Replica, RestoreIfMissing: c.Restore,
		ReplicaOverwrite: c.ReplicaOverwrite, Logger: logger})
	if err != nil {
		return withReplicaChoice(err, c)
	}
	defer func() {
		if cerr := store.Close(); cerr != nil {
			logger.Error("database closed", "err", cerr)
			err = errors.Join(err, cerr)
		}
	}()
	e, app, err := handlers.New(ctx, store, handlers.Config{BaseURL: c.BaseURL, SecureCookies: c.Secure, Logger: logger,
		TrustedProxies: c.TrustedProxies, KeyFile: c.KeyFile, VacationDays: vacationDays(c.Vacation), AccessLog: true,
		BotWorkers: c.BotWorkers, NoPuzzleSearch: c.NoPuzzleSearch, RateBotGames: c.RateBots, ComputerGames: computerGames(c.ComputerGames), TournamentsByAdminsOnly: c.AdminTournaments,
		LiveMax: c.LiveMax, LivePerUser: c.LivePerUser, PageTurns: c.PageTurns})
	if err != nil {
		return err
	}
	warnExposedKeys(logger, c)
	var servers []*http.Server
	var listeners []net.Listener
	closeAll := func() {
		for _, ln := range listeners {
			ln.Close()
		}
	}
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return err
	}
	listeners = append(listeners, ln)
	srv := &http.Server{Handler: e, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}
	// The live updates' streams end when the server shuts down (Shutdown
	// would wait for them until its deadline).
	srv.RegisterOnShutdown(app.EndLiveStreams)
	servers = append(servers, srv)
	scheme := "http"
	if secure != nil {
		scheme = "https"
		srv.Handler = https.HSTS(e)
		srv.TLSConfig = secure.TLSConfig()
		if c.HTTPAddr != "" {
			hln, err := net.Listen("tcp", c.HTTPAddr)
			if err != nil {
				closeAll()
				return err
			}
			_, port, _ := net.SplitHostPort(ln.Addr().String())
			listeners = append(listeners, hln)
			servers = append(servers, &http.Server{Handler: secure.HTTPHandler(port), ReadHeaderTimeout: 10 * time.Second,
				ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute})
		}
	}
	if err := app.StartMail(ctx, c.SMTP, time.Minute); err != nil {
		closeAll()
		return fmt.Errorf("e-mail: %w", err)
	}
	go app.ExpireLoop(ctx, time.Minute)
	// The players' names are read ahead, once, so that the first lists
	// after a start do not read them page by page.
	go func() {
		if err := store.WarmNames(ctx); err != nil && ctx.Err() == nil {
			logger.Warn("reading the players' names ahead", "err", err)
		}
	}()
	app.StartPush(ctx)
	if secure != nil {
		// The certificates are obtained now rather than at the first
		// visit, checked every hour, and their expiry is on /metrics.
		if err := app.RegisterMetrics(secure.Collector()); err != nil {
			closeAll()
			return err
		}
		go secure.Watch(ctx, time.Hour)
	}
	// The computer players stop (their searches end) before the database
	// closes.
	botCtx, stopBots := context.WithCancel(ctx)
	botDone := make(chan struct{})
	go func() {
		defer close(botDone)
		app.ComputerLoop(botCtx, 5*time.Second)
	}()
	defer func() {
		stopBots()
		<-botDone
	}()
	if c.MetricsAddr != "" {
		stop, err := serveMetrics(c.MetricsAddr, c.MetricsToken, app.MetricsHandler(), logger)
		if err != nil {
			closeAll()
			return err
		}
		defer stop()
	}
	if c.PprofAddr != "" {
		stop, err := servePprof(c.PprofAddr, logger)
		if err != nil {
			closeAll()
			return err
		}
		defer stop()
	}
	logger.Info("serving", "url", scheme+"://"+ln.Addr().String(), "db", c.DB)
	if len(listeners) > 1 {
		logger.Info("redirecting to HTTPS", "url", "http://"+listeners[1].Addr().String())
	}
	if len(c.TLS.Domains) > 0 {
		logger.Info("certificates over ACME", "domains", strings.Join(c.TLS.Domains, ","), "directory", c.TLS.Directory, "cache", c.TLS.CacheDir)
	}
	if c.Replica != "" {
		logger.Info("replicating", "replica", db.Redact(c.Replica))
	}
	if c.BaseURL != "" {
		fmt.Fprintf(os.Stderr, "Trench is running at %s/\n", strings.TrimRight(c.BaseURL, "/"))
	} else {
		fmt.Fprintf(os.Stderr, "Trench is running at %s://%s/\n", scheme, ln.Addr())
	}

	errc := make(chan error, len(servers))
	for i, s := range servers {
		go func() {
			if i == 0 && secure != nil {
				errc <- s.ServeTLS(listeners[i], "", "") // certificates from TLSConfig; HTTP/2 on
				return
			}
			errc <- s.Serve(listeners[i])
		}()
	}
	select {
	case err := <-errc:
		closeAll()
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var errs []error
	for _, s := range servers {
		if err := s.Shutdown(sctx); err != nil {
			errs = append(errs, fmt.Errorf("shutdown: %w", err))
		}
	}
	for range servers {
		if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// newLogger returns the server's logger writing to w in format "text"
// (the default) or "json". Errors: another format.
func newLogger(w io.Writer, format string) (*slog.Logger, error) {
	switch format {
	case "", "text":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, fmt.Errorf("--log-format %q: want text or json", format)
}

// vacationDays maps the flag (0 = none) to handlers.Config (negative = none).
func vacationDays(n int) int {
	if n <= 0 {
		return -1
	}
	return n
}

// The widest trusted proxy ranges accepted, as prefix lengths: every
// machine inside a trusted range can name any client address it likes in
// X-Forwarded-For, and so get past the per-address limits.
const (
	widestProxyRange4 = 24
	widestProxyRange6 = 64
)

// parseProxy reads a --trusted-proxy value: one address ("127.0.0.1",
// "::1") or a CIDR of at most 256 IPv4 addresses ("192.0.2.0/24") or one
// IPv6 /64. A wider range is an error saying why.
func parseProxy(v string) (*net.IPNet, error) {
	if _, n, err := net.ParseCIDR(v); err == nil {
		ones, bits := n.Mask.Size()
		if (bits == 32 && ones < widestProxyRange4) || (bits == 128 && ones < widestProxyRange6) {
			return nil, fmt.Errorf("trusted proxy %s is too wide a range: every machine in it could set its own client address through X-Forwarded-For and get past the per-address limits; name the proxy's own address (at most a /%d for IPv4, a /%d for IPv6)",
				v, widestProxyRange4, widestProxyRange6)
		}
		return n, nil
	}
	ip := net.ParseIP(v)
	if ip == nil {
		return nil, fmt.Errorf("trusted proxy %q is neither a CIDR nor an address", v)
	}
	bits := 128
	if ip.To4() != nil {
		ip, bits = ip.To4(), 32
	}
	return &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)}, nil
}

// warnProxyRanges logs a warning for each trusted proxy that is a range
// rather than one address: any machine in it can set its own client
// address through X-Forwarded-For.
func warnProxyRanges(logger *slog.Logger, proxies []*net.IPNet) {
	for _, n := range proxies {
		if ones, bits := n.Mask.Size(); ones < bits {
			logger.Warn("trusted proxy is a range: every machine in it can set its own client address through X-Forwarded-For and so get past the per-address limits; name the proxy's own address if it has one",
				"range", n.String(), "addresses", uint64(1)<<min(63, bits-ones))
		}
	}
}

// loopbackAddr reports whether addr is HOST:PORT with HOST a loopback
// address or localhost.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback() || strings.EqualFold(host, "localhost")
}

// servePprof serves the Go profiler's pages on addr (loopback) until the
// returned stop is called.
func servePprof(addr string, logger *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("pprof: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			logger.Error("pprof server", "err", err)
		}
	}()
	logger.Info("pprof", "url", "http://"+ln.Addr().String()+"/debug/pprof/")
	return func() { srv.Close() }, nil
}

// computerGames is handlers.Config.ComputerGames for --computer-games n
// (0: no limit).
func computerGames(n int) int {
	if n == 0 {
		return -1
	}
	return n
}
