package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/glicko2"
)

// FillOptions says what Fill builds.
type FillOptions struct {
	// Games is how many games to store (tournament games included); about
	// one in fifty is still in progress, the others finished.
	Games int
	// PasswordHash is every filled account's password hash (a bcrypt hash
	// of a password the caller knows, so that any player can sign in).
	PasswordHash string
	// Now is the present: the finished games end before it, over Years
	// years (default 5), more of them in recent years.
	Now   time.Time
	Years float64
	// Seed makes the fill repeatable.
	Seed uint64
	// Progress, when set, is called now and then with the games stored so
	// far.
	Progress func(games int)
}

// FillResult is what Fill stored.
type FillResult struct {
	Users       int // accounts (one per ten games), one of them an administrator named "admin"
	Games       int
	Active      int // games still in progress
	Moves       int
	Tournaments int
	Rated       int // rated games (two rating changes each)
	// Heaviest is the name of the player with the most games, and
	// HeaviestGames how many.
	Heaviest      string
	HeaviestGames int
}

// fillRecord is a game played through the engine: the moves from its
// start state and how it ended.
type fillRecord struct {
	engine  rules.Engine
	variant string
	spec    rules.GameSpec
	seed    int64
	start   string
	final   string
	moves   []string
	sides   []rules.Side // the side that made each move
	result  rules.Result
}

// fillPool plays recordsPerVariant games of each single-game variant of
// every registered engine: random legal moves, until the game ends or a
// length drawn between 30 and 300 plies, where the side to move resigns,
// runs out of time or (where the game has one) agrees an armistice.
func fillPool(rng *rand.Rand, recordsPerVariant int) ([]fillRecord, error) {
	var pool []fillRecord
	for _, eng := range rules.Engines() {
		for _, v := range eng.Variants() {
			if v.Match {
				continue
			}
			spec := eng.FirstGame(v.Key)
			for range recordsPerVariant {
				seed := rng.Int64()
				st, err := eng.Start(spec, seed)
				if err != nil {
					return nil, fmt.Errorf("db: fill: %w", err)
				}
				rec := fillRecord{engine: eng, variant: v.Key, spec: spec, seed: seed, start: st.Encode()}
				limit := 30 + rng.IntN(271)
				for !st.Result().Over && len(rec.moves) < limit {
					legal := st.Legal(st.ToMove())
					if len(legal) == 0 {
						break
					}
					m := legal[rng.IntN(len(legal))]
					rec.sides = append(rec.sides, st.ToMove())
					if st, err = st.Apply(m); err != nil {
						return nil, fmt.Errorf("db: fill: %s %s: %w", eng.Key(), m, err)
					}
					rec.moves = append(rec.moves, m)
				}
				rec.result = st.Result()
				if !rec.result.Over {
					loser := st.ToMove()
					if !loser.Valid() {
						loser = rules.Side0
					}
					switch r := rng.Float64(); {
					case r < 0.1 && eng.HasArmistice():
						rec.result = st.Armistice()
					case r < 0.3:
						rec.result = st.Concede(loser, true)
					default:
						rec.result = st.Concede(loser, false)
					}
				}
				rec.final = st.Encode()
				pool = append(pool, rec)
			}
		}
	}
	if len(pool) == 0 {
		return nil, errors.New("db: fill: no game is registered")
	}
	return pool, nil
}

// fillBatch inserts rows into one table with multi-row INSERTs of up to
// fillBatchRows rows.
type fillBatch struct {
	tx    *sql.Tx
	head  string // INSERT INTO t (a, b)
	cols  int
	args  []any
	full  *sql.Stmt
	count int
}

const fillBatchRows = 200

func newFillBatch(table string, cols ...string) *fillBatch {
	return &fillBatch{head: "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES ", cols: len(cols)}
}

func (b *fillBatch) query(rows int) string {
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", b.cols), ", ") + ")"
	return b.head + strings.TrimSuffix(strings.Repeat(one+", ", rows), ", ")
}

// begin makes the batch write into tx.
func (b *fillBatch) begin(ctx context.Context, tx *sql.Tx) error {
	b.tx = tx
	var err error
	b.full, err = tx.PrepareContext(ctx, b.query(fillBatchRows))
	return err
}

