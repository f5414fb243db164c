// Package crashtest is `trench crashtest`: it kills a `trench serve` with
// SIGKILL under the bench's load, restarts it on the same database and
// checks that no acknowledged move was lost and every game still replays.
package crashtest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/trench-games/trench/cmd/trench/internal/bench"
	"github.com/trench-games/trench/db"
)

// crashConfig is what `trench crashtest` runs.
type crashConfig struct {
	Bin     string        // the trench binary; "" builds one
	Dir     string        // working directory; "" makes a temporary one
	Rounds  int           // kills
	Load    time.Duration // load per round; the kill falls in its second half
	Users   int
	Games   int
	Clients int
	After   int // moves in every game after each restart
}

// Command runs `trench crashtest` with args (its flags) and prints what
// it does to stdout.
func Command(ctx context.Context, stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("crashtest", flag.ContinueOnError)
	cfg := crashConfig{}
	fs.StringVar(&cfg.Bin, "bin", "", "the trench binary to test (default: go build one)")
	fs.StringVar(&cfg.Dir, "dir", "", "working directory, kept afterwards (default: a temporary one, removed when the test passes)")
	fs.IntVar(&cfg.Rounds, "rounds", 3, "how many times to kill the server")
	fs.DurationVar(&cfg.Load, "load", 4*time.Second, "load before each kill; the kill falls in its second half")
	fs.IntVar(&cfg.Users, "users", 24, "accounts")
	fs.IntVar(&cfg.Games, "games", 12, "games")
	fs.IntVar(&cfg.Clients, "clients", 12, "concurrent clients")
	fs.IntVar(&cfg.After, "after", 4, "moves to play in every game after each restart")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("crashtest: unexpected arguments %q", fs.Args())
	}
	if err := runCrashtest(ctx, cfg, stdout); err != nil {
		return fmt.Errorf("crashtest FAILED: %w", err)
	}
	return nil
}

// runCrashtest starts `trench serve` as a subprocess on a new database,
// puts the bench's load on it, kills it with SIGKILL in the middle of the
// load, restarts it on the same database and checks that nothing
// acknowledged was lost and nothing is inconsistent; Rounds times, then a
// clean stop and the same checks.
func runCrashtest(ctx context.Context, cfg crashConfig, out io.Writer) (err error) {
	if cfg.Rounds < 1 || cfg.Load <= 0 || cfg.Games < 1 || cfg.Clients < 1 {
		return errors.New("want --rounds ≥ 1, a positive --load, --games ≥ 1 and --clients ≥ 1")
	}
	dir := cfg.Dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "trench-crashtest-"); err != nil {
			return err
		}
		defer func() {
			if err == nil {
				os.RemoveAll(dir)
			} else {
				err = fmt.Errorf("%w\n(the database and the server's log are kept in %s)", err, dir)
			}
		}()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	bin := cfg.Bin
	if bin == "" {
		bin = filepath.Join(dir, "trench")
		if err := bench.BuildBinary(ctx, bin); err != nil {
			return err
		}
	}
	path := filepath.Join(dir, "trench.db")
	logPath := filepath.Join(dir, "server.log")
	fmt.Fprintf(out, "crashtest: %s serve on %s (log %s)\n", bin, path, logPath)

	srv, err := bench.StartServerProcess(ctx, bin, path, logPath)
	if err != nil {
		return err
	}
	defer func() {
		if srv != nil {
			srv.Kill()
		}
	}()
	acks := NewAckLog()
	ld, err := bench.NewLoad(ctx, bench.LoadConfig{BaseURL: srv.URL, Users: cfg.Users, Games: cfg.Games, Clients: cfg.Clients,
		Game: "mix", Prefix: "c" + bench.RandomTag(), FullEvery: 25, OnAck: acks.Add})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "setup: %d accounts, %d games (%s), %d clients\n", ld.Accounts(), len(ld.AllGames()), ld.DescribeGames(), ld.Clients())

	for round := 1; round <= cfg.Rounds; round++ {
		ld.Killed.Store(false)
		killAt := cfg.Load/2 + rand.N(cfg.Load/2+1)
		done := make(chan bench.LoadStats, 1)
		go func() { done <- ld.Run(ctx, bench.RunLimits{Duration: cfg.Load + time.Minute}) }()
		select {
		case <-time.After(killAt):
		case <-ctx.Done():
			ld.Killed.Store(true)
			<-done
			return ctx.Err()
		}
		ld.Killed.Store(true)
		killedAt := time.Now()
		srv.Kill()
		st := <-done
		if st.Errors > 0 {
			return fmt.Errorf("round %d: %d errors before the kill: %s", round, st.Errors, strings.Join(st.ErrorSamples, "; "))
		}
		if st.Moves == 0 {
			return fmt.Errorf("round %d: no move was played before the kill", round)
		}
		fmt.Fprintf(out, "round %d: SIGKILL after %s of load, %d moves acknowledged in it (%.0f/s); the clients stopped %s after the kill\n",
			round, killAt.Round(time.Millisecond), st.Moves, bench.PerSec(st.Moves, killAt), time.Since(killedAt).Round(time.Millisecond))

		if srv, err = bench.StartServerProcess(ctx, bin, path, logPath); err != nil {
			return fmt.Errorf("restart after the kill: %w", err)
		}
		ld.SetBase(srv.URL)
		if err := CheckDatabase(ctx, out, path, acks, "  restarted"); err != nil {
			return fmt.Errorf("round %d: %w", round, err)
		}
		if err := ld.Resync(ctx); err != nil {
			return fmt.Errorf("round %d: the games do not load after the restart: %w", round, err)
		}
		st = ld.Run(ctx, bench.RunLimits{PerGame: cfg.After})
		if st.Errors > 0 {
			return fmt.Errorf("round %d: %d errors after the restart: %s", round, st.Errors, strings.Join(st.ErrorSamples, "; "))
		}
		if want := cfg.After * len(ld.AllGames()); st.Moves < want {
			return fmt.Errorf("round %d: %d moves after the restart, want %d", round, st.Moves, want)
		}
		fmt.Fprintf(out, "  the games go on: %d more moves without an error\n", st.Moves)
	}

	rss, _ := bench.ReadRSS(strconv.Itoa(srv.Pid()))
	if err := srv.Stop(); err != nil {
		return fmt.Errorf("clean stop: %w", err)
	}
	fmt.Fprintf(out, "clean stop: SIGTERM, exit status 0 (server RSS before it %.1f MiB)\n", float64(rss)/1024)
	if err := CheckDatabase(ctx, out, path, acks, "  after it"); err != nil {
		return err
	}
	fmt.Fprintf(out, "crashtest: ok, %d kill(s) under load, all %d acknowledged moves kept\n", cfg.Rounds, acks.Count())
	return nil
}

