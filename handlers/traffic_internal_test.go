package handlers

import (
	"context"
	"testing"
	"time"
)

// TestPuzzleSearchStandsAsideWhileRequestsAreAnswered: the wait the
// puzzle search makes at each of its checks lasts while a request is
// being answered and for quietFor after the last one, and ends at once
// when a search of a player's wants its slot or the server stops.
func TestPuzzleSearchStandsAsideWhileRequestsAreAnswered(t *testing.T) {
	var tr traffic
	never := func() bool { return false }
	if w := tr.waitQuiet(context.Background(), time.Now, never); w != 0 {
		t.Fatalf("a server that answered nothing made the search wait %v", w)
	}
	tr.begin()
	done := make(chan time.Duration, 1)
	go func() { done <- tr.waitQuiet(context.Background(), time.Now, never) }()
	select {
	case w := <-done:
		t.Fatalf("the search went on (after %v) while a request was being answered", w)
	case <-time.After(60 * time.Millisecond):
	}
	ended := time.Now()
	tr.end(ended)
	select {
	case <-done:
		if since := time.Since(ended); since < quietFor {
			t.Errorf("the search went on %v after the last request, want at least %v", since, quietFor)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the search still waited long after the last request")
	}

	tr.begin()
	defer tr.end(time.Now())
	wanted := make(chan bool)
	go func() {
		done <- tr.waitQuiet(context.Background(), time.Now, func() bool {
			select {
			case <-wanted:
				return true
			default:
				return false
			}
		})
	}()
	close(wanted)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a player's search waited for the puzzle search's pause")
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { done <- tr.waitQuiet(ctx, time.Now, never) }()
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the pause outlasted the server's stop")
	}
}
