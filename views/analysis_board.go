package views

import (
	"github.com/trench-games/trench/rules/trench"
)

// AnalysisBoard is the analysis board of a game (/games/N/analysis): a
// position reached by trying moves from the game's position, none of
// them played in the game. Everything it shows comes from its address
// (the line and the variation tree), so each step is a plain link.
type AnalysisBoard struct {
	Page
	Heading string // the game's title
	GameURL string // "/games/12"
	// BackHref goes back to the game (at the reviewed ply, when the board
	// started from one).
	BackHref string
	// Unavailable, when set, says why the game has no analysis board (the
	// card game); nothing else is shown then.
	Unavailable string
	View        any  // the game's view model of the position shown
	Play        Play // the board's clicks: every step is a link
	Position    string
	// ToMove says who moves in the position shown, or how the game ended
	// there.
	ToMove string
	Score  string // the score the line reaches, "Black 12 pts · White 8 pts"
	Quiet  string // the quiet-ply count, "" when the game has none
	Legal  string // how many legal moves there are, in words
	// Steps along the line and across the variations (empty: none).
	Start, Back, Forward, End, Up, Down string
	Lines                               []AnalysisLine // the variation tree, one line each
	Share                               string         // the address of what is shown
	Reset                               string         // the board without any line
	// Eval and Best are the computer's evaluation of the position shown
	// and its best move there: only once the game has ended.
	Eval, Best string
	// Plan, when set, adds the line to the viewer's conditional moves.
	Plan *BoardPlan
	// PlanHint says why the line cannot be planned yet ("" for nothing).
	PlanHint string
	// PlanLines is how many lines the viewer's plan holds, PlanHref the
	// board showing them (its author's eyes only).
	PlanLines int
	PlanHref  string
}

// AnalysisLine is one line of the variation tree as shown: the moves from
// where it branches off the line above it.
type AnalysisLine struct {
	Current bool // the line the board follows
	From    int  // the ply of the game's record after which it starts
	Moves   []AnalysisMove
}

// AnalysisMove is one move of a line: a link to the position after it.
type AnalysisMove struct {
	Ply     int    // the ply it would be in the game's record
	Text    string // as the move list writes it
	Href    string
	Dark    bool // played by the dark pieces
	Current bool // the position shown is after this move
}

// BoardPlan is the form that adds the analysis board's line to the
// viewer's plan of conditional moves (POST to the game's plan address,
// field add).
type BoardPlan struct {
	Action string
	CSRF   string
	Ply    int    // the game's ply the plan is made against
	Add    string // the line's moves, separated by spaces
	Text   string // the line as players read it
}

// QuietPlies returns the plies since the last capture in a game that
// counts them (TRENCH), and false for the others.
func QuietPlies(view any) (int, bool) {
	if v, ok := view.(trench.BoardView); ok {
		return v.Quiet, true
	}
	return 0, false
}
