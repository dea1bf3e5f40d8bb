/**
 * The five-dice replay, on the shared viewer (static/js/replay_shell.js,
 * templates/games/replay_table.html):
 *
 *   mount(element, viewer) -> {show(frame, index, data), describe, scores, result}
 *
 * A frame (games/dice/frames.py) is the game after one record action: `action` (order,
 * roll, stand, improve, resign), the turn on the table or just recorded (`turn`: its
 * first roll, the dice kept and re-rolled, what was recorded), and the score sheet so
 * far (`scores`: a row of seat scores per round begun, `winners`, `totals`,
 * `round_wins`). Everything in a dice game is public.
 *
 * The dice are drawn as on the table page (games/dice/static/games/dice/board.js draws
 * them the same way; the drawing is copied here so that each page owns its own), with
 * the styles in replay.css beside this file. Strings come from the viewer (viewer.t).
 */

import { useStyle } from "../../js/replay_parts.js";

const PIPS = ["tl", "tr", "ml", "c", "mr", "bl", "br"];

function node(tag, className, text) {
  const n = document.createElement(tag);
  if (className) n.className = className;
  if (text != null) n.textContent = text;
  return n;
}

/** One die showing `value`; `extra`: "is-kept", "is-new", "rd-die--small"... */
function die(value, extra = "") {
  const d = node("span", `rd-die rd-die--${value} ${extra}`.trim());
  d.dataset.value = String(value);
  const face = node("span", "rd-face");
  face.setAttribute("aria-hidden", "true");
  for (const p of PIPS) face.append(node("span", `rd-pip rd-p-${p}`));
  d.append(face, node("span", "visually-hidden", String(value)));
  return d;
}

const quick = (data) => !!(data.rules && data.rules.quick);
const seatsOf = (data) => (data.players || []).length;

function cell(tag, text, className) {
  return node(tag, className, text);
}

/** The page this module draws in its element: the table and the score sheet. */
function buildPage(t) {
  const root = node("div", "rd");
  const table = node("section", "rd-table");
  table.setAttribute("aria-label", t("d_table"));
  const head = node("header", "rd-table__head");
  const title = node("h2", "rd-title");
  title.dataset.testid = "replay-round";
  const who = node("p", "rd-who");
  head.append(title, who);
  const diceRow = node("div", "rd-dice");
  diceRow.dataset.testid = "replay-dice";
  const first = node("div", "rd-first");
  first.dataset.testid = "replay-first-roll";
  const comboLine = node("p", "rd-combo");
  comboLine.dataset.testid = "replay-combo";
  table.append(head, first, diceRow, comboLine);

  const sheetCard = node("section", "card rp-panel rd-sheet");
  const sheetTitle = node("h2", "rp-panel__title", t("d_sheet"));
  const wrap = node("div", "rd-sheet__wrap");
  const sheet = node("table", "rd-sheet__table");
  sheet.dataset.testid = "replay-sheet";
  wrap.append(sheet);
  const scoreline = node("p", "rd-scoreline");
  scoreline.dataset.testid = "replay-scoreline";
  sheetCard.append(sheetTitle, wrap, scoreline);
  root.append(table, sheetCard);
  return { root, table, title, who, diceRow, first, comboLine, sheet, scoreline };
}

function describe(ctx, frame) {
  const { t, viewer, combo, diceText } = ctx;
  const a = frame.action || {};
  const name = viewer.nameOf(a.seat);
  const turn = frame.turn;
  const tag = a.type === "order" ? t("d_order") : t("d_round", { n: (a.round ?? 0) + 1 });
  let text;
  let note = "";
  switch (a.type) {
    case "order":
      text = t("d_order_roll", { name, die: a.die });
      break;
    case "roll":
      text = t("d_roll", { name, dice: diceText(a.dice), combo: combo(turn ? turn.combination : "nothing"), score: turn ? turn.first : "" });
      break;
    case "stand":
      text = a.forced ? t("d_stand_forced", { name, score: a.score }) : t("d_stand", { name, score: a.score });
      break;
    case "improve":
      text = t("d_improve", { name, keep: diceText(a.keep), dice: diceText(a.dice), score: a.score });
      if (turn && turn.second != null && turn.second <= turn.first) note = t("d_fell_back", { score: a.score });
      break;
    case "resign":
      text = t("d_resign", { name });
      break;
    default:
      text = t("d_unknown", { name, type: a.type });
  }
  return { text, tag, note };
}

function result(ctx, data) {
  const { t, viewer } = ctx;
  const r = data.result;
  if (!r || !r.reason) return "";
  const parts = [];
  const totals = data.totals || [];
  const wins = data.round_wins || [];
  if (seatsOf(data) === 1) {
    parts.push(t("d_result_solo", { score: quick(data) ? wins[0] : totals[0] }));
  } else if (r.absolute) {
    parts.push(t("d_result_absolute", { name: viewer.nameOf(r.points_winner) }));
  } else {
    if (!quick(data)) {
      parts.push(r.points_winner != null
        ? t("d_result_points", { name: viewer.nameOf(r.points_winner), score: totals[r.points_winner] })
        : t("d_result_points_tie", { score: totals.length ? Math.max(...totals) : 0 }));
    }
    parts.push(r.rounds_winner != null
      ? t("d_result_rounds", { name: viewer.nameOf(r.rounds_winner), n: wins[r.rounds_winner] })
      : t("d_result_rounds_tie"));
  }
  if (r.reason === "resign") parts.push(t("d_result_resigned"));
  return parts.join(" · ");
}

