package views

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/rules/cards"
	"github.com/trench-games/trench/rules/trench"
	"github.com/trench-games/trench/rules/trenches"
)

// The move box also takes questions that read the board for a player who
// cannot see it: "where are my Colonels", "read rank 4", "what did they
// capture", "clock", "last move", "help". Their words are in the
// catalogues (IDs ending in "|ask"): each command is a list of phrasings
// separated by ";", with {piece} standing for a piece's name (the words a
// player may type for each piece, singular and plural, are a list too) and
// {n} for a number. A question is matched in the page's language and in
// English, whatever the case, accents and punctuation. The answer is built
// from the page's view model alone, so it never holds a card the viewer
// may not see, and asking never changes the game.

// askKind is one command of the move box.
type askKind int

const (
	askNone askKind = iota
	askMine
	askTheirs
	askRank
	askTheyTook
	askITook
	askClock
	askLast
	askHelp
)

// askCommands are the commands' catalogue IDs, in the order help lists
// them.
var askCommands = []struct {
	kind askKind
	id   string
}{
	{askMine, "where are my {piece}|ask"},      // not shown: a catalogue ID, translated where used
	{askTheirs, "where are their {piece}|ask"}, // not shown: a catalogue ID, translated where used
	{askRank, "read rank {n}|ask"},             // not shown: a catalogue ID, translated where used
	{askTheyTook, "what did they capture|ask"}, // not shown: a catalogue ID, translated where used
	{askITook, "what did I capture|ask"},       // not shown: a catalogue ID, translated where used
	{askClock, "clock|ask"},                    // not shown: a catalogue ID, translated where used
	{askLast, "last move|ask"},                 // not shown: a catalogue ID, translated where used
	{askHelp, "help|ask"},                      // not shown: a catalogue ID, translated where used
}

// askPiece is a kind of piece a question may name.
type askPiece int

const (
	pieceSoldier askPiece = iota + 1
	pieceSergeant
	pieceCaptain
	pieceColonel
	pieceGeneral
	pieceTank
)

// askPieces are the catalogue IDs of the words for each piece.
var askPieces = []struct {
	piece askPiece
	id    string
}{
	{pieceSoldier, "Soldier|ask"},
	{pieceSergeant, "Sergeant|ask"},
	{pieceCaptain, "Captain|ask"},
	{pieceColonel, "Colonel|ask"},
	{pieceGeneral, "General|ask"},
	{pieceTank, "Tank|ask"},
}

// Question is a move-box text read as a question.
type Question struct {
	kind  askKind
	piece askPiece
	rank  int
}

