package handlers_test

import (
	"context"
	"fmt"
	"html"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/PuerkitoBio/goquery"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/cards"
)

// The card game over HTTP: whole games played by clicks, with every
// response any viewer gets checked for cards that viewer may not see.

// allCards maps each card's written forms ("QH" and "Q♥") to the card.
var allCards = func() map[string]cards.Card {
	m := map[string]cards.Card{}
	for c := cards.Card(1); c <= 52; c++ {
		m[c.String()] = c
		m[c.Symbol()] = c
	}
	return m
}()

func isWordByte(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b == '_'
}

// letterCards returns the cards written rank+suit letter in text as whole
// tokens: maximal runs of letters, digits and underscores that read as a
// card, so that "10H" never counts as "0H" and no part of a longer word
// counts.
func letterCards(text string) []cards.Card {
	var out []cards.Card
	for i := 0; i < len(text); {
		if !isWordByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		if c, ok := allCards[text[i:j]]; ok {
			out = append(out, c)
		}
		i = j
	}
	return out
}

// symbolCards returns the cards written rank+suit symbol in text ("Q♥",
// "10♠"): every suit symbol preceded by a rank, "10" read before "0". No
// boundary is asked for before the rank, so a rank glued to a slot name
// ("F110♥" once spaces are gone) still counts: this errs on the side of
// seeing a card.
func symbolCards(text string) []cards.Card {
	var out []cards.Card
	for i, r := range text {
		if r != '♠' && r != '♥' && r != '♣' && r != '♦' {
			continue
		}
		sym := string(r)
		if i >= 2 && text[i-2:i] == "10" {
			out = append(out, allCards["10"+sym])
			continue
		}
		if i >= 1 {
			if c, ok := allCards[text[i-1:i]+sym]; ok {
				out = append(out, c)
			}
		}
	}
	return out
}

// percentDecode decodes %XX escapes and '+' as a URL query does, leaving
// malformed escapes as they are.
func percentDecode(s string) string {
	if !strings.ContainsAny(s, "%+") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '+':
			b.WriteByte(' ')
		case s[i] == '%' && i+2 < len(s):
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
			b.WriteByte(s[i])
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// cardsIn returns every card a response names in any form the pages could
// use: in the raw bytes, with HTML entities decoded, with URL escapes
// decoded (selection links), and in the document's text with all white
// space removed (a rank and a suit drawn in separate elements).
func cardsIn(body []byte, doc *goquery.Document) []cards.Card {
	raw := string(body)
	unesc := html.UnescapeString(raw)
	var out []cards.Card
	for _, text := range []string{raw, unesc, percentDecode(unesc)} {
		out = append(out, letterCards(text)...)
		out = append(out, symbolCards(text)...)
	}
	squeezed := strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, doc.Text())
	return append(out, symbolCards(squeezed)...)
}

// cardSet is a set of cards.
type cardSet map[cards.Card]bool

func (s cardSet) add(cs ...cards.Card) {
	for _, c := range cs {
		if c != cards.NoCard {
			s[c] = true
		}
	}
}

// leakWatch follows one card game and checks every response of every
// viewer against what that viewer may know at that moment. What may be
// known is computed from the full state stored in the database, replayed
// ply by ply: at each ply the face-up trench cards, the removed cards, the
// last battle and the start flips are public, and a player also sees their
// own trench and hand cards. What was public or seen once may appear
// later (the log names a card turned up by a Recon, or the cards of a
// battle, after they went back to a hand), so the allowed set of a viewer
// is the union over the plies played so far. Once the game is over
// everything may be shown.
type leakWatch struct {
	t        *testing.T
	s        *server
	id       int64
	state    *cards.State
	ply      int
	over     bool
	public   cardSet
	own      [2]cardSet
	viewers  map[*client]rules.Side
	checked  int // responses checked while the game ran
	bytes    int
	backs    int // face-down cards checked to be drawn alike
	maxCards int // the most distinct cards one response named
}

func newLeakWatch(t *testing.T, s *server) *leakWatch {
	return &leakWatch{t: t, s: s, public: cardSet{}, own: [2]cardSet{{}, {}}, viewers: map[*client]rules.Side{}}
}

