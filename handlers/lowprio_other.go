//go:build !linux

package handlers

// lowerThreadPriority does nothing where a thread's priority cannot be
// set on its own.
func lowerThreadPriority() {}
