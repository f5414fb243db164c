package handlers

import "context"

// PeakSearches returns the most computer searches (moves and analysis
// positions) that were under way at once since the app started.
func (a *App) PeakSearches() int {
	a.computer.mu.Lock()
	defer a.computer.mu.Unlock()
	return a.computer.peak
}

// TakeSearchSlot waits, as a computer's move does, for one of the
// computer's search slots (for a player of its own) and returns the
// function that gives it back; false when ctx ended first.
func (a *App) TakeSearchSlot(ctx context.Context) (release func(), ok bool) {
	const owner = 1 << 40
	if !a.computer.acquire(ctx, owner) {
		return nil, false
	}
	return func() { a.computer.release(owner) }, true
}

// Searches is how many computer searches are under way.
func (a *App) Searches() int {
	a.computer.mu.Lock()
	defer a.computer.mu.Unlock()
	return a.computer.running
}

// PushGap is the shortest time between two looks of the push sender
// that commits woke.
const PushGap = pushGap

// SetPairingsAtOnce sets the most pairings a Swiss tournament's page
// lists at once, until restore.
func SetPairingsAtOnce(n int) (restore func()) {
	old := pairingsAtOnce
	pairingsAtOnce = n
	return func() { pairingsAtOnce = old }
}
