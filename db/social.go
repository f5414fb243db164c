package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/trench-games/trench/rules"
)

// MaxMessage is the longest message, in characters.
const MaxMessage = 500

// GameMessage is one message of a game's thread. A thread is private to the
// game's two players: spectators never see it.
type GameMessage struct {
	ID        int64
	GameID    int64
	From      Player
	ToID      int64
	Ply       int // the game's ply when it was sent
	Body      string
	CreatedAt time.Time
	Unread    bool // not yet read by its addressee
}

// CleanMessage trims body and checks it. Errors: KindInvalid for an empty
// message, one longer than MaxMessage characters, or one that is not
// UTF-8 text.
func CleanMessage(body string) (string, error) {
	body = strings.TrimSpace(strings.ReplaceAll(body, "\r\n", "\n"))
	switch {
	case !utf8.ValidString(body) || strings.ContainsRune(body, 0):
		return "", Errorf(KindInvalid, "The message is not readable text.")
	case body == "":
		return "", Errorf(KindInvalid, "Write something before sending a message.")
	case utf8.RuneCountInString(body) > MaxMessage:
		return "", Errorf(KindInvalid, "A message is at most %d characters; this one has %d.", MaxMessage, utf8.RuneCountInString(body))
	}
	return body, nil
}

// addMessage stores body (already clean) from side of g to the other side.
func addMessage(ctx context.Context, tx *Tx, g Game, side rules.Side, ply int, body string, now time.Time) (int64, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO messages (game_id, from_id, to_id, ply, body, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		g.ID, g.Side[side].ID, g.Side[side.Other()].ID, ply, body, unix(now))
	if err != nil {
		return 0, fmt.Errorf("db: store message: %w", err)
	}
	return res.LastInsertId()
}

// messageWithMove stores the message sent with a move (Play.Message) in
// the move's transaction; a blank one is no message.
func messageWithMove(ctx context.Context, tx *Tx, g Game, side rules.Side, ply int, body string, now time.Time) error {
	if strings.TrimSpace(body) == "" {
		return nil
	}
	body, err := CleanMessage(body)
	if err != nil {
		return err
	}
	_, err = addMessage(ctx, tx, g, side, ply, body, now)
	return err
}

// MaxMessagesPerHour is how many messages a player may send in one game
// within an hour.
const MaxMessagesPerHour = 30

// MaxRematchOffers is how many rematches of one match a player may offer
// within 24 hours (an offer withdrawn and made again counts again).
const MaxRematchOffers = 3

