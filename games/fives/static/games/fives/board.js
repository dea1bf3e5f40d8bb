/**
 * The Fives board on the shared table page (static/js/shell.js; markup in
 * games/fives/templates/games/fives/board.html; the view it draws: games/fives/view.py).
 *
 *   mount(element, shell) -> {update(state)}
 *
 * It draws the board (the cross or a plain line) and the player's tiles with the
 * Spectacular Bid page's drawing code (static/js/board.js, static/js/tiles.js). A tile
 * is picked by click or keyboard (Enter / Space); a tile that fits one place only plays
 * at once, else its places are highlighted and one is chosen. Draw is offered when it
 * is the only move. The seat panels get each seat's tile count; the info line has the
 * target, the cross rule, the hand, the bazaar, the ends and the last placement's
 * points; the summary panel tells how the last hand ended (winner, pips, bonus and the
 * hands, revealed). What the others do is read out through the shell's live region,
 * and so is the player's turn.
 *
 * By keyboard alone: the hand is one Tab stop, the arrow keys move among its playable
 * tiles, Enter (or Space) picks one; a tile with several places gives the first place
 * the focus, the arrows move among the places, Enter plays, Escape goes back to the
 * hand. After a move the focus waits on the hand and comes back to a tile (or to Draw)
 * at the next turn. "Draw automatically when nothing fits" (remembered in localStorage,
 * off by default) sends the draw itself, once a state.
 */

const AUTODRAW_KEY = "fives.autodraw";
const AUTODRAW_MS = 350; // a moment to see that nothing fits (and the last answer to arrive)

import { keepFocus, pickedByKeyboard, renderBoard, renderHand, roving } from "../../js/board.js";
import { svgEl, tileSvg } from "../../js/tiles.js";

const LABEL_KEYS = [
  "board", "board_one", "board_empty", "tile", "tile_spinner", "tile_last", "place", "opening",
  "hand", "hand_one", "port_high", "port_low", "port_line_a", "port_line_b", "port_branch_a",
  "port_branch_b",
];

const tileText = (tile) => {
  const [a, b] = String(tile).split("-");
  return `${a}|${b}`;
};

function pickView(state) {
  if (state.view) return state.view;
  const views = Array.isArray(state.views) ? state.views : [];
  return views.find((v) => v && v.to_act != null && v.seat === v.to_act) || views[0] || null;
}

