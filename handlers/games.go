package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/cards"
	"github.com/trench-games/trench/views"
)

// gameHandler is the one game flow of the web layer, for every game: it
// shows a game, takes moves, resignations and armistice answers, and
// answers the live-update poll. It knows games only through the rules
// interfaces; each game's board is drawn by views.Board.
type gameHandler struct {
	db       *db.DB
	now      func() time.Time
	sessions *sessionManager // keeps a visitor's board view
	// computers are the computer accounts by user id; wake tells their
	// worker that a game changed.
	computers map[int64]db.Computer
	wake      func()
	hub       *liveHub // numbers the game's changes (see liveHub.seq)
	moves     movesCache
	replay    replayCache
	logs      logCache
	states    fifoCache[positionKey, rules.State] // decoded states, see decode
}

// maxCachedPositions bounds the positions whose legal moves movesCache
// keeps (a mid-game Trenches position's take about 20 KB).
const maxCachedPositions = 128

// movesCache keeps the legal moves and their clicks of the positions last
// shown to the player to move: each selection click shows the same
// position again, as does the poll that brings it, and a Trenches
// position has hundreds of moves. A position is known by its game,
// variant and encoded state, so a kept entry never goes stale; the oldest
// is dropped past maxCachedPositions. The zero value is ready to use.
type movesCache struct {
	kept fifoCache[movesKey, *legalMoves]
}

// movesKey names a position and the side whose moves are kept.
type movesKey struct {
	game, variant, state string
	side                 rules.Side
}

// legalMoves are a position's legal moves for one side and the clicks of
// each (clicks[i] those of legal[i]). Shared between requests: read only.
type legalMoves struct {
	legal  []string
	clicks [][]string
}

// of returns side's legal moves in st, the state of g, from the cache or
// computed (then kept).
func (m *movesCache) of(g db.Game, st rules.State, side rules.Side) *legalMoves {
	key := movesKey{game: g.Game, variant: g.Variant, state: g.State, side: side}
	if lm, ok := m.kept.get(key); ok {
		return lm
	}
	legal := st.Legal(side)
	lm := &legalMoves{legal: legal, clicks: clicksOf(st, legal)}
	m.kept.put(key, lm, maxCachedPositions)
	return lm
}

// positionKey names a stored position: its game, variant and encoded state.
type positionKey struct{ game, variant, state string }

// decode returns the state of g, decoded from its stored form or, when
// the same position was shown lately, kept from then (states are
// immutable; the oldest is dropped past maxCachedPositions). Errors: as
// db.Game.Decode.
func (h *gameHandler) decode(g db.Game) (rules.State, error) {
	key := positionKey{g.Game, g.Variant, g.State}
	if st, ok := h.states.get(key); ok {
		return st, nil
	}
	st, err := g.Decode()
	if err != nil {
		return nil, err
	}
	h.states.put(key, st, maxCachedPositions)
	return st, nil
}

// maxSelection bounds the clicks a selection in a URL may hold.
const maxSelection = 8

// selection parses the ?sel= clicks ("d4" or "b4,b6"); empty parts are
// dropped.
func selection(c echo.Context) []string {
	raw := c.QueryParam("sel")
	if raw == "" {
		return nil
	}
	var out []string
	for _, s := range strings.Split(raw, ",") {
		if s = strings.TrimSpace(s); s != "" && len(s) <= 16 {
			out = append(out, s)
		}
		if len(out) == maxSelection {
			break
		}
	}
	return out
}

// selectionURL is the game URL with the selection sel.
func selectionURL(gameURL string, sel []string) string {
	if len(sel) == 0 {
		return gameURL
	}
	return gameURL + "?sel=" + url.QueryEscape(strings.Join(sel, ","))
}

// nextSteps computes, for the clicks made so far (sel), what each possible
// next click does: complete a legal move (Move) or extend the selection
// (Href, the address selectionHref gives for the longer selection). A
// selection that no legal move starts with is dropped. Clicking another
// first click (another unit) restarts the selection.
func nextSteps(st rules.State, legal []string, sel []string, selectionHref func(sel []string) string) (map[string]views.Step, []string) {
	return nextStepsOf(clicksOf(st, legal), legal, sel, selectionHref)
}

// clicksOf returns the clicks of each move of legal in st (State.Clicks).
func clicksOf(st rules.State, legal []string) [][]string {
	clicks := make([][]string, len(legal))
	for i, m := range legal {
		clicks[i] = st.Clicks(m)
	}
	return clicks
}

// nextStepsOf is nextSteps with the clicks of each legal move given
// (clicks[i] those of legal[i]); it only reads them.
func nextStepsOf(clicks [][]string, legal []string, sel []string, selectionHref func(sel []string) string) (map[string]views.Step, []string) {
	valid := len(sel) > 0
	if valid {
		valid = false
		for _, c := range clicks {
			if len(c) > len(sel) && slices.Equal(c[:len(sel)], sel) {
				valid = true
				break
			}
		}
		if !valid {
			sel = nil
		}
	}
	next := map[string]views.Step{}
	for i, c := range clicks {
		if len(c) <= len(sel) || !slices.Equal(c[:len(sel)], sel) {
			continue
		}
		tok := c[len(sel)]
		if len(c) == len(sel)+1 {
			next[tok] = views.Step{Move: legal[i]}
		} else if _, done := next[tok]; !done {
			next[tok] = views.Step{Href: selectionHref(append(slices.Clone(sel), tok))}
		}
	}
	if len(sel) > 0 {
		for _, c := range clicks {
			if len(c) > 0 {
				if _, taken := next[c[0]]; !taken && !(len(sel) > 0 && c[0] == sel[0]) {
					next[c[0]] = views.Step{Href: selectionHref(c[:1])}
				}
			}
		}
	}
	return next, sel
}

// pendingSteps turns each click that completes a move into a link to the
// move pending (?pending=), for a player who confirms moves before
// sending them.
func pendingSteps(next map[string]views.Step, gameURL string) {
	for k, s := range next {
		if s.Move != "" {
			next[k] = views.Step{Href: gameURL + "?pending=" + url.QueryEscape(s.Move)}
		}
	}
}

