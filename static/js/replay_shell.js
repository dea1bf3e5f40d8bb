/**
 * replay_shell.js — the replay viewer of every game (templates/games/replay_table.html).
 *
 * Two ways in, told by the page's json_script "replay-data" (games/web/pages.py):
 * - mode "match": a finished match; its frames come from `frames_url`
 *   (GET /api/matches/<id>/frames) and `module` is the game's replay module;
 * - mode "upload" (/replay/): the user picks a record file; its `format` picks the game
 *   (`formats`: format -> {game, name, module}); the text is POSTed to /api/replay and
 *   the frames that come back are shown.
 *
 * The shell knows no game. It draws the step counter, the action text, the scores per
 * seat, the controls (first / previous / play-pause / next / last, a slider; keys:
 * Left/Right, Home/End, Space), and leaves the position to the game's module:
 *
 *   const board = (await import(module)).mount(element, viewer);
 *   board.show(frame, index, data);            // on every step: draw frame `index`
 *   board.describe?.(frame, index, data)       // -> "text" | {text, tag, badge, note}
 *   board.scores?.(frame, index, data)         // -> the score of each seat after it
 *   board.result?.(data)                       // -> the result in words
 *
 * `viewer` offers t(key, params) (the page's translated strings), nameOf(seat), seats,
 * data, index and go(index). No user-facing English lives here: every string comes
 * from "replay-data". The frames are the game plugin's `frames(record)`.
 *
 * A finished match's game review (static/js/replay_review.js) follows the viewer, the
 * game's module wording its actions: board.actionText?.(action) -> "text".
 */

import { mountReview } from "./replay_review.js";

const $ = (id) => document.getElementById(id);
const DATA = JSON.parse($("replay-data").textContent);
const STR = { ...(DATA.strings || {}) };
const PLAY_MS = 1000;

