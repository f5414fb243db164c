package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/trench-games/trench/cmd/trench/internal/bench"
)

// TestMetricsAndRequestLog starts the built server with --metrics-addr and
// --log-format json, plays moves through it, and finds the counters moved
// on /metrics (which the public address does not serve) and one JSON line
// per request in the log, with no password in it. Skipped with -short.
func TestMetricsAndRequestLog(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a server: not with -short")
	}
	ctx := context.Background()
	dir := t.TempDir()
	bin := filepath.Join(dir, "trench")
	if err := bench.BuildBinary(ctx, bin); err != nil {
		t.Fatal(err)
	}
	port, err := bench.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	metricsURL := "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) + "/metrics"
	path, logPath := filepath.Join(dir, "trench.db"), filepath.Join(dir, "server.log")
	srv, err := bench.StartServerProcess(ctx, bin, path, logPath, "--metrics-addr", "127.0.0.1:"+strconv.Itoa(port), "--log-format", "json")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Kill() }()

	hc := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{Proxy: nil}}
	res, err := hc.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("the public address answers /metrics with %d, want 404", res.StatusCode)
	}

	before := scrape(t, hc, metricsURL)
	ld, err := bench.NewLoad(ctx, bench.LoadConfig{BaseURL: srv.URL, Users: 4, Games: 2, Clients: 2, Game: "mix", Prefix: "m" + bench.RandomTag()})
	if err != nil {
		t.Fatal(err)
	}
	st := ld.Run(ctx, bench.RunLimits{PerGame: 4})
	if st.Errors > 0 || st.Moves == 0 {
		t.Fatalf("%d moves, %d errors: %v", st.Moves, st.Errors, st.ErrorSamples)
	}
	// A request is counted once its answer has been written, which the
	// client may have read in full a moment before: scrape until the last
	// move's request is counted (or a second has passed).
	postsOf := func(m map[string]*dto.MetricFamily) float64 {
		return sum(m, "trench_http_requests_total", map[string]string{"method": "POST", "route": "/games/:id/move", "code": "200"})
	}
	after := scrape(t, hc, metricsURL)
	for end := time.Now().Add(time.Second); postsOf(after) < float64(st.Moves) && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
		after = scrape(t, hc, metricsURL)
	}

	moves := func(m map[string]*dto.MetricFamily) float64 { return sum(m, "trench_moves_total", nil) }
	if got := moves(after) - moves(before); got < float64(st.Moves) {
		t.Errorf("trench_moves_total rose by %v, want at least the %d moves played", got, st.Moves)
	}
	posts := postsOf(after)
	if posts < float64(st.Moves) {
		t.Errorf("trench_http_requests_total for POST /games/:id/move code 200 = %v, want ≥ %d", posts, st.Moves)
	}
	if sum(after, "trench_games_active", nil) < 1 {
		t.Error("trench_games_active shows no game being played")
	}
	if got := sum(after, "trench_players_active_24h", nil); got < 4 {
		t.Errorf("trench_players_active_24h = %v, want the 4 players", got)
	}
	if got := sum(after, "trench_players", nil); got < 4 {
		t.Errorf("trench_players = %v, want 4", got)
	}
	if c := histCount(after, "trench_sqlite_commit_duration_seconds") - histCount(before, "trench_sqlite_commit_duration_seconds"); c < uint64(st.Moves) {
		t.Errorf("%d commits timed, want at least one per move (%d)", c, st.Moves)
	}
	if histCount(after, "trench_http_request_duration_seconds") == 0 {
		t.Error("no request latency observed")
	}
	for _, name := range []string{"trench_replication_lag_seconds", "trench_jobs_due", "trench_challenges_open", "go_goroutines"} {
		if _, ok := after[name]; !ok {
			t.Errorf("/metrics lacks %s", name)
		}
	}

	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	requests := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, bench.Password) {
			t.Errorf("the log holds a password: %s", line)
		}
		if !strings.HasPrefix(line, "{") {
			continue // the start-up banner is not a log record
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Errorf("a log line is not JSON: %q", line)
			continue
		}
		if rec["msg"] != "request" {
			continue
		}
		requests++
		for _, k := range []string{"method", "route", "status", "duration_ms", "user"} {
			if _, ok := rec[k]; !ok {
				t.Errorf("request line without %s: %s", k, line)
			}
		}
		if r, _ := rec["route"].(string); strings.HasPrefix(r, "/feeds/") && r != "/feeds/:file" {
			t.Errorf("a feed's secret address in the log: %s", line)
		}
	}
	if requests < st.Moves {
		t.Errorf("%d request lines in the log, want at least one per move (%d)", requests, st.Moves)
	}
}

// scrape reads the metrics at u.
func scrape(t *testing.T, hc *http.Client, u string) map[string]*dto.MetricFamily {
	t.Helper()
	res, err := hc.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", u, res.Status)
	}
	var p expfmt.TextParser
	m, err := p.TextToMetricFamilies(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// sum adds the counter or gauge values of family name whose labels include
// want.
func sum(m map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	total := 0.0
	f, ok := m[name]
	if !ok {
		return 0
	}
next:
	for _, x := range f.GetMetric() {
		labels := map[string]string{}
		for _, l := range x.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if labels[k] != v {
				continue next
			}
		}
		switch {
		case x.Counter != nil:
			total += x.Counter.GetValue()
		case x.Gauge != nil:
			total += x.Gauge.GetValue()
		}
	}
	return total
}

// histCount adds the sample counts of histogram family name.
func histCount(m map[string]*dto.MetricFamily, name string) uint64 {
	var n uint64
	if f, ok := m[name]; ok {
		for _, x := range f.GetMetric() {
			n += x.GetHistogram().GetSampleCount()
		}
	}
	return n
}
