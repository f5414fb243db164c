package db

import (
	"context"
	"slices"
	"sync"
)

// maxCachedGames bounds the games remembered at once; past it the cache
// starts again empty.
const maxCachedGames = 20_000

// gameCache remembers what Game, Moves and Match read, so that the pages
// of the games being played (a move's answer, the opponent's live update,
// a click selecting a unit) cost no query. It is kept right in one place:
// after every committed transaction, the games whose rows it changed are
// forgotten (writeLog.gamesChanged, the same point that feeds
// OnGameCommit), and a wide change (a player's name, a match, a
// tournament, another process's commit) moves writeLog.gameGen on, which
// empties it. A value read from SQLite is kept only if nothing it was read
// under changed meanwhile; the ply-guarded write transaction never reads
// from it.
type gameCache struct {
	mu      sync.Mutex
	gen     uint64
	games   map[int64]*cachedGame
	matches map[int64]Match
	// users holds what a player's navigation reads of their games (the
	// count waiting for their move, the next one): forgotten when a game
	// of theirs changes, and all of it when a game whose players are not
	// known changes (a new game).
	users map[int64]*cachedUser
	// players are the two players of each game read (they never change).
	players map[int64][2]int64
}

// cachedUser is one player's games as the navigation sees them; ver moves
// on each time they are forgotten.
type cachedUser struct {
	ver      uint64
	turns    int
	hasTurns bool
	next     map[int64]int64 // NextWaiting by the game excepted
}

// cachedGame is one game: ver moves on each time the game is forgotten.
type cachedGame struct {
	ver      uint64
	game     Game
	hasGame  bool
	moves    []Move
	hasMoves bool
}

// at empties the cache when gen is newer than its generation and reports
// whether the cache is at gen (the caller holds mu).
func (c *gameCache) at(gen uint64) bool {
	if c.gen < gen || c.games == nil {
		c.gen, c.games, c.matches, c.users = gen, map[int64]*cachedGame{}, map[int64]Match{}, map[int64]*cachedUser{}
	}
	return c.gen == gen
}

// forget drops what is remembered of games ids (after their commit).
func (c *gameCache) forget(ids []int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range ids {
		if e := c.games[id]; e != nil {
			e.ver++
			e.game, e.hasGame, e.moves, e.hasMoves = Game{}, false, nil, false
		}
		p, ok := c.players[id]
		if !ok {
			clear(c.users)
			continue
		}
		for _, uid := range p {
			if u := c.users[uid]; u != nil {
				u.ver++
				u.hasTurns, u.next = false, nil
			}
		}
	}
}

// user returns userID's entry and its version under gen, creating it; nil
// when the cache is at another generation (the caller holds mu).
func (c *gameCache) user(userID int64, gen uint64) (*cachedUser, uint64) {
	if !c.at(gen) {
		return nil, 0
	}
	u := c.users[userID]
	if u == nil {
		if len(c.users) >= maxCachedGames {
			clear(c.users)
		}
		u = &cachedUser{}
		c.users[userID] = u
	}
	return u, u.ver
}

// userKept reports whether u, read at version ver under gen, is still
// userID's current entry (the caller holds mu).
func (c *gameCache) userKept(userID int64, u *cachedUser, ver, gen uint64) bool {
	return c.gen == gen && c.users[userID] == u && u.ver == ver
}

// cachedTurnCount is readTurnCount through the cache.
func (db *DB) cachedTurnCount(ctx context.Context, userID int64) (int, error) {
	c := &db.gameCache
	gen := db.log.gameGen.Load()
	c.mu.Lock()
	u, ver := c.user(userID, gen)
	if u != nil && u.hasTurns {
		n := u.turns
		c.mu.Unlock()
		return n, nil
	}
	c.mu.Unlock()
	n, err := db.readTurnCount(ctx, userID)
	if err != nil || u == nil {
		return n, err
	}
	c.mu.Lock()
	if c.userKept(userID, u, ver, gen) {
		u.turns, u.hasTurns = n, true
	}
	c.mu.Unlock()
	return n, nil
}

