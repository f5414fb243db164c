package handlers_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/chromedp"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/cards"
	"github.com/trench-games/trench/rules/trenches"
	"github.com/trench-games/trench/static"
)

// Trenches and the card game played in a real browser, with JavaScript
// on (htmx swaps the game in place) and off (every click loads a page).
// The person in the browser is carol; bob answers through the HTTP client
// of the harness.

// player is carol at her browser tab in one game.
type player struct {
	t   *testing.T
	s   *server
	b   *tab
	id  int64
	url string // the game page, /games/N
	js  bool   // JavaScript on: clicks swap the game in place

	side rules.Side // carol's side
	bob  *client    // the opponent, through the harness client

	// The card game only.
	me  *client // carol's name for the leak checks; never sends a request
	w   *leakWatch
	rng *rand.Rand
}

// samePage is true while the page the tab shows is the one marked by
// markPage: a full page load forgets the mark.
const samePage = `window.samePage === "yes"`

// settled is true when htmx has no request, swap or settle under way.
const settled = `document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added') === null`

func (p *player) markPage() {
	p.t.Helper()
	p.b.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.samePage = "yes"`))
}

// browserGameOf signs carol up in the browser tab b and bob through the
// harness client; bob challenges carol to game (variant), playing color,
// and carol accepts from her dashboard. The browser is left on the game.
func browserGameOf(t *testing.T, s *server, b *tab, js bool, game, variant, color string) *player {
	t.Helper()
	b.signUp("carol")
	bob := s.newClient(t)
	bob.SignUp("bob")
	bob.Get("/challenges/new?game=" + game)
	bob.wantStatus(http.StatusOK)
	bob.Post("/challenges", url.Values{"game": {game}, "variant": {variant}, "color": {color}, "days": {"3"}, "opponent": {"carol"}})
	bob.wantStatus(http.StatusOK)
	id := b.acceptChallenge()
	p := &player{t: t, s: s, b: b, id: id, url: fmt.Sprintf("/games/%d", id), js: js, bob: bob,
		me: &client{t: t, srv: s, Name: "carol (browser)"}}
	if loc := b.location(); loc != p.url {
		t.Fatalf("after accepting, the browser is at %s, want %s", loc, p.url)
	}
	g := p.game()
	p.side = g.SideOf(mustUser(t, s, "carol"))
	if !p.side.Valid() {
		t.Fatalf("carol plays no side of game %d", id)
	}
	return p
}

// start checks that htmx runs exactly when JavaScript is on and marks
// the page.
func (p *player) start() {
	p.t.Helper()
	if p.js {
		p.b.waitUntil(5*time.Second, "htmx loads", `typeof window.htmx === "object"`)
	} else if !p.b.eval(`typeof window.htmx === "undefined"`) {
		p.t.Fatal("htmx runs although JavaScript is off")
	}
	p.markPage()
}

func (p *player) game() db.Game {
	p.t.Helper()
	g, err := p.s.DB.Game(context.Background(), p.id)
	if err != nil {
		p.t.Fatal(err)
	}
	return g
}

// click clicks sel as a person does and waits for what follows: with
// JavaScript, the game redrawn in place (the page stays the same); without,
// a new page.
func (p *player) click(sel string) {
	p.t.Helper()
	if !p.js {
		p.markPage()
		p.b.clickAndLoad(sel)
		if p.b.eval(samePage) {
			p.t.Fatalf("clicking %s did not load a new page", sel)
		}
		return
	}
	p.b.do("mark the game", chromedp.Evaluate[chromedp.Void](`document.querySelector('#game').dataset.before = "yes"`))
	p.b.do("click "+sel, chromedp.Click(chromedp.CSS(sel)))
	p.b.waitUntil(10*time.Second, "the game is redrawn after clicking "+sel,
		`(() => { const g = document.querySelector('#game'); return g !== null && g.dataset.before === undefined && `+settled+`; })()`)
	if !p.b.eval(samePage) {
		p.t.Fatalf("clicking %s reloaded the whole page, want an in-place swap", sel)
	}
}

// clickLink clicks the link sel and checks that the address bar then
// shows where it leads.
func (p *player) clickLink(sel string) {
	p.t.Helper()
	href := p.b.attr(sel, "href")
	p.click(sel)
	if loc := p.b.location(); loc != href {
		p.t.Fatalf("after clicking %s the address is %s, want %s", sel, loc, href)
	}
}

// clickDoesNothing clicks sel and checks that nothing happens: no request,
// no new page, the same address.
func (p *player) clickDoesNothing(sel string) {
	p.t.Helper()
	loc := p.b.location()
	p.markPage()
	p.b.do("mark the game", chromedp.Evaluate[chromedp.Void](`document.querySelector('#game').dataset.before = "yes"`))
	p.b.do("click "+sel, chromedp.Click(chromedp.CSS(sel)))
	time.Sleep(400 * time.Millisecond)
	if !p.b.eval(samePage + ` && document.querySelector('#game').dataset.before === "yes"`) {
		p.t.Fatalf("clicking %s changed the page, want nothing to happen", sel)
	}
	if now := p.b.location(); now != loc {
		p.t.Fatalf("clicking %s went to %s, want to stay at %s", sel, now, loc)
	}
}

// clicksOf lists the data-click values of the elements matching sel, in
// the order of the page.
func (p *player) clicksOf(sel string) []string {
	p.t.Helper()
	v, err := chromedp.Run(p.b.ctx, chromedp.Evaluate[[]string](
		fmt.Sprintf(`Array.from(document.querySelectorAll(%q), e => e.dataset.click || "")`, sel)))
	if err != nil {
		p.t.Fatalf("list %s: %v", sel, err)
	}
	return v
}

// wantStage checks the hint that says what the next click does.
func (p *player) wantStage(want string) {
	p.t.Helper()
	if got := p.b.text("#stage"); got != want {
		p.t.Fatalf("the hint says %q, want %q", got, want)
	}
}

// awaitTurn waits until carol's page shows the game at ply with her to
// move: with JavaScript by itself (the live poll), without by a reload.
func (p *player) awaitTurn(ply int) {
	p.t.Helper()
	if p.js {
		p.b.waitUntil(12*time.Second, "the opponent's move shows up by itself",
			fmt.Sprintf(`document.querySelector('#game').dataset.ply === "%d" && document.querySelector('#status').textContent.trim() === "Your move"`, ply))
		p.b.waitUntil(3*time.Second, "the live update settles", settled)
		if !p.b.eval(samePage) {
			p.t.Fatal("the live update reloaded the whole page, want an in-place swap")
		}
		return
	}
	p.b.open(p.url)
	if got := p.b.attr("#game", "data-ply"); got != fmt.Sprint(ply) {
		p.t.Fatalf("after a reload the page shows ply %s, want %d", got, ply)
	}
	if got := p.b.text("#status"); got != "Your move" {
		p.t.Fatalf("after the opponent's move the status says %q, want %q", got, "Your move")
	}
}

// wantStored checks the stored game: ply plies, the last one move, and
// the list of moves ending with it.
func wantStored(t *testing.T, s *server, id int64, ply int, move string) {
	t.Helper()
	wantPly(t, s, id, ply, move)
	moves, err := s.DB.Moves(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != ply || moves[ply-1].Ply != ply || moves[ply-1].Move != move {
		t.Fatalf("game %d: stored moves %+v, want %d ending with %q", id, moves, ply, move)
	}
}

// afterMove checks what carol sees once her move is stored: the game at
// the new ply on the game's own address.
func (p *player) afterMove(ply int, move string) {
	p.t.Helper()
	wantStored(p.t, p.s, p.id, ply, move)
	if got := p.b.attr("#game", "data-ply"); got != fmt.Sprint(ply) {
		p.t.Fatalf("after %s the page shows ply %s, want %d", move, got, ply)
	}
	if loc := p.b.location(); loc != p.url {
		p.t.Fatalf("after %s the address is %s, want %s", move, loc, p.url)
	}
}

// TestBrowserTrenches plays Trenches in the browser: Soldier moves of
// three clicks (the Soldier, its landing square, the grenade square), a
// Tank move of two, and the steps back, checking after every click what
// the board highlights, and after every move that it is stored and drawn.
func TestBrowserTrenches(t *testing.T) {
	needChromium(t)
	t.Run("htmx", func(t *testing.T) { playTrenchesInBrowser(t, true) })
	t.Run("no-javascript", func(t *testing.T) { playTrenchesInBrowser(t, false) })
}

func playTrenchesInBrowser(t *testing.T, js bool) {
	start := time.Now()
	s := startServer(t, "", nil)
	b := newTab(t, s, js)
	// Bob plays Dark, so carol (Light) moves first.
	p := browserGameOf(t, s, b, js, "trenches", trenches.VariantStandard, "1")
	if got := b.text("#status"); got != "Your move" {
		t.Fatalf("the new game's status says %q, want %q", got, "Your move")
	}
	p.start()
	p.trenchesWantBoard()

	ply := 0
	for i, kind := range []trenches.PieceType{trenches.Soldier, trenches.Soldier, trenches.Tank} {
		if i > 0 {
			reply := clickMove(t, p.bob, p.id, func(int) int { return 0 })
			ply++
			wantStored(t, s, p.id, ply, reply)
			p.awaitTurn(ply)
			p.trenchesWantBoard()
		}
		ply++
		if kind == trenches.Soldier {
			// The first move also steps back at each stage and tries a
			// square protected by a Tank.
			p.trenchesSoldier(ply, i == 0)
		} else {
			p.trenchesTank(ply)
		}
	}
	assertReplay(t, s, p.id)
	t.Logf("took %s", time.Since(start).Round(100*time.Millisecond))
}

func (p *player) position() trenches.Position {
	p.t.Helper()
	pos, err := trenches.ParsePosition(p.game().State)
	if err != nil {
		p.t.Fatal(err)
	}
	return pos
}

func squareNames(set trenches.SquareSet) []string {
	var out []string
	for _, sq := range set.Squares() {
		out = append(out, sq.String())
	}
	slices.Sort(out)
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func mustSquare(t *testing.T, name string) trenches.Square {
	t.Helper()
	sq, err := trenches.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return sq
}

// sprite is the drawing of a piece on the board, "" for none.
func sprite(pc trenches.Piece) string {
	if pc == trenches.Empty || pc == trenches.Debris {
		return ""
	}
	id := "l"
	if pc.Side() == rules.Side1 {
		id = "d"
	}
	if pc.Type() == trenches.Tank {
		return static.URL("units.svg") + "#" + id + "t"
	}
	return static.URL("units.svg") + "#" + id + "s"
}

// cellSel selects the board square name.
func cellSel(name string) string { return fmt.Sprintf(`#board .board-row > [data-click=%q]`, name) }

// trenchesWantBoard checks that the board shows the stored position: each
// of the 100 squares with its piece or its debris, and nothing selected.
func (p *player) trenchesWantBoard() {
	p.t.Helper()
	pos := p.position()
	type cell struct {
		Name, Sprite string
		Debris       bool
	}
	cells, err := chromedp.Run(p.b.ctx, chromedp.Evaluate[[]cell](`Array.from(document.querySelectorAll('#board .board-row > [data-click]'), e => {
		const u = e.querySelector('use');
		return {Name: e.dataset.click, Sprite: u ? u.getAttribute('href') : '', Debris: e.classList.contains('debris')};
	})`))
	if err != nil {
		p.t.Fatalf("read the board: %v", err)
	}
	if len(cells) != 100 {
		p.t.Fatalf("the board has %d squares, want 100", len(cells))
	}
	for _, c := range cells {
		pc := pos.At(mustSquare(p.t, c.Name))
		if c.Debris != (pc == trenches.Debris) || c.Sprite != sprite(pc) {
			p.t.Fatalf("square %s shows piece %q debris %v, the game has %v", c.Name, c.Sprite, c.Debris, pc)
		}
	}
	p.wantStage("Choose a Tank or Soldier to move.")
	if n := p.b.count(`#board .board-row > .target, #board .board-row > .selected, #board .board-row > .protected, #board button[name="move"], #unselect`); n != 0 {
		p.t.Fatalf("%d squares are highlighted or clickable as moves before a piece is chosen", n)
	}
}

// trenchesPiece clicks the first of carol's pieces of kind on the board
// and returns its square.
func (p *player) trenchesPiece(kind trenches.PieceType) string {
	p.t.Helper()
	sel := `#board .board-row > a.can-select[title*=", Light ` + kind.String() + `, select"]`
	if p.b.count(sel) == 0 {
		p.t.Fatalf("no %s can be chosen on the board", kind)
	}
	from := p.b.attr(sel, "data-click")
	p.clickLink(cellSel(from))
	return from
}

// trenchesWantLandings checks the board after the piece on from was
// chosen: its square marked, exactly its landing squares highlighted (links
// for a Soldier, which has a grenade to throw; buttons that complete the
// move for a Tank), no grenade square yet, and a way back.
func (p *player) trenchesWantLandings(pos trenches.Position, from string) {
	p.t.Helper()
	p.wantStage("Choose where it goes.")
	fromSq := mustSquare(p.t, from)
	want := squareNames(pos.MovesFrom(fromSq))
	if len(want) == 0 {
		p.t.Fatalf("the piece on %s has no move", from)
	}
	if got := sorted(p.clicksOf(`#board .board-row > .target`)); !slices.Equal(got, want) {
		p.t.Fatalf("after choosing %s the highlighted landing squares are %v, want %v", from, got, want)
	}
	landing := `#board .board-row > a.target`
	if pos.At(fromSq).Type() == trenches.Tank {
		landing = `#board .board-row > button[name="move"].target`
	}
	if n := p.b.count(landing); n != len(want) {
		p.t.Fatalf("%d of the %d landing squares of %s are %s", n, len(want), from, landing)
	}
	if n := p.b.count(`#board .board-row > .grenade, #board .board-row > .protected`); n != 0 {
		p.t.Fatalf("%d grenade or protected squares are shown before the landing square is chosen", n)
	}
	if p.b.count(cellSel(from)+`.selected`) != 1 {
		p.t.Fatalf("the chosen piece's square %s is not marked", from)
	}
	if !p.b.eval(`getComputedStyle(document.querySelector('#board .board-row > .target'), '::after').content !== 'none'`) {
		p.t.Fatal("the landing squares carry no visible mark")
	}
	if p.b.count(`#unselect`) != 1 {
		p.t.Fatal("no way back once a piece is chosen")
	}
}

// trenchesWantGrenades checks the board once the Soldier on from has
// chosen to: the Soldier drawn on to, exactly its legal grenade squares as
// buttons, and the squares a Tank protects marked and not clickable.
func (p *player) trenchesWantGrenades(pos trenches.Position, from, to string) {
	p.t.Helper()
	p.wantStage("Choose where the grenade lands (red squares are protected by a Tank).")
	open, blocked := pos.GrenadeTargets(mustSquare(p.t, from), mustSquare(p.t, to))
	if got, want := sorted(p.clicksOf(`#board .board-row > button[name="move"].grenade`)), squareNames(open); !slices.Equal(got, want) {
		p.t.Fatalf("after landing on %s the grenade squares offered are %v, want %v", to, got, want)
	}
	if got, want := sorted(p.clicksOf(`#board .board-row > .protected`)), squareNames(blocked); !slices.Equal(got, want) {
		p.t.Fatalf("after landing on %s the squares marked protected are %v, want %v", to, got, want)
	}
	if n := p.b.count(`#board .board-row > a.protected, #board .board-row > button.protected`); n != 0 {
		p.t.Fatalf("%d squares protected by a Tank can be clicked", n)
	}
	if n := p.b.count(`#board .board-row > a.target`); n != 0 {
		p.t.Fatalf("%d landing squares are still offered once the Soldier landed", n)
	}
	soldier := sprite(pos.At(mustSquare(p.t, from)))
	if got := p.b.attr(cellSel(to)+` use`, "href"); got != soldier {
		p.t.Fatalf("the landing square %s shows %q, want the Soldier %q", to, got, soldier)
	}
	if n := p.b.count(cellSel(from) + ` svg`); n != 0 {
		p.t.Fatalf("the Soldier is still drawn on %s, which it left", from)
	}
	if p.b.count(`#unselect`) != 1 {
		p.t.Fatal("no way back once the landing square is chosen")
	}
}

// trenchesSoldier plays a Soldier move in three clicks. With detours it
// also steps back at each stage, lands where a Tank protects some grenade
// squares and clicks one of them.
func (p *player) trenchesSoldier(ply int, detours bool) {
	p.t.Helper()
	pos := p.position()
	from := p.trenchesPiece(trenches.Soldier)
	p.trenchesWantLandings(pos, from)
	if detours {
		p.clickLink(`#unselect`)
		if loc := p.b.location(); loc != p.url {
			p.t.Fatalf("back from choosing the Soldier the address is %s, want %s", loc, p.url)
		}
		p.trenchesWantBoard()
		if got := p.trenchesPiece(trenches.Soldier); got != from {
			p.t.Fatalf("the first Soldier is now %s, was %s", got, from)
		}
		p.trenchesWantLandings(pos, from)
	}
	// The first landing square (in the order of the page); with detours the
	// first from which a Tank protects some squares the grenade reaches.
	to := ""
	for _, l := range p.clicksOf(`#board .board-row > a.target`) {
		_, blocked := pos.GrenadeTargets(mustSquare(p.t, from), mustSquare(p.t, l))
		if !detours || !blocked.IsEmpty() {
			to = l
			break
		}
	}
	if to == "" {
		p.t.Fatalf("no landing square of the Soldier on %s is next to a square protected by a Tank", from)
	}
	landingHref := p.b.attr(cellSel(to), "href")
	p.clickLink(cellSel(to))
	p.trenchesWantGrenades(pos, from, to)
	if detours {
		// Back one step: the landing squares again, at the address of the
		// Soldier's choice.
		back := p.b.attr(`#unselect`, "href")
		p.clickLink(`#unselect`)
		if want := p.url + "?sel=" + url.QueryEscape(from); back != want {
			p.t.Fatalf("back from the landing square leads to %s, want %s", back, want)
		}
		p.trenchesWantLandings(pos, from)
		if got := p.b.attr(cellSel(to), "href"); got != landingHref {
			p.t.Fatalf("the landing square %s now leads to %s, was %s", to, got, landingHref)
		}
		p.clickLink(cellSel(to))
		p.trenchesWantGrenades(pos, from, to)
		// A protected square is marked red and does nothing when clicked.
		prot := p.clicksOf(`#board .board-row > .protected`)[0]
		if !p.b.eval(fmt.Sprintf(`getComputedStyle(document.querySelector(%q)).boxShadow !== 'none'`, cellSel(prot))) {
			p.t.Fatalf("the protected square %s is not marked", prot)
		}
		p.clickDoesNothing(cellSel(prot))
		wantPly(p.t, p.s, p.id, ply-1, "")
	}
	grenade := p.clicksOf(`#board .board-row > button[name="move"].grenade`)[0]
	move := p.b.attr(cellSel(grenade), "value")
	if want := from + "-" + to + "/" + grenade; move != want {
		p.t.Fatalf("the grenade square %s submits %q, want %q", grenade, move, want)
	}
	p.click(cellSel(grenade))
	p.afterMove(ply, move)
	p.trenchesAfterMove(move)
	if !p.b.eval(fmt.Sprintf(`getComputedStyle(document.querySelector(%q)).backgroundImage.includes('repeating-linear-gradient')`, cellSel(grenade))) {
		p.t.Fatalf("the debris on %s is not drawn", grenade)
	}
	if title := p.b.attr(cellSel(grenade), "title"); !strings.HasPrefix(title, grenade+", Debris") {
		p.t.Fatalf("the grenade square is titled %q, want it to start with %q", title, grenade+", Debris")
	}
}

// trenchesTank plays a Tank move in two clicks: its debris is left on the
// square it came from.
func (p *player) trenchesTank(ply int) {
	p.t.Helper()
	pos := p.position()
	from := p.trenchesPiece(trenches.Tank)
	p.trenchesWantLandings(pos, from)
	to := p.clicksOf(`#board .board-row > button[name="move"].target`)[0]
	move := p.b.attr(cellSel(to), "value")
	if want := from + "-" + to; move != want {
		p.t.Fatalf("the landing square %s submits %q, want %q", to, move, want)
	}
	p.click(cellSel(to))
	p.afterMove(ply, move)
	p.trenchesAfterMove(move)
	if p.b.count(cellSel(from)+`.debris`) != 1 {
		p.t.Fatalf("no debris on %s, where the Tank came from", from)
	}
	if got := p.b.attr(cellSel(to)+` use`, "href"); got != static.URL("units.svg")+"#lt" {
		p.t.Fatalf("%s shows %q after the Tank moved there", to, got)
	}
}

// trenchesAfterMove checks the board after carol's move: the position
// stored, drawn, with nothing left to click on the opponent's turn.
func (p *player) trenchesAfterMove(move string) {
	p.t.Helper()
	if got := p.b.text("#status"); got == "Your move" || !strings.Contains(got, "bob") {
		p.t.Fatalf("after %s the status says %q, want bob to move", move, got)
	}
	if n := p.b.count(`#board a[data-click], #board button[name="move"], #stage, #unselect`); n != 0 {
		p.t.Fatalf("after %s the board still offers %d clicks on the opponent's turn", move, n)
	}
	if n := p.b.count(`#moves li[data-ply]`); n != p.game().Ply {
		p.t.Fatalf("the move list shows %d moves, want %d", n, p.game().Ply)
	}
	pos := p.position()
	debris, err := chromedp.Run(p.b.ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll('#board .board-row > .debris'), e => e.dataset.click)`))
	if err != nil {
		p.t.Fatal(err)
	}
	if got, want := sorted(debris), squareNames(pos.Debris()); !slices.Equal(got, want) {
		p.t.Fatalf("after %s the board shows debris on %v, want %v", move, got, want)
	}
}

// TestBrowserCards plays the card game (short) in the browser: an Attack
// with the refill that follows, a Shift with a step back, a Recon, while
// the action bar greys out the action just taken with its reason. After
// every click the table must show the stored state and no card of the
// opponent that carol may not see.
func TestBrowserCards(t *testing.T) {
	needChromium(t)
	t.Run("htmx", func(t *testing.T) { playCardsInBrowser(t, true) })
	t.Run("no-javascript", func(t *testing.T) { playCardsInBrowser(t, false) })
}

func playCardsInBrowser(t *testing.T, js bool) {
	start := time.Now()
	s := startServer(t, "", nil)
	b := newTab(t, s, js)
	// Bob challenges, so he plays Black; the flips decide who starts.
	p := browserGameOf(t, s, b, js, "cards", cards.VariantShort, "0")
	if p.side != rules.Side1 {
		t.Fatalf("carol plays side %d, want Red (1)", p.side)
	}
	p.w = newLeakWatch(t, s)
	p.w.start(p.id)
	p.w.viewers[p.bob] = rules.Side0
	p.rng = rand.New(rand.NewPCG(17, 4))

	if p.game().ToMove != p.side {
		p.cardsOpponent()
		p.b.open(p.url)
	}
	if got := b.text("#status"); got != "Your move" {
		t.Fatalf("the game's status says %q, want %q", got, "Your move")
	}
	p.start()
	p.cardsCheckPage("the game page")

	// Turn 1: an Attack, then the refills with a choice.
	p.cardsRefills()
	p.cardsWantActions("shift", "recon", "attack")
	move, slot := p.cardsAction("attack", false)
	if move != "attack "+slot {
		t.Fatalf("the attack submitted %q", move)
	}
	if got := b.text("#cards-battle"); !strings.HasPrefix(got, "Last battle, "+slot+":") || !strings.Contains(got, "you attacked") {
		t.Fatalf("after attacking with %s the battle shown is %q", slot, got)
	}
	if n := p.cardsRefills(); n == 0 {
		t.Fatal("no refill with a choice after the attack")
	}
	p.cardsOpponent()
	p.awaitTurn(p.game().Ply)

	// Turn 2: no Attack again; a Shift, with a step back.
	p.cardsRefills()
	p.cardsWantForbidden("attack", "the same action as on the previous turn")
	p.cardsAction("shift", true)
	p.cardsOpponent()
	p.awaitTurn(p.game().Ply)

	// Turn 3: no Shift again, the Attack is back; a Recon when the rules
	// allow one.
	p.cardsRefills()
	p.cardsWantForbidden("shift", "the same action as on the previous turn")
	if p.b.count(`#cards-actions a[data-click="attack"]`) != 1 {
		t.Fatal("the Attack is not offered again on the turn after the next")
	}
	if p.b.count(`#cards-actions a[data-click="recon"]`) == 0 {
		p.cardsWantForbidden("recon", "the opponent already has 3 face-up cards")
		p.cardsAction("attack", false)
	} else {
		backs := p.b.count(`#board .cards-top .card-back`)
		_, slot := p.cardsAction("recon", false)
		if got := p.b.attr(`#board .cards-top .cards-col-`+strings.ToLower(slot)+` [data-card]`, "data-card"); got == "" {
			t.Fatalf("the opponent's %s is not shown face up after the Recon", slot)
		}
		if n := p.b.count(`#board .cards-top .card-back`); n != backs-1 {
			t.Fatalf("after the Recon the opponent's trenches show %d card backs, want %d", n, backs-1)
		}
	}
	assertReplay(t, s, p.id)
	if p.w.checked < 15 || p.w.backs == 0 {
		t.Fatalf("only %d pages (%d card backs) were checked for hidden cards", p.w.checked, p.w.backs)
	}
	moves, err := s.DB.Moves(context.Background(), p.id)
	if err != nil {
		t.Fatal(err)
	}
	var played []string
	for _, m := range moves {
		played = append(played, m.Move)
	}
	t.Logf("moves %q; %d pages (%d card backs) checked for hidden cards; took %s",
		played, p.w.checked, p.w.backs, time.Since(start).Round(100*time.Millisecond))
}

