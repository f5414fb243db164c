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
	Final: Final{
		Title:    "A game against the computer",
		Task:     "Play it out against the computer (easy): a few units each, and each side has already captured 16 stars; the first to 25 wins.",
		Position: "5ACG/6SR/7S/7R/r7/s7/rs6/gca5 b 16 16 0",
		Seed:     1,
	},
}
