package views

// PuzzleIndex is the page where a player chooses a game's puzzles
// (/puzzles).
type PuzzleIndex struct {
	Page
	Games     []PuzzleGame
	DailyHref string // the daily puzzle; "" when there is none
}

// PuzzleGame is one game in the puzzles' index.
type PuzzleGame struct {
	Key, Title string
	Href       string // "/puzzles/trench"
	Count      string // "120 puzzles", translated
	Rating     string // the viewer's puzzle rating in words; "" for a visitor
}

// PuzzleTheme is one option of the theme filter.
type PuzzleTheme struct {
	Key    string // "" for any theme
	Title  string // translated
	Chosen bool
}

// PuzzleNone is the page of a game whose puzzles (of the chosen theme)
// are all done.
type PuzzleNone struct {
	Page
	Game    string
	Themes  []PuzzleTheme
	Message string
}

// PuzzlePage is one puzzle on the game's board (/puzzles/GAME/ID): every
// click is a link, the address holds the moves made.
type PuzzlePage struct {
	Page
	Game      string // the engine's key
	GameTitle string
	ID        int64
	Task      string // "Black to move: find the best move."
	Rating    string // the puzzle's rating in words
	Tags      []string
	Themes    []PuzzleTheme // the theme filter of the next puzzle
	Theme     string        // the theme chosen, kept in the links
	Self      string        // the puzzle's address without moves
	View      any           // the game's view model of the position shown
	Play      Play          // the board's clicks
	// CanTry: the move box and "Show solution" are shown, forms that post
	// to Play.MoveAction like the board's moves (a move that ends the
	// attempt rates it).
	CanTry bool
	// Played is the moves of the position shown since the puzzle's start
	// (the solver's and the replies), as the game log writes them.
	Played string
	// Outcome: "" before the first move, "right" after a right move with
	// more to find, "solved", "wrong" (a move that is not the best; the
	// puzzle failed), "refused" (a move the rules refuse), "solution"
	// (the solution played out); Message says it in words.
	Outcome, Message string
	Refutation       string // the opponent's answer to a wrong move
	RatingChange     string // the viewer's puzzle rating after the attempt, in words
	Retry            string // the puzzle from its start
	// SolutionHref is a link to the solution's next move once it is
	// shown; "" at its end and before it is shown (CanTry).
	SolutionHref, SolutionText string
	NextHref                   string // the next puzzle
	SourceHref                 string // the finished game the puzzle came from; "" for none
}

// DailyPuzzle is the daily puzzle as the home page shows it.
type DailyPuzzle struct {
	Href  string
	Title string // "Daily puzzle: TRENCH, Black to move"
}

// joinComma joins words with ", ".
func joinComma(words []string) string {
	out := ""
	for i, w := range words {
		if i > 0 {
			out += ", "
		}
		out += w
	}
	return out
}
