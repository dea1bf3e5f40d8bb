/**
 * match.js — the match page of Spectacular Bid (templates/games/match.html).
 *
 * One websocket per page (ws(s)://host/ws/matches/<id>/, session cookie auth). The server
 * sends `state` messages (a view per seat, both views on a one-device game, the public view
 * for spectators) and `result` messages answering our commands. Everything shown is drawn
 * from the last state; the clocks count down locally between messages, in step with the
 * server: offset = server_now - performance.now() / 1000 at receipt.
 *
 * No user-facing English lives here: every string comes from the translated
 * <template id="i18n"> of the page (the keys below are only fallbacks).
 */

import { renderBoard, renderHand } from "./board.js";
import { openMatchSocket } from "./match_socket.js";

// ------------------------------------------------------------------------------ setup

const root = document.getElementById("match");
const MATCH_ID = root.dataset.matchId;
const ROLE = root.dataset.role; // "player" | "spectator" | "device"
const SEATS = (root.dataset.seats || "")
  .split(",")
  .filter((s) => s !== "")
  .map(Number);
let NAMES = [root.dataset.player0, root.dataset.player1];

const STR = {};
const i18nEl = document.getElementById("i18n");
if (i18nEl) {
  const scope = i18nEl.content ?? i18nEl;
  for (const el of scope.querySelectorAll("[data-k]")) STR[el.dataset.k] = el.textContent.trim();
}

/** The board's screen-reader labels (board.js fills their {placeholders}). */
const LABELS = {};
for (const [key, value] of Object.entries(STR)) if (key.startsWith("lbl_")) LABELS[key.slice(4)] = value;