/** Picking a tile and its place (click, tap or keyboard), drawing, and the board and hand it shows. */
function playPart(ctx) {
  const { shell, el, labels, B, t, legal, playsFor, playable, myTurn, drawAction, draw } = ctx;

  function sendPlay(play) {
    const action = { seat: play.seat, type: "play", tile: play.tile };
    if (play.target != null) {
      action.target = play.target;
      action.port = play.port;
    }
    shell.send(action).then((r) => {
      if (r.ok) B.selected = null;
    });
  }

  function onTileClick(tile, viaKeyboard) {
    if (!myTurn()) return;
    const plays = playsFor(tile);
    if (!plays.length) return;
    if (plays.length === 1) {
      sendPlay(plays[0]); // one place only: no need to point at it
      return;
    }
    if (B.selected === tile && !B.mine.must_play) {
      B.selected = null;
    } else {
      B.selected = tile;
      B.focusPlace = viaKeyboard;
    }
    shell.clearFlash();
    draw();
  }

  function onPlaceClick(place) {
    if (!myTurn() || !B.selected) return;
    const play = playsFor(B.selected).find(
      (p) => (p.target ?? null) === (place.target ?? null) && (p.port ?? null) === (place.port ?? null),
    );
    if (!play) {
      shell.flash(t("fives_err_cannot_play"));
      return;
    }
    sendPlay(play);
  }

  const lastKey = pickedByKeyboard(el.hand);
  const refreshHand = roving(el.hand, "[data-tile][tabindex]");
  const refreshPlaces = roving(el.board, ".fives-place-active", {
    keyOf: (p) => `${p.getAttribute("data-target")}:${p.getAttribute("data-port")}`,
    onEscape: backToHand,
  });

  /** Escape on a place: the tile picked lets go (unless it must be played) and takes the focus. */
  function backToHand() {
    const tile = B.selected;
    if (!tile) return;
    if (!B.mine || !B.mine.must_play) B.selected = null;
    draw();
    el.hand.querySelector(`[data-tile="${tile}"][tabindex]`)?.focus();
  }

  /** Taps on tiles that cannot be played now: say why, change nothing. */
  el.hand.addEventListener("click", (ev) => {
    const tileEl = ev.target.closest?.("[data-tile]");
    if (!tileEl || !B.mine) return;
    const tile = tileEl.getAttribute("data-tile");
    if (B.mine.phase !== "play") return;
    if (B.mine.to_act !== B.mine.seat) shell.flash(t("fives_err_not_turn"), "info");
    else if (!playsFor(tile).length) {
      shell.flash(B.mine.must_play ? t("fives_err_must_play") : t("fives_err_cannot_play"), "info");
    }
  });

  el.draw.addEventListener("click", () => {
    const a = drawAction();
    if (a) shell.send({ seat: a.seat, type: "draw" });
  });

  function drawBoard(view, last) {
    let highlight = [];
    if (B.selected && myTurn()) highlight = playsFor(B.selected).map((p) => ({ target: p.target ?? null, port: p.port ?? null }));
    const board = view.board || { tiles: [], cross: null, ends_sum: 0, places: [] };
    renderBoard(el.board, { ...board, spinner: board.cross }, {
      highlight,
      onPlaceClick,
      lastTile: last ? last.tile : null,
      labels,
    });
    if (B.focusPlace) {
      B.focusPlace = false;
      el.board.querySelector(".fives-place-active")?.focus();
    }
    refreshPlaces();
  }

  function drawHand() {
    const mine = B.mine;
    const show = mine != null && Array.isArray(mine.hand) && mine.phase === "play";
    el.handArea.hidden = !show;
    if (!show) return;
    const focused = document.activeElement?.closest?.(".fives-hand [data-tile]")?.getAttribute("data-tile");
    const turn = myTurn();
    renderHand(el.hand, mine.hand, {
      selected: turn ? B.selected : null,
      playable: turn ? playable() : null,
      onTileClick: turn ? (tile) => onTileClick(tile, lastKey()) : null,
      labels,
    });
    if (focused) el.hand.querySelector(`[data-tile="${focused}"][tabindex]`)?.focus();
    refreshHand();
    const d = turn ? drawAction() : null;
    el.draw.hidden = !d;
    el.hint.textContent = turn && !d ? t("fives_hint_keys") : "";
  }

  /** Where the keyboard goes next: the tile picked, Draw when it is the only move, else a tile. */
  function nextFocus() {
    if (!myTurn()) return null;
    if (B.selected) return el.hand.querySelector(`[data-tile="${B.selected}"][tabindex]`);
    if (legal().every((a) => a.type === "draw")) return el.draw;
    return el.hand.querySelector('[data-tile][tabindex="0"]') || el.hand.querySelector("[data-tile][tabindex]");
  }

  return { drawBoard, drawHand, nextFocus };
}

/** "Draw automatically when nothing fits": one draw a state, never two. */
function autoDrawPart(ctx) {
  const { shell, el, B, legal, myTurn, drawAction } = ctx;
  const stored = () => {
    try {
      return localStorage.getItem(AUTODRAW_KEY) === "on";
    } catch {
      return false;
    }
  };
  if (el.autoDraw) {
    el.autoDraw.checked = stored();
    el.autoDraw.addEventListener("change", () => {
      try {
        localStorage.setItem(AUTODRAW_KEY, el.autoDraw.checked ? "on" : "off");
      } catch {
        /* private mode: for this page only */
      }
      check();
    });
  }
  const onlyDraw = () => myTurn() && legal().length > 0 && legal().every((a) => a.type === "draw");

  /** After each state: the draw, once for this version, a moment later. */
  function check() {
    const version = B.state ? B.state.version : null;
    if (!el.autoDraw || !el.autoDraw.checked || !onlyDraw() || B.autoDrawn === version) return;
    B.autoDrawn = version;
    setTimeout(() => send(version, 2), AUTODRAW_MS);
  }

  function send(version, tries) {
    if (!B.state || B.state.version !== version || !el.autoDraw.checked || !onlyDraw()) return;
    const a = drawAction();
    shell.send({ seat: a.seat, type: "draw" }).then((r) => {
      // Another command still waiting for its answer: this one was not sent; once more.
      if (!r.ok && r.code === "pending" && tries > 1) setTimeout(() => send(version, tries - 1), AUTODRAW_MS);
    });
  }

  return { check };
}

