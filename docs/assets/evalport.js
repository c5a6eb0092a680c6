// A table wider than the page scrolls inside Material's wrapper: make each such region
// reachable and scrollable from the keyboard, with a name (WCAG 2.1.1; axe-core's
// scrollable-region-focusable). Runs on every page load, instant navigation included.
document$.subscribe(function () {
  document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (wrap) {
    wrap.setAttribute("tabindex", "0");
    wrap.setAttribute("role", "region");
    wrap.setAttribute("aria-label", "Table (scrolls sideways)");
  });
});
