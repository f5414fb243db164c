package handlers

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
	"github.com/trench-games/trench/rules"
	"github.com/trench-games/trench/views"
)

// TestErrorTextPerLanguage: each kind of error reads in the reader's
// language, values that are words (db.Term, a wait) translated too, and
// reads in English exactly as db.Message writes it.
func TestErrorTextPerLanguage(t *testing.T) {
	en := views.WithLang(context.Background(), "en")
	fr := views.WithLang(context.Background(), "fr")
	de := views.WithLang(context.Background(), "de")
	illegal := fmt.Errorf("%w: no unit on d4", rules.ErrIllegal)
	for _, c := range []struct {
		name   string
		err    error
		fr, de string
	}{
		{"internal", errors.New("disk I/O error"),
			"Une erreur s'est produite sur le serveur. Rien n'a été modifié\u00a0; veuillez réessayer.",
			"Auf dem Server ist etwas schiefgegangen. Nichts wurde geändert; bitte versuche es noch einmal."},
		{"illegal move", illegal,
			"Ce coup n'est pas permis dans cette position\u00a0: no unit on d4",
			"Dieser Zug ist in dieser Stellung nicht erlaubt: no unit on d4"},
		{"illegal move, wrapped", fmt.Errorf("trenches: move %v leaves the board: %w", "a1-a0", rules.ErrIllegal),
			"Ce coup n'est pas permis dans cette position\u00a0: move a1-a0 leaves the board",
			"Dieser Zug ist in dieser Stellung nicht erlaubt: move a1-a0 leaves the board"},
		{"wrapped twice", fmt.Errorf("game 7: %w", illegal),
			"Ce coup n'est pas permis dans cette position\u00a0: no unit on d4",
			"Dieser Zug ist in dieser Stellung nicht erlaubt: no unit on d4"},
		{"bare notation error", rules.ErrNotation,
			"Cette notation est illisible.",
			"Diese Notation ist nicht lesbar."},
		{"a term", db.Errorf(db.KindConflict, "This challenge is no longer open (it was %s).", db.Term("accepted|challenge")),
			"Ce défi n'est plus ouvert (il a été accepté).",
			"Diese Herausforderung ist nicht mehr offen (sie wurde angenommen)."},
		{"a game's title", db.Errorf(db.KindInvalid, "Takebacks are not offered in %s: a played card has been seen.", db.Term("Trench, the card game")),
			"Les reprises de coup ne sont pas proposées dans Trench, le jeu de cartes\u00a0: une carte jouée a été vue.",
			"Zugrücknahmen gibt es in Trench, das Kartenspiel nicht: Eine gespielte Karte wurde gesehen."},
		{"a wait", tooMany("Too many wrong passwords.", 40*time.Second),
			"Trop de mots de passe erronés. Veuillez réessayer dans 40 secondes.",
			"Zu viele falsche Passwörter. Bitte versuche es in 40 Sekunden erneut."},
		{"a wait in minutes", tooMany("Too many sign-in attempts from your address.", 61*time.Second),
			"Trop de tentatives de connexion depuis votre adresse. Veuillez réessayer dans 2 minutes.",
			"Zu viele Anmeldeversuche von deiner Adresse. Bitte versuche es in 2 Minuten erneut."},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, want := errorText(en, c.err), db.Message(c.err); got != want {
				t.Errorf("en: %q, want db.Message's %q", got, want)
			}
			if got := errorText(fr, c.err); got != c.fr {
				t.Errorf("fr: %q, want %q", got, c.fr)
			}
			if got := errorText(de, c.err); got != c.de {
				t.Errorf("de: %q, want %q", got, c.de)
			}
		})
	}
	// The English of a term is its text without the context.
	if got := db.Errorf(db.KindConflict, "(it was %s)", db.Term("accepted|challenge")).Error(); got != "(it was accepted)" {
		t.Errorf("English %q", got)
	}
}
