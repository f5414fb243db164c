package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/trench-games/trench/rules"
)

// Game is one game as stored: its players by side, its full state (never
// shown as such: views get rules.State.View) and its result once finished.
type Game struct {
	ID           int64
	MatchID      int64
	Number       int // 1, 2, 3 within the match
	Game         string
	Variant      string // this game's variant
	MatchVariant string // the variant the match was created with
	Swapped      bool   // match player 0 plays side 1
	Side         [2]Player
	Seed         int64
	StartState   string
	State        string
	Ply          int
	TurnPly      int        // the ply at which the side to move began its turn (several moves in the card game)
	ToMove       rules.Side // NoSide once finished
	Status       string     // "active" or "finished"
	Winner       rules.Side // NoSide for a draw (or while active)
	Score        [2]int
	Reason       rules.Reason
	DaysPerMove  int
	Clock        TimeControl
	Bank         [2]time.Duration // each side's bank at the start of its turn (time bank only)
	TurnStarted  time.Time        // when the side to move started its turn
	Deadline     time.Time        // the side to move loses on time after it (a vacation moves it)
	ArmisticeBy  rules.Side       // NoSide when no offer is open
	// ArmisticeDeclined is the side whose armistice offer the opponent
	// declined, which may not offer again until it has moved; NoSide when
	// none.
	ArmisticeDeclined rules.Side
	// Takebacks reports whether the game's match allows takebacks (the
	// challenge it came from said so; never in the card game).
	Takebacks bool
	// TakenBack counts the moves taken back in this game so far: a page
	// carries it with its move forms (Play.TakenBack), since a takeback
	// brings the game back to a ply it had before.
	TakenBack int
	// TakebackBy is the side asking to take back its last move; NoSide
	// when no request is open. The opponent's next move voids it.
	TakebackBy rules.Side
	// TakebackDeclined is the ply of the move whose takeback the opponent
	// declined (it may not be asked about again); 0 when none.
	TakebackDeclined int
	LastMove         string
	CreatedAt        time.Time
	UpdatedAt        time.Time
	EndedAt          time.Time
}

// Finished reports whether the game has ended.
func (g Game) Finished() bool { return g.Status == "finished" }

// players returns the ids of g's two players, by side.
func (g Game) players() [2]int64 { return [2]int64{g.Side[0].ID, g.Side[1].ID} }

// Aborted reports whether the game ended by an armistice or a resignation
// before both sides had moved (at ply 0 or 1): it changes no rating and
// counts in no record. A player who lets the first move's time run out
// still loses on time.
func (g Game) Aborted() bool { return g.Finished() && aborts(g.Ply, g.Reason) }

// aborts reports whether a game ending at ply for reason is aborted (see
// Game.Aborted).
func aborts(ply int, r rules.Reason) bool {
	return ply < 2 && (r == rules.ReasonArmistice || r == rules.ReasonResigned)
}

// notAborted is the SQL condition on the games table matching Game.Aborted's
// opposite for finished games.
const notAborted = `NOT (ply < 2 AND reason IN ('` + string(rules.ReasonArmistice) + `', '` + string(rules.ReasonResigned) + `'))`

// SideOf returns the side userID plays in g, or NoSide.
func (g Game) SideOf(userID int64) rules.Side {
	switch userID {
	case 0:
		return rules.NoSide
	case g.Side[0].ID:
		return rules.Side0
	case g.Side[1].ID:
		return rules.Side1
	}
	return rules.NoSide
}

// Engine returns the game's engine.
func (g Game) Engine() (rules.Engine, error) {
	e, ok := rules.Lookup(g.Game)
	if !ok {
		return nil, fmt.Errorf("db: game %d: unknown game %q", g.ID, g.Game)
	}
	return e, nil
}

// Decode returns the game's current state.
func (g Game) Decode() (rules.State, error) {
	e, err := g.Engine()
	if err != nil {
		return nil, err
	}
	st, err := e.Decode(g.Variant, g.State)
	if err != nil {
		return nil, fmt.Errorf("db: game %d: stored state: %w", g.ID, err)
	}
	return st, nil
}

// Move is one stored move.
type Move struct {
	Ply       int // 1 for the first move
	Side      rules.Side
	Move      string
	CreatedAt time.Time
}

