package main

import (
	"context"
	"io"

	"github.com/trench-games/trench/cmd/trench/internal/puzzlegen"
)

// puzzlesCommand runs `trench puzzles generate …` (see puzzlegen).
func puzzlesCommand(ctx context.Context, stdout io.Writer, args []string) error {
	return puzzlegen.Command(ctx, stdout, args)
}