// gameScreen holds what one rendering of a game page needs.
type gameScreen struct {
	seq     string // the game's version when it was read (liveHub.seq)
	game    db.Game
	moves   []db.Move
	match   db.Match
	matchGs []db.Game
}

func (h *gameHandler) load(ctx context.Context, id int64) (gameScreen, error) {
	var s gameScreen
	var err error
	// Counted before reading: what is read is at least this new.
	s.seq = h.hub.seq(id)
	if s.game, err = h.db.Game(ctx, id); err != nil {
		return s, err
	}
	if s.moves, err = h.db.Moves(ctx, id); err != nil {
		return s, err
	}
	if s.match, err = h.db.Match(ctx, s.game.MatchID); err != nil {
		return s, err
	}
	// The match's other games matter for a match of several games (its
	// panel) and once a game is over (the link to the next one).
	if s.game.Number > 1 || s.game.Finished() || isMatch(s.game) {
		if s.matchGs, err = h.db.MatchGames(ctx, s.game.MatchID); err != nil {
			return s, err
		}
	} else {
		s.matchGs = []db.Game{s.game}
	}
	return s, nil
}

// page builds the game page for the request's viewer.
func (h *gameHandler) page(c echo.Context, s gameScreen, message string) (views.GamePage, error) {
	g := s.game
	v := currentViewer(c)
	eng, err := g.Engine()
	if err != nil {
		return views.GamePage{}, err
	}
	st, err := h.decode(g)
	if err != nil {
		return views.GamePage{}, err
	}
	side := g.SideOf(v.ID)
	seer := side // who the view and the log are made for
	if g.Finished() {
		seer = rules.Reveal
	}
	gameURL := fmt.Sprintf("/games/%d", g.ID)
	ctx := c.Request().Context()
	names := [2]string{sideName(ctx, eng, 0), sideName(ctx, eng, 1)}

	// Review mode: ?ply=N shows the position after ply N; a finished game
	// opens at its end with the review controls.
	review, err := reviewPly(c, g)
	if err != nil {
		return views.GamePage{}, err
	}
	shown := st
	if review >= 0 && review < g.Ply {
		if shown, err = stateAt(eng, g, s.moves, review); err != nil {
			return views.GamePage{}, err
		}
	}
	shownPly := g.Ply
	if review >= 0 {
		shownPly = review
	}

	// The move list: all of it for a full page or in review mode; for
	// htmx only the moves after the ply the page shows (appended out of
	// band; static/live.js leaves out a move the page has already, as when
	// an answer and a pushed update cross). A page past the game's ply
	// shows moves taken back since, and a finished game with hidden
	// information now reads in full: they get the whole list, replacing
	// their own, as does a pushed update to a page whose ply is not known
	// ("wholeLog" set, see liveRenderer.game).
	wholeLog, _ := c.Get("wholeLog").(bool)
	if g.Finished() && rules.HidesInformation(eng) {
		wholeLog = true
	}
	from := 0
	if isHTMX(c) && review < 0 && !wholeLog {
		from = g.Ply
		if n, err := strconv.Atoi(c.Request().Header.Get(views.PlyHeader)); err == nil && n >= 0 && n < g.Ply {
			from = n
		} else if err == nil && n > g.Ply {
			from, wholeLog = 0, true
		}
	}
	var log []views.LogLine
	if from == 0 {
		log, err = h.logs.whole(ctx, &h.replay, eng, g, s.moves, seer)
	} else {
		log, err = moveLog(ctx, &h.replay, eng, g, s.moves, from, seer)
	}
	if err != nil {
		return views.GamePage{}, err
	}
	// The clicks of the last move highlight it on the board; a game with
	// hidden information gives them only once it is over (a click may name
	// a hidden card).
	var lastClicks []string
	lastText := ""
	if shownPly > 0 && (g.Finished() || !rules.HidesInformation(eng)) {
		lastClicks = st.Clicks(s.moves[shownPly-1].Move)
		lastText = s.moves[shownPly-1].Move
	}

	bottom := rules.Side0
	if side == rules.Side1 {
		bottom = rules.Side1
	}
	square := v.BoardView == "square"
	title := gameTitle(ctx, eng, g)
	p := views.GamePage{
		Page:     gamePageOf(c, title),
		Badge:    c.Get("badge") == true,
		ID:       g.ID,
		URL:      gameURL,
		Heading:  title,
		Bottom:   bottom,
		Finished: g.Finished(),
		Ply:      g.Ply,
		Seq:      s.seq,
		Log:      log,
		LogWhole: wholeLog,
		LogHref:  gameURL + "?ply=",
		Message:  message,
		View:     shown.View(seer),
		Play: views.Play{
			GameURL: gameURL, Ply: g.Ply, TakenBack: g.TakenBack, CSRF: pageOf(c, "").CSRF, Viewer: side, Square: square,
			LastMove: lastClicks, LastMoveText: lastText, CardsLast: cardsLastAction(g, s.moves[:shownPly]),
		},
	}
	if side.Valid() && !g.Finished() && side != g.ToMove && review < 0 {
		plan := &views.PlanPanel{Action: gameURL + "/plan", CSRF: pageOf(c, "").CSRF, Ply: g.Ply}
		if rules.HidesInformation(eng) {
			plan.Unavailable = tr(c, "Conditional moves are not offered in Trench, the card game: your opponent's cards are hidden, so no reply can be planned in advance.")
		} else if pl, ok, err := h.db.PlanOf(c.Request().Context(), g.ID, v.ID); err != nil {
			return views.GamePage{}, err
		} else if ok && pl.BasePly == g.Ply {
			var lines []string
			for _, l := range pl.Lines {
				lines = append(lines, strings.Join(l, " "))
			}
			plan.Text, plan.Lines = strings.Join(lines, "\n"), len(lines)
		}
		if refused, ok := c.Get(refusedPlanKey).(string); ok {
			// The plan just refused stays in the form, to be mended.
			plan.Text, plan.Open = refused, true
		}
		p.Plan = plan
	}
	if side.Valid() && !isHTMX(c) {
		n, err := h.db.NoteOf(c.Request().Context(), g.ID, v.ID)
		if err != nil {
			return views.GamePage{}, err
		}
		if !v.ConfirmMoves && !g.Finished() {
			first, err := h.db.FirstGame(c.Request().Context(), v.ID)
			if err != nil {
				return views.GamePage{}, err
			}
			p.OfferConfirm = first == g.ID
		}
		p.Notes = &views.NotesPanel{Action: gameURL + "/notes", CSRF: pageOf(c, "").CSRF, Text: n.Body,
			MaxChars: db.MaxNoteChars, Saved: noteTime(ctx, n.Updated)}
	}
	if t := s.match.Tournament; t.ID != 0 {
		p.Tournament = tr(c, "%s · round %d", t.Name, t.Round)
		p.TournamentHref = fmt.Sprintf("/tournaments/%d", t.ID)
	}
	res := shown.Result()
	for i := range p.Players {
		sd := rules.Side(i)
		score := res.Score[i]
		if g.Finished() && shownPly == g.Ply && rules.Scored(eng, g.Reason) {
			score = g.Score[i]
		}
		p.Players[i] = views.Player{Name: g.Side[i].Name, SideName: names[i], Score: scoreText(ctx, eng, score),
			ToMove: !g.Finished() && g.ToMove == sd, IsViewer: side == sd}
	}
	now := h.now()
	p.TimeControl = clockWords(ctx, g.Clock)
	switch {
	case g.Finished():
		p.Status = resultText(ctx, eng, g, side, "")
	case side.Valid() && g.ToMove == side:
		p.YourTurn = true
		p.Status = tr(c, "Your move")
	default:
		p.Status = tr(c, "%s (%s) to move", g.Side[g.ToMove].Name, names[g.ToMove])
	}
	if !g.Finished() {
		if err := h.clock(ctx, &p, g, names, side, now); err != nil {
			return views.GamePage{}, err
		}
	}
	if review >= 0 {
		p.Review = reviewLinks(eng, g, review, views.HasImage(p.View))
	}
	if !rules.HidesInformation(eng) {
		p.AnalysisBoardHref = gameURL + "/analysis"
		if review >= 0 && review < g.Ply {
			p.AnalysisBoardHref += "?ply=" + strconv.Itoa(review)
		}
	}
	if !g.Finished() {
		if side.Valid() {
			p.CanResign = true
			p.ConfirmResign = c.QueryParam("confirm") == "resign"
			p.Armistice = views.ArmisticeState{Available: eng.HasArmistice(),
				OfferedByMe: g.ArmisticeBy == side, OfferedToMe: g.ArmisticeBy == side.Other(),
				DeclinedMine: g.ArmisticeDeclined == side, Terms: tr(c, rules.ArmisticeText(eng))}
			if review < 0 {
				if p.Takeback, err = takebackState(ctx, eng, g, s.moves, side); err != nil {
					return views.GamePage{}, err
				}
			}
		}
		if review < 0 {
			p.PollURL = gameURL + "/live?v=" + url.QueryEscape(version(g))
			if side.Valid() && g.ToMove == side {
				moves := h.moves.of(g, st, side)
				legal := moves.legal
				if pending := c.QueryParam("pending"); pending != "" && slices.Contains(legal, pending) {
					// A move made with Confirm moves on: shown on the board,
					// sent only by the form (against this ply).
					after, err := st.Apply(pending)
					if err != nil {
						return views.GamePage{}, err
					}
					p.View, p.Play.LastMove, p.Play.Before = after.View(side), st.Clicks(pending), st.View(side)
					p.Pending = &views.PendingMove{Move: pending,
						Text: logText(ctx, st.Describe(pending, side)), CancelHref: gameURL}
				} else {
					if _, asked := views.ParseQuestion(ctx, pending); pending != "" && p.Message == "" && !asked {
						p.Message = tr(c, "That move is not possible in this position; nothing was sent.")
					}
					p.Play.CanMove = len(legal) > 0
					p.Play.Legal = legal
					p.Play.Next, p.Play.Selected = nextStepsOf(moves.clicks, legal, selection(c), func(sel []string) string { return selectionURL(gameURL, sel) })
					if len(p.Play.Selected) > 0 {
						p.Play.BackHref = selectionURL(gameURL, p.Play.Selected[:len(p.Play.Selected)-1])
					}
					if v.ConfirmMoves {
						pendingSteps(p.Play.Next, gameURL)
						p.Play.Confirm = true
					}
				}
			}
		}
	}
	if views.HasDiamond(p.View) {
		other, label := "square", tr(c, "Show the square view")
		if square {
			other, label = "diamond", tr(c, "Show the diamond view")
		}
		p.BoardToggle, p.BoardToggleView, p.BoardToggleLabel = gameURL+"/view", other, label
		if review >= 0 {
			p.BoardToggle += "?ply=" + strconv.Itoa(review)
		}
	}
	p.Match = matchPanel(ctx, eng, s.match, s.matchGs, g.ID)
	if g.Finished() {
		for _, mg := range s.matchGs {
			if mg.Number == g.Number+1 {
				p.NextGameHref = fmt.Sprintf("/games/%d", mg.ID)
			}
		}
	}
	// Not the viewer's turn here (they have just moved, or the game is
	// over): offer the next game that waits for them.
	if side.Valid() && !p.YourTurn && review < 0 {
		next, err := h.db.NextWaiting(c.Request().Context(), v.ID, g.ID)
		if err != nil {
			return views.GamePage{}, err
		}
		if next != 0 {
			p.NextWaitingHref = fmt.Sprintf("/games/%d", next)
		}
	}
	if err := h.computerPage(c, s, &p, review); err != nil {
		return views.GamePage{}, err
	}
	if err := h.ratings(c, s, &p); err != nil {
		return views.GamePage{}, err
	}
	if review < 0 {
		p.LiveURL = gameURL + "/events?v=" + url.QueryEscape(version(g))
		if !isHTMX(c) {
			p.LiveTab = newTab()
			p.LiveURL += "&tab=" + p.LiveTab
		}
	}
	// The messages and the rematch offer: on a full page, with the answer
	// to a message (alone or with a move), and with a move shown pending,
	// whose message field is the panel's (the one that goes with the
	// move, whatever the panel showed before); otherwise the panel's own
	// poll brings what is new.
	if social, _ := c.Get("social").(bool); social || !isHTMX(c) || p.Pending != nil {
		if err := h.social(c, s, &p); err != nil {
			return views.GamePage{}, err
		}
		if p.LiveURL != "" && p.Social.Player {
			p.LiveURL += "&s=" + url.QueryEscape(p.Social.Version)
		}
	}
	h.answer(c, &p)
	return p, nil
}

