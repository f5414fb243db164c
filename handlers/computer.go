package handlers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
)

// The computer players' worker. One loop (ComputerLoop) finds what the
// computer accounts have to do — a move, an armistice offer to answer, a
// rematch offer or a challenge addressed to them — and what analyses are
// queued, and runs the searches in goroutines of their own, at most
// Config.BotWorkers at once, so that no request ever waits for one. Its
// state lives in the database (the games waiting for a computer, the
// analysis queue): a restarted server picks up where it stopped. Every
// change to a game goes through the one game flow (db.PlayMove,
// db.AnswerArmistice) with the computer's account, against the ply the
// search read; a conflict only means the game moved on meanwhile.

// armisticeBelow is the computer's own expected result under which it
// accepts an armistice: it accepts when its search says it is losing.
const armisticeBelow = 0.3

// computer is the worker's state.
type computer struct {
	db    *db.DB
	now   func() time.Time
	seed  func() int64
	log   *slog.Logger
	rated bool // games against the computer are rated
	// maxGames is the most games a player may have in progress against
	// the computer; beyond it the computer declines their challenges
	// (0: no limit).
	maxGames int
	nodes    int64 // an analysis' budget per position; 0: the hard level's own
	// moveNodes is the budget of a move; 0: the level's own.
	moveNodes int64
	noPuzzles bool // no puzzle job (Config.NoPuzzleSearch)
	// slots are the searches that may run at once, shared round robin
	// between the players waiting (and the analyses, as one more): an
	// analysis between two positions lets a waiting move go first.
	slots *searchSlots
	wake  chan struct{}
	// clock is the real clock the searches' time caps are read on
	// (time.Now; cfg.Now may be a test's fixed clock).
	clock func() time.Time
	// traffic is the server's requests, which the puzzle search stands
	// aside for (nil: none, as in a test of the computer alone).
	traffic *traffic

	mu        sync.Mutex
	busy      map[int64]bool // games with a search under way
	failed    map[int64]int  // games whose search failed, and at which ply (not retried there)
	analysing bool
	puzzling  bool // a finished game is being searched for puzzles
	running   int  // searches under way
	peak      int  // the most searches that were ever under way at once
}

func newComputer(store *db.DB, cfg Config) *computer {
	return &computer{db: store, now: cfg.Now, seed: cfg.Seed, log: cfg.Logger, rated: cfg.RateBotGames, maxGames: cfg.ComputerGames,
		nodes: cfg.AnalysisNodes, moveNodes: cfg.MoveNodes, slots: newSearchSlots(cfg.BotWorkers), noPuzzles: cfg.NoPuzzleSearch, wake: make(chan struct{}, 1), clock: time.Now,
		busy: map[int64]bool{}, failed: map[int64]int{}}
}

// Wake tells the worker that something may wait for the computer (a move,
// an offer, a new game or analysis); it never blocks.
func (c *computer) Wake() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// ComputerLoop makes the computer's moves and answers and runs the queued
// analyses until ctx is done: at once, whenever woken, and every interval
// (a fallback). It returns once every search it started has stopped.
func (a *App) ComputerLoop(ctx context.Context, interval time.Duration) {
	c := a.computer
	var wg sync.WaitGroup
	defer wg.Wait()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if err := c.round(ctx, &wg); err != nil && ctx.Err() == nil {
			c.log.Error("computer players", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-c.wake:
		case <-t.C:
		}
	}
}

