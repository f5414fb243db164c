package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/trench-games/trench/db"
)

// restoreCommand runs `trench restore --from URL [--timestamp T]
// [--verify-games] DEST`: the replica's copy of the database (the latest,
// or as it was at T) is written to DEST, a new file, then checked like a
// backup (SQLite's quick check; with --verify-games, its integrity check
// and every game replayed from its moves). It says which moment it restored:
// the last change that reached the replica at or before T.
func restoreCommand(ctx context.Context, stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	from := fs.String("from", env("TRENCH_REPLICATE", ""), "the replica: file:///path or s3://bucket/path (TRENCH_REPLICATE)")
	stamp := fs.String("timestamp", "", "restore the database as it was at this time (RFC 3339, e.g. 2026-11-24T18:00:00Z); default the latest")
	verifyGames := fs.Bool("verify-games", false, "check the copy with SQLite's full integrity check and replay every game from its moves")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if len(pos) != 1 || *from == "" {
		return fmt.Errorf("restore: want --from URL and one destination file\n%s", usage)
	}
	var at time.Time
	if *stamp != "" {
		if at, err = time.Parse(time.RFC3339, *stamp); err != nil {
			return fmt.Errorf("restore: --timestamp %q: want RFC 3339, e.g. 2026-11-24T18:00:00Z", *stamp)
		}
	}
	dest := pos[0]
	restored, err := db.Restore(ctx, *from, dest, at, *verifyGames)
	if err != nil {
		return err
	}
	info, err := os.Stat(dest)
	if err != nil {
		return err
	}
	moment := restored.At.UTC().Format(time.RFC3339)
	when := "the latest state, of " + moment
	if !at.IsZero() {
		when = fmt.Sprintf("the state of %s (the last change at or before %s)", moment, at.UTC().Format(time.RFC3339))
	}
	if !*verifyGames {
		fmt.Fprintf(stdout, "restored %s to %s: %s, %d bytes, quick check ok; the games were not replayed (--verify-games replays them)\n",
			when, dest, "from the replica", info.Size())
		return nil
	}
	fmt.Fprintf(stdout, "restored %s to %s: %s, %d bytes, integrity ok, %d games and %d moves replayed\n",
		when, dest, "from the replica", info.Size(), restored.Games, restored.Moves)
	return nil
}
