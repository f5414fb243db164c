package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/views"
)

// The analysis board's address holds all it shows, so that a line can be
// shared and every step works as a plain link:
//
//	/games/N/analysis?ply=K&line=m1,m2,m3&at=2&alt=m1,x2&sel=d4
//
// ply is the game's position the board starts from (default: the current
// one); line the moves tried from there, in the game's notation, separated
// by commas; at how many of them the board shows (default: all); each alt
// another line of the variation tree, from the same start; sel the clicks
// of a move being made. The tree is the set of lines: the line and the
// alts, a line that begins another left out. A move that would make the
// tree hold more than maxTreeMoves moves drops the variations furthest
// from the new line.

// Bounds of an analysis board's address.
const (
	maxLineMoves = 100 // moves in one line
	maxLines     = 12  // lines in the tree, the line shown included
	maxTreeMoves = 200 // moves of all the lines together
)

// boardEvalNodes is the node budget of the computer's evaluation on the
// analysis board of an ended game: measured at 0.08 s (TRENCH) and 0.15 s
// (Trenches) on average in a middle game on a busy two-core machine.
const boardEvalNodes = 20_000

// boardEvalCap bounds the time of one evaluation on the analysis board: a
// page waits for it, so a very slow machine shows a shallower one.
const boardEvalCap = 8 * time.Second

// analysisBoardHandler shows the analysis board.
type analysisBoardHandler struct {
	db *db.DB
	// matchScore is the match score the computer plays a game with.
	matchScore func(ctx context.Context, g db.Game) ([2]int, error)
	// evals holds one token per evaluation that may run at once.
	evals chan struct{}

	// mu guards the evaluations made, by game, ply and position (the
	// oldest forgotten past evalCacheSize): stepping through a line or
	// selecting a unit searches nothing again.
	mu     sync.Mutex
	cached map[string]db.AnalysisPly
	order  []string
}

// evalCacheSize is how many evaluations the analysis board keeps.
const evalCacheSize = 512

// boardLines is the variation tree of an analysis board: Line is the line
// shown, At how many of its moves are made on the board, Alts the other
// lines, sorted.
type boardLines struct {
	Base int // the game's ply the lines start from
	Line []string
	At   int
	Alts [][]string
}

// lineAndMove reads the line of a lesson's or a puzzle's address (?line=,
// the moves so far) and appends move, one typed or sent ("" for none).
// Errors: KindInvalid for a line too long or a move over 64 bytes.
func lineAndMove(c echo.Context, move string) ([]string, error) {
	line, err := parseMoves(c.QueryParam("line"), tr(c, "line|analysis"))
	if err != nil {
		return nil, err
	}
	if move = strings.TrimSpace(move); move != "" {
		if len(move) > 64 {
			return nil, db.Errorf(db.KindInvalid, "Move %d of the %s is empty or too long.", len(line)+1, tr(c, "line|analysis"))
		}
		line = append(line, move)
	}
	return line, nil
}

// parseMoves reads a line of the address: moves separated by commas.
// Errors: KindInvalid.
func parseMoves(raw, what string) ([]string, error) {
	if raw == "" {
		return nil, nil
	}
	parts := strings.Split(raw, ",")
	if len(parts) > maxLineMoves {
		return nil, db.Errorf(db.KindInvalid, "The %s is too long: at most %d moves.", what, maxLineMoves)
	}
	for i, m := range parts {
		m = strings.TrimSpace(m)
		if m == "" || len(m) > 64 {
			return nil, db.Errorf(db.KindInvalid, "Move %d of the %s is empty or too long.", i+1, what)
		}
		parts[i] = m
	}
	return parts, nil
}

// walk applies line to st and returns each state on the way (states[0] is
// st). Errors: KindInvalid naming the first move that is malformed, not
// legal where it stands, or made after the game is over.
func walk(st rules.State, line []string, what string) ([]rules.State, error) {
	states := make([]rules.State, 0, len(line)+1)
	states = append(states, st)
	for i, m := range line {
		if st.Result().Over {
			return nil, db.Errorf(db.KindInvalid, "Move %d of the %s (%q) comes after the end of the game.", i+1, what, m)
		}
		next, err := st.Apply(m)
		if err != nil {
			return nil, db.Errorf(db.KindInvalid, "Move %d of the %s (%q) is not a legal move there.", i+1, what, m)
		}
		st = next
		states = append(states, st)
	}
	return states, nil
}