func (b *fillBatch) add(ctx context.Context, vals ...any) error {
	b.args = append(b.args, vals...)
	b.count++
	if len(b.args) < fillBatchRows*b.cols {
		return nil
	}
	_, err := b.full.ExecContext(ctx, b.args...)
	b.args = b.args[:0]
	return err
}

// flush writes the rows left; the batch must begin again after it.
func (b *fillBatch) flush(ctx context.Context) error {
	defer func() {
		if b.full != nil {
			b.full.Close()
			b.full = nil
		}
	}()
	if len(b.args) == 0 {
		return nil
	}
	_, err := b.tx.ExecContext(ctx, b.query(len(b.args)/b.cols), b.args...)
	b.args = b.args[:0]
	return err
}

// fillPlayer is a filled account as the fill needs it.
type fillPlayer struct {
	id       int64
	name     string
	strength float64 // Elo-like points above the average
	joined   int64   // unix seconds
	games    int
	rating   map[string]glicko2.Rating
	rated    map[string]int
	last     map[string]int64
}

// Fill builds a database for measurement at path, which must not exist
// yet or hold no game: opt.Games games between Games/10 players (a few
// with thousands of games, most with a handful), each a replay of a game
// played through its engine (so every game verifies), with ratings and
// rating changes, dates over the years, tournaments, and about 2% of the
// games in progress. It writes in large transactions without waiting for
// the disk after each (synchronous=OFF) and with the foreign keys unchecked: a machine that stops mid-way
// leaves a database to throw away, never a server's. The database is
// analysed at the end.
// Errors: a database that already holds games; the context's.
func Fill(ctx context.Context, path string, opt FillOptions) (FillResult, error) {
	var res FillResult
	if opt.Games < 1 || opt.PasswordHash == "" {
		return res, errors.New("db: fill: want at least one game and a password hash")
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	if opt.Years <= 0 {
		opt.Years = 5
	}
	d, err := Open(ctx, path) // creates the file and migrates it
	if err != nil {
		return res, err
	}
	d.Close()
	w, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		return res, fmt.Errorf("db: fill: %w", err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	var n int
	if err := w.QueryRowContext(ctx, `SELECT COUNT(*) FROM games`).Scan(&n); err != nil {
		return res, fmt.Errorf("db: fill: %w", err)
	} else if n > 0 {
		return res, fmt.Errorf("db: fill: %s already holds %d games", path, n)
	}
	// The rows go in by table in batches, not each after what it refers
	// to: the foreign keys are checked by the fill's test instead.
	for _, p := range []string{`PRAGMA synchronous = OFF`, `PRAGMA foreign_keys = OFF`} {
		if _, err := w.ExecContext(ctx, p); err != nil {
			return res, fmt.Errorf("db: fill: %w", err)
		}
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x7e4c))
	pool, err := fillPool(rng, 48)
	if err != nil {
		return res, err
	}
	f := &filler{opt: opt, rng: rng, pool: pool, w: w}
	if err := f.run(ctx); err != nil {
		return res, err
	}
	res = f.res
	for _, t := range analysedTables {
		if _, err := w.ExecContext(ctx, `ANALYZE `+t); err != nil {
			return res, fmt.Errorf("db: fill: analyze: %w", err)
		}
	}
	if _, err := w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return res, fmt.Errorf("db: fill: checkpoint: %w", err)
	}
	return res, nil
}

// filler is one Fill under way.
type filler struct {
	opt     FillOptions
	rng     *rand.Rand
	pool    []fillRecord
	w       *sql.DB
	players []*fillPlayer
	res     FillResult
	nextID  struct{ user, match, game, tournament int64 }
	batches struct{ users, matches, games, moves, changes, ratings, tournaments, entrants, pairings *fillBatch }
	inTx    int
	tx      *sql.Tx
}

// fillGame is one game to store.
type fillGame struct {
	rec        *fillRecord
	players    [2]*fillPlayer // by side
	created    int64
	ended      int64 // 0: in progress
	plies      int   // moves stored (all of rec.moves when finished)
	tournament int64
	rated      bool
}

