package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/trench-games/trench/db"
)

// backupCommand runs `trench backup [--verify-games] [--db FILE] DEST`: a
// consistent copy of the database, taken while the server runs, then
// checked by SQLite's quick check; with --verify-games, by its full
// integrity check and every game replayed from its moves, with the
// engines the server registers.
func backupCommand(ctx context.Context, stdout io.Writer, args []string) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	path := fs.String("db", env("TRENCH_DB", "trench.db"), "the database to copy (TRENCH_DB)")
	verifyGames := fs.Bool("verify-games", false, "check the copy with SQLite's full integrity check and replay every game from its moves (minutes to an hour for a million games)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("backup: want one destination file\n%s", usage)
	}
	dest := fs.Arg(0)
	// The source is opened read-only: a backup never creates, migrates or
	// otherwise changes the live database, even when this binary is newer.
	if err := db.BackupFile(ctx, *path, dest); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	have, want, err := db.FileSchemaVersion(ctx, dest)
	if err != nil {
		return err
	}
	if !*verifyGames {
		if err := db.QuickCheckFile(ctx, dest); err != nil {
			return fmt.Errorf("backup: the copy %s does not check out: %w", dest, err)
		}
		info, err := os.Stat(dest)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "backed up %s to %s: %d bytes, quick check ok, schema version %d; the games were not replayed (--verify-games replays them)\n",
			*path, dest, info.Size(), have)
		return nil
	}
	if have != want {
		// Games are replayed through this binary's schema only.
		if err := db.CheckFile(ctx, dest); err != nil {
			return fmt.Errorf("backup: the copy %s does not check out: %w", dest, err)
		}
		info, err := os.Stat(dest)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "backed up %s to %s: %d bytes, integrity ok; schema version %d, this binary's is %d, so the games were not replayed\n",
			*path, dest, info.Size(), have, want)
		return nil
	}
	checked, err := db.VerifyFile(ctx, dest)
	if err != nil {
		return fmt.Errorf("backup: the copy %s does not check out: %w", dest, err)
	}
	info, err := os.Stat(dest)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up %s to %s: %d bytes, integrity ok, %d games and %d moves replayed\n",
		*path, dest, info.Size(), checked.Games, checked.Moves)
	return nil
}
