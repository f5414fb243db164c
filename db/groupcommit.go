package db

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"sync"
)

// Group commit. A move's transaction spends most of its time committing:
// with synchronous=FULL each commit waits for the disk (fsync). When
// several changes of games wait for the write connection at once, the
// first to get it runs them all in one transaction, each in a savepoint of
// its own, and commits once: every change is still guarded by its ply and
// applied whole or not at all (a refused one is rolled back to its
// savepoint and leaves nothing), and none is answered before the commit
// that makes it durable. Alone, a change runs in a transaction of its own
// as before.

// maxGroup bounds the changes one commit carries (the others wait for
// the next).
const maxGroup = 64

// gameWrite is one change of a game waiting for the write connection.
type gameWrite struct {
	ctx     context.Context
	run     func(ctx context.Context, tx *Tx) (Game, error)
	claimed chan struct{} // closed when a transaction takes it
	done    chan struct{} // closed once game and err are known
	game    Game
	err     error
}

// writeQueue holds the changes waiting for the write connection, in the
// order they came.
type writeQueue struct {
	mu      sync.Mutex
	waiting []*gameWrite
}

func (q *writeQueue) add(w *gameWrite) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.waiting = append(q.waiting, w)
}

// take removes and returns the first changes waiting (at most maxGroup),
// each marked as taken.
func (q *writeQueue) take() []*gameWrite {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := min(len(q.waiting), maxGroup)
	out := slices.Clone(q.waiting[:n])
	q.waiting = slices.Delete(q.waiting, 0, n)
	for _, w := range out {
		close(w.claimed)
	}
	return out
}

// remove takes w out of the queue; false when a transaction took it
// already.
func (q *writeQueue) remove(w *gameWrite) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	i := slices.Index(q.waiting, w)
	if i < 0 {
		return false
	}
	q.waiting = slices.Delete(q.waiting, i, i+1)
	return true
}

// groupWrite runs run in a write transaction, alone or with the other
// changes waiting at the same time (see above), and returns its result
// once the transaction has committed (or failed). run returning an error
// leaves nothing of what it wrote, unless the error is a commitThen (its
// writes are committed and its error returned). Errors: run's; the
// database's (begin, commit: then every change of the group fails); the
// context's, while the change has not been taken by a transaction.
func (db *DB) groupWrite(ctx context.Context, run func(ctx context.Context, tx *Tx) (Game, error)) (Game, error) {
	w := &gameWrite{ctx: ctx, run: run, claimed: make(chan struct{}), done: make(chan struct{})}
	db.queue.add(w)
	for waiting := true; waiting; {
		select {
		case db.writeTurn <- struct{}{}:
			// Ours may have been taken already (and answered) by the
			// transaction before, or be past the first maxGroup waiting;
			// the turn serves those first. Ours not taken yet: ask again.
			if group := db.queue.take(); len(group) > 0 {
				db.runGroup(group)
			} else {
				<-db.writeTurn
			}
			select {
			case <-w.claimed:
				waiting = false
			default:
			}
		case <-w.claimed:
			waiting = false
		case <-ctx.Done():
			if db.queue.remove(w) {
				return Game{}, fmt.Errorf("db: begin: %w", ctx.Err())
			}
			waiting = false
		}
	}
	<-w.done
	return w.game, w.err
}

