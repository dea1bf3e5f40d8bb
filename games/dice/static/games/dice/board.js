/**
 * The five-dice board, mounted by static/js/shell.js in templates/games/table.html.
 *
 *   mount(element, shell) -> {update(state)}
 *
 * The view (games/dice/view.py) is public: every seat sees the whole game; `legal` says
 * what the seat may send. The server rolls the dice itself as soon as they are due, so
 * a board mostly sees a roll on the table (phase "decide") or the game over; what a
 * re-roll gave shows in the score sheet's last turn, drawn here as "the last turn".
 *
 * Keeping dice is local until Re-roll: the dice are buttons (click, tap, Space or
 * Enter) with aria-pressed. The odds panel (remembered in localStorage, never in rated
 * games) asks GET /api/matches/<id>/advice for the roll on the table; after the game the
 * analysis comes from GET /api/matches/<id>/analysis. Strings come from the template
 * (shell.t); no inline style (CSP): the clock is a <progress>.
 *
 * Each part of the board (the table, the last turn, the read-outs, the sheet, the
 * result, the odds, the analysis) is made by a function of its own from one shared
 * context; mount() makes them and draws them all on every state.
 *
 * By keyboard alone: the dice are one Tab stop (the arrow keys move among them, Space or
 * Enter keeps one), R re-rolls and S stands (static/js/table_keys.js). The focus stays in
 * the game: while the dice wait for the next roll it waits on the table, and it comes
 * back to the dice at the next decision; the player's turn is read out.
 */

import { keepFocus, roving } from "../../js/board.js";

const ODDS_KEY = "dice.odds";
const ROLL_MS = 650;

const num = (x) => (Math.round(x * 10) / 10).toFixed(1);
const allTurns = (view) => (view.sheet || []).flatMap((r) => r.turns || []);

function pickView(state) {
  if (state.view) return state.view;
  const views = state.views || [];
  return views.find((v) => v && v.to_act != null && v.seat === v.to_act) || views[0] || null;
}

function dieFace(node, value) {
  node.dataset.face = value ? String(value) : "";
  for (let f = 1; f <= 6; f += 1) node.classList.toggle(`die--${f}`, f === value);
}

function smallDie(value, extra = "") {
  const d = document.createElement("span");
  d.className = `die die--small ${extra}`.trim();
  const face = document.createElement("span");
  face.className = "die-face";
  face.setAttribute("aria-hidden", "true");
  for (const p of ["tl", "tr", "ml", "c", "mr", "bl", "br"]) {
    const pip = document.createElement("span");
    pip.className = `pip p-${p}`;
    face.append(pip);
  }
  const label = document.createElement("span");
  label.className = "visually-hidden";
  label.textContent = String(value);
  d.append(face, label);
  dieFace(d, value);
  return d;
}

function roll(node) {
  node.classList.remove("is-rolling");
  void node.offsetWidth; // restart the animation
  node.classList.add("is-rolling");
  setTimeout(() => node.classList.remove("is-rolling"), ROLL_MS + 50);
}

function cell(tag, text, cls) {
  const c = document.createElement(tag);
  if (text != null) c.textContent = text;
  if (cls) c.className = cls;
  return c;
}

