package handlers

// PeakSearches returns the most computer searches (moves and analysis
// positions) that were under way at once since the app started.
func (a *App) PeakSearches() int {
	a.computer.mu.Lock()
	defer a.computer.mu.Unlock()
	return a.computer.peak
}
