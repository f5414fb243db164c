package handlers

import (
	"fmt"
	"slices"
	"testing"
)

// TestBoardLinesTree: trying moves builds the variation tree the
// analysis board's address holds: a move a line already makes steps along
// it, another one branches off and keeps the old line, the up and down
// steps go between the branches in the order of their moves, and a tree
// grown past its bounds drops the variations furthest from the new line.
func TestBoardLinesTree(t *testing.T) {
	l := boardLines{}
	for _, m := range []string{"a", "b", "c"} {
		l = l.play(m)
	}
	l.At = 1
	if n := l.play("b"); n.At != 2 || len(n.Alts) != 0 || !slices.Equal(n.Line, []string{"a", "b", "c"}) {
		t.Fatalf("replaying the line's own move: %+v", n)
	}
	n := l.play("x")
	if !slices.Equal(n.Line, []string{"a", "x"}) || len(n.Alts) != 1 || !slices.Equal(n.Alts[0], []string{"a", "b", "c"}) {
		t.Fatalf("a branch: %+v", n)
	}
	up, ok := n.sibling(-1)
	if !ok || !slices.Equal(up.Line, []string{"a", "b", "c"}) || up.At != 2 {
		t.Fatalf("up from the branch: %+v %v", up, ok)
	}
	if _, ok := n.sibling(1); ok {
		t.Fatal("a step down from the last branch")
	}
	if href := n.href("/games/3", false, nil); href != "/games/3/analysis?line=a,x&alt=a,b,c" {
		t.Fatalf("the address is %s", href)
	}

	// Full: the variations that branch off first go first.
	big := boardLines{}
	for i := 0; i < maxLines-1; i++ {
		line := []string{fmt.Sprint("m", i)}
		for len(line) < maxTreeMoves/maxLines {
			line = append(line, "z")
		}
		big.Alts = append(big.Alts, line)
	}
	big.Line = append([]string{"m0"}, slices.Repeat([]string{"y"}, 5)...)
	big.At = 3
	big.tidy()
	grown := big.play("w")
	if grown.size() > maxTreeMoves || len(grown.Alts)+1 > maxLines {
		t.Fatalf("the tree grew to %d moves in %d lines", grown.size(), len(grown.Alts)+1)
	}
	kept := 0
	for _, a := range grown.Alts {
		if a[0] == "m0" {
			kept++
		}
	}
	if kept != 2 {
		t.Fatalf("the variations nearest the new line were dropped: %q", grown.Alts)
	}
}
