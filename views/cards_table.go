package views

import (
	"context"
	"strconv"
	"strings"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/cards"
)

// The card table is drawn only from cards.View, which holds no card the
// viewer may not see: a face-down card of the opponent is drawn as a card
// back that carries nothing but its slot name, and the opponent's hand as
// a row of identical backs.

// cardsSideNames name the sides of the card game with their suits.
var cardsSideNames = [2]string{"Black", "Red"}

// cardsSideName is a side's name in the language of ctx, e.g. "Black".
func cardsSideName(ctx context.Context, s rules.Side) string {
	if s.Valid() {
		return T(ctx, cardsSideNames[s])
	}
	return ""
}

// bySide is black for Side0 (Black), red otherwise: one of two texts
// already in the language of the page.
func bySide(s rules.Side, black, red string) string {
	if s == rules.Side0 {
		return black
	}
	return red
}

// cardName is a card in words in the language of ctx, for a screen
// reader: "7 of hearts", "Queen of spades".
func cardName(ctx context.Context, c cards.Card) string {
	rank := c.Rank().String()
	switch c.Rank() {
	case cards.Ace:
		rank = T(ctx, "Ace")
	case cards.Jack:
		rank = T(ctx, "Jack")
	case cards.Queen:
		rank = T(ctx, "Queen")
	case cards.King:
		rank = T(ctx, "King")
	}
	switch c.Suit() {
	case cards.Hearts:
		return T(ctx, "%s of hearts", rank)
	case cards.Diamonds:
		return T(ctx, "%s of diamonds", rank)
	case cards.Clubs:
		return T(ctx, "%s of clubs", rank)
	}
	return T(ctx, "%s of spades", rank)
}

// cardsNames lists cards in words (cardName), "none" when there are none.
func cardsNames(ctx context.Context, cs []cards.Card) string {
	if len(cs) == 0 {
		return T(ctx, "none|cards")
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = cardName(ctx, c)
	}
	return strings.Join(names, ", ")
}

// cardsSuits is the suits a side plays in a variant, e.g. "♠" or "♥♦".
func cardsSuits(variant string, s rules.Side) string {
	switch {
	case s == rules.Side0 && variant == cards.VariantLong:
		return "♠♣"
	case s == rules.Side0:
		return "♠"
	case variant == cards.VariantLong:
		return "♥♦"
	}
	return "♥"
}

// cardsPlace is one place on the table as drawn: a trench slot or a card
// of the viewer's hand.
type cardsPlace struct {
	Token    string // the click token: "F2", "B3", "H:QS"
	Slot     string // "F2", "B3"; "" for a hand card
	Empty    bool
	Known    bool       // drawn face up (the viewer sees the card)
	Card     cards.Card // NoCard unless Known
	Seen     bool       // one of the viewer's cards that the opponent sees
	Open     bool       // a front slot waiting for its refill
	Step     Step
	Target   bool // a next click of a started selection
	Selected bool
	Best     bool   // marked: part of the best move, or of a lesson's hint
	Label    string // the accessible name: where, what, what a click does
}

// Class returns the CSS classes of the place's clickable (or plain)
// element.
func (c cardsPlace) Class() string {
	var cls classList
	cls.add(true, "cards-place")
	cls.add(c.Open, "cards-open")
	cls.add(c.Selected, "cards-selected")
	cls.add(c.Target, "target")
	cls.add(c.Best, "best")
	cls.add(c.Step.Href != "" && !c.Target, "cards-can-select")
	cls.add(c.Step.Move != "" || c.Step.Href != "", "cards-clickable")
	return cls.String()
}

// cardsSide is one side of the table as drawn.
type cardsSide struct {
	Side      rules.Side
	Name      string // "Black (♠)"
	Who       string // "You", "Your opponent", "Black"
	Mine      bool   // the viewer's own side
	Front     [cards.FrontSlots]cardsPlace
	Back      [cards.BackSlots]cardsPlace
	Hand      []cardsPlace // the hand when the viewer sees it
	HandShown bool
	HandCount int
	HandBacks []struct{} // one per hidden hand card
	DeckCount int
	HasDeck   bool         // the long game: a draw deck
	Deck      []cards.Card // after the end: the deck, top first
	Removed   []cards.Card
	Open      string
	FaceUp    int
}

