package handlers_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/trench-games/trench/handlers"
)

// TestBrowserPushShowsTheNotification: in Chromium the pages register the
// service worker with the scope of the whole site, the settings page
// offers "Notify me on this device" instead of its line for browsers
// without push, Chromium finds the site installable as an app (no
// installability errors), and a push message delivered to the worker (through the
// DevTools protocol, as a push service would) shows a notification with
// the payload's title, body, tag and picture of the position (the
// image), carrying the game's address.
func TestBrowserPushShowsTheNotification(t *testing.T) {
	var logs lockedBuffer // the access log, said when no notification shows
	s := startServerWith(t, "", nil, func(cfg *handlers.Config, _ string) {
		cfg.AccessLog = true
		cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	b := newTab(t, s, true)
	_, id := browserGame(t, s, b)
	if _, err := chromedp.CallBrowser(b.ctx, browser.SetPermission, browser.SetPermissionParams{
		Permission: &browser.PermissionDescriptor{Name: "notifications"}, Setting: browser.PermissionSettingGranted, Origin: s.URL}); err != nil {
		t.Fatalf("grant notifications: %v", err)
	}
	regs := make(chan serviceworker.RegistrationID, 16)
	// What the worker went through, said when no notification shows.
	var (
		workerMu  sync.Mutex
		workerLog []string
	)
	if err := chromedp.Listen(b.ctx, func(ev any) {
		switch e := ev.(type) {
		case *serviceworker.EventWorkerRegistrationUpdated:
			for _, r := range e.Registrations {
				if !r.IsDeleted && r.ScopeURL == s.URL+"/" {
					select {
					case regs <- r.RegistrationID:
					default:
					}
				}
			}
		case *serviceworker.EventWorkerVersionUpdated:
			workerMu.Lock()
			for _, v := range e.Versions {
				workerLog = append(workerLog, fmt.Sprintf("version %s: %s, %s", v.VersionID, v.Status, v.RunningStatus))
			}
			workerMu.Unlock()
		case *serviceworker.EventWorkerErrorReported:
			workerMu.Lock()
			workerLog = append(workerLog, fmt.Sprintf("error: %s (%s:%d)", e.ErrorMessage.ErrorMessage, e.ErrorMessage.SourceURL, e.ErrorMessage.LineNumber))
			workerMu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, serviceworker.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("ServiceWorker.enable: %v", err)
	}
	b.open("/settings")
	ready, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`navigator.serviceWorker.ready.then(r => !!r.active && r.scope === location.origin + '/')`, chromedp.EvalAwaitPromise))
	if err != nil || !ready {
		t.Fatalf("the service worker is not active with the scope / (%v)", err)
	}
	if !b.eval(`!document.querySelector('#push-enable').hidden && document.querySelector('#push-unsupported').hidden`) {
		t.Error("the settings page does not offer \"Notify me on this device\" in a browser with push")
	}
	inst, err := chromedp.Call(b.ctx, page.GetInstallabilityErrors, cdp.Empty{})
	if err != nil {
		t.Fatalf("Page.getInstallabilityErrors: %v", err)
	}
	for _, e := range inst.InstallabilityErrors {
		t.Errorf("not installable: %s %v", e.ErrorID, e.ErrorArguments)
	}
	var reg serviceworker.RegistrationID
	select {
	case reg = <-regs:
	case <-time.After(10 * time.Second):
		t.Fatal("no registration of the service worker reported")
	}
	payload, _ := json.Marshal(handlers.PushPayload{Title: "Your move against bob: TRENCH", Body: "3 days left",
		URL: fmt.Sprintf("/games/%d", id), Tag: fmt.Sprintf("game-%d", id), Image: fmt.Sprintf("/games/%d/position.png?ply=0", id)})
	if _, err := chromedp.Call(b.ctx, serviceworker.DeliverPushMessage, serviceworker.DeliverPushMessageParams{
		Origin: s.URL, RegistrationID: reg, Data: string(payload)}); err != nil {
		t.Fatalf("deliver the push message: %v", err)
	}
	want := fmt.Sprintf("Your move against bob: TRENCH|3 days left|game-%d|/games/%d|%s/games/%d/position.png?ply=0", id, id, s.URL, id)
	shown := `(async () => {
		const r = await navigator.serviceWorker.ready;
		const ns = await r.getNotifications();
		return ns.map(n => [n.title, n.body, n.tag, n.data.url, n.image].join('|')).join('\n');
	})()`
	var got string
	// Chromium shows a notification once its pictures are fetched: on a
	// loaded machine that may take a while.
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if got, err = chromedp.Run(b.ctx, chromedp.Evaluate[string](shown, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatal(err)
		}
		if got != "" {
			break
		}
	}
	if got != want {
		workerMu.Lock()
		defer workerMu.Unlock()
		var asked []string
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.Contains(l, "/static/icon-192") || strings.Contains(l, "position.png") {
				asked = append(asked, l)
			}
		}
		t.Fatalf("the notifications shown: %q, want %q; the worker:\n%s\nthe notification's pictures asked for:\n%s",
			got, want, strings.Join(workerLog, "\n"), strings.Join(asked, "\n"))
	}
	deliver := func(pl handlers.PushPayload) {
		t.Helper()
		data, _ := json.Marshal(pl)
		if _, err := chromedp.Call(b.ctx, serviceworker.DeliverPushMessage, serviceworker.DeliverPushMessageParams{
			Origin: s.URL, RegistrationID: reg, Data: string(data)}); err != nil {
			t.Fatalf("deliver the push message: %v", err)
		}
	}
	clickNotification(t, b, s, id, deliver)
}

// clickNotification checks what a tap on game id's notification does: the
// worker's own notificationclick listener runs, in the service worker,
// on the notification shown. Neither the DevTools protocol nor headless
// Chromium can tap a notification (there is no command for it, and an
// event dispatched from a script carries no user activation, without
// which Chromium refuses to open or focus a window), so the event is
// dispatched in the worker and only its two effects on windows are
// recorded there instead of performed: it focuses the window already at
// the game's page, else opens one there, and closes the notification.
func clickNotification(t *testing.T, b *tab, s *server, id int64, deliver func(handlers.PushPayload)) {
	t.Helper()
	targets, err := chromedp.Targets(b.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var sw target.ID
	for _, ti := range targets {
		if ti.Type == "service_worker" && strings.HasPrefix(ti.URL, s.URL+"/sw.js") {
			sw = ti.TargetID
		}
	}
	if sw == "" {
		t.Fatal("no service worker target")
	}
	swCtx, cancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(sw))
	defer cancel()
	tap := fmt.Sprintf(`(async () => {
		const calls = [];
		clients.openWindow = async (u) => { calls.push('open ' + new URL(u).pathname); return null; };
		WindowClient.prototype.focus = async function () { calls.push('focus ' + new URL(this.url).pathname); return this; };
		const [n] = await registration.getNotifications({ tag: 'game-%d' });
		if (!n) return 'no notification';
		const ev = new NotificationEvent('notificationclick', { notification: n });
		let done;
		const finished = new Promise((r) => { done = r; });
		Object.defineProperty(ev, 'waitUntil', { value: (p) => { p.then(done, (e) => done(String(e))); } });
		self.dispatchEvent(ev);
		const err = await finished;
		return calls.join(',') + (err ? ' ' + err : '') + ' | ' + (await registration.getNotifications()).length + ' shown';
	})()`, id)
	game := fmt.Sprintf("/games/%d", id)
	for i, c := range []struct{ at, want string }{{game, "focus " + game + " | 0 shown"}, {"/settings", "open " + game + " | 0 shown"}} {
		b.open(c.at)
		if i > 0 {
			// The first tap closed the notification. The notice counts the
			// games waiting: the worker sets the app's badge to it.
			if _, err := chromedp.Run(swCtx, chromedp.Evaluate[bool](`(self.__badge = 'never set',
				Object.defineProperty(self.navigator, 'setAppBadge', { configurable: true, value: async (n) => { self.__badge = n; } }), true)`)); err != nil {
				t.Fatal(err)
			}
			deliver(handlers.PushPayload{Title: "Your move", URL: game, Tag: fmt.Sprintf("game-%d", id), Waiting: 3})
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
				n, err := chromedp.Run(swCtx, chromedp.Evaluate[int](`registration.getNotifications().then(ns => ns.length)`, chromedp.EvalAwaitPromise))
				if err == nil && n == 1 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the notification delivered again is not shown (%d, %v)", n, err)
				}
			}
		}
		got, err := chromedp.Run(swCtx, chromedp.Evaluate[string](tap, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("tap in the worker: %v", err)
		}
		if got != c.want {
			t.Errorf("a tap with a window at %s: %q, want %q", c.at, got, c.want)
		}
		if i > 0 {
			badge, err := chromedp.Run(swCtx, chromedp.Evaluate[any](`self.__badge`))
			if err != nil || badge != float64(3) {
				t.Errorf("after a notice counting 3 games waiting the app's badge is %v (%v), want 3", badge, err)
			}
		}
	}
}