// start begins following game id.
func (w *leakWatch) start(id int64) {
	w.t.Helper()
	g, err := w.s.DB.Game(context.Background(), id)
	if err != nil {
		w.t.Fatal(err)
	}
	st, err := cards.Decode(g.Variant, g.StartState)
	if err != nil {
		w.t.Fatal(err)
	}
	w.id, w.state, w.ply = id, st, 0
	w.learn(st)
	w.sync()
}

// learn adds what is public or seen by each player in st to the sets.
func (w *leakWatch) learn(st *cards.State) {
	all := st.ViewFor(rules.Reveal) // the whole truth, with the face-up flags
	for _, f := range all.Flips {
		w.public.add(f.Cards[:]...)
	}
	if b := all.LastBattle; b != nil {
		w.public.add(b.Cards[:]...)
	}
	for t, sv := range all.Sides {
		w.public.add(sv.Removed...)
		for _, sl := range append(sv.Front[:], sv.Back[:]...) {
			if sl.Empty {
				continue
			}
			if sl.FaceUp {
				w.public.add(sl.Card)
			}
			w.own[t].add(sl.Card)
		}
		w.own[t].add(sv.Hand...)
	}
}

// sync replays the moves stored since the last look, learning from each
// state, and checks that the replay gives the stored state.
func (w *leakWatch) sync() {
	w.t.Helper()
	ctx := context.Background()
	g, err := w.s.DB.Game(ctx, w.id)
	if err != nil {
		w.t.Fatal(err)
	}
	if g.Ply != w.ply {
		moves, err := w.s.DB.Moves(ctx, w.id)
		if err != nil {
			w.t.Fatal(err)
		}
		for _, m := range moves[w.ply:] {
			if w.state, err = w.state.ApplyMove(m.Move); err != nil {
				w.t.Fatalf("replay ply %d %q: %v", m.Ply, m.Move, err)
			}
			w.learn(w.state)
		}
		w.ply = g.Ply
		if w.state.Encode() != g.State {
			w.t.Fatalf("ply %d: the replayed state differs from the stored one", g.Ply)
		}
	}
	w.over = g.Finished()
}

// allowed is what viewer may have seen by now.
func (w *leakWatch) allowed(viewer rules.Side) cardSet {
	ok := cardSet{}
	for c := range w.public {
		ok[c] = true
	}
	if viewer.Valid() {
		for c := range w.own[viewer] {
			ok[c] = true
		}
	}
	return ok
}

// check fails the test when body names a card viewer may not know, or
// draws face-down cards differently from each other. extra are cards the
// request itself named (a forged form's card is echoed in its refusal).
func (w *leakWatch) check(c *client, viewer rules.Side, what string, body []byte, doc *goquery.Document, extra ...cards.Card) {
	w.t.Helper()
	w.sync()
	if w.id == 0 || w.over {
		return
	}
	w.checked++
	w.bytes += len(body)
	ok := w.allowed(viewer)
	for _, x := range extra {
		ok[x] = true
	}
	named := cardSet{}
	for _, card := range cardsIn(body, doc) {
		named[card] = true
		if !ok[card] {
			i := strings.Index(string(body), card.String())
			if i < 0 {
				i = strings.Index(string(body), card.Symbol())
			}
			ctx := ""
			if i >= 0 {
				ctx = string(body[max(0, i-200):min(len(body), i+100)])
			}
			w.t.Fatalf("ply %d: %s (viewer %d) got %s naming %s, which it may not see; near: %s",
				w.ply, c.Name, viewer, what, card, ctx)
		}
	}
	w.maxCards = max(w.maxCards, len(named))
	// Face-down cards carry nothing that tells them apart.
	doc.Find(".card-back").Each(func(_ int, b *goquery.Selection) {
		h, _ := goquery.OuterHtml(b)
		w.backs++
		if h != `<span class="card card-back" aria-hidden="true"></span>` &&
			h != `<span class="card card-back card-small" aria-hidden="true"></span>` {
			w.t.Fatalf("ply %d: %s got a face-down card drawn as %s", w.ply, c.Name, h)
		}
	})
}