// cardsAction is one action word of the action bar.
type cardsAction struct {
	Word     string // "shift", "recon", "attack", "refill"
	Label    string // "Shift"
	Step     Step
	Active   bool   // the action of the started selection
	Best     bool   // marked: part of the best move, or of a lesson's hint
	Disabled bool   // not possible now
	Reason   string // why it is disabled
}

// cardsFlip is one pair of start flips as drawn.
type cardsFlip struct {
	Cards [2]cards.Card
	Tie   bool
}

// cardsBattle is the last battle as drawn.
type cardsBattle struct {
	Slot     string        // "F2"
	Attacker string        // "you attacked", "Black attacked"
	Cards    [2]cards.Card // attacker's card first
	Result   string        // "Q♥ wins" or "tie"
}

// cardsDeal is one side's starting deal (after the end).
type cardsDeal struct {
	Name  string
	Front []cards.Card
	Back  []cards.Card
	Hand  []cards.Card
	Deck  []cards.Card
}

// cardsTableVM is a card table ready to draw.
type cardsTableVM struct {
	Variant string
	Reveal  bool // the game is over: every card is face up
	Top     cardsSide
	Bottom  cardsSide
	Phase   string // whose turn, what to do
	Stage   string // what the next click does
	Status  string // the live region: the last move (once over) and the phase
	Actions []cardsAction
	Battle  *cardsBattle
	Flips   []cardsFlip
	First   string // who moved first
	Seed    string
	Deal    []cardsDeal
}

