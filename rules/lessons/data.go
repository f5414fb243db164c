package lessons

// The TRENCH course, read in the BGA ruleset so that a score counts stars.
// Black (small letters) is the learner; White keeps its General on h8.
var trenchCourse = Course{
	Game:    "trench",
	Variant: "bga",
	Title:   "Learn TRENCH",
	Intro:   "Six steps: how units move, the trench in the middle of the board, captures and stars.",
	Steps: []Step{
		{
			Title:    "The Soldier",
			Task:     "Move your Soldier on c3: a Soldier steps exactly one square along a line of the board.",
			Done:     "A unit moves as far as its stars: the Soldier has one star, the General five.",
			Position: "8/8/8/8/8/2s5/1r6/7G b 0 0 0",
			Moves:    1,
			Goal:     Goal{From: "c3"},
			Hint:     []string{"c3"},
		},
		{
			Title:    "Into the trench",
			Task:     "Move your Soldier into the trench, the long diagonal from a8 to h1.",
			Done:     "The trench divides the two territories; a unit in it cannot be attacked from the front.",
			Position: "7G/8/8/8/3s4/8/8/8 b 0 0 0",
			Moves:    1,
			Goal:     Goal{From: "d4", To: []string{"d5", "e4"}},
			Hint:     []string{"d4", "d5", "e4"},
		},
		{
			Title:    "Capture",
			Task:     "Capture the White Sergeant with your Captain: a unit captures by moving onto an enemy unit.",
			Done:     "A capture scores the captured unit's stars: the Sergeant brought you two.",
			Position: "7G/8/8/2R5/8/2a5/8/8 b 0 0 0",
			Moves:    1,
			Goal:     Goal{Gain: 2},
			Hint:     []string{"c3", "c5"},
		},
		{
			Title:    "The trench protects",
			Task:     "Capture the White Soldier in the trench. From your own side the trench cannot be attacked: only a unit behind it, in the enemy's territory, can take it.",
			Done:     "Right: a unit in the trench is attacked only from behind.",
			Position: "7G/8/3s4/3S4/2a5/8/8/8 b 0 0 0",
			Moves:    1,
			Goal:     Goal{Moves: []string{"d6xd5"}},
			Hint:     []string{"d6", "d5"},
		},
		{
			Title:    "Out of the trench",
			Task:     "Score at least 3 stars in one move: a unit leaving the trench captures every enemy unit on its line.",
			Done:     "Only a move out of the trench captures more than one unit.",
			Position: "6RG/5R2/4S3/3c4/8/8/8/8 b 0 0 0",
			Moves:    1,
			Goal:     Goal{Gain: 3},
			Hint:     []string{"d5", "e6", "f7"},
		},
		{
			Title:    "Three stars in two moves",
			Task:     "Score at least 3 stars in two moves.",
			Done:     "Stars add up over your moves: look two moves ahead.",
			Position: "7G/5R1S/4S3/8/2c5/8/8/8 b 0 0 0",
			Moves:    2,
			Goal:     Goal{Gain: 3},
			Replies:  []string{"h7-h6"},
			Hint:     []string{"c4", "d5", "e6", "f7"},
		},
	},
}

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
}

// cardsBlack and cardsRed are the two sides of the card positions (see
// the README): front, back, hand, deck and removed cards, and so on.
const (
	cardsBlack = "2S,8S,4S/7S,9S,10S,JS/AS,3S,5S,6S,QS,KS///"
	cardsRed   = "10H,3H,2H/7H,9H,6H,KH/AH,4H,5H,8H,JH,QH///-/--0"
)

// The card game's course: the short game, Black (♠) is the learner.
var cardsCourse = Course{
	Game:    "cards",
	Variant: "short",
	Title:   "Learn the card game",
	Intro:   "Four steps: the three actions (Shift, Recon and Attack) and the refill after a battle.",
	Steps: []Step{
		{
			Title:    "Shift",
			Task:     "Shift: swap a card of your back trench with the King in your hand.",
			Done:     "A Shift rearranges your own cards; the card from your hand goes in face down.",
			Position: "c1 short 7 0 0 0 " + cardsBlack + "-/--0 " + cardsRed + " -",
			Moves:    1,
			Goal:     Goal{Moves: []string{"shift B1 H:KS", "shift B2 H:KS", "shift B3 H:KS", "shift B4 H:KS"}},
			Hint:     []string{"shift", "H:KS"},
		},
		{
			Title:    "Recon",
			Task:     "Recon: turn one of your opponent's face-down cards face up. You shifted last turn, so you may not shift now.",
			Done:     "The same action twice in a row is not allowed; Recon works while your opponent shows fewer than 3 cards.",
			Position: "c1 short 7 0 0 0 " + cardsBlack + "s/--0 " + cardsRed + " -",
			Moves:    1,
			Goal:     Goal{From: "recon"},
			Hint:     []string{"recon"},
		},
		{
			Title:    "Attack",
			Task:     "Attack with the front card that wins its battle: each front card fights the card facing it, and the higher rank wins.",
			Done:     "Your Eight beat the Three: the winner goes back to the hand, the loser leaves the game.",
			Position: "c1 short 7 0 0 0 " + cardsBlack + "s/--0 10H+,3H+,KH+/7H,9H,6H,2H/AH,4H,5H,8H,JH,QH///-/--0 -",
			Moves:    1,
			Goal:     Goal{Moves: []string{"attack F2"}},
			Hint:     []string{"attack", "F2"},
		},
		{
			Title:    "Refill",
			Task:     "After the battle, refill your open front slot F2 with your strongest card next to it.",
			Done:     "The Ten now guards F2; a hand card then fills the back slot it left.",
			Position: "c1 short 7 1 0 1 2S,-,4S/7S,9S,10S,JS/AS,3S,5S,6S,8S,QS,KS///a/2-0 10H,-,2H/7H,9H,6H,KH/AH,4H,5H,8H,JH,QH//3H/-/2-0 0,2,8S,3H",
			Moves:    1,
			Goal:     Goal{Moves: []string{"refill F2 B3"}},
			Hint:     []string{"refill", "F2", "B3"},
		},
	},
}
