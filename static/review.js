// Review and analysis board: the arrow keys (and Home / End) step through
// a game or a line by following the step links, which htmx swaps in
// place; on the analysis board the up and down arrows go to the previous
// and next variation.
document.addEventListener("keydown", function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey || e.target.closest("input, textarea, select")) {
    return;
  }
  // A pending move (Confirm moves): Enter sends it, Escape cancels it.
  var ids = { ArrowLeft: ["review-prev", "line-back"], ArrowRight: ["review-next", "line-forward"],
    Home: ["review-first", "line-start"], End: ["review-last", "line-end"],
    ArrowUp: ["line-up"], ArrowDown: ["line-down"], Enter: ["send-move"], Escape: ["cancel-move"] };
  if (e.key === "Enter" && e.target !== document.body) {
    return; // Enter on a link or button does what it does
  }
  var list = ids[e.key] || [];
  for (var i = 0; i < list.length; i++) {
    var link = document.getElementById(list[i]);
    if (link) {
      e.preventDefault();
      // A link swapped in a moment ago is boosted only once htmx settles
      // the swap; process it now so that a quick key press still swaps in
      // place instead of loading the whole page.
      if (window.htmx) {
        htmx.process(link);
      }
      link.click();
      return;
    }
  }
});
