package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"sync"
	"time"

	"github.com/trench-games/trench/rules/bot"
)

// The comparison run of `trench bench`: does the computer slow people
// down? The human load plays in four phases of --computer-phase each:
// without, with, without, with a share of extra games against the
// computer at --computer-level, hard unless told (each played by a client of its own that
// moves, then waits for the computer's answer through the page's live
// update, as a browser does). The human move POST's p99 of the phases
// with is compared with that of the phases without; alternating evens
// out the drift of a shared machine.

// computerPoll is how often a waiting computer-game client asks whether
// the computer has answered (the page's live update polls every second
// while the computer thinks; the bench asks more often, to keep the
// searches coming).
const computerPoll = 200 * time.Millisecond

// computerSettle is how long the comparison waits, after its last
// phase, for the computer's answers still awaited.
const computerSettle = time.Minute

// computerTarget is the most the human move POST's p99 may grow with the
// computer's games.
const computerTarget = 0.20

// computerComparison is what the comparison measured.
type computerComparison struct {
	Games         int // games against the computer
	ComputerMoves int // moves the human side made in them
	Answers       int // the computer's answers seen by the live update
	Late          int // of which after the phases (awaitComputer)
	Errors        int
	P99Without    float64 // human move POST p99 in ms
	P99With       float64
	MovesWithout  int // human moves in the phases
	MovesWith     int
	Growth        float64 // P99With / P99Without - 1
}

// computerGameKind is the game and variant the computer plays in the
// bench: the first kind of --game with a computer player.
func computerGameKind(game string) ([2]string, error) {
	kinds, err := gameKinds(game)
	if err != nil {
		return [2]string{}, err
	}
	all, _ := gameKinds("mix")
	for _, k := range append(kinds, all...) {
		if _, ok := bot.Lookup(k[0]); ok {
			return k, nil
		}
	}
	return [2]string{}, errors.New("bench: no game has a computer player")
}

// compareComputer runs the comparison on the load ld and prints it.
func compareComputer(ctx context.Context, cfg benchConfig, ld *Load, say func(string, ...any)) (computerComparison, error) {
	var cmp computerComparison
	kind, err := computerGameKind(cfg.Game)
	if err != nil {
		return cmp, err
	}
	human := len(ld.AllGames())
	cmp.Games = max(1, int(math.Round(float64(human)*cfg.ComputerShare/(1-cfg.ComputerShare))))
	level := cfg.ComputerLevel
	if level == "" {
		level = bot.Hard
	}
	cl, err := newComputerLoad(ctx, ld, kind, level, cmp.Games)
	if err != nil {
		return cmp, err
	}
	var without, with LoadStats
	var comp LoadStats
	for phase := range 4 {
		lim := RunLimits{Duration: cfg.ComputerPhase}
		if phase%2 == 0 {
			without.add(ld.Run(ctx, lim))
			continue
		}
		var wg sync.WaitGroup
		var cs LoadStats
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs = cl.Run(ctx, lim)
		}()
		with.add(ld.Run(ctx, lim))
		wg.Wait()
		comp.add(cs)
	}
	// The answers still awaited when the last phase ended: the computer
	// searches at the lowest priority, so on a machine the load (or other
	// work) keeps busy they may come only once it is quiet.
	late, err := cl.awaitComputer(ctx, computerSettle)
	if err != nil {
		comp.Errors++
		if len(comp.ErrorSamples) < 3 {
			comp.ErrorSamples = append(comp.ErrorSamples, err.Error())
		}
	}
	cmp.ComputerMoves, cmp.Answers, cmp.Errors = comp.Moves, comp.Polls+late, without.Errors+with.Errors+comp.Errors
	cmp.Late = late
	cmp.MovesWithout, cmp.MovesWith = without.Moves, with.Moves
	cmp.P99Without = percentile(durationsMS(without.Latency), 99)
	cmp.P99With = percentile(durationsMS(with.Latency), 99)
	if cmp.P99Without > 0 {
		cmp.Growth = cmp.P99With/cmp.P99Without - 1
	}
	say("with the computer: %d %s games against Computer · %s besides the %d games between people, %s phases alternating without and with them",
		cmp.Games, kind[0], level, human, cfg.ComputerPhase)
	say("  human moves       %d without, %d with (%.1f and %.1f moves/s)", cmp.MovesWithout, cmp.MovesWith,
		PerSec(cmp.MovesWithout, 2*cfg.ComputerPhase), PerSec(cmp.MovesWith, 2*cfg.ComputerPhase))
	say("  human move POST   p99 %.2f ms without, %.2f ms with: %+.0f%% (target ≤ +%.0f%%: %s)", cmp.P99Without, cmp.P99With,
		100*cmp.Growth, 100*computerTarget, mark(cmp.Growth <= computerTarget))
	say("  computer games    %d moves against the computer, %d answers seen by the live update during the phases and %d after them, %d games finished",
		comp.Moves, comp.Polls, late, comp.Finished)
	say("  errors            %d", cmp.Errors)
	for _, e := range append(append(without.ErrorSamples, with.ErrorSamples...), comp.ErrorSamples...) {
		say("    %s", e)
	}
	return cmp, nil
}

