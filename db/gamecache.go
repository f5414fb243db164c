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
// forgotten, or replaced by what the transaction itself read of them last
// (writeLog.gamesChanged, the same point that feeds OnGameCommit; a
// move's transaction leaves its game and moves remembered, so its answer
// and the opponent's update read nothing), and a wide change (a player's name, a match, a
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

// committed keeps the cache right after a commit that changed games ids:
// each is forgotten, then, when fresh holds what the transaction knew of
// it as committed, remembered again: the row read last in the
// transaction, and the moves remembered before with the ones the
// transaction appended when they continue them. Only at the generation
// the transaction committed under (gen, before its commit): a wide change
// since empties the cache at its next read anyway. Commits are announced
// in their order (Tx.commit), so a fresh value never replaces a newer one.
func (c *gameCache) committed(ids []int64, fresh map[int64]*freshGame, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	keep := len(fresh) > 0 && c.gen == gen && c.games != nil
	for _, id := range ids {
		var before []Move
		var hadMoves bool
		if e := c.games[id]; e != nil {
			before, hadMoves = e.moves, e.hasMoves
			e.ver++
			e.game, e.hasGame, e.moves, e.hasMoves = Game{}, false, nil, false
		}
		c.forgetPlayers(id)
		f := fresh[id]
		if !keep || f == nil {
			continue
		}
		e, _ := c.entry(id, gen)
		if f.hasGame {
			e.game, e.hasGame = f.game, true
			c.rememberPlayers(f.game)
		}
		if len(f.moves) > 0 && hadMoves && len(before) == f.from &&
			(f.from == 0 || before[len(before)-1].Ply == f.from) {
			e.moves, e.hasMoves = append(slices.Clip(before), f.moves...), true
		}
	}
}

// forgetPlayers drops what the navigation remembers of game id's players
// (all of it when they are not known: a new game) (the caller holds mu).
func (c *gameCache) forgetPlayers(id int64) {
	p, ok := c.players[id]
	if !ok {
		clear(c.users)
		return
	}
	for _, uid := range p {
		if u := c.users[uid]; u != nil {
			u.ver++
			u.hasTurns, u.next = false, nil
		}
	}
}

// rememberPlayers notes g's two players (the caller holds mu).
func (c *gameCache) rememberPlayers(g Game) {
	if _, ok := c.players[g.ID]; ok {
		return
	}
	if c.players == nil || len(c.players) >= 4*maxCachedGames {
		c.players = map[int64][2]int64{}
	}
	c.players[g.ID] = [2]int64{g.Side[0].ID, g.Side[1].ID}
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

// readThrough is the one way a value passes through the cache. Under mu,
// lookup returns the value remembered (ok), or else a keep function for
// the value about to be read (nil when the cache is at another
// generation); read then fetches it from SQLite without the lock, and keep
// stores it under mu, only if nothing it was read under changed meanwhile
// (keep checks the entry's version itself).
func readThrough[T any](mu *sync.Mutex, lookup func() (v T, ok bool, keep func(T)), read func() (T, error)) (T, error) {
	mu.Lock()
	v, ok, keep := lookup()
	mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := read()
	if err != nil || keep == nil {
		return v, err
	}
	mu.Lock()
	keep(v)
	mu.Unlock()
	return v, nil
}

// cachedTurnCount is readTurnCount through the cache.
func (db *DB) cachedTurnCount(ctx context.Context, userID int64) (int, error) {
	c := &db.gameCache
	gen := db.log.gameGen.Load()
	return readThrough(&c.mu, func() (int, bool, func(int)) {
		u, ver := c.user(userID, gen)
		switch {
		case u == nil:
			return 0, false, nil
		case u.hasTurns:
			return u.turns, true, nil
		}
		return 0, false, func(n int) {
			if c.userKept(userID, u, ver, gen) {
				u.turns, u.hasTurns = n, true
			}
		}
	}, func() (int, error) { return db.readTurnCount(ctx, userID) })
}

// cachedNextWaiting is readNextWaiting through the cache.
func (db *DB) cachedNextWaiting(ctx context.Context, userID, exceptID int64) (int64, error) {
	c := &db.gameCache
	gen := db.log.gameGen.Load()
	return readThrough(&c.mu, func() (int64, bool, func(int64)) {
		u, ver := c.user(userID, gen)
		if u == nil {
			return 0, false, nil
		}
		if id, ok := u.next[exceptID]; ok {
			return id, true, nil
		}
		return 0, false, func(id int64) {
			if !c.userKept(userID, u, ver, gen) {
				return
			}
			if u.next == nil || len(u.next) >= 64 {
				u.next = map[int64]int64{}
			}
			u.next[exceptID] = id
		}
	}, func() (int64, error) { return db.readNextWaiting(ctx, userID, exceptID) })
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
	return readThrough(&c.mu, func() (Game, bool, func(Game)) {
		e, ver := c.entry(id, gen)
		switch {
		case e == nil:
			return Game{}, false, nil
		case e.hasGame:
			return e.game, true, nil
		}
		return Game{}, false, func(g Game) {
			if c.kept(id, e, ver, gen) {
				e.game, e.hasGame = g, true
			}
			c.rememberPlayers(g)
		}
	}, func() (Game, error) { return gameByID(ctx, db.read, id) })
}

// cachedMoves is the moves of game id through the cache (a copy the
// caller may change).
func (db *DB) cachedMoves(ctx context.Context, id int64) ([]Move, error) {
	c := &db.gameCache
	gen := db.log.gameGen.Load()
	return readThrough(&c.mu, func() ([]Move, bool, func([]Move)) {
		e, ver := c.entry(id, gen)
		switch {
		case e == nil:
			return nil, false, nil
		case e.hasMoves:
			return slices.Clone(e.moves), true, nil
		}
		return nil, false, func(ms []Move) {
			if c.kept(id, e, ver, gen) {
				e.moves, e.hasMoves = slices.Clone(ms), true
			}
		}
	}, func() ([]Move, error) { return db.readMoves(ctx, id) })
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