// cardsState is the stored game and its full state.
func (p *player) cardsState() (db.Game, *cards.State) {
	p.t.Helper()
	g := p.game()
	st, err := cards.Decode(g.Variant, g.State)
	if err != nil {
		p.t.Fatal(err)
	}
	return g, st
}

// cardsOpponent has bob play by clicks until it is carol's turn.
func (p *player) cardsOpponent() {
	p.t.Helper()
	for range 10 {
		g := p.game()
		if g.Finished() {
			p.t.Fatalf("the game ended at ply %d: %s", g.Ply, g.Reason)
		}
		if g.ToMove == p.side {
			return
		}
		p.w.cardsClickMove(p.bob, p.rng)
		p.bob.wantStatus(http.StatusOK)
	}
	p.t.Fatal("bob still to move after ten moves")
}

// cardsCheckPage checks the page carol's browser shows: no card she may
// not see anywhere in it (the leak check of the HTTP tests), the
// opponent's face-down cards (trenches and hand) drawn as one card back
// each, and the table as stored: every slot of both sides and her hand.
func (p *player) cardsCheckPage(what string) {
	p.t.Helper()
	page, err := chromedp.Run(p.b.ctx, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
	if err != nil {
		p.t.Fatalf("read the page: %v", err)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(page))
	if err != nil {
		p.t.Fatal(err)
	}
	checked := p.w.checked
	p.w.check(p.me, p.side, what, []byte(page), doc)
	if p.w.checked != checked+1 {
		p.t.Fatalf("%s: the page was not checked for hidden cards", what)
	}

	_, st := p.cardsState()
	truth := st.ViewFor(rules.Reveal)
	mine, theirs := truth.Sides[p.side], truth.Sides[p.side.Other()]
	hidden := theirs.HandCount
	want := map[string]string{}
	for who, sv := range map[string]cards.SideView{"bottom": mine, "top": theirs} {
		for _, sl := range append(sv.Front[:], sv.Back[:]...) {
			v := sl.Card.String()
			switch {
			case sl.Empty:
				v = "empty"
			case who == "top" && !sl.FaceUp:
				v = "back"
				hidden++
			}
			want[who+" "+sl.Name] = v
		}
	}
	if n := doc.Find("#board .card-back").Length(); n != hidden {
		p.t.Fatalf("%s: %d card backs are drawn, want %d (the opponent's face-down cards and hand)", what, n, hidden)
	}
	got, err := chromedp.Run(p.b.ctx, chromedp.Evaluate[map[string]string](`(() => {
		const out = {};
		for (const who of ['top', 'bottom']) {
			for (const s of document.querySelectorAll('#board .cards-' + who + ' .cards-slot')) {
				const c = s.querySelector('[data-card]');
				out[who + ' ' + s.querySelector('.cards-slot-name').textContent.trim()] =
					c ? c.dataset.card : s.querySelector('.card-back') ? 'back' : s.querySelector('.card-empty') ? 'empty' : '?';
			}
		}
		return out;
	})()`))
	if err != nil {
		p.t.Fatalf("read the table: %v", err)
	}
	for k, v := range want {
		if got[k] != v {
			p.t.Fatalf("%s: the table shows %s as %q, want %q (all: %v)", what, k, got[k], v, got)
		}
	}
	if len(got) != len(want) {
		p.t.Fatalf("%s: the table shows %d slots, want %d", what, len(got), len(want))
	}
	var hand []string
	doc.Find("#board .cards-info-mine .cards-hand [data-card]").Each(func(_ int, e *goquery.Selection) {
		v, _ := e.Attr("data-card")
		hand = append(hand, v)
	})
	var wantHand []string
	for _, c := range mine.Hand {
		wantHand = append(wantHand, c.String())
	}
	if !slices.Equal(sorted(hand), sorted(wantHand)) {
		p.t.Fatalf("%s: the hand shows %v, want %v", what, hand, wantHand)
	}
}

// cardsWantActions checks that the action bar offers exactly words.
func (p *player) cardsWantActions(words ...string) {
	p.t.Helper()
	if got := p.clicksOf(`#cards-actions [data-click]`); !slices.Equal(got, words) {
		p.t.Fatalf("the action bar offers %v, want %v", got, words)
	}
}

// cardsWantForbidden checks that the action word is greyed out with the
// reason and cannot be clicked.
func (p *player) cardsWantForbidden(word, reason string) {
	p.t.Helper()
	label := strings.ToUpper(word[:1]) + word[1:]
	if n := p.b.count(fmt.Sprintf(`#cards-actions [data-click=%q]`, word)); n != 0 {
		p.t.Fatalf("%s can be clicked, want it forbidden: %s", label, reason)
	}
	texts, err := chromedp.Run(p.b.ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll('#cards-actions .cards-action-disabled'), e => e.textContent.replace(/\s+/g, ' ').trim())`))
	if err != nil {
		p.t.Fatal(err)
	}
	if !slices.Contains(texts, label+" "+reason) {
		p.t.Fatalf("the action bar's greyed actions say %q, want %q", texts, label+" "+reason)
	}
	greyed := fmt.Sprintf(`(() => {
		const d = Array.from(document.querySelectorAll('#cards-actions .cards-action-disabled')).find(e => e.textContent.trim().startsWith(%q));
		const a = document.querySelector('#cards-actions a.cards-action');
		return d !== undefined && a !== null && getComputedStyle(d).backgroundColor !== getComputedStyle(a).backgroundColor &&
			getComputedStyle(d).color !== getComputedStyle(a).color && d.querySelector('.cards-reason').getBoundingClientRect().height > 0;
	})()`, label)
	if !p.b.eval(greyed) {
		p.t.Fatalf("%s is not drawn greyed out with its reason beside the other actions", label)
	}
}

// cardsRefills plays carol's refills while she must choose one, and
// returns how many.
func (p *player) cardsRefills() int {
	p.t.Helper()
	n := 0
	for ; n < 4; n++ {
		g, st := p.cardsState()
		if g.ToMove != p.side {
			return n
		}
		v := st.ViewFor(p.side)
		if v.Phase != cards.PhaseRefillFront && v.Phase != cards.PhaseRefillBack {
			return n
		}
		// The refill is one click, its card: the Refill word is shown as
		// the action under way, not as a link.
		p.cardsWantActions()
		if got := p.b.text(`#cards-actions .cards-action-active`); got != "Refill" {
			p.t.Fatalf("during a refill the action bar marks %q, want Refill", got)
		}
		if got := p.b.text("#cards-phase"); !strings.HasPrefix(got, "Refill your "+v.RefillSlot+" ") {
			p.t.Fatalf("during a refill of %s the table says %q", v.RefillSlot, got)
		}
		p.wantStage("Refill " + v.RefillSlot + ": click the card that goes there.")
		open := p.b.count(`#board .cards-bottom .cards-open`)
		if (v.Phase == cards.PhaseRefillFront) != (open == 1) {
			p.t.Fatalf("in phase %s %d open slots are marked", v.Phase, open)
		}
		sel := `#board .cards-table button[name="move"].target`
		if !p.b.eval(`getComputedStyle(document.querySelector('` + sel + `')).outlineStyle !== 'none'`) {
			p.t.Fatal("the cards that can fill the slot carry no visible mark")
		}
		move := p.b.attr(sel, "value")
		if !strings.HasPrefix(move, "refill "+v.RefillSlot+" ") {
			p.t.Fatalf("the refill of %s offers %q", v.RefillSlot, move)
		}
		p.click(sel)
		p.afterMove(g.Ply+1, move)
		p.cardsCheckPage("after " + move)
	}
	p.t.Fatal("more than three refills in a row")
	return n
}

