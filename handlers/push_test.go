package handlers_test

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	mathrand "math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trench-games/trench/handlers"
	"github.com/trench-games/trench/rules/cards"
)

// pushed is one notification the test push service accepted, decrypted.
type pushed struct {
	Device  string
	Payload handlers.PushPayload
	Raw     string // the decrypted JSON
	TTL     int
	Urgency string
	Topic   string
	At      time.Time // when the push service got it
}

// pushDevice is a browser's push subscription made by the test: its
// endpoint on the push service and the keys only it holds.
type pushDevice struct {
	Name     string
	Endpoint string
	priv     *ecdh.PrivateKey
	auth     []byte
}

// pushService is a push service (RFC 8030's receiving side) on
// 127.0.0.1:0: it checks each request's VAPID JWT (RFC 8292) against the
// server's public key, decrypts its payload (RFC 8291, aes128gcm) with
// the device's private key, and answers with the status a test asked for
// (201 by default).
type pushService struct {
	t   *testing.T
	srv *httptest.Server
	key *ecdsa.PublicKey // the server's VAPID key, as its pages publish it

	mu      sync.Mutex
	devices map[string]*pushDevice
	answers map[string][]int // device → statuses to answer next, in order
	got     []pushed
	tries   map[string]int // requests per device, whatever the answer
	hold    chan struct{}  // when not nil, requests wait until it is closed
	held    chan struct{}  // a request is being held
	// lazy: each request is answered 201 at once and checked and
	// decrypted only when Got is called, as a real push service does its
	// work on other machines than the server's (the bench's way).
	lazy  bool
	later []lateRequest
}

// lateRequest is a request a lazy service answered and has yet to check.
type lateRequest struct {
	name string
	r    *http.Request // its body read into memory
	at   time.Time
}

func startPushService(t *testing.T) *pushService {
	ps := &pushService{t: t, devices: map[string]*pushDevice{}, answers: map[string][]int{}, tries: map[string]int{}}
	ps.srv = httptest.NewServer(http.HandlerFunc(ps.serve))
	t.Cleanup(ps.srv.Close)
	return ps
}

// Device makes a new subscription named name, with fresh keys.
func (ps *pushService) Device(name string) *pushDevice {
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		ps.t.Fatal(err)
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	d := &pushDevice{Name: name, Endpoint: ps.srv.URL + "/push/" + name, priv: priv, auth: auth}
	ps.mu.Lock()
	ps.devices[name] = d
	ps.mu.Unlock()
	return d
}

// Answer makes the service answer the next requests for device with
// statuses, in order.
func (ps *pushService) Answer(device string, statuses ...int) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	ps.answers[device] = append(ps.answers[device], statuses...)
}

// Got returns the notifications accepted so far and forgets them.
func (ps *pushService) Got() []pushed {
	ps.mu.Lock()
	later, key := ps.later, ps.key
	ps.later = nil
	ps.mu.Unlock()
	for _, l := range later {
		ps.mu.Lock()
		d := ps.devices[l.name]
		ps.mu.Unlock()
		p, plain, err := ps.check(l.name, d, key, l.r)
		if err != nil {
			ps.t.Errorf("push service: %v (%q)", err, plain)
			continue
		}
		p.At = l.at
		ps.mu.Lock()
		ps.got = append(ps.got, p)
		ps.mu.Unlock()
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	out := ps.got
	ps.got = nil
	return out
}

// Tries returns how many requests came for device.
func (ps *pushService) Tries(device string) int {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.tries[device]
}

func (ps *pushService) fail(w http.ResponseWriter, format string, args ...any) {
	ps.t.Errorf("push service: "+format, args...)
	http.Error(w, fmt.Sprintf(format, args...), http.StatusBadRequest)
}

func (ps *pushService) serve(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, "/push/")
	ps.mu.Lock()
	d := ps.devices[name]
	hold, held := ps.hold, ps.held
	key := ps.key
	ps.tries[name]++
	ps.mu.Unlock()
	if !ok || d == nil || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	if ps.lazy {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			ps.fail(w, "read: %v", err)
			return
		}
		late := r.Clone(context.Background())
		late.Body = io.NopCloser(bytes.NewReader(body))
		ps.mu.Lock()
		ps.later = append(ps.later, lateRequest{name: name, r: late, at: time.Now()})
		ps.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
		return
	}
	p, plain, err := ps.check(name, d, key, r)
	if err != nil {
		ps.fail(w, "%v (%q)", err, plain)
		return
	}
	if hold != nil {
		held <- struct{}{}
		select {
		case <-hold:
		case <-r.Context().Done():
			return // the sender went away
		}
	}
	ps.mu.Lock()
	status := http.StatusCreated
	if q := ps.answers[name]; len(q) > 0 {
		status, ps.answers[name] = q[0], q[1:]
	}
	p.At = time.Now()
	if status == http.StatusCreated {
		ps.got = append(ps.got, p)
	}
	ps.mu.Unlock()
	if status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "120")
	}
	w.WriteHeader(status)
}

