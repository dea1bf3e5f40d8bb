/**
 * shell.js — the match page of every game (templates/games/table.html).
 *
 * The shell knows no game. It opens the match's websocket (same origin, ws: or wss:),
 * keeps the latest `state` message and version, reconnects with backoff, asks for a
 * fresh snapshot (`sync`) when a result reports a version it has not seen, ticks the
 * clocks from `server_now`, and draws what every game has: the seat panels (name,
 * score, clock, to-act marker, rank), the connection state, the result banner and the
 * Resign and Abort buttons, and Rematch (again with the same settings, for every table). Everything else is the game's board, an ES
 * module named by the game's plugin (`board_module`) whose markup is included from
 * `board_template`:
 *
 *   const board = (await import(board_module)).mount(element, shell);
 *   board.update({header, view, views, mySeats, serverNow, version});   // on every state
 *   board.scoreOf?.(view, seat)   a seat's score for its panel (default: view.scores or
 *                                 view.totals)
 *   board.resultText?.(state)     more words for the result (after the shell's reason)
 *
 * `element` is the #board-root element holding the board's template. `shell` offers:
 *   shell.send(action)     send a record-shaped action; adds version and id; a Promise of
 *                          the `result` message ({ok, code, message, version}). It never
 *                          rejects: not sent (offline, another command still waiting) or
 *                          no answer within 8 s resolve with ok false; refusals are
 *                          flashed by the shell, so a board need not say them again.
 *   shell.flash(text, kind = "error")   a message under the seats ("error" | "info").
 *   shell.t(key, params)   a translated string with its {placeholders} filled in: the
 *                          shell's own (table-data) and the board's, from its template:
 *                          <template data-strings><span data-k="key">…</span></template>
 *                          or <script type="application/json" data-strings>{…}</script>.
 *   shell.announce(text)   read out to screen readers (a polite live region).
 *   shell.confirm(text, yes)   a Promise of true when the player confirms (an in-page
 *                          dialog: a native confirm() blocks and automation dismisses it).
 *   shell.setStatus(text)  the status line (the shell writes a generic one first on
 *                          every state; a board may replace it in update()).
 *   shell.nameOf(seat), shell.seatSlot(seat) (an element in the seat's panel for the
 *   board's extras), shell.now() (match time now, in seconds), shell.sync(),
 *   shell.matchId, shell.game, shell.seats, shell.mySeats, shell.role, shell.state.
 *
 * No user-facing English lives here: the strings come from the page's json_script
 * "table-data" (games/web/views.py: TABLE_STRINGS). window.tablePage exposes the state
 * read-only for the browser tests.
 *
 * Besides the game, the room: a `presence` message (each seat connected or away, null
 * for the computer's; the spectators) marks each seat's panel and the spectator badge,
 * and quick messages (`say` out, `said` in: a fixed set of codes the page words) show
 * briefly in the sender's panel, unless this page muted the others (remembered).
 */

import { openMatchSocket } from "./match_socket.js";
import { createSounds } from "./sounds.js";

const root = document.getElementById("table");
const DATA = JSON.parse(document.getElementById("table-data").textContent);
const MATCH_ID = DATA.match;
const SEATS = Number(DATA.seats) || 0;
const MY_SEATS = Array.isArray(DATA.my_seats) ? DATA.my_seats.map(Number) : [];
const ROLE = DATA.role; // "player" | "device" | "spectator"

// ------------------------------------------------------------------------------ strings

const STR = { ...(DATA.strings || {}) };

function loadStrings(scope) {
  for (const tpl of scope.querySelectorAll("template[data-strings]")) {
    for (const el of tpl.content.querySelectorAll("[data-k]")) STR[el.dataset.k] = el.textContent.trim();
  }
  for (const script of scope.querySelectorAll('script[type="application/json"][data-strings]')) {
    try {
      Object.assign(STR, JSON.parse(script.textContent));
    } catch {
      /* a malformed block: its keys stay unknown */
    }
  }
}

