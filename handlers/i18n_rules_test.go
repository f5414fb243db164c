package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// getWithLanguage fetches path from s as a browser set to the language
// acceptLanguage (its Accept-Language header) with no cookie would.
func getWithLanguage(t *testing.T, s *server, path, acceptLanguage string) *goquery.Document {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Language", acceptLanguage)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s (%s): status %d", path, acceptLanguage, res.StatusCode)
	}
	doc, err := goquery.NewDocumentFromReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestRulesPagesInEachLanguage: a visitor whose browser asks for French,
// Portuguese, Spanish or German reads the rules in that language, with the
// game's own terms (the glossary's), the notation as it is written in
// every language and the words in bold still in bold; the English page
// reads as before.
func TestRulesPagesInEachLanguage(t *testing.T) {
	s := startServer(t, "", nil)
	for _, tc := range []struct {
		lang  string
		title string
		words []string // on /rules/trench
		bold  string   // a text in bold on /rules/trench
		cards string   // in the card game's rule on repetition
		tank  string   // on /rules/trenches
	}{
		{"en", "TRENCH rules", []string{"Soldier", "Sergeant", "trench", "armistice", "decider", "stars"},
			"Black moves first", "third time", "Tank"},
		{"fr-FR,fr;q=0.9", "Règles de TRENCH", []string{"Soldat", "Sergent", "Capitaine", "Colonel", "Général", "tranchée", "armistice", "partie décisive", "étoiles"},
			"Les Noirs jouent en premier", "troisième fois", "Char"},
		{"pt-BR", "Regras de TRENCH", []string{"Soldado", "Sargento", "Capitão", "Coronel", "trincheira", "armistício", "partida decisiva", "estrelas"},
			"As Pretas jogam primeiro", "terceira vez", "Tanque"},
		{"es", "Reglas de TRENCH", []string{"Soldado", "Sargento", "Capitán", "Coronel", "trinchera", "armisticio", "partida decisiva", "estrellas"},
			"Las Negras mueven primero", "tercera vez", "Tanque"},
		{"de-DE", "Spielregeln: TRENCH", []string{"Soldat", "Feldwebel", "Hauptmann", "Oberst", "Graben", "Waffenstillstand", "Entscheidungspartie", "Sterne"},
			"Schwarz zieht zuerst", "dritten Mal", "Panzer"},
	} {
		doc := getWithLanguage(t, s, "/rules/trench", tc.lang)
		if got := doc.Find("title").Text(); !strings.HasPrefix(got, tc.title) {
			t.Errorf("%s: the title is %q, want it to start %q", tc.lang, got, tc.title)
		}
		text := doc.Find("article.rules").Text()
		for _, w := range tc.words {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the rules of TRENCH never say %q", tc.lang, w)
			}
		}
		if got := doc.Find("article.rules p strong").First().Text(); got != tc.bold {
			t.Errorf("%s: the first bold text is %q, want %q", tc.lang, got, tc.bold)
		}
		// The notation is the same in every language.
		if !strings.Contains(text, "4RACG/4SRAC/4SSRA/4SSSR/rsss4/arss4/cars4/gcar4 b 0 0 0") || !strings.Contains(text, "e4xg6") {
			t.Errorf("%s: the notation of the start position or of a capture is missing", tc.lang)
		}
		if n := doc.Find("article.rules code").Length(); n < 20 {
			t.Errorf("%s: %d bits of notation in code, want 20 or more", tc.lang, n)
		}
		// The English text of a message no one translated would show here.
		if tc.lang != "en" && strings.Contains(text, "Black moves first") {
			t.Errorf("%s: the page still has English sentences", tc.lang)
		}

		doc = getWithLanguage(t, s, "/rules/cards", tc.lang)
		if got := doc.Find("#rule-repetition strong").First().Text(); !strings.Contains(got, tc.cards) {
			t.Errorf("%s: the card game's rule on repetition reads %q, want %q in bold", tc.lang, got, tc.cards)
		}
		doc = getWithLanguage(t, s, "/rules/trenches", tc.lang)
		if got, _ := doc.Find(`.rules-units svg[role="img"]`).First().Attr("aria-label"); got != tc.tank {
			t.Errorf("%s: the Tank's picture is called %q, want %q", tc.lang, got, tc.tank)
		}
	}
}

// TestCardNotationTableInEachLanguage: the card game's notation table
// names the hand card's placeholder in the reader's language.
func TestCardNotationTableInEachLanguage(t *testing.T) {
	s := startServer(t, "", nil)
	for lang, want := range map[string]string{"en": "shift Bi H:<card>", "fr": "shift Bi H:<carte>", "de": "shift Bi H:<Karte>", "es": "refill Fi H:<carta>", "pt": "shift H:<carta> Bi"} {
		doc := getWithLanguage(t, s, "/rules/cards", lang)
		var codes []string
		doc.Find("table.list code").Each(func(_ int, c *goquery.Selection) { codes = append(codes, c.Text()) })
		all := strings.Join(codes, " | ")
		if !strings.Contains(all, want) {
			t.Errorf("%s: the notation table reads %q, want %q in it", lang, all, want)
		}
		if lang != "en" && strings.Contains(all, "<card>") {
			t.Errorf("%s: the notation table keeps the English <card>: %q", lang, all)
		}
	}
}
