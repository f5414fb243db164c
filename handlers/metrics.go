package handlers

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
)

// metrics holds the server's Prometheus instruments. The figures kept in
// the database (games, challenges, players, jobs due, replication) are
// read when /metrics is scraped; requests, jobs run and commits are
// counted as they happen.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec   // by method, route, status code
	latency  *prometheus.HistogramVec // seconds, by method and route
	commits  prometheus.Histogram     // seconds per SQLite commit
	jobs     *prometheus.CounterVec   // runs of background jobs, by job and result
	push     *prometheus.CounterVec   // push notices, by result and reason

	mu   sync.Mutex
	seen map[int64]time.Time // signed-in user → last request
}

// newMetrics registers the instruments and the database collector of
// store on a registry of their own.
func newMetrics(store *db.DB, now func() time.Time, smtpOn func() bool) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "trench_http_requests_total",
			Help: "HTTP requests answered, by method, route and status code.", // not shown
		}, []string{"method", "route", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "trench_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by method and route.", // not shown
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "route"}),
		commits: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "trench_sqlite_commit_duration_seconds",
			Help:    "Time SQLite takes to commit a write transaction (make it durable).", // not shown
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1},
		}),
		jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "trench_job_runs_total",
			Help: "Rounds of the background jobs (timeouts, mail, …), by job and result (ok or error).", // not shown
		}, []string{"job", "result"}),
		push: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "trench_push_notices_total",
			Help: "Push notices handed to push services, by result (sent, failed, removed) and reason.", // not shown
		}, []string{"result", "reason"}),
		seen: map[int64]time.Time{},
	}
	m.reg.MustRegister(m.requests, m.latency, m.commits, m.jobs, m.push,
		&storeCollector{db: store, now: now, smtpOn: smtpOn, seen: m.activePlayers})
	store.ObserveCommits(func(d time.Duration) { m.commits.Observe(d.Seconds()) })
	return m
}

// handler serves the registry together with the default one, which holds
// the Go runtime, the process and Litestream's own metrics (renamed, see
// litestreamGatherer).
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(prometheus.Gatherers{m.reg, litestreamGatherer{prometheus.DefaultGatherer}},
		promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

// litestreamNames maps Litestream's metric names to ours, named as
// Prometheus asks (a unit, counters ending in _total); a litestream_
// family not in the map is left out.
var litestreamNames = map[string]string{
	"litestream_db_size":                            "trench_litestream_db_size_bytes",
	"litestream_wal_size":                           "trench_litestream_wal_size_bytes",
	"litestream_total_wal_bytes":                    "trench_litestream_wal_written_bytes_total",
	"litestream_txid":                               "trench_litestream_txid",
	"litestream_sync_count":                         "trench_litestream_syncs_total",
	"litestream_sync_error_count":                   "trench_litestream_sync_errors_total",
	"litestream_sync_seconds":                       "trench_litestream_sync_seconds_total",
	"litestream_disk_full":                          "trench_litestream_disk_full",
	"litestream_checkpoint_count":                   "trench_litestream_checkpoints_total",
	"litestream_checkpoint_error_count":             "trench_litestream_checkpoint_errors_total",
	"litestream_checkpoint_seconds":                 "trench_litestream_checkpoint_seconds_total",
	"litestream_replica_operation_total":            "trench_litestream_replica_operations_total",
	"litestream_replica_operation_bytes":            "trench_litestream_replica_operation_bytes_total",
	"litestream_replica_operation_duration_seconds": "trench_litestream_replica_operation_duration_seconds",
	"litestream_replica_operation_errors_total":     "trench_litestream_replica_operation_errors_total",
}

// litestreamGatherer gathers from g with Litestream's families renamed
// (litestreamNames) and without their "db" label, which holds the
// database's absolute path (there is one database).
type litestreamGatherer struct{ g prometheus.Gatherer }

func (l litestreamGatherer) Gather() ([]*dto.MetricFamily, error) {
	fams, err := l.g.Gather()
	out := fams[:0]
	for _, f := range fams {
		name := f.GetName()
		if !strings.HasPrefix(name, "litestream_") {
			out = append(out, f)
			continue
		}
		ours, ok := litestreamNames[name]
		if !ok {
			continue
		}
		f.Name = &ours
		seen := map[string]bool{}
		kept := f.Metric[:0]
		for _, m := range f.Metric {
			labels := m.Label[:0]
			var key strings.Builder
			for _, lp := range m.Label {
				if lp.GetName() != "db" {
					labels = append(labels, lp)
					key.WriteString(lp.GetName() + "=" + lp.GetValue() + ",")
				}
			}
			m.Label = labels
			if !seen[key.String()] {
				seen[key.String()] = true
				kept = append(kept, m)
			}
		}
		f.Metric = kept
		out = append(out, f)
	}
	// Renamed families sort among ours.
	slices.SortFunc(out, func(a, b *dto.MetricFamily) int { return strings.Compare(a.GetName(), b.GetName()) })
	return out, err
}

// job counts one round of a background job.
func (m *metrics) job(name string, err error) {
	result := "ok"
	if err != nil {
		result = "error"
	}
	m.jobs.WithLabelValues(name, result).Inc()
}

// pushed counts n push notices with result ("sent"; "failed": not
// accepted now; "removed": the subscription is gone) for reason.
func (m *metrics) pushed(result, reason string, n int) {
	m.push.WithLabelValues(result, reason).Add(float64(n))
}

// saw records that user id made a request at t.
func (m *metrics) saw(id int64, t time.Time) {
	m.mu.Lock()
	m.seen[id] = t
	m.mu.Unlock()
}

// activePlayers counts the users seen since since, forgetting older ones.
func (m *metrics) activePlayers(since time.Time) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, t := range m.seen {
		if t.Before(since) {
			delete(m.seen, id)
		}
	}
	return len(m.seen)
}