/** A translated string with {placeholders} filled in. */
function t(key, params = {}) {
  const s = STR[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

const $ = (id) => document.getElementById(id);
const el = {
  phase: $("phase"),
  conn: $("conn"),
  status: $("status"),
  message: $("message"),
  board: $("board"),
  ends: $("ends-sum"),
  boneyard: $("boneyard"),
  handNo: $("hand-no"),
  handNoPill: $("hand-no-pill"),
  toasts: $("toasts"),
  handArea: $("hand-area"),
  handTitle: $("hand-title"),
  hand: $("hand"),
  handHint: $("hand-hint"),
  btnOpen: $("btn-open"),
  btnDraw: $("btn-draw"),
  passScreen: $("pass-screen"),
  passTitle: $("pass-title"),
  btnReveal: $("btn-reveal"),
  auction: $("panel-auction"),
  auctionJockey: $("auction-jockey"),
  auctionBid: $("auction-bid"),
  auctionControls: $("auction-controls"),
  auctionWait: $("auction-wait"),
  btnDecline: $("btn-decline"),
  btnAccept: $("btn-accept"),
  bidRow: $("bid-row"),
  bidSelect: $("bid-select"),
  btnBid: $("btn-bid"),
  bidNet: $("bid-net"),
  bidWarning: $("bid-warning"),
  cont: $("panel-continue"),
  contTitle: $("continue-title"),
  contText: $("continue-text"),
  btnContinue: $("btn-continue"),
  grace: $("grace"),
  result: $("panel-result"),
  resultTitle: $("result-title"),
  resultText: $("result-text"),
  btnRematch: $("btn-rematch"),
  rematchNote: $("rematch-note"),
  settlement: $("panel-settlement"),
  settleTitle: $("settlement-title"),
  settleText: $("settlement-text"),
  settleHands: $("settlement-hands"),
  settleBoardWrap: $("settlement-board-wrap"),
  settleBoard: $("settlement-board"),
  settleToasts: $("settlement-toasts"),
  settleLast: $("settlement-last"),
  log: $("move-log"),
  logEmpty: $("log-empty"),
  btnAbort: $("btn-abort"),
  btnResign: $("btn-resign"),
  confirm: $("confirm"),
  confirmText: $("confirm-text"),
  confirmYes: $("confirm-yes"),
  players: [0, 1].map((s) => ({
    card: $(`player-${s}`),
    balance: $(`balance-${s}`),
    chips: $(`chips-${s}`),
    clock: $(`clock-${s}`),
    tiles: $(`tiles-${s}`),
  })),
};

const S = {
  msg: null, // the last state message
  version: -1,
  offset: 0, // server match time minus performance.now()/1000
  selected: null, // the selected tile ("a-b") of the acting seat
  selectedFor: null, // the seat the selection belongs to (one device)
  bidChoice: null,
  pending: null, // {id, timer}
  seenHand: null, // hand_no of the moves already toasted
  seenMoves: 0,
  balances: null,
  messageTimer: null,
};

const nowS = () => performance.now() / 1000 + S.offset;
const tileText = (tile) => {
  const [a, b] = String(tile).split("-");
  return `[${a}|${b}]`;
};
/** A seat's display name; on one device (the same account twice) "Player 1" / "Player 2". */
const nameOf = (seat) => {
  if (seat !== 0 && seat !== 1) return "?";
  if (NAMES[0] === NAMES[1]) return t("player_n", { n: seat + 1 });
  return NAMES[seat];
};
const other = (seat) => 1 - seat;

// ------------------------------------------------------------------------------ the view

/** What this page shows and acts for, from the last state. */
function context() {
  const m = S.msg;
  if (!m) return null;
  if (ROLE === "device" && Array.isArray(m.views)) {
    const pub = m.views[0];
    const awaiting = pub.awaiting_reveal;
    let me = null;
    if ((pub.phase === "play" || pub.phase === "auction") && awaiting == null && pub.to_act != null) {
      me = pub.to_act;
    }
    return { pub, me, mine: me != null ? m.views[me] : null, awaiting, header: m.match };
  }
  const v = m.view;
  if (!v) return null;
  const me = ROLE === "player" ? SEATS[0] : null;
  return { pub: v, me, mine: me != null ? v : null, awaiting: v.awaiting_reveal, header: m.match };
}

const legalOf = (mine) => (mine && Array.isArray(mine.legal) ? mine.legal : []);
const hasLegal = (mine, type) => legalOf(mine).some((a) => a.type === type);
const isOver = (c) => c.pub.phase === "over" || (c.header && c.header.status && c.header.status !== "active");

// ------------------------------------------------------------------------------ messages

function flash(text, kind = "error") {
  if (!text) return;
  el.message.textContent = text;
  el.message.hidden = false;
  el.message.className = `message message--${kind}`;
  clearTimeout(S.messageTimer);
  S.messageTimer = setTimeout(() => {
    el.message.hidden = true;
    el.message.textContent = "";
  }, 9000);
}

function clearFlash() {
  clearTimeout(S.messageTimer);
  el.message.hidden = true;
  el.message.textContent = "";
}

function toast(text, seat, where = el.toasts) {
  const n = document.createElement("div");
  n.className = `toast seat-${seat}`;
  n.textContent = text;
  where.appendChild(n);
  setTimeout(() => n.remove(), 2600);
}

// ------------------------------------------------------------------------------ websocket

function setConn(kind) {
  el.conn.className = `conn conn-${kind}`;
  el.conn.dataset.state = kind;
  el.conn.querySelector(".conn-text").textContent = t(kind);
  root.classList.toggle("is-offline", kind !== "live");
}

function setConnAndRender(kind) {
  setConn(kind);
  render();
}

let sock = null; // opened at the end of this file, once everything it calls is defined

const sendRaw = (obj) => sock.send(obj);
const sync = () => sock.sync();
const isOpen = () => sock !== null && sock.isOpen();

let idCounter = 0;
function newId() {
  idCounter += 1;
  return `c${Date.now().toString(36)}${idCounter}`;
}

function clearPending() {
  if (S.pending) clearTimeout(S.pending.timer);
  S.pending = null;
  root.classList.remove("is-pending");
}

/** Send one command; returns false (and says why) when it was not sent. */
function command(action, { force = false } = {}) {
  if (!isOpen()) {
    flash(t("err_offline"));
    return false;
  }
  if (S.pending && !force) {
    flash(t("err_pending"), "info");
    return false;
  }
  const id = newId();
  sendRaw({ type: "command", action, version: S.version, id });
  clearPending();
  S.pending = {
    id,
    timer: setTimeout(() => {
      clearPending();
      sync();
      render();
    }, 8000),
  };
  root.classList.add("is-pending");
  clearFlash();
  return true;
}

function onResult(r) {
  if (S.pending && r.id === S.pending.id) clearPending();
  if (!r.ok) {
    flash(r.message || r.code);
    // "stale" and "late" come with a fresh snapshot from the server.
    if (r.code !== "stale" && r.code !== "late" && typeof r.version === "number" && r.version > S.version) sync();
  } else if (typeof r.version === "number" && r.version > S.version) {
    // The broadcast of our own move normally follows at once; ask if it does not.
    const want = r.version;
    setTimeout(() => {
      if (S.version < want) sync();
    }, 800);
  }
  render();
}

function onState(m) {
  if (typeof m.version === "number" && m.version < S.version) return; // an older message
  const prev = S.msg;
  S.msg = m;
  S.version = m.version;
  if (typeof m.server_now === "number") S.offset = m.server_now - performance.now() / 1000;
  if (m.match && Array.isArray(m.match.players)) NAMES = m.match.players;
  const c = context();
  if (!c) return;
  announce(prev, c);
  // Keep the selection only while it is still a legal choice.
  const mine = c.mine;
  if (mine && mine.must_play) {
    S.selected = mine.must_play;
    S.selectedFor = c.me;
  } else if (S.selected && (S.selectedFor !== c.me || !playsFor(mine, S.selected).length)) {
    S.selected = null;
  }
  render();
}

/** Toasts for what just happened: scores on the board, payments, balance changes. */
function announce(prev, c) {
  const pub = c.pub;
  const moves = Array.isArray(pub.moves) ? pub.moves : [];
  if (prev && S.seenHand === pub.hand_no) {
    toastMoves(moves.slice(S.seenMoves), el.toasts);
  } else if (prev && S.seenHand != null) {
    // The hand we were following is settled and the next one is dealt: its last moves
    // (the final placement and its points) come with the settled hand, over its board.
    const hands = Array.isArray(pub.hands) ? pub.hands : [];
    const settled = hands.find((h) => h.hand === S.seenHand && Array.isArray(h.moves));
    if (settled) toastMoves(settled.moves.slice(S.seenMoves), el.settleToasts);
  }
  S.seenHand = pub.hand_no;
  S.seenMoves = moves.length;
  const bal = Array.isArray(pub.balances) ? pub.balances : null;
  if (bal && S.balances && prev) {
    for (const seat of [0, 1]) {
      const d = bal[seat] - S.balances[seat];
      if (d) {
        const node = el.players[seat].card.querySelector(".balance-delta");
        node.textContent = d > 0 ? `+${d}` : `−${-d}`;
        node.className = `balance-delta show ${d > 0 ? "up" : "down"}`;
        void node.offsetWidth;
        clearTimeout(node._timer);
        node._timer = setTimeout(() => (node.className = "balance-delta"), 2400);
      }
    }
  }
  if (bal) S.balances = bal.slice();
}

function toastMoves(moves, where) {
  for (const mv of moves) {
    if (mv.type === "play" && mv.points > 0) {
      toast(t("toast_points", { name: nameOf(mv.seat), points: mv.points }), mv.seat, where);
    } else if (mv.type === "accept" && mv.points > 0) {
      toast(t("toast_paid", { name: nameOf(other(mv.seat)), points: mv.points }), other(mv.seat), where);
    }
  }
}

// ------------------------------------------------------------------------------ actions

function playsFor(mine, tile) {
  return legalOf(mine).filter((a) => a.type === "play" && a.tile === tile);
}

function playableTiles(mine) {
  return [...new Set(legalOf(mine).filter((a) => a.type === "play").map((a) => a.tile))];
}

function onTileClick(tile) {
  const c = context();
  if (!c || !c.mine) return;
  const plays = playsFor(c.mine, tile);
  if (!plays.length) return;
  if (S.selected === tile) {
    const opening = plays.find((p) => p.target == null);
    if (opening) {
      sendPlay(opening);
      return;
    }
    if (!c.mine.must_play) S.selected = null;
  } else {
    S.selected = tile;
    S.selectedFor = c.me;
  }
  clearFlash();
  render();
}

function onPlaceClick(place) {
  const c = context();
  if (!c || !c.mine || !S.selected) return;
  const plays = playsFor(c.mine, S.selected);
  const play = plays.find(
    (p) => (p.target ?? null) === (place.target ?? null) && (p.port ?? null) === (place.port ?? null),
  );
  if (!play) {
    flash(t("err_cannot_play"));
    return;
  }
  sendPlay(play);
}

function sendPlay(play) {
  const action = { seat: play.seat, type: "play", tile: play.tile };
  if (play.target != null) {
    action.target = play.target;
    action.port = play.port;
  }
  command(action);
}

/** Taps on tiles that cannot be played now: say why, change nothing. */
el.hand.addEventListener("click", (ev) => {
  const tileEl = ev.target.closest?.("[data-tile]");
  if (!tileEl) return;
  const c = context();
  if (!c || !c.mine) return;
  const tile = tileEl.getAttribute("data-tile");
  const phase = c.pub.phase;
  if (phase !== "play" && phase !== "auction") return;
  if (c.pub.to_act !== c.me) {
    flash(t("err_not_turn"));
  } else if (phase === "auction") {
    flash(t("err_no_auction_play"));
  } else if (!playsFor(c.mine, tile).length) {
    flash(c.mine.must_play ? t("err_must_play") : t("err_cannot_play"));
  }
});

el.btnOpen.addEventListener("click", () => {
  const c = context();
  if (!c || !c.mine || !S.selected) return;
  const opening = playsFor(c.mine, S.selected).find((p) => p.target == null);
  if (opening) sendPlay(opening);
});

el.btnDraw.addEventListener("click", () => {
  const c = context();
  if (!c || !c.mine) return;
  const draw = legalOf(c.mine).find((a) => a.type === "draw");
  if (draw) command({ seat: draw.seat, type: "draw" });
});

el.btnDecline.addEventListener("click", () => {
  const c = context();
  const a = c && legalOf(c.mine).find((x) => x.type === "decline");
  if (a) command({ seat: a.seat, type: "decline" });
});

el.btnAccept.addEventListener("click", () => {
  const c = context();
  const a = c && legalOf(c.mine).find((x) => x.type === "accept");
  if (a) command({ seat: a.seat, type: "accept" });
});

el.bidSelect.addEventListener("change", () => {
  S.bidChoice = Number(el.bidSelect.value);
  render();
});

el.btnBid.addEventListener("click", async () => {
  const c = context();
  if (!c || !c.mine) return;
  const amount = Number(el.bidSelect.value);
  const a = legalOf(c.mine).find((x) => x.type === "bid" && x.amount === amount);
  if (!a) {
    flash(t("err_not_turn"));
    return;
  }
  const net = netPayment(c.pub, c.me, amount);
  if (net >= c.pub.balances[c.me]) {
    const ok = await confirmDialog(t("confirm_all_in"), t("yes_bid"));
    if (!ok) return;
  }
  command({ seat: a.seat, type: "bid", amount });
});

el.btnContinue.addEventListener("click", () => {
  const c = context();
  if (!c) return;
  if (ROLE === "device") {
    const m = S.msg;
    let sent = false;
    for (const seat of [0, 1]) {
      const a = legalOf(m.views[seat]).find((x) => x.type === "continue");
      if (a) sent = command({ seat, type: "continue" }, { force: sent }) || sent;
    }
    return;
  }
  const a = legalOf(c.mine).find((x) => x.type === "continue");
  if (a) command({ seat: a.seat, type: "continue" });
});

el.btnReveal.addEventListener("click", () => {
  const c = context();
  if (!c || c.awaiting == null) return;
  command({ seat: c.awaiting, type: "reveal" });
});

el.btnResign.addEventListener("click", async () => {
  const seat = actingSeat();
  if (seat == null) return;
  const text = ROLE === "device" ? t("confirm_resign_seat", { name: nameOf(seat) }) : t("confirm_resign");
  if (await confirmDialog(text, t("yes_resign"))) command({ seat, type: "resign" }, { force: true });
});

el.btnAbort.addEventListener("click", async () => {
  const seat = SEATS[0];
  if (seat == null) return;
  if (await confirmDialog(t("confirm_abort"), t("yes_abort"))) command({ seat, type: "abort" }, { force: true });
});

el.btnRematch.addEventListener("click", async () => {
  el.btnRematch.disabled = true;
  try {
    const resp = await fetch(`/api/matches/${MATCH_ID}/rematch`, {
      method: "POST",
      headers: { "X-CSRFToken": cookie("csrftoken"), Accept: "application/json" },
      credentials: "same-origin",
    });
    let data = {};
    try {
      data = await resp.json();
    } catch {
      /* not JSON */
    }
    if (data.ok && data.match && data.match.url) {
      location.assign(data.match.url);
      return;
    }
    if (data.ok && data.seek != null) {
      const c = context();
      const opp = c && c.me != null ? nameOf(other(c.me)) : nameOf(SEATS[0] === 0 ? 1 : 0);
      el.rematchNote.textContent = t("rematch_offered", { name: opp });
      el.rematchNote.hidden = false;
      return;
    }
    flash(data.message || t("err_rematch"));
    el.btnRematch.disabled = false;
  } catch {
    flash(t("err_rematch"));
    el.btnRematch.disabled = false;
  }
});

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && S.selected) {
    const c = context();
    if (c && c.mine && !c.mine.must_play) {
      S.selected = null;
      render();
    }
  }
});