// TestBrowserPushOfferOnTheDashboard: in Chromium the dashboard of a
// player with a game waiting shows "Notify me on this device" without
// asking for permission on load; pressing it asks (here the browser
// refuses, and the offer says so); "No, thanks" hides it for good, and
// only forgetting the site's storage brings it back.
func TestBrowserPushOfferOnTheDashboard(t *testing.T) {
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	browserGame(t, s, b)
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: `window.__asked = 0;
			window.__badge = 'never set';
			Object.defineProperty(Navigator.prototype, 'setAppBadge', { configurable: true, value: async function (n) { window.__badge = n; } });
			Object.defineProperty(Navigator.prototype, 'clearAppBadge', { configurable: true, value: async function () { window.__badge = 0; } });
			if (window.Notification) {
				const ask = Notification.requestPermission.bind(Notification);
				Notification.requestPermission = function () { window.__asked++; return ask(); };
			}`}); err != nil {
		t.Fatal(err)
	}
	permission := func(s browser.PermissionSetting) {
		t.Helper()
		if _, err := chromedp.CallBrowser(b.ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: "notifications"}, Setting: s, Origin: b.srv.URL}); err != nil {
			t.Fatalf("set the notifications' permission: %v", err)
		}
	}
	b.open("/")
	b.waitUntil(10*time.Second, "the dashboard offers notifications", `!document.querySelector('#push-offer').hidden`)
	if !b.eval(`window.__asked === 0`) {
		t.Fatal("the dashboard asked for permission on load")
	}
	if !b.eval(`window.__badge === 1`) {
		t.Errorf("the app's badge is %v, want the 1 game waiting", b.text("#turn-badge"))
	}
	permission(browser.PermissionSettingDenied)
	b.do("press Notify me", chromedp.Click(chromedp.CSS(`#push-offer-enable`)))
	b.waitUntil(10*time.Second, "the offer says notifications are not allowed",
		`document.querySelector('#push-offer-status').textContent.startsWith('Notifications are not allowed')`)
	if !b.eval(`window.__asked === 1`) {
		t.Error("pressing the button did not ask for permission once")
	}
	permission(browser.PermissionSettingGranted)
	b.do("press No, thanks", chromedp.Click(chromedp.CSS(`#push-offer-dismiss`)))
	if !b.eval(`document.querySelector('#push-offer').hidden`) {
		t.Fatal("\"No, thanks\" does not hide the offer")
	}
	b.open("/")
	if ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`navigator.serviceWorker.ready.then(r => r.pushManager.getSubscription()).then(() => true)`,
		chromedp.EvalAwaitPromise)); err != nil || !ok {
		t.Fatalf("the service worker is not ready (%v)", err)
	}
	time.Sleep(300 * time.Millisecond) // past the moment the offer would show
	if !b.eval(`document.querySelector('#push-offer') !== null && document.querySelector('#push-offer').hidden`) {
		t.Fatal("after \"No, thanks\" the offer shows again on the next visit")
	}
	b.eval(`(localStorage.clear(), true)`)
	b.open("/")
	b.waitUntil(10*time.Second, "with the site's storage forgotten the offer shows again", `!document.querySelector('#push-offer').hidden`)
}

