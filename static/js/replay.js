// The replay of a finished game: ← and → step back and forth by following the page's own
// Previous and Next links (htmx swaps the step; without JavaScript they are plain links).
(function () {
  "use strict";

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
    if (window.yahtzee && window.yahtzee.isTyping(event.target)) return;
    const which = event.key === "ArrowLeft" ? "prev" : event.key === "ArrowRight" ? "next" : "";
    if (!which) return;
    const link = document.querySelector("[data-replay-" + which + "]");
    if (link) {
      event.preventDefault();
      link.click();
    }
  });
})();
