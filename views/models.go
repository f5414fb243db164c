// Package views renders every page and fragment with templ. Handlers pass
// the small view-model structs of this file, never database rows; each
// part of a page that htmx swaps has a stable id (#game, #flash).
package views

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/cards"
)

// Page is what the layout needs on every page.
type Page struct {
	Title     string
	User      string // signed-in user's name; "" for a visitor
	TurnCount int    // games waiting for the user's move
	CSRF      string // token for every form that changes something
	Flash     string // a message shown once at the top
	// Announcement is the server's announcement, shown on every page; ""
	// for none.
	Announcement string
	Admin        bool // the user may use the admin pages
	// Path is the address of the page (path and query), where the
	// language menu comes back to.
	Path string
	// Theme is the colour theme: "light", "dark", or "" for the
	// browser's (prefers-color-scheme).
	Theme string
}

// SignedIn reports whether a user is signed in.
func (p Page) SignedIn() bool { return p.User != "" }

// Option is one choice of a <select> or a radio group.
type Option struct {
	Value, Label string
	Selected     bool
}

// ChallengeRow is a challenge in a list.
type ChallengeRow struct {
	ID         int64
	From       string
	To         string // "" when open to anyone
	Game       string // "TRENCH"
	Variant    string // "Official match (2 games)"
	Color      string // the creator's side, e.g. "Black", or "random"
	Time       string // the time control in words
	Rated      bool
	Takebacks  bool // a player may ask to take back a move
	CanAccept  bool
	CanDecline bool
	CanCancel  bool
}

// GameRow is a game in a list.
type GameRow struct {
	ID       int64
	Href     string
	Title    string // "TRENCH · Official match, game 2"
	Opponent string
	YourSide string
	YourTurn bool
	Status   string // "Your move", "Waiting", "Won 48–30", …
	Clock    string // "2 days 3 hours left"
}

// MatchRow is a match of several games in a list.
type MatchRow struct {
	Href    string    // the match's latest game
	Title   string    // "TRENCH · Official match (2 games)"
	Players [2]string // match players
	Totals  [2]string // game 1 + game 2, e.g. "72 pts"
	Status  string    // the result ("alice wins the match 80–64."), or "Game 2 in progress"
}

// Dashboard is the signed-in home page.
type Dashboard struct {
	Daily DailyPuzzle // the daily puzzle; "" Href when there is none
	Page
	LiveURL string // the dashboard's event stream
	// PushKey is the server's VAPID public key (base64url) when the page
	// offers "Notify me on this device" (a game waits for the player);
	// "" for no offer.
	PushKey       string
	Games         []GameRow
	Finished      []GameRow
	Matches       []MatchRow // the player's matches: in progress, then recently finished
	MyChallenges  []ChallengeRow
	OpenChallenge []ChallengeRow
	Unread        []UnreadRow // games with messages not yet read
	VacationsOn   bool        // the server gives players a vacation allowance
}

// Home is the visitor's home page.
type Home struct {
	Page
	Games []GameInfo
	Daily DailyPuzzle // "" Href when there is no puzzle
}

// GameInfo names a game and its rules page.
type GameInfo struct {
	Key, Title, Summary string
}

// AuthForm is the sign-up or sign-in form.
type AuthForm struct {
	Page
	SignUp bool
	Name   string
	Error  string
	Next   string
}

// ChallengeForm is the new-challenge form.
type ChallengeForm struct {
	Page
	Games []ChallengeGame
	Game  string
	Clock string // "move" or "bank"
	Days  []Option
	// The time bank's choices: start, added per move, maximum.
	BankInitial []Option
	BankAdd     []Option
	BankMax     []Option
	Opponent    string
	Error       string
	Rated       bool
	// Takebacks are the takeback choices: the default (allowed unless
	// rated), allowed, not allowed.
	Takebacks []Option
	// Computer is the form to play the computer instead.
	Computer ComputerChoice
}

// ChallengeGame is one game's choices on the challenge form.
type ChallengeGame struct {
	Key, Title string
	Variants   []Option
	Colors     []Option // empty when the rules fix the creator's side
	FixedSide  string   // the creator's side when fixed, e.g. "Black (♠)"
	// NoTakebacks says why the game has no takebacks ("" when it may).
	NoTakebacks string
}

// ErrorPage is a page or fragment for an error.
type ErrorPage struct {
	Page
	Status  int
	Message string
}

// Player is one side of a game on the game page.
type Player struct {
	Name     string
	SideName string // "Black"
	Score    string // "12 pts", "9 cards"
	Rating   string // "1500"; "1662 (+162)" once a rated game has ended
	RD       string // the rating's deviation now, "± 294"; "" once a rated game has ended
	ToMove   bool
	IsViewer bool
}