function t(key, params = {}) {
  const text = STR[key] ?? key;
  return String(text).replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

const el = {
  page: $("replay-page"),
  root: $("replay"),
  error: $("replay-error"),
  warning: $("replay-warning"),
  loading: $("replay-loading"),
  board: $("replay-board-root"),
  step: $("replay-step"),
  tag: $("replay-tag"),
  action: $("replay-action"),
  note: $("replay-note"),
  first: $("replay-first"),
  prev: $("replay-prev"),
  play: $("replay-play"),
  next: $("replay-next"),
  last: $("replay-last"),
  slider: $("replay-slider"),
  scores: $("replay-scores"),
  final: $("replay-final"),
  file: $("replay-file"),
  fileName: $("replay-file-name"),
  drop: $("replay-drop"),
};

const S = {
  data: null, // the frames answer
  index: 0,
  names: [],
  module: "", // the URL of the module mounted
  board: null,
  game: DATA.game || "",
  ranks: null, // the final ranks, shown on the last step
  timer: null,
};

// ------------------------------------------------------------------------ helpers

function showError(message) {
  el.error.textContent = message || "";
  el.error.hidden = !message;
}

function showWarning(message) {
  el.warning.textContent = message || "";
  el.warning.hidden = !message;
}

/** Display names; a name several seats share (the computer) gets its seat's number. */
function setNames(names) {
  const count = {};
  for (const n of names) count[n] = (count[n] || 0) + 1;
  const seen = {};
  S.names = names.map((n) => {
    if (!n || count[n] < 2) return n;
    seen[n] = (seen[n] || 0) + 1;
    return t("name_n", { name: n, n: seen[n] });
  });
}

function nameOf(seat) {
  if (seat === null || seat === undefined) return "";
  return S.names[seat] || t("seat_n", { n: Number(seat) + 1 });
}

const seatCount = () => (S.data && Array.isArray(S.data.players) ? S.data.players.length : S.names.length);

const viewer = {
  t,
  nameOf,
  go: (index) => go(index),
  get seats() {
    return seatCount();
  },
  get data() {
    return S.data;
  },
  get index() {
    return S.index;
  },
  get game() {
    return S.game;
  },
};

// ------------------------------------------------------------------------ the game's module

async function mountModule(url, game) {
  if (S.board && S.module === url) return;
  el.board.replaceChildren();
  S.board = null;
  S.module = url;
  S.game = game || S.game;
  el.board.dataset.game = S.game;
  const mod = await import(url);
  S.board = mod.mount(el.board, viewer);
}

function scoresOf(frame, index) {
  const board = S.board;
  const from = board && typeof board.scores === "function" ? board.scores(frame, index, S.data) : null;
  const list = from ?? frame.scores ?? frame.totals;
  return Array.isArray(list) ? list : [];
}

function describe(frame, index) {
  const board = S.board;
  const said = board && typeof board.describe === "function" ? board.describe(frame, index, S.data) : null;
  if (said && typeof said === "object") return said;
  return { text: said ? String(said) : "" };
}

// ------------------------------------------------------------------------ the result

function rankList() {
  if (DATA.mode === "match") {
    const ranks = Array.isArray(DATA.ranks) ? DATA.ranks : [];
    return ranks.some((r) => r != null) ? ranks : null;
  }
  const ranks = S.data && S.data.result && S.data.result.ranks;
  return Array.isArray(ranks) ? ranks : null;
}

function resultText() {
  if (DATA.mode === "match") {
    if (DATA.status === "annulled") return t("result_annulled");
    if (DATA.status === "aborted") return t("result_aborted");
  }
  const board = S.board;
  const said = board && typeof board.result === "function" ? board.result(S.data) : "";
  if (said) return said;
  const ranks = rankList();
  if (!ranks) return t("result_none");
  const first = ranks.map((r, s) => (r === 1 ? s : -1)).filter((s) => s >= 0);
  if (first.length === 1) return t("result_win", { name: nameOf(first[0]) });
  return t("result_shared");
}

// ------------------------------------------------------------------------ drawing

function buildScoreRows() {
  const rows = [];
  for (let seat = 0; seat < seatCount(); seat += 1) {
    const tr = document.createElement("tr");
    tr.className = `rt-score seat-${seat}`;
    tr.dataset.seat = String(seat);
    const who = document.createElement("th");
    who.scope = "row";
    const dot = document.createElement("span");
    dot.className = "seat-dot rt-dot";
    dot.setAttribute("aria-hidden", "true");
    const name = document.createElement("span");
    name.className = "rt-score__name";
    name.dataset.testid = `replay-name-${seat}`;
    name.textContent = nameOf(seat);
    const rank = document.createElement("span");
    rank.className = "badge rt-score__rank";
    rank.dataset.testid = `replay-rank-${seat}`;
    rank.hidden = true;
    who.append(dot, name, rank);
    const value = document.createElement("td");
    value.className = "rt-score__value";
    value.dataset.testid = `replay-score-${seat}`;
    const delta = document.createElement("td");
    delta.className = "rt-score__delta";
    delta.dataset.testid = `replay-delta-${seat}`;
    tr.append(who, value, delta);
    rows.push(tr);
  }
  el.scores.replaceChildren(...rows);
}

function renderScores(frame, index) {
  const now = scoresOf(frame, index);
  const before = index > 0 ? scoresOf(S.data.frames[index - 1], index - 1) : [];
  const acting = frame.action ? frame.action.seat : null;
  const last = index === S.data.frames.length - 1;
  const ranks = last ? rankList() : null;
  for (const tr of el.scores.children) {
    const seat = Number(tr.dataset.seat);
    const value = now[seat];
    const prev = before[seat] ?? (typeof value === "number" ? 0 : null);
    const change = typeof value === "number" && typeof prev === "number" ? value - prev : 0;
    tr.querySelector(".rt-score__value").textContent = value == null ? "–" : String(value);
    const delta = tr.querySelector(".rt-score__delta");
    delta.textContent = change > 0 ? t("delta_up", { n: change }) : change < 0 ? t("delta_down", { n: -change }) : "";
    tr.classList.toggle("is-up", change > 0);
    tr.classList.toggle("is-down", change < 0);
    tr.classList.toggle("is-acting", acting === seat);
    const rank = tr.querySelector(".rt-score__rank");
    const r = ranks ? ranks[seat] : null;
    rank.hidden = r == null;
    rank.textContent = r == null ? "" : t("rank_n", { rank: r });
    tr.classList.toggle("is-winner", r === 1);
  }
}

function render() {
  const frames = S.data.frames;
  const n = frames.length;
  const i = S.index;
  const frame = frames[i];
  try {
    S.board.show(frame, i, S.data);
  } catch (err) {
    console.error("replay module failed", err);
  }
  el.step.textContent = t("step", { n: i + 1, total: n });
  const said = describe(frame, i);
  el.tag.textContent = said.tag || "";
  el.tag.hidden = !said.tag;
  el.action.replaceChildren();
  const seat = frame.action ? frame.action.seat : null;
  if (seat !== null && seat !== undefined) {
    const dot = document.createElement("span");
    dot.className = `seat-dot rt-dot seat-${seat}`;
    dot.setAttribute("aria-hidden", "true");
    el.action.append(dot);
  }
  el.action.append(document.createTextNode(said.text || ""));
  if (said.badge) {
    const badge = document.createElement("span");
    badge.className = "rp-action__points";
    badge.textContent = said.badge;
    el.action.append(" ", badge);
  }
  el.note.textContent = said.note || "";
  el.note.hidden = !said.note;
  renderScores(frame, i);
  el.final.classList.toggle("rp-result--now", i === n - 1);

  el.first.disabled = el.prev.disabled = i === 0;
  el.next.disabled = el.last.disabled = i === n - 1;
  el.slider.max = String(n);
  el.slider.value = String(i + 1);
  el.slider.setAttribute("aria-valuetext", t("step", { n: i + 1, total: n }));
  el.root.dataset.index = String(i);
  document.dispatchEvent(new CustomEvent("replay:step", { detail: i })); // the review follows
}

function go(index, { keepPlaying = false } = {}) {
  if (!S.data || !S.board) return;
  if (!keepPlaying) pause();
  const n = S.data.frames.length;
  const next = Math.max(0, Math.min(n - 1, index));
  if (next === S.index && el.root.dataset.index === String(next)) return;
  S.index = next;
  render();
}

// ------------------------------------------------------------------------ play and pause

function setPlaying(on) {
  el.play.setAttribute("aria-pressed", on ? "true" : "false");
  el.play.setAttribute("aria-label", on ? t("pause") : t("play"));
  el.play.classList.toggle("is-playing", on);
}

function pause() {
  if (S.timer === null) return;
  clearInterval(S.timer);
  S.timer = null;
  setPlaying(false);
}

function play() {
  if (!S.data || S.timer !== null) return;
  const n = S.data.frames.length;
  if (S.index >= n - 1) go(0);
  S.timer = setInterval(() => {
    if (S.index >= S.data.frames.length - 1) {
      pause();
      return;
    }
    go(S.index + 1, { keepPlaying: true });
  }, PLAY_MS);
  setPlaying(true);
}

const toggle = () => (S.timer === null ? play() : pause());

// ------------------------------------------------------------------------ showing a replay

function show(data, names) {
  pause();
  S.data = data;
  S.index = 0;
  setNames(names && names.length ? names : data.players || []);
  S.ranks = rankList();
  if (data.error) {
    const e = data.error;
    const where = { hand: (e.hand ?? 0) + 1, index: (e.index ?? 0) + 1, reason: e.reason ?? "" };
    showWarning(e.hand != null ? t("record_error_hand", where) : t("record_error", where));
  } else {
    showWarning("");
  }
  if (!Array.isArray(data.frames) || data.frames.length === 0) {
    el.root.hidden = true;
    showError(t("no_frames"));
    return;
  }
  showError("");
  el.root.hidden = false;
  el.root.dataset.game = S.game;
  el.page.dataset.seats = String(seatCount());
  buildScoreRows();
  el.final.textContent = resultText();
  delete el.root.dataset.index;
  render();
  el.root.dataset.ready = "1";
}

// ------------------------------------------------------------------------ input

el.first.addEventListener("click", () => go(0));
el.prev.addEventListener("click", () => go(S.index - 1));
el.next.addEventListener("click", () => go(S.index + 1));
el.last.addEventListener("click", () => go(Infinity));
el.play.addEventListener("click", toggle);
el.slider.addEventListener("input", () => go(Number(el.slider.value) - 1));

document.addEventListener("keydown", (ev) => {
  if (!S.data || el.root.hidden) return;
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const target = ev.target;
  if (target instanceof HTMLElement) {
    if (target === el.slider && ev.key !== " ") return; // the slider has its own arrows
    if (target.isContentEditable || ["SELECT", "TEXTAREA"].includes(target.tagName)) return;
    if (target.tagName === "INPUT" && target.type !== "file" && target.type !== "range") return;
    // Space on a button presses it (play among them): leave it alone.
    if (ev.key === " " && (target.tagName === "BUTTON" || target.getAttribute("role") === "button")) return;
  }
  const moves = { ArrowLeft: -1, ArrowRight: 1 };
  if (ev.key in moves) go(S.index + moves[ev.key]);
  else if (ev.key === "Home") go(0);
  else if (ev.key === "End") go(Infinity);
  else if (ev.key === " ") toggle();
  else return;
  ev.preventDefault();
});

// ------------------------------------------------------------------------ loading

async function fetchFrames(url, init = {}) {
  const response = await fetch(url, {
    ...init,
    credentials: "same-origin",
    headers: { Accept: "application/json", ...(init.headers || {}) },
  });
  const data = await response.json().catch(() => null);
  if (!response.ok || !data || data.ok === false) throw new Error(data?.message || t("load_error"));
  return data;
}

async function loadMatch() {
  el.loading.hidden = false;
  try {
    const [data] = await Promise.all([
      fetchFrames(DATA.frames_url).catch((err) => {
        throw err instanceof TypeError ? new Error(t("network_error")) : err;
      }),
      mountModule(DATA.module, DATA.game).catch((err) => {
        console.error("replay module failed", err);
        throw new Error(t("module_error"));
      }),
    ]);
    show(data, DATA.names);
    mountReview($("replay-review"), {
      matchId: DATA.match,
      viewer,
      actionText: (action) => (typeof S.board?.actionText === "function" ? S.board.actionText(action) : ""),
    });
  } catch (err) {
    showError(err.message || t("load_error"));
  } finally {
    el.loading.hidden = true;
  }
}

function formatOf(text) {
  try {
    const doc = JSON.parse(text);
    return doc && typeof doc === "object" && typeof doc.format === "string" ? doc.format : null;
  } catch {
    return null; // not JSON: the server says what is wrong with it
  }
}

async function openText(text) {
  const format = formatOf(text);
  window.replayRecordText = text; // fairness_verify.js: the record, whenever it loads
  document.dispatchEvent(new CustomEvent("replay:record", { detail: text }));
  const entry = (DATA.formats || {})[format];
  el.loading.textContent = t("reading");
  el.loading.hidden = false;
  try {
    const [data] = await Promise.all([
      fetchFrames("/api/replay", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: text,
      }).catch((err) => {
        throw err instanceof TypeError ? new Error(t("network_error")) : err;
      }),
      entry ? mountModule(entry.module, entry.game).catch((err) => {
        console.error("replay module failed", err);
        throw new Error(t("module_error"));
      }) : Promise.resolve(),
    ]);
    if (!entry) throw new Error(t("load_error")); // the server read a format no module draws
    show(data, data.players);
  } catch (err) {
    el.root.hidden = true;
    showError(err.message || t("load_error"));
  } finally {
    el.loading.hidden = true;
  }
}

