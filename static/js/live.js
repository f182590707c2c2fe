// A game others play too: follow it. Each change is pushed by the server as it happens (an
// EventSource on the game's stream, /play/<id>/stream/, or a watcher's, /watch/.../stream/:
// one event per change, its id the game's new version); on an event the page asks for the game as it always did, so it gets its
// own view of it, and a roll is shown rolling. Where a stream cannot be had (refused, a proxy
// that holds it back, a browser without EventSource), the page asks every second instead: the
// browser revalidates with the game's ETag, so an unchanged game costs a 304 and no swap.
// The page's own version is the form's (a hold moves it on without redrawing the game); an
// answer no newer than it, or one that crossed the player's own move, is never swapped in.
(function () {
  "use strict";

  const POLL_EVERY_MS = 1000;
  // A stream not ready this long after it was opened, or broken this long without coming
  // back, is given up for polling; and tried again after STREAM_AGAIN_MS.
  const READY_WITHIN_MS = 5000;
  const STREAM_AGAIN_MS = 60000;

  // What the page did, for the tests (and the curious): polls made, events heard.
  const state = { polls: 0, events: 0, fetches: 0, streaming: false, mode: "" };
  window.yahtzeeLive = state;

  let source = null;
  let sourceUrl = "";
  let endedUrl = "";
  let giveUpTimer = null;
  let streamAgainAt = 0;
  let asking = false;
  let askAgain = false;
  let rolledSince = false;

  function liveElement() {
    return document.querySelector("[data-live]");
  }

  function shownVersion(live) {
    const field = document.getElementById("game-version");
    return Number(field && live.contains(field) ? field.value : live.dataset.version);
  }

  function busy(live) {
    return Boolean(live.querySelector(".htmx-request") || live.classList.contains("htmx-request") ||
      document.querySelector(".htmx-request"));
  }

  // --- Asking for the game ---------------------------------------------------------------

  function ask(live, rolled) {
    rolledSince = rolledSince || Boolean(rolled);
    if (asking || busy(live)) {
      askAgain = true; // after this answer, or once the player's own move has settled
      return;
    }
    asking = true;
    askAgain = false;
    state.fetches += 1;
    fetch(live.dataset.liveUrl, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (answer) {
        const found = /v(\d+)-/.exec(answer.headers.get("ETag") || "");
        if (!answer.ok || !found || Number(found[1]) <= shownVersion(live)) return null;
        if (document.querySelector(".htmx-request")) { askAgain = true; return null; }
        if (live.hasAttribute("data-live-reload")) {
          window.location.reload();
          return null;
        }
        return answer.text().then(function (body) {
          const still = document.body.contains(live) && !document.querySelector(".htmx-request");
          if (!still || Number(found[1]) <= shownVersion(live)) return;
          const rolled = rolledSince;
          rolledSince = false;
          window.htmx.swap(live, body, { swapStyle: "outerHTML" });
          const shown = document.getElementById("game");
          if (rolled && shown) {
            shown.dispatchEvent(new CustomEvent("yahtzee:rolled", { bubbles: true }));
          }
        });
      })
      .catch(function () { /* offline for a moment: the next event or tick asks again */ })
      .finally(function () {
        asking = false;
        const again = liveElement();
        if (askAgain && again) ask(again, false);
      });
  }

  document.addEventListener("htmx:afterSettle", function () {
    const live = liveElement();
    if (askAgain && live && !busy(live)) ask(live, false);
    follow();
  });

  // --- The stream --------------------------------------------------------------------------

  function closeStream() {
    if (source) source.close();
    source = null;
    sourceUrl = "";
    state.streaming = false;
    window.clearTimeout(giveUpTimer);
    giveUpTimer = null;
  }

  function giveUpUnlessReadyIn(ms) {
    if (giveUpTimer !== null) return;
    giveUpTimer = window.setTimeout(function () {
      giveUpTimer = null;
      if (state.streaming) return;
      closeStream();
      streamAgainAt = Date.now() + STREAM_AGAIN_MS;
      follow();
    }, ms);
  }

  function openStream(live, url) {
    closeStream();
    const since = shownVersion(live);
    source = new window.EventSource(url + (url.indexOf("?") < 0 ? "?" : "&") + "since=" + since);
    sourceUrl = url;
    const opened = source;
    giveUpUnlessReadyIn(READY_WITHIN_MS);

    opened.addEventListener("ready", function () {
      if (opened !== source) return;
      state.streaming = true;
      state.mode = "stream";
      window.clearTimeout(giveUpTimer);
      giveUpTimer = null;
    });
    opened.addEventListener("message", function (event) {
      if (opened !== source) return;
      state.events += 1;
      const now = liveElement();
      if (!now) return;
      let rolled = false;
      try { rolled = Boolean(JSON.parse(event.data).rolled); } catch (error) { /* no matter */ }
      if (Number(event.lastEventId) > shownVersion(now)) ask(now, rolled);
    });
    opened.addEventListener("end", function (event) {
      if (opened !== source) return;
      closeStream();
      endedUrl = url;
      if (event.data === "session" || event.data === "withdrawn") {
        // Logged out, or the password changed: the page says what now (the log-in page).
        // A watcher's link withdrawn by the game's host: the page says it is gone.
        window.location.reload();
      }
    });
    opened.addEventListener("error", function () {
      if (opened !== source) return;
      state.streaming = false;
      if (opened.readyState === window.EventSource.CLOSED) {
        // Refused (403, 404, 503...) or not a stream at all: ask every second instead.
        closeStream();
        streamAgainAt = Date.now() + STREAM_AGAIN_MS;
        follow();
      } else {
        // Broken: the browser reconnects by itself and the server catches the page up
        // (Last-Event-ID). If it does not come back soon, ask instead meanwhile.
        giveUpUnlessReadyIn(READY_WITHIN_MS);
      }
    });
  }

  // --- Following: by the stream where it can, else by asking --------------------------------

  function follow() {
    const live = liveElement();
    const url = live && window.htmx ? live.dataset.liveStream || "" : "";
    if (!live || !window.htmx) {
      closeStream();
      return;
    }
    if (source && sourceUrl !== url) closeStream(); // another game's page, or none
    const streamable = url && window.EventSource && url !== endedUrl;
    if (streamable && !source && Date.now() >= streamAgainAt) openStream(live, url);
    if (source) return; // streaming, or connecting: the stream catches the page up
    if (url && url === endedUrl) return; // nothing more comes to this page
    poll(live);
  }

  function poll(live) {
    if (asking || document.hidden || busy(live)) return;
    state.polls += 1;
    state.mode = "poll";
    ask(live, false);
  }

  window.setInterval(follow, POLL_EVERY_MS);
  document.addEventListener("visibilitychange", follow);
  follow();
})();