// cardsAction plays one move starting with word by clicks: the word in
// the action bar, then the first place offered at each step (a place that
// completes the move first). With back it steps back once after the first
// place. It returns the move and the place of its last click.
func (p *player) cardsAction(word string, back bool) (move, last string) {
	p.t.Helper()
	g := p.game()
	label := strings.ToUpper(word[:1]) + word[1:]
	p.wantStage("Click Shift, Recon or Attack below.")
	if n := p.b.count(`#board .target, #cards-actions .cards-action-active, #unselect`); n != 0 {
		p.t.Fatalf("%d places or actions are marked before an action is chosen", n)
	}
	p.clickLink(fmt.Sprintf(`#cards-actions a[data-click=%q]`, word))
	if got := p.b.text(`#cards-actions .cards-action-active`); got != label {
		p.t.Fatalf("after clicking %s the action bar marks %q", label, got)
	}
	if got := p.b.text("#stage"); !strings.HasPrefix(got, label+":") {
		p.t.Fatalf("after clicking %s the hint says %q", label, got)
	}
	p.cardsCheckPage("after clicking " + label)
	for step := 0; step < 4; step++ {
		if p.b.count(`#board .target`) == 0 {
			p.t.Fatalf("%s: no place is highlighted after %d clicks", label, step+1)
		}
		if !p.b.eval(`getComputedStyle(document.querySelector('#board .target')).outlineStyle !== 'none'`) {
			p.t.Fatalf("%s: the places to click carry no visible mark", label)
		}
		if sel := `#board .cards-table button[name="move"].target`; p.b.count(sel) > 0 {
			move, last = p.b.attr(sel, "value"), p.b.attr(sel, "data-click")
			p.click(sel)
			p.afterMove(g.Ply+1, move)
			p.cardsCheckPage("after " + move)
			if p.game().ToMove != p.side {
				if n := p.b.count(`#cards-actions, #board .target, #board a[data-click], #board button[name="move"]`); n != 0 {
					p.t.Fatalf("after %s the table still offers %d clicks on the opponent's turn", move, n)
				}
				if got := p.b.text("#status"); !strings.Contains(got, "bob") {
					p.t.Fatalf("after %s the status says %q, want bob to move", move, got)
				}
			}
			return move, last
		}
		sel := `#board .cards-table a.target`
		stage, loc := p.b.text("#stage"), p.b.location()
		last = p.b.attr(sel, "data-click")
		p.clickLink(sel)
		if word != string(cards.Recon) {
			p.cardsWantChosen(label, last)
		}
		p.cardsCheckPage(fmt.Sprintf("after clicking %s %s", label, last))
		if back && step == 0 {
			p.clickLink(`#unselect`)
			if now := p.b.location(); now != loc {
				p.t.Fatalf("back one step goes to %s, want %s", now, loc)
			}
			if got := p.b.text("#stage"); got != stage {
				p.t.Fatalf("back one step the hint says %q, want %q", got, stage)
			}
			if n := p.b.count(`#board .cards-selected`); n != 0 {
				p.t.Fatalf("back one step %d places are still marked as chosen", n)
			}
			p.cardsCheckPage("after a step back")
			back = false
			step--
		}
	}
	p.t.Fatalf("%s: no move after five clicks", label)
	return "", ""
}