// round starts a search for everything waiting for the computer that has
// none under way.
func (c *computer) round(ctx context.Context, wg *sync.WaitGroup) error {
	chs, err := c.db.ComputerChallenges(ctx)
	if err != nil {
		return err
	}
	for _, ch := range chs {
		if _, ok := bot.Lookup(ch.Game); !ok {
			// A game the computer does not play: say no at once.
			if err := c.db.DeclineChallenge(ctx, ch.ID, ch.ComputerID); err != nil && db.KindOf(err) != db.KindConflict {
				c.log.Error("computer declines a challenge", "challenge", ch.ID, "err", err)
			}
			continue
		}
		id, err := c.db.AcceptAsComputer(ctx, ch.ID, ch.ComputerID, c.rated, c.maxGames, c.seed(), c.now())
		if err != nil && db.KindOf(err) != db.KindConflict {
			c.log.Error("computer accepts a challenge", "challenge", ch.ID, "err", err)
		} else if err == nil && id == 0 {
			c.log.Info("computer declined a challenge: its creator has the most games against it", "challenge", ch.ID) // not shown
		} else if err == nil {
			c.log.Info("computer accepted a challenge", "challenge", ch.ID, "game", id) // not shown
		}
	}
	turns, err := c.db.ComputerTurns(ctx)
	if err != nil {
		return err
	}
	for _, t := range turns {
		c.mu.Lock()
		skip := c.busy[t.GameID]
		if ply, ok := c.failed[t.GameID]; ok && ply == t.Ply {
			skip = true
		}
		if !skip {
			c.busy[t.GameID] = true
		}
		c.mu.Unlock()
		if skip {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Wake() // the game may wait for the computer again (the card game's steps)
			defer func() {
				c.mu.Lock()
				delete(c.busy, t.GameID)
				c.mu.Unlock()
			}()
			if !c.acquire(ctx, t.OpponentID) {
				return
			}
			defer c.release(t.OpponentID)
			if err := c.safely(func() error { return c.play(ctx, t) }); err != nil && ctx.Err() == nil {
				c.log.Error("computer move", "game", t.GameID, "ply", t.Ply, "err", err)
				c.mu.Lock()
				c.failed[t.GameID] = t.Ply
				c.mu.Unlock()
			}
		}()
	}
	c.mu.Lock()
	start := !c.analysing
	c.mu.Unlock()
	if !start {
		return nil
	}
	an, ok, err := c.db.NextAnalysis(ctx)
	if err != nil {
		return err
	}
	if !ok {
		// Nothing to analyse: the puzzles' turn, the lowest of all.
		if c.noPuzzles {
			return nil
		}
		return c.puzzleRound(ctx, wg)
	}
	c.mu.Lock()
	c.analysing = true
	c.mu.Unlock()
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer c.Wake() // the next analysis in the queue
		defer func() {
			c.mu.Lock()
			c.analysing = false
			c.mu.Unlock()
		}()
		if err := c.safely(func() error { return c.analyse(ctx, an) }); err != nil && ctx.Err() == nil {
			c.log.Error("analysis", "game", an.GameID, "err", err)
			// The reason is stored in English, an ID of the catalogue: the
			// analysis panel translates it, so it is not shown as it is.
			if ferr := c.db.FailAnalysis(ctx, an.GameID, "The analysis failed on the server.", c.now()); ferr != nil {
				c.log.Error("analysis", "game", an.GameID, "err", ferr)
			}
		}
	}()
	return nil
}

// acquire waits for a search slot for owner (the player the search
// answers, or analysisOwner); false when ctx ended first.
func (c *computer) acquire(ctx context.Context, owner int64) bool {
	if !c.slots.acquire(ctx, owner) {
		return false
	}
	c.mu.Lock()
	c.running++
	c.peak = max(c.peak, c.running)
	c.mu.Unlock()
	return true
}

// release gives back the slot of owner's search that ended.
func (c *computer) release(owner int64) {
	c.mu.Lock()
	c.running--
	c.mu.Unlock()
	c.slots.release(owner)
}

// safely runs fn, turning a panic into an error (a search must not take
// the server down).
func (c *computer) safely(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return fn()
}

// stopper is a search's Stop: limit passed on clock (the real one), or
// the worker's end. Each time the search asks (every thousand or two
// nodes), it first gives way to the goroutines waiting to run: the
// players' requests go before the computer's thinking.
func stopper(ctx context.Context, clock func() time.Time, limit time.Duration) func() bool {
	late := bot.Deadline(clock, limit)
	return func() bool {
		runtime.Gosched()
		return ctx.Err() != nil || late()
	}
}

// play makes the computer's move or armistice answer t in its game.
func (c *computer) play(ctx context.Context, t db.ComputerTurn) error {
	g, err := c.db.Game(ctx, t.GameID)
	if err != nil {
		return err
	}
	if g.Finished() || g.Ply != t.Ply {
		return nil // the game moved on
	}
	player, ok := bot.Lookup(g.Game)
	if !ok {
		return fmt.Errorf("no computer player for %q", g.Game)
	}
	st, err := g.Decode()
	if err != nil {
		return err
	}
	level := bot.Level(t.Level)
	req := bot.Request{Level: level, Seed: g.Seed ^ int64(g.Ply)*0x2545f4914f6cdd1d, Side: t.Side,
		Budget: c.moveBudget(ctx, level)}
	if req.MatchScore, err = c.matchScore(ctx, g); err != nil {
		return err
	}
	th, err := think(player, st, req)
	if err != nil {
		return fmt.Errorf("think: %w", err)
	}
	if ctx.Err() != nil {
		return nil
	}
	now := c.now()
	if t.Armistice && g.ArmisticeBy == t.Side.Other() {
		mine := th.Expect
		if t.Side == rules.Side1 {
			mine = 1 - mine
		}
		accept := mine < armisticeBelow
		if _, err := c.db.AnswerArmistice(ctx, g.ID, t.ComputerID, g.Ply, accept, now); err != nil {
			return ignoreConflict(err)
		}
		if accept {
			return nil
		}
	}
	if g.ToMove != t.Side || th.Move == "" {
		return nil
	}
	_, err = c.db.PlayMove(ctx, db.Play{GameID: g.ID, UserID: t.ComputerID, Ply: g.Ply, Move: th.Move}, now)
	return ignoreConflict(err)
}

