package db

import (
	"context"
	"errors"
	"fmt"
	"maps"
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
	select {
	case db.writeTurn <- struct{}{}:
		// Ours may have been taken already (and answered) by the
		// transaction before; then the turn serves those still waiting.
		if group := db.queue.take(); len(group) > 0 {
			db.runGroup(group)
		} else {
			<-db.writeTurn
		}
	case <-w.claimed:
	case <-ctx.Done():
		if db.queue.remove(w) {
			return Game{}, fmt.Errorf("db: begin: %w", ctx.Err())
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
	for _, w := range group {
		if _, err := tx.ExecContext(bg, `SAVEPOINT game_write`); err != nil {
			fail(fmt.Errorf("db: savepoint: %w", err))
			return
		}
		mark := tx.mark()
		w.game, w.err = runProtected(w, tx)
		var ct commitThen
		switch {
		case errors.As(w.err, &ct):
			w.game, w.err = Game{}, ct.err
		case w.err != nil:
			if _, err := tx.ExecContext(bg, `ROLLBACK TO game_write`); err != nil {
				fail(fmt.Errorf("db: rollback to savepoint: %w", err))
				return
			}
			tx.restore(mark)
		}
		if _, err := tx.ExecContext(bg, `RELEASE game_write`); err != nil {
			fail(fmt.Errorf("db: release savepoint: %w", err))
			return
		}
	}
	if err := tx.Commit(); err != nil {
		for _, w := range group {
			if w.err == nil {
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
			g, err = Game{}, fmt.Errorf("db: panic in a game's change: %v", r)
		}
	}()
	return w.run(w.ctx, tx)
}

// txMark is what a transaction had collected (its fresh games and its
// log of changes) before a change in a savepoint.
type txMark struct {
	fresh map[int64]freshGame
	log   logMark
}

// mark returns what tx has collected so far, for restore.
func (tx *Tx) mark() txMark {
	m := txMark{log: tx.log.snapshot()}
	if len(tx.fresh) > 0 {
		m.fresh = make(map[int64]freshGame, len(tx.fresh))
		for id, f := range tx.fresh {
			c := *f
			c.moves = slices.Clip(c.moves)
			m.fresh[id] = c
		}
	}
	return m
}

// restore forgets what tx collected since m (a change rolled back to its
// savepoint).
func (tx *Tx) restore(m txMark) {
	tx.log.restore(m.log)
	clear(tx.fresh)
	for id, f := range m.fresh {
		c := f
		tx.freshOf(id)
		*tx.fresh[id] = c
	}
}

// logMark is what a writeLog had collected at one point of a
// transaction.
type logMark struct {
	games, tournaments, matches  map[int64]struct{}
	players                      map[int64][2]int64
	ratingMatches, ratingPlayers map[int64]struct{}
	wide                         uint8
}

func (l *writeLog) snapshot() logMark {
	l.mu.Lock()
	defer l.mu.Unlock()
	return logMark{games: maps.Clone(l.games), tournaments: maps.Clone(l.tournaments), matches: maps.Clone(l.matches),
		players: maps.Clone(l.players), ratingMatches: maps.Clone(l.ratingMatches), ratingPlayers: maps.Clone(l.ratingPlayers), wide: l.wide}
}

func (l *writeLog) restore(m logMark) {
	l.mu.Lock()
	defer l.mu.Unlock()
	set := func(dst, src map[int64]struct{}) {
		clear(dst)
		maps.Copy(dst, src)
	}
	set(l.games, m.games)
	set(l.tournaments, m.tournaments)
	set(l.matches, m.matches)
	set(l.ratingMatches, m.ratingMatches)
	set(l.ratingPlayers, m.ratingPlayers)
	clear(l.players)
	maps.Copy(l.players, m.players)
	l.wide = m.wide
}
