package db

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The plan of a statement does not change with the values bound to it,
// though SQLite's statistics would choose differently for them: so a
// prepared statement is not planned again for each new value.
func TestPlansDoNotFollowBoundValues(t *testing.T) {
	ctx := context.Background()
	store, err := Open(ctx, filepath.Join(t.TempDir(), "trench.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	// a is 0 in 9,000 rows and distinct in the other 1,000; b takes 100
	// values evenly. On average a picks fewer rows than b, but a = 0 many
	// more.
	setup := []string{
		`CREATE TABLE skew (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER)`,
		`CREATE INDEX skew_a ON skew (a)`,
		`CREATE INDEX skew_b ON skew (b)`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
		 INSERT INTO skew (a, b) SELECT CASE WHEN i <= 9000 THEN 0 ELSE i END, i % 100 FROM n`,
		`ANALYZE skew`,
	}
	for _, q := range setup {
		if _, err := store.write.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	plan := func(q string, args ...any) string {
		t.Helper()
		return strings.Join(queryPlan(t, store.read.DB, q, args...), "; ")
	}
	// The statistics do tell the two apart: written into the text, the
	// common value and the rare one get different plans.
	common, rare := plan(`SELECT id FROM skew WHERE a = 0 AND b = 5`), plan(`SELECT id FROM skew WHERE a = 9500 AND b = 5`)
	if common == rare {
		t.Fatalf("the statistics chose the same plan for a common and a rare value (%s): the test shows nothing", common)
	}
	// Bound, both get the one plan.
	const q = `SELECT id FROM skew WHERE a = ? AND b = ?`
	if p0, p1 := plan(q, 0, 5), plan(q, 9500, 5); p0 != p1 {
		t.Errorf("a statement is planned by the values bound to it:\n a = 0: %s\n a = 9500: %s", p0, p1)
	}
	// And on the write connection too.
	if p0, p1 := queryPlan(t, store.write.DB, q, 0, 5), queryPlan(t, store.write.DB, q, 9500, 5); !slices.Equal(p0, p1) {
		t.Errorf("the write connection plans a statement by the values bound to it:\n a = 0: %q\n a = 9500: %q", p0, p1)
	}
}

// queryPlan is SQLite's plan of query q with args on d: the detail of
// each line of EXPLAIN QUERY PLAN.
func queryPlan(t *testing.T, d *sql.DB, q string, args ...any) []string {
	t.Helper()
	rows, err := d.QueryContext(context.Background(), `EXPLAIN QUERY PLAN `+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var detail []string
	for rows.Next() {
		var id, parent, unused int
		var d string
		if err := rows.Scan(&id, &parent, &unused, &d); err != nil {
			t.Fatal(err)
		}
		detail = append(detail, d)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return detail
}

func TestStablePlansRefusesAnUnknownConnection(t *testing.T) {
	type other struct {
		db  uintptr
		tls int
	}
	for _, c := range []any{other{}, &other{}, new(int)} {
		if err := stablePlans(c, true); err == nil {
			t.Errorf("stablePlans(%T) = nil, want an error", c)
		}
	}
}

// BenchmarkBoundValuesPlanning runs two statements of the pages, each
// prepared once, on a database of 20,000 filled games, analysed: a game
// read by id and a player's last finished games, asked for the same game or
// player each time or a new one each time. "by-value" turns the planner's
// stability guarantee off, as SQLite has it by default: each new value then
// plans the statement again.
func BenchmarkBoundValuesPlanning(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "trench.db")
	if _, err := Fill(ctx, path, FillOptions{Games: 20000, PasswordHash: "hash", Now: time.Now(), Seed: 1}); err != nil {
		b.Fatal(err)
	}
	d, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	queries := []struct{ name, table, q string }{
		{"game", "games", gameSelect + `WHERE g.id = ?`},
		{"player-games", "users", `SELECT id, ended_at FROM games WHERE side0_id = ? AND status = 'finished' ORDER BY ended_at DESC LIMIT 20`},
	}
	for _, q := range queries {
		var last int64
		if err := d.QueryRowContext(ctx, `SELECT max(id) FROM `+q.table).Scan(&last); err != nil {
			b.Fatal(err)
		}
		for _, mode := range []string{"stable", "by-value"} {
			for _, value := range []string{"same", "new"} {
				b.Run(q.name+"/"+mode+"/"+value, func(b *testing.B) {
					conn, err := d.Conn(ctx)
					if err != nil {
						b.Fatal(err)
					}
					defer conn.Close()
					if err := conn.Raw(func(c any) error { return stablePlans(c, mode == "stable") }); err != nil {
						b.Fatal(err)
					}
					defer conn.Raw(func(c any) error { return stablePlans(c, true) })
					stmt, err := conn.PrepareContext(ctx, q.q)
					if err != nil {
						b.Fatal(err)
					}
					defer stmt.Close()
					rng := rand.New(rand.NewPCG(1, 1))
					for b.Loop() {
						id := last / 2
						if value == "new" {
							id = rng.Int64N(last) + 1
						}
						rows, err := stmt.QueryContext(ctx, id)
						if err != nil {
							b.Fatal(err)
						}
						for rows.Next() {
						}
						if err := rows.Close(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// The push sender's queries of the notices due start from the devices,
// and reach each player's games and messages through the players'
// indexes: a pass costs what the devices are, not what the games are (it
// read every game in progress, or every game ended in the last day).
func TestDueNoticesStartFromTheDevices(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trench.db")
	if _, err := Fill(ctx, path, FillOptions{Games: 2000, PasswordHash: "hash", Now: time.Now(), Seed: 1}); err != nil {
		t.Fatal(err)
	}
	store, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	for _, k := range noticeKinds {
		if k == NoticeChallenge {
			continue // the open challenges of the last day: few
		}
		plan := queryPlan(t, store.read.DB, `SELECT DISTINCT user_id, subject, ply FROM (`+dueQuery(k)+`)`, 0, 0)
		devices, other := -1, -1
		for i, d := range plan {
			switch {
			case devices < 0 && (strings.HasPrefix(d, "SCAN d") || strings.HasPrefix(d, "SCAN u")):
				devices = i
			case other < 0 && (strings.HasPrefix(d, "SEARCH g ") || strings.HasPrefix(d, "SCAN g ") ||
				strings.HasPrefix(d, "SEARCH m ") || strings.HasPrefix(d, "SCAN m ")):
				other = i
			}
		}
		if devices < 0 || other < devices {
			t.Errorf("%s notices: the plan does not start from the devices: %q", k, plan)
		}
	}
}

// Every statement of every trigger reaches its rows by key, whatever the
// statistics say: here those of a new database, taken when each table
// held a few rows at most, which a database keeps until they are taken
// again. A trigger runs inside the statement that writes a game or a
// move, so a walk along another index there is paid by every move (the
// players' last_played was updated along the users_last_played index,
// reading every account that had played before).
func TestTriggersReachTheirRowsByKey(t *testing.T) {
	ctx := context.Background()
	store, err := Open(ctx, filepath.Join(t.TempDir(), "trench.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	rows, err := store.read.QueryContext(ctx, `SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	type trigger struct{ name, sql string }
	var triggers []trigger
	for rows.Next() {
		var tr trigger
		if err := rows.Scan(&tr.name, &tr.sql); err != nil {
			t.Fatal(err)
		}
		triggers = append(triggers, tr)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	if len(triggers) < 10 {
		t.Fatalf("%d triggers in the schema: the test shows nothing", len(triggers))
	}
	// NEW.x and OLD.x are values to the statement, as parameters are.
	row := regexp.MustCompile(`\b(?:NEW|OLD)\.[a-z_0-9]+\b`)
	checked := 0
	for _, tr := range triggers {
		upper := strings.ToUpper(tr.sql)
		begin, end := strings.Index(upper, " BEGIN"), strings.LastIndex(upper, "END")
		if begin < 0 || end < begin {
			t.Fatalf("trigger %s: no BEGIN … END in %q", tr.name, tr.sql)
		}
		for _, stmt := range strings.Split(tr.sql[begin+len(" BEGIN"):end], ";") {
			if strings.TrimSpace(stmt) == "" {
				continue
			}
			q := row.ReplaceAllString(stmt, "?")
			args := make([]any, strings.Count(q, "?"))
			for i := range args {
				args[i] = 1
			}
			checked++
			for _, d := range queryPlan(t, store.write.DB, q, args...) {
				if (strings.HasPrefix(d, "SCAN ") && d != "SCAN CONSTANT ROW") || strings.Contains(d, "<") || strings.Contains(d, ">") {
					t.Errorf("trigger %s reads more than its rows: %s\n in %s", tr.name, d, strings.TrimSpace(stmt))
				}
			}
		}
	}
	t.Logf("%d statements of %d triggers", checked, len(triggers))
}
