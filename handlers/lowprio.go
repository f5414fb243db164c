package handlers

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/bot"
)

// think runs player.Think on an operating-system thread of its own at the
// lowest scheduling priority (where the system allows it), so that the
// computer's searches get only the CPU the requests leave over. The
// thread ends with the search. With GOMAXPROCS raised by the number of
// searches that may run at once (as `trench serve` does), a search does
// not hold a processor the requests need either. A panic in the search
// is returned as an error.
func think(player bot.Player, st rules.State, req bot.Request) (bot.Thought, error) {
	type answer struct {
		th  bot.Thought
		err error
	}
	done := make(chan answer, 1)
	go func() {
		// Never unlocked: a goroutine that ends locked takes its thread,
		// with the lowered priority, with it.
		runtime.LockOSThread()
		lowerThreadPriority()
		var a answer
		defer func() {
			if r := recover(); r != nil {
				a.err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
			}
			done <- a
		}()
		a.th, a.err = player.Think(st, req)
	}()
	a := <-done
	return a.th, a.err
}
