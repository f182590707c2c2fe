// The quick-play waiting page: the moment an opponent is found, go to the game. The server
// pushes it (an EventSource on /play/quick/stream/: one "seated" event with the game's
// address); the page's own check every second (htmx, answered with HX-Redirect once seated)
// goes on beside it, so where no stream can be had (refused, a WSGI server, a proxy that holds
// it back, a browser without EventSource) the page still follows within a second.
(function () {
  "use strict";

  // What the page did, for the tests (and the curious).
  const state = { streaming: false, seated: "", ended: "" };
  window.yahtzeeQuick = state;

  function start() {
    const page = document.querySelector("[data-quick-stream]");
    if (!page || !window.EventSource) return;
    const source = new window.EventSource(page.dataset.quickStream);

    source.addEventListener("ready", function () {
      state.streaming = true;
    });
    source.addEventListener("seated", function (event) {
      source.close();
      state.streaming = false;
      let url = "";
      try { url = String(JSON.parse(event.data).url || ""); } catch (error) { /* below */ }
      // Only an address of this site: the check every second takes over otherwise.
      if (url.charAt(0) === "/" && url.charAt(1) !== "/") {
        state.seated = url;
        window.location.assign(url);
      }
    });
    source.addEventListener("end", function (event) {
      source.close();
      state.streaming = false;
      state.ended = event.data;
      // Logged out, or the password changed: the page says what now (the log-in page).
      if (event.data === "session") window.location.reload();
    });
    source.addEventListener("error", function () {
      // Refused (not waiting, too many pages, no ASGI server) closes it for good; a broken one
      // the browser reopens by itself. The check every second goes on either way.
      state.streaming = false;
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
