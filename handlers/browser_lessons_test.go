package handlers_test

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserLessonsByKeyboard: the TRENCH course's first three steps
// done with the keyboard alone (Tab to a square, Enter), with JavaScript
// on (each click swapped in place, the page never reloaded) and off
// (each click a new page); each step says "Well done" and the course's
// page then shows three steps done.
func TestBrowserLessonsByKeyboard(t *testing.T) {
	needChromium(t)
	s := startServer(t, "", nil)
	for _, script := range []bool{true, false} {
		t.Run(fmt.Sprintf("script=%v", script), func(t *testing.T) {
			b := newTab(t, s, script)
			for n, move := range [][2]string{{"c3", "c4"}, {"d4", "d5"}, {"c3", "c5"}} {
				b.open(fmt.Sprintf("/learn/trench/%d", n+1))
				b.waitUntil(10*time.Second, "the board is drawn", `document.querySelector('#lesson #board') !== null`)
				if script {
					b.do("mark the page", chromedp.Evaluate[chromedp.Void](`window.lessonPage = "kept"`))
				}
				for i, click := range move {
					sel := fmt.Sprintf(`#lesson a[data-click=%q]`, click)
					b.kbTabTo(sel)
					if script {
						b.do("press Enter on "+click, chromedp.KeyEvent(kb.Enter))
					} else {
						b.kbPressAndLoad("press Enter on "+click, kb.Enter)
					}
					after := fmt.Sprintf(`document.querySelector('#lesson a[data-click=%q]') !== null`, move[1])
					if i == 1 {
						after = `document.querySelector('#lesson-right') !== null`
					}
					b.waitUntil(10*time.Second, fmt.Sprintf("step %d after the click on %s", n+1, click), after)
				}
				if got := b.text("#lesson-right strong"); got != "Well done!" {
					t.Fatalf("step %d: %q", n+1, got)
				}
				if script && !b.eval(`window.lessonPage === "kept"`) {
					t.Fatalf("step %d: with JavaScript on the page was reloaded", n+1)
				}
			}
			b.open("/learn/trench")
			if got := b.count("#learn-steps li.done"); got != 3 {
				t.Fatalf("the course shows %d steps done, want 3", got)
			}
		})
	}
}

// TestBrowserLessonsAxe: axe-core finds no serious or critical violation
// on the lesson pages: the list, a course, a step of each game (with the
// hint shown), a step done and a step failed, and the final games.
func TestBrowserLessonsAxe(t *testing.T) {
	needChromium(t)
	src, err := os.ReadFile("testdata/axe.min.js")
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	for _, p := range []string{"/learn", "/learn/trench", "/learn/trench/4?hint=1", "/learn/trenches/2?hint=1",
		"/learn/cards/3?hint=1", "/learn/trench/1?line=c3-c4", "/learn/trench/1?line=b2-b3",
		"/learn/trench/play", "/learn/trenches/play", "/learn/cards/play"} {
		b.open(p)
		b.axeCheck(p, src)
	}
}
