package main

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the flush timer's goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// TestBufferedLogKeepsEveryLineInOrder: the log's lines reach stderr in
// the order they were logged; a warning or any line but a request's
// (and every line before it) at once, a request's line within a moment,
// whatever waits at shutdown.
func TestBufferedLogKeepsEveryLineInOrder(t *testing.T) {
	var out syncBuffer
	buf := newBufferedLog(&out)
	base, err := newLogger(buf, "text")
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(urgentFlush{base.Handler(), buf})
	logger.Info("request", "route", "/games/:id")
	logger.Warn("disk almost full")
	got := out.String()
	if !strings.Contains(got, "msg=request") || !strings.Contains(got, `msg="disk almost full"`) ||
		strings.Index(got, "msg=request") > strings.Index(got, "msg=\"disk almost full\"") {
		t.Fatalf("right after a warning the log holds %q, want the request line and then the warning", got)
	}
	logger.Info("request", "route", "/games/:id/move")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "/games/:id/move") {
		if time.Now().After(deadline) {
			t.Fatalf("a request's line never reached the log: %q", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	logger.Info("request", "route", "/games/:id/resign")
	logger.Info("upgrade backup", "path", "trench.db.upgrade-v18")
	if got := out.String(); !strings.Contains(got, "/games/:id/resign") || !strings.Contains(got, "upgrade-v18") {
		t.Fatalf("right after a line that is not a request's the log holds %q, want it and the request before it", got)
	}
	logger.Info("shutting down")
	if err := buf.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "shutting down") {
		t.Fatalf("the last line before shutdown is lost: %q", out.String())
	}
	logger.Error("after close")
	if !strings.Contains(out.String(), "after close") {
		t.Fatalf("a line after shutdown is lost: %q", out.String())
	}
}
