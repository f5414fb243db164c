// Package bench is `trench bench`: a load of browsers playing over HTTP
// against a Trench server (started in-process, as a child `trench serve`,
// or running already), measured against the raw SQLite commit rate; its
// load (NewLoad) and the child server (StartServerProcess) serve the crash
// test and the command's tests as well.
package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/net/html"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/handlers"
	"github.com/trench-games/trench/rules/bot"
	// The in-process server plays the computer, as `trench serve` does.
	_ "github.com/trench-games/trench/rules/cards/bot"
	_ "github.com/trench-games/trench/rules/trench/bot"
	_ "github.com/trench-games/trench/rules/trenches/bot"
)

// benchConfig is what `trench bench` runs.
type benchConfig struct {
	URL         string        // a running server (loopback only); "" starts one in-process
	PID         int           // the running server's process id, for its RSS (with URL)
	Users       int           // accounts to create
	Games       int           // games played at the same time
	Clients     int           // concurrent clients
	Moves       int64         // stop after this many moves
	Duration    time.Duration // … or after this long
	Game        string        // "trench", "trenches" or "mix"
	RawDuration time.Duration // how long to time the raw commits (and PlayMove)
	CPUProfile  string        // write a CPU profile of the server here (of the load with URL)
	// InProcess runs the server in the bench's own process (the load's
	// clients then share its CPU); otherwise Bin (default: this very
	// executable) runs `trench serve` as a child process.
	InProcess bool
	// PuzzleSearch leaves the server's search for puzzles on: it looks
	// at the games the load finishes, and its CPU counts in the server's
	// per move. Off, the server's CPU per move is the moves' own.
	PuzzleSearch bool
	Bin          string
	// Rate, when positive, is the open-loop arrival rate in moves per
	// second: move POSTs start on a fixed schedule, and their latency is
	// measured from the scheduled time.
	Rate       float64
	Dir        string // where the temporary databases go ("" = the system's)
	BcryptCost int    // of the in-process server; 0 = the server's default
	Quiet      bool   // no progress lines
	// ComputerShare is the share of games played against the computer in
	// the comparison run (0: none; see compareComputer).
	ComputerShare float64
	// ComputerPhase is how long each phase of the comparison lasts.
	ComputerPhase time.Duration
	// ComputerLevel is the level the computer plays at in the comparison
	// ("": hard).
	ComputerLevel bot.Level
	// LoadProcs is the GOMAXPROCS of the bench's own process while the
	// load runs, when the server runs in another process (0: unchanged).
	LoadProcs int
	// Live: the clients hold the pages' event streams, as browsers with
	// JavaScript do; otherwise the waiting tab polls (LoadConfig.Live).
	Live bool
}

// benchResult is what a bench run measured.
type benchResult struct {
	Load        LoadStats
	Elapsed     time.Duration
	MovesPerSec float64
	RawCommits  int
	RawElapsed  time.Duration
	RawPerSec   float64
	PlayMoves   int
	PlayElapsed time.Duration
	PlayPerSec  float64
	// Computer is the comparison of the human moves with and without games
	// against the computer (zero when not run).
	Computer computerComparison
	RSSKiB   int64
	HWMKiB   int64
	Ratio    float64
	// ServerCPUPerMove is the server process's CPU time per move in ms
	// (0 when it is not measured apart: in-process, or --url without --pid).
	ServerCPUPerMove float64
	// LoadCPUPerMove is the load's own CPU time per move in ms (0 when
	// the server runs in the same process).
	LoadCPUPerMove float64
	LastLine       string
	ServerLabels   bool
	// FirstVisit is a first visit to a game page, with every file it
	// loads (zero when no game was played).
	FirstVisit visit
}

// ErrLoadErrors is what Command returns when the load met errors; the
// report, printed already, names them.
var ErrLoadErrors = errors.New("bench: the load met errors")

// loadGCPercent is the load's garbage-collection target (GOGC), that of
// `trench serve`: the load collects as seldom as the server does.
const loadGCPercent = 400

// Command runs `trench bench` with args (its flags) and prints the report
// to stdout.
func Command(ctx context.Context, stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	cfg := benchConfig{}
	fs.StringVar(&cfg.URL, "url", "", "measure the server running at this loopback URL instead of starting one in-process (start it with --trusted-proxy 127.0.0.1, or its per-address limits refuse the sign-ups)")
	fs.IntVar(&cfg.PID, "pid", 0, "with --url: the server's process id, to report its memory")
	fs.IntVar(&cfg.Users, "users", 128, "accounts to create")
	fs.IntVar(&cfg.Games, "games", 64, "games played at the same time")
	fs.IntVar(&cfg.Clients, "clients", 64, "concurrent clients (each plays both sides of its games)")
	fs.Int64Var(&cfg.Moves, "moves", 20000, "stop after this many moves")
	fs.DurationVar(&cfg.Duration, "duration", 20*time.Second, "stop after this long")
	fs.StringVar(&cfg.Game, "game", "mix", "games to play: trench (single game), trenches, or mix (half each)")
	fs.DurationVar(&cfg.RawDuration, "raw-duration", 2*time.Second, "how long to time the raw SQLite commits")
	fs.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write a pprof CPU profile of the server to this file (with --url: of the load)")
	fs.StringVar(&cfg.Bin, "server-bin", "", "the trench binary to run as the server (default: this one), to compare two builds under the same load")
	fs.BoolVar(&cfg.InProcess, "in-process", false, "run the server in the bench's own process instead of as a child `trench serve`")
	fs.BoolVar(&cfg.PuzzleSearch, "puzzle-search", false, "the server looks for puzzles in the games the load finishes, as `trench serve` does by default (false: the server's CPU per move is the moves' own; a build older than the flag ignores it)")
	fs.Float64Var(&cfg.Rate, "rate", 0, "open loop: start move POSTs at this fixed rate (moves/s), latency measured from the scheduled time (0: closed loop, as fast as the server answers)")
	fs.StringVar(&cfg.Dir, "dir", "", "directory for the temporary databases (default: the system's temporary directory)")
	fs.Float64Var(&cfg.ComputerShare, "computer", 0.2, "then compare the human moves with this share of the games played against the computer at --computer-level (0: skip)")
	fs.IntVar(&cfg.LoadProcs, "load-procs", 1, "with the server in another process: processors the load's clients may use at once (GOMAXPROCS of this process; 0: all), to leave the others to the server")
	fs.BoolVar(&cfg.Live, "live", true, "the clients behave as browsers with JavaScript: each tab holds its page's event stream and the waiting player learns of a move from the update pushed to it (false: the waiting tab polls, as a page whose stream is down)")
	fs.DurationVar(&cfg.ComputerPhase, "computer-phase", 5*time.Second, "length of each of the comparison's four phases (two without, two with the computer's games)")
	level := fs.String("computer-level", string(bot.Hard), "the level of the computer in the comparison: easy, medium or hard")
	fillN := fs.Int("fill", 0, "instead of a load: build a database of this many games for measurement at --db (real games, players, ratings, dates over years, tournaments; about 2% in progress)")
	fillDB := fs.String("db", "", "with --fill: the database to make (it must not exist)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("bench: unexpected arguments %q", fs.Args())
	}
	if *fillN > 0 {
		return fill(ctx, stdout, *fillDB, *fillN)
	}
	var err error
	if cfg.ComputerLevel, err = bot.ParseLevel(*level); err != nil {
		return fmt.Errorf("bench: --computer-level: %w", err)
	}
	res, err := runBench(ctx, cfg, stdout)
	if err != nil {
		return err
	}
	if res.Load.Errors > 0 {
		return ErrLoadErrors
	}
	return nil
}