func (f *filler) all() []*fillBatch {
	b := &f.batches
	return []*fillBatch{b.users, b.matches, b.games, b.moves, b.changes, b.ratings, b.tournaments, b.entrants, b.pairings}
}

func (f *filler) begin(ctx context.Context) error {
	tx, err := f.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("db: fill: %w", err)
	}
	f.tx = tx
	for _, b := range f.all() {
		if err := b.begin(ctx, tx); err != nil {
			tx.Rollback()
			return fmt.Errorf("db: fill: %w", err)
		}
	}
	return nil
}

func (f *filler) commit(ctx context.Context) error {
	for _, b := range f.all() {
		if err := b.flush(ctx); err != nil {
			f.tx.Rollback()
			return fmt.Errorf("db: fill: %w", err)
		}
	}
	if err := f.tx.Commit(); err != nil {
		return fmt.Errorf("db: fill: %w", err)
	}
	f.tx = nil
	return nil
}

func (f *filler) run(ctx context.Context) error {
	b := &f.batches
	b.users = newFillBatch("users", "id", "name", "password_hash", "created_at", "is_admin")
	b.matches = newFillBatch("matches", "id", "game", "variant", "player0_id", "player1_id", "days_per_move", "seed", "status",
		"winner", "total0", "total1", "created_at", "ended_at", "tournament_id")
	b.games = newFillBatch("games", "id", "match_id", "number", "game", "variant", "swapped", "side0_id", "side1_id", "seed",
		"start_state", "state", "ply", "to_move", "status", "winner", "score0", "score1", "reason", "days_per_move", "deadline",
		"last_move", "created_at", "updated_at", "ended_at", "turn_started", "turn_ply")
	b.moves = newFillBatch("moves", "game_id", "ply", "side", "move", "created_at")
	b.changes = newFillBatch("rating_changes", "game_id", "side", "user_id", "rating_before", "rd_before", "rating_after", "rd_after", "game", "at")
	b.ratings = newFillBatch("ratings", "user_id", "game", "rating", "rd", "volatility", "games", "updated_at")
	b.tournaments = newFillBatch("tournaments", "id", "name", "organiser_id", "game", "variant", "format", "rounds", "min_players",
		"max_players", "days_per_move", "seed", "status", "round", "created_at", "started_at", "ended_at")
	b.entrants = newFillBatch("tournament_entrants", "tournament_id", "user_id", "rating", "joined_at")
	b.pairings = newFillBatch("tournament_pairings", "tournament_id", "round", "board", "leg", "side0_id", "side1_id", "match_id", "points0")
	for _, q := range []struct {
		dst *int64
		sql string
	}{{&f.nextID.user, `SELECT COALESCE(MAX(id), 0) + 1 FROM users`}, {&f.nextID.match, `SELECT COALESCE(MAX(id), 0) + 1 FROM matches`},
		{&f.nextID.game, `SELECT COALESCE(MAX(id), 0) + 1 FROM games`}, {&f.nextID.tournament, `SELECT COALESCE(MAX(id), 0) + 1 FROM tournaments`}} {
		if err := f.w.QueryRowContext(ctx, q.sql).Scan(q.dst); err != nil {
			return fmt.Errorf("db: fill: %w", err)
		}
	}
	if err := f.begin(ctx); err != nil {
		return err
	}
	now := f.opt.Now.Unix()
	span := int64(f.opt.Years * 365 * 86400)
	start := now - span
	users := max(2, f.opt.Games/10)
	for i := range users {
		p := &fillPlayer{id: f.nextID.user, strength: f.rng.NormFloat64() * 200, rating: map[string]glicko2.Rating{},
			rated: map[string]int{}, last: map[string]int64{}}
		f.nextID.user++
		p.name = fillName(i)
		admin := i == users/2 // an ordinary player
		if admin {
			p.name = "admin"
		}
		// Players join over the years, more of them lately, as the games.
		p.joined = start + int64(float64(span)*math.Sqrt(float64(i)/float64(users))) - 86400
		f.players = append(f.players, p)
		if err := b.users.add(ctx, p.id, p.name, f.opt.PasswordHash, p.joined, admin); err != nil {
			return fmt.Errorf("db: fill: %w", err)
		}
	}
	f.res.Users = users
	active := f.opt.Games / 50
	finished := f.opt.Games - active
	done := 0
	for done < finished {
		if err := ctx.Err(); err != nil {
			f.tx.Rollback()
			return err
		}
		// The games of the first years are fewer: game k of n starts at
		// start + span·√(k/n), and ends within a few weeks.
		at := start + int64(float64(span)*math.Sqrt(float64(done)/float64(finished)))
		var err error
		if done%1000 == 500 && finished-done > 2000 {
			var n int
			n, err = f.tournament(ctx, at, min(now-60*86400, at))
			done += n
		} else {
			err = f.game(ctx, &fillGame{created: min(at, now-60*86400)}, f.pair(at))
			done++
		}
		if err != nil {
			f.tx.Rollback()
			return err
		}
		if err := f.maybeCommit(ctx, done); err != nil {
			return err
		}
	}
	for i := range active {
		at := now - int64(f.rng.Float64()*30*86400)
		if err := f.game(ctx, &fillGame{created: at, ended: -1}, f.pair(now)); err != nil {
			f.tx.Rollback()
			return err
		}
		if err := f.maybeCommit(ctx, done+i+1); err != nil {
			return err
		}
	}
	for _, p := range f.players {
		for game, r := range p.rating {
			if err := b.ratings.add(ctx, p.id, game, r.Rating, r.RD, r.Volatility, p.rated[game], p.last[game]); err != nil {
				f.tx.Rollback()
				return fmt.Errorf("db: fill: %w", err)
			}
		}
		if p.games > f.res.HeaviestGames {
			f.res.Heaviest, f.res.HeaviestGames = p.name, p.games
		}
	}
	if err := f.commit(ctx); err != nil {
		return err
	}
	// The triggers that keep these from the games ran when a game's
	// player or match may not have been stored yet: they are set once
	// more from every game, as the migration that added them did.
	for _, q := range []string{
		`UPDATE users SET last_played = x.at FROM (
			SELECT user_id, MAX(at) AS at FROM (
				SELECT side0_id AS user_id, updated_at AS at FROM games UNION ALL SELECT side1_id, updated_at FROM games
			) GROUP BY user_id) AS x
			WHERE x.user_id = users.id`,
		`UPDATE games SET match_variant = (SELECT m.variant FROM matches m WHERE m.id = games.match_id)
			WHERE variant != (SELECT m.variant FROM matches m WHERE m.id = games.match_id)`,
	} {
		if _, err := f.w.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("db: fill: %w", err)
		}
	}
	return nil
}

