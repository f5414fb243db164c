package handlers

import (
	"runtime"
	"testing"
)

// The computer's searches run on a thread of their own at nice 19: any
// request's thread is served first.
func TestSearchThreadsRunAtTheLowestPriority(t *testing.T) {
	type niceness struct{ before, after int }
	done := make(chan niceness)
	go func() {
		runtime.LockOSThread()
		var n niceness
		n.before = threadNice()
		lowerThreadPriority()
		n.after = threadNice()
		done <- n
	}()
	switch n := <-done; {
	case n.before == 19:
		t.Fatal("the thread ran at nice 19 before: the test shows nothing")
	case n.after != 19:
		t.Fatalf("the search thread's nice value is %d (%d before), want 19", n.after, n.before)
	}
}
