package handlers

import (
	"runtime"
	"testing"
)

// The computer's searches run on a thread of the idle policy: any request
// takes the processor from them at once.
func TestSearchThreadsRunAtIdlePriority(t *testing.T) {
	done := make(chan int)
	go func() {
		runtime.LockOSThread()
		before := threadPolicy()
		lowerThreadPriority()
		if before == schedIdle {
			done <- -2
			return
		}
		done <- threadPolicy()
	}()
	switch p := <-done; p {
	case schedIdle:
	case -2:
		t.Fatal("the thread ran at the idle policy before: the test shows nothing")
	default:
		t.Fatalf("the search thread's policy is %d, want SCHED_IDLE (%d)", p, schedIdle)
	}
}