// maybeCommit commits every 5,000 games and tells the progress.
func (f *filler) maybeCommit(ctx context.Context, done int) error {
	f.inTx++
	if f.inTx < 5000 {
		return nil
	}
	f.inTx = 0
	if err := f.commit(ctx); err != nil {
		return err
	}
	if f.opt.Progress != nil {
		f.opt.Progress(done)
	}
	return f.begin(ctx)
}

// fillName is the i-th player's name: a first name and a number.
func fillName(i int) string {
	names := [...]string{"ada", "bruno", "chloe", "dmitri", "elena", "farid", "greta", "hugo", "ines", "jonas", "kaori", "luis",
		"mara", "nils", "olga", "pedro", "quentin", "rosa", "sven", "tomas", "ugo", "vera", "wen", "xavier", "yara", "zoe"}
	return fmt.Sprintf("%s%d", names[i%len(names)], i)
}

// pick draws a player who has joined by at: a few players play a great
// many games (the i-th of n by density ∝ (i/n)^(-1/2): the first
// hundredth of a percent play one game in a hundred, thousands each in a
// million games), most a handful.
func (f *filler) pick(at int64) *fillPlayer {
	n := len(f.players)
	// Those who joined by at are a prefix of the players.
	joined := max(2, sort.Search(n, func(i int) bool { return f.players[i].joined > at }))
	u := f.rng.Float64()
	return f.players[min(joined-1, int(float64(joined)*u*u))]
}

func (f *filler) pair(at int64) [2]*fillPlayer {
	a := f.pick(at)
	b := f.pick(at)
	for b == a {
		b = f.players[f.rng.IntN(len(f.players))]
	}
	return [2]*fillPlayer{a, b}
}