// SendMessage stores a message from userID to their opponent in game id,
// whether the game is in progress or over. Errors: KindNotFound,
// KindForbidden (not a player of the game), KindInvalid (see CleanMessage),
// KindTooMany (MaxMessagesPerHour sent in the last hour).
func (db *DB) SendMessage(ctx context.Context, gameID, userID int64, body string, now time.Time) (GameMessage, error) {
	body, cerr := CleanMessage(body)
	tx, err := db.begin(ctx)
	if err != nil {
		return GameMessage{}, err
	}
	defer tx.Rollback()
	g, err := gameByID(ctx, tx, gameID)
	if err != nil {
		return GameMessage{}, err
	}
	side := g.SideOf(userID)
	if !side.Valid() {
		return GameMessage{}, Errorf(KindForbidden, "Only the two players of a game can write in its messages.")
	}
	if cerr != nil {
		return GameMessage{}, cerr
	}
	var sent int
	var oldest int64
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(MIN(created_at), 0) FROM messages
		WHERE game_id = ? AND from_id = ? AND created_at > ?`, gameID, userID, unix(now.Add(-time.Hour))).Scan(&sent, &oldest); err != nil {
		return GameMessage{}, fmt.Errorf("db: count messages: %w", err)
	}
	if sent >= MaxMessagesPerHour {
		next := fromUnix(oldest).Add(time.Hour + time.Second)
		return GameMessage{}, TooMany(next.Sub(now), "You have sent %d messages in this game in the last hour, as many as one may. You can write again at %s UTC.",
			sent, next.UTC().Format("15:04"))
	}
	id, err := addMessage(ctx, tx, g, side, g.Ply, body, now)
	if err != nil {
		return GameMessage{}, err
	}
	m := GameMessage{ID: id, GameID: g.ID, From: g.Side[side], ToID: g.Side[side.Other()].ID, Ply: g.Ply, Body: body, CreatedAt: fromUnix(unix(now)), Unread: true}
	return m, tx.Commit()
}

// ReadMessages returns game g's thread, oldest first, for userID, who must
// play g, and marks the messages to userID read (the ones returned keep
// Unread as it was, so that the page can mark what is new). Errors:
// KindForbidden for anyone else.
func (db *DB) ReadMessages(ctx context.Context, g Game, userID int64, now time.Time) ([]GameMessage, error) {
	if !g.SideOf(userID).Valid() {
		return nil, Errorf(KindForbidden, "The messages of a game are private to its two players.")
	}
	rows, err := db.read.QueryContext(ctx, `SELECT m.id, m.from_id, u.name, m.to_id, m.ply, m.body, m.created_at, m.read_at IS NULL
		FROM messages m JOIN users u ON u.id = m.from_id WHERE m.game_id = ? ORDER BY m.id`, g.ID)
	if err != nil {
		return nil, fmt.Errorf("db: messages: %w", err)
	}
	defer rows.Close()
	var out []GameMessage
	var lastUnread int64
	for rows.Next() {
		m := GameMessage{GameID: g.ID}
		var created int64
		if err := rows.Scan(&m.ID, &m.From.ID, &m.From.Name, &m.ToID, &m.Ply, &m.Body, &created, &m.Unread); err != nil {
			return nil, err
		}
		m.CreatedAt = fromUnix(created)
		if m.Unread && m.ToID == userID {
			lastUnread = m.ID
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	if lastUnread > 0 {
		// Only what was read: a message that arrives meanwhile stays new.
		if err := db.markRead(ctx, g.ID, userID, lastUnread, now); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (db *DB) markRead(ctx context.Context, gameID, userID, upTo int64, now time.Time) error {
	tx, err := db.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE messages SET read_at = ? WHERE game_id = ? AND to_id = ? AND id <= ? AND read_at IS NULL`,
		unix(now), gameID, userID, upTo); err != nil {
		return fmt.Errorf("db: mark messages read: %w", err)
	}
	return tx.Commit()
}

// UnreadThread is a game with messages its player has not read.
type UnreadThread struct {
	Game   Game
	Count  int
	LastAt time.Time
}

// UnreadMessages returns userID's games with unread messages, the latest
// message first (at most 50 games). What it read is remembered under
// playGen (remember).
func (db *DB) UnreadMessages(ctx context.Context, userID int64) ([]UnreadThread, error) {
	return remember(ctx, db, &db.log.playGen, fmt.Sprintf("unread %d", userID), cloneSlice[UnreadThread], func(ctx context.Context) ([]UnreadThread, error) {
		return db.unreadMessages(ctx, userID)
	})
}

// unreadMessages is UnreadMessages read from the database.
func (db *DB) unreadMessages(ctx context.Context, userID int64) ([]UnreadThread, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT game_id, COUNT(*), MAX(created_at) FROM messages
		WHERE to_id = ? AND read_at IS NULL GROUP BY game_id ORDER BY MAX(id) DESC LIMIT 50`, userID)
	if err != nil {
		return nil, fmt.Errorf("db: unread messages: %w", err)
	}
	var out []UnreadThread
	var ids []int64
	for rows.Next() {
		var t UnreadThread
		var last int64
		if err := rows.Scan(&t.Game.ID, &t.Count, &last); err != nil {
			rows.Close()
			return nil, err
		}
		t.LastAt = fromUnix(last)
		out = append(out, t)
		ids = append(ids, t.Game.ID)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(out) == 0 {
		return nil, err
	}
	in, args := idList(ids, 50)
	games, err := db.games(ctx, `WHERE g.id IN (`+in+`)`, args...)
	if err != nil {
		return nil, err
	}
	byID := map[int64]Game{}
	for _, g := range games {
		byID[g.ID] = g
	}
	for i := range out {
		out[i].Game = byID[out[i].Game.ID]
	}
	return out, nil
}

// UnreadCount returns how many messages to userID in game id are unread.
func (db *DB) UnreadCount(ctx context.Context, gameID, userID int64) (int, error) {
	var n int
	err := db.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages WHERE game_id = ? AND to_id = ? AND read_at IS NULL`, gameID, userID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("db: unread count: %w", err)
	}
	return n, nil
}

