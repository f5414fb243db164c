// Trench's service worker, served at /sw.js with the scope "/": it shows
// the push notifications the server sends (one per game, by its tag),
// opens or focuses the game's page when one is tapped, sets the app's
// badge to the number of games waiting (which the notice carries) where
// the browser can, and
// keeps the static files, a page saying "offline" and a copy of the last
// dashboard it fetched for when the network is gone. It never answers a
// page from the cache as if it were current: offline, every page is the
// offline page, which shows that copy marked with when it was seen.
'use strict';

const CACHE = 'trench-v2';
const OFFLINE = '/offline';
// The offline page and the files it loads, kept at install.
const OFFLINE_FILES = [OFFLINE, '/static/offline.js', '/static/style.css', '/static/icon.svg'];
// Where the copy of the last dashboard is kept (no page has this address).
const DASHBOARD = '/offline/dashboard';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(OFFLINE_FILES.map((f) => new Request(f, { cache: 'reload' }))))
    .then(() => self.skipWaiting()));
});

// keepDashboard keeps the page res answered for "/" when it is a
// player's dashboard, with the time it was seen; any other page there (the
// start page of a visitor, after signing out) forgets the copy, so that
// nobody is shown someone else's games.
async function keepDashboard(res) {
  const html = await res.text();
  const cache = await caches.open(CACHE);
  if (!html.includes('id="dashboard-body"')) {
    await cache.delete(DASHBOARD);
    return;
  }
  await cache.put(DASHBOARD, new Response(html, {
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'X-Trench-Seen-At': String(Date.now()) },
  }));
}

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/static/')) {
    // The network first; the copy kept only when it cannot be reached.
    event.respondWith(caches.open(CACHE).then(async (cache) => {
      try {
        const res = await fetch(req);
        if (res.ok) cache.put(req, res.clone());
        return res;
      } catch (err) {
        const kept = await cache.match(req);
        if (kept) return kept;
        throw err;
      }
    }));
    return;
  }
  if (req.mode === 'navigate') {
    event.respondWith(fetch(req).then((res) => {
      if (url.pathname === '/' && res.ok && res.type === 'basic') event.waitUntil(keepDashboard(res.clone()).catch(() => {}));
      return res;
    }, async () => (await caches.match(OFFLINE)) || Response.error()));
  }
});

// setBadge sets the app's badge to n games waiting (none shown for 0),
// where the browser has badges.
async function setBadge(n) {
  if (!self.navigator || !self.navigator.setAppBadge || typeof n !== 'number') return;
  try {
    if (n > 0) await self.navigator.setAppBadge(n);
    else await self.navigator.clearAppBadge();
  } catch (err) {
    // A badge is a nicety: its failure changes nothing else.
  }
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (err) {
    data = { title: event.data.text() };
  }
  const options = {
    body: data.body || '',
    icon: '/static/icon-192.png',
    badge: '/static/icon-192.png',
    data: { url: data.url || '/' },
  };
  // The game's position as a picture, where the platform shows one; only
  // a path on this server.
  if (typeof data.image === 'string' && data.image.startsWith('/') && !data.image.startsWith('//')) {
    options.image = data.image;
  }
  if (data.tag) {
    options.tag = data.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(data.title || 'Trench', options).then(() => setBadge(data.waiting)));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  let target = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  if (target.origin !== self.location.origin) target = new URL('/', self.location.origin);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const w of windows) {
      if (new URL(w.url).pathname === target.pathname && 'focus' in w) {
        await w.focus();
        return;
      }
    }
    if (self.clients.openWindow) await self.clients.openWindow(target.href);
  })());
});
