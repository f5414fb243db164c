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
	"os"
	"runtime"
	"strconv"
	"time"

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

// serve runs the server until ctx is done, then shuts it down cleanly:
// in-flight requests finish (up to 10 s) and the database is closed.
func serve(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", env("TRENCH_ADDR", "localhost:8080"), "address to listen on (TRENCH_ADDR)")
	path := fs.String("db", env("TRENCH_DB", "trench.db"), "SQLite database file, created on first start (TRENCH_DB)")
	baseURL := fs.String("base-url", env("TRENCH_BASE_URL", ""), "public URL of the server, e.g. https://trench.example.org (TRENCH_BASE_URL)")
	secureDefault, _ := strconv.ParseBool(env("TRENCH_SECURE_COOKIES", "false"))
	secure := fs.Bool("secure-cookies", secureDefault, "mark cookies Secure; use when serving over HTTPS (TRENCH_SECURE_COOKIES)")
	vacationDefault, err := strconv.Atoi(env("TRENCH_VACATION_DAYS", "20"))
	if err != nil {
		return fmt.Errorf("TRENCH_VACATION_DAYS: %w", err)
	}
	vacation := fs.Int("vacation-days", vacationDefault, "every player's yearly vacation allowance in days, 0 for none (TRENCH_VACATION_DAYS)")
	smtpAddr := fs.String("smtp-addr", env("TRENCH_SMTP_ADDR", ""), "mail server host:port for notifications; no e-mail when empty (TRENCH_SMTP_ADDR)")
	smtpUser := fs.String("smtp-user", env("TRENCH_SMTP_USER", ""), "user name at the mail server, if it wants one (TRENCH_SMTP_USER)")
	smtpPassword := fs.String("smtp-password", env("TRENCH_SMTP_PASSWORD", ""), "password at the mail server; prefer the environment variable (TRENCH_SMTP_PASSWORD)")
	smtpFrom := fs.String("smtp-from", env("TRENCH_SMTP_FROM", ""), "sender of the notifications, e.g. \"Trench <trench@example.org>\" (TRENCH_SMTP_FROM)")
	botWorkersDefault, err := strconv.Atoi(env("TRENCH_BOT_WORKERS", "1"))
	if err != nil {
		return fmt.Errorf("TRENCH_BOT_WORKERS: %w", err)
	}
	botWorkers := fs.Int("bot-workers", botWorkersDefault, "most computer searches (moves and analyses) run at once (TRENCH_BOT_WORKERS)")
	rateBotsDefault, _ := strconv.ParseBool(env("TRENCH_RATE_BOT_GAMES", "false"))
	rateBots := fs.Bool("rate-bot-games", rateBotsDefault, "games against the computer change ratings (TRENCH_RATE_BOT_GAMES)")
	replicate := fs.String("replicate", env("TRENCH_REPLICATE", ""), "stream every committed transaction to this replica: file:///path or s3://bucket/path (TRENCH_REPLICATE)")
	restoreDefault, err := strconv.ParseBool(env("TRENCH_RESTORE_IF_MISSING", "true"))
	if err != nil {
		return fmt.Errorf("TRENCH_RESTORE_IF_MISSING: %w", err)
	}
	restoreIfMissing := fs.Bool("restore-if-missing", restoreDefault, "with --replicate, restore the database from the replica when its file is missing (TRENCH_RESTORE_IF_MISSING)")
	metricsAddr := fs.String("metrics-addr", env("TRENCH_METRICS_ADDR", ""), "address for /metrics in the Prometheus format, e.g. localhost:9090; off when empty, never on the public address (TRENCH_METRICS_ADDR)")
	logFormat := fs.String("log-format", env("TRENCH_LOG_FORMAT", "text"), "log format: text or json (TRENCH_LOG_FORMAT)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *botWorkers < 1 {
		return fmt.Errorf("--bot-workers must be at least 1, not %d", *botWorkers)
	}
	logger, err := newLogger(os.Stderr, *logFormat)
	if err != nil {
		return err
	}
	// The computer's searches run on low-priority threads of their own; a
	// processor more for each keeps them from holding one the requests
	// need.
	runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + *botWorkers)

	store, err := db.OpenWith(ctx, *path, db.Options{Replica: *replicate, RestoreIfMissing: *restoreIfMissing, Logger: logger})
	if err != nil {
		return err
	}
	defer store.Close()
	e, app, err := handlers.New(ctx, store, handlers.Config{BaseURL: *baseURL, SecureCookies: *secure, Logger: logger,
		VacationDays: vacationDays(*vacation), AccessLog: true, BotWorkers: *botWorkers, RateBotGames: *rateBots})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: e, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}
	if err := app.StartMail(ctx, handlers.SMTPConfig{Addr: *smtpAddr, User: *smtpUser, Password: *smtpPassword, From: *smtpFrom}, time.Minute); err != nil {
		ln.Close()
		return fmt.Errorf("e-mail: %w", err)
	}
	go app.ExpireLoop(ctx, time.Minute)
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
	if *metricsAddr != "" {
		mln, err := net.Listen("tcp", *metricsAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("metrics: %w", err)
		}
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", app.MetricsHandler())
		msrv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() {
			if err := msrv.Serve(mln); !errors.Is(err, http.ErrServerClosed) {
				logger.Error("metrics server", "err", err)
			}
		}()
		defer msrv.Close()
		logger.Info("metrics", "url", "http://"+mln.Addr().String()+"/metrics")
	}
	logger.Info("serving", "url", "http://"+ln.Addr().String(), "db", *path)
	if *replicate != "" {
		logger.Info("replicating", "replica", db.Redact(*replicate))
	}
	fmt.Fprintf(os.Stderr, "Trench is running at http://%s/\n", ln.Addr())

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
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