/** The info line, the status, the seats' tile counts and this hand's log. */
function infoPart(ctx) {
  const { shell, el, B, t, myTurn, drawAction, moveText } = ctx;

  function drawInfo(view) {
    const rules = view.rules || {};
    el.target.textContent = rules.target ?? "–";
    let cross = rules.cross ? t("fives_cross_on") : t("fives_cross_off");
    if (rules.full_record) cross += ` · ${t("fives_full_record")}`;
    el.cross.textContent = cross;
    el.handNo.textContent = view.hand_no >= 0 ? String(view.hand_no + 1) : "–";
    el.bazaar.textContent = view.bazaar_count ?? "–";
    // Four players share out every tile: there is no bazaar to show.
    el.bazaarPill.hidden = view.seats === 4 && !view.bazaar_count;
    el.ends.textContent = view.board ? String(view.board.ends_sum) : "0";
    const plays = (view.moves || []).filter((m) => m.type === "play");
    const last = plays[plays.length - 1];
    el.last.hidden = !last;
    if (last) {
      // "+0" says nothing: a placement that scored nothing names only who made it.
      el.last.textContent = last.points > 0
        ? t("fives_last_points", { name: shell.nameOf(last.seat), points: last.points })
        : t("fives_last_play", { name: shell.nameOf(last.seat) });
      el.last.classList.toggle("is-scoring", last.points > 0);
    }
    return last;
  }

  function drawStatus(view) {
    if (view.result != null || view.phase !== "play") return; // the shell's words stand
    if (myTurn()) {
      const m = B.mine;
      if (m.must_play) shell.setStatus(t("fives_st_must_play"));
      else if (drawAction()) shell.setStatus(t("fives_st_draw"));
      else if (!view.board || !view.board.tiles.length) shell.setStatus(t("fives_st_lead"));
      else if (B.selected) shell.setStatus(t("fives_st_selected"));
      else shell.setStatus(t("fives_st_play"));
    } else if (view.to_act != null) {
      shell.setStatus(t("fives_st_wait", { name: shell.nameOf(view.to_act) }));
    }
  }

  function drawSeats(view) {
    const counts = Array.isArray(view.hand_counts) ? view.hand_counts : [];
    for (let seat = 0; seat < (view.seats || 0); seat++) {
      const slot = shell.seatSlot(seat);
      if (!slot) continue;
      const n = counts[seat];
      slot.textContent = n == null || view.phase !== "play" ? "" : n === 1 ? t("fives_tiles_one") : t("fives_tiles_n", { n });
    }
  }

  function drawLog(view) {
    const moves = Array.isArray(view.moves) ? view.moves : [];
    el.log.replaceChildren(
      ...moves.map((mv, i) => {
        const li = document.createElement("li");
        li.className = `seat-${mv.seat}${i === moves.length - 1 ? " is-last" : ""}${mv.points > 0 ? " is-scoring" : ""}`;
        li.textContent = moveText(mv);
        return li;
      }),
    );
    el.logEmpty.hidden = moves.length > 0;
    el.log.scrollTop = el.log.scrollHeight;
  }

  return { drawInfo, drawStatus, drawSeats, drawLog };
}

