package handlers_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// boardSignature is the position an analysis board draws: each square's
// name, classes and unit.
const boardSignature = `Array.from(document.querySelectorAll('#board .board-row > [data-click]'),
	e => e.dataset.click + ' ' + e.className + ' ' + ((e.querySelector('use') || {getAttribute: () => ''}).getAttribute('href') || '')).join('\n')`

// analysisTab is a browser tab on an analysis board.
type analysisTab struct {
	t  *testing.T
	b  *tab
	js bool
}

func (a *analysisTab) signature() string {
	a.t.Helper()
	v, err := chromedp.Run(a.b.ctx, chromedp.Evaluate[string](boardSignature))
	if err != nil || v == "" {
		a.t.Fatalf("read the board: %q, %v", v, err)
	}
	return v
}

// act does what (a click, a key) and waits for the board: with
// JavaScript swapped in place, without a new page.
func (a *analysisTab) act(what string, action chromedp.Action[chromedp.Void], sel string) {
	a.t.Helper()
	if !a.js {
		a.b.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.samePage = "yes"`))
		a.b.clickAndLoad(sel)
		if a.b.eval(samePage) {
			a.t.Fatalf("%s did not load a new page", what)
		}
		return
	}
	a.b.do("mark the board", chromedp.Evaluate[chromedp.Void](`document.querySelector('#analysis-board').dataset.before = "yes"`))
	a.b.do(what, action)
	a.b.waitUntil(10*time.Second, "the board is redrawn after "+what,
		`(() => { const g = document.querySelector('#analysis-board'); return g !== null && g.dataset.before === undefined && `+settled+`; })()`)
	if !a.b.eval(samePage) {
		a.t.Fatalf("%s reloaded the whole page, want an in-place swap", what)
	}
}

func (a *analysisTab) click(sel string) {
	a.t.Helper()
	a.act("click "+sel, chromedp.Click(chromedp.CSS(sel)), sel)
}

// key presses key (JavaScript on), or clicks the link it follows.
func (a *analysisTab) key(key, name, link string) {
	a.t.Helper()
	if a.js {
		a.act("press "+name, chromedp.KeyEvent(key), link)
	} else {
		a.click(link)
	}
}

// line is the line and position of the address shown.
func (a *analysisTab) line() ([]string, int) {
	a.t.Helper()
	return lineOf(a.t, a.b.location())
}

// tryMove clicks a unit, where it goes and (a Trenches Soldier) where its
// grenade lands, last picking the last square offered instead of the
// first; it returns the move the address then holds.
func (a *analysisTab) tryMove(last bool) string {
	a.t.Helper()
	_, at := a.line()
	for step := 0; step < 4; step++ {
		sel := `#board a.can-select`
		if step > 0 && a.b.count(`#board a.target`) > 0 {
			sel = `#board a.target`
		}
		v, err := chromedp.Run(a.b.ctx, chromedp.Evaluate[[]string](
			fmt.Sprintf(`Array.from(document.querySelectorAll(%q), e => e.dataset.click)`, sel)))
		if err != nil || len(v) == 0 {
			a.t.Fatalf("nothing to click on the analysis board (%v)", err)
		}
		pick := v[0]
		if last {
			pick = v[len(v)-1]
		}
		a.click(fmt.Sprintf(`#board a[data-click=%q]`, pick))
		if u, _ := url.Parse(a.b.location()); u.Query().Get("sel") == "" {
			line, now := a.line()
			if now != at+1 {
				a.t.Fatalf("after a move at %d the board is at %d of %q", at, now, line)
			}
			return line[now-1]
		}
	}
	a.t.Fatal("no move after four clicks")
	return ""
}

// TestBrowserAnalysisBoard: from the game page of a running TRENCH and
// Trenches game, the analysis board plays a line of three moves by
// clicking, steps back (the left arrow with JavaScript) and forward,
// and its address opened in a fresh browser shows the same position and
// line; with JavaScript the up and down arrows switch to a second
// variation. The game does not move.
func TestBrowserAnalysisBoard(t *testing.T) {
	needChromium(t)
	for _, game := range [][2]string{{"trench", "single"}, {"trenches", "standard"}} {
		for _, js := range []bool{true, false} {
			t.Run(game[0]+"/"+map[bool]string{true: "htmx", false: "no-javascript"}[js], func(t *testing.T) {
				s := startServer(t, "", nil)
				b := newTab(t, s, js)
				p := browserGameOf(t, s, b, js, game[0], game[1], "1")
				ply := p.game().Ply
				b.clickAndLoad("#analysis-board-link")
				if loc := b.location(); loc != p.url+"/analysis" {
					t.Fatalf("the analysis board link leads to %s", loc)
				}
				p.start()
				a := &analysisTab{t: t, b: b, js: js}
				var moves []string
				for i := 0; i < 3; i++ {
					moves = append(moves, a.tryMove(false))
					if n := b.count("#line-tree li"); n != i+1 {
						t.Fatalf("after %d moves the line lists %d", i+1, n)
					}
				}
				after3 := a.signature()

				a.key(kb.ArrowLeft, "the left arrow", "#line-back")
				if line, at := a.line(); at != 2 || len(line) != 3 {
					t.Fatalf("back: at %d of %q", at, line)
				}
				if !strings.Contains(b.text("#line-position"), "2 moves") || a.signature() == after3 {
					t.Fatalf("back: the board says %q", b.text("#line-position"))
				}
				after2, shared := a.signature(), b.location()
				a.key(kb.ArrowRight, "the right arrow", "#line-forward")
				if a.signature() != after3 {
					t.Fatal("forward does not show the position after three moves again")
				}

				// The address, opened in a fresh browser.
				fresh := newTab(t, s, js)
				fresh.open(shared)
				f := &analysisTab{t: t, b: fresh, js: js}
				if f.signature() != after2 || fresh.count("#line-tree li") != 3 || fresh.count("#line-tree li.current") != 1 {
					t.Fatalf("the shared address %s shows another position or line", shared)
				}
				if line, _ := f.line(); strings.Join(line, ",") != strings.Join(moves, ",") {
					t.Fatalf("the shared line is %q, want %q", line, moves)
				}

				if js {
					// A second variation at the third move; the arrows go
					// between the two.
					a.key(kb.ArrowLeft, "the left arrow", "#line-back")
					if other := a.tryMove(true); other == moves[2] {
						t.Skip("the last square gives the same move; nothing to branch")
					}
					other := a.signature()
					key, name, link := kb.ArrowUp, "the up arrow", "#line-up"
					if b.count("#line-up") == 0 {
						key, name, link = kb.ArrowDown, "the down arrow", "#line-down"
					}
					a.key(key, name, link)
					if a.signature() != after3 {
						t.Fatalf("%s does not show the first variation", name)
					}
					back := map[string]string{kb.ArrowUp: kb.ArrowDown, kb.ArrowDown: kb.ArrowUp}[key]
					a.key(back, "the opposite arrow", "")
					if a.signature() != other {
						t.Fatal("the opposite arrow does not show the second variation again")
					}
				}
				if g := p.game(); g.Ply != ply {
					t.Fatalf("the analysis board played in the game: ply %d → %d", ply, g.Ply)
				}
			})
		}
	}
}
