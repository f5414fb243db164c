// Live updates: while a page's event stream is open (htmx's SSE
// extension, see /static/htmx-ext-sse.min.js), the server pushes every
// change of the game, the dashboard or the tournament:
// - the page's own polling (#poll, #social-live), kept for when the
//   stream is down, makes no request;
// - the page's requests say so (X-Trench-Live), and their answers carry
//   the whole move list;
// - an answer or an update older than the game the page shows (they may
//   cross) is not swapped in: the pieces of a game page (#game, #side,
//   #moves) carry the game and its change count (data-seq, which grows
//   with every change, a takeback too).
(function () {
  var open = false;
  function set(on) {
    open = on;
    document.documentElement.classList.toggle("live", on);
  }
  document.addEventListener("htmx:sseOpen", function () { set(true); });
  document.addEventListener("htmx:sseError", function () { set(false); });
  document.addEventListener("htmx:sseClose", function () { set(false); });
  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail && e.detail.elt;
    if (open && elt && (elt.id === "poll" || elt.id === "social-live")) {
      e.preventDefault();
    }
  });
  document.addEventListener("htmx:configRequest", function (e) {
    if (open) {
      e.detail.headers["X-Trench-Live"] = "1";
    }
  });
  // older reports whether html holds an older state of the game shown.
  function older(html) {
    var m = /id="game" data-game="(\d+)" data-ply="\d+" data-seq="(\d+)"/.exec(html || "");
    var g = document.getElementById("game");
    return !!(m && g && g.dataset.game === m[1] && Number(m[2]) < Number(g.dataset.seq));
  }
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (older(e.detail.serverResponse)) {
      e.detail.shouldSwap = false;
    }
  });
  // An out-of-band piece older than the one on the page is left out (the
  // answer to a request whose element an update has replaced still swaps
  // its out-of-band pieces).
  document.addEventListener("htmx:oobBeforeSwap", function (e) {
    var d = e.detail || {};
    var el = d.fragment && d.fragment.firstElementChild;
    var t = d.target;
    if (el && t && el.id === t.id && el.dataset && t.dataset && el.dataset.seq !== undefined &&
        t.dataset.seq !== undefined && el.dataset.game === t.dataset.game &&
        Number(el.dataset.seq) < Number(t.dataset.seq)) {
      d.shouldSwap = false;
    }
  });
  document.addEventListener("htmx:sseBeforeMessage", function (e) {
    if (older(e.detail && e.detail.data)) {
      e.preventDefault();
    }
  });
})();