// Rematch is the rematch offer of a finished match: an addressed
// challenge from From to To with the match's settings (game, rules, time
// control, rated) and the colours of its first game swapped. Its Status is
// the challenge's: open, accepted (NewMatchID set), declined or cancelled
// (withdrawn). ChallengeID is 0 when none was offered.
type Rematch struct {
	MatchID     int64
	ChallengeID int64
	From, To    Player
	Status      string
	NewMatchID  int64
}

// Open reports whether the offer waits for an answer.
func (r Rematch) Open() bool { return r.ChallengeID != 0 && r.Status == "open" }

func rematchOf(ctx context.Context, q queryer, matchID int64) (Rematch, error) {
	r := Rematch{MatchID: matchID}
	err := q.QueryRowContext(ctx, `SELECT r.challenge_id, c.creator_id, cu.name, COALESCE(c.opponent_id, 0), COALESCE(ou.name, ''),
		c.status, COALESCE(c.match_id, 0)
		FROM rematches r JOIN challenges c ON c.id = r.challenge_id JOIN users cu ON cu.id = c.creator_id
		LEFT JOIN users ou ON ou.id = c.opponent_id WHERE r.match_id = ?`, matchID).
		Scan(&r.ChallengeID, &r.From.ID, &r.From.Name, &r.To.ID, &r.To.Name, &r.Status, &r.NewMatchID)
	if errors.Is(err, sql.ErrNoRows) {
		return Rematch{MatchID: matchID}, nil
	}
	if err != nil {
		return r, fmt.Errorf("db: rematch: %w", err)
	}
	return r, nil
}

// Rematch returns the rematch offer of match id (ChallengeID 0 when none).
func (db *DB) Rematch(ctx context.Context, matchID int64) (Rematch, error) {
	return rematchOf(ctx, db.read, matchID)
}

// SocialVersion identifies the state of a game's messages and its match's
// rematch offer: it changes when a message arrives or the offer changes.
// The answer is remembered until a message, a rematch offer or a
// challenge changes anywhere (writeLog.socialGen).
func (db *DB) SocialVersion(ctx context.Context, gameID, matchID int64) (string, error) {
	key := [2]int64{gameID, matchID}
	gen := db.log.socialGen.Load()
	if v, ok := db.socials.get(key, gen); ok {
		return v, nil
	}
	v, err := db.readSocialVersion(ctx, gameID, matchID)
	if err != nil {
		return "", err
	}
	db.socials.keep(key, gen, v, db.log.socialGen.Load())
	return v, nil
}

