package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/crypto/bcrypt"

	"github.com/trench-games/trench/rules/bot"
)

var lastLine = regexp.MustCompile(`^moves/s=\d+(\.\d)? p50_ms=\d+\.\d\d p99_ms=\d+\.\d\d fragment_bytes=\d+ ratio=\d+\.\d\d$`)

// TestBench runs the bench in-process with tiny numbers, with the tabs
// polling and holding their pages' event streams: no error, and the
// summary line well-formed; with the streams, the waiting tabs take the
// moves from them (one update per move: none to the page that made it)
// and never poll. It asserts no speed.
func TestBench(t *testing.T) {
	for _, live := range []bool{false, true} {
		t.Run(fmt.Sprintf("live=%v", live), func(t *testing.T) {
			var out bytes.Buffer
			res, err := runBench(context.Background(), benchConfig{Users: 8, Games: 4, Clients: 4, Moves: 50, Duration: 5 * time.Second,
				Game: "mix", RawDuration: 100 * time.Millisecond, BcryptCost: bcrypt.MinCost, InProcess: true, Dir: t.TempDir(), Live: live}, &out)
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
			st := res.Load
			switch {
			case !live && (st.Polls == 0 || st.Pushes != 0):
				t.Fatalf("without the streams: %d polls, %d pushed updates", st.Polls, st.Pushes)
			case live && (st.Polls != 0 || st.Pushes < st.Moves/2 || st.Pushes > st.Moves+8):
				t.Fatalf("with the streams: %d polls, %d pushed updates for %d moves", st.Polls, st.Pushes, st.Moves)
			}
		})
	}
}