// isPrefix reports whether a begins b.
func isPrefix(a, b []string) bool { return len(a) <= len(b) && slices.Equal(a, b[:len(a)]) }

// tidy drops the alternatives that begin (or repeat) another line and
// sorts them.
func (l *boardLines) tidy() {
	var keep [][]string
	for i, a := range l.Alts {
		if isPrefix(a, l.Line) {
			continue
		}
		dup := false
		for j, b := range l.Alts {
			if i != j && isPrefix(a, b) && (len(a) < len(b) || j < i) {
				dup = true
				break
			}
		}
		if !dup {
			keep = append(keep, a)
		}
	}
	slices.SortFunc(keep, slices.Compare[[]string])
	l.Alts = keep
}

// all returns every line of the tree, sorted.
func (l boardLines) all() [][]string {
	out := append([][]string{l.Line}, l.Alts...)
	if len(l.Line) == 0 {
		out = slices.Clone(l.Alts)
	}
	slices.SortFunc(out, slices.Compare[[]string])
	return out
}

// follow is the tree with line shown instead (at its move at), the line
// shown before kept among the others.
func (l boardLines) follow(line []string, at int) boardLines {
	n := boardLines{Base: l.Base, Line: line, At: at}
	for _, o := range l.all() {
		if !slices.Equal(o, line) {
			n.Alts = append(n.Alts, o)
		}
	}
	n.tidy()
	return n
}

// size is the number of moves of all the lines.
func (l boardLines) size() int {
	n := len(l.Line)
	for _, a := range l.Alts {
		n += len(a)
	}
	return n
}

// play is the tree after move m is tried on the position shown: a step
// forward when a line already goes on with it, else a new line (the
// variations furthest from it dropped while the tree would be too big).
func (l boardLines) play(m string) boardLines {
	line := append(slices.Clone(l.Line[:l.At]), m)
	for _, o := range l.all() {
		if isPrefix(line, o) {
			return l.follow(o, len(line))
		}
	}
	n := l.follow(line, len(line))
	for (n.size() > maxTreeMoves || len(n.Alts)+1 > maxLines) && len(n.Alts) > 0 {
		far, common := 0, len(line)+1
		for i, a := range n.Alts {
			k := 0
			for k < len(a) && k < len(line) && a[k] == line[k] {
				k++
			}
			if k <= common {
				far, common = i, k
			}
		}
		n.Alts = slices.Delete(n.Alts, far, far+1)
	}
	return n
}

// sibling is the variation before (dir -1) or after (dir 1) the line
// shown at its last move made: the other lines that branch off there, in
// the order of their moves; ok false when there is none.
func (l boardLines) sibling(dir int) (boardLines, bool) {
	if l.At == 0 {
		return l, false
	}
	k := l.At - 1
	var moves []string
	first := map[string][]string{}
	for _, o := range l.all() {
		if len(o) > k && slices.Equal(o[:k], l.Line[:k]) {
			if _, seen := first[o[k]]; !seen {
				first[o[k]] = o
				moves = append(moves, o[k])
			}
		}
	}
	i := slices.Index(moves, l.Line[k]) + dir
	if i < 0 || i >= len(moves) {
		return l, false
	}
	return l.follow(first[moves[i]], l.At), true
}

// href is the board's address for the tree l with selection sel.
func (l boardLines) href(gameURL string, base bool, sel []string) string {
	var q []string
	esc := func(moves []string) string {
		return strings.ReplaceAll(url.QueryEscape(strings.Join(moves, ",")), "%2C", ",")
	}
	if base {
		q = append(q, "ply="+strconv.Itoa(l.Base))
	}
	if len(l.Line) > 0 {
		q = append(q, "line="+esc(l.Line))
		if l.At != len(l.Line) {
			q = append(q, "at="+strconv.Itoa(l.At))
		}
	}
	for _, a := range l.Alts {
		q = append(q, "alt="+esc(a))
	}
	if len(sel) > 0 {
		q = append(q, "sel="+esc(sel))
	}
	u := gameURL + "/analysis"
	if len(q) > 0 {
		u += "?" + strings.Join(q, "&")
	}
	return u
}

