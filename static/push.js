// Push notifications in the browser, on the settings page (live.js, on
// every page, registers the service worker): "Notify me on this device"
// asks for permission (only when pressed), subscribes with the server's
// VAPID key and sends the subscription to the server. Without the Push
// API the settings keep their one line saying so.
(function () {
  'use strict';
  if (!('serviceWorker' in navigator)) return;
  const box = document.getElementById('push');
  if (!box || !('PushManager' in window) || !('Notification' in window)) return;
  const button = document.getElementById('push-enable');
  const status = document.getElementById('push-status');
  document.getElementById('push-unsupported').hidden = true;
  button.hidden = false;

  function keyBytes(b64) {
    const s = atob(b64.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64.length % 4)) % 4));
    return Uint8Array.from(s, (c) => c.charCodeAt(0));
  }

  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        status.textContent = box.dataset.denied;
        return;
      }
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
      if (!res.ok) {
        let msg = box.dataset.failed;
        try {
          msg = (await res.json()).error || msg;
        } catch (err) {
          // not JSON: the general message
        }
        status.textContent = msg;
        return;
      }
      window.location.assign('/settings?push=1#push');
    } catch (err) {
      status.textContent = box.dataset.failed;
    } finally {
      button.disabled = false;
    }
  });
})();