// game stores g between players (the sides decided here) and its moves,
// ratings and match.
func (f *filler) game(ctx context.Context, g *fillGame, players [2]*fillPlayer) error {
	b := &f.batches
	g.rec = &f.pool[f.rng.IntN(len(f.pool))]
	rec := g.rec
	// The stronger player tends to win: who wins is drawn by strength,
	// and put on the side that won the recorded game.
	p0 := 1 / (1 + math.Pow(10, (players[1].strength-players[0].strength)/400))
	winner := 0
	if f.rng.Float64() >= p0 {
		winner = 1
	}
	if rec.result.Winner == rules.Side1 {
		winner = 1 - winner
	}
	g.players = [2]*fillPlayer{players[winner], players[1-winner]}
	g.rated = g.tournament != 0 || f.rng.IntN(10) < 8
	// Correspondence: a move every few hours to two days.
	perMove := int64(1800 + f.rng.IntN(48*3600))
	gid, mid := f.nextID.game, f.nextID.match
	f.nextID.game++
	f.nextID.match++
	key := rec.engine.Key()
	state, status, toMove := rec.final, "finished", -1
	var winnerCol, matchWinner any
	score := rec.result.Score
	reason := string(rec.result.Reason)
	var total [2]int
	g.plies = len(rec.moves)
	// A finished game ended before now: a long one was played faster.
	if late := g.created + int64(g.plies+1)*perMove; late > f.opt.Now.Unix() {
		perMove = max(1, (f.opt.Now.Unix()-g.created)/int64(g.plies+1))
	}
	ended := g.created + int64(g.plies+1)*perMove
	var endedCol any = ended
	matchStatus := "finished"
	if g.ended < 0 { // in progress
		g.plies = f.rng.IntN(max(1, len(rec.moves)))
		st, err := rec.engine.Decode(rec.variant, rec.start)
		if err != nil {
			return fmt.Errorf("db: fill: %w", err)
		}
		for _, m := range rec.moves[:g.plies] {
			if st, err = st.Apply(m); err != nil {
				return fmt.Errorf("db: fill: %w", err)
			}
		}
		state, status, toMove, reason = st.Encode(), "active", int(st.ToMove()), ""
		score = st.Result().Score
		endedCol, matchStatus = nil, "active"
		perMove = max(60, (f.opt.Now.Unix()-g.created)/int64(g.plies+1))
		ended = 0
	} else {
		winnerCol = int(rec.result.Winner)
		step := rec.engine.NextInMatch(rec.variant, []rules.MatchGame{{Spec: rec.spec, Result: rec.result}}, rec.seed)
		matchWinner, total = step.Winner, step.Totals
	}
	last := ""
	if g.plies > 0 {
		last = rec.moves[g.plies-1]
	}
	updated := g.created + int64(g.plies)*perMove
	deadline := updated + 3*86400
	if err := b.matches.add(ctx, mid, key, rec.variant, g.players[0].id, g.players[1].id, 3, rec.seed, matchStatus,
		matchWinner, total[0], total[1], g.created, endedCol, nullID(g.tournament)); err != nil {
		return fmt.Errorf("db: fill: %w", err)
	}
	if err := b.games.add(ctx, gid, mid, 1, key, rec.spec.Variant, false, g.players[0].id, g.players[1].id, rec.seed,
		rec.start, state, g.plies, toMove, status, winnerCol, score[0], score[1], reason, 3, deadline,
		last, g.created, updated, endedCol, updated, g.plies); err != nil {
		return fmt.Errorf("db: fill: %w", err)
	}
	for i, m := range rec.moves[:g.plies] {
		if err := b.moves.add(ctx, gid, i+1, int(rec.sides[i]), m, g.created+int64(i+1)*perMove); err != nil {
			return fmt.Errorf("db: fill: %w", err)
		}
	}
	for _, p := range g.players {
		p.games++
	}
	f.res.Games++
	f.res.Moves += g.plies
	if ended == 0 {
		f.res.Active++
		return nil
	}
	if !g.rated {
		return nil
	}
	f.res.Rated++
	var before [2]glicko2.Rating
	for i, p := range g.players {
		r, ok := p.rating[key]
		if !ok {
			r = glicko2.New()
		}
		before[i] = r
	}
	s := glicko2.Draw
	switch rec.result.Winner {
	case rules.Side0:
		s = glicko2.Win
	case rules.Side1:
		s = glicko2.Loss
	}
	a, c := glicko2.Game(before[0], before[1], s, glicko2.DefaultTau)
	for i, after := range [2]glicko2.Rating{a, c} {
		p := g.players[i]
		p.rating[key] = after
		p.rated[key]++
		p.last[key] = ended
		if err := b.changes.add(ctx, gid, i, p.id, before[i].Rating, before[i].RD, after.Rating, after.RD, key, ended); err != nil {
			return fmt.Errorf("db: fill: %w", err)
		}
	}
	return nil
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// tournament stores a finished Swiss tournament started at at: 8 to 32
// players (one in twenty: 64 to 256), a round a week, and returns how many
// games it stored.
func (f *filler) tournament(ctx context.Context, at, latest int64) (int, error) {
	b := &f.batches
	size := 8 << f.rng.IntN(3)
	if f.rng.IntN(20) == 0 {
		size = 64 << f.rng.IntN(3)
	}
	seen := map[*fillPlayer]bool{}
	var entrants []*fillPlayer
	for tries := 0; len(entrants) < size && tries < size*20; tries++ {
		if p := f.pick(at); !seen[p] {
			seen[p] = true
			entrants = append(entrants, p)
		}
	}
	size = len(entrants) &^ 1
	entrants = entrants[:size]
	if size < 2 {
		return 0, nil
	}
	rounds := 1
	for 1<<rounds < size {
		rounds++
	}
	tid := f.nextID.tournament
	f.nextID.tournament++
	f.res.Tournaments++
	created := min(at, latest) - 14*86400
	started := created + 7*86400
	ended := started + int64(rounds)*7*86400
	rec := &f.pool[f.rng.IntN(len(f.pool))]
	name := fmt.Sprintf("%s cup %d", strings.ToUpper(rec.engine.Key()[:1])+rec.engine.Key()[1:], tid)
	if err := b.tournaments.add(ctx, tid, name, entrants[0].id, rec.engine.Key(), rec.variant, "swiss", rounds, 4, size, 3,
		rec.seed, "finished", rounds, created, started, ended); err != nil {
		return 0, fmt.Errorf("db: fill: %w", err)
	}
	for _, p := range entrants {
		r := 1500.0
		if pr, ok := p.rating[rec.engine.Key()]; ok {
			r = pr.Rating
		}
		if err := b.entrants.add(ctx, tid, p.id, r, created); err != nil {
			return 0, fmt.Errorf("db: fill: %w", err)
		}
	}
	n := 0
	for round := 1; round <= rounds; round++ {
		order := slices.Clone(entrants)
		f.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for board := 1; board <= size/2; board++ {
			g := &fillGame{created: started + int64(round-1)*7*86400, tournament: tid}
			// The tournament's own game and variant.
			for g.rec == nil || g.rec.engine.Key() != rec.engine.Key() || g.rec.variant != rec.variant {
				g.rec = &f.pool[f.rng.IntN(len(f.pool))]
			}
			pair := [2]*fillPlayer{order[2*board-2], order[2*board-1]}
			mid := f.nextID.match
			if err := f.tournamentGame(ctx, g, pair); err != nil {
				return 0, err
			}
			points := 0.5
			switch {
			case g.rec.result.Winner == rules.NoSide:
			case g.players[int(g.rec.result.Winner)] == pair[0]:
				points = 1
			default:
				points = 0
			}
			if err := b.pairings.add(ctx, tid, round, board, 1, pair[0].id, pair[1].id, mid, points); err != nil {
				return 0, fmt.Errorf("db: fill: %w", err)
			}
			n++
		}
	}
	return n, nil
}

// tournamentGame is game with the record drawn by the tournament.
func (f *filler) tournamentGame(ctx context.Context, g *fillGame, pair [2]*fillPlayer) error {
	keep := g.rec
	pool := f.pool
	f.pool = []fillRecord{*keep}
	defer func() { f.pool = pool }()
	err := f.game(ctx, g, pair)
	g.rec = keep
	return err
}