// answer answers the question typed in the move box (?ask=, or ?pending=
// for a player who confirms moves): the page says the answer in its live
// region and under the board. The game is not changed.
func (h *gameHandler) answer(c echo.Context, p *views.GamePage) {
	text, asked := c.QueryParam("ask"), true
	if text == "" && p.Pending == nil {
		text, asked = c.QueryParam("pending"), false
	}
	if text == "" || len(text) > 200 {
		return
	}
	ctx := c.Request().Context()
	q, ok := views.ParseQuestion(ctx, text)
	switch {
	case ok:
		p.Play.Answer = views.Answer(ctx, q, *p)
	case asked && p.Message == "":
		p.Message = tr(c, "That is neither a move nor a question the move box knows; type help for the questions.|ask")
	}
}

// clock fills in the clock of an active game: the time left to move (in
// words), the banks of a time bank, and who is on vacation.
func (h *gameHandler) clock(ctx context.Context, p *views.GamePage, g db.Game, names [2]string, viewer rules.Side, now time.Time) error {
	cs, err := h.db.Clock(ctx, g, now)
	if err != nil {
		return err
	}
	mover, you := g.Side[g.ToMove], viewer == g.ToMove
	switch {
	case cs.Stopped:
		p.Clock = views.T(ctx, "The clock is stopped: %s.", vacationClock(ctx, mover.Name, you, cs.Vacation[g.ToMove], cs.Left))
	case cs.Left <= 0:
		if p.Clock, err = timeUp(ctx, h.db, mover, you, cs.Left, now); err != nil {
			return err
		}
	case you:
		p.Clock = views.T(ctx, "You have %s to move.", views.Duration(ctx, cs.Left))
	default:
		p.Clock = views.TN(ctx, "%s left to move.", views.LeadingCount(cs.Left), views.Duration(ctx, cs.Left))
	}
	if g.Clock.Kind == "bank" {
		p.Banks = views.T(ctx, "Time banks: %s %s · %s %s", names[0], span(ctx, cs.Banks[0]), names[1], span(ctx, cs.Banks[1]))
	}
	for i, v := range cs.Vacation {
		if !v.On {
			continue
		}
		since, back := dayTime(ctx, v.Since), dayTime(ctx, v.EndsBy)
		var notice string
		switch you := rules.Side(i) == viewer; {
		case you && v.Auto:
			notice = views.T(ctx, "You are on vacation since %s (started when the time to move ran out), back by %s at the latest: your clocks are stopped.", since, back)
		case you:
			notice = views.T(ctx, "You are on vacation since %s, back by %s at the latest: your clocks are stopped.", since, back)
		case v.Auto:
			notice = views.T(ctx, "%s is on vacation since %s (started when the time to move ran out), back by %s at the latest: their clocks are stopped.", g.Side[i].Name, since, back)
		default:
			notice = views.T(ctx, "%s is on vacation since %s, back by %s at the latest: their clocks are stopped.", g.Side[i].Name, since, back)
		}
		p.Notices = append(p.Notices, notice)
	}
	return nil
}

