/**
 * The Spectacular Bid replay, on the shared viewer (static/js/replay_shell.js,
 * templates/games/replay_table.html):
 *
 *   mount(element, viewer) -> {show(frame, index, data), describe, scores, result, actionText}
 *
 * A frame (games/spectacular_bid/frames.py) is the match after one action, all hands
 * open: {action: {hand, seat, type, tile?, target?, port?, amount?, points, balances,
 * forced?}, hand_no, phase, balances, banks, board, hands: [[...], [...]],
 * boneyard_count, jockey}. `data` also has each hand's summary (`hands`) and the
 * balances after each hand (`balances_by_hand`).
 *
 * Drawn here: the board and both hands (static/js/board.js), each seat's balance, bank,
 * tile count and the jockey; the list of hands (a click goes to a hand's first move);
 * and the tug of war, the balance at every move (static/js/charts.js), which also moves
 * the viewer when clicked. Strings come from the viewer (viewer.t, keys "sb_…").
 */

import { renderBoard, renderHand } from "../../js/board.js";
import { lineChart } from "../../js/charts.js";
import { handBounds, markCurrentHand, useStyle } from "../../js/replay_parts.js";

const LABEL_KEYS = ["board", "board_one", "board_empty", "tile", "tile_spinner", "tile_last", "hand", "hand_one"];
const EMPTY_BOARD = { tiles: [], spinner: null, ends_sum: 0, places: [] };
const SVG_NS = "http://www.w3.org/2000/svg";

function node(tag, className, text) {
  const n = document.createElement(tag);
  if (className) n.className = className;
  if (text != null) n.textContent = text;
  return n;
}