function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return "";
}

/** The seat a Resign button acts for: the player's seat, or the seat to act on one device. */
function actingSeat() {
  const c = context();
  if (!c || isOver(c)) return null;
  if (ROLE === "player") return SEATS[0];
  if (ROLE === "device") return c.me;
  return null;
}

function netPayment(pub, seat, amount) {
  const discount = pub.rules?.jockey_discount ?? 15;
  return seat === pub.jockey ? Math.max(0, amount - discount) : amount;
}

/** An in-page confirmation (a native confirm() would block and is dismissed by automation). */
function confirmDialog(text, yesLabel) {
  return new Promise((resolve) => {
    const dlg = el.confirm;
    el.confirmText.textContent = text;
    el.confirmYes.textContent = yesLabel;
    dlg.returnValue = "";
    const done = () => {
      dlg.removeEventListener("close", done);
      resolve(dlg.returnValue === "yes");
    };
    dlg.addEventListener("close", done);
    if (typeof dlg.showModal === "function") dlg.showModal();
    else resolve(window.confirm(text));
  });
}

// ------------------------------------------------------------------------------ rendering

const EMPTY_BOARD = { tiles: [], spinner: null, ends_sum: 0, places: [] };

function render() {
  const c = context();
  if (!c) return;
  const pub = c.pub;
  const over = isOver(c);
  if (root.dataset.phase && root.dataset.phase !== pub.phase && el.message.classList.contains("message--error")) {
    clearFlash(); // an old complaint about the previous phase
  }
  root.dataset.phase = pub.phase;
  el.phase.dataset.phase = pub.phase;
  el.phase.textContent = t(`phase_${pub.phase}`);
  renderPlayers(c);
  renderBoardArea(c);
  renderHandArea(c, over);
  renderAuction(c, over);
  renderContinue(c, over);
  renderSettlement(c, over);
  renderResult(c, over);
  renderLog(c);
  renderFooter(c, over);
  renderStatus(c, over);
  tick();
}