// TestBenchBytesOnTheWire: the clients ask for gzip as browsers do and
// read it (the answers and the event streams), and the bench reports
// the bytes as they came: a move's answer and a page much smaller on the
// wire than decoded, the bytes per move, and a first visit to a game
// page loading every file it names, none of which a second visit would
// fetch again.
func TestBenchBytesOnTheWire(t *testing.T) {
	var out bytes.Buffer
	res, err := runBench(context.Background(), benchConfig{Users: 4, Games: 2, Clients: 2, Moves: 30, Duration: 5 * time.Second,
		Game: "trench", RawDuration: 50 * time.Millisecond, BcryptCost: bcrypt.MinCost, InProcess: true, Dir: t.TempDir(), Live: true}, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log("\n" + out.String())
	st := res.Load
	if st.Errors != 0 || st.Moves == 0 || st.Pushes < st.Moves/2 {
		t.Fatalf("%d errors, %d moves, %d pushed updates", st.Errors, st.Moves, st.Pushes)
	}
	if len(st.FragmentWire) != st.Moves || mean(st.FragmentWire)*3 > mean(st.FragmentBytes) {
		t.Fatalf("a move's answer: %.0f bytes on the wire for %.0f decoded (%d samples for %d moves)",
			mean(st.FragmentWire), mean(st.FragmentBytes), len(st.FragmentWire), st.Moves)
	}
	if mean(st.SelectionWire)*3 > mean(st.SelectionBytes) {
		t.Fatalf("a selection's answer: %.0f bytes on the wire for %.0f decoded", mean(st.SelectionWire), mean(st.SelectionBytes))
	}
	decoded := float64(st.PushBytes) + mean(st.FragmentBytes)*float64(st.Moves) + mean(st.SelectionBytes)*float64(st.Selections)
	if st.WireBytes <= 0 || float64(st.WireBytes)*2 > decoded {
		t.Fatalf("%d bytes on the wire in all for %.0f decoded", st.WireBytes, decoded)
	}
	if v := res.FirstVisit; v.Files < 8 || v.Again != 0 || v.Bytes <= 0 || v.Bytes > 40_000 {
		t.Fatalf("first visit: %+v, want the page and at least 8 files in 40 KB, none fetched again", v)
	}
	if !strings.Contains(out.String(), "bytes on the wire") || !strings.Contains(out.String(), "first visit: ") {
		t.Fatal("the report does not give the bytes on the wire")
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
		field(pg.fields, "ply") != "12" || field(pg.fields, "_csrf") != "tok" {
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
// error. It asserts no speed: the computer plays at easy, whose answers
// take milliseconds even at the lowest priority beside the load (hard's
// need seconds of a processor the load keeps busy).
func TestBenchWithComputer(t *testing.T) {
	var out bytes.Buffer
	res, err := runBench(context.Background(), benchConfig{Users: 4, Games: 2, Clients: 1, Moves: 20, Duration: 5 * time.Second,
		Game: "mix", RawDuration: 50 * time.Millisecond, BcryptCost: bcrypt.MinCost, InProcess: true, Dir: t.TempDir(),
		ComputerShare: 0.5, ComputerPhase: 1500 * time.Millisecond, ComputerLevel: bot.Easy}, &out)
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

// TestBenchFlags checks the flags of the open loop and the server's URL.
func TestBenchFlags(t *testing.T) {
	for _, args := range [][]string{{"--rate", "-5"}, {"--rate", "NaN"}, {"--rate", "x"}, {"--url", "http://example.com:80"}} {
		if err := Command(context.Background(), io.Discard, append(args, "--raw-duration", "1ms")); err == nil {
			t.Errorf("%q accepted", args)
		}
	}
}

// TestBenchServerProcess runs the bench against `trench serve` as a child
// process, as `make bench` does: the server's own CPU and the load's (on
// one processor, given back afterwards) are reported and the server's
// profile written. Skipped with -short (it builds the binary).
func TestBenchServerProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: not with -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "trench")
	if err := BuildBinary(context.Background(), bin); err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(dir, "cpu.out")
	procs := runtime.GOMAXPROCS(0)
	var out bytes.Buffer
	res, err := runBench(context.Background(), benchConfig{Users: 4, Games: 2, Clients: 2, Moves: 30, Duration: 2 * time.Second,
		Game: "mix", RawDuration: 50 * time.Millisecond, Bin: bin, CPUProfile: prof, Dir: dir, LoadProcs: 1}, &out)
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
	if res.LoadCPUPerMove <= 0 || !strings.Contains(out.String(), "the clients, GOMAXPROCS 1)") {
		t.Fatalf("no CPU of the load on one processor reported (%v ms per move)", res.LoadCPUPerMove)
	}
	if !strings.Contains(out.String(), "server and load together") || !strings.Contains(out.String(), "2 clients ÷ ") {
		t.Fatalf("no CPU of both processes per move, or no closed loop's mean time per request, reported")
	}
	if n := runtime.GOMAXPROCS(0); n != procs {
		t.Fatalf("GOMAXPROCS %d after the bench, %d before", n, procs)
	}
	if fi, err := os.Stat(prof); err != nil || fi.Size() == 0 {
		t.Fatalf("no profile of the server written: %v", err)
	}
}

// parseGameRef is the bench's former reading of a game answer, through
// x/net/html's tokenizer and a tree of every element: the reference the
// scanner must agree with.
func parseGameRef(body []byte) *gamePage {
	d := parseDoc(body)
	pg := &gamePage{}
	gameEl := d.byID("game")
	if gameEl < 0 {
		return pg
	}
	pg.found = true
	if v, ok := d.attr(gameEl, "data-ply"); ok {
		pg.ply, _ = strconv.Atoi(v)
	}
	if s := d.byID("status"); s >= 0 {
		pg.yourTurn = d.hasClass(s, "your-turn")
	}
	if n := d.byID("next-game"); n >= 0 {
		pg.nextGame, _ = d.attr(n, "href")
	}
	if p := d.byID("poll"); p >= 0 {
		a := d.action(p, "hx-get", "href")
		pg.poll = &a
	}
	pg.finished = pg.poll == nil
	board := d.byID("board")
	if board < 0 {
		return pg
	}
	if d.is(board, "form") {
		a := d.action(board, "hx-post", "action")
		pg.form = &a
		for k, v := range d.hiddenFields(board) {
			pg.fields = append(pg.fields, formField{k, v[0]})
		}
		if pg.fields == nil {
			pg.fields = []formField{}
		}
	}
	for i := board + 1; i < len(d.nodes); i++ {
		if !d.inside(i, board) {
			break
		}
		if _, ok := d.attr(i, "data-click"); !ok {
			continue
		}
		switch d.nodes[i].tag {
		case "a":
			a := d.action(i, "hx-get", "href")
			pg.units = append(pg.units, a)
			if d.hasClass(i, "target") {
				pg.targets = append(pg.targets, a)
			}
		case "button":
			if d.attrIs(i, "name", "move") {
				v, _ := d.attr(i, "value")
				pg.moves = append(pg.moves, v)
			}
		}
	}
	return pg
}

// sameReading returns how got differs from want ("" for not at all).
func sameReading(got, want *gamePage) string {
	norm := func(pg *gamePage) string {
		c := *pg
		c.fields = slices.Clone(pg.fields)
		slices.SortFunc(c.fields, func(a, b formField) int { return strings.Compare(a.name, b.name) })
		act := func(a *action) string {
			if a == nil {
				return "<nil>"
			}
			h := make([]string, 0, len(a.headers))
			for k, v := range a.headers {
				h = append(h, k+": "+v)
			}
			slices.Sort(h)
			return fmt.Sprintf("{%q htmx=%v boosted=%v target=%q trigger=%q headers=%q}", a.url, a.htmx, a.boosted, a.target, a.trigger, h)
		}
		var units, targets []string
		for _, a := range pg.units {
			units = append(units, act(&a))
		}
		for _, a := range pg.targets {
			targets = append(targets, act(&a))
		}
		return fmt.Sprintf("found=%v ply=%d yourTurn=%v finished=%v next=%q\npoll=%s\nform=%s fields=%q\nunits=%v\ntargets=%v\nmoves=%q",
			c.found, c.ply, c.yourTurn, c.finished, c.nextGame, act(c.poll), act(c.form), c.fields, units, targets, c.moves)
	}
	if g, w := norm(got), norm(want); g != w {
		return "the scanner read\n" + g + "\nthe tokenizer\n" + w
	}
	return ""
}

// TestBenchScannerReadsAsTheTokenizer feeds the scanner pages written to
// catch it out (case, entities, quoting, comments, raw text, stray tags,
// self-closing forms): it reads each as the tokenizer and a tree do.
func TestBenchScannerReadsAsTheTokenizer(t *testing.T) {
	for name, page := range scannerPages {
		if diff := sameReading(parseGame([]byte(page)), parseGameRef([]byte(page))); diff != "" {
			t.Errorf("%s: %s", name, diff)
		}
	}
	// Every prefix of a page cut anywhere, as a truncated answer.
	page := scannerPages["the server's shape"]
	for i := range len(page) {
		if diff := sameReading(parseGame([]byte(page[:i])), parseGameRef([]byte(page[:i]))); diff != "" {
			t.Fatalf("cut at %d (%q): %s", i, page[max(0, i-20):i], diff)
		}
	}
}

var scannerPages = map[string]string{
	"the server's shape": `<!DOCTYPE html><html lang="en"><head><title>Game <3 </title><script src="/static/htmx.min.js" defer></script></head><body>
<div id="game" data-game="3" data-ply="7" data-seq="9" hx-headers="{&#34;X-Trench-Ply&#34;:&#34;7&#34;}"><section class="board-side"><h1>a &lt; b</h1>
<form id="board" method="post" action="/games/3/move" hx-boost="true"><input type="hidden" name="_csrf" value="a+b/c=="><input type="hidden" name="ply" value="7"/>
<input type="hidden" name="taken_back" value="0"><p id="board-status" class="vh" role="status">x</p><div class="board-wrap diamond"><div class="board n8" role="grid">
<div class="board-row" role="row"><a href="/games/3?sel=b2&amp;x=1" class="cell unit target" role="gridcell" data-click="b2" title="B2"><svg><use href="#u"></use></svg><span class="vh">B2</span></a>
<button type="submit" name="move" value="b2-b3" class="cell" role="gridcell" data-click="b3" title="b3">x</button><div class="cell" role="gridcell" data-click="c3"><span class="vh">c</span></div></div>
</div></div><p class="hint"><a href="/games/3" id="unselect">Cancel</a></p></form>
<form id="move-box" class="move-box" method="post" action="/games/3/move" hx-boost="true"><input type="hidden" name="ply" value="7"><input type="text" id="move-input" name="move" list="move-list" required></form>
</section></div><aside class="side" id="side" hx-headers='{"X-Trench-Ply":"7"}'><p class="status your-turn" id="status">Your move</p>
<noscript><p id="thinking-reload"><a href="/games/3" id="next-game">Reload</a></p></noscript><textarea name="message" form="board"><a id="poll" hx-get="/no"></a></textarea>
<div hx-get="/games/3/live?v=7.active.-1&amp;w=2" hx-trigger="every 4s" id="poll"></div></aside></body></html>`,
	"upper case":         `<DIV ID="game" DATA-PLY="4" HX-TARGET="#game" Hx-Boost="true"><FORM ID="board" ACTION="/m"><INPUT TYPE="hidden" NAME="ply" VALUE="4"><A HREF="/s?a" DATA-CLICK="a1" CLASS="TARGET target">x</A><BUTTON NAME="move" VALUE="a1-a2" DATA-CLICK>y</BUTTON></FORM></DIV><P CLASS="your-turn" id=status>s</P>`,
	"quoting":            `<div id=game data-ply=12 hx-headers='{"A":"1","B":2}'><p id='status' class='status	your-turn'>x</p><form id=board action=/games/1/move hx-post = "/games/1/move" ><input type=hidden name=ply value=12 /><a href=/x?sel=a1 data-click=a1 class=target/>t</a><a data-click href="/y" = x>u</a></form></div><div id=poll hx-get=/live/>`,
	"duplicates":         `<div id="game" id="other" data-ply="3" data-ply="4"><form id="board" action="/a" action="/b"><input type="hidden" name="ply" value="3"><input type="hidden" name="ply" value="5"><input type="hidden" type="text" name="x" value="1"><a data-click="a" href="/1" href="/2" class="a" class="target"></a></form></div>`,
	"comments and bogus": `<!-- <div id="game" data-ply="1"> --><!--> <div id="game" data-ply="2"><!---> <? <form id="board"> ?></ <a id=x>--!><!-- a --!> b --><form id="board" action="/f"><!x <a data-click href=/no>><a data-click href="/yes"></a></></form></div><!-- unterminated <a id="poll">`,
	"raw text":           `<div id="game" data-ply="1"><script>var s = "<div id='status' class='your-turn'>";</script><style>a:before{content:"</styl"}</style ><title>x</title><form id="board" action="/f"><textarea><a data-click href="/no"></a></textarea><a data-click href="/yes"></a><noscript><button name="move" value="no" data-click></button></NOSCRIPT><button name="move" value="yes" data-click></button></form><iframe><p id="status" class="your-turn"></iframe><xmp></xmp><p id="status"></p></div>`,
	"more raw text":      `<div id="game" data-ply="2"><form id="board" action="/f"><noembed><a data-click href="/no1"></noembed><NoFrames><a data-click href="/no2"></noframes ><STYLE><a data-click href="/no3"></style/><a data-click href="/yes"></a><title/><a data-click href="/no5"></title><plaintext><a data-click href="/no4"></plaintext></form></div>`,
	"bare references":    `<div id="game" data-ply="3&#x31;"><a id="next-game" href="/g?a=1&copy=2&amp;b&notit;c&copyx&lt&AMP&#39x&&;&#;"></a><form id="board" action='/f?x="1"&copy=2'><input type="hidden" name="v" value=a&copy=b"c'd><a data-click href="/1?x&not=1" class="tar&#103;et"></a></form></div>`,
	"nesting":            `<div id="game" data-ply="2" hx-target="#game" hx-boost="true" hx-headers='{"A":"1"}'><section hx-boost="false" hx-headers='{"B":"2","A":"3"}'><form id="board" action="/f"><div/><a data-click href="/in" id="t1" hx-headers="nope"></a></form><a data-click href="/out"></a></section></span></div><div hx-target="poll-target" hx-headers='{"C":3.5e1, "D":null, "E":true}'><div id="poll" href="/p"></div></div>`,
	"stray end tags":     `<div id="game" data-ply="5"><form id="board" action="/f"><p><a data-click href="/1"></p><a data-click href="/2"></a></form><a data-click href="/3"></a></div></b></form>`,
	"line ends and NUL":  "<div id=\"game\" data-ply=\"6\"><form id=\"board\" action=\"/f\r\n\"><input type=\"hidden\" name=\"n\x00\" value=\"a\r\nb\rc\"><a data-click href=\"/\x00x\" class=\"x\ntarget\"></a></form></div>",
	"self-closing board": `<div id="game" data-ply="1"><form id="board" action="/f"/><a data-click href="/1"></a><div id="board"><a data-click href="/2"></a></div></div>`,
	"void board":         `<div id="game"><input id="board" type="hidden"><a data-click href="/1"></a></div>`,
	"no game":            `<main><p class="flash">Not found</p></main>`,
	"empty":              ``,
	"entities":           `<div id="g&#97;me" data-ply="&#49;0"><p id="status" class="a&nbsp;your-turn&#32;b"></p><a id="next-game" href="/games/9?x=1&amp;y=2&copy"></a><form id="board" action="/f?a=1&amp;b=2"><input type="hidden" name="_csrf" value="&lt;&gt;&quot;&#39;"></form></div>`,
	"attribute syntax":   `<div id="game" data-ply="1"><form id="board" action="/f" =x / y=1><a data-click / href="/1"/ class="target"></a><a data-click href = /2></a><a data-click href= ></a><button name=move value=z data-click/></form></div>`,
	"headers":            `<div id="game" data-ply="1" hx-headers='{"A":"\u0041","B" : "x"}'><div hx-headers='{"C":"a\"b"}'><div hx-headers='{"":""}'><div hx-headers='{"D":"1","D":"2"}'><div hx-headers='{"E":"&#9;"}' hx-boost="TRUE"><div id="poll" hx-get="/p" hx-headers='{"F":"x","G":"y"}'></div></div></div></div></div></div>`,
	"text with angles":   `<div id="game" data-ply="1">1 < 2 <3 <> < / a> <form id="board" action="/f"><a data-click href="/1">a<b</a></form></div>`,
}

// FuzzBenchParseGame checks the scanner against the tokenizer on any
// input (the seeds run with every go test).
func FuzzBenchParseGame(f *testing.F) {
	for _, p := range scannerPages {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, page string) {
		if diff := sameReading(parseGame([]byte(page)), parseGameRef([]byte(page))); diff != "" {
			t.Fatal(diff)
		}
	})
}

// TestBenchEncodesFormsAsURLValues: the move POST's body is the one
// url.Values would give.
func TestBenchEncodesFormsAsURLValues(t *testing.T) {
	fields := []formField{{"ply", "12"}, {"_csrf", "a+b/c=="}, {"taken_back", "0"}, {"move", "old"}, {"é x", "&="}}
	want := url.Values{}
	for _, f := range fields {
		want.Set(f.name, f.value)
	}
	want.Set("move", "d4-d5 x")
	if got := encodeForm(fields, "d4-d5 x"); got != want.Encode() {
		t.Fatalf("%q, want %q", got, want.Encode())
	}
	if fields[3].value != "old" {
		t.Fatal("the page's fields changed")
	}
}

// TestBenchReadsTheServersAnswers plays games of both boards in-process,
// some players in the square view and some in the diamond one, resigns a
// game and sends moves the server refuses: the scanner reads every game
// answer the load reads, and the refusals, as the tokenizer does.
func TestBenchReadsTheServersAnswers(t *testing.T) {
	ctx := context.Background()
	srv, err := startInProcess(ctx, filepath.Join(t.TempDir(), "bench.db"), bcrypt.MinCost, false)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.stop()
	ld, err := NewLoad(ctx, LoadConfig{BaseURL: srv.URL, Users: 8, Games: 4, Clients: 4, Game: "mix", Prefix: "p" + RandomTag(), FullEvery: 3})
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu       sync.Mutex
		answers  int
		finished int
		diffs    []string
		seen     = map[string]bool{}
	)
	check := func(what string, body []byte, pg *gamePage) {
		want := parseGameRef(body)
		mu.Lock()
		defer mu.Unlock()
		answers++
		if pg.finished && pg.found {
			finished++
		}
		if d := sameReading(pg, want); d != "" && len(diffs) < 3 {
			diffs = append(diffs, fmt.Sprintf("%s: %s\n%s", what, d, body))
		}
		has := func(s string) bool { return bytes.Contains(body, []byte(s)) }
		seen["TRENCH, diamond view"] = seen["TRENCH, diamond view"] || has(`"board n8"`) && has("board-wrap diamond")
		seen["TRENCH, square view"] = seen["TRENCH, square view"] || has(`"board n8"`) && has("board-wrap square")
		seen["Trenches"] = seen["Trenches"] || has(`"board n10"`)
		seen["page"] = seen["page"] || has("<html")
		seen["fragment"] = seen["fragment"] || !has("<html")
	}
	ld.onGame = func(body []byte, pg *gamePage) { check("a game answer", body, pg) }

	// Two players of TRENCH games turn their board to the other view.
	for _, ci := range []int{0, 2} {
		c := ld.clients[ci]
		g := c.games[0]
		u := g.players[ci/2]
		p, err := c.get(ctx, u, g.url())
		if err != nil {
			t.Fatal(err)
		}
		d := parseDoc(p.body)
		f := d.byID("board-toggle-form")
		action, ok := d.attr(f, "action")
		if !ok {
			t.Fatalf("no board toggle on %s's page of %s %s:\n%s", u.name, g.kind[0], g.url(), p.body)
		}
		if p, err = c.request(ctx, u, http.MethodPost, action, d.hiddenFields(f), nil, ""); err != nil {
			t.Fatal(err)
		}
		if err := wantOK(p, "toggle the view"); err != nil {
			t.Fatal(err)
		}
	}
	if err := ld.Resync(ctx); err != nil {
		t.Fatal(err)
	}
	if st := ld.Run(ctx, RunLimits{PerGame: 12}); st.Errors > 0 || st.Moves == 0 {
		t.Fatalf("%d moves, %d errors: %v", st.Moves, st.Errors, st.ErrorSamples)
	}

	// Moves the server refuses: an unknown move, and one at a past ply,
	// sent as htmx sends them and as a plain form.
	c := ld.clients[1]
	g := c.games[0]
	for mover, pg := range g.tabs {
		if !pg.yourTurn || pg.form == nil {
			continue
		}
		ply, _ := strconv.Atoi(field(pg.fields, "ply"))
		for _, f := range []formField{{"move", "zz9-zz9"}, {"ply", strconv.Itoa(ply - 1)}} {
			fields := setField(slices.Clone(pg.fields), f.name, f.value)
			move := field(fields, "move")
			if move == "" {
				move = pg.moves[0]
			}
			for _, act := range []*action{pg.form, nil} {
				p, err := c.send(ctx, g.players[mover], http.MethodPost, pg.form.url, encodeForm(fields, move), true, act, g.url())
				if err != nil {
					t.Fatal(err)
				}
				if p.status < 400 || p.status > 499 {
					t.Fatalf("%s=%s: status %d, want a refusal", f.name, f.value, p.status)
				}
				check(fmt.Sprintf("refusal %d", p.status), p.body, parseGame(p.body))
			}
		}
		break
	}

	// A resigned game: both players' pages show it over, then the load
	// starts another.
	c = ld.clients[0]
	g = c.games[0]
	u := g.players[0]
	p, err := c.get(ctx, u, g.url()+"?confirm=resign")
	if err != nil {
		t.Fatal(err)
	}
	d := parseDoc(p.body)
	f := d.byID("confirm-resign")
	action, ok := d.attr(f, "action")
	if !ok {
		t.Fatalf("no resign form:\n%s", p.body)
	}
	form := d.hiddenFields(f)
	form.Set("confirm", "yes")
	if p, err = c.request(ctx, u, http.MethodPost, action, form, nil, ""); err != nil {
		t.Fatal(err)
	}
	if err := wantOK(p, "resign"); err != nil {
		t.Fatal(err)
	}
	if err := ld.Resync(ctx); err != nil {
		t.Fatal(err)
	}

	mu.Lock()
	defer mu.Unlock()
	if len(diffs) > 0 {
		t.Fatalf("%d answers read, some otherwise than by the tokenizer:\n%s", answers, strings.Join(diffs, "\n\n"))
	}
	if answers < 100 || finished < 2 || len(seen) != 5 {
		t.Fatalf("too little read: %d answers, %d of finished games, seen %v", answers, finished, seen)
	}
	t.Logf("%d answers read alike, %d of finished games", answers, finished)
}

// TestBenchFill: `trench bench --fill N --db FILE` makes a database of N
// games and says so; a file that exists is refused.
func TestBenchFill(t *testing.T) {
	path := filepath.Join(t.TempDir(), "filled.db")
	var out bytes.Buffer
	if err := Command(context.Background(), &out, []string{"--fill", "200", "--db", path}); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "fill: 200 games (4 in progress)") {
		t.Fatalf("report:\n%s", out.String())
	}
	if err := Command(context.Background(), io.Discard, []string{"--fill", "10", "--db", path}); err == nil {
		t.Fatal("a fill over an existing database was accepted")
	}
	if err := Command(context.Background(), io.Discard, []string{"--fill", "10"}); err == nil {
		t.Fatal("a fill without --db was accepted")
	}
}
