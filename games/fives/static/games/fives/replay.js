/**
 * The Fives replay, on the shared viewer (static/js/replay_shell.js,
 * templates/games/replay_table.html):
 *
 *   mount(element, viewer) -> {show(frame, index, data), describe, scores, result, actionText}
 *
 * A frame (games/fives/frames.py) is the public position after one action: the board,
 * how many tiles each hand holds, the bazaar, the time banks, the scores, and once the
 * hand has ended the tiles each player was left with (`revealed`). `data` also has each
 * hand's summary (`hands`: end, winner, pips, bonus) and the scores after each hand.
 *
 * The board and the tiles are drawn by the table's own code (static/js/board.js).
 * Strings come from the viewer (viewer.t: the page's translated "replay-data").
 */

import { renderBoard, renderHand } from "../../js/board.js";
import { handBounds, markCurrentHand, useStyle } from "../../js/replay_parts.js";

const LABEL_KEYS = ["board", "board_one", "board_empty", "tile", "tile_spinner", "tile_last", "hand", "hand_one"];
const EMPTY_BOARD = { tiles: [], cross: null, ends_sum: 0, places: [] };

const tileText = (tile) => String(tile).replace("-", "|");

function clockText(seconds) {
  if (seconds == null || !Number.isFinite(seconds)) return "–:––";
  const s = Math.max(0, Math.floor(seconds + 1e-6));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function node(tag, className, text) {
  const n = document.createElement(tag);
  if (className) n.className = className;
  if (text != null) n.textContent = text;
  return n;
}

const handOf = (frame) => (frame.action && frame.action.hand != null ? frame.action.hand : frame.hand_no ?? 0);

/** The page this module draws in its element: the info line, the board, the seats, the hands. */
function buildPage(t) {
  const root = node("div", "rf");
  const info = node("div", "rf-info");
  const pill = (testid, title) => {
    const p = node("span", "rf-pill");
    p.dataset.testid = testid;
    if (title) p.title = title;
    const label = node("span", "rf-pill__label");
    const value = node("b", "rf-pill__value");
    p.append(label, " ", value);
    info.append(p);
    return { pill: p, label, value };
  };
  const handPill = pill("replay-hand");
  handPill.pill.classList.add("rf-pill--hand");
  const targetPill = pill("replay-target");
  const crossPill = pill("replay-cross");
  const bazaarPill = pill("replay-bazaar");
  const endsPill = pill("replay-ends", t("f_ends_title"));

  const table = node("section", "rf-table");
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "fives-board rf-board");
  svg.dataset.testid = "replay-board";
  table.append(svg);

  const seatsBox = node("section", "rf-seats");
  seatsBox.setAttribute("aria-label", t("f_seats"));
  const revealedNote = node("p", "rf-revealed-title", t("f_revealed"));
  revealedNote.hidden = true;

  const handsCard = node("section", "card rp-panel rf-hands-card");
  const handsTitle = node("h2", "rp-panel__title", t("f_hands"));
  const handsList = node("ol", "rf-hands");
  handsList.dataset.testid = "replay-hands";
  handsCard.append(handsTitle, handsList);

  root.append(info, table, revealedNote, seatsBox, handsCard);
  return { root, handPill, targetPill, crossPill, bazaarPill, endsPill, svg, seatsBox, revealedNote, handsCard, handsList };
}

function endText(ctx, summary) {
  const { t, viewer } = ctx;
  const name = summary.winner != null ? viewer.nameOf(summary.winner) : "";
  if (summary.end === "domino") {
    return summary.bonus > 0 ? t("f_end_domino", { name, bonus: summary.bonus }) : t("f_end_domino_zero", { name });
  }
  if (summary.end === "fish") {
    return summary.winner != null ? t("f_end_fish", { name, bonus: summary.bonus ?? 0 }) : t("f_end_fish_tie");
  }
  return t("f_end_game_over");
}

