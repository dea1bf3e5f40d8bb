/**
 * sounds.js — the match page's sounds, made on the spot with Web Audio (no files to load):
 * "move" (someone else moved), "score" (a score went up), "turn" (it is your turn) and
 * "low" (your clock is running low). The mute switch is remembered in localStorage for
 * every game. Browsers let a page make sound only after the player has touched it; until
 * then nothing plays, and nothing is queued.
 */

const KEY = "sound";

// Each sound: [frequency Hz, start s, length s] tones.
const TONES = {
  move: [[520, 0, 0.07]],
  score: [[660, 0, 0.09], [880, 0.09, 0.14]],
  turn: [[440, 0, 0.1], [660, 0.12, 0.16]],
  low: [[980, 0, 0.06], [980, 0.12, 0.06]],
};

function remembered() {
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return true;
  }
}

export function createSounds() {
  let on = remembered();
  let ctx = null;

  function context() {
    if (ctx === null) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return null;
      ctx = new Ctx();
    }
    return ctx;
  }

  // The first touch or key unlocks audio (the browser's rule).
  const unlock = () => {
    const c = context();
    if (c && c.state === "suspended") c.resume().catch(() => {});
  };
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, unlock, { once: true, capture: true });

  function play(kind) {
    if (!on || !TONES[kind]) return;
    const c = ctx; // made by a touch only: never the first thing a page does
    if (!c || c.state !== "running") return;
    const now = c.currentTime;
    for (const [freq, start, length] of TONES[kind]) {
      const osc = c.createOscillator();
      const gain = c.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.12, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(c.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
  }

  function setOn(value) {
    on = !!value;
    try {
      localStorage.setItem(KEY, on ? "on" : "off");
    } catch {
      /* private mode: for this page only */
    }
  }

  return {
    play,
    get on() {
      return on;
    },
    setOn,
  };
}