// runBench runs the whole measurement and prints its report, ending with
// the one-line summary.
func runBench(ctx context.Context, cfg benchConfig, out io.Writer) (*benchResult, error) {
	if cfg.Users < 2 || cfg.Games < 1 || cfg.Clients < 1 || cfg.Duration <= 0 {
		return nil, errors.New("bench: want --users ≥ 2, --games ≥ 1, --clients ≥ 1 and a positive --duration")
	}
	if cfg.Rate < 0 || math.IsNaN(cfg.Rate) || math.IsInf(cfg.Rate, 0) {
		return nil, errors.New("bench: want --rate ≥ 0 (moves/s)")
	}
	if cfg.ComputerShare < 0 || cfg.ComputerShare >= 1 || cfg.ComputerShare > 0 && cfg.ComputerPhase <= 0 {
		return nil, errors.New("bench: want 0 ≤ --computer < 1 and a positive --computer-phase")
	}
	if _, err := gameKinds(cfg.Game); err != nil {
		return nil, err
	}
	say := func(format string, args ...any) {
		if !cfg.Quiet {
			fmt.Fprintf(out, format+"\n", args...)
		}
	}
	dir, err := os.MkdirTemp(cfg.Dir, "trench-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	res := &benchResult{}

	// The physical limit first, on a database of its own, while nothing
	// else runs.
	raw, err := measureRaw(ctx, filepath.Join(dir, "raw.db"), cfg.RawDuration)
	if err != nil {
		return nil, err
	}
	res.RawCommits, res.RawElapsed, res.PlayMoves, res.PlayElapsed = raw.commits, raw.commitTime, raw.plays, raw.playTime
	res.RawPerSec = PerSec(raw.commits, raw.commitTime)
	res.PlayPerSec = PerSec(raw.plays, raw.playTime)

	base := cfg.URL
	serverPID := cfg.PID
	pprofAddr := ""
	var srv *inProcess
	switch {
	case base != "":
		if base, err = loopbackURL(base); err != nil {
			return nil, err
		}
		say("server: %s", base)
	case cfg.InProcess:
		srv, err = startInProcess(ctx, filepath.Join(dir, "bench.db"), cfg.BcryptCost, cfg.PuzzleSearch)
		if err != nil {
			return nil, err
		}
		defer srv.stop()
		base = srv.URL
		say("server: in-process at %s, database %s", base, srv.Path)
	default:
		bin := cfg.Bin
		if bin == "" {
			if bin, err = os.Executable(); err != nil {
				return nil, err
			}
		}
		var extra []string
		if cfg.CPUProfile != "" {
			port, err := FreePort()
			if err != nil {
				return nil, err
			}
			pprofAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
			extra = append(extra, "--pprof-addr", pprofAddr)
		}
		logPath := filepath.Join(dir, "server.log")
		var env []string
		if !cfg.PuzzleSearch {
			// The environment rather than --puzzle-search=false, which
			// a build from before the flag would refuse.
			env = append(env, "TRENCH_PUZZLE_SEARCH=false")
		}
		child, err := startServerProcess(ctx, bin, filepath.Join(dir, "bench.db"), logPath, env, extra...)
		if err != nil {
			return nil, err
		}
		defer func() {
			if err := child.Stop(); err != nil {
				fmt.Fprintf(out, "bench: stopping the server: %v\n", err)
			}
		}()
		base, serverPID = child.URL, child.Pid()
		say("server: child process %d (%s serve) at %s, its own database and log in %s", serverPID, bin, base, dir)
	}
	switch {
	case cfg.URL != "": // a server started apart: its own configuration
	case cfg.PuzzleSearch:
		say("the server looks for puzzles in the games the load finishes, at the lowest priority: its CPU counts in the server's")
	default:
		say("the server does not look for puzzles (--puzzle-search to let it)")
	}
	say("machine: %d CPUs, GOMAXPROCS %d, load average %s before the run", runtime.NumCPU(), runtime.GOMAXPROCS(0), loadAverage())
	if srv == nil {
		// The load's garbage is short-lived and its heap small: it
		// collects as seldom as the server does, to leave the CPU to it.
		if _, ok := os.LookupEnv("GOGC"); !ok {
			defer debug.SetGCPercent(debug.SetGCPercent(loadGCPercent))
		}
		// Goroutines waiting on the server spin less on one processor.
		if cfg.LoadProcs > 0 {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(cfg.LoadProcs))
		}
	}
	rawLat := durationsMS(raw.latency)
	say("raw SQLite move commit (INSERT INTO moves + UPDATE games … WHERE id = ? AND ply = ?, one transaction, the server's pragmas, one goroutine): %.0f commits/s (%d in %s; p50 %.2f ms, p99 %.2f ms, max %.2f ms)",
		res.RawPerSec, raw.commits, raw.commitTime.Round(time.Millisecond), percentile(rawLat, 50), percentile(rawLat, 99), percentile(rawLat, 100))
	say("db.PlayMove without HTTP (the same transaction with its reads and the rules, one goroutine): %.0f moves/s (%d in %s)",
		res.PlayPerSec, raw.plays, raw.playTime.Round(time.Millisecond))

	setupStart := time.Now()
	ld, err := NewLoad(ctx, LoadConfig{BaseURL: base, Users: cfg.Users, Games: cfg.Games, Clients: cfg.Clients,
		Game: cfg.Game, Prefix: "b" + RandomTag(), FullEvery: 25, Live: cfg.Live})
	if err != nil {
		return nil, err
	}
	say("setup: %d accounts, %d games (%s), %d clients, over HTTP in %s", ld.users, len(ld.AllGames()), ld.DescribeGames(),
		len(ld.clients), time.Since(setupStart).Round(time.Millisecond))
	if games := ld.AllGames(); len(games) > 0 {
		if res.FirstVisit, err = firstVisit(ctx, base, games[0].url()); err != nil {
			return nil, err
		}
		say("first visit: a game page and the %d static files it names, %d bytes on the wire (gzip, headers included); a second visit would fetch %d of the files again",
			res.FirstVisit.Files, res.FirstVisit.Bytes, res.FirstVisit.Again)
	}

	var prof *os.File
	var remoteProf chan error
	switch {
	case cfg.CPUProfile == "":
	case pprofAddr != "":
		// The server profiles itself for as long as the load may last.
		remoteProf = make(chan error, 1)
		go func() { remoteProf <- fetchProfile(ctx, pprofAddr, cfg.Duration, cfg.CPUProfile) }()
	default:
		if prof, err = os.Create(cfg.CPUProfile); err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(prof); err != nil {
			prof.Close()
			return nil, err
		}
	}
	cpuOf := "self"
	if srv == nil {
		cpuOf = strconv.Itoa(serverPID)
	}
	cpu0, cpuOK := procCPU(cpuOf)
	load0, loadOK := procCPU("self")
	start := time.Now()
	st := ld.Run(ctx, RunLimits{Moves: cfg.Moves, Duration: cfg.Duration, Rate: cfg.Rate})
	res.Elapsed = time.Since(start)
	cpu1, _ := procCPU(cpuOf)
	load1, _ := procCPU("self")
	if prof != nil {
		pprof.StopCPUProfile()
		if err := prof.Close(); err != nil {
			return nil, err
		}
	}
	if remoteProf != nil {
		if err := <-remoteProf; err != nil {
			return nil, err
		}
	}
	res.Load = st
	res.MovesPerSec = PerSec(st.Moves, res.Elapsed)
	if res.RawPerSec > 0 {
		res.Ratio = res.MovesPerSec / res.RawPerSec
	}
	rssNote := ""
	switch {
	case srv != nil:
		res.RSSKiB, res.HWMKiB = ReadRSS("self")
		rssNote = " (in-process: the load's clients share the process)"
	case serverPID > 0:
		res.RSSKiB, res.HWMKiB = ReadRSS(strconv.Itoa(serverPID))
	}

	lat := durationsMS(st.Latency)
	say("load: %d clients, %d moves in %s, %d games finished and replaced", len(ld.clients), st.Moves,
		res.Elapsed.Round(time.Millisecond), st.Finished)
	if cfg.Rate > 0 {
		say("  open loop         move POSTs scheduled at %.0f/s; %d started more than 1 ms late (no client free)", cfg.Rate, st.Late)
	}
	say("  moves/s           %.1f", res.MovesPerSec)
	from := ""
	if cfg.Rate > 0 {
		from = " (from the scheduled time)"
	}
	say("  move POST         p50 %.2f ms  p95 %.2f ms  p99 %.2f ms  max %.2f ms%s",
		percentile(lat, 50), percentile(lat, 95), percentile(lat, 99), percentile(lat, 100), from)
	say("  requests          %d (%.2f per move: %d live polls, %d full page loads, %d selection clicks, %d move POSTs)",
		st.Requests, float64(st.Requests)/math.Max(1, float64(st.Moves)), st.Polls, st.FullPages, st.Selections, st.Moves)
	if cfg.Live {
		say("  pushed updates    %d (%.2f per move, mean %.0f bytes): the tabs' event streams, the waiting player's page taking the move from them",
			st.Pushes, float64(st.Pushes)/math.Max(1, float64(st.Moves)), float64(st.PushBytes)/math.Max(1, float64(st.Pushes)))
		delay := durationsMS(st.PushDelay)
		say("  update delay      p50 %.2f ms  p99 %.2f ms  max %.2f ms (from the move's answer to its mover to the update reaching the other player's tab)",
			percentile(delay, 50), percentile(delay, 99), percentile(delay, 100))
	}
	say("  move answer       mean %.0f bytes  p50 %.0f  max %.0f on the wire (the fragment's body, gzip); %.0f  %.0f  %.0f decoded",
		mean(st.FragmentWire), percentile(st.FragmentWire, 50), percentile(st.FragmentWire, 100),
		mean(st.FragmentBytes), percentile(st.FragmentBytes, 50), percentile(st.FragmentBytes, 100))
	say("  selection answer  mean %.0f bytes on the wire, %.0f decoded", mean(st.SelectionWire), mean(st.SelectionBytes))
	say("  full game page    mean %.0f bytes  p50 %.0f  max %.0f on the wire, %.0f  %.0f  %.0f decoded (plain GET without HX-Request, %d samples)",
		mean(st.PageWire), percentile(st.PageWire, 50), percentile(st.PageWire, 100),
		mean(st.PageBytes), percentile(st.PageBytes, 50), percentile(st.PageBytes, 100), len(st.PageBytes))
	say("  bytes on the wire %.0f per move, %.0f per request (everything the server sent: headers, answers, the pushed updates)",
		float64(st.WireBytes)/math.Max(1, float64(st.Moves)), float64(st.WireBytes)/math.Max(1, float64(st.Requests)))
	say("  errors            %d", st.Errors)
	for _, e := range st.ErrorSamples {
		say("    %s", e)
	}
	if res.RSSKiB > 0 {
		say("  server RSS        %.1f MiB (peak %.1f MiB)%s", float64(res.RSSKiB)/1024, float64(res.HWMKiB)/1024, rssNote)
	} else {
		say("  server RSS        unknown (pass --pid with --url)")
	}
	switch {
	case !cpuOK || st.Moves == 0:
	case srv != nil:
		used := (cpu1 - cpu0).Seconds()
		say("  CPU               the process (server and clients) used %.2f of %d CPUs: %.2f ms per move", used/res.Elapsed.Seconds(),
			runtime.NumCPU(), used*1000/float64(st.Moves))
	case serverPID > 0:
		used := (cpu1 - cpu0).Seconds()
		res.ServerCPUPerMove = used * 1000 / float64(st.Moves)
		say("  server CPU        %.2f of %d CPUs (its own process accounting): %.2f ms per move, %.3f ms per request",
			used/res.Elapsed.Seconds(), runtime.NumCPU(), res.ServerCPUPerMove, used*1000/math.Max(1, float64(st.Requests)))
	}
	if srv == nil && loadOK && st.Moves > 0 {
		used := (load1 - load0).Seconds()
		res.LoadCPUPerMove = used * 1000 / float64(st.Moves)
		say("  load CPU          %.2f of %d CPUs (this process, the clients, GOMAXPROCS %d): %.2f ms per move", used/res.Elapsed.Seconds(),
			runtime.NumCPU(), runtime.GOMAXPROCS(0), res.LoadCPUPerMove)
		if procs := runtime.GOMAXPROCS(0); used/res.Elapsed.Seconds() > 0.8*float64(procs) {
			say("  (the load kept its %d processor(s) busy: these figures measure it as much as the server; see --load-procs)", procs)
		}
	}
	if res.ServerCPUPerMove > 0 && res.LoadCPUPerMove > 0 {
		// The two processes share the machine's processors: their CPU per
		// move together bounds the moves per second of this run.
		both := res.ServerCPUPerMove + res.LoadCPUPerMove
		say("  CPU per move      %.2f ms, server and load together: %d CPUs busy all the time would make at most %.0f moves/s",
			both, runtime.NumCPU(), float64(runtime.NumCPU())*1000/both)
	}
	if cfg.Rate == 0 && st.Requests > 0 {
		// Little's law: each client has one request or its own work going
		// at a time, so the mean time around one request is clients ÷
		// requests per second, whatever the server's speed.
		perReq := float64(len(ld.clients)) * 1000 / (float64(st.Requests) / res.Elapsed.Seconds())
		say("  closed loop       %d clients ÷ %.0f requests/s = %.1f ms around each request on average (the client's own work and waits included): at saturation latency falls only with more requests/s or fewer clients",
			len(ld.clients), float64(st.Requests)/res.Elapsed.Seconds(), perReq)
	}
	say("  raw commits/s     %.0f", res.RawPerSec)
	say("  ratio             %.2f (moves/s ÷ raw commits/s)", res.Ratio)
	switch {
	case cfg.Rate > 0:
		say("target (open loop, at 200 moves/s): p99 ≤ 10 ms %s (here at %.0f/s)", mark(percentile(lat, 99) <= 10), cfg.Rate)
	default:
		say("targets (2 cores, 64 clients): moves/s ≥ 2000 %s, p99 ≤ 25 ms %s, move answer ≤ 2.5 KB on the wire %s, first visit ≤ 40 KB %s, ratio ≥ 0.5 %s, server CPU ≤ 0.8 ms per move %s",
			mark(res.MovesPerSec >= 2000), mark(percentile(lat, 99) <= 25), mark(mean(st.FragmentWire) <= 2500),
			mark(res.FirstVisit.Bytes > 0 && res.FirstVisit.Bytes <= 40_000), mark(res.Ratio >= 0.5),
			mark(res.ServerCPUPerMove > 0 && res.ServerCPUPerMove <= 0.8))
	}
	if cfg.ComputerShare > 0 {
		if res.Computer, err = compareComputer(ctx, cfg, ld, say); err != nil {
			return nil, err
		}
		res.Load.Errors += res.Computer.Errors
	}
	switch {
	case cfg.CPUProfile == "":
	case pprofAddr != "":
		say("CPU profile of the server: %s (go tool pprof -top %s)", cfg.CPUProfile, cfg.CPUProfile)
	default:
		say("CPU profile of the load: %s (server side only: go tool pprof -tagfocus=side=server -top %s)", cfg.CPUProfile, cfg.CPUProfile)
	}
	res.LastLine = fmt.Sprintf("moves/s=%.1f p50_ms=%.2f p99_ms=%.2f fragment_bytes=%.0f ratio=%.2f",
		res.MovesPerSec, percentile(lat, 50), percentile(lat, 99), mean(st.FragmentBytes), res.Ratio)
	fmt.Fprintln(out, res.LastLine)
	return res, nil
}

