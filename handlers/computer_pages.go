package handlers

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	"github.com/trench-games/trench/views"
)

// MistakeLoss is how much of the mover's expected result (0 a sure loss,
// 1 a sure win) a move must lose, by the computer analysis, to be marked a
// mistake.
const MistakeLoss = 0.2

// computerHandler starts games against the computer.
type computerHandler struct {
	db    *db.DB
	now   func() time.Time
	seed  func() int64
	rated bool
	// maxGames is the most games a player may have in progress against
	// the computer; 0 no limit.
	maxGames int
	wake     func()
}

// computerChoice is the play-the-computer part of the challenge form of
// game (an engine key): offered when a computer player is registered for
// it, else links to the games that have one.
func computerChoice(game, level string, rated bool, msg string) views.ComputerChoice {
	_, offered := bot.Lookup(game)
	ch := views.ComputerChoice{Rated: rated, Error: msg, Offered: offered}
	if !offered {
		for _, e := range engines() {
			if _, ok := bot.Lookup(e.Key()); ok {
				ch.Elsewhere = append(ch.Elsewhere, views.Option{Value: "/challenges/new?game=" + e.Key(), Label: e.Title()})
			}
		}
	}
	for _, l := range bot.PlayLevels {
		ch.Levels = append(ch.Levels, views.Option{Value: string(l), Label: l.Title(), Selected: string(l) == level || level == "" && l == bot.Easy})
	}
	return ch
}

// start starts a game against the computer (POST /computer) and sends the
// player to it.
func (h *computerHandler) start(c echo.Context) error {
	in := db.NewComputerGame{UserID: currentViewer(c).ID, Game: c.FormValue("game"), Variant: c.FormValue("variant"),
		Level: c.FormValue("level"), Color: c.FormValue("color"), Rated: h.rated, MaxInProgress: h.maxGames}
	var id int64
	var err error
	if _, ok := bot.Lookup(in.Game); !ok {
		err = db.Errorf(db.KindInvalid, "The computer does not play %q.", in.Game)
	} else {
		id, err = h.db.StartComputerGame(c.Request().Context(), in, h.seed(), h.now())
	}
	if k := db.KindOf(err); k == db.KindInvalid || k == db.KindConflict {
		status, msg := statusOf(c, err)
		f := challengeForm(c, in.Game, db.NewChallenge{Variant: in.Variant, Color: in.Color, Rated: true}, "")
		f.Computer = computerChoice(f.Game, in.Level, h.rated, msg)
		return render(c, status, views.ChallengeFormView(f), nil)
	} else if err != nil {
		return err
	}
	h.wake()
	return redirect(c, fmt.Sprintf("/games/%d", id))
}

// computerPage adds to a game page what the computer brings: "the
// computer is thinking" while a computer account is to move, and on the
// review of a finished game its analysis (the panel, the mistakes in the
// move list, the best move on the board). shown is the position shown,
// review the ply reviewed (-1 for none).
func (h *gameHandler) computerPage(c echo.Context, s gameScreen, p *views.GamePage, review int) error {
	g := s.game
	if !g.Finished() {
		if _, ok := h.computers[g.Side[g.ToMove].ID]; ok {
			p.Thinking = true
			p.Status = tr(c, "The computer is thinking…")
		}
		return nil
	}
	if review < 0 {
		return nil
	}
	panel, an, err := analysisPanel(c.Request().Context(), h.db, g, currentViewer(c).ID != 0)
	if err != nil || panel == nil {
		return err
	}
	panel.CSRF = p.Play.CSRF
	panel.ReloadHref = fmt.Sprintf("/games/%d?ply=%d", g.ID, review)
	p.Analysis = panel
	if an.State != "done" || len(an.Plies) != g.Ply+1 {
		return nil
	}
	eng, err := g.Engine()
	if err != nil {
		return err
	}
	names := eng.SideNames()
	for i := range names {
		names[i] = tr(c, names[i])
	}
	expect := make([]float64, len(an.Plies))
	for i, ap := range an.Plies {
		expect[i] = ap.Expect
	}
	mistake := mistakes(expect, s.moves)
	p.Log = slices.Clone(p.Log) // the lines may be shared (see logCache)
	for i := range p.Log {
		if k := p.Log[i].Ply; k < len(mistake) {
			p.Log[i].Mistake = mistake[k]
		}
	}
	for k := 1; k < len(mistake); k++ {
		if mistake[k] {
			panel.Mistakes[s.moves[k-1].Side]++
		}
	}
	panel.Sides, panel.Threshold = names, strconv.FormatFloat(MistakeLoss, 'f', 2, 64)
	panel.Graph = evalGraph(c.Request().Context(), g, names, expect, mistake, review)
	panel.Eval = tr(c, "After ply %d: %s is expected to score %.0f%%, %s %.0f%%.", review,
		names[0], 100*expect[review], names[1], 100*(1-expect[review]))
	if review > 0 {
		before := an.Plies[review-1]
		if best := before.Best; best != "" && best != s.moves[review-1].Move {
			st, err := stateAt(eng, g, s.moves, review-1)
			if err != nil {
				return err
			}
			panel.Best = tr(c, "Best was %s.", st.Describe(best, rules.Reveal))
			panel.Mistake = mistake[review]
			p.Play.Best = st.Clicks(best)
		}
	}
	return nil
}

