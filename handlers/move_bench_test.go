package handlers_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/gzhttp"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
	"github.com/trench-games/trench/rules"
)

// BenchmarkMoveAnswer plays TRENCH moves through the whole application in
// this process (no socket), each posted as htmx posts it from a game
// page, and reads the #game fragment answered: in turn plain and encoded
// as a browser accepts it (gzip; zstd), so that each encoding meets the
// same positions and the same load on the machine. It reports, per move
// and encoding, the process's CPU time around the move (every goroutine:
// the handler, the database's commit, the encoder) and the answer's bytes
// as sent. MOVE_BENCH_ENCODING=gzip (or identity, zstd) plays every move
// in that one encoding, as a server whose browsers all accept the same
// does: in turn, each encoding's tables leave the processor's cache to
// the others'.
func BenchmarkMoveAnswer(b *testing.B) {
	encs := []string{"identity", "gzip", "zstd"}
	if e := os.Getenv("MOVE_BENCH_ENCODING"); e != "" {
		encs = []string{e}
	}
	m := newMoveBench(b)
	var cpu [3]time.Duration
	var wire, n [3]int64
	i := 0
	for b.Loop() {
		k := i % len(encs)
		i++
		cpu0 := processCPU()
		wire[k] += int64(m.move(b, encs[k]))
		cpu[k] += processCPU() - cpu0
		n[k]++
	}
	for k, enc := range encs {
		if n[k] == 0 {
			continue
		}
		b.ReportMetric(float64(cpu[k].Nanoseconds())/1e3/float64(n[k]), enc+"-cpu-µs/move")
		b.ReportMetric(float64(wire[k])/float64(n[k]), enc+"-B/move")
	}
}

// BenchmarkAnswerLevels encodes one TRENCH move's answer (a #game
// fragment taken from the application) through gzhttp at each gzip and
// zstd level: the CPU each level adds to a move (compare
// BenchmarkMoveAnswer's cpu-µs/move) and the bytes it sends.
func BenchmarkAnswerLevels(b *testing.B) {
	m := newMoveBench(b)
	var answer []byte
	for range 8 {
		body := m.moveBody(b, "identity")
		if len(body) > len(answer) {
			answer = body
		}
	}
	serve := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
		_, _ = w.Write(answer)
	})
	type level struct {
		name string
		wrap func() (func(http.Handler) http.HandlerFunc, error)
		enc  string
	}
	levels := []level{{"identity", func() (func(http.Handler) http.HandlerFunc, error) {
		return func(h http.Handler) http.HandlerFunc { return h.ServeHTTP }, nil
	}, "identity"}}
	for _, l := range []int{gzip.StatelessCompression, 1, 2, 3, 4, 5, 6, 9} {
		levels = append(levels, level{fmt.Sprintf("gzip-%d", l), func() (func(http.Handler) http.HandlerFunc, error) {
			return gzhttp.NewWrapper(gzhttp.CompressionLevel(l))
		}, "gzip"})
	}
	for _, l := range []zstd.EncoderLevel{zstd.SpeedFastest, zstd.SpeedDefault, zstd.SpeedBetterCompression} {
		levels = append(levels, level{fmt.Sprintf("zstd-%d", l), func() (func(http.Handler) http.HandlerFunc, error) {
			return gzhttp.NewWrapper(gzhttp.ZstdCompressionLevel(int(l)))
		}, "zstd"})
	}
	for _, l := range levels {
		b.Run(l.name, func(b *testing.B) {
			wrap, err := l.wrap()
			if err != nil {
				b.Fatal(err)
			}
			h := wrap(serve)
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			req.Header.Set("Accept-Encoding", l.enc)
			var n int
			cpu0 := processCPU()
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				n = rec.Body.Len()
			}
			b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
			b.ReportMetric(float64(len(answer)), "plain-B")
			b.ReportMetric(float64(n), "wire-B")
		})
	}
}

// processCPU is the user and system CPU time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// moveBench is the application and two players with games between them,
// each game's state kept beside the server's to pick the next move.
type moveBench struct {
	e       *echo.Echo
	store   *db.DB
	cookies map[string][]*http.Cookie // by player
	ids     [2]int64
	games   []benchGame
	next    int
	rng     *rand.Rand
}

