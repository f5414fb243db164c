package lessons

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
	Final: Final{
		Title: "A game against the computer",
		Task:  "Play a short game against the computer (easy) from a new deal: its cards stay hidden, as in any game.",
		Seed:  3,
	},
}
