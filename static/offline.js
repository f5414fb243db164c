// The offline page (served by the service worker when a page cannot be
// loaded): below its notice it shows the last dashboard the service
// worker kept (sw.js keeps a copy of each dashboard it fetched), marked
// with the time it was seen and not to be clicked: it may have changed.
(function () {
  'use strict';
  const box = document.getElementById('offline-dashboard');
  if (!box || !window.caches || !window.DOMParser) return;
  caches.match('/offline/dashboard').then(async (res) => {
    if (!res) return;
    const seen = new Date(Number(res.headers.get('X-Trench-Seen-At')) || 0);
    const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
    const body = doc.getElementById('dashboard-body');
    if (!body) return;
    body.id = 'offline-dashboard-body';
    body.querySelectorAll('script, form').forEach((el) => el.remove());
    document.getElementById('offline-copy').replaceChildren(document.adoptNode(body));
    const when = seen.toLocaleString(document.documentElement.lang || undefined, { dateStyle: 'medium', timeStyle: 'short' });
    const asOf = document.getElementById('offline-as-of');
    asOf.textContent = box.dataset.asOf.replace('%s', when);
    asOf.dataset.seen = seen.toISOString();
    box.hidden = false;
  }).catch(() => {});
})();