// LogLine is one move of the move list, as the viewer may read it.
type LogLine struct {
	Ply  int
	Side rules.Side
	Dark bool // the mover plays the dark pieces: marked ●, the other side ○
	Text string
	// Mistake: the computer's analysis found the move lost much of the
	// mover's expected result.
	Mistake bool
}

// sideClass is the CSS class of a move by side ("s0", "s1").
func sideClass(s rules.Side) string {
	if s == rules.Side1 {
		return "s1"
	}
	return "s0"
}

// logClass is the class list of a line of the move list: its side ("s0"),
// "current" for the move a review shows, "mistake" for one the analysis
// found a mistake.
func logClass(g GamePage, l LogLine) string {
	cls := sideClass(l.Side)
	if g.Review != nil && g.Review.Ply == l.Ply {
		cls += " current"
	}
	if l.Mistake {
		cls += " mistake"
	}
	return cls
}

// statusClass is the class list of a game's status line: "status", and
// "your-turn" when the viewer is to move.
func statusClass(yourTurn bool) string {
	if yourTurn {
		return "status your-turn" // not shown: CSS classes
	}
	return "status"
}

// playerClass is the class list of a player's line: "player", and
// "to-move" for the player to move.
func playerClass(toMove bool) string {
	if toMove {
		return "player to-move" // not shown: CSS classes
	}
	return "player"
}

// PlyHeader is the request header in which every htmx request from a game
// page names the ply the page shows.
const PlyHeader = "X-Trench-Ply"

// TabHeader is the request header in which every htmx request from a game
// page names the page's event stream (GamePage.LiveTab), so that a change
// the request makes is not pushed to the page that gets it in the answer.
const TabHeader = "X-Trench-Tab"

func plyHeader(ply int) string {
	return `{"` + PlyHeader + `":"` + strconv.Itoa(ply) + `"}`
}

// MatchGame is one game of a match in the match panel.
type MatchGame struct {
	Label   string // "Game 1", "Decider"
	Href    string
	Score   [2]string // per match player
	Result  string
	Current bool
}

// MatchPanel shows a match's games and totals.
type MatchPanel struct {
	Players [2]string // match players
	Games   []MatchGame
	Totals  [2]string  // of Games (game 1 + game 2)
	Decider *MatchGame // after the totals, on its own; nil when none
	Result  string     // "" while the match goes on
}

// Step is what one click on a board square or card does next: extend the
// selection (Href, a plain link) or submit a complete move (Move, a POST).
type Step struct {
	Href string
	Move string
}

// Play is the game-independent part of a board: who looks, what is
// selected, what each next click does. Each game's board reads its own
// view model (from rules.State.View) beside it.
type Play struct {
	GameURL string // "/games/12"
	// MoveAction is the address the board's form and the move box send a
	// move to; GameURL + "/move" when "" (a puzzle sends its line along:
	// "/puzzles/trench/7/move?line=d5-g5").
	MoveAction string
	Ply        int // the ply every submitted move is made against
	CSRF       string
	Viewer     rules.Side
	CanMove    bool     // the viewer is to move in an active game
	Selected   []string // the clicks made so far
	Next       map[string]Step
	BackHref   string   // undo the last click; "" when nothing is selected
	Square     bool     // square view instead of the diamond
	LastMove   []string // the clicks of the last move, to highlight
	Best       []string // the clicks of the best move by the analysis, to mark
	// Before is the game's view model before a pending move (Confirm
	// moves) while the board shows the position after it: the units the
	// move captures are drawn greyed on their squares. nil otherwise.
	Before any
	// Legal lists the viewer's legal moves in the game's notation while
	// the viewer is to move (the move box under the board offers them);
	// nil otherwise.
	Legal []string
	// LastMoveText is the last move of the position shown, in the
	// notation ("c3-d4"), when the viewer may read it; "" otherwise.
	LastMoveText string
	// Confirm: the viewer confirms each move (Confirm moves), so the move
	// box shows a typed move as pending instead of sending it.
	Confirm bool
	// TakenBack is the game's count of moves taken back, sent with each
	// move so that a page drawn before a takeback cannot move in the
	// position after it (db.Play.TakenBack).
	TakenBack int
	// CardsLast is the last action (not a refill) of a card game up to
	// the position shown, as anyone may know it; nil in the other games
	// and before the first action.
	CardsLast *CardsAction
	// Answer is the answer to a question typed in the move box ("where
	// are my Colonels"): the live region says it instead of the last move,
	// and the page shows it under the board. "" when none was asked.
	Answer string
}