function showTable(ctx, frame) {
  const { t, viewer, combo, title, who, diceRow, first, comboLine, table } = ctx;
  const a = frame.action || {};
  const turn = frame.turn;
  title.textContent = describe(ctx, frame).tag;
  who.textContent = viewer.nameOf(a.seat);
  table.className = `rd-table${a.seat != null ? ` seat-${a.seat}` : ""}`;
  let big = [];
  let small = [];
  let line = "";
  if (a.type === "order") {
    big = [die(a.die)];
  } else if (turn && (a.type === "roll" || a.type === "stand" || a.type === "improve")) {
    if (turn.keep && a.type === "improve") {
      small = turn.dice.map((v) => die(v, "rd-die--small"));
      big = [...turn.keep.map((v) => die(v, "is-kept")), ...(turn.rerolled || []).map((v) => die(v, "is-new"))];
      line = `${t("d_first", { combo: combo(turn.combination), score: turn.first })} · ${t("d_second", { score: turn.second })} · ${t("d_recorded", { score: turn.recorded })}`;
    } else {
      big = turn.dice.map((v) => die(v));
      line = a.type === "roll" ? t("d_combo", { combo: combo(turn.combination), score: turn.first })
        : t("d_recorded", { score: turn.recorded ?? a.score });
    }
  }
  diceRow.replaceChildren(...big);
  first.replaceChildren(...small);
  first.hidden = small.length === 0;
  comboLine.textContent = line;
  comboLine.hidden = !line;
}

function showSheet(ctx, frame, data) {
  const { t, viewer, sheet, scoreline } = ctx;
  const seats = seatsOf(data);
  const rounds = (data.rules && data.rules.rounds) || (frame.scores || []).length;
  const a = frame.action || {};
  const thead = document.createElement("thead");
  const hr = document.createElement("tr");
  hr.append(cell("th", t("d_sheet_round"), "rd-sheet__round"));
  for (let s = 0; s < seats; s += 1) {
    const th = cell("th", viewer.nameOf(s), `seat-${s}`);
    th.scope = "col";
    hr.append(th);
  }
  thead.append(hr);
  const tbody = document.createElement("tbody");
  for (let r = 0; r < rounds; r += 1) {
    const row = (frame.scores || [])[r];
    const winner = (frame.winners || [])[r];
    const tr = document.createElement("tr");
    if (frame.round === r && frame.phase !== "over") tr.classList.add("is-current");
    const th = cell("th", String(r + 1), "rd-sheet__round");
    th.scope = "row";
    if (row && winner == null && seats > 1 && row.every((v) => v != null)) th.append(cell("span", t("d_sheet_tie"), "rd-sheet__tie"));
    tr.append(th);
    for (let s = 0; s < seats; s += 1) {
      const value = row ? row[s] : null;
      const td = cell("td", value == null ? "" : String(value), `seat-${s}`);
      td.dataset.testid = `replay-sheet-${r}-${s}`;
      if (value != null && a.round === r && a.seat === s && (a.type === "stand" || a.type === "improve")) td.classList.add("is-new");
      if (winner === s && seats > 1) {
        td.classList.add("is-winner");
        const star = cell("span", "★", "rd-sheet__star");
        star.setAttribute("role", "img");
        star.setAttribute("aria-label", t("d_sheet_won"));
        star.title = t("d_sheet_won");
        td.prepend(star);
      }
      tr.append(td);
    }
    tbody.append(tr);
  }
  const tfoot = document.createElement("tfoot");
  if (!quick(data) && frame.totals) {
    const tr = document.createElement("tr");
    const th = cell("th", t("d_sheet_points"));
    th.scope = "row";
    tr.append(th);
    frame.totals.forEach((total, s) => {
      const td = cell("td", String(total), `seat-${s}`);
      td.dataset.testid = `replay-total-${s}`;
      tr.append(td);
    });
    tfoot.append(tr);
  }
  if (seats > 1) {
    const tr = document.createElement("tr");
    const th = cell("th", t("d_sheet_rounds_won"));
    th.scope = "row";
    tr.append(th);
    (frame.round_wins || []).forEach((wins, s) => {
      const td = cell("td", String(wins), `seat-${s}`);
      td.dataset.testid = `replay-round-wins-${s}`;
      tr.append(td);
    });
    tfoot.append(tr);
  }
  sheet.replaceChildren(thead, tbody, tfoot);
  // As the paper sheet writes it: 64:62 || 1:1.
  if (seats > 1) {
    const points = quick(data) || !frame.totals ? "" : `${frame.totals.join(":")} || `;
    scoreline.textContent = `${points}${(frame.round_wins || []).join(":")}`;
  }
  scoreline.hidden = seats < 2;
}

function show(ctx, frame, index, data) {
  showTable(ctx, frame);
  showSheet(ctx, frame, data);
}

export function mount(element, viewer) {
  useStyle(new URL("./replay.css", import.meta.url));
  const t = (key, params) => viewer.t(key, params);
  const combo = (name) => t(`d_c_${name}`);
  const diceText = (dice) => (dice && dice.length ? dice.join(" ") : t("d_keep_nothing"));

  const page = buildPage(t);
  element.replaceChildren(page.root);
  const ctx = { ...page, t, viewer, combo, diceText };
  const scores = (frame, index, data) => (quick(data) || !frame.totals ? frame.round_wins : frame.totals) || [];
  return {
    show: (frame, index, data) => show(ctx, frame, index, data),
    describe: (frame) => describe(ctx, frame),
    scores,
    result: (data) => result(ctx, data),
  };
}