// do sends req as c (with htmx's headers when htmx and c has JavaScript
// on), parses the answer into c.Last like the harness does, and checks
// the raw answer.
func (w *leakWatch) do(c *client, req *http.Request, htmx bool, extra ...cards.Card) *goquery.Document {
	w.t.Helper()
	if htmx && c.HTMX {
		req.Header.Set("HX-Request", "true")
		req.Header.Set("HX-Current-URL", c.URL)
	}
	res, err := c.http.Do(req)
	if err != nil {
		w.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		w.t.Fatal(err)
	}
	c.Status, c.Header, c.URL = res.StatusCode, res.Header, res.Request.URL.String()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(body)))
	if err != nil {
		w.t.Fatal(err)
	}
	c.Last = doc
	w.check(c, w.viewers[c], fmt.Sprintf("%s %s (%d)", req.Method, req.URL.RequestURI(), res.StatusCode), body, doc, extra...)
	return doc
}

func (w *leakWatch) get(c *client, path string, htmx bool) *goquery.Document {
	w.t.Helper()
	req, err := http.NewRequest(http.MethodGet, c.abs(path), nil)
	if err != nil {
		w.t.Fatal(err)
	}
	return w.do(c, req, htmx)
}

// click follows a link as the harness's Click does.
func (w *leakWatch) click(c *client, link *goquery.Selection) *goquery.Document {
	w.t.Helper()
	if u, ok := link.Attr("hx-get"); ok && c.HTMX {
		return w.get(c, u, true)
	}
	href, ok := link.Attr("href")
	if !ok {
		w.t.Fatal("the link has no href")
	}
	return w.get(c, href, false)
}

// submit submits a form as the harness's Submit does, checking the answer.
func (w *leakWatch) submit(c *client, form *goquery.Selection, extra url.Values, named ...cards.Card) *goquery.Document {
	w.t.Helper()
	req, htmx := c.formRequest(form, extra)
	return w.do(c, req, htmx, named...)
}

// cardsClickMove plays one move of the card game as a person does: an
// action word of the action bar, then the places it involves, the last
// click submitting the move; a refill is the one click of its card. Now
// and then it steps back once. It returns the move submitted.
func (w *leakWatch) cardsClickMove(c *client, rng *rand.Rand) string {
	w.t.Helper()
	page := fmt.Sprintf("/games/%d", w.id)
	w.get(c, page, false)
	c.wantStatus(http.StatusOK)
	backs := 0
	for step := 0; step < 10; step++ {
		board := c.Last.Find("#board")
		refill := board.Find(`.cards-table button[name="move"].target`)
		if step == 0 && refill.Length() == 0 {
			if n := board.Find(`#cards-actions a[data-click]`).Length(); n == 0 {
				html, _ := c.Last.Find("#game").Html()
				w.t.Fatalf("%s: no action to click at ply %d: %.1500s", c.Name, w.ply, html)
			}
		}
		if step == 0 && refill.Length() > 0 {
			move, _ := refill.Eq(rng.IntN(refill.Length())).Attr("value")
			if !strings.HasPrefix(move, "refill ") {
				w.t.Fatalf("%s: %q is offered in one click at ply %d", c.Name, move, w.ply)
			}
			w.submit(c, board, url.Values{"move": {move}})
			return move
		}
		if step > 0 && backs == 0 && rng.IntN(10) == 0 && board.Find("#unselect").Length() == 1 {
			backs++
			w.click(c, board.Find("#unselect"))
			c.wantStatus(http.StatusOK)
			continue
		}
		if buttons := board.Find(`button[name="move"]`); buttons.Length() > 0 && step > 0 {
			move, _ := buttons.Eq(rng.IntN(buttons.Length())).Attr("value")
			w.submit(c, board, url.Values{"move": {move}})
			return move
		}
		links := board.Find(`#cards-actions a[data-click]`)
		if step > 0 && board.Find(`a[data-click].target`).Length() > 0 {
			links = board.Find(`a[data-click].target`)
		}
		if links.Length() == 0 {
			html, _ := c.Last.Find("#game").Html()
			w.t.Fatalf("%s: nothing to click at ply %d: %.1500s", c.Name, w.ply, html)
		}
		w.click(c, links.Eq(rng.IntN(links.Length())))
		c.wantStatus(http.StatusOK)
	}
	w.t.Fatalf("%s: no move after ten clicks", c.Name)
	return ""
}