// cardsTable lays out v for the viewer of p: the viewer's trenches at the
// bottom (a spectator sees Black there), both drawn left to right from
// slot 1, so that facing front slots share a column.
func cardsTable(ctx context.Context, v cards.View, p Play) cardsTableVM {
	reveal := v.Viewer == rules.Reveal
	bottom := rules.Side0
	if p.Viewer == rules.Side1 {
		bottom = rules.Side1
	}
	player := p.Viewer.Valid()
	t := cardsTableVM{Variant: v.Variant, Reveal: reveal}

	// Which side's places the clicks after the first one name: the
	// opponent's for a Recon, one's own otherwise.
	clickSide := rules.NoSide
	if player && v.ToMove == p.Viewer && !reveal {
		clickSide = p.Viewer
		if len(p.Selected) > 0 && p.Selected[0] == string(cards.Recon) {
			clickSide = p.Viewer.Other()
		}
	}
	who := func(s rules.Side) string {
		switch {
		case player && s == p.Viewer:
			return T(ctx, "You")
		case player:
			return T(ctx, "Your opponent")
		}
		return cardsSideName(ctx, s)
	}
	mkSide := func(s rules.Side) cardsSide {
		sv := v.Sides[s]
		mine := player && s == p.Viewer
		cs := cardsSide{
			Side:      s,
			Name:      cardsSideName(ctx, s) + " (" + cardsSuits(v.Variant, s) + ")",
			Who:       who(s),
			Mine:      mine,
			HandCount: sv.HandCount,
			DeckCount: sv.DeckCount,
			HasDeck:   v.Variant == cards.VariantLong,
			Deck:      sv.Deck,
			Removed:   sv.Removed,
			Open:      sv.Open,
			FaceUp:    sv.FaceUp,
		}
		if !player {
			cs.Who = cs.Name // a spectator: "Red (♥)"
		}
		// where names a place of this side: "Your F2", "Your hand".
		where := func(slot string) string {
			switch {
			case mine && slot == "":
				return T(ctx, "Your hand")
			case mine:
				return T(ctx, "Your %s", slot)
			case player && slot == "":
				return T(ctx, "Your opponent's hand")
			case player:
				return T(ctx, "Your opponent's %s", slot)
			case slot == "":
				return bySide(s, T(ctx, "Black's hand"), T(ctx, "Red's hand"))
			}
			return bySide(s, T(ctx, "Black's %s", slot), T(ctx, "Red's %s", slot))
		}
		slot := func(sl cards.SlotView) cardsPlace {
			c := cardsPlace{Token: sl.Name, Slot: sl.Name, Empty: sl.Empty, Known: sl.Known, Card: sl.Card, Best: p.InBest(sl.Name)}
			c.Open = sl.Empty && sl.Name == sv.Open
			c.Seen = sl.Known && sl.FaceUp && (mine || reveal)
			c.Label = where(sl.Name) + ", "
			switch {
			case sl.Empty && c.Open:
				c.Label += T(ctx, "empty, to be refilled")
			case sl.Empty:
				c.Label += T(ctx, "empty|slot")
			case sl.Known:
				c.Label += cardName(ctx, sl.Card)
				if c.Seen && mine {
					c.Label += ", " + T(ctx, "face up: the opponent sees it")
				} else if c.Seen {
					c.Label += ", " + T(ctx, "face up")
				}
			default:
				c.Label += T(ctx, "face down")
			}
			return c
		}
		for i, sl := range sv.Front {
			cs.Front[i] = slot(sl)
		}
		for i, sl := range sv.Back {
			cs.Back[i] = slot(sl)
		}
		if sv.Hand != nil {
			cs.HandShown = true
			for _, c := range sv.Hand {
				cs.Hand = append(cs.Hand, cardsPlace{Token: "H:" + c.String(), Known: true, Card: c, Best: p.InBest("H:" + c.String()),
					Label: where("") + ", " + cardName(ctx, c)})
			}
		} else {
			cs.HandBacks = make([]struct{}, sv.HandCount)
		}
		if s == clickSide {
			sel := len(p.Selected) > 0
			refilling := v.Phase == cards.PhaseRefillFront || v.Phase == cards.PhaseRefillBack
			mark := func(c *cardsPlace) {
				c.Step = p.Next[c.Token]
				// In a refill phase the cards that can fill the slot are
				// the targets before any selection: one click makes the
				// refill.
				c.Target = (sel || refilling) && (c.Step.Href != "" || c.Step.Move != "")
				c.Selected = s == p.Viewer && len(p.Selected) > 1 && p.IsSelected(c.Token)
				switch {
				case c.Selected:
					c.Label += ", " + T(ctx, "selected")
				case c.Target:
					c.Label += ", " + T(ctx, "choose")
				case c.Step != (Step{}):
					c.Label += ", " + T(ctx, "select")
				}
			}
			for i := range cs.Front {
				mark(&cs.Front[i])
			}
			for i := range cs.Back {
				mark(&cs.Back[i])
			}
			for i := range cs.Hand {
				mark(&cs.Hand[i])
			}
		}
		return cs
	}
	t.Bottom = mkSide(bottom)
	t.Top = mkSide(bottom.Other())

	t.Phase, t.Stage = cardsPhase(ctx, v, p)
	t.Status = boardStatus(ctx, p, t.Phase)
	if said := cardsLastSaid(ctx, v, p); said != "" && p.Answer == "" {
		t.Status = said + " " + t.Status
	}
	if player && v.ToMove == p.Viewer && p.CanMove && !reveal {
		t.Actions = cardsActions(ctx, v, p)
	}
	if b := v.LastBattle; b != nil {
		a := b.Attacker
		var attacker string
		switch {
		case player && a == p.Viewer:
			attacker = T(ctx, "you attacked")
		case player:
			attacker = T(ctx, "your opponent attacked")
		default:
			attacker = bySide(a, T(ctx, "Black attacked"), T(ctx, "Red attacked"))
		}
		cb := &cardsBattle{Slot: "F" + strconv.Itoa(b.Slot), Attacker: attacker,
			Cards: [2]cards.Card{b.Cards[a], b.Cards[a.Other()]}, Result: T(ctx, "tie")}
		if b.Winner.Valid() {
			cb.Result = T(ctx, "%[1]s wins, %[2]s is out", b.Cards[b.Winner].Symbol(), b.Cards[b.Winner.Other()].Symbol())
		}
		t.Battle = cb
	}
	for _, f := range v.Flips {
		t.Flips = append(t.Flips, cardsFlip{Cards: f.Cards, Tie: f.Cards[0].Rank() == f.Cards[1].Rank()})
	}
	if v.First.Valid() {
		switch {
		case player && v.First == p.Viewer:
			t.First = T(ctx, "You moved first.")
		case player:
			t.First = T(ctx, "Your opponent moved first.")
		default:
			t.First = bySide(v.First, T(ctx, "Black moved first."), T(ctx, "Red moved first."))
		}
	}
	if reveal {
		t.Seed = v.Seed
		if v.Deal != nil {
			for s, d := range v.Deal {
				t.Deal = append(t.Deal, cardsDeal{Name: cardsSideName(ctx, rules.Side(s)) + " (" + cardsSuits(v.Variant, rules.Side(s)) + ")",
					Front: d.Front[:], Back: d.Back[:], Hand: d.Hand, Deck: d.Deck})
			}
		}
	}
	return t
}