// TestBrowserOfflineShowsTheLastDashboardMarkedAsOfItsTime: in Chromium,
// once the server cannot be reached, the dashboard's address shows the
// offline page with the dashboard the player last saw, marked with the
// time it was seen and not clickable, and a game's address shows the
// same offline page, never the game as it was.
func TestBrowserOfflineShowsTheLastDashboardMarkedAsOfItsTime(t *testing.T) {
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	_, id := browserGame(t, s, b)
	game := fmt.Sprintf("/games/%d", id)
	b.open("/")
	if ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`navigator.serviceWorker.ready.then(() => true)`, chromedp.EvalAwaitPromise)); err != nil || !ok {
		t.Fatalf("the service worker is not ready (%v)", err)
	}
	b.open(game) // a game page seen: it is never shown offline
	b.open("/")  // through the worker now: it keeps this dashboard
	kept := func(want bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			got, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`caches.match('/offline/dashboard').then(r => !!r)`, chromedp.EvalAwaitPromise))
			if err == nil && got == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the worker keeps a dashboard: %v, want %v (%v)", got, want, err)
			}
		}
	}
	kept(true)
	// Signing out forgets it: the next person at this browser sees none.
	b.clickAndLoad(`form[action="/signout"] button`)
	kept(false)
	b.open("/signin")
	b.within(10*time.Second, "sign in again",
		chromedp.SendKeys(chromedp.CSS(`form input[name="name"]`), "carol"),
		chromedp.SendKeys(chromedp.CSS(`form input[name="password"]`), "correct horse"))
	b.clickAndLoad(`main form button[type="submit"]`)
	b.open("/")
	kept(true)
	s.Stop() // the server is gone: as good as offline
	for _, path := range []string{"/", game} {
		b.open(path)
		if got := b.text("h1"); got != "You are offline" {
			t.Fatalf("%s offline: the page says %q, want the offline page", path, got)
		}
		b.waitUntil(10*time.Second, path+": the offline page shows the last dashboard", `!document.querySelector('#offline-dashboard').hidden`)
		if n := b.count(fmt.Sprintf(`#offline-copy a[href="%s"]`, game)); n != 1 {
			t.Errorf("%s offline: the copy of the dashboard lists the game %d times, want once", path, n)
		}
		if b.count("#offline-copy form") != 0 || !b.eval(`document.querySelector('#offline-copy').inert`) {
			t.Errorf("%s offline: the copy of the dashboard can be clicked", path)
		}
		if got := b.text("#offline-as-of"); !strings.HasPrefix(got, "Your games as you last saw them, at ") || strings.Contains(got, "%s") {
			t.Errorf("%s offline: the copy is marked %q, want the time it was seen", path, got)
		}
		if b.count("#board") != 0 {
			t.Errorf("%s offline: a board is shown", path)
		}
	}
}
