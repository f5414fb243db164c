package handlers

import "syscall"

// lowerThreadPriority gives the calling thread the lowest priority of
// the ordinary scheduling policy (nice 19); on Linux the priority of a
// thread id is the thread's own. An error (a system that forbids it)
// leaves the priority as it was.
//
// Not the SCHED_IDLE policy, lower still: a thread under it may wait for
// the processor for seconds while other processes keep it busy, and when
// the Go runtime needs that thread (to stop every goroutine for the
// garbage collector, or for a lock of its own the thread holds) every
// request waits with it. Measured on a busy machine, the first burst of
// 16 requests after a start had its slowest at 159 to 274 ms under
// SCHED_IDLE, once 2.9 s, and 144 to 222 ms at nice 19.
func lowerThreadPriority() {
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}

// threadNice is the calling thread's nice value (-20 to 19), or 99 when
// it cannot be read.
func threadNice() int {
	// The system call returns 20 - nice (syscall.Getpriority passes it
	// on as it is).
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	if err != nil {
		return 99
	}
	return 20 - p
}
