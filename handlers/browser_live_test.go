package handlers_test

import (
	"bufio"
	"fmt"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// routeRequests is how many requests the server has answered on route
// (its pattern), by its metrics.
func routeRequests(t *testing.T, s *server, route string) int {
	t.Helper()
	rec := httptest.NewRecorder()
	s.App.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	n := 0
	sc := bufio.NewScanner(rec.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "trench_http_requests_total{") && strings.Contains(line, `route="`+route+`"`) {
			f := strings.Fields(line)
			v, err := strconv.ParseFloat(f[len(f)-1], 64)
			if err != nil {
				t.Fatal(err)
			}
			n += int(v)
		}
	}
	return n
}

// TestBrowserLiveUpdates: with JavaScript on, the game page holds an
// event stream; the opponent's move appears on it without a reload and
// without a single polling request while the stream is open. With
// JavaScript off nothing changes: the page shows the move once reloaded.
// The dashboard is updated in place the same way.
func TestBrowserLiveUpdates(t *testing.T) {
	needChromium(t)
	for _, js := range []bool{true, false} {
		t.Run(fmt.Sprintf("js=%v", js), func(t *testing.T) {
			s := startServer(t, "", nil)
			b := newTab(t, s, js)
			bob, id := browserGame(t, s, b)
			gameURL := fmt.Sprintf("/games/%d", id)
			if !js {
				b.do("mark the page", chromedp.Evaluate[chromedp.Void](`1`))
				playFirstLegal(t, s, id) // carol's move, made elsewhere
				clickMove(t, bob, id, func(int) int { return 0 })
				time.Sleep(time.Second)
				if got := b.attr("#game", "data-ply"); got != "0" {
					t.Fatalf("without JavaScript the page changed by itself to ply %s", got)
				}
				b.open(gameURL)
				if got := b.attr("#game", "data-ply"); got != "2" || b.text("#status") != "Your move" {
					t.Fatalf("after a reload: ply %s, status %q", got, b.text("#status"))
				}
				return
			}
			b.waitUntil(10*time.Second, "the page's event stream opens", `document.documentElement.classList.contains('live')`)
			b.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.samePage = "yes"`))
			polls := routeRequests(t, s, "/games/:id/live")

			playFirstLegal(t, s, id) // carol's own move, from elsewhere
			b.waitUntil(5*time.Second, "carol's move from elsewhere shows", `document.querySelector('#game').dataset.ply === "1"`)
			clickMove(t, bob, id, func(int) int { return 0 })
			start := time.Now()
			b.waitUntil(5*time.Second, "the opponent's move shows without a reload",
				`document.querySelector('#game').dataset.ply === "2" && document.querySelector('#status').textContent.trim() === "Your move"`)
			t.Logf("the opponent's move appeared within %s (polled every 100 ms)", time.Since(start).Round(time.Millisecond))
			if !b.eval(`window.samePage === "yes"`) {
				t.Fatal("the live update reloaded the whole page")
			}
			if n := b.count(`#moves li[data-ply]`); n != 2 {
				t.Fatalf("the move list shows %d moves, want 2", n)
			}
			if b.count(`#board a[data-click]`) == 0 {
				t.Fatal("after the opponent's move no unit can be selected")
			}
			// Longer than the poll's period: no poll while the stream is open.
			time.Sleep(5 * time.Second)
			if n := routeRequests(t, s, "/games/:id/live") - polls; n != 0 {
				t.Fatalf("%d polling requests while the stream was open", n)
			}
			if !b.eval(`document.documentElement.classList.contains('live')`) {
				t.Fatal("the stream closed")
			}

			// The dashboard too: bob's move turns carol's row into one
			// waiting for her, in place.
			b.open("/")
			b.waitUntil(10*time.Second, "the dashboard's event stream opens", `document.documentElement.classList.contains('live')`)
			b.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.samePage = "yes"`))
			playFirstLegal(t, s, id) // carol's move, made elsewhere
			b.waitUntil(5*time.Second, "the dashboard shows bob to move", `document.querySelectorAll('tr.your-turn').length === 0`)
			clickMove(t, bob, id, func(int) int { return 0 })
			b.waitUntil(5*time.Second, "the dashboard shows carol's turn without a reload",
				`document.querySelectorAll('tr.your-turn').length === 1 && document.querySelector('#turn-badge').textContent.trim() === "1"`)
			if !b.eval(`window.samePage === "yes"`) {
				t.Fatal("the dashboard's live update reloaded the whole page")
			}
		})
	}
}

// TestBrowserMoveListStaysWhole: with the page's stream open, the move
// list is extended with the moves after the ply the page showed; a move
// brought twice (an answer and an update may cross) is listed once, and
// when the list lacks moves before the ones brought, the page fetches
// them: the list always reads 1, 2, 3 … with no move twice and none
// missing.
func TestBrowserMoveListStaysWhole(t *testing.T) {
	needChromium(t)
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	_, id := browserGame(t, s, b)
	b.waitUntil(10*time.Second, "the page's event stream opens", `document.documentElement.classList.contains('live')`)
	plies := func() string {
		t.Helper()
		got, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](
			`Array.from(document.querySelectorAll('#moves li')).map(li => li.dataset.ply).join(",")`))
		if err != nil {
			t.Fatalf("read the move list: %v", err)
		}
		return got
	}
	for ply := 1; ply <= 2; ply++ {
		playFirstLegal(t, s, id)
		b.waitUntil(5*time.Second, fmt.Sprintf("ply %d shows", ply), fmt.Sprintf(`document.querySelector('#game').dataset.ply === "%d"`, ply))
	}
	if got := plies(); got != "1,2" {
		t.Fatalf("after two moves the list has the moves of plies %s", got)
	}

	// The same moves again, as an answer that crossed an update brings
	// them: nothing is added.
	b.do("bring moves 1 and 2 again", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const g = document.querySelector('#game');
		htmx.swap('#moves', '<ol id="moves" data-game="%d" data-seq="' + g.dataset.seq + '" hx-swap-oob="beforeend">' +
			'<li value="1" data-ply="1">again</li><li value="2" data-ply="2">again</li></ol>', {swapStyle: 'none'});
	})()`, id)))
	if got := plies(); got != "1,2" || strings.Contains(b.text("#moves"), "again") {
		t.Fatalf("moves brought twice: the list has plies %s and reads %q", got, b.text("#moves"))
	}

	// The page lost its last move (as when an answer never arrived); the
	// next update brings only ply 3: the page fetches ply 2 as well.
	b.do("drop the list's last move", chromedp.Evaluate[chromedp.Void](`document.querySelector('#moves li:last-child').remove()`))
	playFirstLegal(t, s, id)
	b.waitUntil(5*time.Second, "the list has every move", `Array.from(document.querySelectorAll('#moves li')).map(li => li.dataset.ply).join(",") === "1,2,3"`)
}