// moveBudget is the budget of a computer's move at level: the node
// budget decides (c.moveNodes, or the level's own); the time cap
// (bot.MoveCap, on c.clock) only stops a search on a machine many times
// slower than usual, and the worker's end stops it at once.
func (c *computer) moveBudget(ctx context.Context, level bot.Level) bot.Budget {
	return bot.Budget{Nodes: c.moveNodes, Stop: stopper(ctx, c.clock, bot.MoveCap(level))}
}

// ignoreConflict drops a conflict: the game moved on (a resignation, say)
// while the computer thought.
func ignoreConflict(err error) error {
	if db.KindOf(err) == db.KindConflict {
		return nil
	}
	return err
}

// matchScore is the computer's Request.MatchScore in g: in a match of
// several games, the points each side of g holds from the match's earlier
// games; zero otherwise.
func (c *computer) matchScore(ctx context.Context, g db.Game) ([2]int, error) {
	if g.Number == 1 {
		return [2]int{}, nil
	}
	games, err := c.db.MatchGames(ctx, g.MatchID)
	if err != nil {
		return [2]int{}, err
	}
	var played []rules.MatchGame
	for _, mg := range games {
		if mg.Finished() && mg.Number < g.Number {
			played = append(played, rules.MatchGame{Spec: rules.GameSpec{Variant: mg.Variant, Swapped: mg.Swapped},
				Result: rules.Result{Over: true, Winner: mg.Winner, Score: mg.Score, Reason: mg.Reason}})
		}
	}
	return bot.MatchScore(played, rules.GameSpec{Variant: g.Variant, Swapped: g.Swapped}), nil
}

// analysisCap bounds the search of one position of an analysis as a
// move's cap does: its node budget ends it well before, however busy the
// machine (the cap keeps a stalled search from holding the queue).
var analysisCap = bot.MoveCap(bot.Hard)

// analyse evaluates the positions of analysis an from where it stopped to
// the end, one at a time, each stored as it is made.
func (c *computer) analyse(ctx context.Context, an db.Analysis) error {
	g, err := c.db.Game(ctx, an.GameID)
	if err != nil {
		return err
	}
	player, ok := bot.Lookup(g.Game)
	if !ok {
		return fmt.Errorf("no computer player for %q", g.Game)
	}
	moves, err := c.db.Moves(ctx, g.ID)
	if err != nil {
		return err
	}
	eng, err := g.Engine()
	if err != nil {
		return err
	}
	if an.Total != len(moves)+1 {
		return fmt.Errorf("analysis of %d positions for a game of %d plies", an.Total, len(moves))
	}
	st, err := stateAt(eng, g, moves, an.Done)
	if err != nil {
		return err
	}
	score, err := c.matchScore(ctx, g)
	if err != nil {
		return err
	}
	for ply := an.Done; ply < an.Total; ply++ {
		if !c.acquire(ctx, analysisOwner) {
			return nil
		}
		p, err := evaluate(ctx, c.clock, analysisCap, player, st, ply, an.Nodes, g.Seed, score)
		c.release(analysisOwner)
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil // stopped: the position is searched again after the restart
		}
		if err := c.db.StoreAnalysisPly(ctx, g.ID, p, c.now()); err != nil {
			if db.KindOf(err) == db.KindConflict {
				return nil // queued again meanwhile: the next round starts it over
			}
			return err
		}
		if ply < len(moves) {
			if st, err = st.Apply(moves[ply].Move); err != nil {
				return fmt.Errorf("replay ply %d: %w", ply+1, err)
			}
		}
	}
	return nil
}

// evaluate is the analysis of the position st after ply: the game's
// result once it is over, else the hard level's search for the side to
// move with nodes (0: the level's own budget), stopped after limit on
// clock at the latest, and a seed fixed by the game and the ply, so that
// the same analysis gives the same numbers.
func evaluate(ctx context.Context, clock func() time.Time, limit time.Duration, player bot.Player, st rules.State, ply int, nodes, seed int64, matchScore [2]int) (db.AnalysisPly, error) {
	p := db.AnalysisPly{Ply: ply}
	if res := st.Result(); res.Over || !st.ToMove().Valid() {
		switch res.Winner {
		case rules.Side0:
			p.Expect, p.Score = 1, bot.Win
		case rules.Side1:
			p.Expect, p.Score = 0, -bot.Win
		default:
			p.Expect = 0.5
		}
		return p, nil
	}
	th, err := think(player, st, bot.Request{Level: bot.Hard, Seed: seed ^ int64(ply)*0x2545f4914f6cdd1d, Side: st.ToMove(),
		MatchScore: matchScore, Budget: bot.Budget{Nodes: nodes, Stop: stopper(ctx, clock, limit)}})
	if errors.Is(err, bot.ErrNoMove) {
		p.Expect = 0.5
		return p, nil
	}
	if err != nil {
		return p, fmt.Errorf("think at ply %d: %w", ply, err)
	}
	p.Expect, p.Score, p.Best, p.Line = min(max(th.Expect, 0), 1), th.Score, th.Move, th.Best
	return p, nil
}
