package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/trench-games/trench/rules"
)

// Conditional moves: while the opponent is to move, a player may leave a
// plan of replies ("if they play X, I reply Y, then if Z, W"), several
// alternatives at each step. When the opponent's move commits and matches
// a line, the reply is played in the same transaction (clock, records and
// notifications as if the player had moved) and the plan advances; a move
// matching no line clears it. Only its author ever reads a plan. Not for
// a game with hidden information (the card game).

// MaxPlanMoves bounds a plan's size: the moves of all its lines together.
const MaxPlanMoves = 200

// Plan is a player's conditional moves in a game: Lines of moves from the
// position at BasePly, the opponent's move and the reply alternating.
type Plan struct {
	BasePly int
	Lines   [][]string
}

// ParsePlan reads a plan typed as text: one line per alternative, its
// moves separated by spaces or commas. Blank lines are skipped.
func ParsePlan(text string) [][]string {
	var out [][]string
	for _, l := range strings.Split(text, "\n") {
		f := strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\r' })
		if len(f) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// SetPlan stores userID's plan for game id, made against the position at
// ply (when the opponent is to move); no lines clears the plan. Each line
// is checked move by move. Errors: KindNotFound; KindForbidden (not a
// player); KindConflict (finished, or the game moved on); KindInvalid (the
// player is to move, a game with hidden information, an odd or too long
// line, two replies to the same move, or a move that is not legal where
// it stands, naming the first such move).
func (db *DB) SetPlan(ctx context.Context, gameID, userID int64, ply int, lines [][]string, now time.Time) error {
	_, err := db.inGame(ctx, gameID, userID, ply, now, func(tx *Tx, g Game, st rules.State, side rules.Side) error {
		return storePlan(ctx, tx, g, st, side, userID, lines, now)
	})
	return err
}

// AddPlanLine adds line (the opponent's move, the reply, …) to userID's
// plan for game id, made against the position at ply, keeping the lines
// already planned there (a plan made against an earlier position is
// replaced); a line already in the plan changes nothing. The whole plan is
// checked as SetPlan checks it, with the same errors.
func (db *DB) AddPlanLine(ctx context.Context, gameID, userID int64, ply int, line []string, now time.Time) error {
	_, err := db.inGame(ctx, gameID, userID, ply, now, func(tx *Tx, g Game, st rules.State, side rules.Side) error {
		if len(line) == 0 {
			return Errorf(KindInvalid, "The line to plan has no moves.")
		}
		p, ok, err := planOf(ctx, tx, gameID, userID)
		if err != nil {
			return err
		}
		var lines [][]string
		if ok && p.BasePly == g.Ply {
			lines = p.Lines
		}
		if !slices.ContainsFunc(lines, func(l []string) bool { return slices.Equal(l, line) }) {
			lines = append(lines, line)
		}
		return storePlan(ctx, tx, g, st, side, userID, lines, now)
	})
	return err
}

// storePlan checks lines (ParsePlan's shape) for userID, of side in game g
// at state st, and stores them as the plan; no lines clears it.
func storePlan(ctx context.Context, tx *Tx, g Game, st rules.State, side rules.Side, userID int64, lines [][]string, now time.Time) error {
	eng, err := g.Engine()
	if err != nil {
		return err
	}
	if rules.HidesInformation(eng) {
		return Errorf(KindInvalid, "Conditional moves are not offered in Trench, the card game: the opponent's cards are hidden.")
	}
	if side == g.ToMove {
		return Errorf(KindInvalid, "It is your move: a plan is for while your opponent thinks.")
	}
	if len(lines) == 0 {
		_, err := execPlans(ctx, tx, `DELETE FROM conditional_moves WHERE game_id = ? AND user_id = ?`, g.ID, userID)
		return err
	}
	if err := checkPlan(st, lines); err != nil {
		return err
	}
	data, err := json.Marshal(lines)
	if err != nil {
		return err
	}
	_, err = execPlans(ctx, tx, `INSERT INTO conditional_moves (game_id, user_id, base_ply, lines, updated_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (game_id, user_id) DO UPDATE SET base_ply = excluded.base_ply, lines = excluded.lines, updated_at = excluded.updated_at`,
		g.ID, userID, g.Ply, string(data), unix(now))
	if err != nil {
		return fmt.Errorf("db: store plan: %w", err)
	}
	return nil
}

// checkPlan checks every line of a plan from st (the opponent to move).
func checkPlan(st rules.State, lines [][]string) error {
	total := 0
	replies := map[string]string{} // encoded position → the reply planned there
	for i, line := range lines {
		total += len(line)
		if total > MaxPlanMoves {
			return Errorf(KindInvalid, "A plan holds at most %d moves.", MaxPlanMoves)
		}
		if len(line)%2 == 1 {
			return Errorf(KindInvalid, "Line %d ends with the opponent's move %q: give your reply to it.", i+1, line[len(line)-1])
		}
		cur := st
		for j, m := range line {
			if cur.Result().Over {
				return Errorf(KindInvalid, "Line %d: the game is over before move %d (%q).", i+1, j+1, m)
			}
			if j%2 == 1 {
				key := cur.Encode()
				if prev, ok := replies[key]; ok && prev != m {
					return Errorf(KindInvalid, "Line %d: two different replies (%q and %q) to the same position.", i+1, prev, m)
				}
				replies[key] = m
			}
			next, err := cur.Apply(m)
			if err != nil {
				var refusal *rules.MoveError
				switch {
				case !errors.As(err, &refusal) && j%2 == 1:
					return Errorf(KindInvalid, "Line %d: your move %d, %q, cannot be played there.", i+1, j+1, m)
				case refusal == nil:
					return Errorf(KindInvalid, "Line %d: your opponent's move %d, %q, cannot be played there.", i+1, j+1, m)
				case j%2 == 1:
					return Errorf(KindInvalid, "Line %d: your move %d, %q, cannot be played there: %s.", i+1, j+1, m, Refusal{refusal})
				}
				return Errorf(KindInvalid, "Line %d: your opponent's move %d, %q, cannot be played there: %s.", i+1, j+1, m, Refusal{refusal})
			}
			cur = next
		}
	}
	return nil
}

// PlanOf returns userID's plan in game id (ok false when none). Only the
// plan's author may be shown it: callers pass the signed-in user.
// The answer is remembered until a plan changes anywhere (writeLog.planGen);
// its lines are shared: the caller must not change them.
func (db *DB) PlanOf(ctx context.Context, gameID, userID int64) (Plan, bool, error) {
	key := [2]int64{gameID, userID}
	gen := db.log.planGen.Load()
	if v, ok := db.plans.get(key, gen); ok {
		return v.plan, v.ok, nil
	}
	p, ok, err := planOf(ctx, db.read, gameID, userID)
	if err != nil {
		return Plan{}, false, err
	}
	db.plans.keep(key, gen, planned{p, ok}, db.log.planGen.Load())
	return p, ok, nil
}

// planned is PlanOf's answer as remembered.
type planned struct {
	plan Plan
	ok   bool
}

// execPlans runs a statement that writes conditional_moves in tx, marking
// the transaction: the pre-update hook gives no row id for that WITHOUT
// ROWID table, and what PlanOf remembers must follow every write to it.
func execPlans(ctx context.Context, tx *Tx, query string, args ...any) (sql.Result, error) {
	tx.log.mark(changedPlans)
	return tx.ExecContext(ctx, query, args...)
}

func planOf(ctx context.Context, q queryer, gameID, userID int64) (Plan, bool, error) {
	var p Plan
	var data string
	err := q.QueryRowContext(ctx, `SELECT base_ply, lines FROM conditional_moves WHERE game_id = ? AND user_id = ?`, gameID, userID).Scan(&p.BasePly, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return Plan{}, false, nil
	}
	if err != nil {
		return Plan{}, false, fmt.Errorf("db: plan: %w", err)
	}
	if err := json.Unmarshal([]byte(data), &p.Lines); err != nil {
		return Plan{}, false, fmt.Errorf("db: plan: %w", err)
	}
	return p, true, nil
}

// playConditional runs after a move of game g (in state before, now next)
// in the move's transaction: when the player now to move planned a reply
// to it, the reply is played and the plan advances; otherwise their plan
// is cleared.
func playConditional(ctx context.Context, tx *Tx, g Game, before, next rules.State, now time.Time) error {
	planner := next.ToMove()
	if !planner.Valid() {
		return nil
	}
	userID := g.Side[planner].ID
	p, ok, err := planOf(ctx, tx, g.ID, userID)
	if err != nil || !ok {
		return err
	}
	clear := func() error {
		_, err := execPlans(ctx, tx, `DELETE FROM conditional_moves WHERE game_id = ? AND user_id = ?`, g.ID, userID)
		return err
	}
	if p.BasePly != g.Ply {
		return clear() // made against another position
	}
	played := next.Encode()
	reply := ""
	var rest [][]string
	for _, line := range p.Lines {
		if len(line) < 2 {
			continue
		}
		s, err := before.Apply(line[0])
		if err != nil || s.Encode() != played {
			continue
		}
		if reply == "" {
			reply = line[1]
		}
		if line[1] == reply && len(line) > 2 {
			rest = append(rest, line[2:])
		}
	}
	if err := clear(); err != nil || reply == "" {
		return err
	}
	if _, err := next.Apply(reply); err != nil {
		// Checked when saved; should the rules disagree now, the plan is
		// dropped and the opponent's move stands.
		return nil
	}
	cur, err := gameByID(ctx, tx, g.ID)
	if err != nil {
		return err
	}
	after, err := applyMove(ctx, tx, cur, next, planner, reply, "", now)
	if err != nil {
		return err
	}
	if len(rest) == 0 || after.Result().Over {
		return nil
	}
	data, err := json.Marshal(rest)
	if err != nil {
		return err
	}
	_, err = execPlans(ctx, tx, `INSERT INTO conditional_moves (game_id, user_id, base_ply, lines, updated_at) VALUES (?, ?, ?, ?, ?)`,
		g.ID, userID, cur.Ply+1, string(data), unix(now))
	if err != nil {
		return fmt.Errorf("db: advance plan: %w", err)
	}
	return nil
}