/** The dice on the table: keeping, Stand and Re-roll, the combination and the clock. */
function tablePart(ctx) {
  const { shell, el, S, t, nameOf, comboName, isActive, myDecision, keepValues, renderOddsMine } = ctx;

  function renderTable() {
    const v = S.view;
    const table = v.table;
    const rounds = v.rules ? v.rules.rounds : (v.sheet || []).length;
    if (v.phase === "order") el.round.textContent = t("order_phase");
    else if (!isActive() || v.phase === "over") el.round.textContent = t("game_over");
    else el.round.textContent = t("round_of", { n: (v.round ?? 0) + 1, total: rounds });

    // Once over, the empty table makes way for the result.
    el.table.hidden = !table && (!isActive() || v.phase === "over");
    const mine = myDecision();
    const key = table ? `${allTurns(v).length}:${table.seat}` : "";
    const fresh = key !== S.turnKey;
    if (fresh) {
      S.turnKey = key;
      S.selected.clear();
    }
    el.dice.forEach((node, i) => {
      const value = table ? table.dice[i] : null;
      dieFace(node, value);
      node.querySelector(".die-value").textContent = value ? String(value) : "";
      node.setAttribute("aria-label", value ? t("die_label", { n: i + 1, value }) : "");
      node.disabled = !mine || S.sending;
      const kept = mine && S.selected.has(i);
      node.setAttribute("aria-pressed", kept ? "true" : "false");
      node.classList.toggle("is-kept", kept);
      node.classList.toggle("is-empty", !value);
      node.classList.toggle("in-combo", !!table && inCombo(table, i));
      if (fresh && value) roll(node);
    });
    el.row.classList.toggle("is-mine", mine);

    if (table) {
      el.comboName.textContent = `${comboName(table.combination)}:`;
      el.comboScore.textContent = String(table.score);
      el.records.textContent = t("improve_rule", { score: table.stand_records, fallback: table.fallback });
      el.turn.textContent = mine ? t("your_decision") : t("other_decision", { name: nameOf(table.seat) });
    } else {
      el.comboName.textContent = "";
      el.comboScore.textContent = "";
      el.records.textContent = "";
      el.turn.textContent = "";
    }
    el.actions.hidden = !mine;
    if (mine) {
      const kept = S.selected.size;
      el.stand.textContent = t("stand_btn", { score: table.stand_records });
      el.reroll.textContent = kept === 0 ? t("reroll_all")
        : kept === 4 ? t("reroll_one") : t("reroll_n", { n: 5 - kept });
      el.reroll.disabled = kept > 4 || S.sending;
      el.stand.disabled = S.sending;
      el.hint.textContent = kept > 4 ? t("keep_too_many") : t("keep_hint");
    }
    if (isActive() && table) {
      shell.setStatus(mine ? t("status_yours", { n: (v.round ?? 0) + 1 })
        : t("status_other", { n: (v.round ?? 0) + 1, name: nameOf(table.seat) }));
    }
    renderClock();
    refreshDice();
    ctx.restoreFocus();
  }

  // The dice are one Tab stop: the arrow keys move among them.
  el.dice.forEach((d, i) => d.setAttribute("tabindex", i ? "-1" : "0"));
  const refreshDice = roving(el.row, ".die", { keyOf: (d) => d.getAttribute("data-index") });

  /** Whether die ``i`` is part of the scoring combination (first matches, in order). */
  function inCombo(table, i) {
    const want = [...(table.combination_dice || [])];
    for (let j = 0; j <= i; j += 1) {
      const at = want.indexOf(table.dice[j]);
      if (at >= 0) {
        if (j === i) return true;
        want.splice(at, 1);
      }
    }
    return false;
  }

  function renderClock() {
    const v = S.view;
    const c = v && v.clock;
    const running = c && c.deadline != null && isActive() && v.table;
    el.clock.hidden = !running;
    if (!running) return;
    const left = Math.max(0, c.deadline - shell.now());
    el.clockBar.max = c.decision_s;
    el.clockBar.value = Math.min(c.decision_s, left);
    el.clockLeft.textContent = t("clock_left", { s: Math.ceil(left) });
    el.clock.classList.toggle("is-low", left < 10);
  }

  el.dice.forEach((node, i) => {
    node.addEventListener("click", () => {
      if (!myDecision() || S.sending) return;
      if (S.selected.has(i)) S.selected.delete(i);
      else S.selected.add(i);
      renderTable();
      renderOddsMine();
    });
  });

  async function decide(action) {
    if (!myDecision() || S.sending) return;
    S.sending = true;
    renderTable();
    try {
      await shell.send({ seat: S.view.to_act, ...action });
    } finally {
      S.sending = false;
      if (S.view) renderTable();
    }
  }

  el.stand.addEventListener("click", () => decide({ type: "stand" }));
  el.reroll.addEventListener("click", () => {
    if (S.selected.size > 4) return;
    decide({ type: "improve", keep: keepValues() });
  });

  return { render: renderTable, renderClock };
}

