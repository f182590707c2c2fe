// Small enhancements on top of server-rendered pages and htmx: keyboard play, dialogs,
// confirmations. Everything here is optional; every page works without JavaScript.
(function () {
  "use strict";

  function gameForm() {
    return document.querySelector("[data-game-form]");
  }

  function isTyping(target) {
    if (!(target instanceof Element)) return false;
    if (target.isContentEditable) return true;
    if (target.matches("textarea, select")) return true;
    return target.matches("input") && !target.matches("[type=checkbox], [type=radio]");
  }

  document.documentElement.classList.add("js");

  // Shared with the other scripts of the site (boss.js), which load after this one.
  window.yahtzee = { isTyping: isTyping };

  function isActivatable(target) {
    return target instanceof Element && target.matches("button, a[href], input, summary");
  }

  function clickIfEnabled(element) {
    if (element && !element.disabled && !element.closest("fieldset[disabled]")) {
      element.click();
      return true;
    }
    return false;
  }

  function toggleKeysHelp() {
    const dialog = document.getElementById("keys-help");
    if (!dialog) return false;
    if (dialog.open) dialog.close();
    else dialog.showModal();
    return true;
  }

  function announce(text) {
    const region = document.getElementById("announcer");
    if (region) region.textContent = text;
  }

  // A die shows and says whether it is held: its picture, and the name a screen reader reads
  // (the server wrote both: "Die 3 shows five, held" and without "held").
  function showHeld(input) {
    const label = input.labels && input.labels[0];
    if (label) label.classList.toggle("is-held", input.checked);
    input.setAttribute("aria-label", input.checked ? input.dataset.labelHeld : input.dataset.labelFree);
  }

  document.addEventListener("change", function (event) {
    const input = event.target;
    if (!(input instanceof HTMLInputElement) || !input.matches(".die-toggle")) return;
    showHeld(input);
  });

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (isTyping(event.target)) return;
    const dialog = document.getElementById("keys-help");
    if (dialog && dialog.open && event.key !== "?") return;

    if (event.key === "?") {
      if (toggleKeysHelp()) event.preventDefault();
      return;
    }
    const form = gameForm();
    if (!form) return;
    if (event.key === "u" || event.key === "U") {
      if (clickIfEnabled(form.querySelector("[data-undo]"))) event.preventDefault();
      return;
    }
    if (event.key === "H") {
      // Shift+H: the lower-case letters are the boxes.
      if (clickIfEnabled(form.querySelector("[data-hint]"))) event.preventDefault();
      return;
    }

    const choosing = form.querySelector("tr.is-choosing");
    if (choosing) {
      if (/^[1-3]$/.test(event.key)) {
        clickIfEnabled(choosing.querySelector('[data-column="' + event.key + '"]'));
        event.preventDefault();
        return;
      }
      if (event.key === "Escape" || /^[a-z]$/i.test(event.key)) {
        choosing.classList.remove("is-choosing");
        if (event.key === "Escape") {
          event.preventDefault();
          return;
        }
      }
    }
    if (event.key === "Escape") {
      const cancel = form.querySelector("[data-cancel]");
      if (cancel) {
        cancel.click();
        event.preventDefault();
      }
      return;
    }
    if (/^[1-5]$/.test(event.key)) {
      if (clickIfEnabled(form.querySelector("#die-" + (Number(event.key) - 1)))) {
        event.preventDefault();
      }
      return;
    }
    const key = event.key.toLowerCase();
    if (key === "r" || (key === " " && !isActivatable(event.target))) {
      if (clickIfEnabled(form.querySelector("[data-roll]"))) event.preventDefault();
      return;
    }
    if (/^[a-z]$/.test(key)) {
      // Each score button carries its box's letter and label, as the server names them.
      const options = form.querySelectorAll('[data-box-key="' + key + '"]:not([disabled])');
      if (options.length === 1) {
        options[0].click();
      } else if (options.length > 1) {
        // Several columns can take this box: the next key, 1 to 3, picks the column.
        const row = options[0].closest("tr");
        row.classList.add("is-choosing");
        announce("Choose the column for " + options[0].dataset.boxLabel +
          ": press " + Array.from(options, (o) => o.dataset.column).join(", ") + ".");
      }
      if (options.length) event.preventDefault();
    }
  });

  document.addEventListener("click", function (event) {
    const opener = event.target instanceof Element && event.target.closest("[data-open-dialog]");
    if (!opener) return;
    const dialog = document.getElementById(opener.dataset.openDialog);
    if (dialog) dialog.showModal();
  });

  // --- The computer's turn, step by step -------------------------------------------------
  // Each step is a request of its own (no server worker waits): the page asks for the next
  // step a moment after showing the last, so a person can follow the dice.
  const COMPUTER_STEP_MS = 900;
  let computerTimer = null;

  function nextComputerStep() {
    if (computerTimer !== null) return;
    if (!document.querySelector("[data-computer-next]")) return;
    computerTimer = window.setTimeout(function () {
      computerTimer = null;
      const next = document.querySelector("[data-computer-next]");
      if (next && !document.hidden) next.click();
      else nextComputerStep();
    }, COMPUTER_STEP_MS);
  }
  document.addEventListener("htmx:afterSettle", nextComputerStep);
  document.addEventListener("visibilitychange", nextComputerStep);
  nextComputerStep();

  // A hint's "hold these" sets the dice as the hint says, in one request to the server.
  document.addEventListener("click", function (event) {
    const apply = event.target instanceof Element && event.target.closest("[data-apply-held]");
    if (!apply) return;
    const wanted = apply.dataset.applyHeld.split(",");
    let changed = null;
    document.querySelectorAll("input.die-toggle").forEach(function (input, i) {
      const hold = wanted[i] === "1";
      if (input.checked !== hold) {
        input.checked = hold;
        changed = input;
        showHeld(input); // each die changed: the one change event below reaches only the last
      }
    });
    // One change event, so htmx sends the whole hold in one request.
    if (changed) changed.dispatchEvent(new Event("change", { bubbles: true }));
    announce(apply.textContent.trim() + ", then roll.");
    const roll = document.querySelector("[data-roll]");
    if (roll) roll.focus();
  });

  document.addEventListener("click", function (event) {
    const copier = event.target instanceof Element && event.target.closest("[data-copy]");
    if (!copier) return;
    const field = document.getElementById(copier.dataset.copy);
    if (!field) return;
    field.select();
    if (navigator.clipboard) {
      navigator.clipboard.writeText(field.value).then(function () {
        copier.textContent = "Copied";
        announce("Invitation link copied.");
      }, function () { /* selected: the player can copy it themselves */ });
    }
  });

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });
})();
