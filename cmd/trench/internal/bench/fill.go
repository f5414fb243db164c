package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/trench-games/trench/db"
)

// FillPassword is the password of every account `trench bench --fill`
// makes.
const FillPassword = "fill-password"

// fill builds a database of n games at path for measurement (db.Fill)
// and says what it made and how long it took.
func fill(ctx context.Context, out io.Writer, path string, n int) error {
	if path == "" {
		return fmt.Errorf("bench: --fill needs --db PATH")
	}
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("bench: --fill: %s exists; the fill makes a new database", path)
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(FillPassword), bcrypt.DefaultCost)
	if err != nil {
		return err
	}
	start := time.Now()
	fmt.Fprintf(out, "fill: %d games into %s (load average %s)\n", n, path, loadAverage())
	res, err := db.Fill(ctx, path, db.FillOptions{Games: n, PasswordHash: string(hash), Seed: uint64(start.UnixNano()),
		Progress: func(done int) {
			el := time.Since(start)
			fmt.Fprintf(out, "  %d games in %s (%.0f/s)\n", done, el.Round(time.Second), PerSec(done, el))
		}})
	if err != nil {
		return err
	}
	el := time.Since(start)
	var size int64
	if fi, err := os.Stat(path); err == nil {
		size = fi.Size()
	}
	fmt.Fprintf(out, "fill: %d games (%d in progress), %d moves, %d players (the busiest, %s, with %d games), %d tournaments, %d rated games in %s (%.0f games/s); %.2f GB, %.1f KB a game; every password is %q, %q administers\n",
		res.Games, res.Active, res.Moves, res.Users, res.Heaviest, res.HeaviestGames, res.Tournaments, res.Rated,
		el.Round(time.Second), PerSec(res.Games, el), float64(size)/1e9, float64(size)/1e3/float64(max(1, res.Games)), FillPassword, "admin")
	return nil
}
