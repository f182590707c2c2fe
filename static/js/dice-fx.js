// Dice effects: the dice that were not held tumble when a roll's answer arrives (or another
// player's roll is shown), and, if the player turned sound on, a short rattle made with the
// Web Audio API (no audio files).
// Purely decorative: without JavaScript, Web Audio or motion the game plays the same.
(function () {
  "use strict";

  const ROLLING = "is-rolling";
  // Longest tumble plus its stagger (see dice-fx.css), with room to spare: a die whose
  // animationend never comes (hidden tab, display: none) still loses the class.
  const ROLLING_FALLBACK_MS = 900;

  // Tests read the count of rattles played; nothing else is exposed.
  const fx = { sounds: 0 };
  window.yahtzeeDiceFx = fx;

  function pageOptions() {
    return document.getElementById("page");
  }

  function soundOn() {
    const page = pageOptions();
    return Boolean(page) && page.dataset.sound === "on";
  }

  function motionAllowed() {
    const page = pageOptions();
    if (page && (page.classList.contains("motion-off") || page.dataset.animation === "off")) {
      return false;
    }
    return !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  function isRollAnswer(detail) {
    const config = detail && detail.requestConfig;
    const xhr = detail && detail.xhr;
    if (!config || !xhr || String(config.verb).toLowerCase() !== "post") return false;
    // A refused roll (400, 409) is answered with the unchanged table: nothing rolled.
    if (xhr.status < 200 || xhr.status >= 300) return false;
    const path = String(config.path || "").split(/[?#]/)[0];
    return /\/roll\/$/.test(path);
  }

  // --- The tumble ------------------------------------------------------------------------

  // The class goes on the die's face, not its label: the label's classes are game state
  // (is-held), the same after a reload, and the face is what turns anyway.
  function tumble(form) {
    const faces = [];
    form.querySelectorAll("input.die-toggle").forEach(function (input) {
      if (input.checked) return;
      const label = input.labels && input.labels[0];
      const face = label && label.querySelector(".die-face");
      if (face) faces.push(face);
    });
    // A watcher's dice (games/watching) are shown, not held: no box to tick.
    form.querySelectorAll("[data-watched-die]:not(.is-held) .die-face").forEach(function (face) {
      faces.push(face);
    });
    faces.forEach(function (face) {
      face.classList.remove(ROLLING);
      void face.getBoundingClientRect(); // restart the animation if the class was still there
      face.classList.add(ROLLING);
      window.setTimeout(function () {
        face.classList.remove(ROLLING);
      }, ROLLING_FALLBACK_MS);
    });
  }

  document.addEventListener("animationend", function (event) {
    const target = event.target;
    if (target instanceof Element && event.animationName === "die-tumble") {
      target.classList.remove(ROLLING);
    }
  });

  // --- The rattle --------------------------------------------------------------------------

  let audio = null; // { context, noise, out } once a gesture allowed it
  let audioFailed = false;

  function ensureAudio() {
    if (audioFailed || !soundOn() || !document.querySelector("[data-game-form]")) return null;
    try {
      if (!audio) {
        const Context = window.AudioContext || window.webkitAudioContext;
        if (!Context) {
          audioFailed = true;
          return null;
        }
        const context = new Context();
        // One short buffer of white noise, reused by every click.
        const noise = context.createBuffer(1, Math.ceil(context.sampleRate * 0.05), context.sampleRate);
        const samples = noise.getChannelData(0);
        for (let i = 0; i < samples.length; i++) samples[i] = Math.random() * 2 - 1;
        const out = context.createGain();
        out.gain.value = 0.22; // quiet: a rattle on the table, not an alarm
        out.connect(context.destination);
        audio = { context: context, noise: noise, out: out };
      }
      if (audio.context.state === "suspended") {
        audio.context.resume().catch(function () {});
      }
      return audio;
    } catch (error) {
      audioFailed = true;
      audio = null;
      return null;
    }
  }

  function click(sound, at, loudness) {
    const context = sound.context;
    // A dry tick: band-passed noise with a fast decay...
    const source = context.createBufferSource();
    source.buffer = sound.noise;
    const band = context.createBiquadFilter();
    band.type = "bandpass";
    band.frequency.value = 1800 + Math.random() * 2600;
    band.Q.value = 1.5 + Math.random() * 2;
    const envelope = context.createGain();
    const length = 0.012 + Math.random() * 0.02;
    envelope.gain.setValueAtTime(0.0001, at);
    envelope.gain.exponentialRampToValueAtTime(loudness, at + 0.002);
    envelope.gain.exponentialRampToValueAtTime(0.0001, at + length);
    source.connect(band).connect(envelope).connect(sound.out);
    source.start(at);
    source.stop(at + length + 0.01);
    // ...over a low knock of the die meeting the felt.
    const knock = context.createOscillator();
    knock.type = "triangle";
    knock.frequency.setValueAtTime(180 + Math.random() * 120, at);
    knock.frequency.exponentialRampToValueAtTime(90, at + 0.03);
    const body = context.createGain();
    body.gain.setValueAtTime(0.0001, at);
    body.gain.exponentialRampToValueAtTime(loudness * 0.6, at + 0.003);
    body.gain.exponentialRampToValueAtTime(0.0001, at + 0.035);
    knock.connect(body).connect(sound.out);
    knock.start(at);
    knock.stop(at + 0.045);
  }

  function rattle() {
    const sound = ensureAudio();
    if (!sound) return;
    try {
      const start = sound.context.currentTime + 0.01;
      const count = 4 + Math.floor(Math.random() * 4); // 4 to 7 clicks
      const times = [0];
      for (let i = 1; i < count; i++) times.push(Math.random() * 0.25);
      times.sort(function (a, b) {
        return a - b;
      });
      times.forEach(function (offset, i) {
        // Loud first contact, then the dice settle.
        click(sound, start + offset, Math.max(0.15, 0.9 - i * 0.12) * (0.7 + Math.random() * 0.3));
      });
      fx.sounds += 1;
    } catch (error) {
      // Web Audio misbehaving must never break the game.
    }
  }

  // A short fanfare for a Yahtzee, the upper bonus or the end of the game: a rising arpeggio
  // of soft bell tones, longer for the bigger news.
  const FANFARES = {
    yahtzee: [523.25, 659.25, 783.99, 1046.5, 1318.5],
    "upper-bonus": [587.33, 739.99, 880],
    "game-over": [392, 523.25, 659.25, 783.99],
    "high-score": [523.25, 783.99, 1046.5, 1567.98],
  };

  function fanfare(kind) {
    const sound = ensureAudio();
    const notes = FANFARES[kind];
    if (!sound || !notes) return;
    try {
      const context = sound.context;
      const start = context.currentTime + 0.05;
      notes.forEach(function (frequency, i) {
        const at = start + i * 0.11;
        const tone = context.createOscillator();
        tone.type = "sine";
        tone.frequency.setValueAtTime(frequency, at);
        const envelope = context.createGain();
        envelope.gain.setValueAtTime(0.0001, at);
        envelope.gain.exponentialRampToValueAtTime(0.5, at + 0.015);
        envelope.gain.exponentialRampToValueAtTime(0.0001, at + 0.5);
        tone.connect(envelope).connect(sound.out);
        tone.start(at);
        tone.stop(at + 0.55);
      });
      fx.fanfares = (fx.fanfares || 0) + 1;
    } catch (error) {
      // Web Audio misbehaving must never break the game.
    }
  }

  // Browsers let a page make sound only after a gesture: open the audio then.
  function onGesture(event) {
    if (event.type === "keydown" && (event.ctrlKey || event.metaKey || event.altKey)) return;
    ensureAudio();
  }
  document.addEventListener("pointerdown", onGesture, true);
  document.addEventListener("keydown", onGesture, true);

  // --- When a roll's answer is swapped in ------------------------------------------------

  document.addEventListener("htmx:afterSwap", function (event) {
    const elt = event.detail && event.detail.elt;
    // A roll answers with the tray (its rows and news come out of band); a score, with the
    // whole form. The same swap also reports the out-of-band pieces: use the tray or form only.
    if (!(elt instanceof Element) || !elt.matches("[data-game-form], #tray")) return;
    const news = elt.querySelector("[data-celebrations] [data-celebrate]");
    if (news && soundOn()) fanfare(news.dataset.celebrate);
    if (!isRollAnswer(event.detail)) return;
    if (motionAllowed()) tumble(elt);
    if (soundOn()) rattle();
  });

  // Another player rolled (live.js heard it and drew their dice): the dice tumble here too,
  // without the rattle, which is the roller's own.
  document.addEventListener("yahtzee:rolled", function (event) {
    const form = event.target;
    if (form instanceof Element && motionAllowed()) tumble(form);
    fx.othersRolls = (fx.othersRolls || 0) + 1;
  });
})();
