// Review: the arrow keys (and Home / End) step through a game by
// following the review links, which htmx swaps in place.
document.addEventListener("keydown", function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey || e.target.closest("input, textarea, select")) {
    return;
  }
  // A pending move (Confirm moves): Enter sends it, Escape cancels it.
  var ids = { ArrowLeft: "review-prev", ArrowRight: "review-next", Home: "review-first", End: "review-last",
    Enter: "send-move", Escape: "cancel-move" };
  if (e.key === "Enter" && e.target !== document.body) {
    return; // Enter on a link or button does what it does
  }
  var link = ids[e.key] && document.getElementById(ids[e.key]);
  if (link) {
    e.preventDefault();
    link.click();
  }
});
