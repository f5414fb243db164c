package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
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
	return db.cachedMatch(ctx, id)
}

// readMatch reads match id from SQLite. Errors: KindNotFound.
func (db *DB) readMatch(ctx context.Context, id int64) (Match, error) {
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

// MatchFilter selects matches of several games for a list.
type MatchFilter struct {
	UserID   int64       // matches this player plays; 0: anyone's
	Finished bool        // finished matches (the latest ended first); else active ones
	Multi    [][2]string // {game, variant} pairs made as matches of several games (none: any match of more than one game)
	Limit    int         // at most this many (20 when 0)
}

// MatchGames is a match with its games in order.
type MatchGames struct {
	Match
	Games []Game
}

// Matches returns the matches of several games chosen by f: those made
// with a variant of f.Multi (without f.Multi, those that have more than
// one game); each with its games.
// What it returns is remembered until the next commit, the finished
// matches until a commit changes what the settled reads show (remember).
func (db *DB) Matches(ctx context.Context, f MatchFilter) ([]MatchGames, error) {
	return remember(ctx, db, matchesGen(db, f), fmt.Sprintf("matches %#v", f), cloneMatches, func(ctx context.Context) ([]MatchGames, error) {
		return db.matchesRead(ctx, f)
	})
}

// matchesRead reads what Matches returns.
func (db *DB) matchesRead(ctx context.Context, f MatchFilter) ([]MatchGames, error) {
	status, key := "active", "m.created_at"
	if f.Finished {
		status, key = "finished", "m.ended_at"
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 20
	}
	// One ordered read per player column and kind of match, each from its
	// index and at most limit long, merged: a player with thousands of
	// matches costs as little as one with ten.
	players := []string{""}
	if f.UserID != 0 {
		players = []string{" AND m.player0_id = ?", " AND m.player1_id = ?"}
	}
	kinds := []string{" AND (SELECT COUNT(*) FROM games x WHERE x.match_id = m.id) > 1"}
	var kindArgs [][]any
	if len(f.Multi) > 0 {
		// Matches of the variants made of several games; the others have
		// one game each.
		kinds = nil
		for _, gv := range f.Multi {
			kinds = append(kinds, " AND m.game = ? AND m.variant = ?")
			kindArgs = append(kindArgs, []any{gv[0], gv[1]})
		}
	} else {
		kindArgs = [][]any{nil}
	}
	var parts []string
	var args []any
	for _, p := range players {
		for i, k := range kinds {
			parts = append(parts, `SELECT * FROM (SELECT m.id, `+key+` AS k FROM matches m WHERE m.status = ?`+p+k+
				` ORDER BY k DESC, m.id DESC LIMIT ?)`)
			args = append(args, status)
			if p != "" {
				args = append(args, f.UserID)
			}
			args = append(append(args, kindArgs[i]...), limit)
		}
	}
	args = append(args, limit)
	rows, err := db.read.QueryContext(ctx, `SELECT id FROM (`+strings.Join(parts, " UNION ALL ")+`) ORDER BY k DESC, id DESC LIMIT ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("db: matches: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("db: matches: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("db: matches: %w", err)
	}
	out := make([]MatchGames, 0, len(ids))
	for _, id := range ids {
		m, err := db.Match(ctx, id)
		if err != nil {
			return nil, err
		}
		gs, err := db.MatchGames(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, MatchGames{Match: m, Games: gs})
	}
	return out, nil
}