// check checks a request of device d (named name): its VAPID JWT
// against key, its encoding, and decrypts its payload into a
// notification; plain is the decrypted payload, for the error's message.
func (ps *pushService) check(name string, d *pushDevice, key *ecdsa.PublicKey, r *http.Request) (p pushed, plain []byte, err error) {
	if err := ps.checkVAPID(r, key); err != nil {
		return p, nil, fmt.Errorf("VAPID: %w", err)
	}
	if r.Header.Get("Content-Encoding") != "aes128gcm" {
		return p, nil, fmt.Errorf("Content-Encoding %q", r.Header.Get("Content-Encoding"))
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return p, nil, fmt.Errorf("read: %w", err)
	}
	if plain, err = decryptAES128GCM(body, d.priv, d.auth); err != nil {
		return p, nil, fmt.Errorf("decrypt: %w", err)
	}
	p = pushed{Device: name, Raw: string(plain), Urgency: r.Header.Get("Urgency"), Topic: r.Header.Get("Topic")}
	p.TTL, _ = strconv.Atoi(r.Header.Get("TTL"))
	if err := json.Unmarshal(plain, &p.Payload); err != nil {
		return p, plain, fmt.Errorf("payload: %w", err)
	}
	return p, plain, nil
}

// checkVAPID checks r's Authorization header: "vapid t=JWT, k=KEY" with
// KEY the server's public key, the JWT signed by it (ES256), for this
// service's origin and not expired nor valid for more than a day.
func (ps *pushService) checkVAPID(r *http.Request, key *ecdsa.PublicKey) error {
	if key == nil {
		return fmt.Errorf("the test did not learn the server's key")
	}
	auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "vapid ")
	if !ok {
		return fmt.Errorf("authorization %q", r.Header.Get("Authorization"))
	}
	var tok, k string
	for _, part := range strings.Split(auth, ",") {
		part = strings.TrimSpace(part)
		if v, ok := strings.CutPrefix(part, "t="); ok {
			tok = v
		} else if v, ok := strings.CutPrefix(part, "k="); ok {
			k = v
		}
	}
	want := base64.RawURLEncoding.EncodeToString(elliptic.Marshal(elliptic.P256(), key.X, key.Y)) //nolint:staticcheck // the wire format
	if k != want {
		return fmt.Errorf("k=%s, want the published key %s", k, want)
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return fmt.Errorf("JWT %q", tok)
	}
	var hdr struct{ Alg string }
	var claims struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub"`
	}
	for i, v := range []any{&hdr, &claims} {
		b, err := base64.RawURLEncoding.DecodeString(parts[i])
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, v); err != nil {
			return err
		}
	}
	if hdr.Alg != "ES256" {
		return fmt.Errorf("alg %q", hdr.Alg)
	}
	if claims.Aud != "http://"+r.Host {
		return fmt.Errorf("aud %q, want http://%s", claims.Aud, r.Host)
	}
	if exp := time.Unix(claims.Exp, 0); exp.Before(time.Now()) || exp.After(time.Now().Add(24*time.Hour)) {
		return fmt.Errorf("exp %v: expired or beyond 24 hours", exp)
	}
	if claims.Sub == "" {
		return fmt.Errorf("no sub claim")
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return fmt.Errorf("signature of %d bytes (%v)", len(sig), err)
	}
	h := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(key, h[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return fmt.Errorf("the signature does not verify with the server's key")
	}
	return nil
}