// newComputerLoad makes n clients of their own, each with one account
// that starts a game of kind against the computer at level.
func newComputerLoad(ctx context.Context, ld *Load, kind [2]string, level bot.Level, n int) (*Load, error) {
	cl := &Load{cfg: ld.cfg, users: n}
	cl.base.Store(ld.base.Load())
	cl.cfg.OnAck = nil
	cl.onGame = ld.onGame
	transport := &http.Transport{Proxy: nil, DialContext: (&net.Dialer{Timeout: 5 * time.Second, Control: loopbackOnly}).DialContext,
		MaxIdleConns: 2 * n, MaxIdleConnsPerHost: 2 * n, IdleConnTimeout: time.Minute}
	prefix := "c" + RandomTag()
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		jar, _ := cookiejar.New(nil)
		// Addresses of their own, apart from the people's (the server
		// limits sign-ups per address).
		u := &user{name: fmt.Sprintf("%s-%d", prefix, i), addr: userAddr(1<<20 + i),
			http: &http.Client{Jar: jar, Transport: transport, Timeout: time.Minute}}
		c := &client{l: cl, id: i, rng: rand.New(rand.NewPCG(uint64(i)+1, 11)), users: []*user{u}}
		c.games = []*game{{kind: kind, players: [2]*user{u}, computer: true, level: level}}
		cl.clients = append(cl.clients, c)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if errs[i] = c.signUp(ctx, u); errs[i] == nil {
				errs[i] = c.newComputerGame(ctx, c.games[0])
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("bench: computer games: %w", err)
	}
	return cl, nil
}

// newComputerGame starts g against the computer at its level from the
// challenge page (Play the computer), its player moving first.
func (c *client) newComputerGame(ctx context.Context, g *game) error {
	u := g.players[0]
	p, err := c.get(ctx, u, "/challenges/new?game="+g.kind[0])
	if err != nil {
		return err
	}
	if err := wantOK(p, "GET /challenges/new"); err != nil {
		return err
	}
	csrf := parseDoc(p.body).inputValue("_csrf")
	p, err = c.request(ctx, u, http.MethodPost, "/computer", url.Values{"_csrf": {csrf}, "game": {g.kind[0]},
		"variant": {g.kind[1]}, "level": {string(g.level)}, "color": {"0"}}, nil, "")
	if err != nil {
		return err
	}
	if err := wantOK(p, "play the computer"); err != nil {
		return err
	}
	if _, err := fmt.Sscanf(p.url, "/games/%d", &g.id); err != nil {
		return fmt.Errorf("playing the computer led to %s, not a game", p.url)
	}
	g.moves = 0
	c.st.FullPages++
	if g.tabs[0] = c.readGame(p.body); !g.tabs[0].found {
		return fmt.Errorf("GET %s: no #game on the page", g.url())
	}
	return nil
}

// playComputer makes one step in g, a game against the computer: a move
// on the player's turn; otherwise, after a pause, one live update (the
// computer's answer, or nothing yet).
func (c *client) playComputer(ctx context.Context, g *game) error {
	pg := g.tabs[0]
	if pg.finished {
		return c.gameOver(ctx, g, pg)
	}
	if pg.yourTurn {
		return c.clickMove(ctx, g, 0)
	}
	if pg.poll == nil {
		return fmt.Errorf("the page of game %d has no live update", g.id)
	}
	select {
	case <-ctx.Done():
		return nil
	case <-time.After(computerPoll):
	}
	p, err := c.request(ctx, g.players[0], http.MethodGet, pg.poll.url, nil, pg.poll, g.url())
	if err != nil {
		return err
	}
	switch p.status {
	case http.StatusNoContent:
		return nil // still thinking
	case http.StatusOK:
		c.st.Polls++
		if g.tabs[0] = c.readGame(p.body); !g.tabs[0].found {
			return fmt.Errorf("live update of game %d: no #game", g.id)
		}
		return nil
	}
	return wantOK(p, "live update")
}

// awaitComputer polls the live update of each of cl's games against the
// computer whose page waits for the computer's answer, until the answer
// comes or timeout passes, and returns how many answers came.
func (cl *Load) awaitComputer(ctx context.Context, timeout time.Duration) (int, error) {
	deadline := time.Now().Add(timeout)
	answers := 0
	for _, c := range cl.clients {
		for _, g := range c.games {
			if pg := g.tabs[0]; !g.computer || pg.yourTurn || pg.finished {
				continue
			}
			for pg := g.tabs[0]; !pg.yourTurn && !pg.finished; pg = g.tabs[0] {
				if time.Now().After(deadline) {
					return answers, fmt.Errorf("game %d: the computer did not answer within %s of the last phase", g.id, timeout)
				}
				if err := c.playComputer(ctx, g); err != nil {
					return answers, err
				}
				if ctx.Err() != nil {
					return answers, ctx.Err()
				}
			}
			answers++
		}
	}
	return answers, nil
}