func mark(ok bool) string {
	if ok {
		return "met"
	}
	return "MISSED"
}

// PerSec is n per second of d (0 for no time).
func PerSec(n int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

func durationsMS(ds []time.Duration) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = float64(d) / float64(time.Millisecond)
	}
	return out
}

// percentile returns the p-th percentile (nearest rank) of xs; 0 for none.
func percentile[T int | float64](xs []T, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return float64(s[min(max(i, 0), len(s)-1)])
}

func mean(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	sum := 0
	for _, x := range xs {
		sum += x
	}
	return float64(sum) / float64(len(xs))
}

// loadAverage is the first three fields of /proc/loadavg (other work on
// the machine skews every figure).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}

// procCPU returns the CPU time (user and system, all threads) used so
// far by process pid ("self" for this one), from /proc/PID/stat.
func procCPU(pid string) (time.Duration, bool) {
	if pid == "0" {
		return 0, false
	}
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	i := bytes.LastIndexByte(b, ')')
	if err != nil || i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	const ticks = 100 // USER_HZ
	return time.Duration(utime+stime) * time.Second / ticks, true
}

// ReadRSS returns VmRSS and VmHWM (KiB) of /proc/<pid>/status.
func ReadRSS(pid string) (rss, hwm int64) {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		n, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = n
		case "VmHWM:":
			hwm = n
		}
	}
	return rss, hwm
}

// RandomTag returns a short random name part, so that two runs on one
// server never ask for the same account names.
func RandomTag() string {
	return strconv.FormatUint(rand.Uint64()%(36*36*36*36*36), 36)
}

