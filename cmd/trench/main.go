// Command trench is the Trench server and its tools: `trench serve` runs
// the correspondence server; `trench rules` answers rules questions about
// a position from the command line; `trench doctor` checks an
// installation; `trench version` says what was built.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/trench-games/trench/cmd/trench/internal/bench"
	"github.com/trench-games/trench/cmd/trench/internal/crashtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	err := run(ctx, os.Args[1:])
	stop()
	var exit exitError
	switch {
	case errors.As(err, &exit):
		os.Exit(int(exit))
	case err != nil:
		fmt.Fprintln(os.Stderr, "trench:", err)
		os.Exit(1)
	}
}

// exitError ends the program with that status after the message was
// already printed.
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

const usage = `usage:
  trench serve [--addr ADDR] [--db FILE] [--base-url URL] [--secure-cookies]
               [--domain DOMAIN]... [--acme-email E] [--acme-directory URL] | [--tls-cert FILE --tls-key FILE]
               (trench serve --help lists every flag)
  trench rules legal GAME POSITION
  trench rules apply GAME POSITION MOVE...
  trench rules perft GAME POSITION DEPTH
  trench rules replay FILE
  trench backup [--verify-games] [--db FILE] DEST
  trench restore --from URL [--timestamp T] [--verify-games] DEST
  trench admin [--db FILE] [--base-url URL] COMMAND   (trench admin help lists the commands)
  trench doctor [--full-check] [--db FILE] [flags as for serve]
  trench version
  trench bench [--users N] [--games N] [--clients N] [--moves N] [--duration D] [--url URL] [--cpuprofile FILE]
  trench bench --fill N --db FILE
  trench crashtest [--rounds N] [--load D] [--bin FILE]
  trench bot move trench|trenches|cards POSITION [--rules R] [--level L] [--movetime MS] [--nodes N] [--seed N]
  trench bot duel --game trench|trenches|cards [--rules R] --a LEVEL --b LEVEL --games N [--movetime MS | --nodes N] [--seed N]
  trench puzzles generate [--db FILE] [--selfplay N [--level L] [--seed S] [--game trench,trenches] [--out FILE]]
GAME is trench, trenches or cards.
LEVEL is easy, medium, hard, random or greedy.`

// run dispatches to a subcommand; with none it serves.
func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return serve(ctx, nil)
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:])
	case "rules":
		return rulesCommand(os.Stdout, os.Stderr, args[1:])
	case "backup":
		return backupCommand(ctx, os.Stdout, args[1:])
	case "restore":
		return restoreCommand(ctx, os.Stdout, args[1:])
	case "admin":
		return adminCommand(ctx, os.Stdout, args[1:])
	case "doctor":
		return doctorCommand(ctx, os.Stdout, args[1:])
	case "version", "--version":
		return versionCommand(ctx, os.Stdout, args[1:])
	case "bench":
		err := bench.Command(ctx, os.Stdout, args[1:])
		if errors.Is(err, bench.ErrLoadErrors) {
			return exitError(1) // the report names them
		}
		return err
	case "crashtest":
		return crashtest.Command(ctx, os.Stdout, args[1:])
	case "bot":
		return botCommand(ctx, os.Stdout, os.Stderr, args[1:])
	case "puzzles":
		return puzzlesCommand(ctx, os.Stdout, args[1:])
	case "help", "-h", "--help":
		fmt.Println(usage)
		return nil
	}
	return fmt.Errorf("unknown command %q\n%s", args[0], usage)
}