// board shows the analysis board of a game (GET /games/:id/analysis; see
// the address above). Errors: 400 with the reason for a malformed or
// illegal line, 404 for no such game. Nothing of the game changes.
func (h *analysisBoardHandler) board(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	g, err := h.db.Game(ctx, id)
	if err != nil {
		return err
	}
	eng, err := g.Engine()
	if err != nil {
		return err
	}
	gameURL := fmt.Sprintf("/games/%d", g.ID)
	p := views.AnalysisBoard{Page: pageOf(c, tr(c, "Analysis board · %s", gameTitle(ctx, eng, g))), Heading: gameTitle(ctx, eng, g), GameURL: gameURL, BackHref: gameURL}
	if rules.HidesInformation(eng) {
		p.Unavailable = tr(c, "%s has no analysis board: your opponent's cards are hidden, so no position can be set up from what you may see, and no move of theirs tried.", tr(c, eng.Title()))
		return render(c, http.StatusOK, views.AnalysisBoardView(p), views.AnalysisBoardView(p))
	}
	moves, err := h.db.Moves(ctx, g.ID)
	if err != nil {
		return err
	}

	// The start: ?ply=K of the game's record, or its position now.
	l := boardLines{Base: g.Ply}
	q := c.QueryParams()
	hasBase := q.Has("ply")
	if hasBase {
		n, err := strconv.Atoi(q.Get("ply"))
		if err != nil || n < 0 || n > g.Ply {
			return db.Errorf(db.KindInvalid, "This game has no ply %q: it has plies 0 to %d.", q.Get("ply"), g.Ply)
		}
		l.Base = n
		if n < g.Ply || g.Finished() {
			p.BackHref = gameURL + "?ply=" + strconv.Itoa(n)
		}
	}
	base, err := stateAt(eng, g, moves, l.Base)
	if err != nil {
		return err
	}
	lineName := tr(c, "line|analysis")
	if l.Line, err = parseMoves(q.Get("line"), lineName); err != nil {
		return err
	}
	states, err := walk(base, l.Line, lineName)
	if err != nil {
		return err
	}
	l.At = len(l.Line)
	if raw := q.Get("at"); raw != "" {
		if l.At, err = strconv.Atoi(raw); err != nil || l.At < 0 || l.At > len(l.Line) {
			return db.Errorf(db.KindInvalid, "The line has %d moves: the position %q is not one of them.", len(l.Line), raw)
		}
	}
	if len(q["alt"])+1 > maxLines {
		return db.Errorf(db.KindInvalid, "At most %d lines may be kept.", maxLines)
	}
	for i, raw := range q["alt"] {
		what := tr(c, "variation %d", i+1)
		a, err := parseMoves(raw, what)
		if err != nil {
			return err
		}
		if _, err := walk(base, a, what); err != nil {
			return err
		}
		if len(a) > 0 {
			l.Alts = append(l.Alts, a)
		}
	}
	l.tidy()
	if l.size() > maxTreeMoves {
		return db.Errorf(db.KindInvalid, "The lines hold at most %d moves together.", maxTreeMoves)
	}
	st := states[l.At]
	href := func(n boardLines, sel []string) string { return n.href(gameURL, hasBase, sel) }

	viewer := currentViewer(c)
	side := g.SideOf(viewer.ID)
	names := eng.SideNames()
	for i := range names {
		names[i] = tr(c, names[i])
	}
	res := st.Result()
	p.View = st.View(st.ToMove())
	if res.Over {
		p.View = st.View(rules.Reveal)
	}
	p.Play = views.Play{GameURL: gameURL, Ply: g.Ply, Viewer: max(side, rules.Side0), Square: viewer.BoardView == "square"}
	// The last move shown: the line's, or the game's before the start.
	switch {
	case l.At > 0:
		p.Play.LastMove = states[l.At-1].Clicks(l.Line[l.At-1])
	case l.Base > 0:
		before, err := stateAt(eng, g, moves, l.Base-1)
		if err != nil {
			return err
		}
		p.Play.LastMove = before.Clicks(moves[l.Base-1].Move)
	}
	switch {
	case !res.Over && l.At >= maxLineMoves:
		p.ToMove = tr(c, "%s to move", names[st.ToMove()])
		p.Legal = tr(c, "A line holds at most %d moves: step back to try another.", maxLineMoves)
	case !res.Over:
		legal := st.Legal(st.ToMove())
		p.Play.CanMove = len(legal) > 0
		sel := selection(c)
		p.Play.Next, p.Play.Selected = nextSteps(st, legal, sel, func(sel []string) string { return href(l, sel) })
		for k, s := range p.Play.Next {
			if s.Move != "" {
				p.Play.Next[k] = views.Step{Href: href(l.play(s.Move), nil)}
			}
		}
		if len(p.Play.Selected) > 0 {
			p.Play.BackHref = href(l, p.Play.Selected[:len(p.Play.Selected)-1])
		}
		p.Legal = trn(c, "%s legal moves for %s.", len(legal), views.Number(c.Request().Context(), len(legal)), names[st.ToMove()])
		p.ToMove = tr(c, "%s to move", names[st.ToMove()])
	default:
		p.ToMove = boardResult(c.Request().Context(), names, eng, res)
	}

	// What the rules say of the position the line reaches.
	ply := l.Base + l.At
	p.Position = tr(c, "The position after ply %d of the game. Nothing tried here is played in the game.", l.Base)
	if l.At > 0 {
		p.Position = trn(c, "The position after ply %[1]d of the game and %[2]d moves of the line (ply %[3]d). Nothing tried here is played in the game.",
			l.At, l.Base, l.At, ply)
	}
	p.Score = tr(c, "Score: %s %s · %s %s", names[0], scoreText(c.Request().Context(), eng, res.Score[0]), names[1], scoreText(c.Request().Context(), eng, res.Score[1]))
	if n, ok := views.QuietPlies(p.View); ok {
		p.Quiet = trn(c, "%d plies without a capture (the game ends at 50).", n, n)
	}

	// The steps.
	step := func(at int) string { n := l; n.At = at; return href(n, nil) }
	if l.At > 0 {
		p.Start, p.Back = step(0), step(l.At-1)
	}
	if l.At < len(l.Line) {
		p.Forward, p.End = step(l.At+1), step(len(l.Line))
	}
	if n, ok := l.sibling(-1); ok {
		p.Up = href(n, nil)
	}
	if n, ok := l.sibling(1); ok {
		p.Down = href(n, nil)
	}
	p.Share = href(l, nil)
	p.Reset = href(boardLines{Base: l.Base}, nil)
	if p.Lines, err = lineTree(eng, base, l, href); err != nil {
		return err
	}

	// The computer's view, once the game has ended.
	if g.Finished() {
		if err := h.evaluate(ctx, g, eng, st, ply, &p); err != nil {
			return err
		}
	}

	// Planning: the viewer waits for their opponent's move in the game's
	// position.
	if side.Valid() && !g.Finished() && g.ToMove != side && l.Base == g.Ply {
		switch {
		case len(l.Line) == 0:
			p.PlanHint = tr(c, "To plan a conditional move, try your opponent's move here, then your reply.")
		case len(l.Line)%2 == 1:
			p.PlanHint = tr(c, "To plan this line, add your reply to your opponent's last move.")
		default:
			var text []string
			for i, m := range l.Line {
				text = append(text, states[i].Describe(m, side))
			}
			p.Plan = &views.BoardPlan{Action: gameURL + "/plan", CSRF: p.CSRF, Ply: g.Ply,
				Add: strings.Join(l.Line, " "), Text: strings.Join(text, ", ")}
		}
		// The plan already made, for its author alone: its lines as the
		// board's tree.
		plan, ok, err := h.db.PlanOf(ctx, g.ID, viewer.ID)
		if err != nil {
			return err
		}
		if ok && plan.BasePly == g.Ply && len(plan.Lines) > 0 {
			tree := boardLines{Base: l.Base, Line: plan.Lines[0]}
			for _, pl := range plan.Lines[1:] {
				if len(tree.Alts)+1 < maxLines && tree.size()+len(pl) <= maxTreeMoves {
					tree.Alts = append(tree.Alts, pl)
				}
			}
			tree.At = len(tree.Line)
			tree.tidy()
			p.PlanLines, p.PlanHref = len(plan.Lines), href(tree, nil)
		}
	}
	return render(c, http.StatusOK, views.AnalysisBoardView(p), views.AnalysisBoardFragment(p))
}