function prepare(ctx, data) {
  const { B, t, viewer, seatsBox, root, handsList, handsCard } = ctx;
  B.data = data;
  ({ starts: B.starts, lasts: B.lasts } = handBounds(data.frames, handOf));
  const seats = (data.players || []).length;
  B.seats = [];
  const cards = [];
  for (let seat = 0; seat < seats; seat += 1) {
    const card = node("article", `rf-seat seat-${seat}`);
    card.dataset.testid = `replay-seat-${seat}`;
    const head = node("header", "rf-seat__head");
    const dot = node("span", "seat-dot");
    dot.setAttribute("aria-hidden", "true");
    const name = node("span", "rf-seat__name", viewer.nameOf(seat));
    const count = node("span", "rf-seat__count muted small");
    count.dataset.testid = `replay-count-${seat}`;
    const bank = node("span", "rf-seat__bank");
    bank.title = t("f_bank");
    bank.dataset.testid = `replay-bank-${seat}`;
    head.append(dot, name, count, bank);
    const tiles = node("div", "rf-seat__tiles");
    tiles.dataset.testid = `replay-revealed-${seat}`;
    const pips = node("span", "rf-seat__pips muted small");
    card.append(head, tiles, pips);
    cards.push(card);
    B.seats.push({ card, count, bank, tiles, pips });
  }
  seatsBox.replaceChildren(...cards);
  root.classList.toggle("rf--four", seats === 4);

  B.handButtons = [];
  const items = (data.hands || []).map((summary, h) => {
    const li = node("li", "rf-hands__item");
    const btn = node("button", "rf-hands__btn");
    btn.type = "button";
    btn.dataset.hand = String(h);
    btn.append(node("span", "rf-hands__title", t("f_hand", { n: h + 1 })));
    const after = (data.scores_by_hand || [])[h + 1];
    btn.append(node("span", "rf-hands__score", after ? after.join("–") : ""));
    btn.append(node("span", "rf-hands__end", summary.end ? endText(ctx, summary) : t("f_end_running")));
    const start = B.starts[h];
    if (start === undefined) btn.disabled = true;
    else btn.addEventListener("click", () => viewer.go(start));
    li.append(btn);
    B.handButtons.push(btn);
    return li;
  });
  handsList.replaceChildren(...items);
  handsCard.hidden = items.length === 0;
}

function describe(ctx, frame, index, data) {
  const { B, t, viewer } = ctx;
  if (B.data !== data) prepare(ctx, data);
  const a = frame.action || {};
  const name = viewer.nameOf(a.seat);
  const hand = handOf(frame);
  let text;
  let badge = "";
  switch (a.type) {
    case "play":
      text = a.target == null ? t("f_lead", { name, tile: tileText(a.tile) })
        : t("f_play", { name, tile: tileText(a.tile), target: tileText(a.target) });
      if (a.points > 0) badge = t("f_points", { points: a.points });
      break;
    case "draw":
      text = t("f_draw", { name });
      break;
    case "pass":
      text = a.forced ? t("f_forced_pass", { name }) : t("f_pass", { name });
      break;
    case "resign":
      text = t("f_resign", { name });
      break;
    case "flag":
      text = t("f_flag", { name });
      break;
    default:
      text = t("f_unknown", { name, type: a.type });
  }
  let note = "";
  const summary = (data.hands || [])[hand];
  if (B.lasts[hand] === index && summary && summary.end) {
    note = t("f_hand_over", { n: hand + 1, what: endText(ctx, summary) });
  }
  return { text, badge, note, tag: t("f_hand", { n: hand + 1 }) };
}

function result(ctx, data) {
  const { t, viewer } = ctx;
  const r = data.result;
  if (!r || r.winner == null) return "";
  const name = viewer.nameOf(r.winner);
  const ranks = Array.isArray(r.ranks) ? r.ranks : [];
  const worst = ranks.length ? Math.max(...ranks) : null;
  const losers = ranks.map((x, s) => (x === worst ? s : -1)).filter((s) => s >= 0);
  const loser = losers.length === 1 ? viewer.nameOf(losers[0]) : "";
  if (r.reason === "target") return t("f_result_target", { name });
  if (r.reason === "time" && loser) return t("f_result_time", { name, loser });
  if (r.reason === "resign" && loser) return t("f_result_resign", { name, loser });
  return t("f_result_other", { name });
}