/** What the last turn did: its dice and the combination it scored. */
function lastTurnPart(ctx) {
  const { el, S, t, nameOf, comboName, diceText } = ctx;

  function renderLast() {
    const turns = allTurns(S.view).filter((x) => x.recorded != null);
    const last = turns[turns.length - 1];
    el.last.hidden = !last;
    if (!last) return;
    const key = `${turns.length}`;
    const fresh = key !== S.lastRecordedKey;
    S.lastRecordedKey = key;
    el.lastText.textContent = lastTurnText(last);
    const nodes = [];
    const first = document.createElement("span");
    first.className = "dice-last-group";
    for (const d of last.dice) first.append(smallDie(d));
    nodes.push(first);
    if (last.keep) {
      const arrow = document.createElement("span");
      arrow.className = "dice-last-arrow";
      arrow.setAttribute("aria-hidden", "true");
      arrow.textContent = "→";
      const second = document.createElement("span");
      second.className = "dice-last-group";
      for (const d of last.keep) second.append(smallDie(d, "is-kept"));
      for (const d of last.rerolled || []) {
        const die = smallDie(d, "is-new");
        second.append(die);
        if (fresh && S.recordedSeen != null) roll(die);
      }
      nodes.push(arrow, second);
    }
    el.lastDice.replaceChildren(...nodes);
  }

  function lastTurnText(turn) {
    const name = nameOf(turn.seat);
    if (!turn.keep) {
      return turn.forced
        ? t("last_forced", { name, dice: diceText(turn.dice), score: turn.recorded })
        : t("last_stand", { name, dice: diceText(turn.dice), combo: comboName(turn.combination), score: turn.recorded });
    }
    const second = [...turn.keep, ...(turn.rerolled || [])];
    const params = { name, keep: diceText(turn.keep), rolled: diceText(turn.rerolled), score: turn.recorded };
    if (turn.second > turn.first) return t("last_improve_ok", { ...params, combo: comboName(guessCombo(second)) });
    return t("last_improve_fail", { ...params, second: turn.second, first: turn.first });
  }

  /**
   * The second attempt's combination (the view carries only its score). With five dice
   * no two of these can be read from one roll unless the earlier one scores more, so
   * the first that fits is the one the server scored.
   */
  function guessCombo(dice) {
    const counts = [0, 0, 0, 0, 0, 0, 0];
    for (const d of dice) counts[d] += 1;
    const has = (run) => run.every((v) => counts[v] > 0);
    const c = counts.slice(1).sort((a, b) => b - a);
    if (c[0] === 5) return "five";
    if (has([1, 2, 3, 4, 5]) || has([2, 3, 4, 5, 6])) return "large_straight";
    if (c[0] === 4) return "four";
    if (has([1, 2, 3, 4]) || has([2, 3, 4, 5]) || has([3, 4, 5, 6])) return "small_straight";
    if (c[0] === 3 && c[1] === 2) return "full_house";
    if (c[0] === 3) return "set";
    if (c[0] === 2 && c[1] === 2) return "two_pairs";
    if (c[0] === 2) return "pair";
    return "nothing";
  }

  return { render: renderLast, lastTurnText };
}

/** What changed since the last state, read out to screen readers. */
function announcer(ctx) {
  const { shell, S, t, nameOf, comboName, diceText, isActive, lastTurnText } = ctx;

  function announceChanges() {
    const v = S.view;
    const recorded = allTurns(v).filter((x) => x.recorded != null);
    if (S.recordedSeen == null) {
      S.recordedSeen = recorded.length;
      return;
    }
    const said = [];
    for (const turn of recorded.slice(S.recordedSeen)) {
      said.push(lastTurnText(turn));
      const sheet = v.sheet[turn.round];
      if (sheet && sheet.over && v.players > 1 && turn === lastOfRound(v, turn.round)) {
        said.push(sheet.winner != null ? t("round_won", { n: turn.round + 1, name: nameOf(sheet.winner) })
          : t("round_tied", { n: turn.round + 1 }));
      }
    }
    S.recordedSeen = recorded.length;
    const table = v.table;
    const mine = ctx.myDecision();
    if (mine && S.wasMine === false) said.push(t("st_your_turn"));
    S.wasMine = mine;
    if (said.length && table && isActive()) {
      said.push(t("rolled_announce", { name: nameOf(table.seat), dice: diceText(table.dice),
        combo: comboName(table.combination), score: table.score }));
    }
    if (said.length) shell.announce(said.join(" "));
  }

  function lastOfRound(v, round) {
    const turns = (v.sheet[round] && v.sheet[round].turns) || [];
    return turns[turns.length - 1];
  }

  return { announce: announceChanges };
}