// cardsWantChosen checks that carol's place token (a slot or "H:<card>")
// is the one marked as chosen.
func (p *player) cardsWantChosen(label, token string) {
	p.t.Helper()
	sel := `#board .cards-bottom .cards-col-` + strings.ToLower(token) + ` .cards-selected`
	if card, ok := strings.CutPrefix(token, "H:"); ok {
		sel = fmt.Sprintf(`#board .cards-info-mine .cards-hand .cards-selected [data-card=%q]`, card)
	}
	if p.b.count(sel) != 1 || p.b.count(`#board .cards-selected`) != 1 {
		p.t.Fatalf("%s: the place %s is not the one marked as chosen", label, token)
	}
}

// TestBrowserTrenchesLegendMatchesTheBoard: the legend under a Trenches
// board draws "start and landing" as the board marks the squares chosen
// (the selection's ring, in its colour), in the light and the dark
// theme.
func TestBrowserTrenchesLegendMatchesTheBoard(t *testing.T) {
	needChromium(t)
	s := startServer(t, "", nil)
	b := newTab(t, s, false)
	browserGameOf(t, s, b, false, "trenches", trenches.VariantStandard, "1")
	b.clickAndLoad(`#board a.can-select`)
	same := `(() => {
		const key = getComputedStyle(document.querySelector('.board-legend .key.selected')).boxShadow;
		const sel = getComputedStyle(document.querySelector('#board .selected')).boxShadow;
		const colour = (key.match(/rgba?\([^)]*\)/) || [''])[0];
		return colour !== '' && sel.includes(colour);
	})()`
	for _, scheme := range []string{"light", "dark"} {
		b.colourScheme(scheme)
		b.open(b.location())
		b.waitUntil(5*time.Second, "the selection drawn", `document.querySelector('#board .selected') !== null`)
		if !b.eval(same) {
			t.Errorf("%s theme: the legend's swatch for the start and landing is not the colour the board marks them in", scheme)
		}
	}
}
