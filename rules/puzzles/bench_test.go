package puzzles

import (
	"testing"

	"github.com/trench-games/trench/rules/bot"
)

// BenchmarkFind looks for puzzles in a self-played game of each of the
// two board games, as the server's search does in the games that end: the
// time and the memory allocated per game looked through.
func BenchmarkFind(b *testing.B) {
	for _, game := range [][2]string{{"trench", "single"}, {"trenches", "standard"}} {
		b.Run(game[0], func(b *testing.B) {
			states, err := SelfPlay(game[0], game[1], bot.Easy, 3)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				g, err := New(game[0], game[1], 1)
				if err != nil {
					b.Fatal(err)
				}
				if _, _, err := g.Find(states); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