// cachedNextWaiting is readNextWaiting through the cache.
func (db *DB) cachedNextWaiting(ctx context.Context, userID, exceptID int64) (int64, error) {
	c := &db.gameCache
	gen := db.log.gameGen.Load()
	c.mu.Lock()
	u, ver := c.user(userID, gen)
	if u != nil {
		if id, ok := u.next[exceptID]; ok {
			c.mu.Unlock()
			return id, nil
		}
	}
	c.mu.Unlock()
	id, err := db.readNextWaiting(ctx, userID, exceptID)
	if err != nil || u == nil {
		return id, err
	}
	c.mu.Lock()
	if c.userKept(userID, u, ver, gen) {
		if u.next == nil || len(u.next) >= 64 {
			u.next = map[int64]int64{}
		}
		u.next[exceptID] = id
	}
	c.mu.Unlock()
	return id, nil
}

// entry returns game id's entry and its version under gen, creating it;
// nil when the cache is at another generation.
func (c *gameCache) entry(id int64, gen uint64) (*cachedGame, uint64) {
	if !c.at(gen) {
		return nil, 0
	}
	e := c.games[id]
	if e == nil {
		if len(c.games) >= maxCachedGames {
			clear(c.games)
		}
		e = &cachedGame{}
		c.games[id] = e
	}
	return e, e.ver
}

// kept reports whether e, read at version ver under gen, is still the
// current entry (the caller holds mu).
func (c *gameCache) kept(id int64, e *cachedGame, ver, gen uint64) bool {
	return c.gen == gen && c.games[id] == e && e.ver == ver
}

// cachedGameByID is gameByID on the read pool through the cache.
func (db *DB) cachedGameByID(ctx context.Context, id int64) (Game, error) {
	c := &db.gameCache
	gen := db.log.gameGen.Load()
	c.mu.Lock()
	e, ver := c.entry(id, gen)
	if e != nil && e.hasGame {
		g := e.game
		c.mu.Unlock()
		return g, nil
	}
	c.mu.Unlock()
	g, err := gameByID(ctx, db.read, id)
	if err != nil || e == nil {
		return g, err
	}
	c.mu.Lock()
	if c.kept(id, e, ver, gen) {
		e.game, e.hasGame = g, true
	}
	if _, ok := c.players[id]; !ok {
		if c.players == nil || len(c.players) >= 4*maxCachedGames {
			c.players = map[int64][2]int64{}
		}
		c.players[id] = [2]int64{g.Side[0].ID, g.Side[1].ID}
	}
	c.mu.Unlock()
	return g, nil
}

// cachedMoves is the moves of game id through the cache (a copy the
// caller may change).
func (db *DB) cachedMoves(ctx context.Context, id int64) ([]Move, error) {
	c := &db.gameCache
	gen := db.log.gameGen.Load()
	c.mu.Lock()
	e, ver := c.entry(id, gen)
	if e != nil && e.hasMoves {
		ms := slices.Clone(e.moves)
		c.mu.Unlock()
		return ms, nil
	}
	c.mu.Unlock()
	ms, err := db.readMoves(ctx, id)
	if err != nil || e == nil {
		return ms, err
	}
	c.mu.Lock()
	if c.kept(id, e, ver, gen) {
		e.moves, e.hasMoves = slices.Clone(ms), true
	}
	c.mu.Unlock()
	return ms, nil
}

// cachedMatch is readMatch through the cache: a match changes only with a
// wide change (its row, its tournament, its players' names).
func (db *DB) cachedMatch(ctx context.Context, id int64) (Match, error) {
	c := &db.gameCache
	gen := db.log.gameGen.Load()
	c.mu.Lock()
	if c.at(gen) {
		if m, ok := c.matches[id]; ok {
			c.mu.Unlock()
			return m, nil
		}
	}
	c.mu.Unlock()
	m, err := db.readMatch(ctx, id)
	if err != nil {
		return m, err
	}
	c.mu.Lock()
	if c.at(gen) {
		if len(c.matches) >= maxCachedGames {
			clear(c.matches)
		}
		c.matches[id] = m
	}
	c.mu.Unlock()
	return m, nil
}
