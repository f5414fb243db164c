package views

// LeaderboardPage is /leaderboard/{game}: the listed players of one game,
// a page of them at a time; Total is how many are ranked.
type LeaderboardPage struct {
	Page
	Game  string   // the game's title
	Tabs  []Option // one per game: Value is the page's address
	Rule  string   // who is listed, in a sentence
	Rows  []LeaderLine
	Total int
	// Own is the signed-in player's line when it is not on this page;
	// OwnNote says why they are not listed at all ("" when they are).
	Own      *LeaderLine
	OwnNote  string
	PageNo   int
	Pages    int
	PrevHref string
	NextHref string
}

// LeaderLine is one player on a leaderboard; a Provisional one is
// unranked (Rank 0), listed below the ranked ones.
type LeaderLine struct {
	Provisional bool
	Rank        int
	Name        string
	Rating      string // rounded
	RD          string // rounded deviation
	Games       int
	LastGame    string // day of the last rated game, in the reader's language: "21 March 2026"
	Self        bool   // the signed-in player
}

// DirectoryPage is /players: the players whose name starts with Query.
type DirectoryPage struct {
	Page
	Query    string
	Rows     []DirectoryLine
	Total    int
	PageNo   int
	Pages    int
	PrevHref string
	NextHref string
}

// DirectoryLine is one player of the directory: their ratings as
// "TRENCH 1612", "Trenches 1500?" (a "?" marks a provisional rating) and
// the day they last played, in the reader's language ("21 March 2026").
type DirectoryLine struct {
	Name       string
	Ratings    []string
	LastActive string
}

// RatingChart is a profile's rating history in one game, drawn on the
// server: Points is an SVG polyline's points in a Width×Height box, one
// per rated game, oldest on the left; Dots mark some of those games (all
// of them, or an evenly spaced choice ending with the last); Low and High
// label the rating axis.
type RatingChart struct {
	Key     string // game key
	Game    string // title
	Points  string
	Dots    []ChartDot
	Width   int
	Height  int
	Low     string
	High    string
	Summary string // e.g. "12 rated games, from 1500 to 1622", in the reader's language
}

// ChartDot is one rated game on a RatingChart.
type ChartDot struct {
	X, Y  string
	Label string // "4 March 2026: 1622"
}
