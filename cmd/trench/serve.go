package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
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
	if err := fs.Parse(args); err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))

	store, err := db.Open(ctx, *path)
	if err != nil {
		return err
	}
	defer store.Close()
	e, app, err := handlers.New(ctx, store, handlers.Config{BaseURL: *baseURL, SecureCookies: *secure, Logger: logger})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: e, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}
	go app.ExpireLoop(ctx, time.Minute)
	logger.Info("serving", "url", "http://"+ln.Addr().String(), "db", *path)
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
