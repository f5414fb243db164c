package handlers_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/chromedp"

	"github.com/trench-games/trench/handlers"
)

// TestBrowserPushShowsTheNotification: in Chromium the pages register the
// service worker with the scope of the whole site, the settings page
// offers "Notify me on this device" instead of its line for browsers
// without push, Chromium finds the site installable as an app (no
// installability errors), and a push message delivered to the worker (through the
// DevTools protocol, as a push service would) shows a notification with
// the payload's title, body and tag, carrying the game's address.
func TestBrowserPushShowsTheNotification(t *testing.T) {
	s := startServer(t, "", nil)
	b := newTab(t, s, true)
	_, id := browserGame(t, s, b)
	if _, err := chromedp.CallBrowser(b.ctx, browser.SetPermission, browser.SetPermissionParams{
		Permission: &browser.PermissionDescriptor{Name: "notifications"}, Setting: browser.PermissionSettingGranted, Origin: s.URL}); err != nil {
		t.Fatalf("grant notifications: %v", err)
	}
	regs := make(chan serviceworker.RegistrationID, 16)
	if err := chromedp.Listen(b.ctx, func(ev any) {
		if e, ok := ev.(*serviceworker.EventWorkerRegistrationUpdated); ok {
			for _, r := range e.Registrations {
				if !r.IsDeleted && r.ScopeURL == s.URL+"/" {
					select {
					case regs <- r.RegistrationID:
					default:
					}
				}
			}
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
		URL: fmt.Sprintf("/games/%d", id), Tag: fmt.Sprintf("game-%d", id)})
	if _, err := chromedp.Call(b.ctx, serviceworker.DeliverPushMessage, serviceworker.DeliverPushMessageParams{
		Origin: s.URL, RegistrationID: reg, Data: string(payload)}); err != nil {
		t.Fatalf("deliver the push message: %v", err)
	}
	want := fmt.Sprintf("Your move against bob: TRENCH|3 days left|game-%d|/games/%d", id, id)
	shown := `(async () => {
		const r = await navigator.serviceWorker.ready;
		const ns = await r.getNotifications();
		return ns.map(n => [n.title, n.body, n.tag, n.data.url].join('|')).join('\n');
	})()`
	var got string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if got, err = chromedp.Run(b.ctx, chromedp.Evaluate[string](shown, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatal(err)
		}
		if got != "" {
			break
		}
	}
	if got != want {
		t.Fatalf("the notifications shown: %q, want %q", got, want)
	}
}
