package handlers_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/trench-games/trench/db"
)

// TestPushLatencyBench measures, with TRENCH_PUSH_BENCH=1 (PLAYERS
// players, 1,000 by default, each in one game), how long after a move's
// commit its push notice reaches the loopback push service, and the
// move's own time with and without every player subscribed. It prints
// the figures; it fails only when a notice is lost or sent twice.
func TestPushLatencyBench(t *testing.T) {
	if os.Getenv("TRENCH_PUSH_BENCH") != "1" {
		t.Skip("set TRENCH_PUSH_BENCH=1 to measure push notices' latency")
	}
	players := 1000
	if n, err := strconv.Atoi(os.Getenv("PLAYERS")); err == nil && n >= 2 {
		players = n &^ 1
	}
	for _, subscribed := range []bool{false, true} {
		t.Run(fmt.Sprintf("subscribed=%v", subscribed), func(t *testing.T) { pushBench(t, players, subscribed) })
	}
}

func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func pushBench(t *testing.T, players int, subscribed bool) {
	ctx := context.Background()
	ps := startPushService(t)
	ps.lazy = true // the push service's own work is not the server's: done after each wait
	s := startPushServer(t, "", nil)
	c := s.newClient(t)
	c.SignUp("watcher")
	ps.learnKey(c)
	now := s.Clock.Now()
	users := make([]db.User, players)
	device := map[int64]string{}
	for i := range users {
		u, err := s.DB.CreateUser(ctx, fmt.Sprintf("p%04d", i), "x", now)
		if err != nil {
			t.Fatal(err)
		}
		users[i] = u
		if subscribed {
			d := ps.Device(u.Name)
			if _, err := s.DB.AddPushSubscription(ctx, db.PushSubscription{UserID: u.ID, Endpoint: d.Endpoint,
				P256dh: base64.RawURLEncoding.EncodeToString(d.priv.PublicKey().Bytes()),
				Auth:   base64.RawURLEncoding.EncodeToString(d.auth), Wants: []string{"move"}}, now); err != nil {
				t.Fatal(err)
			}
			device[u.ID] = u.Name
		}
	}
	var games []int64
	for i := 0; i < players; i += 2 {
		ch, err := s.DB.CreateChallenge(ctx, db.NewChallenge{CreatorID: users[i].ID, Opponent: users[i+1].Name,
			Game: "trench", Variant: "single", Color: "0", DaysPerMove: 3}, now)
		if err != nil {
			t.Fatal(err)
		}
		id, err := s.DB.AcceptChallenge(ctx, ch.ID, users[i+1].ID, int64(i), now)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, id)
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.App.StartPush(runCtx)
	waitPushes := func(n int) []pushed {
		var got []pushed
		for deadline := time.Now().Add(60 * time.Second); len(got) < n && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			got = append(got, ps.Got()...)
		}
		time.Sleep(200 * time.Millisecond)
		return append(got, ps.Got()...)
	}
	if subscribed {
		if got := waitPushes(len(games)); len(got) != len(games) {
			t.Fatalf("%d notices at the games' start, want %d", len(got), len(games))
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	type sent struct {
		at     time.Time
		device string
	}
	var moveTimes []time.Duration
	var expect []sent
	moves := players
	for i := 0; i < moves; i++ {
		// Round the games in turn: a game's next move comes after its
		// notice had time to leave (a notice for a turn already over is
		// rightly dropped).
		id := games[i%len(games)]
		g, err := s.DB.Game(ctx, id)
		if err != nil || g.Finished() {
			continue
		}
		st, err := g.Decode()
		if err != nil {
			t.Fatal(err)
		}
		legal := st.Legal(st.ToMove())
		if len(legal) == 0 {
			continue
		}
		start := time.Now()
		after, err := s.DB.PlayMove(ctx, db.Play{GameID: id, UserID: g.Side[g.ToMove].ID, Ply: g.Ply, Move: legal[rng.IntN(len(legal))]}, now)
		end := time.Now()
		if err != nil {
			t.Fatal(err)
		}
		moveTimes = append(moveTimes, end.Sub(start))
		if subscribed && !after.Finished() {
			expect = append(expect, sent{at: end, device: device[after.Side[after.ToMove].ID]})
		}
		time.Sleep(max(2*time.Millisecond, time.Second/time.Duration(len(games)))) // one after another, each game's about a second apart
	}
	t.Logf("players %d, subscribed %v: %d moves, move p50 %v p99 %v", players, subscribed, len(moveTimes),
		pct(moveTimes, .5), pct(moveTimes, .99))
	if !subscribed {
		return
	}
	got := waitPushes(len(expect))
	byDevice := map[string][]time.Time{}
	for _, p := range got {
		byDevice[p.Device] = append(byDevice[p.Device], p.At)
	}
	var lat []time.Duration
	for _, e := range expect {
		q := byDevice[e.device]
		if len(q) == 0 {
			t.Fatalf("a notice to %s is missing", e.device)
		}
		lat = append(lat, max(q[0].Sub(e.at), 0))
		byDevice[e.device] = q[1:]
	}
	for d, q := range byDevice {
		if len(q) > 0 {
			t.Errorf("%d notices to %s more than moves", len(q), d)
		}
	}
	t.Logf("notice after the move's commit: p50 %v p99 %v max %v (%d notices)", pct(lat, .5), pct(lat, .99), pct(lat, 1), len(lat))
}
