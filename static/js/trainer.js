// The trainer's page: N goes on to the next position once one is answered, and the verdict
// takes the focus when htmx swaps it in, so a screen reader reads it and the keys still work.
// The dice, R and the box letters are site.js's, as on the game page.
(function () {
  "use strict";

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key !== "n" && event.key !== "N") return;
    if (window.yahtzee && window.yahtzee.isTyping(event.target)) return;
    const dialog = document.getElementById("keys-help");
    if (dialog && dialog.open) return;
    const next = document.querySelector("[data-trainer-next]");
    if (next) {
      event.preventDefault();
      next.click();
    }
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    const swapped = event.detail && event.detail.elt;
    if (!(swapped instanceof Element) || swapped.id !== "trainer") return;
    const verdict = swapped.querySelector("[data-verdict]");
    const message = swapped.querySelector("[data-trainer-message]");
    if (verdict) verdict.focus({ preventScroll: false });
    else if (message) message.scrollIntoView({ block: "nearest" });
    else window.scrollTo({ top: 0 });
  });
})();