function renderPlayers(c) {
  const pub = c.pub;
  for (const seat of [0, 1]) {
    const p = el.players[seat];
    const card = p.card;
    card.querySelector(".player-name").textContent = nameOf(seat);
    const isMe = (ROLE === "player" && SEATS[0] === seat) || (ROLE === "device" && c.me === seat);
    card.querySelector(".player-you").hidden = !isMe;
    card.classList.toggle("is-me", ROLE === "player" && SEATS[0] === seat);
    card.querySelector(".badge-jockey").hidden = pub.jockey !== seat || pub.phase === "over";
    const toAct = pub.to_act === seat && !isOver(c);
    card.querySelector(".badge-turn").hidden = !toAct;
    card.classList.toggle("to-act", toAct);
    const bal = Array.isArray(pub.balances) ? pub.balances[seat] : null;
    p.balance.textContent = bal == null ? "–" : String(bal);
    renderChips(p.chips, bal ?? 0, seat);
    const counts = pub.hand_counts;
    p.tiles.textContent = Array.isArray(counts) && pub.phase !== "over" ? t("tiles_count", { n: counts[seat] }) : "";
    const winner = pub.result ? pub.result.winner : undefined;
    card.classList.toggle("is-winner", winner === seat);
  }
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** Chip stacks: 1 chip = 5 points, stacks of 10. */
function renderChips(box, balance, seat) {
  const chips = Math.max(0, Math.floor(balance / 5));
  const key = `${chips}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.textContent = "";
  const stacks = Math.ceil(chips / 10);
  const W = 22;
  const step = 3.2;
  const H = 10 * step + 8;
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${Math.max(1, stacks) * W} ${H}`);
  svg.setAttribute("class", `chip-stacks seat-${seat}`);
  svg.setAttribute("preserveAspectRatio", "xMinYMax meet");
  for (let s = 0; s < stacks; s++) {
    const n = Math.min(10, chips - s * 10);
    for (let i = 0; i < n; i++) {
      const cy = H - 5 - i * step;
      const g = document.createElementNS(SVG_NS, "g");
      g.setAttribute("class", "chip");
      const edge = document.createElementNS(SVG_NS, "ellipse");
      edge.setAttribute("cx", String(s * W + W / 2));
      edge.setAttribute("cy", String(cy + 1.4));
      edge.setAttribute("rx", "9");
      edge.setAttribute("ry", "3.4");
      edge.setAttribute("class", "chip-edge");
      const top = document.createElementNS(SVG_NS, "ellipse");
      top.setAttribute("cx", String(s * W + W / 2));
      top.setAttribute("cy", String(cy));
      top.setAttribute("rx", "9");
      top.setAttribute("ry", "3.4");
      top.setAttribute("class", "chip-top");
      g.append(edge, top);
      svg.appendChild(g);
    }
  }
  box.appendChild(svg);
}

function lastPlayedTile(pub) {
  const moves = Array.isArray(pub.moves) ? pub.moves : [];
  for (let i = moves.length - 1; i >= 0; i--) if (moves[i].type === "play") return moves[i].tile;
  return null;
}