// loopbackURL checks that raw is an http URL of this machine — a loopback
// address, or the name localhost (no name is looked up: the dialer
// refuses anything but a loopback address anyway) — and returns its
// scheme and host.
func loopbackURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("bench: --url %q: want http://HOST:PORT", raw)
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); (ip == nil || !ip.IsLoopback()) && !strings.EqualFold(host, "localhost") {
		return "", fmt.Errorf("bench: --url %q is not a loopback address: only a server on this machine may be measured", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

// inProcess is the server started by bench itself, as `trench serve`
// starts it, on 127.0.0.1:0. Its goroutines carry the profiler label
// side=server (the load's carry side=client).
type inProcess struct {
	URL  string
	Path string
	stop func()
}

func startInProcess(ctx context.Context, path string, bcryptCost int, puzzleSearch bool) (*inProcess, error) {
	var (
		p   *inProcess
		err error
	)
	pprof.Do(ctx, pprof.Labels("side", "server"), func(ctx context.Context) {
		p, err = startLabeled(ctx, path, bcryptCost, puzzleSearch)
	})
	return p, err
}

func startLabeled(ctx context.Context, path string, bcryptCost int, puzzleSearch bool) (*inProcess, error) {
	ctx, cancel := context.WithCancel(ctx)
	store, err := db.Open(ctx, path)
	if err != nil {
		cancel()
		return nil, err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// The load comes from loopback on behalf of many users, each with an
	// address of its own (user.addr): trust loopback as a proxy.
	_, loopback, _ := net.ParseCIDR("127.0.0.0/8")
	e, app, err := handlers.New(ctx, store, handlers.Config{Logger: logger, BcryptCost: bcryptCost,
		TrustedProxies: []*net.IPNet{loopback}, NoPuzzleSearch: !puzzleSearch})
	if err != nil {
		cancel()
		store.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cancel()
		store.Close()
		return nil, err
	}
	srv := &http.Server{Handler: e, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}
	go app.ExpireLoop(ctx, time.Minute)
	// The computer players, as `trench serve` runs them (--bot-workers 1,
	// a processor more for the search).
	runtime.GOMAXPROCS(runtime.NumCPU() + 1)
	botDone := make(chan struct{})
	go func() {
		defer close(botDone)
		app.ComputerLoop(ctx, 5*time.Second)
	}()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	return &inProcess{URL: "http://" + ln.Addr().String(), Path: path, stop: func() {
		sctx, c2 := context.WithTimeout(context.Background(), 10*time.Second)
		defer c2()
		srv.Shutdown(sctx)
		<-done
		cancel()
		<-botDone
		store.Close()
	}}, nil
}

// rawResult is the storage's own limit: BenchCommit and PlayMove timed
// one after the other on one goroutine.
type rawResult struct {
	commits    int
	commitTime time.Duration
	latency    []time.Duration // of each commit
	plays      int
	playTime   time.Duration
}

// measureRaw times, on a new database at path opened with db.Open (the
// server's pragmas), the one-move write transaction alone (db.BenchCommit)
// and then db.PlayMove with random legal moves, each for d.
func measureRaw(ctx context.Context, path string, d time.Duration) (rawResult, error) {
	var r rawResult
	store, err := db.Open(ctx, path)
	if err != nil {
		return r, err
	}
	defer store.Close()
	now := time.Now()
	a, err := store.CreateUser(ctx, "raw-a", "-", now)
	if err != nil {
		return r, err
	}
	b, err := store.CreateUser(ctx, "raw-b", "-", now)
	if err != nil {
		return r, err
	}
	newGame := func() (db.Game, error) {
		c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: a.ID, Opponent: b.Name, Game: "trench",
			Variant: "single", Color: "0", DaysPerMove: 3}, time.Now())
		if err != nil {
			return db.Game{}, err
		}
		id, err := store.AcceptChallenge(ctx, c.ID, b.ID, 1, time.Now())
		if err != nil {
			return db.Game{}, err
		}
		return store.Game(ctx, id)
	}
	g, err := newGame()
	if err != nil {
		return r, err
	}
	st, err := g.Decode()
	if err != nil {
		return r, err
	}
	move := st.Legal(st.ToMove())[0]
	side := g.ToMove
	start := time.Now()
	for ply := 0; time.Since(start) < d && ctx.Err() == nil; ply++ {
		t0 := time.Now()
		if err := store.BenchCommit(ctx, g.ID, ply, side, g.State, move, t0); err != nil {
			return r, err
		}
		r.latency = append(r.latency, time.Since(t0))
		side = side.Other()
		r.commits++
	}
	r.commitTime = time.Since(start)

	rng := rand.New(rand.NewPCG(1, 1))
	if g, err = newGame(); err != nil {
		return r, err
	}
	// Only the PlayMove calls are timed, not the choice of a move.
	for start = time.Now(); time.Since(start) < d && ctx.Err() == nil; {
		if g.Finished() {
			if g, err = newGame(); err != nil {
				return r, err
			}
			continue
		}
		st, err := g.Decode()
		if err != nil {
			return r, err
		}
		legal := st.Legal(g.ToMove)
		p := db.Play{GameID: g.ID, UserID: g.Side[g.ToMove].ID, Ply: g.Ply, Move: legal[rng.IntN(len(legal))]}
		t0 := time.Now()
		if g, err = store.PlayMove(ctx, p, t0); err != nil {
			return r, err
		}
		r.playTime += time.Since(t0)
		r.plays++
	}
	return r, nil
}

// ---- The load: browsers playing through HTTP --------------------------

// LoadConfig sets up a load on a server.
type LoadConfig struct {
	BaseURL   string
	Users     int    // raised to 2 per client when lower
	Games     int    // raised to one per client when lower
	Clients   int    // lowered to the number of games when higher
	Game      string // "trench", "trenches" or "mix"
	Prefix    string // account names are Prefix-N
	FullEvery int    // every n-th move of a game is preceded by a full page load (0: never)
	// Live: the tabs hold the pages' event streams and the waiting
	// player's tab takes the opponent's move from the pushed update, as a
	// browser with JavaScript does (see live.go); otherwise it polls.
	Live bool
	// OnAck is called for every move the server acknowledged (a 2xx answer
	// to its POST): the game, the ply it made, the move as submitted.
	OnAck func(gameID int64, ply int, move string)
}

// RunLimits bounds one run of the load; a zero field is no bound.
type RunLimits struct {
	Moves    int64         // successful moves in all
	Duration time.Duration // no move starts after this long
	PerGame  int           // moves per game of each client
	Rate     float64       // open loop: move POSTs scheduled at this many per second (0: closed loop)
}

// LoadStats is what the clients saw.
type LoadStats struct {
	Moves     int
	Requests  int
	Polls     int
	Pushes    int // updates the tabs' event streams received (--live)
	PushBytes int // … their data, in bytes
	// PushDelay is, for each move the waiting tab took from its stream,
	// the time from the move's answer to its mover to the update's
	// arrival on the other tab (0 when it came first).
	PushDelay      []time.Duration
	FullPages      int
	Selections     int
	Finished       int
	Late           int // open loop: move POSTs started more than 1 ms after their scheduled time
	Errors         int
	ErrorSamples   []string
	Latency        []time.Duration // of each successful move POST
	FragmentBytes  []int           // body of each successful move POST answer
	SelectionBytes []int
	PageBytes      []int // body of each full game page
	// FragmentWire, SelectionWire and PageWire are the same bodies as they
	// came over the wire (gzip-encoded).
	FragmentWire, SelectionWire, PageWire []int
	// WireBytes is every byte the server sent the clients during the run:
	// headers, answers and event streams, as they came over the wire.
	WireBytes int64
}

func (s *LoadStats) add(o LoadStats) {
	s.Moves += o.Moves
	s.Requests += o.Requests
	s.Polls += o.Polls
	s.Pushes += o.Pushes
	s.PushBytes += o.PushBytes
	s.PushDelay = append(s.PushDelay, o.PushDelay...)
	s.FullPages += o.FullPages
	s.Selections += o.Selections
	s.Finished += o.Finished
	s.Late += o.Late
	s.Errors += o.Errors
	for _, e := range o.ErrorSamples {
		if len(s.ErrorSamples) < 8 {
			s.ErrorSamples = append(s.ErrorSamples, e)
		}
	}
	s.Latency = append(s.Latency, o.Latency...)
	s.FragmentBytes = append(s.FragmentBytes, o.FragmentBytes...)
	s.SelectionBytes = append(s.SelectionBytes, o.SelectionBytes...)
	s.PageBytes = append(s.PageBytes, o.PageBytes...)
	s.FragmentWire = append(s.FragmentWire, o.FragmentWire...)
	s.SelectionWire = append(s.SelectionWire, o.SelectionWire...)
	s.PageWire = append(s.PageWire, o.PageWire...)
	s.WireBytes += o.WireBytes
}

// Load is a set of clients, each owning some accounts and the games
// between them: a client plays both sides of its games, one move at a
// time, so that no two requests ever race on a game and every answer but
// a 2xx is an error.
type Load struct {
	cfg     LoadConfig
	base    atomic.Pointer[string]
	users   int
	clients []*client
	// Killed is set by whoever is about to kill the server: errors after
	// it are expected, and end the client that sees one.
	Killed   atomic.Bool
	reserved atomic.Int64
	// open is the schedule of an open-loop run (nil in a closed loop).
	open *openLoop
	// wire counts the bytes the server sent the clients (headers, answers
	// and event streams as they came over the wire).
	wire atomic.Int64
	// onGame, when set, sees every game answer the clients read, with
	// what they read in it (the tests check the reading).
	onGame func(body []byte, pg *gamePage)
}

// openLoop hands out the start times of move POSTs on a fixed schedule:
// the n-th move POST is due at t0 + n/rate, whether or not a client is
// free to send it then, so that a slow server shows as latency instead of
// as fewer requests (no coordinated omission).
type openLoop struct {
	t0       time.Time
	interval float64 // seconds between two arrivals
	deadline time.Time
	seq      atomic.Int64
}

// errRunOver ends a client's run quietly: the open loop's schedule is over.
var errRunOver = errors.New("bench: the run is over")

// next takes the next slot of the schedule and waits until it is due; it
// returns the scheduled time, or false when the schedule (or ctx) is over.
func (o *openLoop) next(ctx context.Context) (time.Time, bool) {
	n := o.seq.Add(1) - 1
	due := o.t0.Add(time.Duration(float64(n) * o.interval * float64(time.Second)))
	if !o.deadline.IsZero() && due.After(o.deadline) {
		return time.Time{}, false
	}
	if wait := time.Until(due); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return time.Time{}, false
		case <-t.C:
		}
	}
	return due, true
}