// boardResult says how a game ended in a line, in the language of ctx:
// "The game ends here: Black wins 52–30 (target reached)." names are the
// side names, translated.
func boardResult(ctx context.Context, names [2]string, eng rules.Engine, res rules.Result) string {
	score := fmt.Sprintf("%d–%d", res.Score[0], res.Score[1])
	if res.Reason != "" {
		score += " (" + views.T(ctx, string(res.Reason)) + ")"
	}
	if !res.Winner.Valid() {
		return views.T(ctx, "The game ends here: drawn %s.", score)
	}
	return views.T(ctx, "The game ends here: %s wins %s.", names[res.Winner], score)
}

// lineTree is the variation tree as shown: the lines in order, each from
// where it branches off the one above it.
func lineTree(eng rules.Engine, base rules.State, l boardLines, href func(boardLines, []string) string) ([]views.AnalysisLine, error) {
	dark := rules.DarkSide(eng)
	var out []views.AnalysisLine
	var prev []string
	for _, line := range l.all() {
		states, err := walk(base, line, "line")
		if err != nil {
			return nil, err
		}
		from := 0
		for from < len(prev) && from < len(line) && prev[from] == line[from] {
			from++
		}
		current := slices.Equal(line, l.Line)
		al := views.AnalysisLine{Current: current, From: l.Base + from}
		for i := from; i < len(line); i++ {
			st := states[i]
			al.Moves = append(al.Moves, views.AnalysisMove{Ply: l.Base + i + 1, Text: st.Describe(line[i], rules.Reveal),
				Href: href(l.follow(line, i+1), nil), Dark: st.ToMove() == dark, Current: current && i+1 == l.At})
		}
		out = append(out, al)
		prev = line
	}
	return out, nil
}

