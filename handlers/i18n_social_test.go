package handlers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// readIn makes c ask for the pages in lang, as a visitor who chose it
// from the footer's menu (the lang cookie).
func readIn(t *testing.T, c *client, lang string) {
	t.Helper()
	u, err := url.Parse(c.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	c.http.Jar.SetCookies(u, []*http.Cookie{{Name: "lang", Value: lang, Path: "/"}})
}

// wantWords fails unless the text of sel on c's last page holds each of
// words.
func wantWords(t *testing.T, c *client, sel string, words ...string) {
	t.Helper()
	got := c.text(sel)
	for _, w := range words {
		if !strings.Contains(got, w) {
			t.Errorf("%s: %s reads %q, want %q in it", c.Name, sel, got, w)
		}
	}
}

// TestLeaderboardAndPlayersInSpanishAndPortuguese: the leaderboard, the
// note on a player whose rating is still provisional and the players directory speak
// the reader's language, dates included.
func TestLeaderboardAndPlayersInSpanishAndPortuguese(t *testing.T) {
	s := startServer(t, "", nil)
	ana, bea := s.newClient(t), s.newClient(t)
	ana.SignUp("ana")
	bea.SignUp("bea")
	ratedGame(t, s, "ana", "bea", "ana", s.Clock.Now())

	readIn(t, ana, "es")
	ana.Get("/leaderboard/trenches")
	ana.wantStatus(http.StatusOK)
	wantWords(t, ana, "h1", "Clasificación · Trenches")
	wantWords(t, ana, "#leaderboard-rule", "marcados como provisionales", "últimos 90 días")
	wantWords(t, ana, "nav.tabs", "Trench, el juego de cartas")
	wantWords(t, ana, "#own-rank", "aún es provisional (1 partida puntuable hasta ahora)", "apareces debajo de los jugadores con puesto")
	wantWords(t, ana, "#provisional-ratings", "Puntuaciones provisionales")
	wantWords(t, ana, `#leaderboard tr[data-player="ana"] .rank`, "provisional")
	ana.Get("/leaderboard/trench")
	wantWords(t, ana, "#leaderboard-empty", "Todavía no hay nadie en la clasificación.")
	ana.Get("/leaderboard/trenches")
	if title := ana.Last.Find("title").Text(); !strings.HasPrefix(title, "Clasificación · Trenches") {
		t.Errorf("the Spanish leaderboard's title is %q", title)
	}

	readIn(t, bea, "pt")
	bea.Get("/leaderboard/trenches")
	wantWords(t, bea, "h1", "Classificação · Trenches")
	wantWords(t, bea, "#own-rank", "ainda é provisório (1 partida valendo rating até agora)", "aparece abaixo dos jogadores com posição")
	wantWords(t, bea, "#provisional-ratings", "Ratings provisórios")
	bea.Get("/players")
	wantWords(t, bea, "h1", "Jogadores")
	wantWords(t, bea, "#players-count", "5 jogadores") // the two players and the three computer players
	wantWords(t, bea, "#players thead", "Jogador", "Última partida jogada")
	last := strings.TrimSpace(bea.Last.Find(`#players tr[data-player="ana"] td`).Last().Text())
	if !regexp.MustCompile(`^\d{1,2} de \p{L}+ de \d{4}$`).MatchString(last) {
		t.Errorf("the Portuguese directory writes ana's last game %q, want a date like 21 de março de 2026", last)
	}
	bea.Get("/players/ana")
	wantWords(t, bea, "#ratings thead", "Jogo", "Rating", "Desvio", "Partidas valendo rating")
	wantWords(t, bea, "figure.rating-chart figcaption", "1 partida valendo rating, de 1500 a")
}

// TestTournamentPagesInSpanishAndPortuguese: a Swiss organised and run
// through the Spanish pages reads in Spanish, and in Portuguese for a
// visitor who reads Portuguese: the list, the format, the status, the
// standings, the rounds.
func TestTournamentPagesInSpanishAndPortuguese(t *testing.T) {
	s := startServer(t, "", nil)
	players := map[string]*client{}
	for _, name := range []string{"ana", "bea", "caio", "dani"} {
		c := s.newClient(t)
		c.SignUp(name)
		readIn(t, c, "es")
		players[name] = c
	}
	org := players["ana"]
	org.Get("/tournaments/new")
	wantWords(t, org, "h1", "Organizar un torneo")
	wantWords(t, org, "#tournament-form", "Sistema suizo", "Días por jugada", "3 días", "tras 7 días de inscripciones", "Crear el torneo")
	page := organise(t, org, url.Values{"name": {"Copa de otoño"}, "game": {"trenches:standard"}, "format": {"swiss"},
		"rounds": {"3"}, "min": {"4"}, "max": {"6"}, "days": {"2"}, "starts": {"7"}})
	wantWords(t, org, "#tournament-info", "Trenches · Sistema suizo, 3 rondas · 2 días por jugada · amistoso · organizado por ana")
	wantWords(t, org, "#tournament-status", "Inscripciones: 0 de 6 jugadores (al menos 4).", "Empieza el ")
	for _, name := range []string{"ana", "bea", "caio", "dani"} {
		tournamentAct(t, players[name], page, "join")
	}
	tournamentAct(t, org, page, "start")

	org.Get(page)
	wantWords(t, org, "#tournament-status", "Se está jugando la ronda 1 de 3.")
	wantWords(t, org, "#tournament-rule", "Los empates se deshacen por Buchholz")
	wantWords(t, org, "#tournament-body", "Inscritos", "Clasificación", "Rondas", "Ronda 1")
	wantWords(t, org, "#standings thead", "Puesto", "Jugador", "Puntos", "Partidas")
	wantWords(t, org, "#tournament-actions", "Retirarse")
	org.Get("/tournaments")
	wantWords(t, org, "#tournaments-running thead", "Torneo", "Juego", "Formato", "Jugadores")
	wantWords(t, org, "#tournaments-running tbody", "4 de 6 jugadores", "ronda 1")

	v := s.newClient(t)
	readIn(t, v, "pt")
	v.Get(page)
	v.wantStatus(http.StatusOK)
	wantWords(t, v, "#tournament-info", "Sistema suíço, 3 rodadas", "2 dias por lance")
	wantWords(t, v, "#tournament-status", "A rodada 1 de 3 está em andamento.")
	wantWords(t, v, "#tournament-body", "Classificação", "Rodadas", "Rodada 1")
	wantWords(t, v, "#standings thead", "Posição", "Jogador", "Pontos")
	v.Get("/tournaments")
	wantWords(t, v, "h1", "Torneios")
	wantWords(t, v, "#tournaments-running thead", "Torneio", "Jogo", "Formato", "Jogadores")
	wantWords(t, v, "#tournaments-running tbody", "4 de 6 jogadores", "rodada 1")
	wantWords(t, v, "#tournament-creators", "Qualquer jogador conectado pode organizar um torneio.")
}
