package main

import (
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMetricsToken: with --metrics-token (or the first line of
// --metrics-token-file), /metrics answers 401 without the bearer token
// and 200 with it.
func TestMetricsToken(t *testing.T) {
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte("s3cret-from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--metrics-token", "s3cret"}, {"--metrics-token-file", file}} {
		c, err := parseServeFlags("serve", append([]string{"--metrics-addr", "127.0.0.1:0"}, args...))
		if err != nil {
			t.Fatal(err)
		}
		want := strings.TrimPrefix(args[1], file)
		if want == "" {
			want = "s3cret-from-file"
		}
		if c.MetricsToken != want {
			t.Fatalf("%v: token %q, want %q", args, c.MetricsToken, want)
		}
		var logs syncBuffer
		ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("trench_players 1\n")) })
		addr, stop := metricsListener(t, c.MetricsAddr, c.MetricsToken, ok, &logs)
		defer stop()
		for auth, code := range map[string]int{"": 401, "Bearer wrong": 401, "Bearer " + want: 200, want: 401} {
			req, _ := http.NewRequest("GET", "http://"+addr+"/metrics", nil)
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != code {
				t.Errorf("%v: Authorization %q answered %d, want %d", args, auth, res.StatusCode, code)
			}
		}
		if strings.Contains(logs.String(), want) {
			t.Errorf("the log holds the token: %s", logs.String())
		}
	}
	if _, err := parseServeFlags("serve", []string{"--metrics-token-file", filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Error("a missing token file is accepted")
	}
}

// TestMetricsAddrWarnsBeyondLoopback: /metrics on every interface
// (":PORT") gets a warning at start; on a loopback address it does not.
func TestMetricsAddrWarnsBeyondLoopback(t *testing.T) {
	for addr, warn := range map[string]bool{":0": true, "127.0.0.1:0": false, "localhost:0": false} {
		var logs syncBuffer
		_, stop := metricsListener(t, addr, "", http.NotFoundHandler(), &logs)
		stop()
		if got := strings.Contains(logs.String(), "level=WARN"); got != warn {
			t.Errorf("--metrics-addr %s: warned %v, want %v:\n%s", addr, got, warn, logs.String())
		}
	}
}

// metricsListener starts serveMetrics logging to logs and returns the
// address it listens on.
func metricsListener(t *testing.T, addr, token string, h http.Handler, logs *syncBuffer) (string, func()) {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(logs, nil))
	stop, err := serveMetrics(addr, token, h, logger)
	if err != nil {
		t.Fatal(err)
	}
	_, after, _ := strings.Cut(logs.String(), "url=http://")
	host, _, _ := strings.Cut(after, "/metrics")
	return strings.Replace(host, "[::]", "127.0.0.1", 1), stop
}
