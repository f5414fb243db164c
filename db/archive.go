package db

import (
	"context"
	"fmt"
	"strings"
)

// ArchivePageSize is how many finished games an archive page lists.
const ArchivePageSize = 50

// ClampPage returns page (1-based) within the pages that total games fill:
// 1 for page < 1, the last page past it, so that no offset overflows.
func ClampPage(page, total int) int {
	last := max(1, (total+ArchivePageSize-1)/ArchivePageSize)
	return min(max(page, 1), last)
}

// ArchiveFilter selects finished games for the archive. Empty fields do
// not filter.
type ArchiveFilter struct {
	Game    string // engine key
	Variant string // the match's variant (ruleset)
	Player  string // a username: games this player played
	// Result is "drawn", "decisive", or — with Player — "won" or "lost".
	Result string
	Page   int // 1-based
}

// ArchiveRow is one finished game in the archive, with its match.
type ArchiveRow struct {
	Game        Game
	Moves       int
	MatchGames  int // games in the match so far
	MatchStatus string
	MatchWinner int
	MatchTotals [2]int
	MatchPlayer [2]Player
}

// Archive returns the finished games that match f, the latest ended first,
// one page of ArchivePageSize, and how many match in all.
// Errors: KindInvalid for a result filter that needs a player without one,
// or an unknown result filter.
func (db *DB) Archive(ctx context.Context, f ArchiveFilter) ([]ArchiveRow, int, error) {
	where := []string{"g.status = 'finished'"}
	var args []any
	if f.Game != "" {
		where = append(where, "g.game = ?")
		args = append(args, f.Game)
	}
	if f.Variant != "" {
		where = append(where, "m.variant = ?")
		args = append(args, f.Variant)
	}
	var playerID int64
	if f.Player != "" {
		u, err := db.UserByName(ctx, f.Player)
		if err != nil {
			return nil, 0, err
		}
		playerID = u.ID
		where = append(where, "(g.side0_id = ? OR g.side1_id = ?)")
		args = append(args, playerID, playerID)
	}
	switch f.Result {
	case "":
	case "drawn":
		where = append(where, "g.winner = -1")
	case "decisive":
		where = append(where, "g.winner IN (0, 1)")
	case "won", "lost":
		if playerID == 0 {
			if f.Result == "won" {
				return nil, 0, Errorf(KindInvalid, "Choose a player to filter the games they won.")
			}
			return nil, 0, Errorf(KindInvalid, "Choose a player to filter the games they lost.")
		}
		cond := "((g.winner = 0 AND g.side0_id = ?) OR (g.winner = 1 AND g.side1_id = ?))"
		if f.Result == "lost" {
			cond = "((g.winner = 1 AND g.side0_id = ?) OR (g.winner = 0 AND g.side1_id = ?))"
		}
		where = append(where, cond)
		args = append(args, playerID, playerID)
	default:
		return nil, 0, Errorf(KindInvalid, "Unknown result filter %q.", f.Result)
	}
	cond := " WHERE " + strings.Join(where, " AND ")
	var total int
	if err := db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM games g JOIN matches m ON m.id = g.match_id`+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("db: archive count: %w", err)
	}
	page := ClampPage(f.Page, total)
	games, err := db.games(ctx, cond+` ORDER BY g.ended_at DESC, g.id DESC LIMIT ? OFFSET ?`,
		append(args, ArchivePageSize, (page-1)*ArchivePageSize)...)
	if err != nil {
		return nil, 0, err
	}
	rows := make([]ArchiveRow, len(games))
	for i, g := range games {
		rows[i].Game = g
		rows[i].Moves = g.Ply
		var winner *int
		err := db.read.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM games WHERE match_id = m.id), m.status, m.winner,
			m.total0, m.total1, m.player0_id, u0.name, m.player1_id, u1.name
			FROM matches m JOIN users u0 ON u0.id = m.player0_id JOIN users u1 ON u1.id = m.player1_id WHERE m.id = ?`, g.MatchID).
			Scan(&rows[i].MatchGames, &rows[i].MatchStatus, &winner, &rows[i].MatchTotals[0], &rows[i].MatchTotals[1],
				&rows[i].MatchPlayer[0].ID, &rows[i].MatchPlayer[0].Name, &rows[i].MatchPlayer[1].ID, &rows[i].MatchPlayer[1].Name)
		if err != nil {
			return nil, 0, fmt.Errorf("db: archive match: %w", err)
		}
		rows[i].MatchWinner = -1
		if winner != nil {
			rows[i].MatchWinner = *winner
		}
	}
	return rows, total, nil
}

// Record is a player's wins, losses and draws in one game.
type Record struct {
	Game                string
	Wins, Losses, Draws int
}

// PlayerRecords returns userID's wins, losses and draws per game (engine
// key), over finished games that were not aborted, sorted by game key.
func (db *DB) PlayerRecords(ctx context.Context, userID int64) ([]Record, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT game,
		SUM(CASE WHEN (winner = 0 AND side0_id = ?1) OR (winner = 1 AND side1_id = ?1) THEN 1 ELSE 0 END),
		SUM(CASE WHEN (winner = 1 AND side0_id = ?1) OR (winner = 0 AND side1_id = ?1) THEN 1 ELSE 0 END),
		SUM(CASE WHEN winner = -1 THEN 1 ELSE 0 END)
		FROM games WHERE status = 'finished' AND `+notAborted+` AND (side0_id = ?1 OR side1_id = ?1) GROUP BY game ORDER BY game`, userID)
	if err != nil {
		return nil, fmt.Errorf("db: player records: %w", err)
	}
	defer rows.Close()
	var out []Record
	for rows.Next() {
		var r Record
		if err := rows.Scan(&r.Game, &r.Wins, &r.Losses, &r.Draws); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
