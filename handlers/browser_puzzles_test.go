package handlers_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserPuzzleSolvedAndRated: in Chromium, with JavaScript on and
// off, a player solves a puzzle, the first move by clicking the board and
// the second typed in the move box; the page says "Solved!" with the
// rating it changed, at the address of the line played (with JavaScript
// on, swapped in place, the page never reloaded). "Show solution" on
// another puzzle plays its first move.
func TestBrowserPuzzleSolvedAndRated(t *testing.T) {
	needChromium(t)
	s := startServer(t, "", nil)
	id, _ := addRacePuzzle(t, s)
	page := fmt.Sprintf("/puzzles/trench/%d", id)
	for _, script := range []bool{true, false} {
		t.Run(fmt.Sprintf("script=%v", script), func(t *testing.T) {
			b := newTab(t, s, script)
			b.signUp(fmt.Sprintf("solver%v", script))
			b.open(page)
			b.waitUntil(10*time.Second, "the board is drawn", `document.querySelector('#puzzle #board') !== null`)
			if script {
				b.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.puzzlePage = "kept"`))
			}
			click := func(sel string) {
				t.Helper()
				if script {
					b.do("click "+sel, chromedp.Click(chromedp.CSS(sel)))
				} else {
					b.clickAndLoad(sel)
				}
			}
			click(`#puzzle a[data-click="d5"]`)
			b.waitUntil(10*time.Second, "d5 selected", `document.querySelector('#puzzle button[data-click="g5"]') !== null`)
			click(`#puzzle button[data-click="g5"]`)
			b.waitUntil(10*time.Second, "the first move answered", `document.querySelector('#puzzle-right') !== null`)
			if got := b.text("#puzzle-played"); !strings.Contains(got, "d5-g5") || !strings.Contains(got, "g1-f1") {
				t.Fatalf("played %q", got)
			}
			b.do("type the second move", chromedp.SendKeys(chromedp.CSS("#puzzle-try"), "g5xg2"))
			if script {
				b.do("press Enter", chromedp.KeyEvent(kb.Enter))
			} else {
				b.kbPressAndLoad("press Enter", kb.Enter)
			}
			b.waitUntil(10*time.Second, "solved", `document.querySelector('#puzzle-solved') !== null`)
			if got := b.text("#puzzle-rating-change"); !strings.Contains(got, "(+") {
				t.Fatalf("rating change %q", got)
			}
			if loc := b.location(); loc != page+"?line=d5-g5%2Cg5xg2" {
				t.Fatalf("the address is %s", loc)
			}
			if script && !b.eval(`window.puzzlePage === "kept"`) {
				t.Fatal("with JavaScript on the page was reloaded")
			}
			b.open(page)
			b.waitUntil(10*time.Second, "the board is drawn", `document.querySelector('#puzzle-show-solution') !== null`)
			click("#puzzle-show-solution")
			b.waitUntil(10*time.Second, "the solution shown", `document.querySelector('#puzzle-solution') !== null`)
			if got := b.text("#puzzle-played"); !strings.Contains(got, "d5-g5") {
				t.Fatalf("the solution played %q", got)
			}
			if got := b.text("#puzzle-rating-change"); !strings.Contains(got, "only the first attempt counts") {
				t.Fatalf("after solving, the solution shown: %q", got)
			}
		})
	}
}

// TestBrowserPuzzlesAxe: axe-core finds no serious or critical violation
// on the puzzle pages: the list, a puzzle, a move made, a wrong move, a
// solved one and the solution shown, and a Trenches puzzle.
func TestBrowserPuzzlesAxe(t *testing.T) {
	needChromium(t)
	src, err := os.ReadFile("testdata/axe.min.js")
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "", nil)
	id, _ := addRacePuzzle(t, s)
	page := fmt.Sprintf("/puzzles/trench/%d", id)
	b := newTab(t, s, true)
	for _, p := range []string{"/puzzles", page, page + "?line=d5-g5&sel=g5", page + "?line=d5-d6",
		page + "?line=d5-g5,g5xg2", page + "?solution=2", "/puzzles/trenches"} {
		b.open(p)
		b.axeCheck(p, src)
	}
}
