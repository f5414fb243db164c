package views

// LearnIndex is the page of the three courses (/learn).
type LearnIndex struct {
	Page
	Courses []LearnCourse
}

// LearnCourse is one course with the viewer's progress.
type LearnCourse struct {
	Game         string // the engine's key
	Title, Intro string // translated
	Href         string // "/learn/trench"
	Done, Total  int    // steps done, steps in all
	Steps        []LearnStepLink
	FinalHref    string // the game against the computer that ends the course
	FinalWon     bool   // the viewer has won that game
}

// LearnStepLink is a step in a course's list.
type LearnStepLink struct {
	N     int // from 1
	Title string
	Href  string
	Done  bool
}

// LearnCoursePage is the page of one course (/learn/GAME).
type LearnCoursePage struct {
	Page
	Course LearnCourse
}

// LearnStep is one step of a course on the game's board
// (/learn/GAME/N): every click is a link, the address holds the moves
// made.
type LearnStep struct {
	Page
	Course LearnCourse
	N      int    // the step's number, from 1
	Title  string // translated
	Task   string // the goal, translated
	Self   string // the step's address without moves (the move box's action)
	View   any    // the game's view model of the position shown
	Play   Play   // the board's clicks
	Line   string // the moves made so far, comma-separated (the move box sends them back)
	// Played is the last move made and the replies to it, as the game
	// log writes them; "" before the first move.
	Played    string
	MovesLeft string // "2 moves left.", "" once the step is over
	HintHref  string // the step with the hint shown; "" when it is shown or the step is over
	// Outcome is "" while the learner plays, "right" when the goal is
	// reached, "wrong" when it can no longer be, "refused" when the engine
	// refused a move; Message says why.
	Outcome, Message string
	Retry            string // the step from its start
	// NextHref and NextText lead on once the goal is reached: the next
	// step, or after the last a game against the computer.
	NextHref, NextText string
	// Final: the page is the course's final game against the computer
	// (Outcome "over" once it has ended, Message its result).
	Final bool
}
