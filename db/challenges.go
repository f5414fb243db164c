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

// DaysPerMove lists the time controls a challenge may choose: days a
// player has for each move.
var DaysPerMove = []int{1, 2, 3, 5, 7, 10, 14}

// Challenge is an offer to play: open to anyone, or addressed to one player.
type Challenge struct {
	ID          int64
	Creator     Player
	Opponent    Player // ID 0 when open to anyone
	Game        string // engine key
	Variant     string
	Color       string // the creator's side in game 1: "0", "1" or "random"
	DaysPerMove int
	Clock       TimeControl
	Rated       bool // its games change the players' ratings
	// Takebacks: a player may ask to take back their last move until the
	// opponent replies (never in the card game).
	Takebacks bool
	Status    string // open, accepted, declined, cancelled
	MatchID   int64  // once accepted
	CreatedAt time.Time
}

// Player is a user as games and challenges name them.
type Player struct {
	ID   int64
	Name string
}

// NewChallenge is what a player fills in to create a challenge.
type NewChallenge struct {
	CreatorID   int64
	Opponent    string // a username, or "" for an open challenge
	Game        string
	Variant     string
	Color       string // "0", "1" or "random"
	DaysPerMove int
	// Clock is the time control; when its Kind is empty the challenge is
	// DaysPerMove days per move.
	Clock TimeControl
	// Rated: the match's games change the players' ratings.
	Rated bool
	// Takebacks is "on" or "off", or "" for the default: allowed in an
	// unrated game, not in a rated one. The card game never has them.
	Takebacks string
}

// takebacks resolves the challenge's takeback choice. Errors: KindInvalid
// for an unknown choice.
func (c NewChallenge) takebacks() (bool, error) {
	var on bool
	switch c.Takebacks {
	case "":
		on = !c.Rated
	case "on":
		on = true
	case "off":
	default:
		return false, Errorf(KindInvalid, "Unknown takeback choice %q: allow them (on) or not (off).", c.Takebacks)
	}
	if e, ok := rules.Lookup(c.Game); ok && rules.HidesInformation(e) {
		on = false // a played card has been seen
	}
	return on, nil
}

// timeControl is the challenge's time control.
func (c NewChallenge) timeControl() TimeControl {
	if c.Clock.Kind == "" {
		return TimeControl{Kind: "move", DaysPerMove: c.DaysPerMove}
	}
	return c.Clock
}

// MaxOpenChallenges is how many open challenges one player may have at
// once (rematch offers not counted).
const MaxOpenChallenges = 20

// CreateChallenge validates c and stores it as an open challenge.
// Errors: KindInvalid for an unknown game, variant, colour or time
// control; KindNotFound for an unknown opponent; KindInvalid for a
// challenge to oneself; KindTooMany when the creator already has
// MaxOpenChallenges open.
func (db *DB) CreateChallenge(ctx context.Context, c NewChallenge, now time.Time) (Challenge, error) {
	if err := checkGame(&c); err != nil {
		return Challenge{}, err
	}
	tc := c.timeControl()
	if err := tc.Validate(); err != nil {
		return Challenge{}, err
	}
	takebacks, err := c.takebacks()
	if err != nil {
		return Challenge{}, err
	}
	days := tc.DaysPerMove
	if tc.Kind == "bank" {
		days = int((tc.BankInitial + 24*time.Hour - 1) / (24 * time.Hour))
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return Challenge{}, err
	}
	defer tx.Rollback()
	var open int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM challenges WHERE creator_id = ? AND status = 'open'`, c.CreatorID).Scan(&open); err != nil {
		return Challenge{}, fmt.Errorf("db: count open challenges: %w", err)
	}
	if open >= MaxOpenChallenges {
		return Challenge{}, TooMany(CapRetryAfter, "You have %d open challenges, as many as one player may have. You can make another as soon as one is accepted, declined or cancelled.", open)
	}
	var opp sql.NullInt64
	if c.Opponent != "" {
		var id int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM users WHERE name = ? AND deleted_at IS NULL AND suspended_at IS NULL`, c.Opponent).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return Challenge{}, Errorf(KindNotFound, "There is no player named %q.", c.Opponent)
		} else if err != nil {
			return Challenge{}, fmt.Errorf("db: find opponent: %w", err)
		}
		if id == c.CreatorID {
			return Challenge{}, Errorf(KindInvalid, "You cannot challenge yourself.")
		}
		opp = sql.NullInt64{Int64: id, Valid: true}
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO challenges
		(creator_id, opponent_id, game, variant, color, days_per_move, clock, bank_initial_s, bank_add_s, bank_max_s, created_at, rated, takebacks)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.CreatorID, opp, c.Game, c.Variant, c.Color, days, tc.Kind, seconds(tc.BankInitial), seconds(tc.BankAdd), seconds(tc.BankMax), unix(now), c.Rated, takebacks)
	if err != nil {
		return Challenge{}, fmt.Errorf("db: create challenge: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return Challenge{}, err
	}
	ch, err := challengeByID(ctx, tx, id)
	if err != nil {
		return Challenge{}, err
	}
	return ch, tx.Commit()
}