/** The score sheet and the order of play. */
function sheetPart(ctx) {
  const { shell, el, S, t, diceText, isActive } = ctx;


  function renderSheet() {
    const v = S.view;
    const seats = v.players;
    const rounds = v.rules ? v.rules.rounds : v.sheet.length;
    const quick = v.rules && v.rules.quick;
    const thead = document.createElement("thead");
    const hr = document.createElement("tr");
    hr.append(cell("th", t("sheet_round"), "dice-sheet-round"));
    for (let s = 0; s < seats; s += 1) {
      const th = cell("th", shell.nameOf(s), `seat-${s}${S.mySeats.includes(s) ? " is-mine" : ""}`);
      th.scope = "col";
      hr.append(th);
    }
    thead.append(hr);
    const tbody = document.createElement("tbody");
    const running = Array(seats).fill(0);
    for (let r = 0; r < rounds; r += 1) {
      const sheet = v.sheet[r];
      const tr = document.createElement("tr");
      tr.dataset.round = String(r);
      const th = cell("th", String(r + 1), "dice-sheet-round");
      th.scope = "row";
      if (sheet && sheet.over && sheet.winner == null && seats > 1) {
        th.append(cell("span", t("sheet_tie"), "dice-sheet-tie"));
      }
      tr.append(th);
      if (sheet && v.round === r && isActive()) tr.classList.add("is-current");
      for (let s = 0; s < seats; s += 1) {
        const td = cell("td", null, `seat-${s}`);
        td.dataset.testid = `sheet-${r}-${s}`;
        const turn = sheet ? (sheet.turns || []).find((x) => x.seat === s) : null;
        const value = sheet ? sheet.scores[s] : null;
        if (value != null) {
          running[s] += value;
          td.append(cell("b", String(value), "dice-sheet-score"));
          if (turn && turn.keep) {
            // First attempt → second; a second that did not count is struck out.
            const attempts = cell("span", `${turn.first} → `, "dice-sheet-attempts");
            const second = cell(turn.second > turn.first ? "span" : "s", String(turn.second));
            if (turn.second <= turn.first) second.title = t("sheet_fell_back");
            attempts.append(second);
            td.append(attempts);
          } else if (turn && turn.forced) {
            td.append(cell("span", t("sheet_forced"), "dice-sheet-attempts"));
          }
          if (!quick) td.append(cell("span", t("sheet_running", { n: running[s] }), "dice-sheet-running"));
          if (turn) td.title = t("sheet_cell", { name: shell.nameOf(s), n: r + 1, dice: diceText(turn.dice) });
        } else if (v.resigned && v.resigned[s] && sheet) {
          td.append(cell("span", t("sheet_resigned"), "dice-sheet-attempts"));
        } else if (v.table && v.table.seat === s && v.round === r && isActive()) {
          td.classList.add("is-playing");
          td.append(cell("span", t("sheet_to_play"), "dice-sheet-attempts"));
        }
        if (sheet && sheet.winner === s && seats > 1) {
          td.classList.add("is-winner");
          const mark = cell("span", "★", "dice-sheet-star");
          mark.setAttribute("role", "img");
          mark.setAttribute("aria-label", t("sheet_won"));
          mark.title = t("sheet_won");
          td.prepend(mark);
        }
        tr.append(td);
      }
      tbody.append(tr);
    }
    const tfoot = document.createElement("tfoot");
    if (!quick && v.totals) {
      const tr = document.createElement("tr");
      const th = cell("th", t("sheet_points"));
      th.scope = "row";
      tr.append(th);
      v.totals.forEach((total, s) => {
        const td = cell("td", String(total), `seat-${s}`);
        td.dataset.testid = `total-${s}`;
        tr.append(td);
      });
      tfoot.append(tr);
    }
    if (seats > 1) {
      const tr = document.createElement("tr");
      const th = cell("th", t("sheet_rounds_won"));
      th.scope = "row";
      tr.append(th);
      v.round_wins.forEach((wins, s) => {
        const td = cell("td", String(wins), `seat-${s}`);
        td.dataset.testid = `round-wins-${s}`;
        tr.append(td);
      });
      tfoot.append(tr);
    }
    el.sheet.replaceChildren(thead, tbody, tfoot);
    // Points and rounds, each named (the paper sheet's "64:62 || 1:1" is a puzzle on a page).
    if (seats > 1) {
      const rounds = v.round_wins.join(":");
      el.scoreline.textContent = quick ? t("scoreline_rounds", { rounds })
        : t("scoreline_both", { points: v.totals.join(":"), rounds });
    } else {
      el.scoreline.textContent = "";
    }
    el.scoreline.hidden = seats < 2;
    for (let s = 0; s < seats; s += 1) {
      const slot = shell.seatSlot(s);
      if (!slot) continue;
      const bits = [];
      if (seats > 1) bits.push(t("slot_rounds", { n: v.round_wins[s] }));
      if (v.resigned && v.resigned[s]) bits.push(t("slot_resigned"));
      slot.textContent = bits.join(" · ");
    }
  }

  function renderOrder() {
    const v = S.view;
    const rolls = (v.order && v.order.rolls) || [];
    if (v.players < 2 || !rolls.length || !rolls[0].length) {
      el.order.hidden = true;
      return;
    }
    const parts = rolls.map((rollSet) => rollSet.map((r) => `${shell.nameOf(r.seat)} ${r.die}`).join(", "));
    let text = t("order_line", { rolls: parts.join(` (${t("order_again")}); `) });
    if (v.order.first != null) text += ` ${t("order_first", { name: shell.nameOf(v.order.first) })}`;
    el.order.textContent = text;
    el.order.hidden = false;
  }

  return { render: renderSheet, renderOrder };
}

