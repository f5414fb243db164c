package views

// ComputerChoice is the form to play the computer, on the challenge page:
// the game and its rules and side come from the challenge form's choices.
type ComputerChoice struct {
	Levels []Option // easy, medium, hard
	Error  string   // why the last attempt started no game
	Rated  bool     // games against the computer are rated on this server
	// Offered: the computer plays the game the page shows (a game with no
	// computer player gets only Elsewhere).
	Offered bool
	// Elsewhere links to the challenge pages of the games the computer
	// plays, when it does not play this one.
	Elsewhere []Option
}
