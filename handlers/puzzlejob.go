package handlers

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules/puzzles"
)

// The puzzle job: when no analysis waits, the computer's worker looks
// for puzzles in the oldest finished game of TRENCH or Trenches it has not
// looked at yet (db.NextPuzzleScan), one game at a time, on a thread at
// the lowest priority and in one of the computer's search slots, taking
// its turn after every player and the analyses. The game is recorded as
// looked at in the transaction that stores its puzzles, so a restart
// picks up at the first game not done.

// puzzleOwner is the owner of the puzzle job's searches in the slots'
// round.
const puzzleOwner int64 = -2

// puzzleRound starts the search of the next finished game for puzzles,
// unless one is under way.
func (c *computer) puzzleRound(ctx context.Context, wg *sync.WaitGroup) error {
	c.mu.Lock()
	busy := c.puzzling
	c.mu.Unlock()
	if busy {
		return nil
	}
	g, ok, err := c.db.NextPuzzleScan(ctx)
	if err != nil || !ok {
		return err
	}
	c.mu.Lock()
	c.puzzling = true
	c.mu.Unlock()
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			c.mu.Lock()
			c.puzzling = false
			c.mu.Unlock()
		}()
		if err := c.safely(func() error { return c.findPuzzles(ctx, g) }); err != nil && ctx.Err() == nil {
			c.log.Error("puzzles", "game", g.ID, "err", err)
			// Recorded as looked at, with nothing found: the job goes on.
			if _, err := c.db.AddPuzzles(ctx, g.ID, nil, c.now()); err != nil {
				c.log.Error("puzzles", "game", g.ID, "err", err)
			}
		}
		if ctx.Err() == nil {
			c.Wake() // the next game
		}
	}()
	return nil
}

// findPuzzles searches finished game g for puzzles, taking the values of
// its analysis where it has one, and stores them with the mark that g was
// looked at.
func (c *computer) findPuzzles(ctx context.Context, g db.Game) error {
	moves, err := c.db.Moves(ctx, g.ID)
	if err != nil {
		return err
	}
	ms := make([]string, len(moves))
	for i, m := range moves {
		ms[i] = m.Move
	}
	scores, err := c.db.AnalysisScores(ctx, g.ID)
	if err != nil {
		return err
	}
	if !c.acquire(ctx, puzzleOwner) {
		return nil
	}
	// The lowest of all: the search gives its slot up as soon as another
	// search (a computer's move, an analysis) waits for one, and the game
	// is looked at again from its start once the slot is free.
	// It also stands aside while the server answers requests (traffic),
	// and the time it waits does not count towards its cap.
	var yielded atomic.Bool
	var waited time.Duration // only the search's goroutine reads and writes it
	limit := stopper(ctx, func() time.Time { return c.clock().Add(-waited) }, analysisCap*10)
	stop := func() bool {
		if c.slots.wanted() {
			yielded.Store(true)
			return true
		}
		if waited += c.traffic.waitQuiet(ctx, c.clock, c.slots.wanted); c.slots.wanted() {
			yielded.Store(true)
			return true
		}
		return limit()
	}
	type found struct {
		ps  []puzzles.Puzzle
		err error
	}
	done := make(chan found, 1)
	go func() {
		// Never unlocked: the thread, with its lowered priority, ends
		// with the goroutine.
		runtime.LockOSThread()
		lowerThreadPriority()
		var f found
		defer func() {
			if r := recover(); r != nil {
				f.err = fmt.Errorf("panic: %v", r)
			}
			done <- f
		}()
		f.ps, _, f.err = puzzles.FindInRecord(g.Game, g.Variant, g.StartState, ms, g.Seed, stop, scores)
	}()
	f := <-done
	c.release(puzzleOwner)
	if ctx.Err() != nil || yielded.Load() {
		return nil // stopped: the game is looked at again (after the restart)
	}
	if f.err != nil {
		return f.err
	}
	_, err = c.db.AddPuzzles(ctx, g.ID, f.ps, c.now())
	return err
}

// loadStarterPuzzles stores the puzzles shipped in the binary
// (puzzles.Starter) when the database has none, so that a new server has
// puzzles from its first start. They are dated at the Unix epoch, as
// stored before any day began: the daily puzzle of a server's first day
// is one of them all day, whatever the day's games add.
func loadStarterPuzzles(ctx context.Context, store *db.DB) error {
	n, err := store.CountPuzzles(ctx, "")
	if err != nil || n > 0 {
		return err
	}
	ps, err := puzzles.Starter()
	if err != nil {
		return err
	}
	_, err = store.AddPuzzles(ctx, 0, ps, time.Unix(0, 0))
	return err
}
