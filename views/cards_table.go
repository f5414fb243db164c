package views

import (
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

// cardsSideName is a side's name, e.g. "Black".
func cardsSideName(s rules.Side) string {
	if s.Valid() {
		return cardsSideNames[s]
	}
	return ""
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
	Label    string
}

// Class returns the CSS classes of the place's clickable (or plain)
// element.
func (c cardsPlace) Class() string {
	cls := []string{"cards-place"}
	add := func(ok bool, name string) {
		if ok {
			cls = append(cls, name)
		}
	}
	add(c.Open, "cards-open")
	add(c.Selected, "cards-selected")
	add(c.Target, "target")
	add(c.Step.Href != "" && !c.Target, "cards-can-select")
	add(c.Step.Move != "" || c.Step.Href != "", "cards-clickable")
	return strings.Join(cls, " ")
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
func cardsTable(v cards.View, p Play) cardsTableVM {
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
			return "You"
		case player:
			return "Your opponent"
		}
		return cardsSideName(s)
	}
	mkSide := func(s rules.Side) cardsSide {
		sv := v.Sides[s]
		mine := player && s == p.Viewer
		cs := cardsSide{
			Side:      s,
			Name:      cardsSideName(s) + " (" + cardsSuits(v.Variant, s) + ")",
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
		owner := cardsSideName(s) + "'s"
		switch {
		case mine:
			owner = "Your"
		case player:
			owner = "Your opponent's"
		}
		slot := func(sl cards.SlotView) cardsPlace {
			c := cardsPlace{Token: sl.Name, Slot: sl.Name, Empty: sl.Empty, Known: sl.Known, Card: sl.Card}
			c.Open = sl.Empty && sl.Name == sv.Open
			c.Seen = sl.Known && sl.FaceUp && (mine || reveal)
			c.Label = owner + " " + sl.Name + ": "
			switch {
			case sl.Empty && c.Open:
				c.Label += "empty, to be refilled"
			case sl.Empty:
				c.Label += "empty"
			case sl.Known:
				c.Label += sl.Card.Symbol()
				if c.Seen && mine {
					c.Label += ", face up: the opponent sees it"
				} else if c.Seen {
					c.Label += ", face up"
				}
			default:
				c.Label += "face down"
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
				cs.Hand = append(cs.Hand, cardsPlace{Token: "H:" + c.String(), Known: true, Card: c,
					Label: owner + " hand: " + c.Symbol()})
			}
		} else {
			cs.HandBacks = make([]struct{}, sv.HandCount)
		}
		if s == clickSide {
			sel := len(p.Selected) > 0
			mark := func(c *cardsPlace) {
				c.Step = p.Next[c.Token]
				c.Target = sel && (c.Step.Href != "" || c.Step.Move != "")
				c.Selected = s == p.Viewer && len(p.Selected) > 1 && p.IsSelected(c.Token)
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

	t.Phase, t.Stage = cardsPhase(v, p)
	if player && v.ToMove == p.Viewer && p.CanMove && !reveal {
		t.Actions = cardsActions(v, p)
	}
	if b := v.LastBattle; b != nil {
		a := b.Attacker
		attacker := who(a) + " attacked"
		if player {
			attacker = strings.ToLower(attacker)
		}
		cb := &cardsBattle{Slot: "F" + strconv.Itoa(b.Slot), Attacker: attacker,
			Cards: [2]cards.Card{b.Cards[a], b.Cards[a.Other()]}, Result: "tie"}
		if b.Winner.Valid() {
			cb.Result = b.Cards[b.Winner].Symbol() + " wins, " + b.Cards[b.Winner.Other()].Symbol() + " is out"
		}
		t.Battle = cb
	}
	for _, f := range v.Flips {
		t.Flips = append(t.Flips, cardsFlip{Cards: f.Cards, Tie: f.Cards[0].Rank() == f.Cards[1].Rank()})
	}
	if v.First.Valid() {
		t.First = who(v.First)
		if t.First == "You" {
			t.First = "You moved first."
		} else {
			t.First += " moved first."
		}
	}
	if reveal {
		t.Seed = v.Seed
		if v.Deal != nil {
			for s, d := range v.Deal {
				t.Deal = append(t.Deal, cardsDeal{Name: cardsSideName(rules.Side(s)) + " (" + cardsSuits(v.Variant, rules.Side(s)) + ")",
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
func cardsActions(v cards.View, p Play) []cardsAction {
	words := cardsActionWords
	if v.Phase == cards.PhaseRefillFront || v.Phase == cards.PhaseRefillBack {
		words = []cards.Kind{cards.Refill}
	}
	var out []cardsAction
	for _, w := range words {
		a := cardsAction{Word: string(w), Label: strings.ToUpper(string(w[:1])) + string(w[1:])}
		a.Step = p.Next[a.Word]
		a.Active = len(p.Selected) > 0 && p.Selected[0] == a.Word
		if a.Step.Href == "" && a.Step.Move == "" && !a.Active {
			a.Disabled = true
			a.Reason = "not possible now"
			for _, f := range v.Forbidden {
				if f.Action == w {
					a.Reason = f.Reason
					break
				}
			}
			if w == cards.Recon && a.Reason == "not possible now" {
				a.Reason = "no face-down card to turn up"
			}
		}
		out = append(out, a)
	}
	return out
}

// cardsPhase says whose turn it is and what is to be done now (Phase),
// and what the next click does (Stage) for the player to move.
func cardsPhase(v cards.View, p Play) (phase, stage string) {
	if v.Viewer == rules.Reveal || v.Phase == cards.PhaseOver {
		return "The game is over: every card is shown face up.", ""
	}
	mine := p.Viewer.Valid() && v.ToMove == p.Viewer
	name := cardsSideName(v.ToMove)
	switch v.Phase {
	case cards.PhaseRefillFront, cards.PhaseRefillBack:
		when := " before the action of the turn"
		if v.EndOfTurn {
			when = " to end the turn"
		}
		what := " with a card from the back trench"
		if v.Phase == cards.PhaseRefillBack {
			what = " with a card from the hand"
		}
		if mine {
			phase = "Refill your " + v.RefillSlot + what + when + "."
		} else if p.Viewer.Valid() {
			phase = "Your opponent refills their " + v.RefillSlot + when + "."
		} else {
			phase = name + " refills " + v.RefillSlot + when + "."
		}
	default:
		switch {
		case mine:
			phase = "Your turn: choose an action."
		case p.Viewer.Valid():
			phase = "Your opponent's turn."
		default:
			phase = name + "'s turn."
		}
	}
	if !mine || !p.CanMove {
		return phase, ""
	}
	sel := p.Selected
	switch {
	case len(sel) == 0 && v.Phase == cards.PhaseAction:
		stage = "Click Shift, Recon or Attack below."
	case len(sel) == 0:
		stage = "Click Refill below."
	case sel[0] == string(cards.Shift) && len(sel) == 1:
		stage = "Shift: click a card of your trenches or your hand."
	case sel[0] == string(cards.Shift):
		stage = "Shift " + sel[1] + ": click where it goes or the card it swaps with."
	case sel[0] == string(cards.Recon):
		stage = "Recon: click a face-down card of your opponent to turn it face up."
	case sel[0] == string(cards.Attack):
		stage = "Attack: click one of your front cards; it battles the card facing it."
	case sel[0] == string(cards.Refill) && len(sel) == 1:
		stage = "Refill: click your open " + v.RefillSlot + "."
	case sel[0] == string(cards.Refill):
		stage = "Refill " + sel[1] + ": click the card that goes there."
	}
	return phase, stage
}

// slotClass is the CSS name of a slot's column: "f2", "b3".
func slotClass(slot string) string { return strings.ToLower(slot) }

// cardClass is the CSS class of a face-up card: its colour.
func cardClass(c cards.Card) string {
	if c.Red() {
		return "card card-face card-red"
	}
	return "card card-face card-black"
}

// cardSuit is the suit symbol drawn in the middle of a face-up card.
func cardSuit(c cards.Card) string { return c.Suit().Symbol() }

// cardCourt reports whether c is a Jack, Queen or King (drawn with its
// letter in the middle).
func cardCourt(c cards.Card) bool { return c.Rank() >= cards.Jack }

// cardsCount writes a count of cards: "1 card", "6 cards".
func cardsCount(n int) string {
	if n == 1 {
		return "1 card"
	}
	return strconv.Itoa(n) + " cards"
}