/** How the last hand ended, and what is read out and toasted when something happens. */
function summaryPart(ctx) {
  const { shell, el, B, t, moveText, toast } = ctx;

  /** The latest ended hand: who won, the pips, the bonus, the hands revealed. */
  function endedHand(view) {
    const hands = Array.isArray(view.hands) ? view.hands : [];
    for (let i = hands.length - 1; i >= 0; i--) if (hands[i].end) return hands[i];
    return null;
  }

  function summaryText(h) {
    const name = h.winner != null ? shell.nameOf(h.winner) : "";
    if (h.end === "domino") return h.bonus > 0 ? t("fives_end_domino", { name, bonus: h.bonus }) : t("fives_end_domino_zero", { name });
    if (h.end === "fish") return h.winner != null ? t("fives_end_fish", { name, bonus: h.bonus ?? 0 }) : t("fives_end_fish_tie");
    return t("fives_end_game_over");
  }

  function drawSummary(view) {
    const h = endedHand(view);
    el.summary.hidden = !h;
    if (!h) return null;
    el.summary.dataset.hand = String(h.hand);
    el.summaryTitle.textContent = t("fives_summary_title", { n: h.hand + 1 });
    el.summaryText.textContent = summaryText(h);
    const rows = [];
    for (let seat = 0; seat < (view.seats || 0); seat++) {
      const tr = document.createElement("tr");
      tr.className = `seat-${seat}${h.winner === seat ? " is-winner" : ""}`;
      tr.dataset.seat = String(seat);
      const who = document.createElement("th");
      who.scope = "row";
      who.textContent = shell.nameOf(seat);
      const pips = document.createElement("td");
      pips.className = "fives-pips";
      pips.textContent = Array.isArray(h.pips) ? String(h.pips[seat]) : "–";
      const tiles = document.createElement("td");
      tiles.className = "fives-revealed";
      const held = Array.isArray(h.hands) ? h.hands[seat] || [] : [];
      if (held.length) {
        // Each tile lying down in a small drawing of its own, so that a long hand wraps.
        for (const tile of held) {
          const label = t("lbl_tile", { tile });
          const svg = svgEl("svg", { class: "fives-mini", viewBox: "-41 -21 82 42", role: "img", "aria-label": label });
          svg.appendChild(tileSvg(tile, { angle: -90, label, role: "presentation" }));
          tiles.appendChild(svg);
        }
      } else {
        tiles.textContent = Array.isArray(h.hands) ? t("fives_no_tiles") : "";
      }
      tr.append(who, pips, tiles);
      rows.push(tr);
    }
    el.summaryRows.replaceChildren(...rows);
    return h;
  }

  /** Toasts and the live region: what happened since the last state. */
  function tell(view, summary, yourTurn) {
    const moves = Array.isArray(view.moves) ? view.moves : [];
    let fresh = [];
    let ended = null;
    if (B.handNo == null) {
      fresh = []; // the page was just opened: nothing to tell
    } else if (view.hand_no === B.handNo) {
      fresh = moves.slice(B.seenMoves);
    } else {
      // A new hand: the last hand's toasts go with it (its summary says how it ended).
      el.toasts.replaceChildren();
      ended = summary && summary.hand === B.handNo ? summary : null;
      fresh = moves;
    }
    const words = [];
    for (const mv of fresh) {
      if (mv.type === "play" && mv.points > 0) toast(t("fives_toast_points", { name: shell.nameOf(mv.seat), points: mv.points }), mv.seat);
      if (!shell.mySeats.includes(mv.seat) || mv.forced) words.push(moveText(mv));
    }
    if (ended) words.unshift(`${t("fives_hand_ended", { n: ended.hand + 1 })} ${summaryText(ended)}`);
    if (yourTurn) words.push(t("st_your_turn"));
    if (words.length) shell.announce(words.join(". "));
    B.handNo = view.hand_no;
    B.seenMoves = moves.length;
  }

  return { drawSummary, tell };
}