// readSocialVersion is SocialVersion read from SQLite.
func (db *DB) readSocialVersion(ctx context.Context, gameID, matchID int64) (string, error) {
	var last int64
	if err := db.read.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM messages WHERE game_id = ?`, gameID).Scan(&last); err != nil {
		return "", fmt.Errorf("db: social version: %w", err)
	}
	r, err := db.Rematch(ctx, matchID)
	if err != nil {
		return "", err
	}
	return RematchVersion(last, r), nil
}

// RematchVersion is SocialVersion from the last message id and the offer.
func RematchVersion(lastMessage int64, r Rematch) string {
	return fmt.Sprintf("%d.%d.%s", lastMessage, r.ChallengeID, r.Status)
}

// matchPlayers returns match id's status and players (player 0 played side
// 0 in game 1). Errors: KindNotFound.
func matchPlayers(ctx context.Context, q queryer, id int64) (string, [2]int64, error) {
	var status string
	var p [2]int64
	err := q.QueryRowContext(ctx, `SELECT status, player0_id, player1_id FROM matches WHERE id = ?`, id).Scan(&status, &p[0], &p[1])
	if errors.Is(err, sql.ErrNoRows) {
		return "", p, Errorf(KindNotFound, "No such match.")
	}
	if err != nil {
		return "", p, fmt.Errorf("db: match %d: %w", id, err)
	}
	return status, p, nil
}

// challengeSettings lists the columns of a challenge that a rematch
// copies: every column but who challenges whom, the colour, the state and
// the time. Reading them from the schema keeps a rematch "the same
// settings" whatever settings challenges gain.
func challengeSettings(ctx context.Context, tx *Tx) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM pragma_table_info('challenges')`)
	if err != nil {
		return nil, fmt.Errorf("db: challenge columns: %w", err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		switch name {
		case "id", "creator_id", "opponent_id", "color", "status", "match_id", "created_at":
		default:
			cols = append(cols, `"`+strings.ReplaceAll(name, `"`, `""`)+`"`)
		}
	}
	return cols, rows.Err()
}