// cardsChallenge has a challenge b to the card game (variant) and b accept
// it; the game page b lands on is checked too. It returns the game id.
func cardsChallenge(t *testing.T, w *leakWatch, a, b *client, variant string) int64 {
	t.Helper()
	a.Get("/challenges/new?game=cards")
	a.wantStatus(http.StatusOK)
	a.Post("/challenges", url.Values{"game": {"cards"}, "variant": {variant}, "color": {"0"}, "days": {"3"}, "opponent": {b.Name}})
	a.wantStatus(http.StatusOK)
	b.Get("/")
	chID, ok := b.Last.Find("#open-challenges tr[data-challenge]").First().Attr("data-challenge")
	if !ok {
		t.Fatalf("%s does not see the challenge", b.Name)
	}
	tok, _ := b.Last.Find(`input[name="_csrf"]`).Attr("value")
	req, err := http.NewRequest(http.MethodPost, b.abs("/challenges/"+chID+"/accept"),
		strings.NewReader(url.Values{"_csrf": {tok}}.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := b.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("accept: status %d", res.StatusCode)
	}
	b.URL = res.Request.URL.String()
	id := gameIDOf(t, b.URL)
	w.start(id)
	g, _ := w.s.DB.Game(context.Background(), id)
	for _, c := range []*client{a, b} {
		w.viewers[c] = g.SideOf(mustUser(t, w.s, c.Name))
	}
	if w.viewers[a] != rules.Side0 || w.viewers[b] != rules.Side1 {
		t.Fatalf("sides %d and %d, want the challenger to play Black (side 0)", w.viewers[a], w.viewers[b])
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	b.Last = doc
	w.check(b, rules.Side1, "the game page after accepting", body, doc)
	return id
}

// TestCardsWholeGamesByClicks plays a short and a long card game to the
// end by clicks, one player with JavaScript on and one without, while a
// signed-out spectator follows; every response each of them gets is
// checked for cards it may not see. After the end every card and the seed
// are shown to all.
func TestCardsWholeGamesByClicks(t *testing.T) {
	for _, variant := range []string{cards.VariantShort, cards.VariantLong} {
		t.Run(variant, func(t *testing.T) { playCardsGame(t, variant) })
	}
}

func playCardsGame(t *testing.T, variant string) {
	start := time.Now()
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	b.HTMX = true
	spectator := s.newClient(t)
	spectator.Name = "spectator"
	spectator.HTMX = true // its polls are htmx's; its page loads are not
	w := newLeakWatch(t, s)
	w.viewers[spectator] = rules.NoSide
	id := cardsChallenge(t, w, a, b, variant)
	page := fmt.Sprintf("/games/%d", id)

	// Every viewer opens the game; the spectator's page has no hand and
	// nothing to click.
	for _, c := range []*client{a, b, spectator} {
		w.get(c, page, false)
		c.wantStatus(http.StatusOK)
		if c.Last.Find("#board .cards-table").Length() != 1 {
			html, _ := c.Last.Find("#game").Html()
			t.Fatalf("%s: no card table on the game page: %.1500s", c.Name, html)
		}
	}
	if spectator.Last.Find(`#board a[data-click], #board button[name="move"]`).Length() != 0 {
		t.Fatal("the spectator can click moves")
	}
	if n := spectator.Last.Find(`#board .cards-info-mine`).Length(); n != 0 {
		t.Fatal("the spectator's table has a side marked as its own")
	}

	rng := rand.New(rand.NewPCG(11, uint64(len(variant))))
	seen := map[string]bool{} // the action words played
	plies := 0
	for ; plies < 3000; plies++ {
		p, g := whoMoves(t, s, id, a, b)
		if p == nil {
			break
		}
		other := a
		if p == a {
			other = b
		}
		move := w.cardsClickMove(p, rng)
		p.wantStatus(http.StatusOK)
		seen[strings.Fields(move)[0]] = true
		if p.HTMX && p.Last.Find("#game").Length() != 1 {
			t.Fatal("an htmx move did not answer with the #game fragment")
		}
		after, err := s.DB.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if after.Ply != g.Ply+1 || after.LastMove != move {
			t.Fatalf("after %s: ply %d last %q, want ply %d last %q", move, after.Ply, after.LastMove, g.Ply+1, move)
		}
		// The opponent's open page learns of the move: by the live poll
		// with JavaScript, by a reload without.
		if other.HTMX {
			if poll, ok := other.Last.Find("#poll").Attr("hx-get"); ok {
				w.get(other, poll, true)
				other.wantStatus(http.StatusOK)
			} else {
				w.get(other, page, false)
			}
		} else {
			w.get(other, page, false)
		}
		// The spectator polls (a fragment), and reloads now and then.
		if poll, ok := spectator.Last.Find("#poll").Attr("hx-get"); ok && plies%5 != 0 {
			w.get(spectator, poll, true)
		} else {
			w.get(spectator, page, false)
		}
		if spectator.Status != http.StatusOK {
			t.Fatalf("the spectator's update: status %d", spectator.Status)
		}
		// A poll with nothing new is an empty 204.
		if poll, ok := spectator.Last.Find("#poll").Attr("hx-get"); ok {
			w.get(spectator, poll, true)
			spectator.wantStatus(http.StatusNoContent)
		}
	}
	g, err := s.DB.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Finished() {
		t.Fatalf("game not over after %d plies", plies)
	}
	for _, word := range []string{"shift", "recon", "attack", "refill"} {
		if !seen[word] {
			t.Errorf("no %s was played in the whole game", word)
		}
	}
	if w.checked < 4*plies || w.backs == 0 {
		t.Fatalf("only %d responses (%d face-down cards) were checked in %d plies", w.checked, w.backs, plies)
	}
	t.Logf("%s game over after %d plies (%s, %d–%d): %d responses (%d kB, %d face-down cards) checked, up to %d cards named in one",
		variant, plies, g.Reason, g.Score[0], g.Score[1], w.checked, w.bytes/1024, w.backs, w.maxCards)

	// Both players see the result; nobody can click a move any more.
	assertResultShown(t, s, id, a, b)
	assertReplay(t, s, id)
	assertCardsRevealed(t, s, id, a, b, spectator)
	t.Logf("took %s", time.Since(start).Round(time.Millisecond))
}

// assertCardsRevealed checks the page of a finished card game, for each
// client: the table shows every card of the game face up, exactly once
// (trenches, hands, decks and removed cards), and the archive the seed and
// both starting deals.
func assertCardsRevealed(t *testing.T, s *server, id int64, clients ...*client) {
	t.Helper()
	g, err := s.DB.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	st, err := cards.Decode(g.Variant, g.State)
	if err != nil {
		t.Fatal(err)
	}
	truth := st.ViewFor(rules.Reveal)
	if truth.Seed != strconv.FormatInt(g.Seed, 10) {
		t.Fatalf("the state's seed %s is not the game's %d", truth.Seed, g.Seed)
	}
	per := 13
	if g.Variant == cards.VariantLong {
		per = 26
	}
	for _, c := range clients {
		c.HTMX = false
		c.Get(fmt.Sprintf("/games/%d", id))
		c.wantStatus(http.StatusOK)
		table := c.Last.Find("#board .cards-table")
		if n := table.Find(".card-back").Length(); n != 0 {
			t.Errorf("%s: %d cards are still face down after the end", c.Name, n)
		}
		var shown []string
		table.Find(".cards-trenches [data-card], .cards-info [data-card]").Each(func(_ int, e *goquery.Selection) {
			v, _ := e.Attr("data-card")
			shown = append(shown, v)
		})
		slices.Sort(shown)
		var want []string
		for _, sv := range truth.Sides {
			for _, sl := range append(sv.Front[:], sv.Back[:]...) {
				if !sl.Empty {
					want = append(want, sl.Card.String())
				}
			}
			for _, cs := range [][]cards.Card{sv.Hand, sv.Deck, sv.Removed} {
				for _, x := range cs {
					want = append(want, x.String())
				}
			}
		}
		slices.Sort(want)
		if len(want) != 2*per || !slices.Equal(shown, want) {
			t.Errorf("%s: the finished table shows %d cards %v, want all %d: %v", c.Name, len(shown), shown, 2*per, want)
		}
		if got := c.text("#cards-seed"); got != truth.Seed {
			t.Errorf("%s: the seed shown is %q, want %s", c.Name, got, truth.Seed)
		}
		deal := c.Last.Find("#cards-archive .cards-deal")
		if deal.Length() != 2 || deal.Find("[data-card]").Length() != 2*per {
			t.Errorf("%s: the starting deal shows %d sides and %d cards, want 2 and %d",
				c.Name, deal.Length(), deal.Find("[data-card]").Length(), 2*per)
		}
		for side, d := range truth.Deal {
			first, _ := deal.Eq(side).Find("[data-card]").First().Attr("data-card")
			if first != d.Front[0].String() {
				t.Errorf("%s: side %d's deal starts with %s, want F1 = %s", c.Name, side, first, d.Front[0])
			}
		}
	}
}

// TestCardsForgedMovesRefused: a form naming a card the player does not
// hold, a slot that does not exist or a move the rules do not allow gets
// a 4xx and changes nothing, and its answer shows no hidden card.
func TestCardsForgedMovesRefused(t *testing.T) {
	s := startServer(t, "", nil)
	a, b := signedUpPair(t, s)
	w := newLeakWatch(t, s)
	id := cardsChallenge(t, w, a, b, cards.VariantShort)
	p, g := whoMoves(t, s, id, a, b)
	other := a
	if p == a {
		other = b
	}
	side := w.viewers[p]
	truth := w.state.ViewFor(rules.Reveal)
	mine, theirs := truth.Sides[side], truth.Sides[side.Other()]
	held := mine.Hand[0]
	trenchCard := mine.Back[2].Card    // in B3, not in the hand
	hiddenCard := theirs.Front[1].Card // the opponent's face-down F2
	opponentHand := theirs.Hand[0]     // in the opponent's hand
	page := fmt.Sprintf("/games/%d", id)
	w.get(p, page, false)
	w.get(other, page, false)
	before := g.State

	cases := []struct {
		name  string
		c     *client
		move  string
		named []cards.Card // cards the form itself names
		want  int          // 0: any 4xx
	}{
		{"a hand card that is in a trench", p, "shift B3 H:" + trenchCard.String(), []cards.Card{trenchCard}, http.StatusUnprocessableEntity},
		{"the opponent's hidden trench card", p, "shift B3 H:" + hiddenCard.String(), []cards.Card{hiddenCard}, http.StatusUnprocessableEntity},
		{"a card of the opponent's hand", p, "shift B2 H:" + opponentHand.String(), []cards.Card{opponentHand}, http.StatusUnprocessableEntity},
		{"a hand card into a filled slot", p, "shift H:" + held.String() + " B1", nil, http.StatusUnprocessableEntity},
		{"no front slot 7", p, "attack F7", nil, http.StatusBadRequest},
		{"no back slot 9", p, "recon B9", nil, http.StatusBadRequest},
		{"slots that are not neighbours", p, "shift F1 F3", nil, http.StatusUnprocessableEntity},
		{"a refill with nothing open", p, "refill F2 B2", nil, http.StatusUnprocessableEntity},
		{"not a card", p, "shift B3 H:ZZ", nil, http.StatusBadRequest},
		{"an unknown word", p, "charge F1", nil, http.StatusBadRequest},
		{"a move when it is not your turn", other, "attack F1", nil, http.StatusForbidden},
	}
	parent := w.t
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w.t = t
			defer func() { w.t = parent }()
			board := tc.c.Last.Find("#board")
			if board.Length() != 1 {
				t.Fatal("no board form to forge")
			}
			w.submit(tc.c, board, url.Values{"move": {tc.move}}, tc.named...)
			if tc.c.Status < 400 || tc.c.Status > 499 || (tc.want != 0 && tc.c.Status != tc.want) {
				t.Fatalf("%q: status %d, want %d", tc.move, tc.c.Status, tc.want)
			}
			if tc.c.Last.Find("#game-message").Length() != 1 || tc.c.Last.Find("#board .cards-table").Length() != 1 {
				t.Errorf("%q: the refusal does not show the table with the reason", tc.move)
			}
			after, err := s.DB.Game(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if after.Ply != g.Ply || after.State != before {
				t.Fatalf("%q changed the game: ply %d", tc.move, after.Ply)
			}
			w.get(tc.c, page, false) // a fresh form for the next case
		})
	}
	// The game goes on normally after the refusals.
	w.cardsClickMove(p, rand.New(rand.NewPCG(5, 5)))
	p.wantStatus(http.StatusOK)
	if after, _ := s.DB.Game(context.Background(), id); after.Ply != g.Ply+1 {
		t.Fatalf("after the refusals a proper move gives ply %d, want %d", after.Ply, g.Ply+1)
	}
}