export function mount(element, shell) {
  const t = (key, params) => shell.t(key, params);
  const q = (sel) => element.querySelector(sel);
  const el = {
    target: q(".fives-target"),
    cross: q(".fives-cross-pill"),
    handNo: q(".fives-hand-no"),
    bazaarPill: q("[data-testid=bazaar]"),
    bazaar: q(".fives-bazaar"),
    ends: q(".fives-ends"),
    last: q("[data-testid=last-points]"),
    board: q("svg[data-testid=board]"),
    toasts: q(".fives-toasts"),
    handArea: q(".fives-hand-area"),
    hand: q(".fives-hand"),
    hint: q(".fives-hint"),
    draw: q(".fives-draw"),
    autoDraw: q(".fives-autodraw-toggle"),
    summary: q(".fives-summary"),
    summaryTitle: q(".fives-summary-title"),
    summaryText: q(".fives-summary-text"),
    summaryRows: q(".fives-summary-rows"),
    log: q(".fives-log"),
    logEmpty: q(".fives-log-empty"),
  };
  const labels = {};
  for (const key of LABEL_KEYS) labels[key] = t(`lbl_${key}`);

  const B = {
    state: null,
    view: null, // the view drawn
    mine: null, // that view when it is one of this page's seats
    selected: null,
    handNo: null, // the hand whose moves were already told
    seenMoves: 0,
    focusPlace: false, // after picking a tile by keyboard: focus its first place
    wasTurn: null, // whether it was this page's turn at the last state (null: none yet)
    autoDrawn: null, // the version a draw was sent for by itself
  };

  // ---------------------------------------------------------------- helpers

  const legal = () => (B.mine && Array.isArray(B.mine.legal) ? B.mine.legal : []);
  const playsFor = (tile) => legal().filter((a) => a.type === "play" && a.tile === tile);
  const playable = () => [...new Set(legal().filter((a) => a.type === "play").map((a) => a.tile))];
  const myTurn = () => B.mine != null && B.mine.to_act === B.mine.seat && legal().length > 0;
  const drawAction = () => legal().find((a) => a.type === "draw");


  function moveText(mv) {
    const name = shell.nameOf(mv.seat);
    if (mv.type === "play") {
      const tile = tileText(mv.tile);
      if (mv.points > 0) return t("fives_mv_play_points", { name, tile, points: mv.points });
      return mv.target == null ? t("fives_mv_lead", { name, tile }) : t("fives_mv_play", { name, tile });
    }
    if (mv.type === "draw") return t("fives_mv_draw", { name });
    if (mv.type === "pass") return t("fives_mv_pass", { name });
    return `${name}: ${mv.type}`;
  }

  function toast(text, seat) {
    // A few at a time: the computer plays fast, and the board must stay visible.
    while (el.toasts.children.length >= 3) el.toasts.firstElementChild.remove();
    const n = document.createElement("div");
    n.className = `fives-toast seat-${seat}`;
    n.textContent = text;
    el.toasts.appendChild(n);
    setTimeout(() => n.remove(), 2600);
  }

  // ---------------------------------------------------------------- actions







  // ---------------------------------------------------------------- drawing











  const ctx = { element, shell, el, labels, B, t, q, legal, playsFor, playable, myTurn, drawAction, moveText, toast, draw };
  const play = playPart(ctx);
  const info = infoPart(ctx);
  const summary = summaryPart(ctx);
  const autoDraw = autoDrawPart(ctx);
  const focus = keepFocus(element, { next: play.nextFocus, park: () => el.handArea });

  function draw() {
    const view = B.view;
    if (!view) return;
    const last = info.drawInfo(view);
    play.drawBoard(view, last);
    play.drawHand();
    info.drawStatus(view);
    focus.restore();
  }

  function update(state) {
    B.state = state;
    const view = pickView(state);
    if (!view) return;
    B.view = view;
    B.mine = view.seat != null && state.mySeats.includes(view.seat) ? view : null;
    element.classList.toggle("is-my-turn", myTurn());
    // The selection lasts while it is still a legal choice; a drawn tile is the choice.
    if (B.mine && B.mine.must_play) B.selected = B.mine.must_play;
    else if (B.selected && !playsFor(B.selected).length) B.selected = null;
    draw();
    info.drawSeats(view);
    info.drawLog(view);
    const turn = myTurn();
    const newTurn = turn && B.wasTurn === false;
    summary.tell(view, summary.drawSummary(view), newTurn);
    B.wasTurn = turn;
    if (newTurn) focus.moveOn();
    autoDraw.check();
  }

  return { update };
}
