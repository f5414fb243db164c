package handlers

import (
	"errors"
	"testing"
)

// A memo builds a value once, keeps no error, and past its size starts
// again empty.
func TestMemoKeepsValuesNotErrors(t *testing.T) {
	m := memo[int, string]{size: 2}
	builds := 0
	get := func(k int, err error) (string, error) {
		return m.get(k, func() (string, error) {
			builds++
			return "v", err
		})
	}
	for range 3 {
		if v, err := get(1, nil); v != "v" || err != nil {
			t.Fatalf("get(1) = %q, %v", v, err)
		}
	}
	if builds != 1 {
		t.Fatalf("built %d times for one key, want once", builds)
	}
	boom := errors.New("boom")
	for range 2 {
		if _, err := get(2, boom); !errors.Is(err, boom) {
			t.Fatalf("get(2) = %v, want the build's error", err)
		}
	}
	if builds != 3 {
		t.Fatalf("an error was kept: %d builds, want 3", builds)
	}
	get(2, nil) // the memo is full
	get(3, nil) // starts again empty
	get(1, nil)
	if builds != 6 {
		t.Fatalf("%d builds; past its size the memo should have started again", builds)
	}
}
