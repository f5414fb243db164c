package main

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// metricsToken reads the bearer token of /metrics: the value given
// (--metrics-token, TRENCH_METRICS_TOKEN) or else the first line of
// file (--metrics-token-file, TRENCH_METRICS_TOKEN_FILE); "" for none.
// Errors: an unreadable or empty file.
func metricsToken(value, file string) (string, error) {
	if value != "" || file == "" {
		return strings.TrimSpace(value), nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("--metrics-token-file: %w", err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	if line = strings.TrimSpace(line); line == "" {
		return "", fmt.Errorf("--metrics-token-file %s: empty", file)
	}
	return line, nil
}

// serveMetrics serves h as GET /metrics on addr until the returned stop
// is called. With token not "", a request without the header
// "Authorization: Bearer TOKEN" is answered 401. An address that is not a
// loopback one (":9090" listens on every interface) gets a warning in the
// log, saying whether a token guards it.
func serveMetrics(addr, token string, h http.Handler, logger *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	if token != "" {
		h = requireBearer(token, h)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			logger.Error("metrics server", "err", err)
		}
	}()
	logger.Info("metrics", "url", "http://"+ln.Addr().String()+"/metrics", "token", token != "")
	if !loopbackAddr(addr) {
		if token == "" {
			logger.Warn("metrics: /metrics is served beyond this machine to anyone who asks; give a loopback address (localhost:9090), firewall the port, or set --metrics-token",
				"addr", addr)
		} else {
			logger.Warn("metrics: /metrics is served beyond this machine, to requests with the bearer token only", "addr", addr)
		}
	}
	return func() { srv.Close() }, nil
}

// requireBearer answers 401 to a request without "Authorization: Bearer
// token" and passes the others to next.
func requireBearer(token string, next http.Handler) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			http.Error(w, "401 unauthorized: send Authorization: Bearer TOKEN", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