function renderBoardArea(c) {
  const pub = c.pub;
  const board = pub.board || EMPTY_BOARD;
  const mine = c.mine;
  let highlight = [];
  const myTurnToPlay = mine && pub.phase === "play" && pub.to_act === c.me && !S.pending;
  if (myTurnToPlay && S.selected) {
    highlight = playsFor(mine, S.selected).map((p) => ({ target: p.target ?? null, port: p.port ?? null }));
  }
  renderBoard(el.board, board, {
    highlight,
    onPlaceClick: highlight.length ? onPlaceClick : null,
    lastTile: lastPlayedTile(pub),
    labels: LABELS,
  });
  el.board.parentElement.classList.toggle("is-empty", !(board.tiles && board.tiles.length) && !highlight.length);
  const sum = board.ends_sum ?? 0;
  el.ends.textContent = String(sum);
  el.ends.parentElement.classList.toggle("scores", sum > 0 && sum % 5 === 0);
  el.boneyard.textContent = pub.boneyard_count != null ? String(pub.boneyard_count) : "–";
  el.handNoPill.hidden = !(pub.hand_no >= 0);
  el.handNo.textContent = String((pub.hand_no ?? 0) + 1);
}

function renderHandArea(c, over) {
  const pub = c.pub;
  const phase = pub.phase;
  // One device: hands are shown only to the revealed seat, never both, never between turns.
  const showPass = ROLE === "device" && !over && c.awaiting != null && (phase === "play" || phase === "auction");
  el.passScreen.hidden = !showPass;
  if (showPass) {
    el.passTitle.textContent = t("pass_device", { name: nameOf(c.awaiting) });
    el.btnReveal.textContent = t("reveal_btn", { name: nameOf(c.awaiting) });
    el.btnReveal.disabled = !!S.pending;
  }
  let showHand = !!(c.mine && Array.isArray(c.mine.hand));
  // At the end both hands are shown in the settlement panel instead.
  if (over || (ROLE === "device" && !(phase === "play" || phase === "auction"))) showHand = false;
  el.handArea.hidden = !showHand;
  el.btnOpen.hidden = true;
  el.btnDraw.hidden = true;
  if (!showHand) {
    el.hand.textContent = "";
    return;
  }
  const mine = c.mine;
  el.handTitle.textContent = ROLE === "device" ? t("tiles_of", { name: nameOf(c.me) }) : t("your_tiles");
  const myTurn = phase === "play" && pub.to_act === c.me && !over;
  const tiles = mine.hand;
  if (myTurn) {
    const playable = playableTiles(mine);
    renderHand(el.hand, tiles, {
      selected: S.selected,
      playable,
      onTileClick: playable.length ? onTileClick : null,
      labels: LABELS,
    });
    const canDraw = hasLegal(mine, "draw");
    el.btnDraw.hidden = !(pub.board && pub.board.tiles && pub.board.tiles.length);
    el.btnDraw.disabled = !canDraw || !!S.pending;
    const opening = S.selected && playsFor(mine, S.selected).some((p) => p.target == null);
    el.btnOpen.hidden = !opening;
    el.btnOpen.disabled = !!S.pending;
    el.handArea.classList.add("active");
  } else {
    renderHand(el.hand, tiles, { labels: LABELS });
    el.handArea.classList.remove("active");
  }
  el.handHint.textContent = "";
}

function renderAuction(c, over) {
  const pub = c.pub;
  const show = pub.phase === "auction" && !over;
  el.auction.hidden = !show;
  if (!show) return;
  const a = pub.auction || {};
  const discount = pub.rules?.jockey_discount ?? 15;
  const iAmJockey = ROLE === "player" && pub.jockey != null && pub.jockey === c.me;
  el.auctionJockey.textContent =
    pub.jockey == null ? "" : t(iAmJockey ? "jockey_you" : "jockey_is", { name: nameOf(pub.jockey), discount });
  el.auctionBid.textContent = a.bid
    ? t("current_bid", { bid: a.bid, name: nameOf(a.bidder) })
    : t("no_bid", { min: pub.rules?.min_bid ?? 15 });
  el.auctionBid.classList.toggle("has-bid", !!a.bid);
  const mine = c.mine;
  const myTurn = mine && pub.to_act === c.me && legalOf(mine).length > 0;
  el.auctionControls.hidden = !myTurn;
  el.auctionWait.hidden = !!myTurn;
  if (!myTurn) {
    el.auctionWait.textContent =
      c.awaiting != null ? t("pass_device", { name: nameOf(c.awaiting) }) : t("st_wait_auction", { name: nameOf(pub.to_act) });
    return;
  }
  const legal = legalOf(mine);
  const decline = legal.find((x) => x.type === "decline");
  const accept = legal.find((x) => x.type === "accept");
  el.btnDecline.hidden = !decline;
  el.btnDecline.title = decline && pub.jockey != null ? t("decline_note", { name: nameOf(pub.jockey) }) : "";
  el.btnAccept.hidden = !accept;
  if (accept) {
    el.btnAccept.textContent = t("accept_btn", { bid: a.bid });
    const bidder = a.bidder;
    const net = Math.min(netPayment(pub, bidder, a.bid), pub.balances[bidder]);
    el.btnAccept.title = t("accept_net", { name: nameOf(bidder), net });
  }
  const bids = legal.filter((x) => x.type === "bid").map((x) => x.amount);
  el.bidRow.hidden = bids.length === 0;
  el.btnBid.textContent = a.bid ? t("raise_btn") : t("bid_btn");
  const options = bids.map((b) => `${b}`).join(",");
  if (el.bidSelect.dataset.options !== options) {
    el.bidSelect.dataset.options = options;
    el.bidSelect.textContent = "";
    for (const b of bids) {
      const o = document.createElement("option");
      o.value = String(b);
      o.textContent = t("bid_option", { bid: b, net: netPayment(pub, c.me, b) });
      el.bidSelect.appendChild(o);
    }
  }
  if (!bids.includes(S.bidChoice)) S.bidChoice = bids[0] ?? null;
  if (S.bidChoice != null) el.bidSelect.value = String(S.bidChoice);
  const lines = [];
  if (accept) lines.push(el.btnAccept.title);
  if (decline && pub.jockey != null) lines.push(t("decline_note", { name: nameOf(pub.jockey) }));
  if (S.bidChoice != null) lines.push(t("bid_net", { net: netPayment(pub, c.me, S.bidChoice) }));
  el.bidNet.textContent = lines.join(" ");
  const allIn = S.bidChoice != null && netPayment(pub, c.me, S.bidChoice) >= pub.balances[c.me];
  el.bidWarning.hidden = !allIn;
  el.btnBid.classList.toggle("btn--warn", allIn);
  const busy = !!S.pending;
  el.btnDecline.disabled = busy;
  el.btnAccept.disabled = busy;
  el.btnBid.disabled = busy;
}