// OfferRematch lets userID, a player of finished match id, offer the other
// player a rematch: a challenge addressed to them with the match's
// settings, userID playing the other colour in its first game. One offer
// is open at a time; a declined or withdrawn offer may be made again.
// Errors: KindNotFound; KindForbidden (not a player of the match);
// KindConflict (the match goes on, an offer is open, or the rematch was
// accepted); KindTooMany (MaxRematchOffers made in the last 24 hours).
func (db *DB) OfferRematch(ctx context.Context, matchID, userID int64, now time.Time) (Rematch, error) {
	tx, err := db.begin(ctx)
	if err != nil {
		return Rematch{}, err
	}
	defer tx.Rollback()
	status, players, err := matchPlayers(ctx, tx, matchID)
	if err != nil {
		return Rematch{}, err
	}
	me := -1
	for i, p := range players {
		if p == userID {
			me = i
		}
	}
	switch {
	case me < 0:
		return Rematch{}, Errorf(KindForbidden, "Only the players of a match can offer a rematch.")
	case status != "finished":
		return Rematch{}, Errorf(KindConflict, "A rematch can be offered once the match is over.")
	}
	r, err := rematchOf(ctx, tx, matchID)
	if err != nil {
		return Rematch{}, err
	}
	switch {
	case r.Open() && r.From.ID == userID:
		return Rematch{}, Errorf(KindConflict, "You have already offered a rematch.")
	case r.Open():
		return Rematch{}, Errorf(KindConflict, "%s has offered you a rematch: accept or decline it.", r.From.Name)
	case r.ChallengeID != 0 && r.Status == "accepted":
		return Rematch{}, Errorf(KindConflict, "The rematch has already started.")
	}
	var offers int
	var oldest int64
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(MIN(created_at), 0) FROM rematch_offers
		WHERE match_id = ? AND user_id = ? AND created_at > ?`, matchID, userID, unix(now.Add(-24*time.Hour))).Scan(&offers, &oldest); err != nil {
		return Rematch{}, fmt.Errorf("db: count rematch offers: %w", err)
	}
	if offers >= MaxRematchOffers {
		next := fromUnix(oldest).Add(24*time.Hour + time.Second)
		return Rematch{}, TooMany(next.Sub(now), "You have offered a rematch of this match %d times in a day, as often as one may. You can offer again on %s UTC.",
			offers, next.UTC().Format("2 January at 15:04"))
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO rematch_offers (match_id, user_id, created_at) VALUES (?, ?, ?)`, matchID, userID, unix(now)); err != nil {
		return Rematch{}, fmt.Errorf("db: rematch offer: %w", err)
	}
	var orig int64
	err = tx.QueryRowContext(ctx, `SELECT id FROM challenges WHERE match_id = ? ORDER BY id LIMIT 1`, matchID).Scan(&orig)
	if errors.Is(err, sql.ErrNoRows) {
		return Rematch{}, Errorf(KindConflict, "This match was not made from a challenge, so it cannot be repeated.")
	} else if err != nil {
		return Rematch{}, fmt.Errorf("db: rematch challenge: %w", err)
	}
	cols, err := challengeSettings(ctx, tx)
	if err != nil {
		return Rematch{}, err
	}
	list := strings.Join(cols, ", ")
	// The offerer was match player me, who played side me in game 1: in
	// the rematch they play the other side.
	res, err := tx.ExecContext(ctx, `INSERT INTO challenges (creator_id, opponent_id, color, status, created_at, `+list+`)
		SELECT ?, ?, ?, 'open', ?, `+list+` FROM challenges WHERE id = ?`,
		userID, players[1-me], strconv.Itoa(1-me), unix(now), orig)
	if err != nil {
		return Rematch{}, fmt.Errorf("db: rematch challenge: %w", err)
	}
	chID, err := res.LastInsertId()
	if err != nil {
		return Rematch{}, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO rematches (match_id, challenge_id) VALUES (?, ?)
		ON CONFLICT (match_id) DO UPDATE SET challenge_id = excluded.challenge_id`, matchID, chID); err != nil {
		return Rematch{}, fmt.Errorf("db: rematch: %w", err)
	}
	if r, err = rematchOf(ctx, tx, matchID); err != nil {
		return Rematch{}, err
	}
	return r, tx.Commit()
}

// openRematch returns match id's open offer as userID, a player of the
// match, may answer it. Errors: KindNotFound, KindForbidden, KindConflict
// (no open offer).
func (db *DB) openRematch(ctx context.Context, matchID, userID int64) (Rematch, error) {
	_, players, err := matchPlayers(ctx, db.read, matchID)
	if err != nil {
		return Rematch{}, err
	}
	if players[0] != userID && players[1] != userID {
		return Rematch{}, Errorf(KindForbidden, "Only the players of a match can answer its rematch offer.")
	}
	r, err := db.Rematch(ctx, matchID)
	if err != nil {
		return Rematch{}, err
	}
	if !r.Open() {
		return Rematch{}, Errorf(KindConflict, "There is no open rematch offer.")
	}
	return r, nil
}

// AcceptRematch lets the player a rematch of match id was offered to
// accept it: the new match and its first game start as when accepting a
// challenge (AcceptChallenge). It returns the new game's id. Errors:
// KindNotFound, KindForbidden (not a player, or one's own offer),
// KindConflict (no open offer).
func (db *DB) AcceptRematch(ctx context.Context, matchID, userID, seed int64, now time.Time) (int64, error) {
	r, err := db.openRematch(ctx, matchID, userID)
	if err != nil {
		return 0, err
	}
	return db.AcceptChallenge(ctx, r.ChallengeID, userID, seed, now)
}

// DeclineRematch lets the player a rematch was offered to decline it.
// Errors: as AcceptRematch.
func (db *DB) DeclineRematch(ctx context.Context, matchID, userID int64) error {
	r, err := db.openRematch(ctx, matchID, userID)
	if err != nil {
		return err
	}
	return db.DeclineChallenge(ctx, r.ChallengeID, userID)
}

// WithdrawRematch lets the player who offered a rematch withdraw it.
// Errors: as AcceptRematch (KindForbidden for the other player).
func (db *DB) WithdrawRematch(ctx context.Context, matchID, userID int64) error {
	r, err := db.openRematch(ctx, matchID, userID)
	if err != nil {
		return err
	}
	return db.CancelChallenge(ctx, r.ChallengeID, userID)
}
