package db_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
)

// announced records what OnGameCommit and OnTournamentCommit report.
type announced struct {
	mu          sync.Mutex
	games       []int64
	tournaments []int64
}

func listen(store *db.DB) *announced {
	a := &announced{}
	store.OnGameCommit(func(ids ...int64) {
		if !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
			panic("game ids not ascending and distinct")
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		a.games = append(a.games, ids...)
	})
	store.OnTournamentCommit(func(ids ...int64) {
		a.mu.Lock()
		defer a.mu.Unlock()
		a.tournaments = append(a.tournaments, ids...)
	})
	return a
}

// take returns what was announced since the last take.
func (a *announced) take() (games, tournaments []int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	games, tournaments = a.games, a.tournaments
	a.games, a.tournaments = nil, nil
	return games, tournaments
}

// expect checks that what was announced since the last take is exactly
// games (in any order, each once per transaction).
func (a *announced) expect(t *testing.T, what string, games ...int64) {
	t.Helper()
	got, _ := a.take()
	slices.Sort(got)
	slices.Sort(games)
	if !slices.Equal(got, games) {
		t.Errorf("%s: games announced %v, want %v", what, got, games)
	}
}

// TestEveryGameWriteIsAnnounced walks the paths that write a game and
// checks that each committed write reaches OnGameCommit with the game's
// id, once, and that a refused or rolled-back write announces nothing.
func TestEveryGameWriteIsAnnounced(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	a := listen(store)

	g, ann, bob := newGame(t, store, "trench", "single")
	a.expect(t, "a challenge accepted", g.ID)

	if _, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: ann.ID, Ply: 0, Move: "d4-d5"}, t0); err != nil {
		t.Fatal(err)
	}
	a.expect(t, "a move", g.ID)

	_, err := store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: ann.ID, Ply: 0, Move: "d4-d5"}, t0)
	wantKind(t, err, db.KindConflict)
	_, err = store.PlayMove(ctx, db.Play{GameID: g.ID, UserID: bob.ID, Ply: 1, Move: "nonsense"}, t0)
	wantKind(t, err, db.KindInvalid)
	a.expect(t, "a stale and an invalid move")

	m, err := store.SendMessage(ctx, g.ID, bob.ID, "Good luck", t0)
	if err != nil {
		t.Fatal(err)
	}
	a.expect(t, "a message", g.ID)
	if err := store.DeleteMessage(ctx, m.ID); err != nil {
		t.Fatal(err)
	}
	a.expect(t, "an administrator deleting a message", g.ID)

	if _, err := store.OfferArmistice(ctx, g.ID, bob.ID, 1, t0); err != nil {
		t.Fatal(err)
	}
	a.expect(t, "an armistice offered", g.ID)
	if _, err := store.AnswerArmistice(ctx, g.ID, ann.ID, 1, false, t0); err != nil {
		t.Fatal(err)
	}
	a.expect(t, "an armistice declined", g.ID)

	if err := store.StartVacation(ctx, bob.ID, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	a.expect(t, "a vacation started (the deadline moves)", g.ID)
	if err := store.EndVacation(ctx, bob.ID, t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	a.expect(t, "a vacation ended", g.ID)

	store.SetVacationDays(0) // time running out would start a vacation first
	if n, err := store.ExpireGames(ctx, t0.Add(400*24*time.Hour)); err != nil || n != 1 {
		t.Fatalf("expired %d games (%v), want 1", n, err)
	}
	a.expect(t, "a timeout", g.ID)

	// An account's deletion resigns its games.
	cid := users(t, store, "cid")[0]
	c, err := store.CreateChallenge(ctx, db.NewChallenge{CreatorID: cid.ID, Game: "trench", Variant: "single", Color: "0", DaysPerMove: 2}, t0)
	if err != nil {
		t.Fatal(err)
	}
	g2, err := store.AcceptChallenge(ctx, c.ID, ann.ID, 7, t0)
	if err != nil {
		t.Fatal(err)
	}
	a.expect(t, "a second game", g2)
	if err := store.DeleteAccount(ctx, cid.ID, t0); err != nil {
		t.Fatal(err)
	}
	a.expect(t, "an account deleted", g2)

	// Writes that do not touch a game announce none.
	if err := store.SetAnnouncement(ctx, "Maintenance at noon"); err != nil {
		t.Fatal(err)
	}
	a.expect(t, "an announcement")
}

// TestTournamentWritesAreAnnounced: joining, the start (its games
// created) and a result recorded reach OnTournamentCommit and, for the
// games, OnGameCommit.
func TestTournamentWritesAreAnnounced(t *testing.T) {
	store, _ := open(t)
	ctx := context.Background()
	us := users(t, store, "ann", "bob")
	a := listen(store)
	tr := newTournament(t, store, us[0], db.NewTournament{Name: "Duel", Game: "trench", Variant: "single",
		Format: db.FormatRoundRobin, MinPlayers: 2, MaxPlayers: 2, Clock: db.TimeControl{Kind: "move", DaysPerMove: 3}, Seed: 3}, us)
	games, tours := a.take()
	if len(tours) < 3 || slices.ContainsFunc(tours, func(id int64) bool { return id != tr.ID }) {
		t.Errorf("tournament created, joined twice and started: announced %v, want %d at least three times", tours, tr.ID)
	}
	d, err := store.Tournament(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	var started []int64
	for _, p := range d.Pairings {
		started = append(started, p.GameID)
	}
	if len(started) == 0 || !slices.Equal(games, started) {
		t.Errorf("the start announced games %v, want %v", games, started)
	}
	for _, gid := range started {
		g, err := store.Game(ctx, gid)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.Resign(ctx, gid, g.Side[0].ID, 0, t0); err != nil {
			t.Fatal(err)
		}
		games, tours = a.take()
		if !slices.Equal(games, []int64{gid}) || !slices.Equal(tours, []int64{tr.ID}) {
			t.Errorf("game %d resigned: announced games %v tournaments %v, want [%d] and [%d]", gid, games, tours, gid, tr.ID)
		}
	}
}

// TestOnlyTheWriteConnectionWrites guards the premise of OnGameCommit:
// every write goes through the write pool's hooked connection, opened in
// one place and used only through begin. Any other connection opened in
// package db must be read-only or must not write to the database (the
// backup's VACUUM INTO writes another file).
func TestOnlyTheWriteConnectionWrites(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	// The functions allowed to open a connection, and why it cannot
	// write a game.
	allowed := map[string]string{
		"open":              "the write pool (hooked) and the query_only read pool",
		"backup":            "VACUUM INTO another file",
		"SQLiteVersion":     ":memory:",
		"openVerified":      "mode=ro&immutable=1",
		"checkFile":         "mode=ro&immutable=1",
		"verifyCopy":        "mode=ro&immutable=1",
		"FileSchemaVersion": "mode=ro",
		"Inspect":           "mode=ro, and :memory: for the schema this binary makes",
		"Fill":              "a new database for measurement, filled before any server opens it",
	}
	fset := token.NewFileSet()
	var opens, writeUses []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
						if x, ok := sel.X.(*ast.Ident); ok && x.Name == "sql" && strings.HasPrefix(sel.Sel.Name, "Open") {
							if _, ok := allowed[fn.Name.Name]; !ok {
								opens = append(opens, fset.Position(n.Pos()).String()+" in "+fn.Name.Name)
							}
						}
					}
				case *ast.SelectorExpr:
					// db.write.X: only beginHeld (through begin, or a
					// group of changes) starts transactions, and Close
					// closes the pool.
					if inner, ok := n.X.(*ast.SelectorExpr); ok && inner.Sel.Name == "write" {
						if fn.Name.Name != "beginHeld" && fn.Name.Name != "Close" {
							writeUses = append(writeUses, fset.Position(n.Pos()).String()+" in "+fn.Name.Name)
						}
					}
				}
				return true
			})
		}
	}
	for _, o := range opens {
		t.Errorf("%s opens a connection: writes through it would bypass OnGameCommit (use db.begin)", o)
	}
	for _, u := range writeUses {
		t.Errorf("%s uses the write pool outside begin: its writes would not be announced (use db.begin)", u)
	}
}