// checkGame checks the game, rules and colour of c, fixing the colour
// where the game's rules fix the creator's side. Errors: KindInvalid.
func checkGame(c *NewChallenge) error {
	eng, ok := rules.Lookup(c.Game)
	if !ok {
		return Errorf(KindInvalid, "Unknown game %q.", c.Game)
	}
	if !slices.ContainsFunc(eng.Variants(), func(v rules.Variant) bool { return v.Key == c.Variant }) {
		return Errorf(KindInvalid, "Unknown rules %q for %s.", c.Variant, Term(eng.Title()))
	}
	if fixed, ok := eng.(rules.CreatorSider); ok {
		c.Color = fmt.Sprint(int(fixed.CreatorSide()))
	}
	if c.Color != "0" && c.Color != "1" && c.Color != "random" {
		return Errorf(KindInvalid, "Unknown colour choice %q.", c.Color)
	}
	return nil
}

const challengeSelect = `SELECT c.id, c.creator_id, cu.name, COALESCE(c.opponent_id, 0), COALESCE(ou.name, ''),
	c.game, c.variant, c.color, c.days_per_move, c.status, COALESCE(c.match_id, 0), c.created_at,
	c.clock, c.bank_initial_s, c.bank_add_s, c.bank_max_s, c.rated, c.takebacks
	FROM challenges c JOIN users cu ON cu.id = c.creator_id LEFT JOIN users ou ON ou.id = c.opponent_id `

func scanChallenge(row interface{ Scan(...any) error }) (Challenge, error) {
	var c Challenge
	var created, bi, ba, bm int64
	err := row.Scan(&c.ID, &c.Creator.ID, &c.Creator.Name, &c.Opponent.ID, &c.Opponent.Name,
		&c.Game, &c.Variant, &c.Color, &c.DaysPerMove, &c.Status, &c.MatchID, &created,
		&c.Clock.Kind, &bi, &ba, &bm, &c.Rated, &c.Takebacks)
	c.CreatedAt = fromUnix(created)
	if c.Clock.Kind == "move" {
		c.Clock.DaysPerMove = c.DaysPerMove
	}
	c.Clock.BankInitial, c.Clock.BankAdd, c.Clock.BankMax = secs(bi), secs(ba), secs(bm)
	return c, err
}