// timeUp says what happens once mover's time to move ran out (left ≤ 0,
// before the background job acted on it): their vacation allowance is
// used first, when some is left past the moment the time ran out, and
// then the game is lost on time. The game page and the lists of games
// say the same.
func timeUp(ctx context.Context, store *db.DB, mover db.Player, you bool, left time.Duration, now time.Time) (string, error) {
	st, err := store.Vacation(ctx, mover.ID, now)
	if err != nil {
		return "", err
	}
	if rest := st.Left + left; rest > 0 {
		if you {
			return views.T(ctx, "Your time to move has run out: your vacation allowance is being used (%s left this year); move before it is used up or the game is lost on time.", span(ctx, rest)), nil
		}
		return views.T(ctx, "The time to move has run out: %s's vacation allowance is being used (%s left this year) before the game is lost on time.", mover.Name, span(ctx, rest)), nil
	}
	if you {
		return views.T(ctx, "Your time to move has run out: the game will be lost on time."), nil
	}
	return views.T(ctx, "%s's time to move has run out: the game will be lost on time.", mover.Name), nil
}

// gamePageOf is the page model of a game page: a full page, or a
// fragment that updates the navigation bar's count (after a move, or when
// the opponent moved), counts the games waiting; a click that selects a
// unit does not.
func gamePageOf(c echo.Context, title string) views.Page {
	if badge, _ := c.Get("badge").(bool); badge || !isHTMX(c) {
		return pageOf(c, title)
	}
	return basePage(c, title)
}

// reviewPly returns the ply to review: ?ply=N (0 ≤ N ≤ the game's ply;
// the current ply of a game in progress is no review), the end of a
// finished game, or -1 for no review. Errors: KindNotFound for a ply the
// game does not have.
func reviewPly(c echo.Context, g db.Game) (int, error) {
	q := c.QueryParam("ply")
	if q == "" {
		if g.Finished() {
			return g.Ply, nil
		}
		return -1, nil
	}
	n, err := strconv.Atoi(q)
	if err != nil || n < 0 || n > g.Ply {
		return 0, db.Errorf(db.KindNotFound, "This game has no ply %q: it has plies 0 to %d.", q, g.Ply)
	}
	if n == g.Ply && !g.Finished() {
		return -1, nil
	}
	return n, nil
}