async function upload(file) {
  if (!file) return;
  pause();
  showError("");
  showWarning("");
  el.root.hidden = true;
  delete el.root.dataset.ready;
  S.data = null;
  if (file.size > (DATA.max_bytes || 2_000_000)) {
    showError(t("too_large"));
    return;
  }
  await openText(await file.text());
}

if (DATA.mode === "match") {
  loadMatch();
} else if (el.file) {
  el.file.addEventListener("change", () => {
    el.fileName.textContent = ""; // the input names its file itself
    upload(el.file.files?.[0]);
  });
  if (el.drop) {
    for (const type of ["dragenter", "dragover"]) {
      el.drop.addEventListener(type, (ev) => {
        ev.preventDefault();
        el.drop.classList.add("rp-drop--over");
      });
    }
    for (const type of ["dragleave", "drop"]) {
      el.drop.addEventListener(type, () => el.drop.classList.remove("rp-drop--over"));
    }
    el.drop.addEventListener("drop", (ev) => {
      ev.preventDefault();
      const file = ev.dataTransfer?.files?.[0];
      if (file) el.fileName.textContent = file.name; // the file input does not show a dropped file
      upload(file);
    });
  }
}

/** For the browser tests: what is shown, read-only. */
window.replayPage = {
  get index() {
    return S.index;
  },
  get frames() {
    return S.data ? S.data.frames.length : 0;
  },
  get game() {
    return S.game;
  },
  get playing() {
    return S.timer !== null;
  },
};
