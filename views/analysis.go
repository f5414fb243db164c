package views

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// AnalysisPanel is the computer analysis of a finished game, as the review
// page shows it: a button to ask for one, its progress, or its result.
type AnalysisPanel struct {
	URL string // "/games/12/analysis": POST queues it
	// PollURL is this panel alone ("/games/12/analysis/panel"), polled by
	// htmx while the analysis runs.
	PollURL string
	CSRF    string
	// CanQueue: the viewer may ask for the analysis (signed in, none yet).
	CanQueue bool
	State    string // "", "queued", "running", "done" or "failed"
	Done     int    // positions evaluated
	Total    int
	Error    string
	// ReloadHref reloads the page (to see the progress without JavaScript).
	ReloadHref string
	// The result, once done, at the position shown.
	Graph     *EvalGraph
	Eval      string // "Black is expected to score 62%."
	Best      string // "Best was d4-d5." for the move that led here ("" when it was played)
	Mistake   bool   // the move that led here is a mistake
	Threshold string // the loss that makes a mistake, e.g. "0.20"
	Mistakes  [2]int // per side
	Sides     [2]string
}

// Waiting reports whether the analysis is still to be done.
func (a AnalysisPanel) Waiting() bool { return a.State == "queued" || a.State == "running" }

// EvalGraph is the evaluation of every position of a game drawn as a line:
// side 0's expected result from 1 at the top to 0 at the bottom.
type EvalGraph struct {
	Width, Height int
	Points        []EvalPoint
	Label         string // what the graph shows, for screen readers
}

// EvalPoint is one position on the graph, a link to it.
type EvalPoint struct {
	Ply     int
	X, Y    float64
	Href    string
	Title   string // "Ply 12: Black 62%"
	Mistake bool   // the move that led here was a mistake
	Current bool   // the position shown
}

// Line is the graph's polyline points.
func (g EvalGraph) Line() string {
	parts := make([]string, len(g.Points))
	for i, p := range g.Points {
		parts[i] = fmt.Sprintf("%.1f,%.1f", p.X, p.Y)
	}
	return strings.Join(parts, " ")
}

// Area is the polygon under the line down to the middle (the even
// result), which shades who stands better.
func (g EvalGraph) Area() string {
	if len(g.Points) == 0 {
		return ""
	}
	mid := fmt.Sprintf("%.1f", float64(g.Height)/2)
	first, last := g.Points[0], g.Points[len(g.Points)-1]
	return fmt.Sprintf("%.1f,%s %s %.1f,%s", first.X, mid, g.Line(), last.X, mid)
}

// ViewBox is the graph's SVG viewBox.
func (g EvalGraph) ViewBox() string {
	return "0 0 " + strconv.Itoa(g.Width) + " " + strconv.Itoa(g.Height)
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

// progressText says how far the analysis got, in the language of ctx.
func (a AnalysisPanel) progressText(ctx context.Context) string {
	if a.State == "queued" && a.Done == 0 {
		return T(ctx, "Waiting for its turn: %d positions to evaluate.", a.Total)
	}
	return T(ctx, "%d of %d positions evaluated.", a.Done, a.Total)
}