function continueSeats(c) {
  if (ROLE === "device") return [0, 1].filter((s) => hasLegal(S.msg.views[s], "continue"));
  return c.mine && hasLegal(c.mine, "continue") ? [c.me] : [];
}

function renderContinue(c, over) {
  const pub = c.pub;
  const show = pub.phase === "continue" && !over;
  el.cont.hidden = !show;
  if (!show) return;
  const first = (pub.hand_no ?? 0) === 0;
  el.contTitle.textContent = first ? t("start_title") : t("continue_title", { n: pub.hand_no + 1 });
  const can = continueSeats(c);
  const label = first ? t("start") : t("continue");
  el.btnContinue.textContent = label;
  el.btnContinue.hidden = can.length === 0 || ROLE === "spectator";
  el.btnContinue.disabled = !!S.pending;
  let text = first ? t("start_text") : t("continue_text");
  if (ROLE === "device") text = `${text} ${t("continue_device")}`;
  else if (c.me != null && pub.continued && pub.continued[c.me]) text = t("pressed", { name: nameOf(other(c.me)) });
  el.contText.textContent = text;
}

/**
 * The hand whose settlement is shown: the hand just settled, between hands (phase
 * continue or deal after a hand), and the last hand played once the match is over.
 */
function settledHand(c, over) {
  const pub = c.pub;
  const hands = Array.isArray(pub.hands) ? pub.hands : [];
  if (over) {
    for (let i = hands.length - 1; i >= 0; i--) if (hands[i].hands) return hands[i];
    return null;
  }
  // In "continue" the next hand is dealt already (none before the first hand); in
  // "deal" it is not yet.
  let index = null;
  if (pub.phase === "continue" && pub.hand_no > 0) index = pub.hand_no - 1;
  else if (pub.phase === "deal" && pub.hand_no >= 0) index = pub.hand_no;
  if (index == null) return null;
  return hands.find((h) => h.hand === index && h.hands) || null;
}

/** Who won the hand: the server's `winner`, else (older views) who has no tiles left. */
function handWinner(h) {
  if (h.winner === 0 || h.winner === 1) return h.winner;
  if (h.end === "domino" && Array.isArray(h.hands)) {
    const out = h.hands.findIndex((x) => x.length === 0);
    if (out >= 0) return out;
  }
  if (h.end === "blocked" && Array.isArray(h.sums) && h.sums[0] !== h.sums[1]) return h.sums[0] < h.sums[1] ? 0 : 1;
  return null;
}

/** The last move of the hand that belongs to the game (not continue / reveal). */
function lastGameMove(moves) {
  for (let i = moves.length - 1; i >= 0; i--) if (moveText(moves[i])) return moves[i];
  return null;
}

function renderSettlement(c, over) {
  const h = settledHand(c, over);
  el.settlement.hidden = !h;
  if (!h) return;
  el.settlement.dataset.hand = String(h.hand);
  el.settleTitle.textContent = t("settle_title", { n: h.hand + 1 });
  const revealed = Array.isArray(h.hands) ? h.hands : null;
  const winner = handWinner(h);
  el.settlement.dataset.winner = winner == null ? "" : String(winner);
  el.settlement.dataset.end = h.end || "";
  let text = "";
  if (h.end === "domino") {
    const seat = winner != null ? winner : c.pub.jockey;
    text = over ? t("settle_domino_short", { name: nameOf(seat) }) : t("settle_domino", { name: nameOf(seat) });
  } else if ((h.end === "blocked" || h.end === "match_over") && Array.isArray(h.sums)) {
    // A blocked hand (its settlement may have ended the match too).
    const [s0, s1] = h.sums;
    const params = { name0: nameOf(0), sum0: s0, name1: nameOf(1), sum1: s1 };
    text =
      winner == null
        ? t("settle_blocked_tie", params)
        : t("settle_blocked", { ...params, winner: nameOf(winner), points: h.settlement ?? 0 });
  } else if (h.end === "match_over") {
    const r = c.pub.result;
    const moves = Array.isArray(h.moves) ? h.moves : [];
    const last = lastGameMove(moves);
    // The match ended on a score: say who took the last points.
    const scorer = last && last.type === "play" && last.points > 0 ? last.seat : null;
    text =
      scorer != null && r && r.reason === "points" && r.winner === scorer
        ? t("settle_match_over_winner", { name: nameOf(scorer) })
        : t("settle_match_over");
  }
  el.settleText.textContent = text;
  renderSettledBoard(h);
  const key = JSON.stringify([h.hand, revealed, h.sums]);
  if (el.settleHands.dataset.key === key) return;
  el.settleHands.dataset.key = key;
  el.settleHands.textContent = "";
  if (!revealed) return;
  for (const seat of [0, 1]) {
    const row = document.createElement("div");
    row.className = "reveal-row";
    const who = document.createElement("div");
    who.className = "reveal-who";
    const dot = document.createElement("span");
    dot.className = `seat-dot seat-${seat}`;
    const nm = document.createElement("span");
    nm.textContent = nameOf(seat);
    const pips = revealed[seat].reduce((acc, tile) => acc + tile.split("-").reduce((x, y) => x + Number(y), 0), 0);
    const sum = Array.isArray(h.sums) ? h.sums[seat] : pips;
    const tot = document.createElement("span");
    tot.className = "reveal-sum";
    tot.textContent = revealed[seat].length ? t("hand_sum", { sum }) : t("no_tiles");
    who.append(dot, nm, tot);
    const tilesBox = document.createElement("div");
    tilesBox.className = "reveal-tiles";
    if (revealed[seat].length) renderHand(tilesBox, revealed[seat], { labels: LABELS });
    row.append(who, tilesBox);
    el.settleHands.appendChild(row);
  }
}

