package handlers

import "testing"

// TestPointsText: every column of the standings writes its fractions the
// same way, quarters included (Sonneborn–Berger counts half of a drawn
// opponent's points), never as decimals.
func TestPointsText(t *testing.T) {
	for p, want := range map[float64]string{0: "0", 0.5: "½", 0.25: "¼", 2: "2", 4.5: "4½", 4.75: "4¾", 3.25: "3¼", 10: "10"} {
		if got := pointsText(p); got != want {
			t.Errorf("pointsText(%v) = %q, want %q", p, got, want)
		}
	}
}