// gameMoving are the columns of a game's own row that playing it can
// change, in the order movingColumns.dest receives them.
const gameMoving = `g.state, g.ply, g.to_move, g.status, COALESCE(g.winner, -1), g.score0, g.score1, g.reason,
	g.days_per_move, g.deadline, COALESCE(g.armistice_by, -1), g.last_move, g.updated_at, g.ended_at,
	g.clock, g.bank_add_s, g.bank_max_s, g.bank0_s, g.bank1_s, g.turn_started, g.turn_ply,
	COALESCE(g.armistice_declined, -1), COALESCE(g.takeback_by, -1), COALESCE(g.takeback_declined, 0), g.taken_back`

const gameSelect = `SELECT g.id, g.match_id, g.number, g.game, g.variant, g.swapped,
	g.side0_id, u0.name, g.side1_id, u1.name, g.seed, g.start_state, g.created_at, m.variant, m.bank_initial_s,
	COALESCE((SELECT c.takebacks FROM challenges c WHERE c.match_id = g.match_id ORDER BY c.id LIMIT 1), 0),
	` + gameMoving + `
	FROM games g JOIN users u0 ON u0.id = g.side0_id JOIN users u1 ON u1.id = g.side1_id JOIN matches m ON m.id = g.match_id `

// gameRefresh reads again what playing game ?1 can change (gameMoving).
const gameRefresh = `SELECT ` + gameMoving + ` FROM games g WHERE g.id = ?`

// movingColumns receives a game's gameMoving columns and sets them on a
// Game.
type movingColumns struct {
	toMove, winner, armistice, declined, takeback int
	deadline, updated, ba, bm, b0, b1, turn       int64
	ended                                         sql.NullInt64
	reason                                        string
}

// dest are the scan destinations of gameMoving, in its order: into g and
// into c, which set finishes.
func (c *movingColumns) dest(g *Game) []any {
	return []any{&g.State, &g.Ply, &c.toMove, &g.Status, &c.winner, &g.Score[0], &g.Score[1], &c.reason,
		&g.DaysPerMove, &c.deadline, &c.armistice, &g.LastMove, &c.updated, &c.ended,
		&g.Clock.Kind, &c.ba, &c.bm, &c.b0, &c.b1, &c.turn, &g.TurnPly,
		&c.declined, &c.takeback, &g.TakebackDeclined, &g.TakenBack}
}

// set converts what dest scanned into g's fields.
func (c *movingColumns) set(g *Game) {
	g.Clock.DaysPerMove = 0
	if g.Clock.Kind == "move" {
		g.Clock.DaysPerMove = g.DaysPerMove
	}
	g.Clock.BankAdd, g.Clock.BankMax = secs(c.ba), secs(c.bm)
	g.Bank = [2]time.Duration{secs(c.b0), secs(c.b1)}
	g.TurnStarted = fromUnix(c.turn)
	g.ToMove, g.Winner, g.ArmisticeBy = rules.Side(c.toMove), rules.Side(c.winner), rules.Side(c.armistice)
	g.ArmisticeDeclined, g.TakebackBy = rules.Side(c.declined), rules.Side(c.takeback)
	g.Reason = rules.Reason(c.reason)
	g.Deadline, g.UpdatedAt, g.EndedAt = fromUnix(c.deadline), fromUnix(c.updated), fromNullUnix(c.ended)
}

func scanGame(row interface{ Scan(...any) error }) (Game, error) {
	var g Game
	var c movingColumns
	var created, bi int64
	dest := append([]any{&g.ID, &g.MatchID, &g.Number, &g.Game, &g.Variant, &g.Swapped,
		&g.Side[0].ID, &g.Side[0].Name, &g.Side[1].ID, &g.Side[1].Name, &g.Seed, &g.StartState, &created, &g.MatchVariant, &bi,
		&g.Takebacks}, c.dest(&g)...)
	err := row.Scan(dest...)
	c.set(&g)
	g.Clock.BankInitial = secs(bi)
	g.CreatedAt = fromUnix(created)
	return g, err
}

// refreshGame reads again, within tx, what playing g can have changed
// since g was read (gameMoving): its players, its match and its start
// stay as they were. Errors: KindNotFound.
func refreshGame(ctx context.Context, q queryer, g Game) (Game, error) {
	var c movingColumns
	err := q.QueryRowContext(ctx, gameRefresh, g.ID).Scan(c.dest(&g)...)
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, Errorf(KindNotFound, "No such game.")
	}
	if err != nil {
		return Game{}, fmt.Errorf("db: game %d: %w", g.ID, err)
	}
	c.set(&g)
	return g, nil
}

