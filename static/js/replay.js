/**
 * replay.js — the replay viewer (templates/games/replay.html).
 *
 * Two ways in:
 * - a finished match: #replay has data-frames-url (/api/matches/<id>/frames); the frames
 *   are fetched and shown;
 * - the upload page (/replay/): the user picks a record file; its text is POSTed to
 *   /api/replay (with the CSRF token) and the frames that come back are shown. A bad file
 *   gets the server's message ({ok: false, message}) and no viewer.
 *
 * The frames (games/spectacular_bid/frames.py): one per applied action, all hands open:
 *   {action: {hand, seat, type, tile?, target?, port?, amount?, points, balances, forced?},
 *    hand_no, phase, balances, banks, board, hands: [[...], [...]], boneyard_count, jockey}
 *
 * Keys: Left/Right step, Home/End first/last. No user-facing English lives here: every
 * string comes from the translated JSON block #replay-i18n.
 */

import { renderBoard, renderHand } from "./board.js";
import { lineChart } from "./charts.js";

const $ = (id) => document.getElementById(id);

let STR = {};
try {
  STR = JSON.parse($("replay-i18n")?.textContent || "{}");
} catch {
  STR = {};
}

/** A translated string with {placeholders} filled in. */
function t(key, params = {}) {
  const s = STR[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

const EMPTY_BOARD = { tiles: [], spinner: null, ends_sum: 0, places: [] };

const el = {
  root: $("replay"),
  error: $("replay-error"),
  warning: $("replay-warning"),
  loading: $("replay-loading"),
  board: $("replay-board"),
  handNo: $("replay-hand-no"),
  phase: $("replay-phase"),
  ends: $("replay-ends"),
  boneyard: $("replay-boneyard"),
  step: $("replay-step"),
  action: $("replay-action"),
  handEnd: $("replay-hand-end"),
  first: $("replay-first"),
  prev: $("replay-prev"),
  next: $("replay-next"),
  last: $("replay-last"),
  slider: $("replay-slider"),
  hands: $("replay-hands"),
  final: $("replay-final"),
  chart: $("balance-chart"),
  chartNote: $("balance-chart-note"),
  file: $("replay-file"),
  fileName: $("replay-file-name"),
  drop: $("replay-drop"),
};

const state = {
  data: null,
  names: ["", ""],
  index: 0, // 0-based frame index
  handStarts: [], // frame index where each hand's first action is
  handLasts: [], // frame index of each hand's last action
  chart: null,
};

// ------------------------------------------------------------------------ helpers

function showError(message) {
  el.error.textContent = message;
  el.error.hidden = !message;
}

function showWarning(message) {
  el.warning.textContent = message;
  el.warning.hidden = !message;
}

function fmtClock(sec) {
  if (!(sec > 0)) return "0:00";
  const total = Math.floor(sec + 1e-6);
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}

function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

function nameOf(seat) {
  if (seat === null || seat === undefined) return "";
  return state.names[seat] || t(`player_${seat}`);
}

function portName(port) {
  return STR[`port_${port}`] ?? port;
}

/** The tile that appeared in `seat`'s hand between two frames (a draw). */
function drawnTile(frame, before, seat) {
  if (!before) return null;
  const had = new Set(before.hands?.[seat] || []);
  return (frame.hands?.[seat] || []).find((tile) => !had.has(tile)) ?? null;
}

/** The action as a sentence, and the points badge. */
function describe(index) {
  const frame = state.data.frames[index];
  const before = index > 0 ? state.data.frames[index - 1] : null;
  const a = frame.action || {};
  const name = nameOf(a.seat);
  let text;
  let badge = "";
  switch (a.type) {
    case "play":
      text = a.target ? t("play", { name, tile: a.tile, target: a.target, port: portName(a.port) })
        : t("open", { name, tile: a.tile });
      if (a.points) badge = t("gain", { points: a.points });
      break;
    case "draw": {
      const tile = drawnTile(frame, before, a.seat);
      text = tile ? t("draw", { name, tile }) : t("draw_hidden", { name });
      break;
    }
    case "pass":
      text = a.forced ? t("forced_pass", { name }) : t("pass", { name });
      break;
    case "bid":
      text = t("bid", { name, amount: a.amount });
      break;
    case "accept":
      text = t("accept", { name });
      if (a.points) badge = t("paid", { points: a.points });
      break;
    case "decline":
    case "continue":
    case "reveal":
    case "resign":
    case "abort":
      text = t(a.type, { name });
      break;
    default:
      text = t("unknown", { name, type: a.type });
  }
  const forced = a.forced && a.type !== "pass";
  return { text, badge, forced };
}

function handEndText(h) {
  const summary = state.data.hands?.[h];
  if (!summary || !summary.end) return "";
  if (summary.end === "domino") {
    const lastFrame = state.data.frames[state.handLasts[h]];
    return t("end_domino", { name: nameOf(lastFrame?.action?.seat) });
  }
  if (summary.end === "blocked") {
    if (summary.sums) {
      return t("end_blocked", { a: summary.sums[0], b: summary.sums[1], points: summary.settlement ?? 0 });
    }
    return t("end_blocked_short");
  }
  if (summary.end === "match_over") return t("end_match_over");
  return summary.end;
}

/** The result: a stored match's own (it knows an annulment, which its record does not),
 * else the replayed record's. */
function matchResult() {
  const ds = el.root.dataset;
  if (ds.status && ds.status !== "active") {
    return { winner: ds.winner === "" || ds.winner === undefined ? null : Number(ds.winner), reason: ds.reason || ds.status };
  }
  return state.data.result || {};
}

function resultText() {
  const r = matchResult();
  if (r.reason === "annulled" || r.reason === "annul") return t("result_annulled");
  if (r.winner === null || r.winner === undefined) {
    return r.reason ? t("result_abort") : t("result_none");
  }
  const name = nameOf(r.winner);
  if (["points", "time", "resign"].includes(r.reason)) return t(`result_${r.reason}`, { name });
  return t("result_other", { name, reason: r.reason });
}

// ------------------------------------------------------------------------ drawing

function drawHandsList() {
  const frag = document.createDocumentFragment();
  (state.data.hands || []).forEach((summary, h) => {
    const start = state.handStarts[h];
    if (start === undefined) return;
    const li = document.createElement("li");
    li.className = "rp-hands__item";
    const btn = document.createElement("button");
    btn.type = "button";
    btn.className = "rp-hands__btn";
    btn.dataset.hand = String(h);
    const title = document.createElement("span");
    title.className = "rp-hands__title";
    title.textContent = t("hand", { n: h + 1 });
    const opening = document.createElement("span");
    opening.className = "rp-hands__opening";
    opening.textContent = summary.jockey === null || summary.jockey === undefined
      ? t("opening_hierarchy") : t("opening_auction");
    const end = document.createElement("span");
    end.className = "rp-hands__end";
    end.textContent = summary.end ? handEndText(h) : t("end_running");
    const bal = state.data.balances_by_hand?.[h + 1];
    const score = document.createElement("span");
    score.className = "rp-hands__score";
    if (bal) score.textContent = `${bal[0]}–${bal[1]}`;
    btn.append(title, opening, score, end);
    btn.addEventListener("click", () => go(start));
    li.append(btn);
    frag.append(li);
  });
  el.hands.replaceChildren(frag);
}

function balanceChartOptions() {
  const data = state.data;
  const start = data.rules?.start_points ?? 150;
  const total = 2 * start;
  const points = [[0, start]];
  data.frames.forEach((f, i) => points.push([i + 1, f.balances?.[0] ?? f.action?.balances?.[0] ?? start]));
  const handEnds = [];
  state.handLasts.forEach((last, h) => {
    const bal = data.balances_by_hand?.[h + 1];
    if (bal && data.hands?.[h]?.end) handEnds.push([last + 1, bal[0]]);
  });
  const vLines = state.handStarts
    .map((s, h) => ({ x: s + 0.5, label: t("hand_short", { n: h + 1 }), className: "chart-vline--hand" }))
    .filter((v, h) => h > 0 || state.handStarts.length > 1);
  const n = data.frames.length;
  return {
    title: t("chart_title", { a: nameOf(0), b: nameOf(1) }),
    height: 230,
    series: [
      { points, className: "chart-line--balance", step: true, fillTo: start, fillAbove: "chart-area--seat0", fillBelow: "chart-area--seat1" },
      // a dot at each hand's end, while there are few enough to tell apart
      { points: handEnds.length <= 40 ? handEnds : [], className: "chart-line--none chart-dots--hand", dots: true },
    ],
    x: { min: 0, max: Math.max(1, n), integer: true, label: t("chart_x") },
    y: { min: 0, max: total, ticks: [0, start / 2, start, start * 1.5, total] },
    refLines: [{ y: start, label: t("chart_start"), className: "chart-ref--centre" }],
    vLines,
    edgeLabels: { top: t("chart_ahead", { name: nameOf(0) }), bottom: t("chart_ahead", { name: nameOf(1) }) },
    marker: { x: state.index + 1, y: points[state.index + 1]?.[1] },
    onPick: (x) => go(Math.max(0, Math.round(x) - 1)),
  };
}

function render() {
  const data = state.data;
  const frames = data.frames;
  const n = frames.length;
  const i = state.index;
  const frame = frames[i];
  const before = i > 0 ? frames[i - 1] : null;
  const a = frame.action || {};
  const hand = a.hand ?? frame.hand_no ?? 0;

  // Board
  const lastTile = a.type === "play" ? a.tile : null;
  renderBoard(el.board, frame.board || EMPTY_BOARD, { lastTile, showValues: true });
  el.ends.textContent = String(frame.board?.ends_sum ?? 0);
  el.boneyard.textContent = String(frame.boneyard_count ?? 0);
  el.handNo.textContent = t("hand", { n: hand + 1 });
  el.phase.textContent = STR[`phase_${frame.phase}`] ?? frame.phase ?? "";
  el.phase.hidden = !frame.phase;

  // Seats: name, balance, bank, hand
  for (const seat of [0, 1]) {
    const tiles = frame.hands?.[seat] || [];
    const drawn = a.type === "draw" && a.seat === seat ? drawnTile(frame, before, seat) : null;
    renderHand($(`replay-hand-${seat}`), tiles, drawn ? { selected: drawn } : {});
    $(`replay-name-${seat}`).textContent = nameOf(seat);
    $(`replay-balance-${seat}`).textContent = String(frame.balances?.[seat] ?? "–");
    $(`replay-bank-${seat}`).textContent = fmtClock(frame.banks?.[seat]);
    $(`replay-count-${seat}`).textContent = tiles.length === 1 ? t("tile_one") : t("tiles", { n: tiles.length });
    $(`replay-jockey-${seat}`).hidden = frame.jockey !== seat;
    const box = $(`replay-seat-${seat}`);
    box.classList.toggle("rp-seat--acting", a.seat === seat);
    const prevBal = before ? before.balances?.[seat] : data.rules?.start_points;
    const delta = (frame.balances?.[seat] ?? 0) - (prevBal ?? 0);
    box.classList.toggle("rp-seat--up", delta > 0);
    box.classList.toggle("rp-seat--down", delta < 0);
  }

  // What happened
  el.step.textContent = t("step", { n: i + 1, total: n });
  const { text, badge, forced } = describe(i);
  el.action.replaceChildren();
  const newHand = i === 0 || (before && (before.action?.hand ?? 0) !== hand);
  if (newHand) {
    const tag = document.createElement("span");
    tag.className = "rp-action__hand";
    tag.textContent = t("hand", { n: hand + 1 });
    el.action.append(tag, " ");
  }
  if (a.seat !== null && a.seat !== undefined) {
    const dot = document.createElement("span");
    dot.className = `pg-dot pg-dot--${a.seat}`;
    dot.setAttribute("aria-hidden", "true");
    el.action.append(dot);
  }
  el.action.append(document.createTextNode(text));
  if (forced) {
    const f = document.createElement("span");
    f.className = "rp-action__forced";
    f.textContent = t("forced");
    el.action.append(" ", f);
  }
  if (badge) {
    const b = document.createElement("span");
    b.className = `rp-action__points${a.type === "accept" ? " rp-action__points--paid" : ""}`;
    b.textContent = badge;
    el.action.append(" ", b);
  }
  // The hand's end, on its last action
  const endText = state.handLasts[hand] === i ? handEndText(hand) : "";
  el.handEnd.textContent = endText ? t("hand_over", { n: hand + 1, what: endText }) : "";
  el.handEnd.hidden = !endText;
  el.final.classList.toggle("rp-result--now", i === n - 1);

  // Controls
  el.first.disabled = el.prev.disabled = i === 0;
  el.next.disabled = el.last.disabled = i === n - 1;
  el.slider.max = String(n);
  el.slider.value = String(i + 1);
  el.slider.setAttribute("aria-valuetext", t("step", { n: i + 1, total: n }));
  for (const btn of el.hands.querySelectorAll("button[data-hand]")) {
    const current = Number(btn.dataset.hand) === hand;
    btn.setAttribute("aria-current", current ? "true" : "false");
    if (current) {
      // keep the current hand visible in the list (without scrolling the page)
      const item = btn.parentElement;
      const list = el.hands;
      if (item.offsetTop < list.scrollTop) list.scrollTop = item.offsetTop;
      else if (item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight;
      }
    }
  }

  // Chart marker
  if (state.chart) state.chart.update({ marker: { x: i + 1, y: frame.balances?.[0] } });
}

function go(index) {
  if (!state.data) return;
  const n = state.data.frames.length;
  const next = Math.max(0, Math.min(n - 1, index));
  if (next === state.index && el.step.textContent) return;
  state.index = next;
  render();
}

function show(data, names) {
  state.data = data;
  state.names = names && names.length === 2 ? names : data.players || ["", ""];
  state.index = 0;
  state.handStarts = [];
  state.handLasts = [];
  (data.frames || []).forEach((f, i) => {
    const h = f.action?.hand ?? f.hand_no ?? 0;
    if (state.handStarts[h] === undefined) state.handStarts[h] = i;
    state.handLasts[h] = i;
  });
  if (data.error) {
    showWarning(t("record_error", {
      hand: (data.error.hand ?? 0) + 1, index: (data.error.index ?? 0) + 1, reason: data.error.reason ?? "",
    }));
  } else {
    showWarning("");
  }
  if (!data.frames || data.frames.length === 0) {
    el.root.hidden = true;
    showError(t("no_frames"));
    return;
  }
  showError("");
  el.root.hidden = false;
  el.final.textContent = resultText();
  drawHandsList();
  el.step.textContent = "";
  render();
  el.chartNote.textContent = t("chart_note");
  if (state.chart) state.chart.destroy();
  state.chart = lineChart(el.chart, balanceChartOptions());
  el.root.dataset.ready = "1";
}

// ------------------------------------------------------------------------ input

el.first.addEventListener("click", () => go(0));
el.prev.addEventListener("click", () => go(state.index - 1));
el.next.addEventListener("click", () => go(state.index + 1));
el.last.addEventListener("click", () => go(Infinity));
el.slider.addEventListener("input", () => go(Number(el.slider.value) - 1));

document.addEventListener("keydown", (ev) => {
  if (!state.data || el.root.hidden) return;
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const target = ev.target;
  if (target instanceof HTMLElement) {
    if (target === el.slider) return; // the slider handles its own arrows
    if (target.isContentEditable || ["SELECT", "TEXTAREA"].includes(target.tagName)) return;
    // a file input (focused after a record was chosen) has no use for these keys
    if (target.tagName === "INPUT" && target.type !== "file") return;
  }
  const moves = { ArrowLeft: -1, ArrowRight: 1 };
  if (ev.key in moves) go(state.index + moves[ev.key]);
  else if (ev.key === "Home") go(0);
  else if (ev.key === "End") go(Infinity);
  else return;
  ev.preventDefault();
});

// ------------------------------------------------------------------------ loading

/** Fetch frames (request options built by `makeInit`, awaited inside the guard) and show them. */
async function showFrom(url, makeInit = async () => ({})) {
  try {
    const init = await makeInit();
    const response = await fetch(url, {
      ...init,
      credentials: "same-origin",
      headers: { Accept: "application/json", ...init.headers },
    });
    const data = await response.json().catch(() => null);
    if (!response.ok || !data || data.ok === false) {
      showError(data?.message || t("load_error"));
      return;
    }
    show(data, data.players);
  } catch {
    showError(t("network_error"));
  } finally {
    el.loading.hidden = true;
  }
}

async function loadMatch(url) {
  el.loading.hidden = false;
  await showFrom(url);
}

const MAX_BYTES = 2_000_000;

async function upload(file) {
  if (!file) return;
  showError("");
  showWarning("");
  el.root.hidden = true;
  state.data = null;
  if (file.size > MAX_BYTES) {
    showError(t("too_large"));
    return;
  }
  el.loading.hidden = false;
  el.loading.textContent = t("reading");
  const body = await file.text();
  if (handOff(body, file.name)) return;
  window.replayRecordText = body; // fairness_verify.js: the record, whenever it loads
  document.dispatchEvent(new CustomEvent("replay:record", { detail: body }));
  await showFrom("/api/replay", async () => ({
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": cookie("csrftoken") },
    body,
  }));
}

// A record of another game goes to the shared viewer (static/js/replay_shell.js), which
// sends Spectacular Bid records here: the file's text travels in sessionStorage.
const HANDOFF = "replay.pending";

/* The record formats this viewer draws (games/pages.py renders them); others go to the
   shared viewer. */
function ownFormats() {
  try {
    const formats = JSON.parse($("replay-own-formats")?.textContent || "[]");
    return Array.isArray(formats) ? formats : [];
  } catch {
    return [];
  }
}

function handOff(text, name) {
  let format = null;
  try {
    format = JSON.parse(text)?.format;
  } catch {
    return false; // not JSON: the server says what is wrong with it
  }
  if (typeof format !== "string" || ownFormats().includes(format)) return false;
  try {
    sessionStorage.setItem(HANDOFF, JSON.stringify({ name, text }));
  } catch {
    /* no room: the file is picked again there */
  }
  location.assign("/replay/?viewer=table");
  return true;
}

function takePending() {
  try {
    const raw = sessionStorage.getItem(HANDOFF);
    sessionStorage.removeItem(HANDOFF);
    const pending = raw ? JSON.parse(raw) : null;
    return pending && typeof pending.text === "string" ? pending : null;
  } catch {
    return null;
  }
}

if (el.root.dataset.framesUrl) {
  loadMatch(el.root.dataset.framesUrl);
} else if (el.file) {
  el.file.addEventListener("change", () => upload(el.file.files?.[0]));
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
      // the file input does not show a dropped file: name it here
      if (file) el.fileName.textContent = file.name;
      upload(file);
    });
  }
  const pending = takePending();
  if (pending) {
    el.fileName.textContent = pending.name || "";
    upload(new File([pending.text], pending.name || "record.json", { type: "application/json" }));
  }
}
