package handlers

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
	_ "github.com/trench-games/trench/rules/trenches/bot"
)

// slowClock is a clock on which every reading passes step: a search that
// reads it at each of its checks sees time go as on a machine as many
// times slower as step is longer than the time between two checks.
type slowClock struct {
	mu   sync.Mutex
	now  time.Time
	step time.Duration
}

func (c *slowClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(c.step)
	return c.now
}

// TestHardKeepsItsNodesOnASlowMachine: the computer's move at the hard
// level, with the server's budget, searches exactly as it does with no
// time limit at all (the same nodes, the same move) when the machine is
// five times slower than the one its node budget was measured on: the
// node budget decides its strength, not the load.
func TestHardKeepsItsNodesOnASlowMachine(t *testing.T) {
	player, ok := bot.Lookup("trenches")
	if !ok {
		t.Fatal("no computer player for Trenches")
	}
	eng, _ := rules.Lookup("trenches")
	st, err := eng.Start(rules.GameSpec{Variant: eng.Variants()[0].Key}, 7)
	if err != nil {
		t.Fatal(err)
	}
	req := bot.Request{Level: bot.Hard, Seed: 11, Side: st.ToMove()}
	free, err := player.Think(st, req) // no time limit
	if err != nil {
		t.Fatal(err)
	}
	// The search checks its clock every 2048 nodes: spread five times
	// the level's usual time over the checks of its whole budget.
	checks := free.Nodes/2048 + 1
	clock := &slowClock{now: time.Unix(0, 0), step: 5 * bot.MoveTime(bot.Hard) / time.Duration(checks)}
	c := &computer{clock: clock.Now}
	req.Budget = c.moveBudget(context.Background(), bot.Hard)
	slow, err := player.Think(st, req)
	if err != nil {
		t.Fatal(err)
	}
	if slow.Nodes != free.Nodes || slow.Move != free.Move {
		t.Fatalf("on a machine five times slower the hard level searched %d nodes and chose %s; with no time limit %d nodes and %s",
			slow.Nodes, slow.Move, free.Nodes, free.Move)
	}
	// A search stalled far beyond that is still stopped by the cap.
	clock.step *= 4 * bot.MoveCapFactor
	req.Budget = c.moveBudget(context.Background(), bot.Hard)
	stalled, err := player.Think(st, req)
	if err != nil {
		t.Fatal(err)
	}
	if stalled.Nodes >= free.Nodes {
		t.Fatalf("on a machine %d times slower the search ran its whole budget: no time cap", 20*bot.MoveCapFactor)
	}
	t.Logf("%d nodes, %s; stalled: %d nodes", slow.Nodes, slow.Move, stalled.Nodes)
}
