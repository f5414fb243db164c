package views

// ComputerChoice is the form to play the computer, on the challenge page:
// the game and its rules and side come from the challenge form's choices.
type ComputerChoice struct {
	Levels []Option // easy, medium, hard
	Error  string   // why the last attempt started no game
	Rated  bool     // games against the computer are rated on this server
}
