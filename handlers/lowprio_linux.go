package handlers

import (
	"syscall"
	"unsafe"
)

// schedIdle is Linux's SCHED_IDLE scheduling policy (sched(7)).
const schedIdle = 5

// lowerThreadPriority gives the calling thread the lowest priority there
// is: the SCHED_IDLE policy, under which the thread runs only on a
// processor nothing else wants and gives it up as soon as a thread of
// ordinary priority wakes (a request's), and nice 19, where that policy
// is refused. On Linux the priority of a thread id is the thread's own.
// An error (a system that forbids both) leaves the priority as it was.
func lowerThreadPriority() {
	param := struct{ priority int32 }{0}
	_, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_SETSCHEDULER, uintptr(syscall.Gettid()), schedIdle, uintptr(unsafe.Pointer(&param)))
	if errno != 0 {
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
	}
}

// threadPolicy is the calling thread's scheduling policy, or -1.
func threadPolicy() int {
	p, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_GETSCHEDULER, 0, 0, 0)
	if errno != 0 {
		return -1
	}
	return int(p)
}