function show(ctx, frame, index, data) {
  const { B, t, labels, root, handsList, handPill, targetPill, crossPill, bazaarPill, endsPill, svg, revealedNote } = ctx;
  if (B.data !== data) prepare(ctx, data);
  const a = frame.action || {};
  const hand = handOf(frame);
  const rules = data.rules || {};
  const seats = B.seats.length;

  handPill.label.textContent = t("f_hand", { n: hand + 1 });
  handPill.value.textContent = "";
  targetPill.label.textContent = t("f_target");
  targetPill.value.textContent = rules.target != null ? String(rules.target) : "–";
  crossPill.label.textContent = rules.cross ? t("f_cross_on") : t("f_cross_off");
  crossPill.value.textContent = "";
  bazaarPill.label.textContent = t("f_bazaar");
  bazaarPill.value.textContent = String(frame.bazaar_count ?? 0);
  // Four players share out every tile: there is no bazaar to show.
  bazaarPill.pill.hidden = seats === 4 && !frame.bazaar_count;
  endsPill.label.textContent = t("f_ends");
  endsPill.value.textContent = String(frame.board ? frame.board.ends_sum : 0);

  const board = frame.board || EMPTY_BOARD;
  renderBoard(svg, { ...board, spinner: board.cross ?? null }, {
    lastTile: a.type === "play" ? a.tile : null,
    showValues: true,
    labels,
  });

  const revealed = Array.isArray(frame.revealed) ? frame.revealed : null;
  const summary = (data.hands || [])[hand];
  revealedNote.hidden = !revealed;
  root.classList.toggle("rf--revealed", !!revealed);
  B.seats.forEach((s, seat) => {
    const n = (frame.hand_counts || [])[seat];
    s.count.textContent = n == null ? "" : n === 1 ? t("f_tiles_one") : t("f_tiles_n", { n });
    s.bank.textContent = clockText((frame.banks || [])[seat]);
    s.card.classList.toggle("is-acting", a.seat === seat);
    s.card.classList.toggle("is-winner", !!(revealed && summary && summary.winner === seat));
    if (revealed) {
      const held = revealed[seat] || [];
      if (held.length) {
        renderHand(s.tiles, held, { labels });
      } else {
        s.tiles.replaceChildren(node("span", "rf-seat__none muted small", t("f_no_tiles")));
      }
      const pips = summary && Array.isArray(summary.pips) ? summary.pips[seat] : null;
      s.pips.textContent = pips == null ? "" : pips === 1 ? t("f_pips_one") : t("f_pips", { n: pips });
    } else {
      s.tiles.replaceChildren();
      s.pips.textContent = "";
    }
    s.tiles.hidden = !revealed;
    s.pips.hidden = !revealed;
  });

  markCurrentHand(handsList, B.handButtons, hand);
}

export function mount(element, viewer) {
  useStyle(new URL("../../css/board.css", import.meta.url));
  useStyle(new URL("./replay.css", import.meta.url));
  const t = (key, params) => viewer.t(key, params);
  const labels = {};
  for (const key of LABEL_KEYS) labels[key] = t(`lbl_${key}`);

  const page = buildPage(t);
  element.replaceChildren(page.root);
  const B = {
    data: null,
    seats: [], // per seat: {card, count, bank, tiles, pips}
    starts: [], // each hand's first frame
    lasts: [], // each hand's last frame
    handButtons: [],
  };
  const ctx = { ...page, B, t, viewer, labels };
  const scores = (frame) => frame.scores || (frame.action && frame.action.scores) || [];
  return {
    show: (frame, index, data) => show(ctx, frame, index, data),
    describe: (frame, index, data) => describe(ctx, frame, index, data),
    scores,
    result: (data) => result(ctx, data),
    // The game review's words for a record-shaped action (static/js/replay_review.js).
    actionText: (action) => describe(ctx, { action }, -1, B.data).text,
  };
}