// reviewLinks are the review controls at ply n of g.
func reviewLinks(eng rules.Engine, g db.Game, n int, image bool) *views.Review {
	base := fmt.Sprintf("/games/%d", g.ID)
	at := func(k int) string { return base + "?ply=" + strconv.Itoa(k) }
	r := &views.Review{Ply: n, Of: g.Ply}
	if n > 0 {
		r.First, r.Prev = at(0), at(n-1)
	}
	if n < g.Ply {
		r.Next, r.Last = at(n+1), at(g.Ply)
		if !g.Finished() {
			r.Last, r.LiveHref = base, base
			if n+1 == g.Ply {
				r.Next = base
			}
		}
	}
	if g.Finished() || !rules.HidesInformation(eng) {
		r.RecordHref = base + "/record"
	}
	if image {
		r.ImageHref = base + "/position.svg?ply=" + strconv.Itoa(n)
	}
	return r
}

// stateAt replays g from its start to ply n.
func stateAt(eng rules.Engine, g db.Game, moves []db.Move, n int) (rules.State, error) {
	st, err := eng.Decode(g.Variant, g.StartState)
	if err != nil {
		return nil, fmt.Errorf("game %d: start state: %w", g.ID, err)
	}
	for _, m := range moves[:n] {
		if st, err = st.Apply(m.Move); err != nil {
			return nil, fmt.Errorf("game %d: replay ply %d: %w", g.ID, m.Ply, err)
		}
	}
	return st, nil
}

// moveLog describes the moves after ply from as seer may read them, each
// in the state it was made in, in the language of ctx. The game is
// replayed from the point replay keeps for it (nil: from its start), and
// the state before its last move is kept for the next answer.
func moveLog(ctx context.Context, replay *replayCache, eng rules.Engine, g db.Game, moves []db.Move, from int, seer rules.Side) ([]views.LogLine, error) {
	if from >= len(moves) {
		return nil, nil
	}
	cur, err := replay.stateAfter(eng, g, moves, from)
	if err != nil {
		return nil, err
	}
	log := make([]views.LogLine, 0, len(moves)-from)
	dark := rules.DarkSide(eng)
	for i := from; i < len(moves); i++ {
		m := moves[i]
		log = append(log, views.LogLine{Ply: m.Ply, Side: m.Side, Dark: m.Side == dark, Text: logText(ctx, cur.Describe(m.Move, seer))})
		if i < len(moves)-1 {
			if cur, err = cur.Apply(m.Move); err != nil {
				return nil, fmt.Errorf("game %d: replay ply %d: %w", g.ID, m.Ply, err)
			}
		}
	}
	replay.keep(g, moves[:len(moves)-1], cur)
	return log, nil
}

// maxLoggedGames bounds the move lists logCache keeps (one per game,
// viewer's side and language).
const maxLoggedGames = 1024

// logCache keeps the whole move lists last made, each for one game, one
// side's view (a move may read differently to each side) and one
// language: every full game page shows the whole list, and describing
// every move again each time (replaying the game from its start) costs
// more than the rest of the page. A kept list is used only for a
// game whose first moves are still those it was made from (a takeback
// changes them), and is extended by the moves played since. Lines kept
// are shared: their readers must not change them. The zero value is
// ready to use.
type logCache struct {
	kept fifoCache[logKey, loggedMoves]
}

type logKey struct {
	game int64
	seer rules.Side
	lang string
}

// loggedMoves is a game's move list as made from its first moves.
type loggedMoves struct {
	moves []string // the moves, as played
	lines []views.LogLine
}

// whole returns all of moveLog's lines of g (from its first move),
// shared with other readers.
func (l *logCache) whole(ctx context.Context, replay *replayCache, eng rules.Engine, g db.Game, moves []db.Move, seer rules.Side) ([]views.LogLine, error) {
	k := logKey{g.ID, seer, views.Lang(ctx)}
	kept, ok := l.kept.get(k)
	if !ok || len(kept.moves) > len(moves) || !playedFirst(moves, kept.moves) {
		kept = loggedMoves{}
	}
	n := len(kept.lines)
	if n == len(moves) {
		return kept.lines, nil
	}
	more, err := moveLog(ctx, replay, eng, g, moves, n, seer)
	if err != nil {
		return nil, err
	}
	next := loggedMoves{moves: slices.Clip(kept.moves), lines: append(slices.Clip(kept.lines), more...)}
	for _, m := range moves[n:] {
		next.moves = append(next.moves, m.Move)
	}
	next.lines = slices.Clip(next.lines)
	l.kept.put(k, next, maxLoggedGames)
	return next.lines, nil
}

// maxReplayedGames bounds the games whose replay point replayCache keeps.
const maxReplayedGames = 256

// replayCache keeps, for each game last shown, one state partway through
// its moves (the state before its last move when it was shown): the move
// list of an answer describes the moves after the ply the page showed,
// each in the state it was made in, and replaying a game from its start
// for every answer costs more than the rest of the page. A kept state is
// used only for a game whose first moves are still those it was reached
// by (a takeback changes them). States never change (rules.State), so
// one is shared between requests. The zero value is ready to use; nil
// keeps nothing.
type replayCache struct {
	kept fifoCache[int64, replayPoint]
}

// replayPoint is a game's state after its first moves.
type replayPoint struct {
	moves []string // the moves played from the start
	state rules.State
}

