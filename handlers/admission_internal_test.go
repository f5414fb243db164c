package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

// turnServer is an echo server behind admission with one turn: GET /slow
// holds its turn until release is called, GET /page and POST /move answer
// at once, GET /x/events is a stream.
func turnServer(t *testing.T) (*admission, *httptest.Server, chan struct{}, func()) {
	t.Helper()
	ad := newAdmission(1)
	entered, hold := make(chan struct{}, 8), make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(hold) }) }
	e := echo.New()
	e.Use(ad.middleware)
	e.GET("/slow", func(c echo.Context) error {
		entered <- struct{}{}
		<-hold
		return c.String(http.StatusOK, "slow")
	})
	e.GET("/page", func(c echo.Context) error { return c.String(http.StatusOK, "page") })
	e.POST("/move", func(c echo.Context) error { return c.String(http.StatusOK, "moved") })
	e.GET("/x/events", func(c echo.Context) error { return c.String(http.StatusOK, "stream") })
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	t.Cleanup(release) // before the server closes: it waits for /slow
	return ad, srv, entered, release
}

func get(t *testing.T, method, url string) (string, error) {
	req, _ := http.NewRequest(method, url, nil)
	res, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b := make([]byte, 64)
	n, _ := res.Body.Read(b)
	return string(b[:n]), nil
}

// TestPagesWaitTheirTurnMovesDoNot: while a page holds the only turn,
// another page waits for it and answers once it is given back; a POST
// and an event stream answer at once.
func TestPagesWaitTheirTurnMovesDoNot(t *testing.T) {
	_, srv, entered, release := turnServer(t)
	slow := make(chan string, 1)
	go func() { s, _ := get(t, http.MethodGet, srv.URL+"/slow"); slow <- s }()
	<-entered
	page := make(chan string, 1)
	go func() { s, _ := get(t, http.MethodGet, srv.URL+"/page"); page <- s }()
	for _, u := range []struct{ method, path, want string }{{http.MethodPost, "/move", "moved"}, {http.MethodGet, "/x/events", "stream"}} {
		if got, err := get(t, u.method, srv.URL+u.path); err != nil || got != u.want {
			t.Errorf("%s %s while a page holds the turn: %q, %v", u.method, u.path, got, err)
		}
	}
	select {
	case s := <-page:
		t.Fatalf("a page answered (%q) while another held the only turn", s)
	case <-time.After(100 * time.Millisecond):
	}
	release()
	if s := <-slow; s != "slow" {
		t.Errorf("the slow page answered %q", s)
	}
	select {
	case s := <-page:
		if s != "page" {
			t.Errorf("the waiting page answered %q", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting page never answered once the turn was free")
	}
}

// TestPagesTakeTurnsInOrder: pages that wait are made in the order they
// were asked for.
func TestPagesTakeTurnsInOrder(t *testing.T) {
	ad := newAdmission(1)
	var mu sync.Mutex
	var got []string
	e := echo.New()
	h := ad.middleware(func(c echo.Context) error {
		mu.Lock()
		got = append(got, c.Request().Header.Get("X-Asked"))
		mu.Unlock()
		return c.String(http.StatusOK, "ok")
	})
	// Hold the turn, queue five pages one after another, then let go.
	if err := ad.turns.Acquire(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := httptest.NewRequest(http.MethodGet, "/p", nil)
			req.Header.Set("X-Asked", strconv.Itoa(i))
			if err := h(e.NewContext(req, httptest.NewRecorder())); err != nil {
				t.Error(err)
			}
		}()
		// Wait until page i waits for its turn before asking for the next.
		deadline := time.Now().Add(5 * time.Second)
		for ad.waiting.Load() <= int64(i) {
			if time.Now().After(deadline) {
				ad.turns.Release(1)
				t.Fatalf("page %d never waited for its turn while the only one was held", i)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	ad.turns.Release(1)
	wg.Wait()
	if want := []string{"0", "1", "2", "3", "4"}; !slices.Equal(got, want) {
		t.Fatalf("pages made in the order %v, want %v, the order they were asked in", got, want)
	}
}

// TestAnswerSentAfterTheTurn: a page's answer reaches its client only
// after its turn is given back, so a client that reads slowly never
// keeps one; its status, headers and body are those the handler wrote.
func TestAnswerSentAfterTheTurn(t *testing.T) {
	ad := newAdmission(1)
	e := echo.New()
	h := ad.middleware(func(c echo.Context) error {
		c.Response().Header().Set("X-Made", "yes")
		return c.String(http.StatusTeapot, "the answer")
	})
	w := &turnCheckWriter{ResponseRecorder: httptest.NewRecorder(), ad: ad}
	if err := h(e.NewContext(httptest.NewRequest(http.MethodGet, "/p", nil), w)); err != nil {
		t.Fatal(err)
	}
	if w.heldAtWrite {
		t.Error("the answer was written while its turn was held")
	}
	if w.Code != http.StatusTeapot || w.Body.String() != "the answer" || w.Header().Get("X-Made") != "yes" {
		t.Errorf("sent %d %q %v", w.Code, w.Body.String(), w.Header())
	}
}

// TestClientGoneWhileWaiting: a request whose client goes away while it
// waits for a turn is not made.
func TestClientGoneWhileWaiting(t *testing.T) {
	ad := newAdmission(1)
	e := echo.New()
	ran := false
	h := ad.middleware(func(c echo.Context) error { ran = true; return nil })
	if err := ad.turns.Acquire(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	defer ad.turns.Release(1)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	err := h(e.NewContext(httptest.NewRequest(http.MethodGet, "/p", nil).WithContext(ctx), httptest.NewRecorder()))
	if !errors.Is(err, context.DeadlineExceeded) || ran {
		t.Errorf("a request whose client went while it waited: %v, made %v", err, ran)
	}
}

// turnCheckWriter notes whether the turn was held when the answer was
// first written.
type turnCheckWriter struct {
	*httptest.ResponseRecorder
	ad                 *admission
	wrote, heldAtWrite bool
}

func (w *turnCheckWriter) note() {
	if w.wrote {
		return
	}
	w.wrote = true
	if w.ad.turns.TryAcquire(1) {
		w.ad.turns.Release(1)
	} else {
		w.heldAtWrite = true
	}
}

func (w *turnCheckWriter) WriteHeader(code int) { w.note(); w.ResponseRecorder.WriteHeader(code) }

func (w *turnCheckWriter) Write(b []byte) (int, error) { w.note(); return w.ResponseRecorder.Write(b) }