func gameKinds(game string) ([][2]string, error) {
	switch game {
	case "trench":
		return [][2]string{{"trench", "single"}}, nil
	case "trenches":
		return [][2]string{{"trenches", "standard"}}, nil
	case "mix", "":
		return [][2]string{{"trench", "single"}, {"trenches", "standard"}}, nil
	}
	return nil, fmt.Errorf("bench: --game %q: want trench, trenches or mix", game)
}

// NewLoad signs the accounts up and creates the games, all over HTTP as
// browsers do, the clients in parallel.
func NewLoad(ctx context.Context, cfg LoadConfig) (*Load, error) {
	kinds, err := gameKinds(cfg.Game)
	if err != nil {
		return nil, err
	}
	cfg.Clients = min(cfg.Clients, cfg.Games)
	cfg.Users = max(cfg.Users, 2*cfg.Clients)
	l := &Load{cfg: cfg, users: cfg.Users}
	base := strings.TrimRight(cfg.BaseURL, "/")
	l.base.Store(&base)
	transport := &http.Transport{
		Proxy:               nil,
		DialContext:         countingDial((&net.Dialer{Timeout: 5 * time.Second, Control: loopbackOnly}).DialContext, &l.wire),
		MaxIdleConns:        4 * cfg.Clients,
		MaxIdleConnsPerHost: 4 * cfg.Clients,
		IdleConnTimeout:     time.Minute,
		// An answer (headers and body, 10 to 30 KB) in one read.
		ReadBufferSize: 64 << 10,
	}
	for i := range cfg.Clients {
		c := &client{l: l, id: i, rng: rand.New(rand.NewPCG(uint64(i)+1, 7))}
		for u := i; u < cfg.Users; u += cfg.Clients {
			jar, _ := cookiejar.New(nil)
			c.users = append(c.users, &user{name: fmt.Sprintf("%s-%d", cfg.Prefix, u), addr: userAddr(u), http: &http.Client{
				Jar: jar, Transport: transport, Timeout: time.Minute,
				CheckRedirect: func(req *http.Request, via []*http.Request) error {
					if len(via) > 5 {
						return errors.New("too many redirects")
					}
					return nil
				}}})
		}
		l.clients = append(l.clients, c)
	}
	for j := range cfg.Games {
		c := l.clients[j%cfg.Clients]
		k := j / cfg.Clients
		n := len(c.users)
		a, b := c.users[(2*k)%n], c.users[(2*k+1)%n]
		c.games = append(c.games, &game{kind: kinds[j%len(kinds)], players: [2]*user{a, b}})
	}
	errs := make([]error, len(l.clients))
	var wg sync.WaitGroup
	for i, c := range l.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.setup(ctx)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("bench: setup: %w", err)
	}
	return l, nil
}

// loopbackOnly refuses to connect anywhere but to this machine.
func loopbackOnly(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("bench: refusing to connect to %s: loopback only", address)
	}
	return nil
}

// SetBase points every client at another address of the server (after a
// restart); the sessions carry over, as cookies ignore the port.
func (l *Load) SetBase(base string) {
	base = strings.TrimRight(base, "/")
	l.base.Store(&base)
}

func (l *Load) baseURL() string { return *l.base.Load() }

// Accounts is the number of accounts the load signed up.
func (l *Load) Accounts() int { return l.users }

// Clients is the number of clients playing.
func (l *Load) Clients() int { return len(l.clients) }

// AllGames returns every game of the load.
func (l *Load) AllGames() []*game {
	var out []*game
	for _, c := range l.clients {
		out = append(out, c.games...)
	}
	return out
}

