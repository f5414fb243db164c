package handlers

import "syscall"

// lowerThreadPriority gives the calling thread the lowest priority (nice
// 19); on Linux the priority of a thread id is the thread's own. An error
// (a system that forbids it) leaves the priority as it was.
func lowerThreadPriority() {
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}