// cardsActionWords are the action words in the order of the action bar.
var cardsActionWords = []cards.Kind{cards.Shift, cards.Recon, cards.Attack}

// cardsActions builds the action bar of the player to move: each action
// word is a link when a legal move starts with it, the action of the
// started selection is marked, and an action the rules forbid now is
// shown disabled with the reason.
func cardsActions(ctx context.Context, v cards.View, p Play) []cardsAction {
	words := cardsActionWords
	if v.Phase == cards.PhaseRefillFront || v.Phase == cards.PhaseRefillBack {
		words = []cards.Kind{cards.Refill}
	}
	var out []cardsAction
	for _, w := range words {
		a := cardsAction{Word: string(w), Label: cardsActionLabel(ctx, w)}
		a.Step = p.Next[a.Word]
		a.Active = len(p.Selected) > 0 && p.Selected[0] == a.Word ||
			w == cards.Refill && a.Step == (Step{}) // the phase is the refill: its cards are the clicks
		a.Best = p.InBest(a.Word)
		if a.Step.Href == "" && a.Step.Move == "" && !a.Active {
			a.Disabled = true
			a.Reason = ""
			for _, f := range v.Forbidden {
				if f.Action == w {
					// The rules' reasons, each in the catalogue: "the same
					// action as on the previous turn", "the opponent
					// already has 3 face-up cards".
					a.Reason = T(ctx, f.Reason)
					break
				}
			}
			switch {
			case a.Reason != "":
			case w == cards.Recon:
				a.Reason = T(ctx, "no face-down card to turn up")
			default:
				a.Reason = T(ctx, "not possible now")
			}
		}
		out = append(out, a)
	}
	return out
}

// cardsActionLabel is an action word as shown on its button: "Shift".
func cardsActionLabel(ctx context.Context, k cards.Kind) string {
	switch k {
	case cards.Shift:
		return T(ctx, "Shift")
	case cards.Recon:
		return T(ctx, "Recon")
	case cards.Attack:
		return T(ctx, "Attack")
	case cards.Refill:
		return T(ctx, "Refill")
	}
	return string(k)
}

// cardsPhase says whose turn it is and what is to be done now (Phase),
// and what the next click does (Stage) for the player to move, in the
// language of ctx.
func cardsPhase(ctx context.Context, v cards.View, p Play) (phase, stage string) {
	if v.Viewer == rules.Reveal || v.Phase == cards.PhaseOver {
		return T(ctx, "The game is over: every card is shown face up."), ""
	}
	mine := p.Viewer.Valid() && v.ToMove == p.Viewer
	slot := v.RefillSlot
	switch v.Phase {
	case cards.PhaseRefillFront, cards.PhaseRefillBack:
		back, end := v.Phase == cards.PhaseRefillBack, v.EndOfTurn
		switch {
		case mine && !back && !end:
			phase = T(ctx, "Refill your %s with a card from the back trench before the action of the turn.", slot)
		case mine && !back:
			phase = T(ctx, "Refill your %s with a card from the back trench to end the turn.", slot)
		case mine && !end:
			phase = T(ctx, "Refill your %s with a card from the hand before the action of the turn.", slot)
		case mine:
			phase = T(ctx, "Refill your %s with a card from the hand to end the turn.", slot)
		case p.Viewer.Valid() && !end:
			phase = T(ctx, "Your opponent refills their %s before the action of the turn.", slot)
		case p.Viewer.Valid():
			phase = T(ctx, "Your opponent refills their %s to end the turn.", slot)
		case !end:
			phase = bySide(v.ToMove, T(ctx, "Black refills %s before the action of the turn.", slot),
				T(ctx, "Red refills %s before the action of the turn.", slot))
		default:
			phase = bySide(v.ToMove, T(ctx, "Black refills %s to end the turn.", slot),
				T(ctx, "Red refills %s to end the turn.", slot))
		}
	default:
		switch {
		case mine:
			phase = T(ctx, "Your turn: choose an action.")
		case p.Viewer.Valid():
			phase = T(ctx, "Your opponent's turn.")
		default:
			phase = bySide(v.ToMove, T(ctx, "Black's turn."), T(ctx, "Red's turn."))
		}
	}
	if !mine || !p.CanMove {
		return phase, ""
	}
	sel := p.Selected
	switch {
	case len(sel) == 0 && v.Phase == cards.PhaseAction:
		stage = T(ctx, "Click Shift, Recon or Attack below.")
	case len(sel) == 0:
		stage = T(ctx, "Refill %s: click the card that goes there.", v.RefillSlot)
	case sel[0] == string(cards.Shift) && len(sel) == 1:
		stage = T(ctx, "Shift: click a card of your trenches or your hand.")
	case sel[0] == string(cards.Shift):
		stage = T(ctx, "Shift %s: click where it goes or the card it swaps with.", sel[1])
	case sel[0] == string(cards.Recon):
		stage = T(ctx, "Recon: click a face-down card of your opponent to turn it face up.")
	case sel[0] == string(cards.Attack):
		stage = T(ctx, "Attack: click one of your front cards; it battles the card facing it.")
	}
	return phase, stage
}