/** The result, once the game is over. */
function outcomePart(ctx) {
  const { shell, el, S, t, isActive } = ctx;

  function renderOutcome() {
    const v = S.view;
    const over = !isActive() || v.phase === "over";
    const res = v.result;
    // An annulled game has no result to tell (the shell says why).
    el.outcome.hidden = !over || !res || res.reason === "annulled";
    el.bestsLink.hidden = !(over && v.players === 1);
    if (el.outcome.hidden) return;
    const items = []; // [text, class]
    const quick = v.rules && v.rules.quick;
    if (v.players === 1) {
      items.push([t("result_solo", { score: v.totals ? v.totals[0] : v.round_wins[0], n: v.sheet.length }), "is-lead"]);
    } else {
      if (quick) items.push([t("result_quick"), ""]);
      else if (res.points_winner != null) {
        items.push([t("result_points", { name: shell.nameOf(res.points_winner), score: v.totals[res.points_winner] }), "is-lead"]);
      } else if (v.totals) {
        items.push([t("result_points_tie", { score: Math.max(...v.totals) }), "is-lead"]);
      }
      if (res.rounds_winner != null) {
        items.push([t("result_rounds", { name: shell.nameOf(res.rounds_winner), n: v.round_wins[res.rounds_winner] }), quick ? "is-lead" : ""]);
      } else {
        items.push([t("result_rounds_tie"), ""]);
      }
      if (res.absolute) items.push([t("result_absolute", { name: shell.nameOf(res.points_winner) }), "is-absolute"]);
      else if (!quick && res.points_winner != null && res.rounds_winner != null) items.push([t("result_split"), ""]);
    }
    if (res.reason === "resign") items.push([t("result_resigned"), ""]);
    el.outcomeList.replaceChildren(...items.map(([text, cls]) => cell("li", text, cls)));
    el.outcome.dataset.pointsWinner = res.points_winner ?? "";
    el.outcome.dataset.roundsWinner = res.rounds_winner ?? "";
    el.outcome.dataset.absolute = res.absolute ? "true" : "false";
  }

  return { render: renderOutcome };
}

