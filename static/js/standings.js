// A tournament's standings, pushed: an EventSource on the tournament's stream
// (/tournaments/t/<token>/stream/), each "standings" event carrying the standings' fragment,
// which replaces the one shown when it is newer. While the stream is open the page's own ask
// every 5 s (htmx, on #standings) is held back; where no stream can be had (refused: 429 or
// 503, a WSGI server, a proxy that holds it back, a browser without EventSource) or while a
// broken one is away, the page asks as before. The pushed fragment names nobody as "you": the
// viewer's line is marked here, from the entry the page was drawn for (data-my-entry). Once the
// pushed standings are final, the tournament's state above them is shown as over too.
(function () {
  "use strict";

  // What the page did, for the tests (and the curious).
  const state = { streaming: false, events: 0, version: 0, ended: "" };
  window.yahtzeeStandings = state;
  let source = null;
  // The phase the page was drawn in ("open", "running", "over"): what it offers its viewer
  // (Join, Start, Play) is the viewer's own, so a start pushed to a page drawn before it is
  // shown by drawing the page again, once (the Play button appears for an entrant).
  let drawnPhase = "";

  function section() {
    return document.getElementById("standings");
  }

  function shownVersion(found) {
    const body = found.querySelector("[data-standings-body]");
    return Number((body && body.dataset.version) || found.dataset.standingsVersion || 0);
  }

  function markMine(found) {
    const mine = found.dataset.myEntry;
    if (!mine) return;
    const row = found.querySelector('tr[data-entry="' + mine + '"]');
    if (!row || row.classList.contains("is-mine")) return;
    row.classList.add("is-mine");
    const name = row.querySelector("td.player");
    if (!name) return;
    const tag = document.createElement("span");
    tag.className = "tag tag-you";
    tag.textContent = "you";
    name.append(" ", tag);
  }

  function startedSinceDrawn(body) {
    return Boolean(body) && drawnPhase === "open" && body.dataset.phase === "running";
  }

  function show(data) {
    const found = section();
    if (!found) return;
    let pushed = null;
    try { pushed = JSON.parse(data); } catch (error) { return; }
    if (!pushed || typeof pushed.html !== "string") return;
    if (Number(pushed.version) <= shownVersion(found)) return;
    const body = found.querySelector("[data-standings-body]");
    if (!body) return;
    const fresh = document.createElement("template");
    fresh.innerHTML = pushed.html;
    if (startedSinceDrawn(fresh.content.querySelector("[data-standings-body]"))) {
      window.location.reload();
      return;
    }
    body.replaceWith(fresh.content);
    state.events += 1;
    state.version = Number(pushed.version);
    markMine(found);
    showOver(found);
  }

  // Standings that turn final carry the state of a tournament over (the same for everyone: no
  // action is left): it takes the place of the state the page was drawn with (running, its
  // Play and End buttons).
  function showOver(found) {
    const over = found.querySelector("template[data-tournament-over]");
    const panel = document.querySelector("[data-tournament-state-panel]");
    if (!over || !panel || panel.querySelector("[data-tournament-ended]")) return;
    panel.replaceChildren(over.content.cloneNode(true));
  }

  function start() {
    const found = section();
    const drawn = found && found.querySelector("[data-standings-body]");
    drawnPhase = (drawn && drawn.dataset.phase) || "";
    const url = found ? found.dataset.standingsStream || "" : "";
    if (!url || !window.EventSource || source) return;
    source = new window.EventSource(url + "?since=" + shownVersion(found));
    const opened = source;
    opened.addEventListener("ready", function () {
      state.streaming = true;
    });
    opened.addEventListener("standings", function (event) {
      show(event.data);
    });
    opened.addEventListener("end", function (event) {
      opened.close();
      source = null;
      state.streaming = false;
      state.ended = event.data; // the final standings are shown: nothing more to ask for
    });
    opened.addEventListener("error", function () {
      // Refused, or not a stream at all, closes it for good: ask every 5 s instead. A broken
      // one the browser reopens by itself (Last-Event-ID); the page asks meanwhile.
      state.streaming = false;
      if (opened.readyState === window.EventSource.CLOSED) source = null;
    });
  }

  // The ask every 5 s, held back while the stream brings the standings (or once they are final).
  document.addEventListener("htmx:beforeRequest", function (event) {
    const asker = event.detail && event.detail.elt;
    if (asker && asker.id === "standings" && (state.streaming || state.ended)) {
      event.preventDefault();
    }
  });
  // A page that asked (no stream) gets the fragment for its viewer: keep following it.
  document.addEventListener("htmx:afterSwap", function () {
    const found = section();
    if (!found) return;
    if (startedSinceDrawn(found.querySelector("[data-standings-body]"))) {
      window.location.reload();
      return;
    }
    markMine(found);
    showOver(found);
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
