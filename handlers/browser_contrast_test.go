package handlers_test

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// colourRe finds the colours in a computed style value.
var colourRe = regexp.MustCompile(`rgba?\(([^)]*)\)|#[0-9a-fA-F]{6}\b`)

// colours lists the opaque colours of a computed style value (a colour,
// a box-shadow list, a custom property).
func colours(t *testing.T, v string) [][3]float64 {
	t.Helper()
	var out [][3]float64
	for _, m := range colourRe.FindAllStringSubmatch(v, -1) {
		var c [3]float64
		if strings.HasPrefix(m[0], "#") {
			for i := range 3 {
				n, _ := strconv.ParseUint(m[0][1+2*i:3+2*i], 16, 8)
				c[i] = float64(n)
			}
			out = append(out, c)
			continue
		}
		f := strings.FieldsFunc(m[1], func(r rune) bool { return r == ',' || r == ' ' || r == '/' })
		if len(f) == 4 {
			if a, _ := strconv.ParseFloat(f[3], 64); a < 0.99 {
				continue // a see-through colour: not counted
			}
		}
		for i := range 3 {
			c[i], _ = strconv.ParseFloat(f[i], 64)
		}
		out = append(out, c)
	}
	return out
}

// contrast is the WCAG contrast ratio of two colours.
func contrast(a, b [3]float64) float64 {
	lum := func(c [3]float64) float64 {
		var l [3]float64
		for i, v := range c {
			v /= 255
			if v <= 0.03928 {
				l[i] = v / 12.92
			} else {
				l[i] = math.Pow((v+0.055)/1.055, 2.4)
			}
		}
		return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
	}
	x, y := lum(a), lum(b)
	return (math.Max(x, y) + 0.05) / (math.Min(x, y) + 0.05)
}

// wantStandOut fails unless, against each background, one of the
// indicator's colours has a contrast of 3:1 or more (WCAG 1.4.11).
func wantStandOut(t *testing.T, what, indicator string, backgrounds ...string) {
	t.Helper()
	marks := colours(t, indicator)
	if len(marks) == 0 {
		t.Errorf("%s has no opaque colour: %q", what, indicator)
		return
	}
	for _, bg := range backgrounds {
		for _, b := range colours(t, bg) {
			best := 0.0
			for _, m := range marks {
				best = math.Max(best, contrast(m, b))
			}
			if best < 3 {
				t.Errorf("%s (%s) stands out %.2f:1 from %s, want 3:1 or more", what, indicator, best, bg)
			}
		}
	}
}

// TestBrowserFocusAndMarksContrast: the skip link is the first Tab stop of
// a page and leads past the navigation; the focus rings (navigation bar,
// board squares, the card table's cards), the legal-move dots and the
// selected square stand out 3:1 or more from what surrounds them.
func TestBrowserFocusAndMarksContrast(t *testing.T) {
	needChromium(t)
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	browserGame(t, s, b)
	style := func(sel, pseudo, props string) string {
		t.Helper()
		v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(
			`(() => { const s = getComputedStyle(document.querySelector(%q), %q); return %s.map(p => s[p] || s.getPropertyValue(p)).join(" | "); })()`,
			sel, pseudo, props)))
		if err != nil {
			t.Fatalf("style of %s: %v", sel, err)
		}
		return v
	}
	root := func(name string) string { return style(":root", "", fmt.Sprintf("[%q]", name)) }

	b.waitUntil(5*time.Second, "htmx loads", `typeof window.htmx === "object"`)
	b.do("press Tab", chromedp.KeyEvent(kb.Tab))
	if !b.eval(`document.activeElement.matches("a.skip-link[href='#main']") && document.querySelector("main#main") !== null`) {
		t.Fatalf("the first Tab stop is %q, want the skip link to the main content", b.kbFocused("href"))
	}
	b.do("press Tab", chromedp.KeyEvent(kb.Tab))
	if !b.eval(`document.activeElement.closest("nav.top") !== null`) {
		t.Fatal("the second Tab stop is not in the navigation bar")
	}
	wantStandOut(t, "the focus ring in the navigation bar", style(":focus", "", `["outlineColor"]`), style("nav.top", "", `["backgroundColor"]`))

	squares := []string{root("--mud"), root("--mud-dark"), root("--trench")}
	unit := b.kbTabTo(`#board a[data-click]`)
	wantStandOut(t, "the focus ring on a square", style(":focus", "", `["outlineColor", "boxShadow"]`), squares...)
	b.do("select "+unit, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board a[data-click=%q]`, unit))))
	b.waitUntil(10*time.Second, "destinations appear", `document.querySelector('#board button[name="move"]') !== null`)
	wantStandOut(t, "the selected square", style("#board .selected", "", `["boxShadow"]`), squares...)
	wantStandOut(t, "a legal-move dot", style(`#board .target:not(.capture)`, "::after", `["backgroundColor", "boxShadow"]`), squares...)

	b.open(fmt.Sprintf("/games/%d", cardsActionFor(t, s, "carol", "bob")))
	b.waitUntil(5*time.Second, "htmx loads", `typeof window.htmx === "object"`)
	b.kbTabTo(`#board a.cards-action`)
	b.do("press Space", chromedp.KeyEvent(" "))
	b.waitUntil(10*time.Second, "cards to choose", `document.querySelector("#board .cards-place.target") !== null`)
	b.kbTabTo(`#board .cards-place.target`)
	felt := style(".cards-table", "", `["backgroundImage"]`)
	wantStandOut(t, "the focus ring on a card", style(":focus", "", `["outlineColor"]`), felt)
}