function clockText(sec) {
  if (!(sec > 0)) return "0:00";
  const total = Math.floor(sec + 1e-6);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

const handOf = (frame) => frame.action?.hand ?? frame.hand_no ?? 0;

/** The tile that appeared in `seat`'s hand between two frames (a draw). */
function drawnTile(frame, before, seat) {
  if (!before) return null;
  const had = new Set(before.hands?.[seat] || []);
  return (frame.hands?.[seat] || []).find((tile) => !had.has(tile)) ?? null;
}

/** One seat's box: name, jockey badge, tile count, balance, bank and the open hand. */
function seatBox(seat, t) {
  const card = node("section", `rp-seat rp-seat--${seat}`);
  card.dataset.seat = String(seat);
  card.id = `replay-seat-${seat}`;
  const head = node("header", "rp-seat__head");
  const dot = node("span", `pg-dot pg-dot--${seat}`);
  dot.setAttribute("aria-hidden", "true");
  const name = node("span", "rp-seat__name");
  name.id = `replay-name-${seat}`;
  const jockey = node("span", "badge rp-jockey", t("sb_jockey"));
  jockey.title = t("sb_jockey_title");
  jockey.hidden = true;
  const count = node("span", "rp-seat__count muted small");
  const nums = node("span", "rp-seat__nums");
  const balanceBox = node("span", "rp-balance");
  const balance = node("b", "", "–");
  balance.dataset.testid = `replay-balance-${seat}`;
  balanceBox.append(balance);
  const bank = node("span", "rp-clock", "–:––");
  bank.title = t("sb_bank");
  bank.dataset.testid = `replay-bank-${seat}`;
  nums.append(balanceBox, bank);
  head.append(dot, name, jockey, count, nums);
  const hand = node("div", "rp-hand");
  hand.id = `replay-hand-${seat}`;
  hand.dataset.testid = `replay-hand-${seat}`;
  card.append(head, hand);
  return { card, name, jockey, count, balance, bank, hand };
}

function pill(text, title) {
  const p = node("span", "rp-pill");
  if (title) p.title = title;
  const label = node("span", "", text);
  const value = node("b", "", "0");
  p.append(label, " ", value);
  return { pill: p, label, value };
}

/** The page this module draws in its element: the table, the list of hands, the tug of war. */
function buildPage(t) {
  const table = node("div", "rp-table");
  const boardWrap = node("section", "rp-board-wrap");
  boardWrap.setAttribute("aria-label", t("sb_lbl_board_empty"));
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", "fives-board");
  svg.id = "replay-board";
  svg.dataset.testid = "replay-board";
  const info = node("div", "rp-board-info");
  const handPill = node("span", "rp-pill rp-pill--hand");
  handPill.dataset.testid = "replay-hand";
  const phasePill = node("span", "rp-pill");
  const ends = pill(t("sb_ends"), t("sb_ends_title"));
  const boneyard = pill(t("sb_boneyard"), t("sb_boneyard_title"));
  info.append(handPill, phasePill, ends.pill, boneyard.pill);
  boardWrap.append(svg, info);
  const seats = [0, 1].map((seat) => seatBox(seat, t));
  table.append(seats[1].card, boardWrap, seats[0].card);

  const handsCard = node("section", "card rp-panel");
  handsCard.append(node("h2", "rp-panel__title", t("sb_hands")));
  const handsList = node("ol", "rp-hands");
  handsList.id = "replay-hands";
  handsList.dataset.testid = "replay-hands";
  handsCard.append(handsList);

  const chartCard = node("section", "card rp-chart-card");
  const chartHead = node("div", "card__head");
  chartHead.append(node("h2", "", t("sb_tug")), node("span", "muted small", t("sb_chart_note")));
  const chartSvg = document.createElementNS(SVG_NS, "svg");
  chartSvg.setAttribute("class", "pg-chart pg-chart--balance");
  chartSvg.id = "balance-chart";
  chartSvg.dataset.testid = "balance-chart";
  chartCard.append(chartHead, chartSvg);

  const root = node("div", "sbr");
  root.append(table, handsCard, chartCard);
  return { root, svg, handPill, phasePill, ends, boneyard, seats, handsList, chartSvg };
}

/** How hand ``h`` ended, in words. */
function handEndText({ B, t, viewer }, h) {
  const summary = B.data.hands?.[h];
  if (!summary || !summary.end) return "";
  if (summary.end === "domino") {
    return t("sb_end_domino", { name: viewer.nameOf(B.data.frames[B.lasts[h]]?.action?.seat) });
  }
  if (summary.end === "blocked") {
    return summary.sums
      ? t("sb_end_blocked", { a: summary.sums[0], b: summary.sums[1], points: summary.settlement ?? 0 })
      : t("sb_end_blocked_short");
  }
  if (summary.end === "match_over") return t("sb_end_match_over");
  return summary.end;
}

/** The list of hands: a button each, to its first move. */
function drawHandsList(ctx, data) {
  const { B, t, viewer, handsList } = ctx;
  const items = [];
  (data.hands || []).forEach((summary, h) => {
    const start = B.starts[h];
    if (start === undefined) return;
    const btn = node("button", "rp-hands__btn");
    btn.type = "button";
    btn.dataset.hand = String(h);
    const opening = summary.jockey == null ? t("sb_opening_hierarchy") : t("sb_opening_auction");
    const bal = data.balances_by_hand?.[h + 1];
    btn.append(
      node("span", "rp-hands__title", t("sb_hand", { n: h + 1 })),
      node("span", "rp-hands__opening", opening),
      node("span", "rp-hands__score", bal ? `${bal[0]}–${bal[1]}` : ""),
      node("span", "rp-hands__end", summary.end ? handEndText(ctx, h) : t("sb_end_running")),
    );
    btn.addEventListener("click", () => viewer.go(start));
    const li = node("li", "rp-hands__item");
    li.append(btn);
    items.push(li);
  });
  handsList.replaceChildren(...items);
}

/** The tug of war: the first seat's balance at every move, the hands marked. */
function chartOptions({ B, t, viewer }, data) {
  const start = data.rules?.start_points ?? 150;
  const points = [[0, start]];
  data.frames.forEach((f, i) => points.push([i + 1, f.balances?.[0] ?? f.action?.balances?.[0] ?? start]));
  const handEnds = [];
  B.lasts.forEach((last, h) => {
    const bal = data.balances_by_hand?.[h + 1];
    if (bal && data.hands?.[h]?.end) handEnds.push([last + 1, bal[0]]);
  });
  const vLines = B.starts
    .map((s, h) => ({ x: s + 0.5, label: t("sb_hand_short", { n: h + 1 }), className: "chart-vline--hand" }))
    .filter((v, h) => h > 0 || B.starts.length > 1);
  return {
    title: t("sb_chart_title", { a: viewer.nameOf(0), b: viewer.nameOf(1) }),
    height: 230,
    series: [
      { points, className: "chart-line--balance", step: true, fillTo: start, fillAbove: "chart-area--seat0", fillBelow: "chart-area--seat1" },
      // a dot at each hand's end, while there are few enough to tell apart
      { points: handEnds.length <= 40 ? handEnds : [], className: "chart-line--none chart-dots--hand", dots: true },
    ],
    x: { min: 0, max: Math.max(1, data.frames.length), integer: true, label: t("sb_chart_x") },
    y: { min: 0, max: 2 * start, ticks: [0, start / 2, start, start * 1.5, 2 * start] },
    refLines: [{ y: start, label: t("sb_chart_start"), className: "chart-ref--centre" }],
    vLines,
    edgeLabels: { top: t("sb_chart_ahead", { name: viewer.nameOf(0) }), bottom: t("sb_chart_ahead", { name: viewer.nameOf(1) }) },
    marker: { x: 1, y: points[1]?.[1] },
    onPick: (x) => viewer.go(Math.max(0, Math.round(x) - 1)),
  };
}

/** An action in words, and the points badge it earns. */
function actionText({ t, viewer }, frame, before) {
  const a = frame.action || {};
  const name = viewer.nameOf(a.seat);
  const port = (p) => t(`sb_port_${p}`);
  let text;
  let badge = "";
  switch (a.type) {
    case "play":
      text = a.target ? t("sb_play", { name, tile: a.tile, target: a.target, port: port(a.port) })
        : t("sb_open", { name, tile: a.tile });
      if (a.points) badge = t("sb_gain", { points: a.points });
      break;
    case "draw": {
      const tile = drawnTile(frame, before, a.seat);
      text = tile ? t("sb_draw", { name, tile }) : t("sb_draw_hidden", { name });
      break;
    }
    case "pass":
      text = a.forced ? t("sb_forced_pass", { name }) : t("sb_pass", { name });
      break;
    case "bid":
      text = t("sb_bid", { name, amount: a.amount });
      break;
    case "accept":
      text = t("sb_accept", { name });
      if (a.points) badge = t("sb_paid", { points: a.points });
      break;
    case "decline":
    case "continue":
    case "reveal":
    case "resign":
    case "abort":
      text = t(`sb_${a.type}`, { name });
      break;
    default:
      text = t("sb_unknown", { name, type: a.type });
  }
  if (a.forced && a.type !== "pass") text = `${text} (${t("sb_forced")})`;
  return { text, badge };
}

export function mount(element, viewer) {
  useStyle(new URL("../../css/board.css", import.meta.url));
  useStyle(new URL("./replay.css", import.meta.url));
  const t = (key, params) => viewer.t(key, params);
  const labels = {};
  for (const key of LABEL_KEYS) labels[key] = t(`sb_lbl_${key}`);

  const page = buildPage(t);
  const { svg, handPill, phasePill, ends, boneyard, seats, handsList, chartSvg } = page;
  element.replaceChildren(page.root);

  const B = { data: null, starts: [], lasts: [], chart: null };
  const ctx = { B, t, viewer, handsList };

  // ---------------------------------------------------------------- per replay

  function prepare(data) {
    B.data = data;
    ({ starts: B.starts, lasts: B.lasts } = handBounds(data.frames, handOf));
    seats.forEach((s, seat) => {
      s.name.textContent = viewer.nameOf(seat);
    });
    drawHandsList(ctx, data);
    if (B.chart) B.chart.destroy();
    // Drawn once the card is in the page (it measures itself).
    B.chart = lineChart(chartSvg, chartOptions(ctx, data));
  }

  // ---------------------------------------------------------------- the viewer's questions

  function describe(frame, index, data) {
    if (B.data !== data) prepare(data);
    const before = index > 0 ? data.frames[index - 1] : null;
    const { text, badge } = actionText(ctx, frame, before);
    const hand = handOf(frame);
    const end = B.lasts[hand] === index ? handEndText(ctx, hand) : "";
    return {
      text, badge, tag: t("sb_hand", { n: hand + 1 }),
      note: end ? t("sb_hand_over", { n: hand + 1, what: end }) : "",
    };
  }

  const scores = (frame) => frame.balances || frame.action?.balances || [];

  function result(data) {
    const r = data.result || {};
    if (r.winner == null) return "";
    const name = viewer.nameOf(r.winner);
    if (["points", "time", "resign"].includes(r.reason)) return t(`sb_result_${r.reason}`, { name });
    return t("sb_result_other", { name, reason: r.reason });
  }

  // ---------------------------------------------------------------- drawing

  function show(frame, index, data) {
    if (B.data !== data) prepare(data);
    const before = index > 0 ? data.frames[index - 1] : null;
    const a = frame.action || {};
    const hand = handOf(frame);
    renderBoard(svg, frame.board || EMPTY_BOARD, { lastTile: a.type === "play" ? a.tile : null, showValues: true, labels });
    ends.value.textContent = String(frame.board?.ends_sum ?? 0);
    boneyard.value.textContent = String(frame.boneyard_count ?? 0);
    handPill.textContent = t("sb_hand", { n: hand + 1 });
    phasePill.textContent = frame.phase ? t(`sb_phase_${frame.phase}`) : "";
    phasePill.hidden = !frame.phase;
    seats.forEach((s, seat) => {
      const tiles = frame.hands?.[seat] || [];
      const drawn = a.type === "draw" && a.seat === seat ? drawnTile(frame, before, seat) : null;
      renderHand(s.hand, tiles, drawn ? { selected: drawn, labels } : { labels });
      s.balance.textContent = String(frame.balances?.[seat] ?? "–");
      s.bank.textContent = clockText(frame.banks?.[seat]);
      s.count.textContent = tiles.length === 1 ? t("sb_tile_one") : t("sb_tiles", { n: tiles.length });
      s.jockey.hidden = frame.jockey !== seat;
      s.card.classList.toggle("rp-seat--acting", a.seat === seat);
      const prev = before ? before.balances?.[seat] : data.rules?.start_points;
      const delta = (frame.balances?.[seat] ?? 0) - (prev ?? 0);
      s.card.classList.toggle("rp-seat--up", delta > 0);
      s.card.classList.toggle("rp-seat--down", delta < 0);
    });
    markCurrentHand(handsList, handsList.querySelectorAll("button[data-hand]"), hand);
    if (B.chart) B.chart.update({ marker: { x: index + 1, y: frame.balances?.[0] } });
  }

  // The game review's words for a record-shaped action (static/js/replay_review.js).
  const wordsOf = (action) => actionText(ctx, { action }, null).text;

  return { show, describe, scores, result, actionText: wordsOf };
}