// evaluate adds the computer's evaluation of st (ply plies into g's
// record) to p: a search of the hard level at a small fixed budget, one at
// a time.
func (h *analysisBoardHandler) evaluate(ctx context.Context, g db.Game, eng rules.Engine, st rules.State, ply int, p *views.AnalysisBoard) error {
	player, ok := bot.Lookup(g.Game)
	if !ok {
		return nil
	}
	score, err := h.matchScore(ctx, g)
	if err != nil {
		return err
	}
	key := fmt.Sprintf("%d/%d/%s", g.ID, ply, st.Encode())
	h.mu.Lock()
	ev, ok := h.cached[key]
	h.mu.Unlock()
	if !ok {
		select {
		case h.evals <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
		ev, err = evaluate(ctx, time.Now, boardEvalCap, player, st, ply, boardEvalNodes, g.Seed, score)
		<-h.evals
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err // cut short: not an evaluation to show or keep
		}
		h.remember(key, ev)
	}
	names := eng.SideNames()
	p.Eval = views.T(ctx, "%s is expected to score %.0f%%, %s %.0f%%.", views.T(ctx, names[0]), 100*ev.Expect, views.T(ctx, names[1]), 100*(1-ev.Expect))
	if ev.Best != "" {
		p.Best = views.T(ctx, "Best move: %s.", st.Describe(ev.Best, rules.Reveal))
		p.Play.Best = st.Clicks(ev.Best)
	}
	return nil
}

// remember keeps evaluation ev under key, forgetting the oldest past
// evalCacheSize.
func (h *analysisBoardHandler) remember(key string, ev db.AnalysisPly) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cached == nil {
		h.cached = map[string]db.AnalysisPly{}
	}
	if _, ok := h.cached[key]; ok {
		return
	}
	h.cached[key] = ev
	h.order = append(h.order, key)
	if len(h.order) > evalCacheSize {
		delete(h.cached, h.order[0])
		h.order = h.order[1:]
	}
}
