package views

import "github.com/a-h/templ"

// TournamentsPage is /tournaments: upcoming, running and finished.
type TournamentsPage struct {
	Page
	Upcoming, Running, Finished []TournamentLine
	CanCreate                   bool
	// WhoCreates says who may organise a tournament on this server.
	WhoCreates string
	// PrevHref and NextHref link the newer and older pages of the
	// finished tournaments ("" for none).
	PrevHref, NextHref string
}

// TournamentLine is one tournament in a list.
type TournamentLine struct {
	Href    string
	Name    string
	Game    string // "TRENCH · Official match (2 games)"
	Format  string // "Swiss, 5 rounds"
	Players string // "6 of 8 players"
	When    string // "sign-up ends 4 March 2026 12:00 UTC", "round 2", "finished"
}

// TournamentForm is /tournaments/new.
type TournamentForm struct {
	Page
	Error    string
	Name     string
	Games    []Option // Value "game:variant"
	Formats  []Option
	Rounds   string
	Min, Max string
	Days     []Option
	Starts   []Option // "" for when full, else days of sign-up
	Rated    bool
}

// TournamentPage is /tournaments/{id}.
type TournamentPage struct {
	Page
	LiveURL   string // the page's event stream
	ID        int64
	Name      string
	Game      string
	Format    string
	Clock     string
	Rated     bool
	Status    string // a sentence: "Sign-up until …", "Round 2 of 3", "Finished"
	Organiser string
	Rule      string // how the format pairs, ties and byes, in words
	// Actions the viewer may take (each a POST form).
	CanJoin, CanLeave, CanWithdraw, CanStart, CanCancel bool
	// ConfirmWithdraw asks the viewer to confirm withdrawing from the
	// running tournament (it forfeits their remaining games).
	ConfirmWithdraw bool
	Entrants        []string // names, "(withdrawn)" marked
	// Results shows the standings and the crosstable, rounds or bracket
	// (TournamentResultsView, or the same rendered before); nil before
	// the start.
	Results templ.Component
	// ComputerRule says, for a game the computer plays, that computer
	// players may be entered and whether their games are rated; "" for
	// other games.
	ComputerRule string
	// The organiser's computer players before the start: the levels
	// they may add (Value "easy", Label "Computer · easy") and those
	// they may remove.
	ComputersOut, ComputersIn []Option
}

// TournamentResults is what a running or finished tournament has
// played: the same for every viewer.
type TournamentResults struct {
	Standings []StandingLine
	// Crosstable (round robin): Cross[i][j] is row player i's result
	// against column player j.
	Cross     [][]CrossCell
	CrossHead []string
	Rounds    []RoundView // Swiss pairings or knockout bracket
	Bracket   bool
	// RoundLinks, when a Swiss tournament shows one round at a time
	// (Rounds then holds that round alone), link to each of its rounds.
	RoundLinks []RoundLink
}

// RoundLink is a link to one round of a Swiss tournament shown a round at
// a time; Current marks the round shown.
type RoundLink struct {
	Title   string // "Round 3"
	Href    string // "/tournaments/7?round=3#rounds"
	Current bool
}

// StandingLine is one entrant's line of the standings.
type StandingLine struct {
	Rank            int
	Name            string
	Points          string // "2½"
	Games           int
	Buchholz        string
	SonnebornBerger string
	Withdrawn       bool
}

// CrossCell is one cell of a crosstable: a result per game the two
// players have (two when each pairing is played with each colour), or
// Text alone ("×" on the diagonal).
type CrossCell struct {
	Text    string
	Results []CrossResult
}

// CrossResult is one game's result in a crosstable cell: Text "1", "½",
// "0", "…" (being played); Href the game.
type CrossResult struct {
	Text string
	Href string
	// Label names the link for a screen reader in words: "alice against
	// bob, being played".
	Label string
}

// RoundView is one round's pairings.
type RoundView struct {
	Number   int
	Title    string // "Round 1", "Final"
	Pairings []PairingLine
}

// PairingLine is one pairing: Result "1 – 0", "½ – ½", "playing", "bye".
type PairingLine struct {
	Side0, Side1 string
	Result       string
	Href         string
	Leg          int // > 1: a replay of a drawn pairing
}
