package db

import "context"

// HoldWriteTurn takes the write connection as a transaction would, until
// release is called: the changes asked for meanwhile wait together.
func HoldWriteTurn(store *DB) (release func()) {
	tx, err := store.begin(context.Background())
	if err != nil {
		panic(err)
	}
	return func() { tx.Rollback() }
}

// WaitingWrites is how many changes of games wait for the write connection.
func WaitingWrites(store *DB) int {
	store.queue.mu.Lock()
	defer store.queue.mu.Unlock()
	return len(store.queue.waiting)
}