// stateAfter returns the state of g after its first n moves, replayed
// from the point kept for g when it is on the way, else from the start.
// Errors: a stored game that does not replay.
func (r *replayCache) stateAfter(eng rules.Engine, g db.Game, moves []db.Move, n int) (rules.State, error) {
	var st rules.State
	k := 0
	if r != nil {
		if p, ok := r.kept.get(g.ID); ok && len(p.moves) <= n && playedFirst(moves, p.moves) {
			st, k = p.state, len(p.moves)
		}
	}
	if st == nil {
		var err error
		if st, err = eng.Decode(g.Variant, g.StartState); err != nil {
			return nil, fmt.Errorf("game %d: start state: %w", g.ID, err)
		}
	}
	for _, m := range moves[k:n] {
		var err error
		if st, err = st.Apply(m.Move); err != nil {
			return nil, fmt.Errorf("game %d: replay ply %d: %w", g.ID, m.Ply, err)
		}
	}
	return st, nil
}

// playedFirst reports whether moves begin with first.
func playedFirst(moves []db.Move, first []string) bool {
	if len(first) > len(moves) {
		return false
	}
	for i, m := range first {
		if moves[i].Move != m {
			return false
		}
	}
	return true
}

// keep remembers st as g's state after played.
func (r *replayCache) keep(g db.Game, played []db.Move, st rules.State) {
	if r == nil {
		return
	}
	if old, ok := r.kept.get(g.ID); ok && len(old.moves) == len(played) && playedFirst(played, old.moves) {
		return // kept already
	}
	p := replayPoint{moves: make([]string, len(played)), state: st}
	for i, m := range played {
		p.moves[i] = m.Move
	}
	r.kept.put(g.ID, p, maxReplayedGames)
}

// isMatch reports whether g's match was made as a match of several games.
func isMatch(g db.Game) bool {
	e, err := g.Engine()
	return err == nil && variantIsMatch(e, g.MatchVariant)
}

// variantIsMatch reports whether variant key of e is a match of several
// games.
func variantIsMatch(e rules.Engine, key string) bool {
	v, _ := rules.VariantOf(e, key)
	return v.Match
}

// matchPanel is the match's games and totals, or nil for a match of one
// game that is not over. The totals are those of the games before a
// decider (spec "Official match": game 1 + game 2); the decider stands on
// its own line.
func matchPanel(ctx context.Context, eng rules.Engine, m db.Match, games []db.Game, current int64) *views.MatchPanel {
	if len(games) <= 1 && !variantIsMatch(eng, m.Variant) {
		return nil
	}
	panel := &views.MatchPanel{Players: [2]string{m.Player[0].Name, m.Player[1].Name}}
	var totals, decider [2]int
	for _, g := range games {
		// Scores per match player: match player 0 plays side 1 when swapped.
		s := g.Score
		if g.Swapped {
			s[0], s[1] = s[1], s[0]
		}
		mg := views.MatchGame{Label: gameLabel(ctx, g), Href: fmt.Sprintf("/games/%d", g.ID), Current: g.ID == current,
			Score: [2]string{scoreText(ctx, eng, s[0]), scoreText(ctx, eng, s[1])}}
		if g.Finished() {
			mg.Result = resultText(ctx, eng, g, rules.NoSide, "")
		} else {
			mg.Result = views.T(ctx, "in progress")
		}
		if g.Variant == "decider" {
			panel.Decider, decider = &mg, s
			continue
		}
		panel.Games = append(panel.Games, mg)
		totals[0] += s[0]
		totals[1] += s[1]
	}
	panel.Totals = [2]string{scoreText(ctx, eng, totals[0]), scoreText(ctx, eng, totals[1])}
	if m.Status == "finished" {
		switch w := m.Winner; {
		case w != 0 && w != 1:
			panel.Result = views.T(ctx, "The match is drawn %d–%d.", totals[0], totals[1])
			if panel.Decider != nil {
				panel.Result = views.T(ctx, "The match is drawn: totals %d–%d, decider %d–%d.", totals[0], totals[1], decider[0], decider[1])
			}
		case panel.Decider != nil:
			panel.Result = views.T(ctx, "%s wins the match in the decider, %d–%d (totals %d–%d).",
				m.Player[w].Name, decider[w], decider[1-w], totals[w], totals[1-w])
		default:
			panel.Result = views.T(ctx, "%s wins the match %d–%d.", m.Player[w].Name, totals[w], totals[1-w])
		}
	}
	return panel
}

