package handlers_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

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