/** The settled hand's final board (a small drawing) and its last move with its points. */
function renderSettledBoard(h) {
  const board = h.board && Array.isArray(h.board.tiles) && h.board.tiles.length ? h.board : null;
  el.settleBoardWrap.hidden = !board;
  if (!board) {
    el.settleBoard.textContent = "";
    delete el.settleBoardWrap.dataset.key;
    return;
  }
  const moves = Array.isArray(h.moves) ? h.moves : [];
  const key = JSON.stringify([h.hand, board.tiles.length, moves.length]);
  if (el.settleBoardWrap.dataset.key === key) return;
  el.settleBoardWrap.dataset.key = key;
  renderBoard(el.settleBoard, board, {
    lastTile: lastPlayedTile(h),
    showValues: false,
    minView: [6 * 40, 3 * 40],
    labels: LABELS,
  });
  // A box of the drawing's own shape (within reason): no wide felt around a short line.
  const vb = el.settleBoard.viewBox && el.settleBoard.viewBox.baseVal;
  if (vb && vb.width > 0 && vb.height > 0) {
    const ratio = Math.min(3, Math.max(1.25, vb.width / vb.height));
    el.settleBoard.style.aspectRatio = ratio.toFixed(3);
  }
  const last = lastGameMove(moves);
  el.settleLast.hidden = !last;
  el.settleLast.textContent = "";
  if (!last) return;
  const dot = document.createElement("span");
  dot.className = `seat-dot seat-${last.seat}`;
  dot.setAttribute("aria-hidden", "true");
  const span = document.createElement("span");
  span.className = "move-text";
  span.textContent = t("settle_last", { move: moveText(last) });
  el.settleLast.append(dot, span);
  if (last.type === "play" && last.points > 0) {
    const pts = document.createElement("span");
    pts.className = "move-points";
    pts.dataset.testid = "settlement-points";
    pts.textContent = `+${last.points}`;
    el.settleLast.appendChild(pts);
  }
}

function renderResult(c, over) {
  el.result.hidden = !over;
  if (!over) return;
  const pub = c.pub;
  const r = pub.result || {};
  const header = c.header || {};
  let title = "";
  let text = "";
  if (r.reason === "abort" || header.status === "aborted") {
    title = t("result_abort");
    text = t("reason_abort");
  } else if (r.reason === "annulled" || header.status === "annulled") {
    title = t("result_annulled");
    text = header.annul_reason ? `${header.annul_reason} ${t("reason_annulled")}` : t("reason_annulled");
  } else if (r.winner === 0 || r.winner === 1) {
    const loser = nameOf(other(r.winner));
    if (ROLE === "player") title = r.winner === SEATS[0] ? t("result_you_win") : t("result_you_lose");
    else title = t("result_win", { name: nameOf(r.winner) });
    if (ROLE === "player") title = `${title} — ${t("result_win", { name: nameOf(r.winner) })}`;
    text = t(`reason_${r.reason}`, { loser });
  }
  if (Array.isArray(pub.balances)) {
    text = `${text} ${t("final_balances", { name0: nameOf(0), b0: pub.balances[0], name1: nameOf(1), b1: pub.balances[1] })}`;
  }
  el.result.dataset.winner = r.winner == null ? "" : String(r.winner);
  el.result.dataset.reason = r.reason || header.status || "";
  el.resultTitle.textContent = title;
  el.resultText.textContent = text.trim();
  renderRatingChanges(header.rating_changes || []);
  el.result.classList.toggle("won", ROLE === "player" && r.winner === SEATS[0]);
  el.btnRematch.hidden = ROLE === "spectator";
}

function renderRatingChanges(changes) {
  // A rated result shows both players' rating change (the server sends them once rated).
  let list = document.getElementById("rating-changes");
  if (!list) {
    list = document.createElement("ul");
    list.id = "rating-changes";
    list.className = "rating-changes";
    list.dataset.testid = "rating-changes";
    el.resultText.after(list);
  }
  list.replaceChildren(...changes.map((change) => {
    const item = document.createElement("li");
    const sign = change.delta > 0 ? "+" : change.delta < 0 ? "\u2212" : "\u00b1";
    item.textContent = t("rating_change", {
      name: change.user, before: change.before, after: change.after,
      delta: `${sign}${Math.abs(change.delta)}`,
    });
    item.classList.add(change.delta >= 0 ? "up" : "down");
    return item;
  }));
  list.hidden = changes.length === 0;
}

function moveText(mv) {
  const name = nameOf(mv.seat);
  switch (mv.type) {
    case "play":
      if (mv.target == null) return t(mv.forced ? "mv_open_forced" : "mv_open", { name, tile: tileText(mv.tile) });
      return t("mv_play", { name, tile: tileText(mv.tile) });
    case "draw":
      return t("mv_draw", { name });
    case "pass":
      return t("mv_pass", { name });
    case "bid":
      return t("mv_bid", { name, amount: mv.amount });
    case "accept":
      return mv.points > 0 ? t("mv_accept_paid", { name, points: mv.points }) : t("mv_accept", { name });
    case "decline":
      return t("mv_decline", { name });
    default:
      return null;
  }
}