// CheckDatabase opens the database (while the server runs on it) and
// checks it: integrity, every game equal to the replay of its moves, and
// every acknowledged move stored at its ply.
func CheckDatabase(ctx context.Context, out io.Writer, path string, acks *AckLog, label string) error {
	store, err := db.Open(ctx, path)
	if err != nil {
		return err
	}
	defer store.Close()
	checked, err := store.Verify(ctx)
	if err != nil {
		return err
	}
	acked, err := acks.check(ctx, store)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: integrity ok; %d games equal the replay of their %d moves; all %d acknowledged moves stored (%d more stored whose answer was cut off)\n",
		label, checked.Games, checked.Moves, acked, checked.Moves-acked)
	return nil
}

// NewAckLog returns an empty AckLog.
func NewAckLog() *AckLog { return &AckLog{moves: map[int64]map[int]string{}} }

// AckLog is every move the server acknowledged: game → ply → move.
type AckLog struct {
	mu       sync.Mutex
	moves    map[int64]map[int]string
	n        int
	conflict error
}

// Add records that the server acknowledged move at ply of game (a
// LoadConfig's OnAck).
func (a *AckLog) Add(game int64, ply int, move string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	m := a.moves[game]
	if m == nil {
		m = map[int]string{}
		a.moves[game] = m
	}
	if prev, ok := m[ply]; ok && a.conflict == nil {
		a.conflict = fmt.Errorf("game %d: two moves acknowledged at ply %d: %s and %s", game, ply, prev, move)
	}
	m[ply] = move
	a.n++
}

// Count is the number of acknowledged moves.
func (a *AckLog) Count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n
}

// check returns how many acknowledged moves it found in store, or an
// error naming the first one missing.
func (a *AckLog) check(ctx context.Context, store *db.DB) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.conflict != nil {
		return 0, a.conflict
	}
	n := 0
	for game, plies := range a.moves {
		stored, err := store.Moves(ctx, game)
		if err != nil {
			return n, err
		}
		byPly := map[int]string{}
		for _, m := range stored {
			byPly[m.Ply] = m.Move
		}
		for ply, move := range plies {
			got, ok := byPly[ply]
			switch {
			case !ok:
				return n, fmt.Errorf("game %d: the acknowledged move %s at ply %d is not in the database", game, move, ply)
			case got != move:
				return n, fmt.Errorf("game %d: ply %d was acknowledged as %s, the database has %s", game, ply, move, got)
			}
			n++
		}
	}
	return n, nil
}
