package main

import (
	"bufio"
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trench-games/trench/cmd/trench/internal/bench"
)

// TestSIGTERMEndsLiveStreams starts the built server, opens a game page's
// event stream (live updates) on it and sends SIGTERM: the server ends
// the stream and exits cleanly at once, instead of waiting for the
// stream until its shutdown deadline. Skipped with -short.
func TestSIGTERMEndsLiveStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a server: not with -short")
	}
	ctx := context.Background()
	dir := t.TempDir()
	bin := filepath.Join(dir, "trench")
	if err := bench.BuildBinary(ctx, bin); err != nil {
		t.Fatal(err)
	}
	srv, err := bench.StartServerProcess(ctx, bin, filepath.Join(dir, "trench.db"), filepath.Join(dir, "server.log"), "--live-per-user", "4")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Kill()
	ld, err := bench.NewLoad(ctx, bench.LoadConfig{BaseURL: srv.URL, Users: 2, Games: 1, Clients: 1, Game: "trench", Prefix: "l" + bench.RandomTag()})
	if err != nil {
		t.Fatal(err)
	}
	if st := ld.Run(ctx, bench.RunLimits{PerGame: 1}); st.Errors > 0 {
		t.Fatalf("%d errors: %v", st.Errors, st.ErrorSamples)
	}
	hc := &http.Client{Transport: &http.Transport{Proxy: nil}}
	res, err := hc.Get(srv.URL + "/games/1/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("the stream: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
		}
	}()
	// Four more from the same address: the last is beyond --live-per-user 4.
	for i := 0; i < 4; i++ {
		r, err := hc.Get(srv.URL + "/games/1/events")
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		want := http.StatusOK
		if i == 3 {
			want = http.StatusTooManyRequests
		}
		if r.StatusCode != want {
			t.Fatalf("stream %d of one address: %d, want %d", i+2, r.StatusCode, want)
		}
	}
	start := time.Now()
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the server took %v to stop with streams open", d)
	}
	select {
	case <-ended:
	case <-time.After(2 * time.Second):
		t.Fatal("the stream is still open after the server stopped")
	}
	if log := bench.Tail(filepath.Join(dir, "server.log")); strings.Contains(log, "shutdown:") {
		t.Fatalf("the shutdown failed:\n%s", log)
	}
}