function t(key, params = {}) {
  const text = STR[key] ?? key;
  return String(text).replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** Display names; a name held by several seats (the computer) gets its seat's number. */
const NAMES = (() => {
  const names = Array.isArray(DATA.names) ? DATA.names.slice() : [];
  const count = {};
  for (const n of names) count[n] = (count[n] || 0) + 1;
  const seen = {};
  return names.map((n) => {
    if (count[n] < 2) return n;
    seen[n] = (seen[n] || 0) + 1;
    return t("name_n", { name: n, n: seen[n] });
  });
})();

const nameOf = (seat) => (seat != null && NAMES[seat] != null ? NAMES[seat] : t("seat_n", { n: Number(seat) + 1 }));

// ------------------------------------------------------------------------------ elements

const $ = (id) => document.getElementById(id);
const el = {
  conn: $("table-conn"),
  status: $("table-status"),
  flash: $("table-flash"),
  result: $("table-result"),
  resultTitle: $("table-result-title"),
  resultText: $("table-result-text"),
  ranks: $("table-ranks"),
  ratings: $("table-ratings"),
  board: $("board-root"),
  resign: $("table-resign"),
  abort: $("table-abort"),
  rematch: $("table-rematch"),
  rematchNote: $("table-rematch-note"),
  announce: $("table-announce"),
  confirm: $("table-confirm"),
  confirmText: $("table-confirm-text"),
  confirmYes: $("table-confirm-yes"),
  offline: $("table-offline"),
  sound: $("table-sound"),
  watchers: $("table-watchers"),
  say: $("table-say"),
  mute: $("table-mute"),
  seats: [...Array(SEATS).keys()].map((s) => {
    const card = $(`seat-${s}`);
    return {
      card,
      name: card?.querySelector(".seat-name"),
      turn: card?.querySelector(".seat-turn"),
      score: card?.querySelector(".seat-score-value"),
      clock: card?.querySelector(".seat-clock"),
      delay: card?.querySelector(".seat-delay"),
      extra: card?.querySelector(".seat-extra"),
      rank: card?.querySelector(".seat-result"),
      presence: card?.querySelector(".seat-presence"),
      said: card?.querySelector(".seat-said"),
    };
  }),
};
el.seats.forEach((s, seat) => {
  if (s.name) s.name.textContent = s.name.title = nameOf(seat);
});

// ------------------------------------------------------------------------------ state

const S = {
  msg: null, // the latest state message
  version: -1,
  offset: 0, // match time minus performance.now() / 1000, from server_now
  pending: null, // {id, resolve, timer}
  board: null,
  statusText: "",
  flashTimer: null,
};

const nowS = () => performance.now() / 1000 + S.offset;
const header = () => (S.msg && S.msg.match) || {};
const isActive = () => (header().status || DATA.status) === "active";

/** The view the seat panels are drawn from: the seat's, or (several seats) the one to act. */
function mainView() {
  const m = S.msg;
  if (!m) return null;
  if (m.view) return m.view;
  if (Array.isArray(m.views) && m.views.length) {
    return m.views.find((v) => v && v.to_act != null && v.seat === v.to_act) || m.views[0];
  }
  return null;
}

// ------------------------------------------------------------------------------ messages

function flash(text, kind = "error") {
  if (!text) return;
  el.flash.textContent = text;
  el.flash.className = `table-flash table-flash--${kind}`;
  el.flash.hidden = false;
  clearTimeout(S.flashTimer);
  S.flashTimer = setTimeout(() => {
    el.flash.hidden = true;
    el.flash.textContent = "";
  }, 8000);
}

function clearFlash() {
  clearTimeout(S.flashTimer);
  el.flash.hidden = true;
  el.flash.textContent = "";
}

let announceTimer = null;
function announce(text) {
  if (!text) return;
  // Cleared first, so that the same words said twice are read twice.
  el.announce.textContent = "";
  clearTimeout(announceTimer);
  announceTimer = setTimeout(() => {
    el.announce.textContent = text;
  }, 60);
}

function setStatus(text) {
  S.statusText = text || "";
  el.status.textContent = S.statusText;
}

// ------------------------------------------------------------------------------ websocket

function setConn(kind) {
  // Each new connection joins the room's talk (presence, quick messages) anew.
  if (kind === "live" && kind !== el.conn.dataset.state) sendRaw({ type: "room" });
  el.conn.className = `conn conn-${kind}`;
  el.conn.dataset.state = kind;
  el.conn.querySelector(".conn-text").textContent = t(kind);
  root.classList.toggle("is-offline", kind !== "live");
  // A connection lost after it was up is said on the page, not only in the corner.
  if (el.offline) el.offline.hidden = kind === "live" || kind === "connecting";
}

let sock = null; // opened at the end of this file, once everything it calls is defined

const sendRaw = (obj) => sock.send(obj);
const sync = () => sock.sync();
const isOpen = () => sock !== null && sock.isOpen();

let idCounter = 0;
const newId = () => `c${Date.now().toString(36)}${(idCounter += 1)}`;

function settlePending(result) {
  const p = S.pending;
  if (!p) return;
  S.pending = null;
  clearTimeout(p.timer);
  root.classList.remove("is-pending");
  p.resolve(result);
}

/** Send one command (see the top of this file). */
function send(action) {
  return new Promise((resolve) => {
    if (!isOpen()) {
      const message = t("err_offline");
      flash(message);
      resolve({ ok: false, code: "offline", message });
      return;
    }
    if (S.pending) {
      const message = t("err_pending");
      flash(message, "info");
      resolve({ ok: false, code: "pending", message });
      return;
    }
    const id = newId();
    sendRaw({ type: "command", action, version: S.version, id });
    root.classList.add("is-pending");
    clearFlash();
    S.pending = {
      id,
      resolve,
      timer: setTimeout(() => {
        settlePending({ ok: false, code: "timeout", message: t("err_timeout") });
        flash(t("err_timeout"), "info");
        sync();
      }, 8000),
    };
  });
}

function onResult(r) {
  const mine = S.pending && r.id === S.pending.id;
  if (!r.ok) flash(r.message || r.code);
  if (typeof r.version === "number" && r.version > S.version) {
    // "stale" and "late" come with a fresh snapshot; otherwise the broadcast of the move
    // normally follows at once: ask only if it does not.
    const want = r.version;
    setTimeout(() => {
      if (S.version < want) sync();
    }, r.ok ? 800 : 300);
  }
  if (mine) settlePending(r);
}

function onState(m) {
  if (typeof m.version === "number" && m.version < S.version) return; // an older message
  const before = S.msg ? mainView() : null;
  const moved = S.msg !== null && typeof m.version === "number" && m.version > S.version;
  S.msg = m;
  if (typeof m.version === "number") S.version = m.version;
  if (typeof m.server_now === "number") S.offset = m.server_now - performance.now() / 1000;
  render();
  updateBoard();
  if (moved) attention(before, mainView());
}

// ------------------------------------------------------------------------------ attention

const sounds = createSounds();
const BASE_TITLE = document.title;
S.heard = []; // the sounds asked for, for the browser tests
S.lowWarned = null; // the version whose low clock was already sounded

function sound(kind) {
  S.heard.push(kind);
  sounds.play(kind);
}

const myTurnIn = (view) => isActive() && view != null && MY_SEATS.includes(view.to_act);

/** Sounds and the tab's title for what a new state brings. */
function attention(before, after) {
  if (myTurnIn(after) && !myTurnIn(before)) sound("turn");
  else if (before && after && !MY_SEATS.includes(before.to_act)) sound("move");
  if (before && after && [...Array(SEATS).keys()].some((s) => (scoreOf(after, s) ?? 0) > (scoreOf(before, s) ?? 0))) {
    sound("score");
  }
}

function renderTitle() {
  document.title = myTurnIn(mainView()) ? `${t("title_your_turn")} · ${BASE_TITLE}` : BASE_TITLE;
}

function renderSoundSwitch() {
  if (!el.sound) return;
  el.sound.setAttribute("aria-pressed", sounds.on ? "true" : "false");
  el.sound.textContent = sounds.on ? t("sound_on") : t("sound_off");
}

el.sound?.addEventListener("click", () => {
  sounds.setOn(!sounds.on);
  renderSoundSwitch();
});
renderSoundSwitch();

// ------------------------------------------------------------------------------ drawing

function clockText(seconds) {
  if (seconds == null || !Number.isFinite(seconds)) return "–:––";
  const s = Math.max(0, Math.ceil(seconds - 1e-6));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/**
 * A seat's time left now, or null when the view shows none. Two kinds of clock:
 * `banks` (each seat's time; the running seat's counts down from `started`, after the
 * decision's `delay` when there is one) and a single `deadline` for the seat to act.
 */
function seatTime(view, seat, now) {
  const c = view && view.clock;
  if (!c) return null;
  const running = isActive() ? (c.running !== undefined ? c.running : view.to_act) : null;
  if (Array.isArray(c.banks)) {
    if (seat === running && c.started != null) {
      return Math.max(0, c.banks[seat] - Math.max(0, now - c.started - (c.delay || 0)));
    }
    if (seat === running && c.deadline != null) return c.deadline - now;
    return c.banks[seat] ?? null;
  }
  if (c.deadline != null && seat === running) return c.deadline - now;
  return null;
}

/** The running seat's delay left now (spent before its bank), or 0. */
function delayLeft(view, seat, now) {
  const c = view && view.clock;
  if (!c || !c.delay || c.started == null || !isActive() || c.running !== seat) return 0;
  return Math.max(0, c.started + c.delay - now);
}

const LOW_S = 10; // a running clock under this is shown (and sounded) as low

function renderClocks() {
  const view = mainView();
  const now = nowS();
  const running = view && view.clock && isActive()
    ? (view.clock.running !== undefined ? view.clock.running : view.to_act)
    : null;
  el.seats.forEach((s, seat) => {
    if (!s.clock) return;
    const left = seatTime(view, seat, now);
    const delay = delayLeft(view, seat, now);
    s.clock.textContent = clockText(left);
    s.clock.classList.toggle("is-running", seat === running && left != null);
    const low = seat === running && left != null && left < LOW_S && !delay;
    s.clock.classList.toggle("is-low", low);
    if (low && MY_SEATS.includes(seat) && S.lowWarned !== S.version) {
      S.lowWarned = S.version; // once a decision
      sound("low");
    }
    s.clock.classList.toggle("in-delay", delay > 0);
    s.clock.hidden = left == null;
    if (s.delay) {
      s.delay.hidden = !(delay > 0);
      s.delay.textContent = delay > 0 ? t("delay", { s: Math.ceil(delay) }) : "";
    }
  });
}

const scoreOf = (view, seat) => {
  if (S.board && typeof S.board.scoreOf === "function") return S.board.scoreOf(view, seat);
  for (const key of ["scores", "totals"]) {
    if (view && Array.isArray(view[key]) && view[key][seat] != null) return view[key][seat];
  }
  return null;
};

function ranksOf(view) {
  const r = view && view.result && view.result.ranks;
  if (Array.isArray(r) && r.length === SEATS) return r;
  const w = header().winner;
  if (header().status === "finished" && w != null) return NAMES.map((_, s) => (s === w ? 1 : 2));
  return null;
}

function render() {
  const view = mainView();
  const h = header();
  const active = isActive();
  root.dataset.status = h.status || DATA.status;
  const toAct = active && view ? view.to_act : null;
  const ranks = active ? null : ranksOf(view);
  el.seats.forEach((s, seat) => {
    if (!s.card) return;
    const score = scoreOf(view, seat);
    if (score != null) s.score.textContent = String(score);
    s.card.classList.toggle("is-turn", toAct === seat);
    if (s.turn) s.turn.hidden = toAct !== seat;
    if (ranks && ranks[seat] != null) {
      s.rank.textContent = t("rank", { rank: ranks[seat] });
      s.rank.hidden = false;
      s.card.classList.toggle("is-winner", ranks[seat] === 1);
    } else {
      s.rank.hidden = true;
    }
  });
  renderClocks();
  // The generic status line; the board may say more in its update().
  if (!active) setStatus(t("st_over"));
  else if (toAct != null && MY_SEATS.includes(toAct)) setStatus(t("st_your_turn"));
  else if (toAct != null) setStatus(t("st_wait", { name: nameOf(toAct) }));
  else setStatus("");
  if (el.resign) el.resign.hidden = !active || !MY_SEATS.length;
  if (el.abort) el.abort.hidden = !active || !MY_SEATS.length || !(view && view.can_abort);
  renderResult(view, ranks);
  renderTitle();
}

/** Why the match ended, in the shell's words (a board may add its own). */
function reasonText(view, ranks, winner) {
  const loser = lastAlone(ranks);
  const reason = header().reason || (view && view.result && view.result.reason) || "";
  if (reason === "target" && winner != null) return t("reason_target", { name: nameOf(winner) });
  if (reason === "time") return loser != null ? t("reason_time", { name: nameOf(loser) }) : t("reason_time_any");
  if (reason === "resign") return loser != null ? t("reason_resign", { name: nameOf(loser) }) : t("reason_resign_any");
  if (reason === "finished") return t("reason_finished");
  return "";
}

/** The seat ranked last alone, or null. */
function lastAlone(ranks) {
  if (!ranks) return null;
  const worst = Math.max(...ranks);
  const seats = ranks.map((r, s) => (r === worst ? s : -1)).filter((s) => s >= 0);
  return seats.length === 1 && worst > 1 ? seats[0] : null;
}

function renderResult(view, ranks) {
  const h = header();
  const status = h.status || DATA.status;
  if (!S.msg || status === "active") {
    el.result.hidden = true;
    return;
  }
  let title;
  let text = "";
  if (status === "annulled") {
    title = t("result_annulled");
    text = h.annul_reason || t("reason_annulled");
  } else if (status === "aborted") {
    title = t("result_aborted");
    text = t("reason_abort");
  } else {
    const winner = h.winner;
    if (winner != null && ROLE === "player" && MY_SEATS.includes(winner)) title = t("result_you_win");
    else if (winner != null && ROLE === "player" && SEATS === 2) {
      title = `${t("result_you_lose")} — ${t("result_win", { name: nameOf(winner) })}`;
    } else if (winner != null) title = t("result_win", { name: nameOf(winner) });
    else if (ranks && ranks.filter((r) => r === 1).length > 1) title = t("result_shared");
    else title = t("result_over");
    text = reasonText(view, ranks, winner);
  }
  if (S.board && typeof S.board.resultText === "function") {
    const more = S.board.resultText(boardState());
    if (more) text = text ? `${text} ${more}` : more;
  }
  el.resultTitle.textContent = title;
  el.result.dataset.status = status;
  el.result.dataset.winner = h.winner == null ? "" : String(h.winner);
  el.result.dataset.reason = h.reason || (view && view.result && view.result.reason) || "";
  el.resultText.textContent = text;
  el.resultText.hidden = !text;
  const rows = [];
  if (ranks) {
    const order = [...ranks.keys()].sort((a, b) => ranks[a] - ranks[b] || a - b);
    for (const seat of order) {
      const li = document.createElement("li");
      const score = scoreOf(view, seat);
      li.textContent = score != null
        ? t("rank_line", { rank: ranks[seat], name: nameOf(seat), score })
        : t("rank_line_noscore", { rank: ranks[seat], name: nameOf(seat) });
      li.dataset.seat = String(seat);
      li.className = `seat-${seat}${ranks[seat] === 1 ? " is-winner" : ""}`;
      rows.push(li);
    }
  }
  el.ranks.replaceChildren(...rows);
  el.ranks.hidden = !rows.length;
  const changes = Array.isArray(h.rating_changes) ? h.rating_changes : [];
  el.ratings.replaceChildren(
    ...changes.map((c) => {
      const li = document.createElement("li");
      const seat = (DATA.usernames || []).indexOf(c.user);
      const delta = c.delta > 0 ? `+${c.delta}` : String(c.delta);
      li.textContent = t("rating_change", { name: seat >= 0 ? nameOf(seat) : c.user, before: c.before, after: c.after, delta });
      return li;
    }),
  );
  el.ratings.hidden = !changes.length;
  if (el.rematch) el.rematch.hidden = ROLE === "spectator" || status === "annulled";
  if (el.result.hidden) {
    el.result.hidden = false;
    announce(`${title}. ${text}`);
  }
}

setInterval(renderClocks, 250);

// ------------------------------------------------------------------------------ resign

function confirmDialog(text, yes) {
  return new Promise((resolve) => {
    if (typeof el.confirm.showModal !== "function") {
      resolve(window.confirm(text));
      return;
    }
    el.confirmText.textContent = text;
    el.confirmYes.textContent = yes;
    el.confirm.returnValue = "";
    el.confirm.addEventListener("close", () => resolve(el.confirm.returnValue === "yes"), { once: true });
    el.confirm.showModal();
  });
}

/** The seat a terminal action is for: the seat to act when it is one of this page's. */
function actingSeat() {
  const view = mainView();
  return view && MY_SEATS.includes(view.to_act) ? view.to_act : MY_SEATS[0];
}

/** Resign and abort: asked first, and sent even while a move waits for its answer. */
async function terminal(type, confirmText, yes) {
  if (!MY_SEATS.length || !isActive()) return;
  if (!(await confirmDialog(confirmText, yes))) return;
  if (S.pending) settlePending({ ok: false, code: "superseded", message: "" });
  send({ seat: actingSeat(), type });
}

el.resign?.addEventListener("click", () => {
  const text = MY_SEATS.length > 1 ? t("confirm_resign_seat", { name: nameOf(actingSeat()) }) : t("confirm_resign");
  terminal(DATA.forfeit_action, text, t("yes_resign"));
});
el.abort?.addEventListener("click", () => terminal(DATA.abort_action, t("confirm_abort"), t("yes_abort")));

// ------------------------------------------------------------------------------ rematch

function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return "";
}

/** Offer a rematch: a new match at once when both are here, else a seek for the other. */
async function rematch() {
  el.rematch.disabled = true;
  let data = {};
  try {
    const resp = await fetch(`/api/matches/${MATCH_ID}/rematch`, {
      method: "POST",
      headers: { "X-CSRFToken": cookie("csrftoken"), Accept: "application/json" },
      credentials: "same-origin",
    });
    data = await resp.json();
  } catch {
    data = {};
  }
  if (data.ok && data.match && data.match.url) {
    location.assign(data.match.url);
    return;
  }
  if (data.ok && data.seek != null) {
    const opponent = [...Array(SEATS).keys()].find((s) => !MY_SEATS.includes(s));
    el.rematchNote.textContent = SEATS > 2
      ? t("rematch_table") : t("rematch_offered", { name: nameOf(opponent ?? 0) });
    el.rematchNote.hidden = false;
    return;
  }
  flash(data.message || t("err_rematch"));
  el.rematch.disabled = false;
}
el.rematch?.addEventListener("click", rematch);

// ------------------------------------------------------------------------------ the board

const shell = {
  matchId: MATCH_ID,
  game: DATA.game,
  seats: SEATS,
  mySeats: MY_SEATS.slice(),
  role: ROLE,
  get state() {
    return S.msg;
  },
  get version() {
    return S.version;
  },
  send,
  confirm: confirmDialog,
  flash,
  clearFlash,
  t,
  announce,
  setStatus,
  nameOf,
  now: nowS,
  sync,
  seatSlot: (seat) => (el.seats[seat] ? el.seats[seat].extra : null),
};

/** What a board is given of the latest state. */
function boardState() {
  const m = S.msg || {};
  return {
    header: m.match,
    view: m.view ?? null,
    views: m.views ?? null,
    mySeats: MY_SEATS.slice(),
    serverNow: nowS(),
    version: S.version,
  };
}

function updateBoard() {
  if (!S.board || !S.msg) return;
  try {
    S.board.update(boardState());
  } catch (err) {
    console.error("board update failed", err);
  }
}

loadStrings(el.board);
import(DATA.board_module)
  .then((mod) => {
    S.board = mod.mount(el.board, shell);
    if (S.msg) render(); // the board may score the seats and word the result
    updateBoard();
  })
  .catch((err) => {
    console.error("board module failed", err);
    flash(t("board_failed"));
  });

// ------------------------------------------------------------------------------ the room

const MUTE_KEY = "table.mute";
const SAID_MS = 6000; // how long a quick message stays by its seat
S.presence = null; // the latest presence message
S.said = []; // quick messages received: {seat, code, shown}
S.muted = (() => {
  try {
    return localStorage.getItem(MUTE_KEY) === "1";
  } catch {
    return false;
  }
})();

function onPresence(m) {
  S.presence = m;
  const connected = Array.isArray(m.connected) ? m.connected : [];
  el.seats.forEach((s, seat) => {
    if (!s.presence) return;
    const here = connected[seat];
    s.presence.hidden = here == null;
    if (here == null) return;
    const words = t(here ? "presence_connected" : "presence_away");
    s.presence.dataset.state = here ? "connected" : "away";
    s.presence.title = words;
    s.presence.querySelector(".presence-text").textContent = words;
  });
  if (el.watchers) {
    const n = Number(m.spectators) || 0;
    el.watchers.hidden = n < 1;
    el.watchers.dataset.count = String(n);
    el.watchers.textContent = t("spectators", { n });
  }
}

function onSaid(m) {
  const s = el.seats[m.seat];
  const mine = MY_SEATS.includes(m.seat);
  const shown = Boolean(s && s.said) && (mine || !S.muted);
  S.said.push({ seat: m.seat, code: m.code, shown });
  if (!shown) return;
  const text = t(`say_${m.code}`);
  s.said.textContent = text;
  s.said.hidden = false;
  clearTimeout(s.saidTimer);
  s.saidTimer = setTimeout(() => {
    s.said.hidden = true;
  }, SAID_MS);
  if (!mine) announce(t("said", { name: nameOf(m.seat), text }));
}

function onRoom(m) {
  if (m.type === "presence") onPresence(m);
  else if (m.type === "said" && Number.isInteger(m.seat)) onSaid(m);
}

function renderMute() {
  if (!el.mute) return;
  el.mute.setAttribute("aria-pressed", S.muted ? "true" : "false");
  el.mute.textContent = t(S.muted ? "unmute" : "mute");
  el.say?.classList.toggle("is-muted", S.muted);
}

el.mute?.addEventListener("click", () => {
  S.muted = !S.muted;
  try {
    localStorage.setItem(MUTE_KEY, S.muted ? "1" : "0");
  } catch {
    /* private mode: muted for this page only */
  }
  renderMute();
  if (S.muted) el.seats.forEach((s, seat) => {
    if (s.said && !MY_SEATS.includes(seat)) s.said.hidden = true;
  });
});
renderMute();

el.say?.addEventListener("click", (event) => {
  const button = event.target.closest("[data-say]");
  if (!button || !isOpen()) return;
  sendRaw({ type: "say", code: button.dataset.say, seat: actingSeat() });
});

window.tablePage = {
  get state() {
    return S.msg;
  },
  get version() {
    return S.version;
  },
  get pending() {
    return S.pending != null;
  },
  get boardReady() {
    return S.board != null;
  },
  get connected() {
    return isOpen();
  },
  get heard() {
    return S.heard.slice();
  },
  get presence() {
    return S.presence;
  },
  get said() {
    return S.said.slice();
  },
  get muted() {
    return S.muted;
  },
  mySeats: MY_SEATS.slice(),
};

sock = openMatchSocket(MATCH_ID, {
  onSnapshot: onState,
  onResult,
  onError: (m) => flash(m.message || m.code),
  onConnection: setConn,
  onOther: onRoom,
  onClosed(code) {
    if (code === 4404) flash(t("not_found"));
    settlePending({ ok: false, code: "offline", message: t("err_offline") });
  },
});