// CardsAction is an action of Trench, the card game without its hidden
// part: who took it, which action, and the places it names ("F1", "B3";
// "" for a card of the hand, which is never named).
type CardsAction struct {
	Side rules.Side
	Kind cards.Kind
	A, B string
}

// IsSelected reports whether click is among the clicks made so far.
func (p Play) IsSelected(click string) bool {
	for _, s := range p.Selected {
		if s == click {
			return true
		}
	}
	return false
}

// InBest reports whether click is part of the move the analysis found
// best.
func (p Play) InBest(click string) bool {
	for _, s := range p.Best {
		if s == click {
			return true
		}
	}
	return false
}

// InLastMove reports whether click was part of the last move.
func (p Play) InLastMove(click string) bool {
	for _, s := range p.LastMove {
		if s == click {
			return true
		}
	}
	return false
}

// GamePage is the page of one game.
type GamePage struct {
	Page
	ID      int64
	URL     string // "/games/12"
	Heading string // "TRENCH · Official match · Game 2"
	// Tournament names the tournament and round of a tournament game
	// ("Spring Swiss · round 2"), TournamentHref its page; "" otherwise.
	Tournament     string
	TournamentHref string
	Players        [2]Player
	Bottom         rules.Side // the side drawn at the bottom (the viewer's)
	Status         string
	YourTurn       bool
	Finished       bool
	Clock          string
	TimeControl    string   // "3 days per move", "time bank: …"
	Banks          string   // each side\'s time bank, for a time bank
	Notices        []string // who is on vacation
	Ply            int
	// Log is the whole move list on a full page; on an htmx answer only
	// the moves after the ply the page showed.
	Log []LogLine
	// LogWhole: an htmx answer or a pushed update carries the whole move
	// list, replacing the page's (moves it shows were taken back, a
	// finished game's hidden information is revealed, or the page's ply is
	// not known).
	LogWhole        bool
	Match           *MatchPanel
	NextGameHref    string
	Message         string // why the last action did nothing (a stale ply, …)
	ConfirmResign   bool
	CanResign       bool
	Armistice       ArmisticeState
	Takeback        TakebackState
	NextWaitingHref string // another game waiting for the viewer's move, when it is not their turn here
	PollURL         string // "" when there is nothing to wait for
	// LiveURL is the page's event stream (pushed updates); "" for none.
	LiveURL string
	// LiveTab names the stream (?tab= of LiveURL), for the page's requests
	// (TabHeader); "" for none.
	LiveTab string
	// Seq is the game's version, "START.N": the server's start id and the
	// game's changes since that start (of one start, a larger N is newer,
	// whatever the ply; one of another start is newer than any of the
	// page's); the swapped pieces carry it (data-seq).
	Seq              string
	BoardToggle      string // where the form choosing the other board view posts to
	BoardToggleView  string // the other board view: "square" or "diamond"
	BoardToggleLabel string
	View             any // the game's own view model
	Play             Play
	Review           *Review // set in review mode (a finished game, or ?ply=)
	// AnalysisBoardHref opens the analysis board on the position shown;
	// "" for a game without one (the card game).
	AnalysisBoardHref string
	Rated             bool // a rated game
	// Badge is true when an htmx answer carries the navigation bar's turn
	// count (out of band).
	Badge bool
	// LogHref is the link of a move in the move list: LogHref + ply.
	LogHref string
	// Social says whether the game is rated and holds, for its players,
	// the rematch offer and the messages.
	Social *SocialPanel
	// Thinking: the computer is to move (the page polls sooner).
	Thinking bool
	// Analysis is the computer analysis of a finished game under review
	// (nil when the game cannot have one).
	Analysis *AnalysisPanel
	// Plan is the viewer's own conditional moves (nil when not offered).
	Plan *PlanPanel
	// Notes is the viewer's private notes on this game of their own (nil
	// for anyone but its players); on the full page only.
	Notes *NotesPanel
	// Pending is a move made but not sent yet (Confirm moves), shown on
	// the board; nil when none.
	Pending *PendingMove
	// OfferConfirm offers "Confirm moves" on a player's first game page
	// (full page only) while the setting is off.
	OfferConfirm bool
}

// PendingMove is a completed move waiting for "Send move": the board's
// form posts Move against the ply it shows (the ply guard refuses it once
// the game moved on); Cancel goes back to the position without it.
type PendingMove struct {
	Move       string
	Text       string // the move in words, for the viewer
	CancelHref string
}

