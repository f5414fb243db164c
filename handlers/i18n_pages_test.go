package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// getIn fetches path as a browser whose preferred language is
// acceptLanguage ("" sends no preference).
func (c *client) getIn(path, acceptLanguage string) *goquery.Document {
	c.t.Helper()
	req, err := http.NewRequest(http.MethodGet, c.abs(path), nil)
	if err != nil {
		c.t.Fatal(err)
	}
	if acceptLanguage != "" {
		req.Header.Set("Accept-Language", acceptLanguage)
	}
	doc := c.do(req, false)
	c.wantStatus(http.StatusOK)
	return doc
}

// wantTexts fails unless the text of the first element matching sel in
// the last page holds each of want.
func (c *client) wantTexts(sel string, want ...string) {
	c.t.Helper()
	got := strings.Join(strings.Fields(c.Last.Find(sel).First().Text()), " ")
	for _, w := range want {
		if !strings.Contains(got, w) {
			c.t.Errorf("%s: %s reads %q, want %q in it", c.URL, sel, got, w)
		}
	}
}

// TestHomeChallengeFormAndArchiveInFrenchAndGerman: a French and a German
// browser get the start page, the dashboard, the challenge form and the
// archive in their language; an English one gets them as before.
func TestHomeChallengeFormAndArchiveInFrenchAndGerman(t *testing.T) {
	s := startServer(t, "", nil)
	a, _ := signedUpPair(t, s)
	finishByResign(t, s, "alice", "bob", "bob", "trench", "single", 4)
	v := s.newClient(t)

	for _, c := range []struct {
		lang                     string
		home, games, rules       []string
		dashboard, form, archive []string
		playComputer, easy       string
		count, side              string
	}{
		{lang: "fr",
			home:         []string{"Trench, par correspondance"},
			games:        []string{"Les jeux"},
			rules:        []string{"tranchée", "Règles", "Trench, le jeu de cartes"},
			dashboard:    []string{"Vos parties", "Vos défis", "Défis ouverts"},
			form:         []string{"Nouveau défi", "Jours par coup", "Réserve de temps", "Au hasard", "Noir (joue en premier)", "Partie officielle unique (jusqu'à 50)", "Créer le défi"},
			playComputer: "Jouer contre l'ordinateur", easy: "facile",
			archive: []string{"Archives", "Tous les jeux", "Tous les résultats", "Afficher"},
			count:   "1 partie terminée", side: "(Noir)"},
		{lang: "de-DE,de;q=0.9",
			home:         []string{"Trench im Fernspiel"},
			games:        []string{"Die Spiele"},
			rules:        []string{"Graben", "Regeln", "Trench, das Kartenspiel"},
			dashboard:    []string{"Deine Partien", "Deine Herausforderungen", "Offene Herausforderungen"},
			form:         []string{"Neue Herausforderung", "Tage pro Zug", "Zeitkonto", "Zufällig", "Schwarz (zieht zuerst)", "Offizielle Einzelpartie (bis 50)", "Herausforderung erstellen"},
			playComputer: "Gegen den Computer spielen", easy: "leicht",
			archive: []string{"Archiv", "Alle Spiele", "Jedes Ergebnis", "Anzeigen"},
			count:   "1 beendete Partie", side: "(Schwarz)"},
		{lang: "",
			home:         []string{"Trench, by correspondence"},
			games:        []string{"The games"},
			rules:        []string{"trench", "Rules", "Trench, the card game"},
			dashboard:    []string{"Your games", "Your challenges", "Open challenges"},
			form:         []string{"New challenge", "Days per move", "Time bank", "Random", "Black (moves first)", "Official single game (to 50)", "Create challenge"},
			playComputer: "Play the computer", easy: "easy",
			archive: []string{"Archive", "All games", "Any result", "Show"},
			count:   "1 finished game", side: "(Black)"},
	} {
		// The start page of a visitor.
		v.getIn("/", c.lang)
		v.wantTexts("main h1", c.home...)
		v.wantTexts("main h2", c.games...)
		v.wantTexts("main", c.rules...)

		// A player's dashboard and challenge form.
		a.getIn("/", c.lang)
		a.wantTexts("#dashboard-body", c.dashboard...)
		a.getIn("/challenges/new?game=trench", c.lang)
		a.wantTexts("main", c.form...)
		a.wantTexts("#play-computer h2", c.playComputer)
		a.wantTexts("#play-computer select[name=level] option", c.easy)

		// The archive, with the finished game in it.
		v.getIn("/archive", c.lang)
		v.wantTexts("main", c.archive...)
		v.wantTexts("#archive-count", c.count)
		v.wantTexts("#archive tbody tr", c.side)
	}
	if lang, _ := v.Last.Find("html").Attr("lang"); lang != "en" {
		t.Errorf("the English archive is marked lang=%q", lang)
	}
}

