package handlers_test

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserConfirmMoves: with "Confirm moves" on, a TRENCH move made
// in the browser is stored only after "Send move" and never after
// "Cancel", with JavaScript on and off.
func TestBrowserConfirmMoves(t *testing.T) {
	needChromium(t)
	for _, js := range []bool{true, false} {
		t.Run(map[bool]string{true: "htmx", false: "no-javascript"}[js], func(t *testing.T) {
			s := startServer(t, "", nil)
			b := newTab(t, s, js)
			p := browserGameOf(t, s, b, js, "trench", "single", "1")
			if p.game().ToMove != p.side {
				playRandom(t, s, p.id, 1)
			}
			b.open("/settings")
			if b.eval(`document.querySelector('#confirm-moves').checked`) {
				t.Fatal("Confirm moves is on before it was chosen")
			}
			b.do("tick Confirm moves", chromedp.Click(chromedp.CSS("#confirm-moves")))
			b.clickAndLoad("#moves-form button[type=submit]")
			if !b.eval(`document.querySelector('#confirm-moves').checked`) {
				t.Fatal("Confirm moves is off after saving it on")
			}
			b.open(p.url)
			p.start()
			ply := p.game().Ply

			toPending := func() string {
				t.Helper()
				for step := 0; step < 4; step++ {
					if b.count(`#board button[name="move"]`) != 0 {
						t.Fatal("with Confirm moves on, the board still has buttons that send a move")
					}
					sel := `#board a[data-click]`
					if step > 0 && b.count(`#board a[data-click].target`) > 0 {
						sel = `#board a[data-click].target`
					}
					clicks := p.clicksOf(sel)
					if len(clicks) == 0 {
						t.Fatal("nothing to click on the board")
					}
					one := fmt.Sprintf(`#board a[data-click=%q]`, clicks[0])
					href := b.attr(one, "href")
					p.click(one)
					if u, err := url.Parse(href); err == nil && u.Query().Get("pending") != "" {
						if b.count("#pending-move") != 1 || b.count("#send-move") != 1 || b.count("#cancel-move") != 1 {
							t.Fatal("the completing click shows no pending move with Send move and Cancel")
						}
						return u.Query().Get("pending")
					}
				}
				t.Fatal("no move after four clicks")
				return ""
			}

			toPending()
			if g := p.game(); g.Ply != ply {
				t.Fatalf("the pending move was stored (ply %d → %d)", ply, g.Ply)
			}
			if js {
				// Escape cancels, as the Cancel link does.
				b.do("mark the game", chromedp.Evaluate[chromedp.Void](`document.querySelector('#game').dataset.before = "yes"`))
				b.do("press Escape", chromedp.KeyEvent(kb.Escape))
				b.waitUntil(10*time.Second, "Escape cancels the pending move",
					`(() => { const g = document.querySelector('#game'); return g !== null && g.dataset.before === undefined && `+settled+`; })()`)
			} else {
				p.click("#cancel-move")
			}
			if b.count("#pending-move") != 0 {
				t.Fatal("Cancel left the move pending")
			}
			if g := p.game(); g.Ply != ply {
				t.Fatalf("Cancel stored the move (ply %d → %d)", ply, g.Ply)
			}

			move := toPending()
			if g := p.game(); g.Ply != ply {
				t.Fatalf("the pending move was stored before Send move (ply %d → %d)", ply, g.Ply)
			}
			p.click("#send-move")
			p.afterMove(ply+1, move)

			// A pending move gone stale (the move was sent elsewhere and
			// the opponent replied): with JavaScript the live update
			// replaces it with the opponent's new move at once; without,
			// sending it is refused, and the page shows the new move.
			playRandom(t, s, p.id, 1)
			p.awaitTurn(ply + 2)
			toPending()
			g := playRandom(t, s, p.id, 2)
			if js {
				b.waitUntil(10*time.Second, "the live update shows the opponent's new move",
					fmt.Sprintf(`document.querySelector('#game').dataset.ply === "%d" && document.querySelector('#pending-move') === null`, g.Ply))
				if now := p.game(); now.Ply != g.Ply {
					t.Fatalf("the stale move was stored (ply %d, want %d)", now.Ply, g.Ply)
				}
				return
			}
			p.click("#send-move")
			if got := b.attr("#game", "data-ply"); got != fmt.Sprint(g.Ply) {
				t.Fatalf("the refused move's page shows ply %s, want the opponent's new move (ply %d)", got, g.Ply)
			}
			if b.count("#game-message") != 1 || b.count("#pending-move") != 0 {
				t.Fatal("the stale move is not refused with a reason")
			}
			if now := p.game(); now.Ply != g.Ply {
				t.Fatalf("the stale move was stored (ply %d, want %d)", now.Ply, g.Ply)
			}
		})
	}
}