type benchGame struct {
	id int64
	st rules.State
}

func newMoveBench(b *testing.B) *moveBench {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	store, err := db.Open(ctx, filepath.Join(b.TempDir(), "trench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = store.Close() })
	e, _, err := handlers.New(ctx, store, handlers.Config{
		BcryptCost: bcrypt.MinCost,
		Seed:       func() int64 { return 7 },
		Logger:     slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		b.Fatal(err)
	}
	m := &moveBench{e: e, store: store, cookies: map[string][]*http.Cookie{}, rng: rand.New(rand.NewPCG(7, 7))}
	for i, name := range []string{"alice", "bob"} {
		res := m.do(httptest.NewRequest(http.MethodPost, "/signup",
			strings.NewReader(url.Values{"name": {name}, "password": {"correct horse"}}.Encode())), name, "")
		if res.Code != http.StatusSeeOther && res.Code != http.StatusOK {
			b.Fatalf("sign up %s: %d", name, res.Code)
		}
		u, err := store.UserByName(ctx, name)
		if err != nil {
			b.Fatal(err)
		}
		m.ids[i] = u.ID
	}
	for range 8 {
		m.games = append(m.games, m.newGame(b))
	}
	// Play a few plies in each game first: a move's answer in the middle
	// of a game, with a move list.
	for range 8 * 12 {
		m.move(b, "identity")
	}
	return m
}

// newGame starts a TRENCH game between the two players.
func (m *moveBench) newGame(b *testing.B) benchGame {
	ctx := context.Background()
	ch, err := m.store.CreateChallenge(ctx, db.NewChallenge{CreatorID: m.ids[0], Game: "trench", Variant: "single", Color: "0", DaysPerMove: 3}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	id, err := m.store.AcceptChallenge(ctx, ch.ID, m.ids[1], 5, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	g, err := m.store.Game(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	eng, err := g.Engine()
	if err != nil {
		b.Fatal(err)
	}
	st, err := eng.Decode(g.Variant, g.State)
	if err != nil {
		b.Fatal(err)
	}
	return benchGame{id: id, st: st}
}

// do serves req as the named player's browser (same-origin fetch
// metadata standing for the CSRF token) and keeps the cookies it is
// given.
func (m *moveBench) do(req *http.Request, player, acceptEncoding string) *httptest.ResponseRecorder {
	if req.Method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	for _, c := range m.cookies[player] {
		req.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	m.e.ServeHTTP(rec, req)
	if cs := rec.Result().Cookies(); len(cs) > 0 {
		m.cookies[player] = cs
	}
	return rec
}

// move is moveBody's length.
func (m *moveBench) move(b *testing.B, enc string) int { return len(m.moveBody(b, enc)) }

// moveBody plays one legal move in the next game as the player to move,
// with the answer in encoding enc ("identity": plain), and returns the
// answer's body as sent.
func (m *moveBench) moveBody(b *testing.B, enc string) []byte {
	i := m.next % len(m.games)
	m.next++
	g := &m.games[i]
	if g.st.Result().Over {
		*g = m.newGame(b)
	}
	legal := g.st.Legal(g.st.ToMove())
	mv := legal[m.rng.IntN(len(legal))]
	page := fmt.Sprintf("/games/%d", g.id)
	req := httptest.NewRequest(http.MethodPost, page+"/move",
		strings.NewReader(url.Values{"ply": {fmt.Sprint(g.st.Ply())}, "move": {mv}}.Encode()))
	req.Header.Set("HX-Request", "true")
	req.Header.Set("HX-Current-URL", "http://example.com"+page)
	player := []string{"alice", "bob"}[g.st.ToMove()]
	res := m.do(req, player, enc)
	if res.Code != http.StatusOK {
		b.Fatalf("move %s in game %d: %d %.300s", mv, g.id, res.Code, res.Body.String())
	}
	if got := res.Header().Get("Content-Encoding"); enc != "identity" && got != enc {
		b.Fatalf("answer encoded %q, want %q", got, enc)
	}
	st, err := g.st.Apply(mv)
	if err != nil {
		b.Fatal(err)
	}
	g.st = st
	return res.Body.Bytes()
}
