// The boss key: Home (or the backquote key, for keyboards without Home) and the small corner
// button swap the whole page for a harmless spreadsheet (templates/_boss.html) and back. Nothing
// is reloaded or re-rendered: #page is only hidden, so the game comes back exactly as it was,
// with its focus and scroll position. While the sheet shows, no other key reaches the page.
(function () {
  "use strict";

  const SHEET_TITLE = "Q3 budget.xlsx — Spreadsheet";
  const SHEET_ICON = "data:image/svg+xml," + encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">' +
    '<rect x="2" y="1" width="20" height="22" rx="2.5" fill="#1e7145"/>' +
    '<path d="M6 7h12M6 11.5h12M6 16h12M10.5 5v13.5" stroke="#fff" stroke-width="1.6" fill="none"/></svg>'
  );

  // What the page looked like before the sheet came up; null while the game shows.
  let hiddenState = null;
  // Where focus was just before a pointer press on the button took it.
  let focusBeforePress = null;

  const pageWrap = () => document.getElementById("page");
  const sheet = () => document.getElementById("boss-sheet");
  // The hide button in the page's header, and the way back on the sheet.
  const buttons = () => Array.from(document.querySelectorAll("[data-boss-key]"));

  const isTyping = window.yahtzee.isTyping;  // site.js, loaded before this file

  function isBossKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return false;
    if (event.key === "Home") return !event.shiftKey;
    // The key left of 1: "`" on US and UK layouts, a dead key or another sign elsewhere.
    return event.key === "`" || (event.code === "Backquote" && !event.shiftKey);
  }

  // A selector that finds the element again if htmx replaced it while the sheet showed.
  function selectorFor(element) {
    const steps = [];
    for (let node = element; node && node !== document.body; node = node.parentElement) {
      if (node.id) {
        steps.unshift("#" + CSS.escape(node.id));
        return steps.join(" > ");
      }
      let index = 1;
      for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
        if (sibling.localName === node.localName) index += 1;
      }
      steps.unshift(node.localName + ":nth-of-type(" + index + ")");
    }
    return null;
  }

  function iconLink() {
    return document.querySelector('link[rel~="icon"]');
  }

  function showSheet(focusBefore) {
    const wrap = pageWrap();
    const overlay = sheet();
    if (hiddenState || !wrap || !overlay) return;
    const focused = focusBefore && wrap.contains(focusBefore) ? focusBefore : null;
    const icon = iconLink();
    hiddenState = {
      title: document.title,
      icon: icon ? icon.getAttribute("href") : null,
      focused: focused,
      focusSelector: focused ? selectorFor(focused) : null,
      scrollX: window.scrollX,
      scrollY: window.scrollY,
      // A modal dialog would leave everything else inert, the sheet and the button included.
      dialogs: Array.from(wrap.querySelectorAll("dialog[open]"), (dialog) => {
        const modal = dialog.matches(":modal");
        dialog.close();
        return { dialog: dialog, modal: modal };
      }),
    };
    document.documentElement.dataset.boss = "on";
    wrap.hidden = true;
    overlay.hidden = false;
    document.title = SHEET_TITLE;
    if (icon) icon.setAttribute("href", SHEET_ICON);
    buttons().forEach((toggle) => toggle.setAttribute("aria-pressed", "true"));
    // Into the sheet, so that a stray Space or Enter does not press the button again.
    const grid = overlay.querySelector("[data-boss-focus]");
    if (grid) grid.focus({ preventScroll: true });
  }

  function showPage() {
    const state = hiddenState;
    const wrap = pageWrap();
    if (!state || !wrap) return;
    hiddenState = null;
    const overlay = sheet();
    if (overlay) overlay.hidden = true;
    wrap.hidden = false;
    delete document.documentElement.dataset.boss;
    document.title = state.title;
    const icon = iconLink();
    if (icon && state.icon !== null) icon.setAttribute("href", state.icon);
    buttons().forEach((toggle) => toggle.setAttribute("aria-pressed", "false"));
    window.scrollTo(state.scrollX, state.scrollY);
    state.dialogs.forEach(({ dialog, modal }) => {
      if (!dialog.isConnected || dialog.open) return;
      if (modal) dialog.showModal();
      else dialog.show();
    });
    let target = state.focused;
    if (target && !target.isConnected) {
      target = state.focusSelector ? document.querySelector(state.focusSelector) : null;
    }
    if (target) target.focus({ preventScroll: true });
  }

  function toggle(focusBefore) {
    if (hiddenState) showPage();
    else showSheet(focusBefore);
  }

  // Capture phase on window: runs before site.js and htmx, which listen further down.
  window.addEventListener("keydown", function (event) {
    if (isBossKey(event) && (hiddenState || !isTyping(event.target))) {
      event.preventDefault();
      event.stopImmediatePropagation();
      if (!event.repeat) toggle(document.activeElement);
      return;
    }
    // Escape included: a boss may press it, and it must not bring the game back.
    if (hiddenState) event.stopImmediatePropagation();
  }, true);
  ["keypress", "keyup"].forEach(function (type) {
    window.addEventListener(type, function (event) {
      if (hiddenState) event.stopImmediatePropagation();
    }, true);
  });

  function pressed(event) {
    return event.target instanceof Element && event.target.closest("[data-boss-key]");
  }

  document.addEventListener("pointerdown", function (event) {
    if (pressed(event)) focusBeforePress = document.activeElement;
  }, true);

  document.addEventListener("click", function (event) {
    if (!pressed(event)) return;
    // A click from the keyboard (detail 0) had no press before it: focus is still in place.
    const focusBefore = (event.detail > 0 && focusBeforePress) || document.activeElement;
    focusBeforePress = null;
    toggle(focusBefore);
  });

  // Unlikely, but a swap may land while the sheet shows: keep the page hidden and the sheet's
  // title, and remember the page's new title for later.
  document.addEventListener("htmx:afterSettle", function () {
    const wrap = pageWrap();
    if (hiddenState && wrap && !wrap.hidden) wrap.hidden = true;
  });
  new MutationObserver(function () {
    if (hiddenState && document.title !== SHEET_TITLE) {
      hiddenState.title = document.title;
      document.title = SHEET_TITLE;
    }
  }).observe(document.head, { childList: true, subtree: true, characterData: true });

  function ready() {
    buttons().forEach((toggle) => { toggle.hidden = false; });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