// DescribeGames says how many games of each kind the load plays.
func (l *Load) DescribeGames() string {
	n := map[string]int{}
	for _, g := range l.AllGames() {
		n[g.kind[0]+" "+g.kind[1]]++
	}
	var parts []string
	for k, v := range n {
		parts = append(parts, fmt.Sprintf("%d %s", v, k))
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

// Run lets every client play until a limit is reached and returns what
// they saw.
func (l *Load) Run(ctx context.Context, lim RunLimits) LoadStats {
	l.reserved.Store(0)
	var deadline time.Time
	if lim.Duration > 0 {
		deadline = time.Now().Add(lim.Duration)
	}
	if lim.Rate > 0 {
		l.open = &openLoop{t0: time.Now(), interval: 1 / lim.Rate, deadline: deadline}
		defer func() { l.open = nil }()
	}
	stats := make([]LoadStats, len(l.clients))
	wire0 := l.wire.Load()
	var wg sync.WaitGroup
	for i, c := range l.clients {
		wg.Add(1)
		go pprof.Do(ctx, pprof.Labels("side", "client"), func(ctx context.Context) {
			defer wg.Done()
			stats[i] = c.run(ctx, lim, deadline)
		})
	}
	wg.Wait()
	var total LoadStats
	for _, s := range stats {
		total.add(s)
	}
	total.WireBytes = l.wire.Load() - wire0
	return total
}

// Resync reloads every game page of every client (as after a restart a
// browser reloads): clients forget what they had. A game found over (it
// ended, or its replacement was cut off half made) is replaced.
func (l *Load) Resync(ctx context.Context) error {
	var errs []error
	for _, c := range l.clients {
		for _, g := range c.games {
			err := c.open(ctx, g, nil)
			if err == nil && g.tabs[0].finished {
				err = c.gameOver(ctx, g, g.tabs[0])
			}
			if err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// user is one account with its own cookie jar (its browser).
type user struct {
	name string
	http *http.Client
	// addr is the user's own client address, sent as X-Forwarded-For: the
	// server (in-process, or started with --trusted-proxy 127.0.0.1) then
	// counts its per-address limits per user, as for players on machines
	// of their own.
	addr string
}

// game is one game a client plays, as its two players' browser tabs see
// it.
type game struct {
	id       int64
	kind     [2]string // game, variant
	players  [2]*user  // creator, opponent (not sides)
	tabs     [2]*gamePage
	streams  [2]*tabStream // the tabs' event streams (with Live), nil when not open
	answered time.Time     // when the last move's answer reached its mover
	live     [2]string     // the tabs' stream addresses, from their last full page
	waiting  int           // the player who waits for the other's move
	moves    int           // moves played in this game by this client
	// computer: players[0] plays the computer at level (players[1] and
	// tabs[1] are nil).
	computer bool
	level    bot.Level
}

func (g *game) url() string { return "/games/" + strconv.FormatInt(g.id, 10) }

// client plays its games one move at a time.
type client struct {
	l     *Load
	id    int
	rng   *rand.Rand
	users []*user
	games []*game
	next  int
	st    LoadStats
	buf   []byte // the last answer's body (see send)
	raw   []byte // the last answer's body as it came, when encoded
	// tab names the event stream of the page the requests being sent
	// come from (X-Trench-Tab; "" for none).
	tab string
}

// Password is every account's password in the load.
const Password = "bench-password"

// signUps bounds the sign-ups under way at once.
var signUps = make(chan struct{}, 2*runtime.NumCPU())

// setup signs the client's accounts up and starts its games.
func (c *client) setup(ctx context.Context) error {
	for _, u := range c.users {
		if err := c.signUp(ctx, u); err != nil {
			return err
		}
	}
	for _, g := range c.games {
		if err := c.newGame(ctx, g); err != nil {
			return err
		}
	}
	return nil
}

// page is one answer of the server.
type page struct {
	status int
	url    string // after redirects
	body   []byte // decoded
	wire   int    // the body's length as it came (gzip-encoded or not)
}

// request sends one request, with form (if not nil) as its body; htmx
// adds the headers htmx sends for act.
func (c *client) request(ctx context.Context, u *user, method, path string, form url.Values, act *action, current string) (page, error) {
	if form == nil {
		return c.send(ctx, u, method, path, "", false, act, current)
	}
	return c.send(ctx, u, method, path, form.Encode(), true, act, current)
}

// send sends one request, with the encoded form body if isForm; htmx
// adds the headers htmx sends for act. The answer's body is read into the
// client's buffer: it is valid until the client's next request.
func (c *client) send(ctx context.Context, u *user, method, path, form string, isForm bool, act *action, current string) (page, error) {
	var body io.Reader
	if isForm {
		body = strings.NewReader(form)
	}
	target := path
	if !strings.HasPrefix(target, "http") {
		target = c.l.baseURL() + path
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return page{}, err
	}
	if isForm {
		req.Header["Content-Type"] = []string{"application/x-www-form-urlencoded"}
	}
	req.Header["X-Forwarded-For"] = []string{u.addr}
	req.Header["Accept-Encoding"] = []string{acceptEncoding}
	if act != nil && act.htmx {
		req.Header["Hx-Request"] = []string{"true"}
		req.Header["Hx-Current-Url"] = []string{c.l.baseURL() + current}
		if act.target != "" {
			req.Header["Hx-Target"] = []string{act.target}
		}
		if act.trigger != "" {
			req.Header["Hx-Trigger"] = []string{act.trigger}
		}
		if act.boosted {
			req.Header["Hx-Boosted"] = []string{"true"}
		}
		for k, v := range act.headers {
			req.Header.Set(k, v)
		}
		if c.tab != "" {
			req.Header["X-Trench-Tab"] = []string{c.tab}
		}
	}
	c.st.Requests++
	res, err := u.http.Do(req)
	if err != nil {
		return page{}, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	var wire int
	if c.buf, c.raw, wire, err = readAnswer(c.buf[:0], c.raw, res); err != nil {
		return page{}, fmt.Errorf("%s %s: %w", method, path, err)
	}
	return page{status: res.StatusCode, url: res.Request.URL.Path, body: c.buf, wire: wire}, nil
}

// readBody appends all of r to buf (n bytes are announced, -1 unknown),
// growing it only when it is too small.
func readBody(buf []byte, r io.Reader, n int64) ([]byte, error) {
	if n > 0 && n <= 1<<24 && int64(cap(buf)) < n+1 {
		buf = make([]byte, 0, n+1)
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

func (c *client) get(ctx context.Context, u *user, path string) (page, error) {
	return c.request(ctx, u, http.MethodGet, path, nil, nil, "")
}

// wantOK returns an error for any answer but 200, quoting its message.
func wantOK(p page, what string) error {
	if p.status == http.StatusOK {
		return nil
	}
	d := parseDoc(p.body)
	msg := d.text("game-message")
	if msg == "" {
		msg = d.firstText("div", "flash")
	}
	return fmt.Errorf("%s: status %d %q", what, p.status, msg)
}

func (c *client) signUp(ctx context.Context, u *user) error {
	// A sign-up hashes the password (bcrypt, tens of ms of CPU): a few at
	// a time, or on a busy machine they queue past the server's timeouts.
	select {
	case signUps <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-signUps }()
	p, err := c.get(ctx, u, "/signup")
	if err != nil {
		return err
	}
	if err := wantOK(p, "GET /signup"); err != nil {
		return err
	}
	csrf := parseDoc(p.body).inputValue("_csrf")
	p, err = c.request(ctx, u, http.MethodPost, "/signup",
		url.Values{"_csrf": {csrf}, "next": {""}, "name": {u.name}, "password": {Password}}, nil, "")
	if err != nil {
		return err
	}
	if err := wantOK(p, "sign up "+u.name); err != nil {
		return err
	}
	if d := parseDoc(p.body); d.find(func(i int) bool { return d.is(i, "form") && d.attrIs(i, "action", "/signout") }) < 0 {
		return fmt.Errorf("sign up %s: not signed in afterwards", u.name)
	}
	return nil
}

// newGame has g's first player challenge the second, who accepts from
// the dashboard; both then open the game page.
func (c *client) newGame(ctx context.Context, g *game) error {
	a, b := g.players[0], g.players[1]
	if c.rng.IntN(2) == 1 {
		a, b = b, a
	}
	p, err := c.get(ctx, a, "/challenges/new?game="+g.kind[0])
	if err != nil {
		return err
	}
	if err := wantOK(p, "GET /challenges/new"); err != nil {
		return err
	}
	csrf := parseDoc(p.body).inputValue("_csrf")
	p, err = c.request(ctx, a, http.MethodPost, "/challenges", url.Values{"_csrf": {csrf}, "game": {g.kind[0]},
		"variant": {g.kind[1]}, "color": {"random"}, "days": {"3"}, "opponent": {b.name}}, nil, "")
	if err != nil {
		return err
	}
	if err := wantOK(p, "create a challenge"); err != nil {
		return err
	}
	d := parseDoc(p.body)
	table := d.byID("my-challenges")
	var id int64
	for i := range d.nodes {
		if v, ok := d.attr(i, "data-challenge"); ok && d.inside(i, table) {
			if n, _ := strconv.ParseInt(v, 10, 64); n > id {
				id = n
			}
		}
	}
	if id == 0 {
		return fmt.Errorf("%s's new challenge is not on their dashboard", a.name)
	}
	p, err = c.get(ctx, b, "/")
	if err != nil {
		return err
	}
	if err := wantOK(p, "GET /"); err != nil {
		return err
	}
	d = parseDoc(p.body)
	row := d.find(func(i int) bool { return d.attrIs(i, "data-challenge", strconv.FormatInt(id, 10)) })
	if row < 0 || !d.inside(row, d.byID("open-challenges")) {
		return fmt.Errorf("%s does not see %s's challenge %d", b.name, a.name, id)
	}
	accept := fmt.Sprintf("/challenges/%d/accept", id)
	form := d.find(func(i int) bool { return d.inside(i, row) && d.is(i, "form") && d.attrIs(i, "action", accept) })
	if form < 0 {
		return fmt.Errorf("no accept button for challenge %d", id)
	}
	p, err = c.request(ctx, b, http.MethodPost, accept, d.hiddenFields(form), nil, "")
	if err != nil {
		return err
	}
	if err := wantOK(p, "accept a challenge"); err != nil {
		return err
	}
	if _, err := fmt.Sscanf(p.url, "/games/%d", &g.id); err != nil {
		return fmt.Errorf("accepting challenge %d led to %s, not a game", id, p.url)
	}
	g.moves = 0
	p.body = bytes.Clone(p.body) // kept across the other player's request
	return c.open(ctx, g, map[*user]page{b: p})
}

// open loads g's page in both players' tabs with a plain GET (a page
// already loaded may be given).
func (c *client) open(ctx context.Context, g *game, have map[*user]page) error {
	c.closeStreams(g) // a page loaded afresh opens a stream of its own
	for i, u := range g.players {
		p, ok := have[u]
		if !ok {
			var err error
			if p, err = c.get(ctx, u, g.url()); err != nil {
				return err
			}
		}
		c.st.FullPages++
		if err := wantOK(p, "GET "+g.url()); err != nil {
			return err
		}
		c.st.PageBytes = append(c.st.PageBytes, len(p.body))
		c.st.PageWire = append(c.st.PageWire, p.wire)
		if g.tabs[i] = c.readGame(p.body); !g.tabs[i].found {
			return fmt.Errorf("GET %s: no #game on the page", g.url())
		}
		g.live[i] = g.tabs[i].live
	}
	g.waiting = 1
	if g.tabs[1].yourTurn {
		g.waiting = 0
	}
	return nil
}

func (c *client) run(ctx context.Context, lim RunLimits, deadline time.Time) LoadStats {
	c.st = LoadStats{}
	for _, g := range c.games {
		g.moves = 0
	}
	failures := 0
	for ctx.Err() == nil {
		if !deadline.IsZero() && time.Now().After(deadline) {
			break
		}
		g := c.pick(lim)
		if g == nil {
			break
		}
		if lim.Moves > 0 && c.l.reserved.Add(1) > lim.Moves {
			break
		}
		var err error
		if g.computer {
			err = c.playComputer(ctx, g)
		} else {
			err = c.play(ctx, g)
		}
		if err == nil {
			continue
		}
		if c.l.Killed.Load() || ctx.Err() != nil || errors.Is(err, errRunOver) {
			break
		}
		c.st.Errors++
		if len(c.st.ErrorSamples) < 3 {
			c.st.ErrorSamples = append(c.st.ErrorSamples, fmt.Sprintf("game %d: %v", g.id, err))
		}
		if failures++; failures > 10 {
			break
		}
		// Start again from a fresh page, as a person would reload.
		if err := c.open(ctx, g, nil); err != nil {
			c.st.Errors++
			break
		}
	}
	for _, g := range c.games {
		c.closeStreams(g)
	}
	return c.st
}

// pick returns the next game to move in, round robin; nil when every game
// has had its moves.
func (c *client) pick(lim RunLimits) *game {
	for range c.games {
		g := c.games[c.next%len(c.games)]
		c.next++
		if lim.PerGame == 0 || g.moves < lim.PerGame {
			return g
		}
	}
	return nil
}

// play makes one move in g: the player to move learns of the opponent's
// move (the update pushed to the page, or without Live the live poll; now
// and then a reload), clicks a unit, clicks on until a move button shows,
// and submits the board.
func (c *client) play(ctx context.Context, g *game) error {
	if c.l.cfg.Live {
		if err := c.ensureStreams(ctx, g); err != nil {
			return err
		}
	}
	mover := -1
	for i, t := range g.tabs {
		if t.yourTurn && !t.finished {
			mover = i
		}
	}
	if mover < 0 {
		w := g.waiting
		if c.l.cfg.FullEvery > 0 && g.moves%c.l.cfg.FullEvery == c.l.cfg.FullEvery-1 {
			p, err := c.get(ctx, g.players[w], g.url())
			if err != nil {
				return err
			}
			if err := wantOK(p, "reload "+g.url()); err != nil {
				return err
			}
			c.st.FullPages++
			c.st.PageBytes = append(c.st.PageBytes, len(p.body))
			c.st.PageWire = append(c.st.PageWire, p.wire)
			g.tabs[w] = c.readGame(p.body)
			if c.l.cfg.Live {
				// The page reloaded opens a stream of its own.
				g.live[w] = g.tabs[w].live
				if s := g.streams[w]; s != nil {
					c.countPushes(s)
					s.close()
					g.streams[w] = nil
				}
				if err := c.ensureStreams(ctx, g); err != nil {
					return err
				}
			}
		} else if c.l.cfg.Live {
			pg, err := c.awaitPush(ctx, g, w, max(g.tabs[0].ply, g.tabs[1].ply))
			if err != nil {
				return err
			}
			g.tabs[w] = pg
		} else {
			poll := g.tabs[w].poll
			if poll == nil {
				return fmt.Errorf("%s's page of game %d has no live update", g.players[w].name, g.id)
			}
			p, err := c.request(ctx, g.players[w], http.MethodGet, poll.url, nil, poll, g.url())
			if err != nil {
				return err
			}
			c.st.Polls++
			if err := wantOK(p, "live update"); err != nil {
				return err
			}
			g.tabs[w] = c.readGame(p.body)
		}
		if !g.tabs[w].found {
			return fmt.Errorf("no #game in the answer")
		}
		if g.tabs[w].finished {
			return c.gameOver(ctx, g, g.tabs[w])
		}
		if !g.tabs[w].yourTurn {
			return fmt.Errorf("neither player of game %d may move", g.id)
		}
		mover = w
	}
	if c.l.cfg.Live {
		c.tab = tabOf(g.live[mover])
		defer func() { c.tab = "" }()
	}
	return c.clickMove(ctx, g, mover)
}

// clickMove makes one move as g's player mover: clicks a unit, clicks on
// until a move button shows, and submits the board.
func (c *client) clickMove(ctx context.Context, g *game, mover int) error {
	u := g.players[mover]
	pg := g.tabs[mover]
	for step := 0; step < 4; step++ {
		if step > 0 && len(pg.moves) > 0 {
			return c.submit(ctx, g, mover, pg, pg.moves[c.rng.IntN(len(pg.moves))])
		}
		links := pg.units
		if step > 0 && len(pg.targets) > 0 {
			links = pg.targets
		}
		if len(links) == 0 {
			return fmt.Errorf("%s: nothing to click on the board of game %d (ply %d)", u.name, g.id, pg.ply)
		}
		a := links[c.rng.IntN(len(links))]
		p, err := c.request(ctx, u, http.MethodGet, a.url, nil, &a, g.url())
		if err != nil {
			return err
		}
		c.st.Selections++
		if err := wantOK(p, "select "+a.url); err != nil {
			return err
		}
		c.st.SelectionBytes = append(c.st.SelectionBytes, len(p.body))
		c.st.SelectionWire = append(c.st.SelectionWire, p.wire)
		if pg = c.readGame(p.body); !pg.found {
			return fmt.Errorf("GET %s: no #game in the answer", a.url)
		}
		g.tabs[mover] = pg
	}
	return fmt.Errorf("%s: no move after four clicks in game %d", u.name, g.id)
}

// submit posts the board form with the move button's value.
func (c *client) submit(ctx context.Context, g *game, mover int, pg *gamePage, move string) error {
	if pg.form == nil {
		return fmt.Errorf("game %d: the board is not a form", g.id)
	}
	form := encodeForm(pg.fields, move)
	ply, err := strconv.Atoi(field(pg.fields, "ply"))
	if err != nil {
		return fmt.Errorf("game %d: the board form has no ply", g.id)
	}
	u := g.players[mover]
	start := time.Now()
	if c.l.open != nil {
		due, ok := c.l.open.next(ctx)
		if !ok {
			return errRunOver
		}
		if start = time.Now(); start.Sub(due) > time.Millisecond {
			c.st.Late++
		}
		start = due
	}
	p, err := c.send(ctx, u, http.MethodPost, pg.form.url, form, true, pg.form, g.url())
	lat := time.Since(start)
	if err != nil {
		return err
	}
	if p.status < 200 || p.status > 299 {
		return wantOK(p, fmt.Sprintf("move %s at ply %d", move, ply))
	}
	if c.l.cfg.OnAck != nil {
		c.l.cfg.OnAck(g.id, ply+1, move)
	}
	c.st.Moves++
	c.st.Latency = append(c.st.Latency, lat)
	c.st.FragmentBytes = append(c.st.FragmentBytes, len(p.body))
	c.st.FragmentWire = append(c.st.FragmentWire, p.wire)
	g.moves++
	g.answered = time.Now()
	next := c.readGame(p.body)
	if !next.found {
		return fmt.Errorf("move %s: no #game in the answer", move)
	}
	g.tabs[mover] = next
	if next.finished {
		return c.gameOver(ctx, g, next)
	}
	g.waiting = 1 - mover
	if next.yourTurn {
		g.waiting = mover
	}
	return nil
}

// readGame reads a game answer (see parseGame).
func (c *client) readGame(body []byte) *gamePage {
	pg := parseGame(body)
	if c.l.onGame != nil {
		c.l.onGame(body, pg)
	}
	return pg
}

// gameOver goes on to the match's next game, or starts a new one.
func (c *client) gameOver(ctx context.Context, g *game, pg *gamePage) error {
	c.st.Finished++
	if g.computer {
		return c.newComputerGame(ctx, g)
	}
	if pg.nextGame != "" {
		if _, err := fmt.Sscanf(pg.nextGame, "/games/%d", &g.id); err == nil {
			return c.open(ctx, g, nil)
		}
	}
	return c.newGame(ctx, g)
}

// ---- Reading pages ------------------------------------------------------

// action is a request an element of a page makes when clicked (or, for
// the live update, when its timer fires), with what htmx would send.
type action struct {
	url     string
	htmx    bool // htmx sends it (HX-Request); otherwise the browser navigates
	boosted bool
	target  string            // HX-Target
	trigger string            // HX-Trigger
	headers map[string]string // hx-headers of the element and its ancestors
}

// gamePage is what a player's tab shows of a game.
type gamePage struct {
	found    bool // the answer holds #game
	ply      int
	yourTurn bool
	finished bool
	nextGame string
	live     string // the page's event stream (sse-connect), "" in a fragment
	poll     *action
	units    []action    // the board's clickable cells
	targets  []action    // … of them, the ones marked as the selection's targets
	moves    []string    // the move buttons' values
	form     *action     // the board form's submission
	fields   []formField // its hidden fields, names unique
}

// doc is an HTML page or fragment as a flat list of elements (no text),
// each with its parent: enough to find what a browser would click.
type doc struct {
	nodes []node
	raw   []byte
}

type node struct {
	tag    string
	attrs  []html.Attribute
	parent int
}

var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

func parseDoc(body []byte) *doc {
	d := &doc{nodes: make([]node, 0, 256), raw: body}
	z := html.NewTokenizer(bytes.NewReader(body))
	stack := make([]int, 0, 32)
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return d
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			n := node{tag: string(name), parent: -1}
			if len(stack) > 0 {
				n.parent = stack[len(stack)-1]
			}
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				n.attrs = append(n.attrs, html.Attribute{Key: string(k), Val: string(v)})
			}
			d.nodes = append(d.nodes, n)
			if tt == html.StartTagToken && !voidElements[n.tag] {
				stack = append(stack, len(d.nodes)-1)
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			for i := len(stack) - 1; i >= 0; i-- {
				if d.nodes[stack[i]].tag == string(name) {
					stack = stack[:i]
					break
				}
			}
		}
	}
}

func (d *doc) attr(i int, key string) (string, bool) {
	if i < 0 {
		return "", false
	}
	for _, a := range d.nodes[i].attrs {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func (d *doc) attrIs(i int, key, val string) bool {
	v, ok := d.attr(i, key)
	return ok && v == val
}

func (d *doc) is(i int, tag string) bool { return i >= 0 && d.nodes[i].tag == tag }

func (d *doc) hasClass(i int, class string) bool {
	v, _ := d.attr(i, "class")
	return slices.Contains(strings.Fields(v), class)
}

// inside reports whether element i is anc or inside it.
func (d *doc) inside(i, anc int) bool {
	if anc < 0 {
		return false
	}
	for ; i >= 0; i = d.nodes[i].parent {
		if i == anc {
			return true
		}
	}
	return false
}

func (d *doc) find(match func(i int) bool) int {
	for i := range d.nodes {
		if match(i) {
			return i
		}
	}
	return -1
}

func (d *doc) byID(id string) int {
	return d.find(func(i int) bool { return d.attrIs(i, "id", id) })
}

// inherited returns the value of attribute key on i or its nearest
// ancestor that has it (htmx's attribute inheritance).
func (d *doc) inherited(i int, key string) (string, bool) {
	for ; i >= 0; i = d.nodes[i].parent {
		if v, ok := d.attr(i, key); ok {
			return v, true
		}
	}
	return "", false
}

// headers merges the hx-headers of i and its ancestors, the nearest
// winning.
func (d *doc) headers(i int) map[string]string {
	var chain []int
	for j := i; j >= 0; j = d.nodes[j].parent {
		chain = append(chain, j)
	}
	out := map[string]string{}
	for k := len(chain) - 1; k >= 0; k-- {
		v, ok := d.attr(chain[k], "hx-headers")
		if !ok {
			continue
		}
		var m map[string]any
		if json.Unmarshal([]byte(v), &m) == nil {
			for name, val := range m {
				out[name] = fmt.Sprint(val)
			}
		}
	}
	return out
}

// action is what clicking element i does with JavaScript on: htmx's own
// attribute (hx-get, hx-post), else the link or form boosted by an
// hx-boost="true" around it, else a plain navigation.
func (d *doc) action(i int, hxAttr, plainAttr string) action {
	var a action
	if v, ok := d.attr(i, hxAttr); ok {
		a.url, a.htmx = v, true
	} else {
		a.url, _ = d.attr(i, plainAttr)
		if v, ok := d.inherited(i, "hx-boost"); ok && v == "true" {
			a.htmx, a.boosted = true, true
		}
	}
	if a.htmx {
		a.headers = d.headers(i)
		if t, ok := d.inherited(i, "hx-target"); ok {
			a.target = strings.TrimPrefix(t, "#")
		}
		a.trigger, _ = d.attr(i, "id")
	}
	return a
}

// hiddenFields returns the hidden inputs of form element f.
func (d *doc) hiddenFields(f int) url.Values {
	vals := url.Values{}
	for i := f + 1; i < len(d.nodes) && d.inside(i, f); i++ {
		if d.is(i, "input") && d.attrIs(i, "type", "hidden") {
			name, _ := d.attr(i, "name")
			v, _ := d.attr(i, "value")
			vals.Set(name, v)
		}
	}
	return vals
}

// inputValue returns the value of the first input named name.
func (d *doc) inputValue(name string) string {
	v, _ := d.attr(d.find(func(i int) bool { return d.is(i, "input") && d.attrIs(i, "name", name) }), "value")
	return v
}

// text returns the text inside the element with id (for error messages;
// a second pass over the page).
func (d *doc) text(id string) string {
	return textOf(d.raw, func(tag string, attrs []html.Attribute) bool {
		return slices.Contains(attrs, html.Attribute{Key: "id", Val: id})
	})
}

// firstText returns the text of the first tag element with class.
func (d *doc) firstText(tag, class string) string {
	return textOf(d.raw, func(t string, attrs []html.Attribute) bool {
		if t != tag {
			return false
		}
		for _, a := range attrs {
			if a.Key == "class" && slices.Contains(strings.Fields(a.Val), class) {
				return true
			}
		}
		return false
	})
}

func textOf(body []byte, match func(tag string, attrs []html.Attribute) bool) string {
	z := html.NewTokenizer(bytes.NewReader(body))
	depth := 0
	var sb strings.Builder
	for {
		switch z.Next() {
		case html.ErrorToken:
			return strings.TrimSpace(sb.String())
		case html.StartTagToken:
			t := z.Token()
			if depth > 0 {
				if !voidElements[t.Data] {
					depth++
				}
			} else if match(t.Data, t.Attr) {
				depth = 1
			}
		case html.EndTagToken:
			if depth > 0 {
				if depth--; depth == 0 {
					return strings.TrimSpace(sb.String())
				}
			}
		case html.TextToken:
			if depth > 0 {
				sb.Write(z.Text())
			}
		}
	}
}

// userAddr is the client address of user number n: 10.x.y.z, one per user.
func userAddr(n int) string {
	return fmt.Sprintf("10.%d.%d.%d", (n>>16)&255, (n>>8)&255, n&255)
}

// fetchProfile asks the server's profiler at addr for a CPU profile of
// the next d (rounded up to whole seconds) and writes it to path.
func fetchProfile(ctx context.Context, addr string, d time.Duration, path string) error {
	secs := int(math.Ceil(d.Seconds()))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", addr, secs), nil)
	if err != nil {
		return err
	}
	hc := &http.Client{Transport: &http.Transport{Proxy: nil}, Timeout: time.Duration(secs)*time.Second + time.Minute}
	res, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("bench: the server's CPU profile: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("bench: the server's CPU profile: status %d", res.StatusCode)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, res.Body); err != nil {
		f.Close()
		return fmt.Errorf("bench: the server's CPU profile: %w", err)
	}
	return f.Close()
}