// TestLanguageCookieWinsOverTheBrowser: a visitor who chose a language in
// the footer's menu keeps it whatever the browser prefers.
func TestLanguageCookieWinsOverTheBrowser(t *testing.T) {
	s := startServer(t, "", nil)
	v := s.newClient(t)
	v.getIn("/", "fr")
	v.wantTexts("main h1", "Trench, par correspondance")
	v.Submit(v.Last.Find("#language-form"), url.Values{"lang": {"de"}})
	v.wantStatus(http.StatusOK)
	v.wantTexts("main h1", "Trench im Fernspiel")

	v.getIn("/", "fr-FR,fr;q=0.9")
	v.wantTexts("main h1", "Trench im Fernspiel")
	if got := v.Header.Get("Content-Language"); got != "de" {
		t.Errorf("Content-Language %q, want de", got)
	}
	v.getIn("/archive", "fr")
	v.wantTexts("main h1", "Archiv")
	v.wantTexts("#archive-count", "0 beendete Partien")

	// Following the browser again.
	v.Submit(v.Last.Find("#language-form"), url.Values{"lang": {""}})
	v.getIn("/", "fr")
	v.wantTexts("main h1", "Trench, par correspondance")
}

// TestAnalysisInFrenchAndGerman: the computer analysis of a finished
// game, its panel on the review and the analysis board, read in French
// and German.
func TestAnalysisInFrenchAndGerman(t *testing.T) {
	s := startComputerless(t, "", nil)
	a, _ := signedUpPair(t, s)
	g := finishByResign(t, s, "alice", "bob", "bob", "trench", "single", 6)
	page := fmt.Sprintf("/games/%d", g.ID)

	a.getIn(page, "fr")
	a.wantTexts("#analysis h2", "Analyse par l'ordinateur")
	a.wantTexts("#analyse", "Analyser")
	a.Submit(a.Last.Find("#analyse-form"), nil)
	a.wantStatus(http.StatusOK)
	a.getIn(page, "de")
	a.wantTexts("#analysis-status", "Wartet", "Stellungen zu bewerten")
	a.wantTexts("#analysis-reload", "Lade die Seite neu")

	runComputer(t, s)
	waitFor(t, "the analysis", func() bool { return s.analysisOf(t, g.ID).State == "done" })
	v := s.newClient(t)
	review := fmt.Sprintf("%s?ply=%d", page, g.Ply)
	v.getIn(review, "fr")
	v.wantTexts("#analysis-eval", fmt.Sprintf("Après le demi-coup %d : Noir peut espérer", g.Ply), "Blanc")
	v.wantTexts("#analysis-mistakes", "Erreurs : Noir", "Une erreur est un coup")
	if label, _ := v.Last.Find("#eval-graph").Attr("aria-label"); !strings.HasPrefix(label, "Résultat attendu de Noir après chaque demi-coup") {
		t.Errorf("the French graph is labelled %q", label)
	}
	v.getIn(review, "de")
	v.wantTexts("#analysis-eval", fmt.Sprintf("Nach Halbzug %d: erwartetes Ergebnis für Schwarz", g.Ply))
	v.wantTexts("#analysis-mistakes", "Fehler: Schwarz", "Zugliste")

	// The analysis board of the ended game, with a line tried.
	v.getIn(fmt.Sprintf("%s/analysis?ply=0", page), "fr")
	v.wantTexts("main h1", "Plateau d'analyse")
	v.wantTexts("#line-position", "La position après le demi-coup 0 de la partie.")
	v.wantTexts("#line-to-move", "Au tour de Noir")
	v.wantTexts("#line-legal", "coups légaux pour Noir")
	v.wantTexts("#board-eval h2", "Évaluation de l'ordinateur")
	v.wantTexts("#board-eval-text", "Noir peut espérer")
	v.wantTexts("#board-best", "Meilleur coup :")
	v.wantTexts("#line-empty", "Cliquez sur une pièce")
	v.getIn(fmt.Sprintf("%s/analysis?ply=0", page), "de")
	v.wantTexts("#line-to-move", "Schwarz ist am Zug")
	v.wantTexts("#line-empty", "Klicke eine Figur")
	v.wantTexts("#line-steps", "Vorige Variante", "Nächste Variante", "Pfeiltasten")

	// One move of the game tried as a line, and a move that is not legal.
	moves, err := s.DB.Moves(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	line := fmt.Sprintf("%s/analysis?ply=0&line=%s", page, url.QueryEscape(moves[0].Move))
	v.getIn(line, "fr")
	v.wantTexts("#line-position", "et 1 coup de la ligne (demi-coup 1)")
	v.wantTexts("#line-to-move", "Au tour de Blanc")
	v.getIn(line, "de")
	v.wantTexts("#line-position", "und 1 Zug der Zugfolge (Halbzug 1)")
	v.wantTexts("#line-tree", "Zugfolgen")
	req, _ := http.NewRequest(http.MethodGet, v.abs(line+","+url.QueryEscape(moves[0].Move)), nil)
	req.Header.Set("Accept-Language", "es")
	v.do(req, false)
	v.wantStatus(http.StatusBadRequest)
	v.wantTexts("main", "La jugada 2 (línea, ", "no es una jugada legal")
}
