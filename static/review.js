// Review: the arrow keys (and Home / End) step through a game by
// following the review links, which htmx swaps in place.
document.addEventListener("keydown", function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey || e.target.closest("input, textarea, select")) {
    return;
  }
  var ids = { ArrowLeft: "review-prev", ArrowRight: "review-next", Home: "review-first", End: "review-last" };
  var link = ids[e.key] && document.getElementById(ids[e.key]);
  if (link) {
    e.preventDefault();
    link.click();
  }
});