/** The odds panel (never in rated games): the chances of each choice for the roll on the table. */
function oddsPart(ctx) {
  const { shell, el, S, t, isActive, myDecision, keepValues, renderTable } = ctx;

  const oddsAllowed = () => !!(S.header && !S.header.rated && S.mySeats.length && isActive());
  const oddsOn = () => {
    try {
      return localStorage.getItem(ODDS_KEY) === "on";
    } catch {
      return false;
    }
  };
  el.oddsToggle.checked = oddsOn();
  el.oddsToggle.addEventListener("change", () => {
    try {
      localStorage.setItem(ODDS_KEY, el.oddsToggle.checked ? "on" : "off");
    } catch {
      /* private mode: on for this page only */
    }
    if (S.odds.state === "error") S.odds.key = ""; // switched on again: try again
    renderOdds();
  });

  function optionLabel(option) {
    if (option.type === "stand") return t("odds_stand");
    return option.keep.length ? t("odds_keep", { dice: option.keep.join(" ") }) : t("odds_keep_none");
  }

  function renderOdds() {
    const allowed = oddsAllowed();
    el.oddsSwitch.hidden = !allowed;
    const show = allowed && el.oddsToggle.checked;
    el.odds.hidden = !show;
    if (!show) return;
    if (!myDecision()) {
      el.oddsList.replaceChildren(cell("li", t("odds_wait"), "muted"));
      el.oddsMine.textContent = "";
      return;
    }
    const key = S.turnKey;
    if (S.odds.key !== key) {
      S.odds = { key, data: null, state: "loading" };
      fetch(`/api/matches/${shell.matchId}/advice`, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then((r) => r.json().then((body) => ({ ok: r.ok, body })))
        .then(({ ok, body }) => {
          if (S.odds.key !== key) return;
          S.odds = ok ? { key, data: body.advice, state: "done" } : { key, data: null, state: "error" };
          renderOdds();
        })
        .catch(() => {
          if (S.odds.key !== key) return;
          S.odds = { key, data: null, state: "error" };
          renderOdds();
        });
    }
    if (S.odds.state === "loading") {
      el.oddsList.replaceChildren(cell("li", t("odds_loading"), "muted"));
      el.oddsMine.textContent = "";
      return;
    }
    if (S.odds.state === "error" || !S.odds.data) {
      el.oddsList.replaceChildren(cell("li", t("odds_error"), "muted"));
      el.oddsMine.textContent = "";
      return;
    }
    const options = S.odds.data.options;
    const shown = options.slice(0, 4);
    if (!shown.some((o) => o.type === "stand")) shown.push(options.find((o) => o.type === "stand"));
    const best = options[0].expected;
    el.oddsList.replaceChildren(...shown.map((option) => {
      const li = document.createElement("li");
      const button = cell("button", null, "dice-odds-option");
      button.type = "button";
      button.dataset.testid = "dice-odds-option";
      button.append(cell("span", optionLabel(option), "dice-odds-label"), cell("b", num(option.expected), "dice-odds-value"));
      if (option.expected === best) {
        button.classList.add("is-best");
        button.append(cell("span", t("odds_best"), "badge dice-odds-best"));
      }
      button.addEventListener("click", () => choose(option));
      li.append(button);
      return li;
    }));
    renderOddsMine();
  }

  /** The expectation of the keep selected now, from the same answer. */
  function renderOddsMine() {
    if (el.odds.hidden || S.odds.state !== "done" || !S.odds.data || !myDecision()) {
      el.oddsMine.textContent = "";
      return;
    }
    if (S.selected.size > 4) {
      el.oddsMine.textContent = "";
      return;
    }
    const keep = keepValues();
    const option = S.odds.data.options.find((o) => o.type === "improve" && o.keep.join() === keep.join());
    el.oddsMine.textContent = option
      ? t("odds_mine", { choice: optionLabel(option), value: num(option.expected) }) : "";
  }

  /** A line of the odds pressed: stand, or select those dice to keep. */
  function choose(option) {
    if (!myDecision()) return;
    if (option.type === "stand") {
      S.selected.clear();
      renderTable();
      el.stand.focus();
      renderOddsMine();
      return;
    }
    const dice = S.view.table.dice;
    const want = [...option.keep];
    S.selected.clear();
    dice.forEach((d, i) => {
      const at = want.indexOf(d);
      if (at >= 0) {
        want.splice(at, 1);
        S.selected.add(i);
      }
    });
    renderTable();
    el.reroll.focus();
    renderOddsMine();
  }

  return { render: renderOdds, renderOddsMine, optionLabel };
}

/** After the game: each decision against the best one. */
function analysisPart(ctx) {
  const { shell, el, S, t, nameOf, optionLabel } = ctx;

  function loadAnalysis(tries = 3) {
    if (S.analysis !== "idle" && tries === 3) return;
    S.analysis = "loading";
    el.analysis.hidden = false;
    el.analysisSummary.replaceChildren(cell("li", t("an_loading"), "muted"));
    fetch(`/api/matches/${shell.matchId}/analysis`, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((data) => {
        S.analysis = "done";
        renderAnalysis(data);
      })
      .catch((err) => {
        // 409: this process has not seen the end yet (the broadcast may come first).
        if (String(err && err.message) === "409" && tries > 1) {
          setTimeout(() => loadAnalysis(tries - 1), 800);
          return;
        }
        S.analysis = "error";
        el.analysis.dataset.error = String(err && err.message);
        el.analysisSummary.replaceChildren(cell("li", t("an_error"), "muted"));
      });
  }

  function renderAnalysis(data) {
    const mine = (s) => S.mySeats.includes(s);
    const seats = [...(data.seats || [])].sort((a, b) => Number(mine(b.seat)) - Number(mine(a.seat)) || a.seat - b.seat);
    el.analysisSummary.replaceChildren(...seats.map((s) => {
      const li = cell("li", t("an_summary", { name: nameOf(s.seat), best: s.best, n: s.decisions, cost: num(s.cost) }), `seat-${s.seat}`);
      li.dataset.seat = String(s.seat);
      return li;
    }));
    const thead = document.createElement("thead");
    const hr = document.createElement("tr");
    const multi = (data.players || []).length > 1;
    const heads = [t("an_round"), ...(multi ? [t("an_player")] : []), t("an_roll"), t("an_decision"), t("an_best"), t("an_cost")];
    heads.forEach((h, i) => {
      const th = cell("th", h, i === heads.length - 1 ? "num" : "");
      th.scope = "col";
      hr.append(th);
    });
    thead.append(hr);
    const tbody = document.createElement("tbody");
    for (const d of data.decisions || []) {
      const tr = document.createElement("tr");
      tr.dataset.testid = "dice-analysis-row";
      // A cost that rounds to 0.0 is a tie with the best choice, not a mistake.
      const costly = Number(num(d.cost)) > 0;
      tr.className = `seat-${d.seat}${costly ? " is-costly" : " is-best"}`;
      tr.append(cell("td", String(d.round + 1)));
      if (multi) tr.append(cell("td", shell.nameOf(d.seat)));
      const dice = cell("td", null, "dice-analysis-dice");
      for (const v of d.dice) dice.append(smallDie(v));
      tr.append(dice);
      const taken = t("an_expected", { choice: optionLabel(d.decision), value: num(d.decision.expected) });
      tr.append(cell("td", d.forced ? `${taken} ${t("an_forced")}` : taken));
      tr.append(cell("td", costly ? t("an_expected", { choice: optionLabel(d.best), value: num(d.best.expected) }) : "✓"));
      tr.append(cell("td", costly ? `−${num(d.cost)}` : "0.0", "num"));
      tbody.append(tr);
    }
    el.analysisTable.replaceChildren(thead, tbody);
  }

  return { load: loadAnalysis };
}

export function mount(element, shell) {
  const $ = (id) => element.querySelector(`#${id}`);
  const t = shell.t;
  const el = {
    table: element.querySelector(".dice-table"),
    round: $("dice-table-title"),
    turn: $("dice-turn"),
    row: $("dice-row"),
    dice: [...element.querySelectorAll(".die")],
    comboName: $("dice-combo-name"),
    comboScore: $("dice-combo-score"),
    records: $("dice-records"),
    actions: $("dice-actions"),
    stand: $("dice-stand"),
    reroll: $("dice-reroll"),
    hint: $("dice-hint"),
    clock: $("dice-clock"),
    clockBar: $("dice-clock-bar"),
    clockLeft: $("dice-clock-left"),
    oddsSwitch: $("dice-odds-switch"),
    oddsToggle: $("dice-odds-toggle"),
    odds: $("dice-odds"),
    oddsList: $("dice-odds-list"),
    oddsMine: $("dice-odds-mine"),
    last: $("dice-last"),
    lastDice: $("dice-last-dice"),
    lastText: $("dice-last-text"),
    outcome: $("dice-outcome"),
    outcomeList: $("dice-outcome-list"),
    bestsLink: $("dice-bests-link"),
    order: $("dice-order"),
    sheet: $("dice-sheet-table"),
    scoreline: $("dice-scoreline"),
    analysis: $("dice-analysis"),
    analysisSummary: $("dice-analysis-summary"),
    analysisTable: $("dice-analysis-table"),
  };

  const S = {
    view: null,
    header: null,
    mySeats: [],
    turnKey: "",
    selected: new Set(), // die positions kept
    sending: false,
    recordedSeen: null, // how many turns were recorded at the last update (null: first)
    wasMine: null, // whether the decision was this page's at the last update
    focusedTurn: "", // the decision the focus was last brought to
    lastRecordedKey: "",
    odds: { key: "", data: null, state: "idle" },
    analysis: "idle", // idle | loading | done | error
  };

  // Sentences name every player, the viewer too: "You" would need its own grammar.
  const nameOf = (seat) => shell.nameOf(seat);
  const comboName = (name) => t(`c_${name}`);
  const diceText = (dice) => (dice && dice.length ? dice.join(" ") : t("keep_nothing"));
  const isActive = () => (S.header ? S.header.status === "active" : true);


  function myDecision() {
    const v = S.view;
    return !!(v && isActive() && v.to_act != null && S.mySeats.includes(v.to_act)
      && Array.isArray(v.legal) && v.legal.length && v.table);
  }

  function keepValues() {
    const dice = S.view && S.view.table ? S.view.table.dice : [];
    return [...S.selected].map((i) => dice[i]).sort((a, b) => a - b);
  }




  const focus = keepFocus(element, {
    next: () => (myDecision() && !S.sending
      ? el.row.querySelector('.die[tabindex="0"]') || el.dice[0] : null),
    park: () => el.table,
  });

  // Parts that call each other do so through these (each is made below).
  const ctx = {
    element, shell, el, S, t, nameOf, comboName, diceText, isActive, myDecision, keepValues,
    restoreFocus: () => focus.restore(),
    renderTable: (...args) => table.render(...args),
    renderOddsMine: (...args) => odds.renderOddsMine(...args),
    lastTurnText: (...args) => lastTurn.lastTurnText(...args),
    optionLabel: (...args) => odds.optionLabel(...args),
  };
  const table = tablePart(ctx);
  const lastTurn = lastTurnPart(ctx);
  const announcements = announcer(ctx);
  const sheet = sheetPart(ctx);
  const outcome = outcomePart(ctx);
  const odds = oddsPart(ctx);
  const analysis = analysisPart(ctx);

  function update(state) {
    const view = pickView(state);
    if (!view) return;
    S.view = view;
    S.header = state.header || null;
    S.mySeats = state.mySeats || [];
    element.classList.toggle("is-over", !isActive());
    table.render();
    lastTurn.render();
    sheet.renderOrder();
    sheet.render();
    outcome.render();
    odds.render();
    announcements.announce();
    if (!isActive()) analysis.load();
    focusDecision();
  }

  /** A new decision of this page's: the keyboard goes back to the dice (once a decision). */
  function focusDecision() {
    if (myDecision() && !S.sending && S.focusedTurn !== S.turnKey && focus.moveOn()) S.focusedTurn = S.turnKey;
  }

  setInterval(() => {
    if (S.view) table.renderClock();
  }, 250);

  return { update };
}