// decryptAES128GCM opens an RFC 8291 message (one aes128gcm record, RFC
// 8188) for the device with private key priv and secret auth.
func decryptAES128GCM(body []byte, priv *ecdh.PrivateKey, auth []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, fmt.Errorf("%d bytes", len(body))
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if idlen != 65 || len(body) < 21+idlen {
		return nil, fmt.Errorf("key id of %d bytes", idlen)
	}
	asPub, ct := body[21:21+idlen], body[21+idlen:]
	if uint32(len(ct)) > rs {
		return nil, fmt.Errorf("%d bytes of ciphertext in a record of %d", len(ct), rs)
	}
	pub, err := ecdh.P256().NewPublicKey(asPub)
	if err != nil {
		return nil, err
	}
	secret, err := priv.ECDH(pub)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), priv.PublicKey().Bytes()...), asPub...)
	ikm, err := hkdf.Key(sha256.New, secret, auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, ct, nil)
	if err != nil {
		return nil, err
	}
	plain = bytes.TrimRight(plain, "\x00")
	if len(plain) == 0 || plain[len(plain)-1] != 2 {
		return nil, fmt.Errorf("no last-record delimiter")
	}
	return plain[:len(plain)-1], nil
}

// startPushServer starts the app allowing the loopback push service.
func startPushServer(t *testing.T, path string, clk *clock) *server {
	t.Helper()
	return startServerWith(t, path, clk, func(cfg *handlers.Config, _ string) { cfg.PushAllowLoopback = true })
}

// learnKey reads the server's VAPID public key from c's settings page.
func (ps *pushService) learnKey(c *client) {
	ps.t.Helper()
	c.Get("/settings")
	c.wantStatus(http.StatusOK)
	k, _ := c.Last.Find("#push").Attr("data-vapid-key")
	b, err := base64.RawURLEncoding.DecodeString(k)
	if err != nil || len(b) != 65 {
		ps.t.Fatalf("the settings page's VAPID key %q: %d bytes (%v)", k, len(b), err)
	}
	key, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), b)
	if err != nil {
		ps.t.Fatal(err)
	}
	ps.mu.Lock()
	ps.key = key
	ps.mu.Unlock()
}

// subscribe sends d's subscription from c as the settings page's script
// does (JSON with the CSRF token in a header) and returns the status.
func (d *pushDevice) subscribe(t *testing.T, c *client) int {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"endpoint": d.Endpoint, "keys": map[string]string{
		"p256dh": base64.RawURLEncoding.EncodeToString(d.priv.PublicKey().Bytes()),
		"auth":   base64.RawURLEncoding.EncodeToString(d.auth)}})
	return postJSON(t, c, "/settings/push", body)
}

