// Push notifications in the browser (live.js, on every page, registers the
// service worker). On the settings page (#push) "Notify me on this device"
// asks for permission (only when pressed), subscribes with the server's
// VAPID key and sends the subscription to the server; without the Push
// API the settings keep their one line saying so. On the dashboard
// (#push-offer, rendered hidden when a game waits) the same offer shows
// once: only in a browser with the Push API whose notifications are not
// blocked, that is not subscribed yet and was not told "No, thanks"
// (kept in localStorage) before.
(function () {
  'use strict';
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return;

  function keyBytes(b64) {
    const s = atob(b64.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64.length % 4)) % 4));
    return Uint8Array.from(s, (c) => c.charCodeAt(0));
  }

  // subscribe asks for permission, subscribes this browser and gives the
  // subscription to the server, with box's data (vapidKey, csrf, denied,
  // failed). It resolves to "" when done, else to the message to show.
  async function subscribe(box) {
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') return box.dataset.denied;
      const reg = await navigator.serviceWorker.ready;
      let sub = await reg.pushManager.getSubscription();
      if (!sub) {
        sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.vapidKey) });
      }
      const res = await fetch('/settings/push', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': box.dataset.csrf },
        body: JSON.stringify(sub.toJSON()),
      });
      if (res.ok) return '';
      try {
        return (await res.json()).error || box.dataset.failed;
      } catch (err) {
        return box.dataset.failed; // not JSON: the general message
      }
    } catch (err) {
      return box.dataset.failed;
    }
  }

  const settings = document.getElementById('push');
  if (settings) {
    const button = document.getElementById('push-enable');
    const status = document.getElementById('push-status');
    document.getElementById('push-unsupported').hidden = true;
    button.hidden = false;
    button.addEventListener('click', async () => {
      button.disabled = true;
      const msg = await subscribe(settings);
      button.disabled = false;
      if (msg) status.textContent = msg;
      else window.location.assign('/settings?push=1#push');
    });
  }

  const offer = document.getElementById('push-offer');
  if (offer) {
    const DISMISSED = 'trench.pushOffer';
    let dismissed = false;
    try {
      dismissed = window.localStorage.getItem(DISMISSED) === 'dismissed';
    } catch (err) {
      dismissed = true; // no storage: the offer could not stay dismissed, so it never shows
    }
    if (dismissed || Notification.permission === 'denied') return;
    const enable = document.getElementById('push-offer-enable');
    const status = document.getElementById('push-offer-status');
    navigator.serviceWorker.ready
      .then((reg) => reg.pushManager.getSubscription())
      .then((sub) => {
        if (!sub) offer.hidden = false;
      })
      .catch(() => {});
    enable.addEventListener('click', async () => {
      enable.disabled = true;
      const msg = await subscribe(offer);
      enable.disabled = false;
      status.textContent = msg || offer.dataset.done;
      if (!msg) enable.hidden = document.getElementById('push-offer-dismiss').hidden = true;
    });
    document.getElementById('push-offer-dismiss').addEventListener('click', () => {
      try {
        window.localStorage.setItem(DISMISSED, 'dismissed');
      } catch (err) {
        // nothing kept: it is hidden for this page only
      }
      offer.hidden = true;
    });
  }
})();