// mistakes marks, per ply k ≥ 1, whether move k lost at least MistakeLoss
// of its mover's expected result: expect holds side 0's expected result
// after each ply (index 0: the start).
func mistakes(expect []float64, moves []db.Move) []bool {
	out := make([]bool, len(expect))
	for k := 1; k < len(expect) && k <= len(moves); k++ {
		loss := expect[k-1] - expect[k]
		if moves[k-1].Side == rules.Side1 {
			loss = -loss
		}
		out[k] = loss >= MistakeLoss-1e-9
	}
	return out
}

// The evaluation graph's size in SVG units.
const (
	graphWidth  = 300
	graphHeight = 100
)

// evalGraph draws expect (side 0's expected result after each ply), one
// point per ply linking to it; its words are in the language of ctx, the
// side names names already translated.
func evalGraph(ctx context.Context, g db.Game, names [2]string, expect []float64, mistake []bool, current int) *views.EvalGraph {
	gr := &views.EvalGraph{Width: graphWidth, Height: graphHeight,
		Label: views.T(ctx, "%s's expected result after each ply, from 0 (bottom) to 1 (top)", names[0])}
	span := float64(max(len(expect)-1, 1))
	for k, e := range expect {
		gr.Points = append(gr.Points, views.EvalPoint{Ply: k,
			X:       2 + float64(k)*(graphWidth-4)/span,
			Y:       2 + (1-e)*(graphHeight-4),
			Href:    fmt.Sprintf("/games/%d?ply=%d", g.ID, k),
			Title:   views.T(ctx, "Ply %d: %s %.0f%%", k, names[0], 100*e),
			Mistake: mistake[k], Current: k == current})
	}
	return gr
}

// analysisPanel is the analysis panel of finished game g, and the
// analysis (with its evaluations) when there is one; nil for a game that
// cannot be analysed.
func analysisPanel(ctx context.Context, store *db.DB, g db.Game, signedIn bool) (*views.AnalysisPanel, db.Analysis, error) {
	eng, err := g.Engine()
	if err != nil || !g.Finished() || rules.HidesInformation(eng) {
		return nil, db.Analysis{}, err
	}
	if _, ok := bot.Lookup(g.Game); !ok {
		return nil, db.Analysis{}, nil
	}
	an, found, err := store.Analysis(ctx, g.ID)
	if err != nil {
		return nil, an, err
	}
	p := &views.AnalysisPanel{URL: fmt.Sprintf("/games/%d/analysis", g.ID), PollURL: fmt.Sprintf("/games/%d/analysis/panel", g.ID), State: an.State, Done: an.Done, Total: an.Total,
		ReloadHref: fmt.Sprintf("/games/%d", g.ID)}
	p.CanQueue = signedIn && (!found || an.State == "failed")
	if an.State == "failed" {
		p.Error = views.T(ctx, "The analysis failed: %s You may ask for it again.", views.T(ctx, an.Error))
	}
	return p, an, nil
}

// analysisHandler queues analyses and answers the progress poll.
type analysisHandler struct {
	games *gameHandler
	db    *db.DB
	now   func() time.Time
	nodes int64
	wake  func()
}

// queue asks for the analysis of a finished game (POST
// /games/:id/analysis). Any signed-in player may ask, for any finished
// TRENCH or Trenches game, with at most db.MaxQueuedAnalyses waiting.
func (h *analysisHandler) queue(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	g, err := h.db.Game(ctx, id)
	if err != nil {
		return err
	}
	if _, ok := bot.Lookup(g.Game); !ok {
		err = db.Errorf(db.KindInvalid, "The computer does not analyse games of this kind.")
	} else {
		_, err = h.db.QueueAnalysis(ctx, id, currentViewer(c).ID, h.nodes, h.now())
	}
	if err != nil {
		status, msg := statusOf(c, err)
		if status >= 500 || status == http.StatusNotFound {
			return err
		}
		if isHTMX(c) {
			p, _, perr := analysisPanel(ctx, h.db, g, true)
			if perr != nil || p == nil {
				return err
			}
			p.Error, p.CSRF = msg, pageOf(c, "").CSRF
			return render(c, status, views.AnalysisSection(*p), views.AnalysisSection(*p))
		}
		s, lerr := h.games.load(ctx, id)
		if lerr != nil {
			return lerr
		}
		return h.games.respond(c, status, s, msg)
	}
	h.wake()
	if !isHTMX(c) {
		return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/games/%d", id))
	}
	return h.panel(c)
}

// panel is the analysis panel alone (GET /games/:id/analysis/panel, polled by
// htmx while the analysis runs); once it is done the page reloads to show
// the result everywhere (graph, move list, board). A plain request goes
// to the game.
func (h *analysisHandler) panel(c echo.Context) error {
	id, err := paramID(c)
	if err != nil {
		return err
	}
	if !isHTMX(c) {
		return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/games/%d", id))
	}
	ctx := c.Request().Context()
	g, err := h.db.Game(ctx, id)
	if err != nil {
		return err
	}
	p, _, err := analysisPanel(ctx, h.db, g, currentViewer(c).ID != 0)
	if err != nil {
		return err
	}
	if p == nil {
		return db.Errorf(db.KindNotFound, "This game has no computer analysis.")
	}
	if p.State == "done" {
		c.Response().Header().Set("HX-Refresh", "true")
		return c.NoContent(http.StatusNoContent)
	}
	p.CSRF = pageOf(c, "").CSRF
	return render(c, http.StatusOK, views.AnalysisSection(*p), views.AnalysisSection(*p))
}
