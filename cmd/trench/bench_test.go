package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/crypto/bcrypt"
)

var lastLine = regexp.MustCompile(`^moves/s=\d+(\.\d)? p50_ms=\d+\.\d\d p99_ms=\d+\.\d\d fragment_bytes=\d+ ratio=\d+\.\d\d$`)

// TestBench runs the bench in-process with tiny numbers: no error, and
// the summary line well-formed. It asserts no speed.
func TestBench(t *testing.T) {
	var out bytes.Buffer
	res, err := runBench(context.Background(), benchConfig{Users: 8, Games: 4, Clients: 4, Moves: 50, Duration: 5 * time.Second,
		Game: "mix", RawDuration: 100 * time.Millisecond, BcryptCost: bcrypt.MinCost, InProcess: true, Dir: t.TempDir()}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log("\n" + out.String())
	if res.Load.Errors != 0 {
		t.Fatalf("%d errors", res.Load.Errors)
	}
	if res.Load.Moves == 0 || len(res.Load.FragmentBytes) != res.Load.Moves || res.RawCommits == 0 || res.PlayMoves == 0 {
		t.Fatalf("nothing measured: %+v", res)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if last := lines[len(lines)-1]; !lastLine.MatchString(last) || last != res.LastLine {
		t.Fatalf("last line %q", last)
	}
}

func TestBenchCPUProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	prof := t.TempDir() + "/cpu.out"
	var out bytes.Buffer
	_, err := runBench(context.Background(), benchConfig{Users: 4, Games: 2, Clients: 2, Moves: 10, Duration: 5 * time.Second,
		Game: "trench", RawDuration: 50 * time.Millisecond, BcryptCost: bcrypt.MinCost, InProcess: true, CPUProfile: prof, Quiet: true}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(prof); err != nil || fi.Size() == 0 {
		t.Fatalf("no profile written: %v", err)
	}
	if !lastLine.MatchString(strings.TrimSpace(out.String())) {
		t.Fatalf("quiet output %q, want only the summary line", out.String())
	}
}

func TestBenchRefusesARemoteServer(t *testing.T) {
	for _, u := range []string{"http://example.com:8080", "http://10.0.0.1:8080", "http://[2001:db8::1]/", "ftp://127.0.0.1/", "127.0.0.1:8080"} {
		if _, err := loopbackURL(u); err == nil {
			t.Errorf("%s accepted", u)
		}
	}
	for u, want := range map[string]string{"http://127.0.0.1:8080/": "http://127.0.0.1:8080", "http://[::1]:9000": "http://[::1]:9000",
		"http://localhost:8080": "http://localhost:8080"} {
		if got, err := loopbackURL(u); err != nil || got != want {
			t.Errorf("%s: %q %v, want %q", u, got, err, want)
		}
	}
	if err := loopbackOnly("tcp", "192.0.2.1:80", nil); err == nil {
		t.Error("the dialer would connect to 192.0.2.1")
	}
}

// TestParseGame checks the bench's reading of pages against goquery's
// on a page of the kind the server sends.
func TestParseGame(t *testing.T) {
	const page = `<!DOCTYPE html><html><body><nav class="top"><form method="post" action="/signout"><input type="hidden" name="_csrf" value="tok"><button>Sign out</button></form></nav>
<main><div class="game"><div id="game" hx-target="#game" hx-swap="outerHTML" data-ply="12" hx-headers='{"X-Trench-Ply":"12"}'>
<section class="board-side"><form id="board" method="post" action="/games/3/move" hx-boost="true">
<input type="hidden" name="_csrf" value="tok"><input type="hidden" name="ply" value="12">
<div class="board"><a href="/games/3?sel=d4" class="cell unit" data-click="d4"><svg class="unit"><use href="/static/units.svg#b1"></use></svg></a>
<a href="/games/3?sel=e4" class="cell target" data-click="e4"></a><button type="submit" name="move" value="d4-d5" data-click="d5">x</button>
<div class="cell" data-click="a1"></div><br></div>
<p class="hint"><a href="/games/3" id="unselect">Cancel</a></p></form></section>
<aside class="side"><p class="status your-turn" id="status">Your move</p><div hx-get="/games/3/live?v=12.active.-1" hx-trigger="every 4s" id="poll"></div></aside>
</div><ol id="moves"><li data-ply="1">a</li></ol></div></main></body></html>`
	pg := parseGame([]byte(page))
	if !pg.found || pg.ply != 12 || !pg.yourTurn || pg.finished || pg.poll == nil {
		t.Fatalf("%+v", pg)
	}
	if pg.poll.url != "/games/3/live?v=12.active.-1" || !pg.poll.htmx || pg.poll.target != "game" || pg.poll.headers["X-Trench-Ply"] != "12" {
		t.Fatalf("poll %+v", pg.poll)
	}
	if len(pg.units) != 2 || len(pg.targets) != 1 || pg.targets[0].url != "/games/3?sel=e4" || !pg.units[0].boosted {
		t.Fatalf("units %+v targets %+v", pg.units, pg.targets)
	}
	if len(pg.moves) != 1 || pg.moves[0] != "d4-d5" || pg.form == nil || pg.form.url != "/games/3/move" || !pg.form.boosted ||
		pg.fields.Get("ply") != "12" || pg.fields.Get("_csrf") != "tok" {
		t.Fatalf("form %+v %v moves %v", pg.form, pg.fields, pg.moves)
	}
	// The same answers as a DOM parser gives.
	q, err := goquery.NewDocumentFromReader(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	if n := q.Find(`#board a[data-click]`).Length(); n != len(pg.units) {
		t.Fatalf("goquery finds %d clickable units, the bench %d", n, len(pg.units))
	}
	if n := q.Find(`#board button[name="move"]`).Length(); n != len(pg.moves) {
		t.Fatalf("goquery finds %d move buttons, the bench %d", n, len(pg.moves))
	}
}

// TestBenchWithComputer runs the comparison with games against the
// computer, tiny: both kinds of phases play, the computer answers, no
// error. It asserts no speed.
func TestBenchWithComputer(t *testing.T) {
	var out bytes.Buffer
	res, err := runBench(context.Background(), benchConfig{Users: 4, Games: 2, Clients: 2, Moves: 20, Duration: 5 * time.Second,
		Game: "mix", RawDuration: 50 * time.Millisecond, BcryptCost: bcrypt.MinCost, InProcess: true, Dir: t.TempDir(),
		ComputerShare: 0.5, ComputerPhase: 1500 * time.Millisecond}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log("\n" + out.String())
	c := res.Computer
	if res.Load.Errors != 0 || c.Errors != 0 {
		t.Fatalf("%d errors", res.Load.Errors)
	}
	if c.Games != 2 || c.MovesWithout == 0 || c.MovesWith == 0 || c.ComputerMoves == 0 || c.Answers == 0 || c.P99With == 0 {
		t.Fatalf("the comparison measured nothing: %+v", c)
	}
	if !strings.Contains(out.String(), "human move POST   p99") {
		t.Fatal("the report has no comparison")
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if last := lines[len(lines)-1]; !lastLine.MatchString(last) {
		t.Fatalf("last line %q", last)
	}
}

// TestBenchOpenLoop runs the open loop in-process: the move POSTs keep to
// the schedule (no more than it allows), and the report says so.
func TestBenchOpenLoop(t *testing.T) {
	var out bytes.Buffer
	res, err := runBench(context.Background(), benchConfig{Users: 8, Games: 4, Clients: 4, Moves: 1000, Duration: 1500 * time.Millisecond,
		Game: "trench", RawDuration: 50 * time.Millisecond, BcryptCost: bcrypt.MinCost, InProcess: true, Rate: 20, Dir: t.TempDir()}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log("\n" + out.String())
	if res.Load.Errors != 0 {
		t.Fatalf("%d errors", res.Load.Errors)
	}
	// 20/s for 1.5 s: the slots at 0, 50 ms, …, 1500 ms.
	if res.Load.Moves < 10 || res.Load.Moves > 31 {
		t.Fatalf("%d moves at 20/s in 1.5 s", res.Load.Moves)
	}
	if !strings.Contains(out.String(), "scheduled at 20/s") || !strings.Contains(out.String(), "(from the scheduled time)") {
		t.Fatal("the report does not say it ran an open loop")
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if last := lines[len(lines)-1]; !lastLine.MatchString(last) {
		t.Fatalf("last line %q", last)
	}
}

// TestBenchFlags checks the flags of the open loop and the child server.
func TestBenchFlags(t *testing.T) {
	for _, args := range [][]string{{"--rate", "-5"}, {"--rate", "NaN"}, {"--rate", "x"}, {"--url", "http://example.com:80"}} {
		if err := benchCommand(context.Background(), io.Discard, append(args, "--raw-duration", "1ms")); err == nil {
			t.Errorf("%q accepted", args)
		}
	}
	if _, err := parseServeFlags("serve", []string{"--pprof-addr", "0.0.0.0:6060"}); err == nil {
		t.Error("--pprof-addr on every interface accepted")
	}
	if c, err := parseServeFlags("serve", []string{"--pprof-addr", "127.0.0.1:6060"}); err != nil || c.PprofAddr != "127.0.0.1:6060" {
		t.Errorf("--pprof-addr 127.0.0.1:6060: %q %v", c.PprofAddr, err)
	}
}

// TestBenchServerProcess runs the bench against `trench serve` as a child
// process, as `make bench` does: the server's own CPU is reported and its
// profile written. Skipped with -short (it builds the binary).
func TestBenchServerProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: not with -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "trench")
	if err := buildBinary(context.Background(), bin); err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(dir, "cpu.out")
	var out bytes.Buffer
	res, err := runBench(context.Background(), benchConfig{Users: 4, Games: 2, Clients: 2, Moves: 30, Duration: 2 * time.Second,
		Game: "mix", RawDuration: 50 * time.Millisecond, Bin: bin, CPUProfile: prof, Dir: dir}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log("\n" + out.String())
	if res.Load.Errors != 0 || res.Load.Moves == 0 {
		t.Fatalf("%d errors, %d moves", res.Load.Errors, res.Load.Moves)
	}
	if res.ServerCPUPerMove <= 0 || !strings.Contains(out.String(), "ms per request") || !strings.Contains(out.String(), "server: child process") {
		t.Fatalf("no server CPU reported (%v ms per move)", res.ServerCPUPerMove)
	}
	if fi, err := os.Stat(prof); err != nil || fi.Size() == 0 {
		t.Fatalf("no profile of the server written: %v", err)
	}
}