// askFold lowercases s, drops its accents and punctuation and collapses
// its spaces: "¿Dónde están mis Coroneles?" → "donde estan mis coroneles".
func askFold(s string) string {
	if !isASCII(s) {
		t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
		if out, _, err := transform.String(t, s); err == nil {
			s = out
		}
	}
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\'' || r == '’' || r == '-':
			return ' '
		case unicode.IsPunct(r):
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// isASCII says whether s has no byte outside ASCII (nothing to take
// accents from).
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// askLangs are the contexts whose words a question may use: the page's
// language, then English.
func askLangs(ctx context.Context) []context.Context {
	if Lang(ctx) == "en" {
		return []context.Context{ctx}
	}
	return []context.Context{ctx, WithLang(ctx, "en")}
}

// askPhrasings splits a catalogue list ("a; b; c") into folded phrasings.
func askPhrasings(list string) []string {
	var out []string
	for _, p := range strings.Split(list, ";") {
		if p = askFold(strings.ReplaceAll(strings.ReplaceAll(p, "{piece}", "zzpiecezz"), "{n}", "zznumberzz")); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// askPattern turns a folded phrasing into a regular expression matching a
// whole folded text: PIECE and NUMBER (folded from {piece} and {n}) are
// the groups.
func askPattern(phrasing string) *regexp.Regexp {
	q := regexp.QuoteMeta(phrasing)
	q = strings.ReplaceAll(q, "zzpiecezz", `(.+)`)
	q = strings.ReplaceAll(q, "zznumberzz", `([0-9]{1,2})`)
	return regexp.MustCompile("^" + q + "$")
}

// askRule is one phrasing of a command, compiled.
type askRule struct {
	kind askKind
	re   *regexp.Regexp
}

// askCompiled holds each language's askRules, compiled once: the
// catalogues do not change while the server runs, and every move sent
// from the move box is read as a possible question first.
var askCompiled sync.Map // language → []askRule

// askRules returns the phrasings of every command in the language of lc,
// compiled, in askCommands' order.
func askRules(lc context.Context) []askRule {
	lang := Lang(lc)
	if rs, ok := askCompiled.Load(lang); ok {
		return rs.([]askRule)
	}
	var rs []askRule
	for _, c := range askCommands {
		for _, ph := range askPhrasings(T(lc, c.id)) {
			rs = append(rs, askRule{kind: c.kind, re: askPattern(ph)})
		}
	}
	if IsLanguage(lang) { // kept for the languages served alone
		askCompiled.Store(lang, rs)
	}
	return rs
}

// ParseQuestion reads text typed in the move box as one of the questions
// (in the language of ctx or in English); ok is false when it is none, and
// then the text is a move to play.
func ParseQuestion(ctx context.Context, text string) (q Question, ok bool) {
	folded := askFold(text)
	if folded == "" || len(folded) > 80 {
		return Question{}, false
	}
	for _, lc := range askLangs(ctx) {
		for _, r := range askRules(lc) {
			m := r.re.FindStringSubmatch(folded)
			if m == nil {
				continue
			}
			q := Question{kind: r.kind}
			switch r.kind {
			case askMine, askTheirs:
				if q.piece = askPieceNamed(ctx, m[1]); q.piece == 0 {
					continue
				}
			case askRank:
				q.rank, _ = strconv.Atoi(m[1])
			}
			return q, true
		}
	}
	return Question{}, false
}

// askPieceNamed is the piece a folded word names, 0 for none.
func askPieceNamed(ctx context.Context, word string) askPiece {
	for _, lc := range askLangs(ctx) {
		for _, p := range askPieces {
			for _, w := range askPhrasings(T(lc, p.id)) {
				if w == word {
					return p.piece
				}
			}
		}
	}
	return 0
}

// Answer answers q about the game page g as its viewer may know it, in
// the language of ctx: a sentence for the live region and the page.
func Answer(ctx context.Context, q Question, g GamePage) string {
	a := answer(ctx, q, g)
	if r := []rune(a); len(r) > 0 {
		a = string(unicode.ToUpper(r[0])) + string(r[1:])
	}
	return a
}

func answer(ctx context.Context, q Question, g GamePage) string {
	me := g.Play.Viewer
	if !me.Valid() {
		me = g.Bottom
	}
	switch q.kind {
	case askClock:
		parts := []string{}
		if g.Clock != "" {
			parts = append(parts, g.Clock)
		}
		if g.Banks != "" {
			parts = append(parts, g.Banks)
		}
		if len(parts) == 0 {
			return T(ctx, "No clock runs in this game now.|ask")
		}
		return strings.Join(parts, " ")
	case askLast:
		if v, ok := g.View.(cards.View); ok {
			if said := cardsLastSaid(ctx, v, g.Play); said != "" {
				return said
			}
		}
		if g.Play.LastMoveText == "" {
			return T(ctx, "No move has been played yet.|ask")
		}
		return T(ctx, "Last move %s.", g.Play.LastMoveText)
	case askHelp:
		return T(ctx, "Questions you can type in the move box|ask")
	}
	switch v := g.View.(type) {
	case trench.BoardView:
		return answerTrench(ctx, q, v, me)
	case trenches.BoardView:
		return answerTrenches(ctx, q, v, me)
	case cards.View:
		return answerCards(ctx, q, v, me)
	}
	return T(ctx, "This game cannot answer that question.|ask")
}

// answerTrench answers a question about a TRENCH board for side me.
func answerTrench(ctx context.Context, q Question, v trench.BoardView, me rules.Side) string {
	switch q.kind {
	case askMine, askTheirs:
		side := me
		if q.kind == askTheirs {
			side = me.Other()
		}
		kind := map[askPiece]trench.Kind{pieceSoldier: trench.Soldier, pieceSergeant: trench.Sergeant,
			pieceCaptain: trench.Captain, pieceColonel: trench.Colonel, pieceGeneral: trench.General}[q.piece]
		if kind == trench.NoKind {
			return T(ctx, "There is no such piece in this game.|ask")
		}
		var squares []string
		var name string
		for sq := trench.Square(0); sq < 64; sq++ {
			if u, ok := v.Position.At(sq); ok && u.Side() == side && u.Kind() == kind {
				squares = append(squares, trenchSquareName(sq))
				name = trenchUnitName(ctx, u)
			}
		}
		if len(squares) == 0 {
			return T(ctx, "No %s on the board.|ask", trenchUnitName(ctx, trench.NewUnit(kind, side)))
		}
		return T(ctx, "%[1]s on %[2]s.|ask", name, strings.Join(squares, ", "))
	case askRank:
		if q.rank < 1 || q.rank > 8 {
			return T(ctx, "The board has ranks 1 to %d.|ask", 8)
		}
		var items []string
		for file := 0; file < 8; file++ {
			sq := trench.NewSquare(file, q.rank-1)
			if u, ok := v.Position.At(sq); ok {
				items = append(items, trenchSquareName(sq)+" "+trenchUnitName(ctx, u))
			}
		}
		return answerRank(ctx, q.rank, items)
	case askTheyTook, askITook:
		side := me // what they captured: the viewer's units off the board
		if q.kind == askITook {
			side = me.Other()
		}
		if len(capturedUnits(v, int(side))) == 0 {
			if q.kind == askITook {
				return T(ctx, "You have captured nothing yet.|ask")
			}
			return T(ctx, "Your opponent has captured nothing yet.|ask")
		}
		if q.kind == askITook {
			return T(ctx, "You have captured: %s.|ask", capturedLabel(ctx, v, int(side)))
		}
		return T(ctx, "Your opponent has captured: %s.|ask", capturedLabel(ctx, v, int(side)))
	}
	return ""
}

// answerTrenches answers a question about a Trenches board for side me.
func answerTrenches(ctx context.Context, q Question, v trenches.BoardView, me rules.Side) string {
	switch q.kind {
	case askMine, askTheirs:
		side := me
		if q.kind == askTheirs {
			side = me.Other()
		}
		var want trenches.Piece
		switch {
		case q.piece == pieceTank && side == rules.Side0:
			want = trenches.LightTank
		case q.piece == pieceTank:
			want = trenches.DarkTank
		case q.piece == pieceSoldier && side == rules.Side0:
			want = trenches.LightSoldier
		case q.piece == pieceSoldier:
			want = trenches.DarkSoldier
		default:
			return T(ctx, "There is no such piece in this game.|ask")
		}
		var squares []string
		for _, row := range v.Rows() {
			for _, sq := range row {
				if v.Position.At(sq) == want {
					squares = append(squares, sq.String())
				}
			}
		}
		if len(squares) == 0 {
			return T(ctx, "No %s on the board.|ask", pieceName(ctx, want))
		}
		return T(ctx, "%[1]s on %[2]s.|ask", pieceName(ctx, want), strings.Join(squares, ", "))
	case askRank:
		if q.rank < 1 || q.rank > 10 {
			return T(ctx, "The board has ranks 1 to %d.|ask", 10)
		}
		var items []string
		for file := 0; file < 10; file++ {
			sq := trenches.NewSquare(file, q.rank-1)
			switch p := v.Position.At(sq); p {
			case trenches.Empty:
			case trenches.Debris:
				items = append(items, sq.String()+" "+T(ctx, "Debris"))
			default:
				items = append(items, sq.String()+" "+pieceName(ctx, p))
			}
		}
		return answerRank(ctx, q.rank, items)
	case askTheyTook, askITook:
		return T(ctx, "Nothing is captured in Trenches: the pieces stay on the board.|ask")
	}
	return ""
}

// answerCards answers a question about the card table for side me: only
// public cards (the removed ones) are ever named.
func answerCards(ctx context.Context, q Question, v cards.View, me rules.Side) string {
	switch q.kind {
	case askTheyTook:
		return T(ctx, "Your cards out of the game: %s.|ask", cardsNames(ctx, v.Sides[me].Removed))
	case askITook:
		return T(ctx, "Your opponent's cards out of the game: %s.|ask", cardsNames(ctx, v.Sides[me.Other()].Removed))
	}
	return T(ctx, "The card table has no pieces and no ranks: read the table's cards one by one.|ask")
}

// answerRank says what stands on a rank: items are "c4 White Sergeant".
func answerRank(ctx context.Context, rank int, items []string) string {
	if len(items) == 0 {
		return T(ctx, "Rank %d is empty.|ask", rank)
	}
	return T(ctx, "Rank %[1]d: %[2]s; the other squares are empty.|ask", rank, strings.Join(items, ", "))
}