// runGroup runs the changes of group in one transaction on the write
// connection, whose turn the caller holds (and which the transaction's end
// gives back), and answers each.
func (db *DB) runGroup(group []*gameWrite) {
	defer func() {
		for _, w := range group {
			close(w.done)
		}
	}()
	fail := func(err error) {
		for _, w := range group {
			w.game, w.err = Game{}, err
		}
	}
	// A change taken into a group runs to its end even when the request
	// that made it goes away: its context's cancellation would roll back
	// the others' changes too.
	bg := context.WithoutCancel(group[0].ctx)
	tx, err := db.beginHeld(bg)
	if err != nil {
		fail(err)
		return
	}
	tx.detached = true
	defer tx.Rollback()
	if len(group) == 1 {
		w := group[0]
		w.game, w.err = runProtected(w, tx)
		var ct commitThen
		switch {
		case errors.As(w.err, &ct):
			w.game, w.err = Game{}, ct.err
		case w.err != nil:
			return
		}
		if err := tx.Commit(); err != nil {
			w.game, w.err = Game{}, err
		}
		return
	}
	// What each change collects (its log of changes, its fresh games) is
	// set aside when it is kept, dropped when it is rolled back, and all
	// that was kept is handed to the commit.
	var kept txCollected
	written := make([]bool, len(group)) // kept for the commit
	for i, w := range group {
		if _, err := tx.ExecContext(bg, `SAVEPOINT game_write`); err != nil {
			fail(fmt.Errorf("db: savepoint: %w", err))
			return
		}
		w.game, w.err = runProtected(w, tx)
		var ct commitThen
		written[i] = w.err == nil || errors.As(w.err, &ct)
		switch {
		case errors.As(w.err, &ct):
			w.game, w.err = Game{}, ct.err
		case w.err != nil:
			if _, err := tx.ExecContext(bg, `ROLLBACK TO game_write`); err != nil {
				fail(fmt.Errorf("db: rollback to savepoint: %w", err))
				return
			}
			tx.log.reset()
			clear(tx.fresh)
		}
		if _, err := tx.ExecContext(bg, `RELEASE game_write`); err != nil {
			fail(fmt.Errorf("db: release savepoint: %w", err))
			return
		}
		kept.take(tx)
	}
	kept.give(tx)
	if err := tx.Commit(); err != nil {
		for i, w := range group {
			if written[i] {
				w.game, w.err = Game{}, err
			}
		}
	}
}

// runProtected runs w in tx; a panic becomes w's error (its savepoint is
// rolled back like any refused change).
func runProtected(w *gameWrite, tx *Tx) (g Game, err error) {
	defer func() {
		if r := recover(); r != nil {
			g, err = Game{}, fmt.Errorf("db: panic in a game's change: %v\n%s", r, debug.Stack())
		}
	}()
	return w.run(w.ctx, tx)
}

// txCollected is what the kept changes of a group collected: their log
// of changes and their fresh games.
type txCollected struct {
	log   logMark
	fresh map[int64]*freshGame
}

// take moves what tx collected since the last take into c.
func (c *txCollected) take(tx *Tx) {
	tx.log.moveInto(&c.log)
	for id, f := range tx.fresh {
		if c.fresh == nil {
			c.fresh = map[int64]*freshGame{}
		}
		a := c.fresh[id]
		if a == nil {
			c.fresh[id] = f
			continue
		}
		if f.hasGame {
			a.game, a.hasGame = f.game, true
		}
		if len(f.moves) > 0 {
			if a.from < 0 {
				a.from = f.from
			}
			a.moves = append(a.moves, f.moves...)
		}
	}
	clear(tx.fresh)
}

// give hands everything in c back to tx, for its commit.
func (c *txCollected) give(tx *Tx) {
	tx.log.moveFrom(&c.log)
	tx.fresh = c.fresh
}

// logMark is what a writeLog collects in a transaction (see writeLog).
type logMark struct {
	games, tournaments, matches  map[int64]struct{}
	players                      map[int64][2]int64
	ratingMatches, ratingPlayers map[int64]struct{}
	wide                         uint8
}

// moveInto adds what l has collected to m and empties l.
func (l *writeLog) moveInto(m *logMark) {
	l.mu.Lock()
	defer l.mu.Unlock()
	moveSet(&m.games, l.games)
	moveSet(&m.tournaments, l.tournaments)
	moveSet(&m.matches, l.matches)
	moveSet(&m.ratingMatches, l.ratingMatches)
	moveSet(&m.ratingPlayers, l.ratingPlayers)
	moveSet(&m.players, l.players)
	m.wide |= l.wide
	l.wide = 0
}

// moveFrom adds what m holds to what l has collected.
func (l *writeLog) moveFrom(m *logMark) {
	l.mu.Lock()
	defer l.mu.Unlock()
	maps.Copy(l.games, m.games)
	maps.Copy(l.tournaments, m.tournaments)
	maps.Copy(l.matches, m.matches)
	maps.Copy(l.ratingMatches, m.ratingMatches)
	maps.Copy(l.ratingPlayers, m.ratingPlayers)
	maps.Copy(l.players, m.players)
	l.wide |= m.wide
}

// moveSet adds the entries of src to *dst (made when needed) and empties
// src.
func moveSet[V any](dst *map[int64]V, src map[int64]V) {
	if len(src) == 0 {
		return
	}
	if *dst == nil {
		*dst = make(map[int64]V, len(src))
	}
	maps.Copy(*dst, src)
	clear(src)
}