// MetricsHandler serves the server's metrics in the Prometheus text
// format. Serve it on an address of its own (trench serve --metrics-addr),
// never on the public one.
func (a *App) MetricsHandler() http.Handler { return a.metrics.handler() }

// RegisterMetrics adds collectors (the certificates' expiry, say) to the
// server's /metrics. Errors: a collector whose metrics clash with those
// already registered.
func (a *App) RegisterMetrics(cs ...prometheus.Collector) error {
	for _, c := range cs {
		if err := a.metrics.reg.Register(c); err != nil {
			return fmt.Errorf("metrics: %w", err)
		}
	}
	return nil
}

// observe counts and times every request by its route pattern (never the
// raw path, which may carry a feed's secret token) and, when the server
// logs requests, writes one line per request: method (as labelled, see
// metricMethod), route, status, duration_ms (the time to answer in
// milliseconds, a float) and the signed-in user's id (0 for a visitor).
func (a *App) observe(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		req := c.Request()
		// A page's queries stop when its client goes (the request's
		// context reaches SQLite) or, for a read, once its answer could no
		// longer be written: a slow page never keeps a connection of the
		// read pool from the others. The event streams last.
		stream := isEventStream(req)
		if (req.Method == http.MethodGet || req.Method == http.MethodHead) && !stream {
			ctx, cancel := context.WithTimeout(req.Context(), RequestDeadline)
			defer cancel()
			c.SetRequest(req.WithContext(ctx))
		}
		if !stream {
			a.traffic.begin()
			defer func() { a.traffic.end(time.Now()) }()
		}
		w := &sentWriter{ResponseWriter: c.Response().Writer}
		c.Response().Writer = w
		if err := next(c); err != nil {
			c.Error(err)
		}
		d := time.Since(start)
		route := c.Path()
		if c.Response().Status == http.StatusNotFound && !a.knownRoute(req.Method, route) {
			route = "unmatched" // keep unknown paths out of the labels
		}
		// What the client really got: nothing when it went away before
		// the answer was written, or when writing it failed (a write
		// timeout, a closed connection).
		code := c.Response().Status
		if w.err != nil || (req.Context().Err() != nil && !w.wrote) {
			code = StatusClientGone
		}
		method := metricMethod(req.Method)
		a.metrics.requests.WithLabelValues(method, route, strconv.Itoa(code)).Inc()
		a.metrics.latency.WithLabelValues(method, route).Observe(d.Seconds())
		user := currentViewer(c).ID
		if user != 0 {
			a.metrics.saw(user, a.cfg.Now())
		}
		if a.cfg.AccessLog {
			a.log.LogAttrs(req.Context(), slog.LevelInfo, "request",
				slog.String("method", method), slog.String("route", route), slog.Int("status", code),
				slog.Float64("duration_ms", float64(d)/float64(time.Millisecond)), slog.Int64("user", user))
		}
		return nil
	}
}

// metricMethod is the method label of a request: one of HTTP's standard
// methods, or "OTHER" for any other a client sends, so that the labels
// (and the log) stay a short, fixed set.
func metricMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "OTHER"
}

// RequestDeadline is how long a read (GET or HEAD, not an event stream)
// may take: just less than the server's write timeout, after which its
// answer could no longer be sent.
const RequestDeadline = 25 * time.Second

// StatusClientGone is the status the access log and the metrics give a
// request whose client got no answer: it went away first, or the answer
// could not be written (nginx's 499).
const StatusClientGone = 499

// sentWriter remembers whether an answer was written, and the first
// error writing it.
type sentWriter struct {
	http.ResponseWriter
	wrote bool
	err   error
}

func (w *sentWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	if err != nil && w.err == nil {
		w.err = err
	}
	w.wrote = w.wrote || n > 0
	return n, err
}

