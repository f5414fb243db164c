package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
)

// lockedBuffer is a bytes.Buffer safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestMetricsLabelRoutesNotPaths: requests are counted and logged under
// their route pattern, so a feed's secret address and arbitrary unknown
// paths never reach the metrics or the log.
func TestMetricsLabelRoutesNotPaths(t *testing.T) {
	var logs lockedBuffer
	s := startServerWith(t, "", nil, func(cfg *handlers.Config, _ string) {
		cfg.AccessLog = true
		cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	c := s.newClient(t)
	c.Get("/feeds/s3cr3t-t0ken.atom")
	c.Get("/no/such/page-x1y2")
	c.SignUp("carol")
	c.Get("/")

	rec := httptest.NewRecorder()
	s.App.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	text := string(body)
	for _, want := range []string{`route="/feeds/:file"`, `route="unmatched"`, `route="/"`, "trench_players_active_24h 1"} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	for _, leak := range []string{"s3cr3t-t0ken", "page-x1y2"} {
		if strings.Contains(text, leak) {
			t.Errorf("/metrics holds the raw path %q", leak)
		}
		if strings.Contains(logs.String(), leak) {
			t.Errorf("the log holds the raw path %q", leak)
		}
	}
	if !strings.Contains(logs.String(), `msg=request method=GET route=/feeds/:file status=404`) {
		t.Errorf("no request line for the feed in the log:\n%s", logs.String())
	}
}

// TestMetricsFoldUnknownMethods: requests with methods outside HTTP's
// standard set are counted under method="OTHER", so a client inventing
// methods cannot make /metrics (and the server's memory) grow.
func TestMetricsFoldUnknownMethods(t *testing.T) {
	s := startServer(t, "", nil)
	for i := range 50 {
		req, err := http.NewRequest(fmt.Sprintf("XMETHOD%d", i), s.URL+"/", nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	res, err := http.Get(s.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()

	rec := httptest.NewRecorder()
	s.App.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	text := rec.Body.String()
	if strings.Contains(text, "XMETHOD") {
		t.Errorf("/metrics holds the invented methods: %d bytes", len(text))
	}
	if !strings.Contains(text, `method="OTHER"`) {
		t.Error(`/metrics lacks method="OTHER"`)
	}
	if !strings.Contains(text, `trench_http_requests_total{code="200",method="GET",route="/"}`) {
		t.Error("/metrics lacks the GET of /")
	}
}

// TestRequestLogDurationInMilliseconds: the JSON access log gives each
// request's time as duration_ms, a number of milliseconds, not a bare
// "duration" in nanoseconds.
func TestRequestLogDurationInMilliseconds(t *testing.T) {
	var logs lockedBuffer
	s := startServerWith(t, "", nil, func(cfg *handlers.Config, _ string) {
		cfg.AccessLog = true
		cfg.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
	})
	start := time.Now()
	s.newClient(t).Get("/")
	took := float64(time.Since(start)) / float64(time.Millisecond)
	var found bool
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if rec["msg"] != "request" || rec["route"] != "/" {
			continue
		}
		found = true
		if _, ok := rec["duration"]; ok {
			t.Errorf("the request line has a duration without its unit: %s", line)
		}
		ms, ok := rec["duration_ms"].(float64)
		if !ok || ms <= 0 || ms > took {
			t.Errorf("duration_ms = %v, want a number of milliseconds in (0, %.3f]: %s", rec["duration_ms"], took, line)
		}
	}
	if !found {
		t.Fatalf("no request line for / in the log:\n%s", logs.String())
	}
}

// TestMetricsPlayersCountsHumans: trench_players counts the accounts the
// admin page counts: people, not the computer's accounts nor deleted
// accounts.
func TestMetricsPlayersCountsHumans(t *testing.T) {
	s := startServer(t, "", nil)
	for _, name := range []string{"carol", "dave", "erin"} {
		s.newClient(t).SignUp(name)
	}
	if err := s.DB.DeleteAccount(context.Background(), mustUser(t, s, "erin"), s.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	s.App.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if text := rec.Body.String(); !strings.Contains(text, "\ntrench_players 2\n") {
		i := strings.Index(text, "\ntrench_players ")
		t.Errorf("want trench_players 2 (carol and dave), got %q", text[i+1:i+1+strings.Index(text[i+1:], "\n")])
	}
}

// failingWriter is a connection whose answer cannot be written (its
// write timeout passed, or the client closed it).
type failingWriter struct{ header http.Header }

func (w *failingWriter) Header() http.Header       { return w.header }
func (w *failingWriter) WriteHeader(int)           {}
func (w *failingWriter) Write([]byte) (int, error) { return 0, errors.New("write: broken pipe") }

// TestAccessLogSaysWhatTheClientGot: a page whose answer could not be
// written, or whose client went away before it, is logged (and counted)
// with status 499, not 200, and a client gone is not a server error.
func TestAccessLogSaysWhatTheClientGot(t *testing.T) {
	ctx := context.Background()
	store, err := db.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var logs lockedBuffer
	e, _, err := handlers.New(ctx, store, handlers.Config{AccessLog: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	e.ServeHTTP(&failingWriter{header: http.Header{}}, httptest.NewRequest("GET", "/archive", nil))
	gone, cancel := context.WithCancel(ctx)
	cancel()
	e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/archive", nil).WithContext(gone))
	e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/rules", nil))
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	var requests []string
	for _, l := range lines {
		if strings.Contains(l, "msg=request ") {
			requests = append(requests, l)
		}
		if strings.Contains(l, "request failed") {
			t.Errorf("a client gone is logged as a server error: %s", l)
		}
	}
	if len(requests) != 3 || !strings.Contains(requests[0], "route=/archive status=499") ||
		!strings.Contains(requests[1], "route=/archive status=499") || !strings.Contains(requests[2], "route=/rules status=200") {
		t.Fatalf("the access log:\n%s", logs.String())
	}
}