func gameByID(ctx context.Context, q queryer, id int64) (Game, error) {
	g, err := scanGame(q.QueryRowContext(ctx, gameSelect+`WHERE g.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, Errorf(KindNotFound, "No such game.")
	}
	if err != nil {
		return Game{}, fmt.Errorf("db: game %d: %w", id, err)
	}
	return g, nil
}

// Game returns game id. Errors: KindNotFound.
func (db *DB) Game(ctx context.Context, id int64) (Game, error) {
	return db.cachedGameByID(ctx, id)
}

// Moves returns the moves of game id in order, shared with other readers:
// the caller must not change its elements (appending to it is safe).
func (db *DB) Moves(ctx context.Context, gameID int64) ([]Move, error) {
	return db.cachedMoves(ctx, gameID)
}

// readMoves reads the moves of game id in order from SQLite.
func (db *DB) readMoves(ctx context.Context, gameID int64) ([]Move, error) {
	return movesOf(ctx, db.read, gameID)
}

func movesOf(ctx context.Context, q queryer, gameID int64) ([]Move, error) {
	rows, err := q.QueryContext(ctx, `SELECT ply, side, move, created_at FROM moves WHERE game_id = ? ORDER BY ply`, gameID)
	if err != nil {
		return nil, fmt.Errorf("db: moves: %w", err)
	}
	defer rows.Close()
	var out []Move
	for rows.Next() {
		var m Move
		var side int
		var created int64
		if err := rows.Scan(&m.Ply, &side, &m.Move, &created); err != nil {
			return nil, err
		}
		m.Side, m.CreatedAt = rules.Side(side), fromUnix(created)
		out = append(out, m)
	}
	return out, rows.Err()
}

func (db *DB) games(ctx context.Context, where string, args ...any) ([]Game, error) {
	rows, err := db.read.QueryContext(ctx, gameSelect+where, args...)
	if err != nil {
		return nil, fmt.Errorf("db: games: %w", err)
	}
	defer rows.Close()
	var out []Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// ActiveGames returns userID's games in progress: the ones where it is
// their turn first, then by deadline.
// What it returns is remembered until the next commit but the background
// work's (remember, playGen), and shared: the caller must not change it
// (a copy of a heavy player's 200 games was a twentieth of their
// dashboard).
func (db *DB) ActiveGames(ctx context.Context, userID int64) ([]Game, error) {
	return remember(ctx, db, &db.log.playGen, fmt.Sprintf("active %d", userID), same[[]Game], func(ctx context.Context) ([]Game, error) {
		return db.activeGamesRead(ctx, userID)
	})
}

// activeGamesRead reads what ActiveGames returns, clipped to its length
// so that a caller's append never writes into what others share.
func (db *DB) activeGamesRead(ctx context.Context, userID int64) ([]Game, error) {
	gs, err := db.games(ctx, `WHERE g.status = 'active' AND (g.side0_id = ?1 OR g.side1_id = ?1)
		ORDER BY (CASE g.to_move WHEN 0 THEN g.side0_id ELSE g.side1_id END) = ?1 DESC, g.deadline, g.id`, userID)
	return slices.Clip(gs), err
}

// FinishedGames returns userID's finished games, the latest first (at most
// limit).
// What it returns is remembered until a commit changes what the settled
// reads show (remember).
func (db *DB) FinishedGames(ctx context.Context, userID int64, limit int) ([]Game, error) {
	return remember(ctx, db, &db.log.settledGen, fmt.Sprintf("finished %d %d", userID, limit), cloneSlice[Game], func(ctx context.Context) ([]Game, error) {
		return db.finishedGamesRead(ctx, userID, limit)
	})
}

// finishedGamesRead reads what FinishedGames returns.
func (db *DB) finishedGamesRead(ctx context.Context, userID int64, limit int) ([]Game, error) {
	// The latest of each side, each read in order from its index, so
	// that a player with thousands of games costs as little as one with
	// ten.
	return db.games(ctx, `WHERE g.id IN (
		SELECT id FROM (SELECT id FROM games WHERE side0_id = ?1 AND status = 'finished' ORDER BY ended_at DESC, id DESC LIMIT ?2)
		UNION ALL
		SELECT id FROM (SELECT id FROM games WHERE side1_id = ?1 AND status = 'finished' ORDER BY ended_at DESC, id DESC LIMIT ?2))
		ORDER BY g.ended_at DESC, g.id DESC LIMIT ?2`, userID, limit)
}

// MatchGames returns the games of match id in order.
func (db *DB) MatchGames(ctx context.Context, matchID int64) ([]Game, error) {
	return db.games(ctx, `WHERE g.match_id = ? ORDER BY g.number`, matchID)
}

// NextWaiting returns the id of the active game other than exceptID that
// waits for userID's move with the earliest deadline, or 0 when none does.
func (db *DB) NextWaiting(ctx context.Context, userID, exceptID int64) (int64, error) {
	return db.cachedNextWaiting(ctx, userID, exceptID)
}

// TurnCount returns how many active games wait for userID's move.
func (db *DB) TurnCount(ctx context.Context, userID int64) (int, error) {
	return db.cachedTurnCount(ctx, userID)
}

// readWaiting returns userID's active games waiting for their move, read
// from SQLite: game id → deadline (unix seconds).
func (db *DB) readWaiting(ctx context.Context, userID int64) (map[int64]int64, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT id, deadline FROM games WHERE status = 'active'
		AND ((to_move = 0 AND side0_id = ?1) OR (to_move = 1 AND side1_id = ?1))`, userID)
	if err != nil {
		return nil, fmt.Errorf("db: games waiting: %w", err)
	}
	defer rows.Close()
	w := map[int64]int64{}
	for rows.Next() {
		var id, deadline int64
		if err := rows.Scan(&id, &deadline); err != nil {
			return nil, fmt.Errorf("db: games waiting: %w", err)
		}
		w[id] = deadline
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("db: games waiting: %w", err)
	}
	return w, nil
}

// matchRow is what the flow needs of a match.
type matchRow struct {
	ID      int64
	Game    string
	Variant string
	Player  [2]int64
	Clock   TimeControl
	Seed    int64
}

func matchRowByID(ctx context.Context, q queryer, id int64) (matchRow, error) {
	var m matchRow
	var bi, ba, bm int64
	err := q.QueryRowContext(ctx, `SELECT id, game, variant, player0_id, player1_id, days_per_move, seed,
		clock, bank_initial_s, bank_add_s, bank_max_s
		FROM matches WHERE id = ?`, id).Scan(&m.ID, &m.Game, &m.Variant, &m.Player[0], &m.Player[1], &m.Clock.DaysPerMove, &m.Seed,
		&m.Clock.Kind, &bi, &ba, &bm)
	m.Clock.BankInitial, m.Clock.BankAdd, m.Clock.BankMax = secs(bi), secs(ba), secs(bm)
	if m.Clock.Kind == "bank" {
		m.Clock.DaysPerMove = 0
	}
	if err != nil {
		return m, fmt.Errorf("db: match %d: %w", id, err)
	}
	return m, nil
}

// gameSeed derives game number's seed from the match seed (SplitMix64), so
// that every game of a match has its own deal.
func gameSeed(matchSeed int64, number int) int64 {
	z := uint64(matchSeed) + uint64(number)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return int64(z ^ (z >> 31))
}

// seconds and secs convert durations to and from the database's seconds.
func seconds(d time.Duration) int64 { return int64(d / time.Second) }

func secs(s int64) time.Duration { return time.Duration(s) * time.Second }

// startGame inserts game number of match m as spec says.
func startGame(ctx context.Context, tx *Tx, eng rules.Engine, m matchRow, number int, spec rules.GameSpec, now time.Time) (int64, error) {
	seed := gameSeed(m.Seed, number)
	st, err := eng.Start(spec, seed)
	if err != nil {
		return 0, fmt.Errorf("db: start game: %w", err)
	}
	side0, side1 := m.Player[0], m.Player[1]
	if spec.Swapped {
		side0, side1 = side1, side0
	}
	enc := st.Encode()
	bank := seconds(m.Clock.BankInitial)
	toMove := st.ToMove()
	mover := side0
	if toMove == rules.Side1 {
		mover = side1
	}
	dl, err := deadlineFor(ctx, tx, mover, now, now, m.Clock.allowance(m.Clock.BankInitial))
	if err != nil {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO games
		(match_id, number, game, variant, swapped, side0_id, side1_id, seed, start_state, state, ply, to_move,
		 days_per_move, deadline, created_at, updated_at, clock, bank_add_s, bank_max_s, bank0_s, bank1_s, turn_started)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		m.ID, number, m.Game, spec.Variant, spec.Swapped, side0, side1, seed, enc, enc, int(toMove),
		m.Clock.DaysPerMove, unix(dl), unix(now), unix(now), m.Clock.Kind, seconds(m.Clock.BankAdd), seconds(m.Clock.BankMax),
		bank, bank, unix(now))
	if err != nil {
		return 0, fmt.Errorf("db: insert game: %w", err)
	}
	return res.LastInsertId()
}

// Play is one submitted move: by UserID in game GameID, made against the
// position at Ply.
type Play struct {
	GameID int64
	UserID int64
	Ply    int
	Move   string
	// Message, when not blank, is sent to the opponent with the move, in
	// the same transaction (see SendMessage for what it may be).
	Message string
	// TakenBack, when not nil, is the game's Game.TakenBack on the page
	// the move was chosen on: if a move has been taken back since, the
	// position may differ although the ply is the same, and the move is
	// refused (KindConflict).
	TakenBack *int
}

// PlayMove applies p in one transaction guarded by p.Ply: past the
// game's deadline the clock rules apply first (settleClock: a vacation
// may have moved it, the vacation allowance may cover it, or the game ends
// on time and the move is refused); then the move is
// checked against the stored state, appended to the moves, and the game
// row updated only where its ply is still p.Ply. If the move ends the game
// the result is stored and the match goes on (the next game starts) or
// ends, in the same transaction. It returns the game after the move.
// Errors: KindNotFound; KindForbidden when userID does not play the game
// or it is not their turn; KindConflict for a finished game, a stale ply
// or a move taken back since (p.TakenBack); KindInvalid / KindIllegal for
// a malformed / illegal move.
func (db *DB) PlayMove(ctx context.Context, p Play, now time.Time) (Game, error) {
	return db.inGame(ctx, p.GameID, p.UserID, p.Ply, now, func(tx *Tx, g Game, st rules.State, side rules.Side) error {
		if p.TakenBack != nil && *p.TakenBack != g.TakenBack {
			return Errorf(KindConflict, "A move was taken back since the page you acted on: the position is not the one you saw. Nothing was changed; here is the current position.")
		}
		if side != g.ToMove {
			return Errorf(KindForbidden, "It is not your turn.")
		}
		if !now.Before(g.Deadline) {
			// Past the deadline the clock rules decide first, as the
			// once-a-minute ExpireGames would have.
			ended, err := db.settleClock(ctx, tx, g, now)
			if err != nil {
				return err
			}
			if ended {
				return commitThen{Errorf(KindConflict, "Your time ran out before this move: the game is over.")}
			}
		}
		next, err := applyMove(ctx, tx, g, st, side, p.Move, p.Message, now)
		if err != nil || next.Result().Over {
			return err
		}
		// The opponent may have planned a reply to this very move: it is
		// played now, in this transaction, as if they had sent it.
		return playConditional(ctx, tx, g, st, next, now)
	})
}

// applyMove applies move by side to game g in state st within tx: the
// move is appended, the clocks and the game row updated (guarded by
// g.Ply), and the game finished when the move ends it. It returns the
// state after the move.
func applyMove(ctx context.Context, tx *Tx, g Game, st rules.State, side rules.Side, move, message string, now time.Time) (rules.State, error) {
	// The clocks count whole seconds, as they are stored: the turn's
	// start is a whole second, and so is the moment its move ends it.
	now = now.Truncate(time.Second)
	next, err := st.Apply(move)
	if err != nil {
		return nil, err
	}
	userID := g.Side[side].ID
	ply := g.Ply + 1
	// The mover's clock before the move is kept with it: a takeback
	// restores it.
	if _, err := tx.ExecContext(ctx, `INSERT INTO moves (game_id, ply, side, move, created_at, bank_before_s, turn_started_before, turn_ply_before)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		g.ID, ply, int(side), move, unix(now), seconds(g.Bank[side]), unix(g.TurnStarted), g.TurnPly); err != nil {
		return nil, fmt.Errorf("db: insert move: %w", err)
	}
	tx.moveAppended(g.ID, Move{Ply: ply, Side: side, Move: move, CreatedAt: fromUnix(unix(now))})
	if err := messageWithMove(ctx, tx, g, side, ply, message, now); err != nil {
		return nil, err
	}
	res := next.Result()
	// Both players' vacations that reach into this turn, in one read.
	vs, err := turnVacations(ctx, tx, g, g.TurnStarted)
	if err != nil {
		return nil, err
	}
	// The mover is back if the server had put them on vacation; their
	// bank pays for the time the move took.
	if slices.ContainsFunc(vs[side], func(v Vacation) bool { return v.Open && v.Auto && v.End.After(now) }) {
		if err := endAutoVacation(ctx, tx, userID, now); err != nil {
			return nil, err
		}
		if vs, err = turnVacations(ctx, tx, g, g.TurnStarted); err != nil {
			return nil, err
		}
	}
	banks := g.Bank
	banks[side] = g.Clock.afterMove(g.Bank[side], used(g.TurnStarted, now, vs[side]))
	toMove := next.ToMove()
	turnPly := g.TurnPly
	if toMove != side {
		turnPly = ply // the turn passes
	}
	var dl time.Time
	if toMove.Valid() {
		// deadlineFor's, from the vacations read above: those that
		// end after now.
		ahead := slices.DeleteFunc(slices.Clone(vs[toMove]), func(v Vacation) bool { return !v.End.After(now) })
		dl = runsOut(now, now, g.Clock.allowance(banks[toMove]), ahead)
	}
	if err := updateGame(ctx, tx, g, now, `state = ?, ply = ?, to_move = ?, last_move = ?, deadline = ?, armistice_by = NULL, score0 = ?, score1 = ?,
		bank0_s = ?, bank1_s = ?, turn_started = ?, turn_ply = ?, takeback_by = NULL,
		armistice_declined = CASE WHEN armistice_declined = ? THEN NULL ELSE armistice_declined END`,
		next.Encode(), ply, int(toMove), move, unix(dl), res.Score[0], res.Score[1],
		seconds(banks[0]), seconds(banks[1]), unix(now), turnPly, int(side)); err != nil {
		return nil, err
	}
	if res.Over {
		g.Ply = ply
		return next, finishGame(ctx, tx, g, res, now)
	}
	return next, nil
}

// Resign ends game id as lost by userID (as the rules count a resignation).
// Errors: KindNotFound, KindForbidden (not a player), KindConflict
// (finished, or the game moved on since ply).
func (db *DB) Resign(ctx context.Context, gameID, userID int64, ply int, now time.Time) (Game, error) {
	return db.inGame(ctx, gameID, userID, ply, now, func(tx *Tx, g Game, st rules.State, side rules.Side) error {
		return finishGame(ctx, tx, g, st.Concede(side, false), now)
	})
}

// OfferArmistice records userID's offer to end game id by agreement; the
// next move by either side withdraws it. Errors: as Resign, KindInvalid
// for a game without armistice, and KindConflict when an offer is open or
// userID's last offer was declined and they have not moved since.
func (db *DB) OfferArmistice(ctx context.Context, gameID, userID int64, ply int, now time.Time) (Game, error) {
	return db.inGame(ctx, gameID, userID, ply, now, func(tx *Tx, g Game, st rules.State, side rules.Side) error {
		if err := armisticeAllowed(g); err != nil {
			return err
		}
		if g.ArmisticeBy == side {
			return Errorf(KindConflict, "You have already offered an armistice.")
		}
		if g.ArmisticeBy == side.Other() {
			return Errorf(KindConflict, "Your opponent has offered an armistice: accept or decline it.")
		}
		if g.ArmisticeDeclined == side {
			return Errorf(KindConflict, "Your opponent declined your armistice: you may offer again after your next move.")
		}
		return updateGame(ctx, tx, g, now, `armistice_by = ?`, int(side))
	})
}

// AnswerArmistice accepts (ending the game as the rules count an
// armistice: TRENCH counts the points, the card game draws) or declines
// the opponent's open armistice offer in game id; a declined offer is
// recorded (Game.ArmisticeDeclined) until its maker moves. Errors: as Resign, and
// KindConflict when no offer from the opponent is open.
func (db *DB) AnswerArmistice(ctx context.Context, gameID, userID int64, ply int, accept bool, now time.Time) (Game, error) {
	return db.inGame(ctx, gameID, userID, ply, now, func(tx *Tx, g Game, st rules.State, side rules.Side) error {
		if err := armisticeAllowed(g); err != nil {
			return err
		}
		if g.ArmisticeBy != side.Other() {
			return Errorf(KindConflict, "There is no armistice offer from your opponent to answer.")
		}
		if !accept {
			return updateGame(ctx, tx, g, now, `armistice_by = NULL, armistice_declined = ?`, int(side.Other()))
		}
		return finishGame(ctx, tx, g, st.Armistice(), now)
	})
}

func armisticeAllowed(g Game) error {
	e, err := g.Engine()
	if err != nil {
		return err
	}
	if !e.HasArmistice() {
		return Errorf(KindInvalid, "%s has no armistice.", Term(e.Title()))
	}
	return nil
}

// commitThen is an error an inGame callback returns when what it changed
// must stand (it is committed) while the action itself fails with err.
type commitThen struct{ err error }

func (e commitThen) Error() string { return e.err.Error() }
func (e commitThen) Unwrap() error { return e.err }

// inGame runs fn in one transaction on game id as userID, after checking
// that userID plays it, that it is active and that it is still at ply; the
// transaction may carry other games' changes too (groupWrite).
func (db *DB) inGame(ctx context.Context, id, userID int64, ply int, now time.Time,
	fn func(tx *Tx, g Game, st rules.State, side rules.Side) error) (Game, error) {
	return db.groupWrite(ctx, func(ctx context.Context, tx *Tx) (Game, error) {
		g, err := gameByID(ctx, tx, id)
		if err != nil {
			return Game{}, err
		}
		side := g.SideOf(userID)
		switch {
		case side == rules.NoSide:
			return Game{}, Errorf(KindForbidden, "You are not playing in this game.")
		case g.Finished():
			return Game{}, Errorf(KindConflict, "This game is over.")
		case g.Ply != ply:
			return Game{}, Errorf(KindConflict, "The game has moved on since the page you acted on (ply %d, now %d). Nothing was changed; here is the current position.", ply, g.Ply)
		}
		st, err := g.Decode()
		if err != nil {
			return Game{}, err
		}
		if err := fn(tx, g, st, side); err != nil {
			return Game{}, err
		}
		// Only the game's own row changed: its players, its match and
		// its start are as read above.
		g, err = refreshGame(ctx, tx, g)
		if err != nil {
			return Game{}, err
		}
		tx.gameRead(g)
		return g, nil
	})
}

// updateGame sets columns of g's row where its ply is still g.Ply and it
// is active; KindConflict when another change got there first.
func updateGame(ctx context.Context, tx *Tx, g Game, now time.Time, set string, args ...any) error {
	args = append(args, unix(now), g.ID, g.Ply)
	res, err := tx.ExecContext(ctx, `UPDATE games SET `+set+`, updated_at = ? WHERE id = ? AND ply = ? AND status = 'active'`, args...)
	if err != nil {
		return fmt.Errorf("db: update game %d: %w", g.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return Errorf(KindConflict, "The game has moved on; nothing was changed.")
	}
	return nil
}

// finishGame stores res as g's result and moves its match on: the next game
// starts, or the match ends with its result.
func finishGame(ctx context.Context, tx *Tx, g Game, res rules.Result, now time.Time) error {
	if err := updateGame(ctx, tx, g, now, `status = 'finished', to_move = -1, winner = ?, score0 = ?, score1 = ?, reason = ?, ended_at = ?, armistice_by = NULL`,
		int(res.Winner), res.Score[0], res.Score[1], string(res.Reason), unix(now)); err != nil {
		return err
	}
	m, err := matchRowByID(ctx, tx, g.MatchID)
	if err != nil {
		return err
	}
	eng, err := g.Engine()
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT variant, swapped, COALESCE(winner, -1), score0, score1, reason
		FROM games WHERE match_id = ? AND status = 'finished' ORDER BY number`, m.ID)
	if err != nil {
		return fmt.Errorf("db: match games: %w", err)
	}
	var played []rules.MatchGame
	for rows.Next() {
		var mg rules.MatchGame
		var winner int
		var reason string
		if err := rows.Scan(&mg.Spec.Variant, &mg.Spec.Swapped, &winner, &mg.Result.Score[0], &mg.Result.Score[1], &reason); err != nil {
			rows.Close()
			return err
		}
		mg.Result.Over, mg.Result.Winner, mg.Result.Reason = true, rules.Side(winner), rules.Reason(reason)
		played = append(played, mg)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	step := eng.NextInMatch(m.Variant, played, m.Seed)
	if !step.Done {
		// A match of several games is rated once, by its result, when
		// it ends: only the totals decide it.
		_, err := startGame(ctx, tx, eng, m, len(played)+1, step.Next, now)
		return err
	}
	switch {
	case len(played) == 1:
		if !aborts(g.Ply, res.Reason) { // an aborted game is not rated
			if err := rateGame(ctx, tx, g, res, now); err != nil {
				return err
			}
		}
	default:
		// The match's result, recorded with its last game: the side of
		// that game the match's winner played won.
		mres := rules.Result{Over: true, Winner: rules.NoSide}
		if step.Winner == 0 || step.Winner == 1 {
			mres.Winner = g.SideOf(m.Player[step.Winner])
		}
		if err := rateGame(ctx, tx, g, mres, now); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE matches SET status = 'finished', winner = ?, total0 = ?, total1 = ?, ended_at = ?
		WHERE id = ? AND status = 'active'`, step.Winner, step.Totals[0], step.Totals[1], unix(now), m.ID); err != nil {
		return fmt.Errorf("db: finish match: %w", err)
	}
	return tournamentMatchDone(ctx, tx, m.ID, step.Winner, now)
}

// ExpireGames ends on time every active game whose deadline is before now
// (the side to move loses as the rules count a timeout) and returns how
// many it ended. Each game ends in its own transaction.
func (db *DB) ExpireGames(ctx context.Context, now time.Time) (int, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT id, ply FROM games WHERE status = 'active' AND deadline < ?`, unix(now))
	if err != nil {
		return 0, fmt.Errorf("db: expired games: %w", err)
	}
	type due struct {
		id  int64
		ply int
	}
	var list []due
	for rows.Next() {
		var d due
		if err := rows.Scan(&d.id, &d.ply); err != nil {
			rows.Close()
			return 0, err
		}
		list = append(list, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	n := 0
	for _, d := range list {
		ended, err := db.expire(ctx, d.id, d.ply, now)
		if err != nil {
			return n, err
		}
		if ended {
			n++
		}
	}
	return n, nil
}

func (db *DB) expire(ctx context.Context, id int64, ply int, now time.Time) (bool, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	g, err := gameByID(ctx, tx, id)
	if err != nil {
		return false, err
	}
	if g.Finished() || g.Ply != ply {
		return false, nil // a move arrived in time after all
	}
	ended, err := db.settleClock(ctx, tx, g, now)
	if err != nil {
		return false, err
	}
	return ended, tx.Commit()
}

// settleClock applies the clock rules to active game g whose deadline has
// passed by now, in tx: if a vacation stopped the clock the deadline moves
// on; if the time did run out, the player's vacation allowance is used
// first (an automatic vacation from when it ran out); only without one
// does the game end on time. It reports whether the game ended.
func (db *DB) settleClock(ctx context.Context, tx *Tx, g Game, now time.Time) (bool, error) {
	mover := g.Side[g.ToMove].ID
	vs, err := vacationsOf(ctx, tx, mover, g.TurnStarted)
	if err != nil {
		return false, err
	}
	allowance := g.Clock.allowance(g.Bank[g.ToMove])
	if left := timeLeft(g.TurnStarted, now, allowance, vs); left > 0 {
		// A vacation stopped the clock: the deadline moved.
		_, err := tx.ExecContext(ctx, `UPDATE games SET deadline = ? WHERE id = ?`, unix(runsOut(g.TurnStarted, now, allowance, vs)), g.ID)
		if err != nil {
			return false, fmt.Errorf("db: move deadline: %w", err)
		}
		return false, nil
	} else if db.vacationDays > 0 {
		// The time ran out at now+left: the player's vacation allowance is
		// used before a timeout is declared.
		err := db.startVacation(ctx, tx, mover, now.Add(left), now, true)
		if err == nil {
			return false, nil
		}
		if KindOf(err) != KindConflict {
			return false, err
		}
	}
	st, err := g.Decode()
	if err != nil {
		return false, err
	}
	if err := finishGame(ctx, tx, g, st.Concede(g.ToMove, true), now); err != nil {
		return false, err
	}
	return true, nil
}
