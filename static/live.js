// Live updates: while a page's event stream is open (htmx's SSE
// extension, see /static/htmx-ext-sse.min.js), the server pushes every
// change of the game, the dashboard or the tournament:
// - the page's own polling (#poll, #social-live), kept for when the
//   stream is down, makes no request;
// - an answer or an update older than the game the page shows (they may
//   cross) is not swapped in: the pieces of a game page (#game, #side,
//   #moves) carry the game and its version (data-seq, "START.N": the
//   server's start and a count that grows with every change, a takeback
//   too); a version of another start than the page's (the server has
//   restarted since) is taken as newer;
// - the moves an answer or an update adds to the move list (after the ply
//   the page showed) that the list shows already are left out, since both
//   may bring the same move; when moves are missing before them, the page
//   asks for every move after its last one.
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
  // before reports whether version a (data-seq) is older than version b:
  // both of the same start of the server, with a smaller count.
  function before(a, b) {
    var x = String(a).split("."), y = String(b).split(".");
    return x.length === 2 && y.length === 2 && x[0] === y[0] && Number(x[1]) < Number(y[1]);
  }
  // older reports whether html holds an older state of the game shown.
  function older(html) {
    var m = /id="game" data-game="(\d+)" data-ply="\d+" data-seq="([^"]*)"/.exec(html || "");
    var g = document.getElementById("game");
    return !!(m && g && g.dataset.game === m[1] && before(m[2], g.dataset.seq));
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
    if (appended(d)) {
      return;
    }
    var el = d.fragment && d.fragment.firstElementChild;
    var t = d.target;
    if (el && t && el.id === t.id && el.dataset && t.dataset && el.dataset.seq !== undefined &&
        t.dataset.seq !== undefined && el.dataset.game === t.dataset.game &&
        before(el.dataset.seq, t.dataset.seq)) {
      d.shouldSwap = false;
    }
  });
  // appended handles moves added to the list (#moves swapped "beforeend":
  // the fragment is the list's element, its items the moves); false for
  // any other piece.
  function appended(d) {
    var f = d.fragment, t = d.target, g = document.getElementById("game");
    if (!f || f.nodeType !== 1 || f.id !== "moves" || !t || t.id !== "moves") {
      return false;
    }
    if (g && f.dataset.game === g.dataset.game && before(f.dataset.seq, g.dataset.seq)) {
      d.shouldSwap = false;
      return true;
    }
    var shown = t.querySelectorAll("li[data-ply]");
    var last = shown.length ? Number(shown[shown.length - 1].dataset.ply) : 0;
    var items = Array.prototype.slice.call(f.children);
    for (var i = 0; i < items.length; i++) {
      if (Number(items[i].dataset.ply) <= last) {
        f.removeChild(items[i]);
      }
    }
    var first = f.firstElementChild;
    if (first && Number(first.dataset.ply) > last + 1) {
      d.shouldSwap = false;
      if (g && window.htmx) {
        var h = {};
        h["X-Trench-Ply"] = String(last);
        window.htmx.ajax("GET", "/games/" + g.dataset.game, { target: "#game", swap: "outerHTML", headers: h });
      }
    }
    return true;
  }
  document.addEventListener("htmx:sseBeforeMessage", function (e) {
    if (older(e.detail && e.detail.data)) {
      e.preventDefault();
    }
  });
  // Keyboard and screen-reader play: a swap replaces the board, and with
  // it the element the keyboard was on. When the swap removed the element
  // focused, focus goes to its equivalent in the new content: the same
  // square (or, when that square is no longer a link or a button, the
  // first destination, else the first square to click), the element with
  // the same id, else the board itself; and it is brought into the window
  // when it lies outside it (htmx itself puts the focus back on an element
  // of the same id without scrolling). The board's live region
  // (#board-status) is emptied and refilled so that a screen reader reads
  // the new last move and side to move.
  var lastFocus = null;
  var lastStatus = null;
  document.addEventListener("focusin", function (e) {
    var t = e.target;
    if (!t || !t.closest || !t.closest("#game")) {
      lastFocus = null;
      return;
    }
    lastFocus = {
      el: t,
      id: t.id || "",
      click: t.dataset && t.dataset.click && t.closest("#board") ? t.dataset.click : ""
    };
  });
  function clickable(el) {
    return el && (el.tagName === "A" || el.tagName === "BUTTON") ? el : null;
  }
  function drawn(el) {
    return el && el.isConnected && el.getClientRects().length > 0 ? el : null;
  }
  function intoView(el) {
    var r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) {
      el.scrollIntoView({ block: "nearest" });
    }
  }
  function theBoard() {
    var el = document.querySelector('#board [role="grid"], #board .cards-table');
    if (el && !el.hasAttribute("tabindex")) {
      el.tabIndex = -1;
    }
    return el;
  }
  function restoreFocus() {
    if (!lastFocus || lastFocus.el.isConnected) {
      return; // the focused element is still there: nothing to restore
    }
    var a = document.activeElement;
    if (a && a !== document.body && drawn(a)) {
      intoView(a); // htmx focused the element of the same id
      return;
    }
    var el = null;
    if (lastFocus.click) {
      var sel = '#board [data-click="' + lastFocus.click.replace(/["\\]/g, "") + '"]';
      el = clickable(document.querySelector(sel)) ||
        document.querySelector("#board a.target, #board button.target, #board .cards-place.target") ||
        document.querySelector("#board a[data-click], #board button[data-click]");
    }
    if (!el && lastFocus.id) {
      el = drawn(document.getElementById(lastFocus.id));
    }
    el = el || drawn(theBoard()) || document.getElementById("move-input");
    if (el) {
      el.focus({ preventScroll: true });
      intoView(el);
    }
  }
  // announce runs once per region drawn (a swap settles several pieces).
  var refill = null;
  function announce() {
    var st = document.getElementById("board-status");
    if (!st || st.dataset.read) {
      return;
    }
    st.dataset.read = "1";
    var text = st.textContent;
    if (text === lastStatus) {
      return;
    }
    lastStatus = text;
    st.textContent = "";
    clearTimeout(refill);
    refill = setTimeout(function () { st.textContent = text; }, 100);
  }
  document.addEventListener("DOMContentLoaded", function () {
    var st = document.getElementById("board-status");
    if (st) {
      st.dataset.read = "1";
      lastStatus = st.textContent;
    }
  });
  // The arrow keys move between the squares of a game's board, row by row
  // as the grid is read (Home and End: the row's first and last square);
  // a square with nothing to click is focused too, to hear what is there.
  document.addEventListener("keydown", function (e) {
    var steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    var t = e.target;
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || !t || !t.closest) {
      return;
    }
    var cell = t.closest('#game #board [role="gridcell"]');
    var row = cell && cell.parentElement;
    if (!cell || !row || row.getAttribute("role") !== "row") {
      return;
    }
    var rows = Array.prototype.slice.call(row.parentElement.children);
    var cells = Array.prototype.slice.call(row.children);
    var r = rows.indexOf(row), c = cells.indexOf(cell);
    if (e.key === "Home" || e.key === "End") {
      c = e.key === "Home" ? 0 : cells.length - 1;
    } else if (steps[e.key]) {
      r += steps[e.key][0];
      c += steps[e.key][1];
    } else {
      return;
    }
    e.preventDefault();
    e.stopImmediatePropagation();
    var next = rows[r] && rows[r].children[c];
    if (!next) {
      return;
    }
    if (next.tagName !== "A" && next.tagName !== "BUTTON") {
      next.tabIndex = -1;
    }
    next.focus();
  });
  // Space acts as Enter on the links of a board (the squares, the cards,
  // the card game's action words): a screen reader announces them as grid
  // cells and buttons, which Space activates (when it is released, as a
  // button does), where a link would scroll the page.
  function spaceLink(e) {
    var t = e.target;
    return e.key === " " && !e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey &&
      t && t.tagName === "A" && t.dataset && t.dataset.click && t.closest("#game #board") ? t : null;
  }
  var spaced = null;
  document.addEventListener("keydown", function (e) {
    var t = spaceLink(e);
    if (t) {
      e.preventDefault();
      spaced = e.repeat ? spaced : t;
    }
  });
  document.addEventListener("keypress", function (e) {
    if (spaceLink(e)) {
      e.preventDefault();
    }
  });
  document.addEventListener("keyup", function (e) {
    var t = spaceLink(e);
    if (t && t === spaced) {
      e.preventDefault();
      spaced = null;
      t.click();
    }
  });
  document.addEventListener("htmx:afterSettle", function () {
    restoreFocus();
    announce();
  });
})();

// Every page registers the service worker (/sw.js: the notifications, and
// the static files kept for offline use), so that the site can be added
// to the home screen from any page.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
}

// The app's badge (where the browser has one) shows the number of games
// waiting for the player's move, as the navigation bar's count does: at
// each page and each update pushed to it.
if ("setAppBadge" in navigator) {
  var syncBadge = function () {
    var b = document.getElementById("turn-badge"); // none: signed out
    var n = !b || b.hidden ? 0 : parseInt(b.textContent, 10) || 0;
    (n > 0 ? navigator.setAppBadge(n) : navigator.clearAppBadge()).catch(function () {});
  };
  syncBadge();
  document.addEventListener("htmx:afterSettle", syncBadge);
}