// Flush passes on to the writer below (the event streams flush).
func (w *sentWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the writer below.
func (w *sentWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// knownRoute says whether method and path name a registered route.
func (a *App) knownRoute(method, path string) bool {
	_, ok := a.routeSet[method+" "+path]
	return ok
}

// storeCollector reads the database's figures at each scrape.
type storeCollector struct {
	db     *db.DB
	now    func() time.Time
	smtpOn func() bool
	seen   func(since time.Time) int
}

var (
	descMoves = prometheus.NewDesc("trench_moves_total",
		"Moves (plies) made, by game.", []string{"game"}, nil) // not shown
	descActive = prometheus.NewDesc("trench_games_active",
		"Games being played, by game.", []string{"game"}, nil) // not shown
	descChallenges = prometheus.NewDesc("trench_challenges_open",
		"Challenges waiting for an answer.", nil, nil) // not shown
	descPlayers = prometheus.NewDesc("trench_players",
		"Players' accounts on the server (not the computer's, not deleted ones).", nil, nil) // not shown
	descSignedIn = prometheus.NewDesc("trench_players_active_24h",
		"Signed-in players who made a request in the last 24 hours (counted since the server started).", nil, nil) // not shown
	descDue = prometheus.NewDesc("trench_jobs_due",
		"Work waiting for a background job: timeouts (games past their deadline), mail (notices and digests due).", []string{"job"}, nil) // not shown
	descReplOn = prometheus.NewDesc("trench_replication_enabled",
		"1 when the database streams to a replica.", nil, nil) // not shown
	descReplBehind = prometheus.NewDesc("trench_replication_behind_transactions",
		"Transactions the replica lacks (0: in sync).", nil, nil) // not shown
	descReplLag = prometheus.NewDesc("trench_replication_lag_seconds",
		"Age in seconds of the oldest transaction the replica lacks, 0 when it is in sync.", nil, nil) // not shown
	descScrapeErr = prometheus.NewDesc("trench_metrics_read_errors",
		"1 when the last scrape could not read the database's figures.", nil, nil) // not shown
)

func (s *storeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descMoves, descActive, descChallenges, descPlayers, descSignedIn,
		descDue, descReplOn, descReplBehind, descReplLag, descScrapeErr} {
		ch <- d
	}
}

func (s *storeCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	now := s.now()
	failed := 0.0
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	st, err := s.db.Stats(ctx, now)
	if err == nil {
		for _, e := range rules.Engines() {
			key := e.Key()
			g := st.Games[key]
			ch <- prometheus.MustNewConstMetric(descMoves, prometheus.CounterValue, float64(g.Moves), key)
			gauge(descActive, float64(g.Active), key)
		}
		gauge(descChallenges, float64(st.OpenChallenges))
		gauge(descPlayers, float64(st.Players))
		gauge(descDue, float64(st.TimeoutsDue), "timeouts")
	} else {
		failed = 1
	}
	mail := 0
	if s.smtpOn() {
		notices, err1 := s.db.DueMoveNotices(ctx, db.ChannelMail)
		digests, err2 := s.db.DueDigests(ctx, now)
		if err1 != nil || err2 != nil {
			failed = 1
		}
		mail = len(notices) + len(digests)
	}
	gauge(descDue, float64(mail), "mail")
	gauge(descSignedIn, float64(s.seen(now.Add(-24*time.Hour))))
	// The replica's status is the one last seen: a scrape never waits on
	// the replica.
	r, err := s.db.Replication(ctx)
	if err != nil {
		failed = 1
	}
	on, lag := 0.0, 0.0
	if r.On {
		on = 1
		lag = r.Lag.Seconds()
	}
	gauge(descReplOn, on)
	gauge(descReplBehind, float64(r.Behind))
	gauge(descReplLag, lag)
	gauge(descScrapeErr, failed)
}

// liveStreams adds the gauge of the event streams open (live updates),
// read from open when scraped.
func (m *metrics) liveStreams(open func() int) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "trench_live_streams",
		Help: "Event streams open: pages receiving live updates.", // not shown
	}, func() float64 { return float64(open()) }))
}

// pagesWaiting adds the gauge of the page reads waiting for a turn
// (admission).
func (m *metrics) pagesWaiting(waiting func() int64) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "trench_pages_waiting",
		Help: "Page reads waiting for their turn to be made.", // not shown
	}, func() float64 { return float64(waiting()) }))
}

// readCache adds the counters of the database's remembered reads: the
// answers from memory and the reads run, read from the DB when scraped.
func (m *metrics) readCache(store *db.DB) {
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "trench_read_cache_hits_total",
		Help: "Page reads answered from memory: nothing committed since the same read.", // not shown
	}, func() float64 { h, _ := store.ReadCacheStats(); return float64(h) }))
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "trench_read_cache_misses_total",
		Help: "Page reads run against the database.", // not shown
	}, func() float64 { _, n := store.ReadCacheStats(); return float64(n) }))
}