// version identifies what an open page shows of a game: a change of it is
// what the live poll waits for.
func version(g db.Game) string {
	b := make([]byte, 0, 32)
	b = strconv.AppendInt(b, int64(g.Ply), 10)
	b = append(b, '.')
	b = append(b, g.Status...)
	for _, n := range [...]int{int(g.ArmisticeBy), int(g.TakebackBy), int(g.TakebackDeclined)} {
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return string(b)
}

// takebackState is what player side of active game g may do about a
// takeback: ask, answer the opponent's request (its move in words), or
// read why the game has none (the card game). Errors: a stored game that
// does not replay.
func takebackState(ctx context.Context, eng rules.Engine, g db.Game, moves []db.Move, side rules.Side) (views.TakebackState, error) {
	if rules.HidesInformation(eng) {
		// db.TakebackRefusal's reason, in the language of ctx.
		return views.TakebackState{Unavailable: views.T(ctx, "Takebacks are not offered in Trench, the card game: a played card has been seen.")}, nil
	}
	if !g.Takebacks {
		return views.TakebackState{}, nil
	}
	t := views.TakebackState{CanAsk: g.CanAskTakeback(side), AskedByMe: g.TakebackBy == side,
		AskedToMe: g.TakebackBy == side.Other(), DeclinedMine: g.TakebackDeclined == g.Ply && g.ToMove != side}
	if t.AskedToMe && g.Ply > 0 && len(moves) == g.Ply {
		before, err := stateAt(eng, g, moves, g.Ply-1)
		if err != nil {
			return t, err
		}
		t.LastMove = logText(ctx, before.Describe(moves[g.Ply-1].Move, side))
	}
	return t, nil
}

// takeback asks to take back the viewer's last move, or accepts or
// declines the opponent's request (/takeback/ask, /accept, /decline).
func (h *gameHandler) takeback(c echo.Context) error {
	action := c.Param("action")
	return h.act(c, func(ctx context.Context, id, uid int64, ply int) error {
		var err error
		switch action {
		case "ask":
			_, err = h.db.AskTakeback(ctx, id, uid, ply, h.now())
		case "accept", "decline":
			_, err = h.db.AnswerTakeback(ctx, id, uid, ply, action == "accept", h.now())
		default:
			err = db.Errorf(db.KindNotFound, "There is no such page.")
		}
		return err
	})
}

// show renders the game page (a fragment for htmx). ?sel= carries the
// clicks of a move being made, ?view= switches the board view and
// remembers it, ?confirm=resign asks before resigning.
func (h *gameHandler) show(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	if view := c.QueryParam("view"); view != "" {
		// The address may show another view; only the form below stores it.
		if view != "diamond" && view != "square" {
			return db.Errorf(db.KindInvalid, "Unknown board view %q.", view)
		}
		v := currentViewer(c)
		v.BoardView = view
		c.Set("viewer", v)
	}
	s, err := h.load(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return h.respond(c, http.StatusOK, s, "")
}

// setView stores the board view the viewer chose (in the account, or in
// a visitor's cookie) and shows the game with it: a redirect to the game
// page (at the reviewed ply, if any), or for htmx the fresh #game.
func (h *gameHandler) setView(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	view := c.FormValue("view")
	if view != "diamond" && view != "square" {
		return db.Errorf(db.KindInvalid, "Unknown board view %q.", view)
	}
	ctx := c.Request().Context()
	s, err := h.load(ctx, id)
	if err != nil {
		return err
	}
	v := currentViewer(c)
	if v.ID != 0 {
		err = h.db.SetBoardView(ctx, v.ID, view)
	} else {
		err = h.sessions.setBoardView(c, view)
	}
	if err != nil {
		return err
	}
	next := fmt.Sprintf("/games/%d", id)
	if ply := c.QueryParam("ply"); ply != "" {
		if _, err := strconv.Atoi(ply); err == nil {
			next += "?ply=" + ply
		}
	}
	if !isHTMX(c) {
		return c.Redirect(http.StatusSeeOther, next)
	}
	v.BoardView = view
	c.Set("viewer", v)
	c.Response().Header().Set("HX-Push-Url", next)
	return h.respond(c, http.StatusOK, s, "")
}

// setConfirm stores the viewer's "Confirm moves" choice (the confirm
// checkbox: "on" or absent) and goes back to the settings page, or to the
// game page ?next= names (the offer on a first game).
func (h *gameHandler) setConfirm(c echo.Context) error {
	on := c.FormValue("confirm") == "on"
	if err := h.db.SetConfirmMoves(c.Request().Context(), currentViewer(c).ID, on); err != nil {
		return err
	}
	if next := c.FormValue("next"); strings.HasPrefix(next, "/games/") {
		if _, err := strconv.ParseInt(strings.TrimPrefix(next, "/games/"), 10, 64); err == nil {
			return c.Redirect(http.StatusSeeOther, next)
		}
	}
	return c.Redirect(http.StatusSeeOther, "/settings?moves=1#playing")
}

func (h *gameHandler) respond(c echo.Context, status int, s gameScreen, message string) error {
	p, err := h.page(c, s, message)
	if err != nil {
		return err
	}
	// Only the component sent is made: each holds its own copy of p.
	if isHTMX(c) {
		return render(c, status, views.GameSwap(p), nil)
	}
	return render(c, status, views.GameView(p), nil)
}

// live answers the poll of an open game page: 204 while nothing changed
// since version ?v=, the fresh #game fragment otherwise.
func (h *gameHandler) live(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	g, err := h.db.Game(c.Request().Context(), id)
	if err != nil {
		return err
	}
	if c.QueryParam("v") == version(g) {
		return c.NoContent(http.StatusNoContent)
	}
	s, err := h.load(c.Request().Context(), id)
	if err != nil {
		return err
	}
	c.Response().Header().Set("HX-Push-Url", "false")
	c.Set("badge", true) // the opponent moved: the count may have changed
	return h.respond(c, http.StatusOK, s, "")
}

// formPly reads the ply a form was made against. Errors: KindInvalid.
func formPly(c echo.Context) (int, error) {
	ply, err := strconv.Atoi(c.FormValue("ply"))
	if err != nil || ply < 0 {
		return 0, db.Errorf(db.KindInvalid, "The form did not say which position it was made against (ply).")
	}
	return ply, nil
}

// act runs one change of a game (a move, a resignation, an armistice step)
// and answers: after success a redirect to the game (htmx: the fresh
// fragment); after a refused change (stale ply, not your turn, illegal
// move) the current game with the reason and a 4xx status, nothing
// changed.
func (h *gameHandler) act(c echo.Context, do func(ctx context.Context, id, uid int64, ply int) error) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	// The page that sent the request gets the change in the answer: its
	// stream is not sent it as well.
	shown := ""
	sub := h.hub.hold(c, id)
	defer func() { h.hub.release(sub, shown) }()
	answer := func(status int, s gameScreen, msg string) error {
		if err := h.respond(c, status, s, msg); err != nil {
			return err
		}
		shown = version(s.game)
		return nil
	}
	ply, err := formPly(c)
	if err == nil {
		err = do(c.Request().Context(), id, currentViewer(c).ID, ply)
	}
	if err != nil {
		status, msg := statusOf(c, err)
		if status >= 500 || status == http.StatusNotFound {
			return err
		}
		s, lerr := h.load(c.Request().Context(), id)
		if lerr != nil {
			return lerr
		}
		// The address stays the game's, not the form's: a reload shows
		// the game again.
		c.Response().Header().Set("HX-Push-Url", fmt.Sprintf("/games/%d", id))
		return answer(status, s, msg)
	}
	gameURL := fmt.Sprintf("/games/%d", id)
	if !isHTMX(c) {
		g, err := h.db.Game(c.Request().Context(), id)
		if err != nil {
			return err
		}
		h.wakeFor(g)
		return c.Redirect(http.StatusSeeOther, gameURL)
	}
	s, err := h.load(c.Request().Context(), id)
	if err != nil {
		return err
	}
	h.wakeFor(s.game)
	// The move changed whose turn it is: the answer updates the count.
	c.Set("badge", true)
	c.Response().Header().Set("HX-Push-Url", gameURL)
	return answer(http.StatusOK, s, "")
}

// wakeFor wakes the computer players when one of them plays g: a change
// of a game between people gives them nothing to do.
func (h *gameHandler) wakeFor(g db.Game) {
	for _, p := range g.Side {
		if _, ok := h.computers[p.ID]; ok {
			h.wake()
			return
		}
	}
}

func (h *gameHandler) move(c echo.Context) error {
	move := strings.TrimSpace(c.FormValue("move"))
	if _, ok := views.ParseQuestion(c.Request().Context(), move); ok {
		// A question about the board: answered on the game page, the game
		// untouched.
		id, err := paramID(c)
		if err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/games/%d?ask=%s", id, url.QueryEscape(move)))
	}
	if strings.TrimSpace(c.FormValue("message")) != "" {
		c.Set("social", true) // the answer shows the message sent with the move
	}
	return h.act(c, func(ctx context.Context, id, uid int64, ply int) error {
		if move == "" || len(move) > 64 {
			return db.Errorf(db.KindInvalid, "No move was given.")
		}
		play := db.Play{GameID: id, UserID: uid, Ply: ply, Move: move, Message: c.FormValue("message")}
		if raw := c.FormValue("taken_back"); raw != "" {
			n, err := strconv.Atoi(raw)
			if err != nil || n < 0 {
				return db.Errorf(db.KindInvalid, "The form did not say which position it was made against (taken back).")
			}
			play.TakenBack = &n
		}
		_, err := h.db.PlayMove(ctx, play, h.now())
		return err
	})
}

func (h *gameHandler) resign(c echo.Context) error {
	return h.act(c, func(ctx context.Context, id, uid int64, ply int) error {
		if c.FormValue("confirm") != "yes" {
			return db.Errorf(db.KindInvalid, "Confirm the resignation to resign.")
		}
		_, err := h.db.Resign(ctx, id, uid, ply, h.now())
		return err
	})
}

// plan saves the viewer's conditional moves (an empty plan clears them):
// the typed plan (field plan) replaces the one saved, one line from the
// analysis board (field add: its moves separated by spaces) joins it.
// Errors: the game page with the reason (the first illegal move) and a
// 400; a stale ply a 409.
func (h *gameHandler) plan(c echo.Context) error {
	text, add := c.FormValue("plan"), c.FormValue("add")
	return h.act(c, func(ctx context.Context, id, uid int64, ply int) error {
		if len(text) > 4000 || len(add) > 4000 {
			return db.Errorf(db.KindInvalid, "The plan is too long.")
		}
		var err error
		if add != "" {
			err = h.db.AddPlanLine(ctx, id, uid, ply, strings.Fields(add), h.now())
		} else {
			err = h.db.SetPlan(ctx, id, uid, ply, db.ParsePlan(text), h.now())
		}
		if db.KindOf(err) == db.KindInvalid && add == "" {
			c.Set(refusedPlanKey, text)
		}
		return err
	})
}

// refusedPlanKey holds, in a request's context, the text of a plan the
// request submitted and the db refused: the answer shows it again.
const refusedPlanKey = "refused-plan"

// notes saves the viewer's private notes on a game of their own: a
// redirect back to the game (to the notes), or for htmx the line saying
// when they were saved. Errors: 403 for anyone but the game's players, 400
// for notes too long.
func (h *gameHandler) notes(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	n, err := h.db.SetNote(c.Request().Context(), id, currentViewer(c).ID, c.FormValue("notes"), h.now())
	if err != nil {
		return err
	}
	if !isHTMX(c) {
		return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/games/%d#notes", id))
	}
	return render(c, http.StatusOK, views.NotesSaved(noteTime(c.Request().Context(), n.Updated)), nil)
}

// noteTime is when notes were saved, in words in the language of ctx ("3
// March 14:05"; "" for never).
func noteTime(ctx context.Context, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return dayTime(ctx, t)
}

func (h *gameHandler) armistice(c echo.Context) error {
	action := c.Param("action")
	return h.act(c, func(ctx context.Context, id, uid int64, ply int) error {
		var err error
		switch action {
		case "offer":
			_, err = h.db.OfferArmistice(ctx, id, uid, ply, h.now())
		case "accept", "decline":
			_, err = h.db.AnswerArmistice(ctx, id, uid, ply, action == "accept", h.now())
		default:
			err = db.Errorf(db.KindNotFound, "There is no such page.")
		}
		return err
	})
}

// match sends the browser to the match's latest game.
func (h *gameHandler) match(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	games, err := h.db.MatchGames(c.Request().Context(), id)
	if err != nil {
		return err
	}
	if len(games) == 0 {
		return db.Errorf(db.KindNotFound, "No such match.")
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/games/%d", games[len(games)-1].ID))
}

// cardsLastAction is the last action (not a refill) among moves of a card
// game, without its hidden part; nil for the other games and before the
// first action.
func cardsLastAction(g db.Game, moves []db.Move) *views.CardsAction {
	if g.Game != "cards" {
		return nil
	}
	place := func(p cards.Place) string {
		switch p.Zone {
		case cards.Front:
			return "F" + strconv.Itoa(p.N)
		case cards.Back:
			return "B" + strconv.Itoa(p.N)
		}
		return ""
	}
	for i := len(moves) - 1; i >= 0; i-- {
		m, err := cards.ParseMove(moves[i].Move)
		if err != nil || m.Kind == cards.Refill {
			continue
		}
		return &views.CardsAction{Side: moves[i].Side, Kind: m.Kind, A: place(m.A), B: place(m.B)}
	}
	return nil
}