func challengeByID(ctx context.Context, q queryer, id int64) (Challenge, error) {
	c, err := scanChallenge(q.QueryRowContext(ctx, challengeSelect+`WHERE c.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Challenge{}, Errorf(KindNotFound, "No such challenge.")
	}
	if err != nil {
		return Challenge{}, fmt.Errorf("db: challenge: %w", err)
	}
	return c, nil
}

// Challenge returns challenge id. Errors: KindNotFound.
func (db *DB) Challenge(ctx context.Context, id int64) (Challenge, error) {
	return challengeByID(ctx, db.read, id)
}

func (db *DB) challenges(ctx context.Context, where string, args ...any) ([]Challenge, error) {
	rows, err := db.read.QueryContext(ctx, challengeSelect+where+` ORDER BY c.created_at DESC, c.id DESC LIMIT 200`, args...)
	if err != nil {
		return nil, fmt.Errorf("db: challenges: %w", err)
	}
	defer rows.Close()
	var out []Challenge
	for rows.Next() {
		c, err := scanChallenge(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// OpenChallenges returns the open challenges userID may accept: open to
// anyone or addressed to them, not their own; newest first. userID 0 (a
// visitor) sees the ones open to anyone.
// What it read is remembered under playGen (remember).
func (db *DB) OpenChallenges(ctx context.Context, userID int64) ([]Challenge, error) {
	return remember(ctx, db, &db.log.playGen, fmt.Sprintf("open challenges %d", userID), cloneSlice[Challenge], func(ctx context.Context) ([]Challenge, error) {
		return db.challenges(ctx, `WHERE c.status = 'open' AND c.creator_id != ? AND (c.opponent_id IS NULL OR c.opponent_id = ?)`, userID, userID)
	})
}

// ChallengesBy returns the open challenges userID created, newest first.
// What it read is remembered under playGen (remember).
func (db *DB) ChallengesBy(ctx context.Context, userID int64) ([]Challenge, error) {
	return remember(ctx, db, &db.log.playGen, fmt.Sprintf("challenges by %d", userID), cloneSlice[Challenge], func(ctx context.Context) ([]Challenge, error) {
		return db.challenges(ctx, `WHERE c.status = 'open' AND c.creator_id = ?`, userID)
	})
}

// AcceptChallenge lets userID accept challenge id: it creates the match and
// its first game in the same transaction and returns the game's id. seed
// drives every random choice of the match (a random colour, the card deal,
// the decider's colours). Errors: KindNotFound, KindConflict when the
// challenge is no longer open, KindForbidden for one's own challenge or one
// addressed to somebody else.
func (db *DB) AcceptChallenge(ctx context.Context, id, userID int64, seed int64, now time.Time) (int64, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	gameID, err := acceptChallenge(ctx, tx, id, userID, seed, now)
	if err != nil {
		return 0, err
	}
	return gameID, tx.Commit()
}

// acceptChallenge is AcceptChallenge in the transaction tx.
func acceptChallenge(ctx context.Context, tx *Tx, id, userID int64, seed int64, now time.Time) (int64, error) {
	c, err := challengeByID(ctx, tx, id)
	if err != nil {
		return 0, err
	}
	switch {
	case c.Status != "open":
		return 0, Errorf(KindConflict, "This challenge is no longer open (it was %s).", Term(c.Status+"|challenge"))
	case c.Creator.ID == userID:
		return 0, Errorf(KindForbidden, "You cannot accept your own challenge.")
	case c.Opponent.ID != 0 && c.Opponent.ID != userID:
		return 0, Errorf(KindForbidden, "This challenge is addressed to %s.", c.Opponent.Name)
	}
	eng, ok := rules.Lookup(c.Game)
	if !ok {
		return 0, Errorf(KindInvalid, "Unknown game %q.", c.Game)
	}
	creatorSide := c.Color
	if creatorSide == "random" {
		creatorSide = fmt.Sprint(uint64(seed) >> 63)
	}
	p0, p1 := c.Creator.ID, userID
	if creatorSide == "1" {
		p0, p1 = userID, c.Creator.ID
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO matches
		(game, variant, player0_id, player1_id, days_per_move, seed, created_at, clock, bank_initial_s, bank_add_s, bank_max_s)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, c.Game, c.Variant, p0, p1, c.DaysPerMove, seed, unix(now),
		c.Clock.Kind, seconds(c.Clock.BankInitial), seconds(c.Clock.BankAdd), seconds(c.Clock.BankMax))
	if err != nil {
		return 0, fmt.Errorf("db: create match: %w", err)
	}
	matchID, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	m := matchRow{ID: matchID, Game: c.Game, Variant: c.Variant, Player: [2]int64{p0, p1}, Clock: c.Clock, Seed: seed}
	gameID, err := startGame(ctx, tx, eng, m, 1, eng.FirstGame(c.Variant), now)
	if err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE challenges SET status = 'accepted', match_id = ? WHERE id = ?`, matchID, id); err != nil {
		return 0, fmt.Errorf("db: accept challenge: %w", err)
	}
	return gameID, nil
}

// DeclineChallenge lets the addressed player decline challenge id.
// Errors: KindNotFound, KindForbidden (not addressed to userID),
// KindConflict (no longer open).
func (db *DB) DeclineChallenge(ctx context.Context, id, userID int64) error {
	return db.closeChallenge(ctx, id, userID, "declined", func(c Challenge) error {
		if c.Opponent.ID != userID {
			return Errorf(KindForbidden, "Only the player a challenge is addressed to can decline it.")
		}
		return nil
	})
}

// CancelChallenge lets the creator withdraw challenge id.
// Errors: KindNotFound, KindForbidden (not the creator), KindConflict.
func (db *DB) CancelChallenge(ctx context.Context, id, userID int64) error {
	return db.closeChallenge(ctx, id, userID, "cancelled", func(c Challenge) error {
		if c.Creator.ID != userID {
			return Errorf(KindForbidden, "Only the player who made a challenge can cancel it.")
		}
		return nil
	})
}

func (db *DB) closeChallenge(ctx context.Context, id, userID int64, status string, allowed func(Challenge) error) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	c, err := challengeByID(ctx, tx, id)
	if err != nil {
		return err
	}
	if err := allowed(c); err != nil {
		return err
	}
	if c.Status != "open" {
		return Errorf(KindConflict, "This challenge is no longer open (it was %s).", Term(c.Status+"|challenge"))
	}
	if _, err := tx.ExecContext(ctx, `UPDATE challenges SET status = ? WHERE id = ? AND status = 'open'`, status, id); err != nil {
		return fmt.Errorf("db: %s challenge: %w", status, err)
	}
	return tx.Commit()
}
