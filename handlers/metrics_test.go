package handlers_test

import (
	"bytes"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

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