function renderLog(c) {
  const moves = Array.isArray(c.pub.moves) ? c.pub.moves : [];
  const key = `${c.pub.hand_no}:${moves.length}`;
  if (el.log.dataset.key === key) return;
  el.log.dataset.key = key;
  el.log.textContent = "";
  let count = 0;
  for (const mv of moves) {
    const text = moveText(mv);
    if (!text) continue; // continue / reveal are not moves of the game
    count += 1;
    const li = document.createElement("li");
    li.className = `move move-${mv.type}${mv.forced ? " forced" : ""}`;
    const dot = document.createElement("span");
    dot.className = `seat-dot seat-${mv.seat}`;
    dot.setAttribute("aria-hidden", "true");
    const span = document.createElement("span");
    span.className = "move-text";
    span.textContent = text;
    li.append(dot, span);
    if (mv.type === "play" && mv.points > 0) {
      const pts = document.createElement("span");
      pts.className = "move-points";
      pts.textContent = `+${mv.points}`;
      li.appendChild(pts);
    }
    el.log.appendChild(li);
  }
  el.logEmpty.hidden = count > 0;
  el.log.scrollTop = el.log.scrollHeight;
}

function renderFooter(c, over) {
  const seat = actingSeat();
  el.btnResign.hidden = over || seat == null;
  if (ROLE === "device" && seat != null) el.btnResign.textContent = `${t("yes_resign")} (${nameOf(seat)})`;
  el.btnAbort.hidden = over || ROLE === "spectator" || !c.pub.can_abort;
}

function renderStatus(c, over) {
  const pub = c.pub;
  const phase = pub.phase;
  let s = "";
  if (over) s = t("st_over");
  else if (phase === "deal") s = t("st_deal");
  else if (phase === "continue") {
    if (ROLE === "spectator") s = t("st_wait_both");
    else if (continueSeats(c).length) s = t("st_continue", { button: el.btnContinue.textContent });
    else if (c.me != null) s = t("st_wait_continue", { name: nameOf(other(c.me)) });
    else s = t("st_wait_both");
  } else if (c.awaiting != null && ROLE === "device") {
    s = t("st_pass", { name: nameOf(c.awaiting) });
  } else if (ROLE === "spectator" || c.me == null) {
    s = pub.to_act != null ? t("st_watch", { name: nameOf(pub.to_act) }) : "";
  } else if (pub.to_act !== c.me) {
    s = phase === "auction" ? t("st_wait_auction", { name: nameOf(pub.to_act) }) : t("st_wait_play", { name: nameOf(pub.to_act) });
  } else if (phase === "auction") {
    s = t("st_your_turn_auction");
  } else {
    const mine = c.mine;
    if (mine.must_play) s = t("st_must_play");
    else if (hasLegal(mine, "draw")) s = t("st_must_draw");
    else if (!pub.board || !pub.board.tiles || !pub.board.tiles.length) {
      s = S.selected ? t("st_selected_open") : t("st_your_turn_open");
    } else s = S.selected ? t("st_selected") : t("st_your_turn_play");
  }
  el.status.textContent = s;
  const mineToAct = c.me != null && pub.to_act === c.me && !over && (phase === "play" || phase === "auction");
  el.status.classList.toggle("your-turn", mineToAct);
  root.classList.toggle("my-turn", mineToAct);
}

// ------------------------------------------------------------------------------ clocks

function fmtClock(sec) {
  if (!(sec > 0)) return "0.0";
  if (sec < 10) return (Math.floor(sec * 10) / 10).toFixed(1);
  const total = Math.floor(sec);
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}

const clockCache = [{}, {}];

/** Redraw both clocks (and the grace countdown) from the last state and the local time. */
function tick() {
  const c = context();
  if (!c) return;
  const pub = c.pub;
  const clock = pub.clock || {};
  const banks = Array.isArray(clock.banks) ? clock.banks : [null, null];
  const now = nowS();
  const over = isOver(c);
  for (const seat of [0, 1]) {
    let bank = banks[seat];
    let delayLeft = null;
    const running = !over && clock.running === seat && clock.started != null;
    if (running) {
      const delay = clock.delay ?? 0;
      delayLeft = Math.max(0, clock.started + delay - now);
      bank = Math.max(0, bank - Math.max(0, now - clock.started - delay));
    }
    const p = el.players[seat];
    const cache = clockCache[seat];
    const bankText = bank == null ? "–:––" : fmtClock(bank);
    if (cache.bank !== bankText) {
      p.clock.querySelector(".clock-bank").textContent = bankText;
      cache.bank = bankText;
    }
    const delayShown = running && delayLeft > 0;
    const delayText = delayShown ? String(Math.ceil(delayLeft)) : "";
    if (cache.delay !== delayText) {
      p.clock.querySelector(".clock-delay").hidden = !delayShown;
      p.clock.querySelector(".clock-delay-value").textContent = delayText;
      cache.delay = delayText;
    }
    const frac = delayShown && clock.delay ? delayLeft / clock.delay : 0;
    p.clock.querySelector(".clock-delay-bar > span").style.transform = `scaleX(${frac.toFixed(3)})`;
    p.clock.classList.toggle("running", running);
    p.clock.classList.toggle("in-delay", delayShown);
    p.clock.classList.toggle("low", bank != null && bank < 10 && !over);
    p.card.classList.toggle("clock-running", running);
  }
  if (pub.phase === "continue" && pub.grace_deadline != null && !over) {
    const left = Math.max(0, pub.grace_deadline - now);
    el.grace.textContent = t("grace", { t: fmtClock(left) });
  } else {
    el.grace.textContent = "";
  }
}

function frame() {
  tick();
  requestAnimationFrame(frame);
}

// Debug/testing hook (read-only): the last state and version.
window.matchPage = {
  get state() {
    return S.msg;
  },
  get version() {
    return S.version;
  },
  get connected() {
    return isOpen();
  },
};

sock = openMatchSocket(MATCH_ID, {
  onSnapshot: onState,
  onResult,
  onError: (m) => flash(m.message || m.code),
  onConnection: setConnAndRender,
  onClosed(code) {
    if (code === 4404) flash(t("not_found"));
    clearPending();
  },
});
requestAnimationFrame(frame);
