package db

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// Feed tokens stored in clear by an older release are hashed by the
// upgrade: the addresses handed out before keep working, and the file no
// longer holds them.
func TestUpgradeHashesStoredFeedTokens(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trench.db")
	oldDatabase(t, path, 17)
	const tok = "q83vEjRWeJCrze8SNFZ4kA" // 16 bytes, as the old release made them
	w, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.ExecContext(ctx, `INSERT INTO notify_settings (user_id, feed_token) VALUES ((SELECT id FROM users WHERE name = 'ann'), ?)`, tok); err != nil {
		t.Fatal(err)
	}
	w.Close()

	store, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if u, err := store.UserByFeedToken(ctx, tok); err != nil || u.Name != "ann" {
		t.Fatalf("the feed address made before the upgrade: %q, %v; want ann's feed", u.Name, err)
	}
	var stored string
	if err := store.read.QueryRowContext(ctx, `SELECT feed_hash FROM notify_settings`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored == tok || stored != feedHash(tok) {
		t.Fatalf("stored %q for the token %q, want its hash %q", stored, tok, feedHash(tok))
	}
}
