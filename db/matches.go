package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Match is what a challenge became: one game, or TRENCH's official
// two-game match with its decider. Player[0] played side 0 in game 1.
type Match struct {
	ID          int64
	Game        string
	Variant     string
	Player      [2]Player
	DaysPerMove int
	Status      string // "active" or "finished"
	Winner      int    // match player 0 or 1, -1 drawn (meaningful when finished)
	Totals      [2]int // per match player, in the ruleset's points, when finished
	CreatedAt   time.Time
	EndedAt     time.Time
	// Tournament is set for a tournament's match: its id and name and
	// the round the match belongs to (ID 0 otherwise).
	Tournament TournamentRef
}

// TournamentRef names a match's tournament and round.
type TournamentRef struct {
	ID    int64
	Name  string
	Round int
}

// Match returns match id. Errors: KindNotFound.
func (db *DB) Match(ctx context.Context, id int64) (Match, error) {
	var m Match
	var created int64
	var ended sql.NullInt64
	var winner sql.NullInt64
	err := db.read.QueryRowContext(ctx, `SELECT m.id, m.game, m.variant, m.player0_id, u0.name, m.player1_id, u1.name,
		m.days_per_move, m.status, m.winner, m.total0, m.total1, m.created_at, m.ended_at,
		COALESCE(t.id, 0), COALESCE(t.name, ''), COALESCE(p.round, 0)
		FROM matches m JOIN users u0 ON u0.id = m.player0_id JOIN users u1 ON u1.id = m.player1_id
		LEFT JOIN tournament_pairings p ON p.match_id = m.id LEFT JOIN tournaments t ON t.id = p.tournament_id
		WHERE m.id = ?`, id).Scan(&m.ID, &m.Game, &m.Variant, &m.Player[0].ID, &m.Player[0].Name,
		&m.Player[1].ID, &m.Player[1].Name, &m.DaysPerMove, &m.Status, &winner, &m.Totals[0], &m.Totals[1], &created, &ended,
		&m.Tournament.ID, &m.Tournament.Name, &m.Tournament.Round)
	if errors.Is(err, sql.ErrNoRows) {
		return Match{}, Errorf(KindNotFound, "No such match.")
	}
	if err != nil {
		return Match{}, fmt.Errorf("db: match %d: %w", id, err)
	}
	m.Winner = -1
	if winner.Valid {
		m.Winner = int(winner.Int64)
	}
	m.CreatedAt, m.EndedAt = fromUnix(created), fromNullUnix(ended)
	return m, nil
}