func postJSON(t *testing.T, c *client, path string, body []byte) int {
	t.Helper()
	c.Get("/settings")
	tok, _ := c.Last.Find("#push").Attr("data-csrf")
	req, err := http.NewRequest(http.MethodPost, c.abs(path), bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", tok)
	res, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// sendPush runs the push job once and waits for its requests.
func sendPush(t *testing.T, s *server) {
	t.Helper()
	if _, err := s.App.SendPushNotices(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func countBy(ps []pushed) map[string]int {
	m := map[string]int{}
	for _, p := range ps {
		m[p.Device]++
	}
	return m
}

func TestPushMoveNotifiesEachOfTheOpponentsDevicesOnce(t *testing.T) {
	ps := startPushService(t)
	s := startPushServer(t, "", nil)
	a, b := signedUpPair(t, s)
	ps.learnKey(a)
	id := challenge(t, a, b, "trench", "single", "0")
	for _, sub := range []struct {
		c    *client
		name string
	}{{a, "alice-phone"}, {b, "bob-phone"}, {b, "bob-laptop"}} {
		if st := ps.Device(sub.name).subscribe(t, sub.c); st != http.StatusCreated {
			t.Fatalf("subscribing %s: status %d, want 201", sub.name, st)
		}
	}
	sendPush(t, s) // alice's turn at the start
	if got := countBy(ps.Got()); len(got) != 1 || got["alice-phone"] != 1 {
		t.Fatalf("at the start: %v, want one notice to alice's phone", got)
	}

	clickMove(t, a, id, func(int) int { return 0 })
	sendPush(t, s)
	sendPush(t, s) // a second run finds nothing new
	got := ps.Got()
	if n := countBy(got); len(n) != 2 || n["bob-phone"] != 1 || n["bob-laptop"] != 1 {
		t.Fatalf("after alice's move: %v, want one notice to each of bob's devices and none to alice", n)
	}
	p := got[0]
	wantURL := fmt.Sprintf("/games/%d", id)
	if p.Payload.URL != wantURL || !strings.Contains(p.Payload.Title, "alice") || p.Payload.Tag != fmt.Sprintf("game-%d", id) {
		t.Errorf("payload %+v: want the game's address %s, alice named in the title, a tag per game", p.Payload, wantURL)
	}
	if p.Topic != p.Payload.Tag {
		t.Errorf("Topic %q, want %q", p.Topic, p.Payload.Tag)
	}
	// The position after alice's move, as a picture the phone can show.
	if want := fmt.Sprintf("/games/%d/position.png?ply=1", id); p.Payload.Image != want {
		t.Errorf("image %q, want %q", p.Payload.Image, want)
	} else if res, err := http.Get(s.URL + want); err != nil {
		t.Fatal(err)
	} else if res.Body.Close(); res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/png" {
		t.Errorf("the image answers %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if p.TTL <= 0 || p.TTL > 3*24*3600 {
		t.Errorf("TTL %d s: want at most the 3 days left to move", p.TTL)
	}
	if p.Urgency != "normal" {
		t.Errorf("Urgency %q with 3 days left, want normal", p.Urgency)
	}

	// The settings page lists bob's devices with their last success.
	b.Get("/settings")
	if n := b.Last.Find("#push-devices tr[data-device]").Length(); n != 2 {
		t.Errorf("bob's settings list %d devices, want 2", n)
	}
	// With less than a day left the notice is urgent.
	clickMove(t, b, id, func(int) int { return 0 })
	s.Clock.Advance(3*24*time.Hour - 2*time.Hour)
	sendPush(t, s)
	if got := ps.Got(); len(got) != 1 || got[0].Urgency != "high" || got[0].TTL > 2*3600 {
		t.Errorf("with 2 hours left: %+v, want one urgent notice living at most 2 hours", got)
	}
}

func TestPushGoneSubscriptionIsRemovedAndBusyOneRetried(t *testing.T) {
	ps := startPushService(t)
	s := startPushServer(t, "", nil)
	a, b := signedUpPair(t, s)
	ps.learnKey(a)
	id := challenge(t, a, b, "trench", "single", "0")
	ps.Device("old").subscribe(t, b)
	ps.Device("busy").subscribe(t, b)
	ps.Device("fine").subscribe(t, b)
	ps.Answer("old", http.StatusGone)
	ps.Answer("busy", http.StatusTooManyRequests, http.StatusServiceUnavailable)
	clickMove(t, a, id, func(int) int { return 0 })
	sendPush(t, s)
	if n := countBy(ps.Got()); len(n) != 1 || n["fine"] != 1 {
		t.Fatalf("first run: %v, want only the fine device served", n)
	}
	b.Get("/settings")
	if n := b.Last.Find("#push-devices tr[data-device]").Length(); n != 2 {
		t.Errorf("after a 410 bob has %d devices, want 2 (the gone one removed)", n)
	}
	sendPush(t, s)
	if ps.Tries("busy") != 1 {
		t.Fatalf("the busy device was tried %d times before its Retry-After, want 1", ps.Tries("busy"))
	}
	s.Clock.Advance(121 * time.Second)
	sendPush(t, s) // answered 503: tried again later
	s.Clock.Advance(time.Hour)
	sendPush(t, s)
	if n := countBy(ps.Got()); len(n) != 1 || n["busy"] != 1 || ps.Tries("busy") != 3 || ps.Tries("old") != 1 {
		t.Fatalf("retries: %v after %d tries of busy and %d of old, want busy delivered on its third try, old never tried again",
			n, ps.Tries("busy"), ps.Tries("old"))
	}
	metrics := getMetrics(t, s)
	for _, want := range []string{`trench_push_notices_total{reason="gone_410",result="removed"} 1`,
		`trench_push_notices_total{reason="busy_429",result="failed"} 1`,
		`trench_push_notices_total{reason="server_5xx",result="failed"} 1`,
		`trench_push_notices_total{reason="ok",result="sent"} 2`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// getMetrics returns the text of s's /metrics.
func getMetrics(t *testing.T, s *server) string {
	t.Helper()
	rec := httptest.NewRecorder()
	s.App.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	return rec.Body.String()
}

func TestPushRestartMidDeliverySendsNothingTwice(t *testing.T) {
	ps := startPushService(t)
	s := startPushServer(t, "", nil)
	a, b := signedUpPair(t, s)
	ps.learnKey(a)
	id := challenge(t, a, b, "trench", "single", "0")
	ps.Device("bob").subscribe(t, b)
	clickMove(t, a, id, func(int) int { return 0 })
	ps.mu.Lock()
	ps.hold, ps.held = make(chan struct{}), make(chan struct{}, 4)
	ps.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.App.SendPushNotices(ctx); close(done) }()
	select {
	case <-ps.held:
	case <-time.After(10 * time.Second):
		t.Fatal("the notice never reached the push service")
	}
	cancel() // the server stops while the push service holds the request
	<-done
	s.Stop()
	ps.mu.Lock()
	close(ps.hold)
	ps.hold = nil
	ps.mu.Unlock()

	s2 := startServerWith(t, s.Path, s.Clock, func(cfg *handlers.Config, _ string) { cfg.PushAllowLoopback = true })
	runCtx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	s2.App.StartPush(runCtx)
	sendPush(t, s2)
	time.Sleep(300 * time.Millisecond)
	if n := ps.Tries("bob"); n != 1 {
		t.Fatalf("the push service got %d requests for bob's device, want the one interrupted only", n)
	}
}

func TestPushEndpointOnAPrivateNetworkIsRefused(t *testing.T) {
	s := startServer(t, "", nil) // loopback not allowed
	c := s.newClient(t)
	c.SignUp("carol")
	priv, _ := ecdh.P256().GenerateKey(rand.Reader)
	key := base64.RawURLEncoding.EncodeToString(priv.PublicKey().Bytes())
	for _, ep := range []string{"https://127.0.0.1/push/x", "https://10.1.2.3/push/x", "https://[fe80::1]/push/x",
		"https://169.254.169.254/latest", "https://192.168.0.1:8443/x", "http://push.example.org/x", "https://localhost/x"} {
		c.Get("/settings")
		c.Post("/settings/push", url.Values{"endpoint": {ep}, "p256dh": {key}, "auth": {"AAAAAAAAAAAAAAAAAAAAAA"}})
		if c.Status != http.StatusBadRequest || c.text("#push-error") == "" {
			t.Errorf("%s: status %d, error %q; want 400 with a message", ep, c.Status, c.text("#push-error"))
		}
	}
	c.Get("/settings")
	if n := c.Last.Find("#push-devices tr").Length(); n != 0 {
		t.Errorf("%d devices stored after refusals", n)
	}
}

func TestPushCardGameOncePerTurnNoHiddenCardInTheUsersLanguage(t *testing.T) {
	ps := startPushService(t)
	s := startPushServer(t, "", nil)
	a, b := signedUpPair(t, s)
	ps.learnKey(a)
	b.Get("/")
	b.Post("/language", url.Values{"lang": {"de"}, "back": {"/"}})
	w := newLeakWatch(t, s)
	id := cardsChallenge(t, w, a, b, cards.VariantShort)
	ps.Device("alice").subscribe(t, a)
	ps.Device("bob").subscribe(t, b)
	rng := mathrand.New(mathrand.NewPCG(3, 3))
	device := map[*client]string{a: "alice", b: "bob"}
	got, want := map[string]int{}, map[string]int{}
	seen := map[int]bool{} // the turns (by the ply they began at) seen
	moves := 0
	for ; moves < 40; moves++ {
		p, g := whoMoves(t, s, id, a, b)
		if p != nil && !seen[g.TurnPly] {
			seen[g.TurnPly] = true
			want[device[p]]++
		}
		sendPush(t, s)
		for _, n := range ps.Got() {
			got[n.Device]++
			if cs := append(letterCards(n.Raw), symbolCards(n.Raw)...); len(cs) > 0 {
				t.Fatalf("a notice names cards %v: %s", cs, n.Raw)
			}
			if n.Payload.Image != "" {
				t.Errorf("a card game's notice has the image %q", n.Payload.Image)
			}
			if n.Device == "bob" && !strings.HasPrefix(n.Payload.Title, "Du bist am Zug gegen alice") {
				t.Errorf("bob's notice %q is not in German", n.Payload.Title)
			}
			if n.Device == "alice" && !strings.HasPrefix(n.Payload.Title, "Your move against bob") {
				t.Errorf("alice's notice %q is not in English", n.Payload.Title)
			}
		}
		if p == nil {
			break
		}
		w.cardsClickMove(p, rng)
	}
	if len(seen) < 3 || moves <= len(seen) {
		t.Fatalf("%d turns in %d moves: the test wants turns of several moves", len(seen), moves)
	}
	if got["alice"] != want["alice"] || got["bob"] != want["bob"] {
		t.Fatalf("notices per device %v, want one a turn: %v", got, want)
	}
}

func TestPushDevicesRemovedOneByOneBySignOutEverywhereAndListedInTheExportWithoutKeys(t *testing.T) {
	ps := startPushService(t)
	s := startPushServer(t, "", nil)
	c := s.newClient(t)
	c.SignUp("dora")
	ps.learnKey(c)
	devs := []*pushDevice{ps.Device("d1"), ps.Device("d2"), ps.Device("d3")}
	for _, d := range devs {
		if st := d.subscribe(t, c); st != http.StatusCreated {
			t.Fatalf("subscribe: %d", st)
		}
	}
	// The data download lists them without their keys.
	req, _ := http.NewRequest(http.MethodGet, c.abs("/settings/export"), nil)
	res, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var exp struct {
		Devices []struct{ Endpoint, Device string } `json:"push_devices"`
	}
	if err := json.Unmarshal(body, &exp); err != nil {
		t.Fatal(err)
	}
	if len(exp.Devices) != 3 || exp.Devices[0].Endpoint != devs[0].Endpoint {
		t.Errorf("the export lists %+v, want the 3 devices", exp.Devices)
	}
	for _, d := range devs {
		if k := base64.RawURLEncoding.EncodeToString(d.auth); strings.Contains(string(body), k) {
			t.Errorf("the export holds a device's secret %s", k)
		}
	}
	// An unknown kind of notice is refused.
	bd := ps.Device("bogus")
	keys := map[string]string{"p256dh": base64.RawURLEncoding.EncodeToString(bd.priv.PublicKey().Bytes()),
		"auth": base64.RawURLEncoding.EncodeToString(bd.auth)}
	bogus, _ := json.Marshal(map[string]any{"endpoint": bd.Endpoint, "wants": []string{"move", "gossip"}, "keys": keys})
	if st := postJSON(t, c, "/settings/push", bogus); st != http.StatusBadRequest {
		t.Errorf("a subscription wanting \"gossip\": status %d, want 400", st)
	}
	// So are keys that are no keys.
	bad, _ := json.Marshal(map[string]any{"endpoint": bd.Endpoint, "keys": map[string]string{"p256dh": "BOGUS", "auth": keys["auth"]}})
	if st := postJSON(t, c, "/settings/push", bad); st != http.StatusBadRequest {
		t.Errorf("a subscription with a malformed key: status %d, want 400", st)
	}
	// One is removed from the settings page.
	c.Get("/settings")
	c.Submit(c.Last.Find(`#push-devices tr[data-device] form[action$="/delete"]`).First(), nil)
	c.wantStatus(http.StatusOK)
	if n := c.Last.Find("#push-devices tr[data-device]").Length(); n != 2 {
		t.Fatalf("after removing one, %d devices listed, want 2", n)
	}
	// At most ten.
	for i := 0; i < 8; i++ {
		ps.Device(fmt.Sprintf("m%d", i)).subscribe(t, c)
	}
	if st := ps.Device("eleventh").subscribe(t, c); st != http.StatusConflict {
		t.Errorf("an eleventh device: status %d, want 409", st)
	}
	// Signing out everywhere removes them all.
	c.Get("/settings")
	c.Submit(c.Last.Find(`form[action="/settings/signout-everywhere"]`), nil)
	c.SignIn("dora", "correct horse")
	c.Get("/settings")
	if n := c.Last.Find("#push-devices tr[data-device]").Length(); n != 0 {
		t.Fatalf("after signing out everywhere, %d devices listed, want none", n)
	}
	// Deleting the account removes them too.
	if st := ps.Device("last").subscribe(t, c); st != http.StatusCreated {
		t.Fatalf("subscribe: %d", st)
	}
	uid := mustUser(t, s, "dora")
	c.Get("/settings")
	c.Submit(c.Last.Find(`form[action="/settings/delete"]`), url.Values{"password": {"correct horse"}})
	if subs, err := s.DB.PushSubscriptions(context.Background(), uid); err != nil || len(subs) != 0 {
		t.Fatalf("after deleting the account, %d devices stored (%v), want none", len(subs), err)
	}
}

func TestPushVAPIDKeyMadeAtFirstStartPrivateAndKept(t *testing.T) {
	s := startServer(t, "", nil)
	c := s.newClient(t)
	c.SignUp("erin")
	key := func() string {
		c.Get("/settings")
		k, _ := c.Last.Find("#push").Attr("data-vapid-key")
		return k
	}
	first := key()
	if b, err := base64.RawURLEncoding.DecodeString(first); err != nil || len(b) != 65 || b[0] != 4 {
		t.Fatalf("the page's VAPID key %q is no uncompressed P-256 point", first)
	}
	file := handlers.VAPIDKeyFile(handlers.DefaultKeyFile(s.Path))
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", file, info.Mode().Perm())
	}
	s2 := restartServer(t, s)
	c.moveTo(s2)
	if again := key(); again != first {
		t.Errorf("after a restart the key is %q, want the same %q", again, first)
	}
}

func TestManifestServiceWorkerAndOfflinePage(t *testing.T) {
	s := startServer(t, "", nil)
	c := s.newClient(t)
	get := func(path string) (*http.Response, []byte) {
		res, err := http.Get(s.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", path, res.StatusCode)
		}
		return res, b
	}
	res, body := get("/manifest.webmanifest")
	if ct := res.Header.Get("Content-Type"); ct != "application/manifest+json" {
		t.Errorf("manifest's Content-Type %q", ct)
	}
	var m struct {
		Name       string `json:"name"`
		ShortName  string `json:"short_name"`
		StartURL   string `json:"start_url"`
		Display    string `json:"display"`
		ThemeColor string `json:"theme_color"`
		Icons      []struct{ Src, Sizes, Type string }
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if m.Name == "" || m.ShortName == "" || m.StartURL != "/" || m.Display != "standalone" {
		t.Errorf("manifest %s", body)
	}
	sizes := map[string]bool{}
	for _, ic := range m.Icons {
		r, b := get(ic.Src)
		if r.Header.Get("Content-Type") != ic.Type || len(b) == 0 {
			t.Errorf("icon %s: Content-Type %q, want %q", ic.Src, r.Header.Get("Content-Type"), ic.Type)
		}
		sizes[ic.Sizes] = true
	}
	if !sizes["192x192"] || !sizes["512x512"] || !sizes["any"] {
		t.Errorf("icon sizes %v, want 192, 512 and any", sizes)
	}
	c.Get("/")
	if tc, _ := c.Last.Find(`meta[name="theme-color"]`).Attr("content"); tc != m.ThemeColor {
		t.Errorf("the page's theme colour %q differs from the manifest's %q", tc, m.ThemeColor)
	}
	if href, _ := c.Last.Find(`link[rel="manifest"]`).Attr("href"); href != "/manifest.webmanifest" {
		t.Errorf("the page links the manifest %q", href)
	}
	res, body = get("/sw.js")
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/javascript") || res.Header.Get("Service-Worker-Allowed") != "/" ||
		!bytes.Contains(body, []byte("notificationclick")) {
		t.Errorf("/sw.js: %q, Service-Worker-Allowed %q", res.Header.Get("Content-Type"), res.Header.Get("Service-Worker-Allowed"))
	}
	c.AcceptLanguage = "fr"
	c.Get("/offline")
	c.wantStatus(http.StatusOK)
	if got := c.text("h1"); got != "Vous êtes hors ligne" {
		t.Errorf("the offline page says %q in French", got)
	}
}

// The sender looks for due notices after commits, but not after each one:
// a burst of moves (and requests) makes a look every pushGap at most, a
// few in all, not one per commit.
func TestPushSenderLooksAtMostEveryGapDuringABurst(t *testing.T) {
	s := startServer(t, "", nil)
	runCtx, stop := context.WithCancel(context.Background())
	defer stop()
	s.App.StartPush(runCtx)
	a, b := signedUpPair(t, s)
	id := challenge(t, a, b, "trench", "single", "0")
	runs := func() int {
		t.Helper()
		rec := httptest.NewRecorder()
		s.App.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		m := regexp.MustCompile(`\ntrench_job_runs_total\{job="push",result="ok"\} (\d+)\n`).FindStringSubmatch(rec.Body.String())
		if m == nil {
			return 0
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	time.Sleep(2 * handlers.PushGap) // the first look, at the start, is over
	before, start := runs(), time.Now()
	const moves = 40
	for i := range moves {
		mover := a
		if i%2 == 1 {
			mover = b
		}
		clickMove(t, mover, id, func(int) int { return 0 })
	}
	time.Sleep(2 * handlers.PushGap) // the last commit's look is over
	looks, took := runs()-before, time.Since(start)
	if most := min(moves/2, int(took/handlers.PushGap)+2); looks > most || looks == 0 {
		t.Errorf("%d moves over %v: the sender looked %d times, want 1 to %d (one every %v at most)", moves, took.Round(time.Millisecond), looks, most, handlers.PushGap)
	}
}
