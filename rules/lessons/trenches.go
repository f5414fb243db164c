package lessons

// The Trenches course: Light (capitals) is the learner.
var trenchesCourse = Course{
	Game:    "trenches",
	Variant: "",
	Title:   "Learn Trenches",
	Intro:   "Four steps: the Tank, the Soldier and its grenade, debris, and blocking your opponent.",
	Steps: []Step{
		{
			Title:    "The Tank",
			Task:     "Move your Tank on e5: it moves like a chess Queen and leaves debris on the square it left.",
			Done:     "Debris stays for the rest of the game: nothing may cross it or land on it.",
			Position: "9t/10/10/10/10/4T5/10/10/1S8/10 l",
			Moves:    1,
			Goal:     Goal{From: "e5"},
			Hint:     []string{"e5"},
		},
		{
			Title:    "The Soldier and its grenade",
			Task:     "Move your Soldier on e4, then throw its grenade: it flies like a Queen from where the Soldier landed and leaves debris.",
			Done:     "A grenade may not land next to a Tank, of either side.",
			Position: "9t/10/10/10/10/10/4S5/10/1T8/10 l",
			Moves:    1,
			Goal:     Goal{From: "e4"},
			Hint:     []string{"e4"},
		},
		{
			Title:    "Debris",
			Task:     "Bring your Tank to j1 in two moves: the debris on e1 blocks the straight way.",
			Done:     "Debris shapes the board: every move leaves some, and the open squares grow fewer.",
			Position: "9t/10/10/10/10/10/10/10/10/T3x5 l",
			Moves:    2,
			Goal:     Goal{To: []string{"j1"}},
			Replies:  []string{"j10-j9"},
			Hint:     []string{"a1", "a10", "j1"},
		},
		{
			Title:    "Blocking",
			Task:     "Win in one move: the player who cannot move loses.",
			Done:     "The Dark Tank is shut in: Dark cannot move and loses.",
			Position: "8xt/9x/10/10/10/4T5/10/10/10/10 l",
			Moves:    1,
			Goal:     Goal{Win: true},
			Hint:     []string{"e5", "i9"},
		},
	},
	Final: Final{
		Title:    "A game against the computer",
		Task:     "Play it out against the computer (easy): two Tanks and two Soldiers each; the first player who cannot move loses.",
		Position: "3t2t3/3s2s3/10/10/10/10/10/10/3S2S3/3T2T3 l",
		Seed:     2,
	},
}