// TakebackState is what the viewer, a player of a game in progress, may
// do about taking back a move; all false and empty for anyone else.
type TakebackState struct {
	// CanAsk: the viewer made the last move, the opponent has not replied
	// and takebacks are allowed.
	CanAsk bool
	// AskedByMe: the viewer's request is waiting for the answer.
	AskedByMe bool
	// AskedToMe: the opponent asks to take back their last move, LastMove
	// (in words).
	AskedToMe bool
	LastMove  string
	// DeclinedMine: the opponent declined the viewer's request for this
	// move.
	DeclinedMine bool
	// Unavailable says why the game never has takebacks (the card game);
	// "" otherwise.
	Unavailable string
}

// ArmisticeState is what the viewer may do about an armistice.
type ArmisticeState struct {
	Available   bool // the game has armistice and the viewer plays it
	OfferedByMe bool
	OfferedToMe bool
	// DeclinedMine is true when the opponent declined the viewer's offer
	// and the viewer has not moved since: no new offer until then.
	DeclinedMine bool
	Terms        string // what an armistice decides: "points are counted", "an agreed draw"
}

// ArchiveRow is one finished game in the archive.
type ArchiveRow struct {
	Href    string
	Game    string    // "TRENCH · Official match · Game 2"
	Players [2]string // by side
	Sides   [2]string // side names
	Result  string
	Score   string // "52–32", or the match totals for a finished match
	Moves   int
	Ended   string // "2026-03-01"
	// Ratings are the players' ratings by side in a rated game: "1662 (+162)".
	Ratings [2]string
}

// ArchivePage is /archive: filters, one page of games, page links.
type ArchivePage struct {
	Page
	Rows     []ArchiveRow
	Matches  []MatchRow // the latest finished matches of several games (of the player filtered on)
	Total    int
	Capped   bool // there are more than Total games (Pages is 0)
	Games    []Option
	Variants []Option
	Results  []Option
	Player   string
	// NoSuchPlayer is true when Player names nobody: no games are listed.
	NoSuchPlayer bool
	PrevHref     string
	NextHref     string
	PageNo       int // 0: not known (the last page, past the count)
	Pages        int // 0: not known
}

// PlayerRecordRow is a player's record in one game.
type PlayerRecordRow struct {
	Game                string
	Wins, Losses, Draws int
}

// PlayerPage is /players/{name}.
type PlayerPage struct {
	Page
	Name    string
	Since   string
	Records []PlayerRecordRow
	Active  []GameRow
	// ActiveAll is how many games the player has in progress when Active
	// lists only the first of them (0 when it lists all), and
	// ActiveAllHref the profile listing all.
	ActiveAll     int
	ActiveAllHref string
	Finished      []GameRow
	Matches       []MatchRow // finished matches of several games
	ArchiveHref   string
	ChallengeHref string
	Ratings       []RatingRow
	Charts        templ.Component // rating history per game played rated (RatingCharts, or the same drawn before); nil for none
}

// Review is the review controls of a game page: the ply shown and links to
// step through the game.
type Review struct {
	Ply        int
	Of         int    // the game's current ply
	First      string // hrefs; "" when not available
	Prev       string
	Next       string
	Last       string
	LiveHref   string // back to the game in progress ("" once over)
	RecordHref string // the game record (text); "" while it would reveal hidden cards
	ImageHref  string // the position at this ply as an SVG image; "" when none
}

// gameLiveAttrs are liveAttrs of a game page's stream, with the header
// that names it on every request from the page.
func gameLiveAttrs(url, tab string) templ.Attributes {
	a := liveAttrs(url)
	if url != "" && tab != "" {
		a["hx-headers"] = `{"` + TabHeader + `":"` + tab + `"}`
	}
	return a
}

// liveAttrs are the attributes of the element that holds a page's event
// stream (htmx's SSE extension; an "end" event closes it): none without
// url.
func liveAttrs(url string) templ.Attributes {
	if url == "" {
		return templ.Attributes{}
	}
	return templ.Attributes{"hx-ext": "sse", "sse-connect": url, "sse-close": "end"}
}

// oobAttrs marks a fragment for htmx to swap out of band.
func oobAttrs(oob bool) templ.Attributes {
	if !oob {
		return templ.Attributes{}
	}
	return templ.Attributes{"hx-swap-oob": "true"}
}

// PlayerURL is the address of a player's profile, /players/NAME, with the
// name escaped as a path segment (a computer account's name has a space
// and a middle dot).
func PlayerURL(name string) templ.SafeURL {
	return templ.SafeURL("/players/" + url.PathEscape(name))
}

// noscriptText escapes s as the text of a <noscript> element: &, < and >
// only. A parser with scripting on reads such an element as raw text, so an
// apostrophe escaped as &#39; would show as such there.
func noscriptText(s string) string {
	return noscriptEscaper.Replace(s)
}

var noscriptEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