// TestBrowserLiveAfterRestart: a game page open while the server restarts
// (on the same database and address, as an upgrade does) goes on by
// itself: its stream reconnects, selecting a unit and moving swap in
// place, and the opponent's next move shows without a reload.
func TestBrowserLiveAfterRestart(t *testing.T) {
	needChromium(t)
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	bob, id := browserGame(t, s, b)
	b.waitUntil(10*time.Second, "the page's event stream opens", `document.documentElement.classList.contains('live')`)
	b.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.samePage = "yes"`))
	move := func(ply int) {
		t.Helper()
		unit := b.attr(`#board a[data-click]`, "data-click")
		b.do("click unit "+unit, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board a[data-click=%q]`, unit))))
		b.waitUntil(10*time.Second, "destinations appear after clicking "+unit,
			`document.querySelector('#board button[name="move"]') !== null`)
		dest := b.attr(`#board button[name="move"]`, "data-click")
		b.do("click destination "+dest, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board button[name="move"][data-click=%q]`, dest))))
		b.waitUntil(10*time.Second, fmt.Sprintf("the page shows its own move (ply %d)", ply),
			fmt.Sprintf(`document.querySelector('#game').dataset.ply === "%d"`, ply))
	}
	// Before the restart: a few changes, counted by the first server.
	move(1)
	clickMove(t, bob, id, func(int) int { return 0 })
	b.waitUntil(5*time.Second, "bob's move shows", `document.querySelector('#game').dataset.ply === "2"`)
	move(3)
	clickMove(t, bob, id, func(int) int { return 0 })
	b.waitUntil(5*time.Second, "bob's second move shows", `document.querySelector('#game').dataset.ply === "4"`)

	s2 := restartServer(t, s)
	bob.moveTo(s2)
	b.srv = s2
	deadline := time.Now().Add(15 * time.Second)
	for s2.App.LiveStreams() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the page's stream did not reconnect to the restarted server")
		}
		time.Sleep(100 * time.Millisecond)
	}

	move(5)
	wantPly(t, s2, id, 5, "")
	clickMove(t, bob, id, func(int) int { return 0 })
	b.waitUntil(10*time.Second, "bob's move after the restart shows without a reload",
		`document.querySelector('#game').dataset.ply === "6" && document.querySelector('#status').textContent.trim() === "Your move"`)
	if !b.eval(`window.samePage === "yes"`) {
		t.Fatal("the page was reloaded")
	}
	if n := b.count(`#moves li[data-ply]`); n != 6 {
		t.Fatalf("the move list shows %d moves, want 6", n)
	}
}
