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
	illegal := rules.Refuse(rules.ErrIllegal, "trench.no-unit", "d4")
	for _, c := range []struct {
		name   string
		err    error
		fr, de string
	}{
		{"internal", errors.New("disk I/O error"),
			"Une erreur s'est produite sur le serveur. Rien n'a été modifié\u00a0; veuillez réessayer.",
			"Auf dem Server ist etwas schiefgegangen. Nichts wurde geändert; bitte versuche es noch einmal."},
		{"illegal move", illegal,
			"Ce coup n'est pas permis dans cette position\u00a0: aucune unité en d4",
			"Dieser Zug ist in dieser Stellung nicht erlaubt: auf d4 steht keine Einheit"},
		{"illegal move with terms", rules.Refuse(rules.ErrIllegal, "trench.cannot-reach", rules.Term("General"), "a1", "a8"),
			"Ce coup n'est pas permis dans cette position\u00a0: le Général en a1 ne peut pas atteindre a8",
			"Dieser Zug ist in dieser Stellung nicht erlaubt: der General auf a1 kann a8 nicht erreichen"},
		{"wrapped twice", fmt.Errorf("game 7: %w", illegal),
			"Ce coup n'est pas permis dans cette position\u00a0: aucune unité en d4",
			"Dieser Zug ist in dieser Stellung nicht erlaubt: auf d4 steht keine Einheit"},
		{"a rules error without a code keeps its English words out", fmt.Errorf("trenches: move %v leaves the board: %w", "a1-a0", rules.ErrIllegal),
			"Ce coup n'est pas permis dans cette position.",
			"Dieser Zug ist in dieser Stellung nicht erlaubt."},
		{"a plan quoting a refusal", db.Errorf(db.KindInvalid, "Line %d: your move %d, %q, cannot be played there: %s.", 1, 2, "d2xd3", db.Refusal{Err: rules.Refuse(rules.ErrIllegal, "trench.captures-none", "d2xd3", "d2-d3")}),
			"Ligne 1\u00a0: votre coup 2, \"d2xd3\", ne peut pas être joué dans cette position\u00a0: le coup d2xd3 ne prend rien\u00a0: écrivez d2-d3.",
			"Zeile 1: Dein Zug 2, \"d2xd3\", ist dort nicht möglich: der Zug d2xd3 schlägt nichts: schreibe d2-d3."},
		{"bare notation error", rules.ErrNotation,
			"Cette notation est illisible.",
			"Diese Notation ist nicht lesbar."},
		{"a term", db.Errorf(db.KindConflict, "This challenge is no longer open (it was %s).", db.Term("accepted|challenge")),
			"Ce défi n'est plus ouvert (il a été accepté).",
			"Diese Herausforderung ist nicht mehr offen (sie wurde angenommen)."},
		{"a game's title", db.Errorf(db.KindInvalid, "Takebacks are not offered in Trench, the card game: a played card has been seen."),
			"Les reprises de coup ne sont pas proposées dans le jeu de cartes Trench\u00a0: une carte jouée a été vue.",
			"Zugrücknahmen gibt es im Kartenspiel Trench nicht: Eine gespielte Karte wurde gesehen."},
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
