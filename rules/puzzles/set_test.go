package puzzles

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestStarterSet: the set shipped in the binary parses, every puzzle
// plays, and both games have puzzles.
func TestStarterSet(t *testing.T) {
	ps, err := Starter()
	if err != nil {
		t.Fatal(err)
	}
	games := map[string]int{}
	for _, p := range ps {
		games[p.Game]++
	}
	if games["trench"] < 10 || games["trenches"] < 5 {
		t.Fatalf("starter set by game: %v", games)
	}
}

// TestSetRoundTrip: a written set reads back the same; a line whose
// solution does not play, or a card game line, is refused with its
// number.
func TestSetRoundTrip(t *testing.T) {
	ps := []Puzzle{{Game: "trench", Variant: "single", Position: "c7/8/r7/3c4/8/2C5/a5G1/6C1 b 4 23 23", Solution: []string{"d5-g5", "g1-f1", "g5xg2"}, Themes: []string{ThemeRace, ThemeWin}}}
	var b bytes.Buffer
	if err := WriteSet(&b, "test", ps); err != nil {
		t.Fatal(err)
	}
	back, err := ParseSet(&b)
	if err != nil || len(back) != 1 || !slices.Equal(back[0].Solution, ps[0].Solution) || !slices.Equal(back[0].Themes, ps[0].Themes) {
		t.Fatalf("read back %+v, %v", back, err)
	}
	for _, bad := range []string{
		"trench\tsingle\tc7/8/r7/3c4/8/2C5/a5G1/6C1 b 4 23 23\td5-g6\t\n",
		"cards\t\tx\ta\t\n",
		"trench\tsingle\tc7/8/r7/3c4/8/2C5/a5G1/6C1 b 4 23 23\td5-g5 g1-f1\t\n",
	} {
		if _, err := ParseSet(strings.NewReader("# head\n" + bad)); err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Fatalf("%q: %v", bad, err)
		}
	}
}