// slotClass is the CSS name of a slot's column: "f2", "b3".
func slotClass(slot string) string { return strings.ToLower(slot) }

// cardClass is the CSS class of a face-up card: its colour.
func cardClass(c cards.Card) string {
	if c.Red() {
		return "card card-face card-red" // not shown: CSS classes
	}
	return "card card-face card-black" // not shown: CSS classes
}

// cardSuit is the suit symbol drawn in the middle of a face-up card.
func cardSuit(c cards.Card) string { return c.Suit().Symbol() }

// cardCourt reports whether c is a Jack, Queen or King (drawn with its
// letter in the middle).
func cardCourt(c cards.Card) bool { return c.Rank() >= cards.Jack }

// cardsCount writes a count of cards in the language of ctx: "1 card",
// "6 cards".
func cardsCount(ctx context.Context, n int) string {
	return TN(ctx, "%d cards", n, n)
}

// cardsLastSaid says the last action of the game in a sentence for the
// live region, in the language of ctx: the battle of an attack with both
// cards, the card a recon turned up, the places a shift swapped; never a
// hidden card. "" before the first action.
func cardsLastSaid(ctx context.Context, v cards.View, p Play) string {
	a := p.CardsLast
	if a == nil {
		return ""
	}
	player := p.Viewer.Valid()
	mine := player && a.Side == p.Viewer
	switch a.Kind {
	case cards.Attack:
		b := v.LastBattle
		if b == nil {
			return ""
		}
		var who string
		switch {
		case mine:
			who = T(ctx, "you attacked")
		case player:
			who = T(ctx, "your opponent attacked")
		default:
			who = bySide(b.Attacker, T(ctx, "Black attacked"), T(ctx, "Red attacked"))
		}
		slot := "F" + strconv.Itoa(b.Slot)
		att, def := cardName(ctx, b.Cards[b.Attacker]), cardName(ctx, b.Cards[b.Attacker.Other()])
		if !b.Winner.Valid() {
			return T(ctx, "Battle at %[1]s, %[2]s: %[3]s against %[4]s, a tie; both cards go back to the hands.", slot, who, att, def)
		}
		return T(ctx, "Battle at %[1]s, %[2]s: %[3]s against %[4]s; %[5]s wins, %[6]s is out.", slot, who, att, def,
			cardName(ctx, b.Cards[b.Winner]), cardName(ctx, b.Cards[b.Winner.Other()]))
	case cards.Recon:
		card := T(ctx, "face down")
		for _, sl := range append(v.Sides[a.Side.Other()].Front[:], v.Sides[a.Side.Other()].Back[:]...) {
			if sl.Name == a.A && sl.Known && sl.FaceUp {
				card = cardName(ctx, sl.Card)
			}
		}
		switch {
		case mine:
			return T(ctx, "You turned up your opponent's %[1]s: %[2]s.", a.A, card)
		case player:
			return T(ctx, "Your opponent turned up your %[1]s: %[2]s.", a.A, card)
		}
		return bySide(a.Side, T(ctx, "Black turned up Red's %[1]s: %[2]s.", a.A, card),
			T(ctx, "Red turned up Black's %[1]s: %[2]s.", a.A, card))
	case cards.Shift:
		place := func(s string) string {
			if s == "" {
				return T(ctx, "a card of the hand")
			}
			return s
		}
		x, y := place(a.A), place(a.B)
		switch {
		case mine:
			return T(ctx, "You shifted %[1]s and %[2]s.", x, y)
		case player:
			return T(ctx, "Your opponent shifted %[1]s and %[2]s.", x, y)
		}
		return bySide(a.Side, T(ctx, "Black shifted %[1]s and %[2]s.", x, y), T(ctx, "Red shifted %[1]s and %[2]s.", x, y))
	}
	return ""
}
