package views

import (
	"context"
	"strconv"

	"github.com/a-h/templ"
)

// logLines draws lines of a game's move list, each an item of the list
// numbered by its ply: the mover's mark (● dark, ○ light), the move (a
// link to the position after it when g.LogHref is set), and a mark on a
// mistake the analysis found; the move a review shows is "current".
//
// It is written by hand rather than in templ: a full page lists every
// move of the game, and a player without JavaScript gets a full page
// for each click.
func logLines(g GamePage, lines []LogLine) templ.Component {
	return handWritten(func(ctx context.Context, sw *squareWriter) {
		mistake := ""
		for _, l := range lines {
			ply := strconv.Itoa(l.Ply)
			sw.raw(`<li value="`) // not shown: markup
			sw.raw(ply)
			sw.raw(`" data-ply="`)
			sw.raw(ply)
			sw.raw(`" class="`)
			sw.text(logClass(g, l))
			sw.raw(`">`)
			// The mark is named by the mover's side ("Black") for a
			// screen reader, which would otherwise read "black circle".
			name := ""
			if l.Side.Valid() {
				name = g.Players[l.Side].SideName
			}
			if l.Dark {
				sw.raw(`<span class="mark dark" role="img" aria-label="`) // not shown: markup
			} else {
				sw.raw(`<span class="mark light" role="img" aria-label="`) // not shown: markup
			}
			sw.text(name)
			if l.Dark {
				sw.raw(`">● </span> `) // not shown: markup
			} else {
				sw.raw(`">○ </span> `) // not shown: markup
			}
			if g.LogHref != "" {
				sw.raw(`<a href="`)
				sw.text(string(templ.SafeURL(g.LogHref + ply)))
				sw.raw(`">`)
				sw.text(l.Text)
				sw.raw(`</a> `)
			} else {
				sw.text(l.Text)
				sw.raw(` `)
			}
			if l.Mistake {
				if mistake == "" {
					mistake = T(ctx, "a mistake, by the computer analysis")
				}
				sw.raw(`<abbr class="mistake-mark" title="`) // not shown: markup
				sw.text(mistake)
				sw.raw(`">?</abbr>`)
			}
			sw.raw(`</li>`)
		}
	})
}
