/**
 * The Spectacular Bid board on the shared table page (static/js/shell.js; markup in
 * games/spectacular_bid/templates/games/spectacular_bid/board.html; the view it draws:
 * games/spectacular_bid/view.py).
 *
 *   mount(element, shell) -> {update(state), scoreOf(view, seat), resultText(state)}
 *
 * The shell draws the seats, clocks, result, Resign and Abort; this module draws the
 * rest of a hand: the board and the hand (static/js/board.js), the auction for the first
 * move (costs, the jockey's discount, the all-in warning), Start / Continue between
 * hands, the settlement of the last hand with its final position, the move log, and on
 * one device the screen that hides both hands while the device is passed. Each seat's
 * panel gets its chips, the jockey badge and its tile count.
 *
 * Each part (the seats' extras, the board and hand, the auction, Start / Continue, the
 * settlement, the move log) is made by a function of its own from one shared context;
 * mount() makes them and draws them all on every state.
 *
 * By keyboard alone: the hand is one Tab stop (the arrow keys move among its playable
 * tiles), Enter picks a tile; a tile that fits one place only is played at once, else
 * its first place takes the focus, the arrows move among the places, Enter plays,
 * Escape goes back to the hand. The focus stays in the game: after a move it waits on
 * the hand, and at the next thing to do it goes there (a tile, Draw, the auction,
 * Start / Continue). The others' moves and the player's turn are read out.
 */

import { keepFocus, pickedByKeyboard, renderBoard, renderHand, roving, usable } from "../../js/board.js";

const LABEL_KEYS = [
  "board", "board_one", "board_empty", "tile", "tile_spinner", "tile_last", "place", "opening",
  "hand", "hand_one", "port_high", "port_low", "port_line_a", "port_line_b", "port_branch_a",
  "port_branch_b",
];
const EMPTY_BOARD = { tiles: [], spinner: null, ends_sum: 0, places: [] };
const SVG_NS = "http://www.w3.org/2000/svg";

const tileText = (tile) => {
  const [a, b] = String(tile).split("-");
  return `[${a}|${b}]`;
};
const other = (seat) => 1 - seat;
const legalOf = (view) => (view && Array.isArray(view.legal) ? view.legal : []);
const hasLegal = (view, type) => legalOf(view).some((a) => a.type === type);
const playsFor = (view, tile) => legalOf(view).filter((a) => a.type === "play" && a.tile === tile);
const playableTiles = (view) => [...new Set(legalOf(view).filter((a) => a.type === "play").map((a) => a.tile))];

function lastPlayedTile(moves) {
  const list = Array.isArray(moves) ? moves : [];
  for (let i = list.length - 1; i >= 0; i--) if (list[i].type === "play") return list[i].tile;
  return null;
}

function netPayment(pub, seat, amount) {
  const discount = pub.rules?.jockey_discount ?? 15;
  return seat === pub.jockey ? Math.max(0, amount - discount) : amount;
}

/** Who won a settled hand: the server's `winner`, else (older views) who has no tiles left. */
function handWinner(h) {
  if (h.winner === 0 || h.winner === 1) return h.winner;
  if (h.end === "domino" && Array.isArray(h.hands)) {
    const out = h.hands.findIndex((x) => x.length === 0);
    if (out >= 0) return out;
  }
  if (h.end === "blocked" && Array.isArray(h.sums) && h.sums[0] !== h.sums[1]) return h.sums[0] < h.sums[1] ? 0 : 1;
  return null;
}

/** Chip stacks in a seat's panel: one chip is 5 points, stacks of 10. */
function drawChips(box, balance, seat) {
  const chips = Math.max(0, Math.floor(balance / 5));
  if (box.dataset.key === String(chips)) return;
  box.dataset.key = String(chips);
  box.textContent = "";
  const stacks = Math.ceil(chips / 10);
  const W = 22;
  const step = 3.2;
  const H = 10 * step + 8;
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${Math.max(1, stacks) * W} ${H}`);
  svg.setAttribute("class", `chip-stacks seat-${seat}`);
  svg.setAttribute("preserveAspectRatio", "xMinYMax meet");
  const ellipse = (cx, cy, cls) => {
    const e = document.createElementNS(SVG_NS, "ellipse");
    for (const [k, v] of Object.entries({ cx, cy, rx: 9, ry: 3.4, class: cls })) e.setAttribute(k, String(v));
    return e;
  };
  for (let s = 0; s < stacks; s++) {
    for (let i = 0; i < Math.min(10, chips - s * 10); i++) {
      const cy = H - 5 - i * step;
      const g = document.createElementNS(SVG_NS, "g");
      g.setAttribute("class", "chip");
      g.append(ellipse(s * W + W / 2, cy + 1.4, "chip-edge"), ellipse(s * W + W / 2, cy, "chip-top"));
      svg.appendChild(g);
    }
  }
  box.appendChild(svg);
}

/** An element with its class, attributes and text. */
function node(tag, className, attributes = {}, text = null) {
  const n = document.createElement(tag);
  n.className = className;
  for (const [name, value] of Object.entries(attributes)) n.setAttribute(name, value);
  if (text != null) n.textContent = text;
  return n;
}

/** A move's seat dot, its words and its points, for the log and the settlement. */
function moveLine(mv, text) {
  const parts = [node("span", `seat-dot seat-${mv.seat}`, { "aria-hidden": "true" }), node("span", "move-text", {}, text)];
  if (mv.type === "play" && mv.points > 0) {
    parts.push(node("span", "move-points", {}, `+${mv.points}`));
  }
  return parts;
}

/** Each seat's panel: its chips, the jockey badge, its tile count, its balance's change. */
function seatPanels(ctx) {
  const { t, B } = ctx;

  function seatExtras(slot) {
    if (!slot) return null;
    const chips = node("div", "chips", { "aria-hidden": "true" });
    const delta = node("span", "balance-delta", { "aria-hidden": "true" });
    const jockey = node("span", "badge badge-jockey", { title: t("jockey_title") }, t("jockey"));
    jockey.hidden = true;
    const tiles = node("span", "tiles-count");
    const row = node("div", "sb-seat");
    row.append(chips, delta, jockey, tiles);
    slot.appendChild(row);
    return { chips, delta, jockey, tiles };
  }

  const boxes = [0, 1].map((seat) => seatExtras(ctx.shell.seatSlot(seat)));

  function renderSeats(c) {
    const pub = c.pub;
    for (const seat of [0, 1]) {
      const box = boxes[seat];
      if (!box) continue;
      const bal = Array.isArray(pub.balances) ? pub.balances[seat] : null;
      drawChips(box.chips, bal ?? 0, seat);
      box.jockey.hidden = pub.jockey !== seat || pub.phase === "over";
      const counts = pub.hand_counts;
      box.tiles.textContent = Array.isArray(counts) && pub.phase !== "over" ? t("tiles_count", { n: counts[seat] }) : "";
    }
  }

  /** A balance's change flashes beside it. */
  function flashBalances(prev, c) {
    const bal = Array.isArray(c.pub.balances) ? c.pub.balances : null;
    if (bal && B.balances && prev) {
      for (const seat of [0, 1]) {
        const d = bal[seat] - B.balances[seat];
        const node = boxes[seat] && boxes[seat].delta;
        if (!d || !node) continue;
        node.textContent = d > 0 ? `+${d}` : `−${-d}`;
        node.className = `balance-delta show ${d > 0 ? "up" : "down"}`;
        clearTimeout(node._timer);
        node._timer = setTimeout(() => (node.className = "balance-delta"), 2400);
      }
    }
    if (bal) B.balances = bal.slice();
  }

  return { render: renderSeats, flashBalances };
}

/** The board and the hand: picking a tile and its place, opening, drawing, revealing. */
function playArea(ctx) {
  const { element, shell, el, B, t, nameOf, labels, context, command, legalAction, render } = ctx;
  function sendPlay(play) {
    const action = { seat: play.seat, type: "play", tile: play.tile };
    if (play.target != null) {
      action.target = play.target;
      action.port = play.port;
    }
    command(action);
  }

  function onTileClick(tile) {
    const c = context();
    if (!c || !c.mine) return;
    const plays = playsFor(c.mine, tile);
    if (!plays.length) return;
    // One place on the board: no need to point at it (an opening is still confirmed).
    if (plays.length === 1 && plays[0].target != null) {
      sendPlay(plays[0]);
      return;
    }
    if (B.selected === tile) {
      const opening = plays.find((p) => p.target == null);
      if (opening) {
        sendPlay(opening);
        return;
      }
      if (!c.mine.must_play) B.selected = null;
      else B.focusPlace = lastKey(); // the drawn tile, picked again by keyboard: to its places
    } else {
      B.selected = tile;
      B.selectedFor = c.me;
      B.focusPlace = lastKey(); // picked by keyboard: its first place takes the focus
    }
    shell.clearFlash();
    render();
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
    const c = context();
    if (!tile || !c) return;
    if (!c.mine || !c.mine.must_play) B.selected = null;
    render();
    el.hand.querySelector(`[data-tile="${tile}"][tabindex]`)?.focus();
  }

  function onPlaceClick(place) {
    const c = context();
    if (!c || !c.mine || !B.selected) return;
    const play = playsFor(c.mine, B.selected).find(
      (p) => (p.target ?? null) === (place.target ?? null) && (p.port ?? null) === (place.port ?? null),
    );
    if (play) sendPlay(play);
    else shell.flash(t("err_cannot_play"));
  }

  // Taps on tiles that cannot be played now: say why, change nothing.
  el.hand.addEventListener("click", (ev) => {
    const tileEl = ev.target.closest?.("[data-tile]");
    const c = context();
    if (!tileEl || !c || !c.mine) return;
    const phase = c.pub.phase;
    if (phase !== "play" && phase !== "auction") return;
    if (c.pub.to_act !== c.me) shell.flash(t("err_not_turn"));
    else if (phase === "auction") shell.flash(t("err_no_auction_play"));
    else if (!playsFor(c.mine, tileEl.getAttribute("data-tile")).length) {
      shell.flash(c.mine.must_play ? t("err_must_play") : t("err_cannot_play"));
    }
  });

  el.btnOpen.addEventListener("click", () => {
    const c = context();
    const opening = c && c.mine && B.selected && playsFor(c.mine, B.selected).find((p) => p.target == null);
    if (opening) sendPlay(opening);
  });

  el.btnDraw.addEventListener("click", () => {
    const a = legalAction("draw");
    if (a) command({ seat: a.seat, type: "draw" });
  });

  el.btnReveal.addEventListener("click", () => {
    const c = context();
    if (c && c.awaiting != null) command({ seat: c.awaiting, type: "reveal" });
  });

  element.ownerDocument.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape" || !B.selected || ev.defaultPrevented) return;
    const c = context();
    if (c && c.mine && !c.mine.must_play) {
      B.selected = null;
      render();
    }
  });

  /** The selection: a drawn tile that must be played, else the pick while it is still legal. */
  function keepSelection(c) {
    const mine = c.mine;
    if (mine && mine.must_play) {
      B.selected = mine.must_play;
      B.selectedFor = c.me;
    } else if (B.selected && (!mine || B.selectedFor !== c.me || !playsFor(mine, B.selected).length)) {
      B.selected = null;
    }
  }

  function renderBoardArea(c) {
    keepSelection(c); // first: the board shows the places of the tile picked
    const pub = c.pub;
    const board = pub.board || EMPTY_BOARD;
    let highlight = [];
    if (c.mine && pub.phase === "play" && pub.to_act === c.me && !B.busy && B.selected) {
      highlight = playsFor(c.mine, B.selected).map((p) => ({ target: p.target ?? null, port: p.port ?? null }));
    }
    renderBoard(el.board, board, {
      highlight,
      onPlaceClick: highlight.length ? onPlaceClick : null,
      lastTile: lastPlayedTile(pub.moves),
      labels,
    });
    if (B.focusPlace && highlight.length) el.board.querySelector(".fives-place-active")?.focus();
    B.focusPlace = false;
    refreshPlaces();
    el.board.parentElement.classList.toggle("is-empty", !(board.tiles && board.tiles.length) && !highlight.length);
    const sum = board.ends_sum ?? 0;
    el.endsSum.textContent = String(sum);
    el.endsSum.parentElement.classList.toggle("scores", sum > 0 && sum % 5 === 0);
    el.boneyard.textContent = pub.boneyard_count != null ? String(pub.boneyard_count) : "–";
    el.handNoPill.hidden = !(pub.hand_no >= 0);
    el.handNo.textContent = String((pub.hand_no ?? 0) + 1);
  }

  function renderHandArea(c, over) {
    const pub = c.pub;
    const phase = pub.phase;
    const inHand = phase === "play" || phase === "auction";
    // One device: a hand is shown only to the seat that revealed it, never between turns.
    const showPass = c.device && !over && c.awaiting != null && inHand;
    el.passScreen.hidden = !showPass;
    if (showPass) {
      el.passTitle.textContent = t("pass_device", { name: nameOf(c.awaiting) });
      el.btnReveal.textContent = t("reveal_btn", { name: nameOf(c.awaiting) });
      el.btnReveal.disabled = B.busy;
    }
    // At the end both hands are shown in the settlement instead.
    const showHand = !!(c.mine && Array.isArray(c.mine.hand)) && !over && (!c.device || inHand);
    el.handArea.hidden = !showHand;
    el.btnOpen.hidden = true;
    el.btnDraw.hidden = true;
    if (!showHand) {
      el.hand.textContent = "";
      return;
    }
    const mine = c.mine;
    el.handTitle.textContent = c.device ? t("tiles_of", { name: nameOf(c.me) }) : t("your_tiles");
    const myTurn = phase === "play" && pub.to_act === c.me;
    el.handArea.classList.toggle("active", myTurn);
    el.handHint.textContent = "";
    if (!myTurn) {
      renderHand(el.hand, mine.hand, { labels });
      return;
    }
    renderPlayableHand(c);
  }

  function renderPlayableHand(c) {
    const mine = c.mine;
    const pub = c.pub;
    const playable = playableTiles(mine);
    // Drawn again, the hand keeps the keyboard's place.
    const focused = document.activeElement?.closest?.("#hand [data-tile]")?.getAttribute("data-tile");
    renderHand(el.hand, mine.hand, {
      selected: B.selected,
      playable,
      onTileClick: playable.length ? onTileClick : null,
      labels,
    });
    if (focused && !B.focusPlace) el.hand.querySelector(`[data-tile="${focused}"][tabindex]`)?.focus();
    refreshHand();
    el.btnDraw.hidden = !(pub.board && pub.board.tiles && pub.board.tiles.length);
    el.btnDraw.disabled = !hasLegal(mine, "draw") || B.busy;
    el.btnOpen.hidden = !(B.selected && playsFor(mine, B.selected).some((p) => p.target == null));
    el.btnOpen.disabled = B.busy;
  }

  /** Where the keyboard goes next: the next thing this page has to do, if any. */
  function nextFocus() {
    const c = context();
    if (!c || ctx.isOver(c)) return null;
    const pub = c.pub;
    if (!el.passScreen.hidden) return el.btnReveal;
    if (pub.phase === "continue") return el.btnContinue;
    if (!c.mine || pub.to_act !== c.me) return null;
    if (pub.phase === "auction") return [el.btnAccept, el.btnDecline, el.bidSelect].find(usable) || null;
    if (pub.phase !== "play") return null;
    if (B.selected) return el.hand.querySelector(`[data-tile="${B.selected}"][tabindex]`);
    if (legalOf(c.mine).every((a) => a.type === "draw")) return el.btnDraw;
    return el.hand.querySelector('[data-tile][tabindex="0"]') || el.hand.querySelector("[data-tile][tabindex]");
  }

  return { renderBoard: renderBoardArea, renderHand: renderHandArea, nextFocus };
}

/** The auction for the first move: decline, accept, or bid (the all-in bid asks first). */
function auctionPanel(ctx) {
  const { shell, el, B, t, nameOf, context, command, legalAction, render } = ctx;
  for (const [button, type] of [[el.btnDecline, "decline"], [el.btnAccept, "accept"]]) {
    button.addEventListener("click", () => {
      const a = legalAction(type);
      if (a) command({ seat: a.seat, type });
    });
  }

  el.bidSelect.addEventListener("change", () => {
    B.bidChoice = Number(el.bidSelect.value);
    render();
  });

  el.btnBid.addEventListener("click", async () => {
    const c = context();
    if (!c || !c.mine) return;
    const amount = Number(el.bidSelect.value);
    const a = legalAction("bid", (x) => x.amount === amount);
    if (!a) {
      shell.flash(t("err_not_turn"));
      return;
    }
    if (netPayment(c.pub, c.me, amount) >= c.pub.balances[c.me]) {
      if (!(await shell.confirm(t("confirm_all_in"), t("yes_bid")))) return;
    }
    command({ seat: a.seat, type: "bid", amount });
  });

  function renderAuction(c, over) {
    const pub = c.pub;
    const show = pub.phase === "auction" && !over;
    el.panelAuction.hidden = !show;
    if (!show) return;
    const a = pub.auction || {};
    const discount = pub.rules?.jockey_discount ?? 15;
    const iAmJockey = !c.device && pub.jockey != null && pub.jockey === c.me;
    el.auctionJockey.textContent =
      pub.jockey == null ? "" : t(iAmJockey ? "jockey_you" : "jockey_is", { name: nameOf(pub.jockey), discount });
    el.auctionBid.textContent = a.bid
      ? t("current_bid", { bid: a.bid, name: nameOf(a.bidder) })
      : t("no_bid", { min: pub.rules?.min_bid ?? 15 });
    el.auctionBid.classList.toggle("has-bid", !!a.bid);
    const myTurn = c.mine && pub.to_act === c.me && legalOf(c.mine).length > 0;
    el.auctionControls.hidden = !myTurn;
    el.auctionWait.hidden = !!myTurn;
    if (!myTurn) {
      el.auctionWait.textContent =
        c.awaiting != null ? t("pass_device", { name: nameOf(c.awaiting) }) : t("st_wait_auction", { name: nameOf(pub.to_act) });
      return;
    }
    renderBidControls(c, a);
  }

  function renderBidControls(c, a) {
    const pub = c.pub;
    const legal = legalOf(c.mine);
    const decline = legal.find((x) => x.type === "decline");
    const accept = legal.find((x) => x.type === "accept");
    const declineNote = decline && pub.jockey != null ? t("decline_note", { name: nameOf(pub.jockey) }) : "";
    el.btnDecline.hidden = !decline;
    el.btnDecline.title = declineNote;
    el.btnAccept.hidden = !accept;
    if (accept) {
      el.btnAccept.textContent = t("accept_btn", { bid: a.bid });
      const net = Math.min(netPayment(pub, a.bidder, a.bid), pub.balances[a.bidder]);
      el.btnAccept.title = t("accept_net", { name: nameOf(a.bidder), net });
    }
    const bids = legal.filter((x) => x.type === "bid").map((x) => x.amount);
    el.bidRow.hidden = bids.length === 0;
    el.btnBid.textContent = a.bid ? t("raise_btn") : t("bid_btn");
    const options = bids.join(",");
    if (el.bidSelect.dataset.options !== options) {
      el.bidSelect.dataset.options = options;
      el.bidSelect.replaceChildren(...bids.map((b) => {
        const o = document.createElement("option");
        o.value = String(b);
        o.textContent = t("bid_option", { bid: b, net: netPayment(pub, c.me, b) });
        return o;
      }));
    }
    if (!bids.includes(B.bidChoice)) B.bidChoice = bids[0] ?? null;
    if (B.bidChoice != null) el.bidSelect.value = String(B.bidChoice);
    const lines = [];
    if (accept) lines.push(el.btnAccept.title);
    if (declineNote) lines.push(declineNote);
    if (B.bidChoice != null) lines.push(t("bid_net", { net: netPayment(pub, c.me, B.bidChoice) }));
    el.bidNet.textContent = lines.join(" ");
    const allIn = B.bidChoice != null && netPayment(pub, c.me, B.bidChoice) >= pub.balances[c.me];
    el.bidWarning.hidden = !allIn;
    el.btnBid.classList.toggle("btn--warn", allIn);
    for (const button of [el.btnDecline, el.btnAccept, el.btnBid]) button.disabled = B.busy;
  }

  return { render: renderAuction };
}

/** Start / Continue between hands, and the grace countdown after which the hand starts. */
function continuePanel(ctx) {
  const { shell, el, B, t, nameOf, context, command, isOver } = ctx;
  el.btnContinue.addEventListener("click", async () => {
    const c = context();
    if (!c) return;
    // On one device both seats press Continue: one command after the other.
    for (const seat of continueSeats(c)) {
      const result = await command({ seat, type: "continue" });
      if (!result.ok) break;
    }
  });

  function continueSeats(c) {
    if (c.device) return [0, 1].filter((s) => hasLegal(B.msg.views[s], "continue"));
    return c.mine && hasLegal(c.mine, "continue") ? [c.me] : [];
  }

  function renderContinue(c, over) {
    const pub = c.pub;
    const show = pub.phase === "continue" && !over;
    el.panelContinue.hidden = !show;
    if (!show) return;
    const first = (pub.hand_no ?? 0) === 0;
    el.continueTitle.textContent = first ? t("start_title") : t("continue_title", { n: pub.hand_no + 1 });
    el.btnContinue.textContent = first ? t("start") : t("continue");
    el.btnContinue.hidden = continueSeats(c).length === 0 || shell.role === "spectator";
    el.btnContinue.disabled = B.busy;
    let text = first ? t("start_text") : t("continue_text");
    if (c.device) text = `${text} ${t("continue_device")}`;
    else if (c.me != null && pub.continued && pub.continued[c.me]) text = t("pressed", { name: nameOf(other(c.me)) });
    el.continueText.textContent = text;
  }

  function fmtClock(sec) {
    const s = Math.max(0, Math.ceil(sec));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  /** The grace countdown between hands (the hand starts by itself when it ends). */
  function tickGrace() {
    const c = context();
    const pub = c && c.pub;
    el.grace.textContent = pub && pub.phase === "continue" && pub.grace_deadline != null && !isOver(c)
      ? t("grace", { t: fmtClock(pub.grace_deadline - shell.now()) })
      : "";
  }

  setInterval(tickGrace, 500);

  return { render: renderContinue, continueSeats, tickGrace };
}

/** How the last hand ended: the words, its final position and both hands. */
function settlementPanel(ctx) {
  const { el, t, nameOf, labels, moveText } = ctx;
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
    // In "continue" the next hand is dealt already (none before the first); in "deal" not yet.
    let index = null;
    if (pub.phase === "continue" && pub.hand_no > 0) index = pub.hand_no - 1;
    else if (pub.phase === "deal" && pub.hand_no >= 0) index = pub.hand_no;
    return index == null ? null : hands.find((h) => h.hand === index && h.hands) || null;
  }

  /** The last move of a hand that belongs to the game (not continue / reveal). */
  function lastGameMove(moves) {
    for (let i = moves.length - 1; i >= 0; i--) if (moveText(moves[i])) return moves[i];
    return null;
  }

  function settlementText(c, h, over) {
    const winner = handWinner(h);
    if (h.end === "domino") {
      const seat = winner != null ? winner : c.pub.jockey;
      return over ? t("settle_domino_short", { name: nameOf(seat) }) : t("settle_domino", { name: nameOf(seat) });
    }
    if ((h.end === "blocked" || h.end === "match_over") && Array.isArray(h.sums)) {
      // A blocked hand (its settlement may have ended the match too).
      const params = { name0: nameOf(0), sum0: h.sums[0], name1: nameOf(1), sum1: h.sums[1] };
      return winner == null
        ? t("settle_blocked_tie", params)
        : t("settle_blocked", { ...params, winner: nameOf(winner), points: h.settlement ?? 0 });
    }
    if (h.end === "match_over") {
      const r = c.pub.result;
      const last = lastGameMove(Array.isArray(h.moves) ? h.moves : []);
      // The match ended on a score: say who took the last points.
      const scorer = last && last.type === "play" && last.points > 0 ? last.seat : null;
      return scorer != null && r && r.reason === "points" && r.winner === scorer
        ? t("settle_match_over_winner", { name: nameOf(scorer) })
        : t("settle_match_over");
    }
    return "";
  }

  function renderSettlement(c, over) {
    const h = settledHand(c, over);
    el.panelSettlement.hidden = !h;
    if (!h) return;
    el.panelSettlement.dataset.hand = String(h.hand);
    el.settlementTitle.textContent = t("settle_title", { n: h.hand + 1 });
    const winner = handWinner(h);
    el.panelSettlement.dataset.winner = winner == null ? "" : String(winner);
    el.panelSettlement.dataset.end = h.end || "";
    el.settlementText.textContent = settlementText(c, h, over);
    renderSettledBoard(h);
    renderRevealedHands(h);
  }

  function renderRevealedHands(h) {
    const revealed = Array.isArray(h.hands) ? h.hands : null;
    const key = JSON.stringify([h.hand, revealed, h.sums]);
    if (el.settlementHands.dataset.key === key) return;
    el.settlementHands.dataset.key = key;
    el.settlementHands.textContent = "";
    if (!revealed) return;
    for (const seat of [0, 1]) {
      const row = document.createElement("div");
      row.className = "reveal-row";
      const who = document.createElement("div");
      who.className = "reveal-who";
      const dot = document.createElement("span");
      dot.className = `seat-dot seat-${seat}`;
      const name = document.createElement("span");
      name.textContent = nameOf(seat);
      const pips = revealed[seat].reduce((acc, tile) => acc + tile.split("-").reduce((x, y) => x + Number(y), 0), 0);
      const total = document.createElement("span");
      total.className = "reveal-sum";
      total.textContent = revealed[seat].length
        ? t("hand_sum", { sum: Array.isArray(h.sums) ? h.sums[seat] : pips })
        : t("no_tiles");
      who.append(dot, name, total);
      const tilesBox = document.createElement("div");
      tilesBox.className = "reveal-tiles";
      if (revealed[seat].length) renderHand(tilesBox, revealed[seat], { labels });
      row.append(who, tilesBox);
      el.settlementHands.appendChild(row);
    }
  }

  /** The settled hand's final board (a small drawing) and its last move with its points. */
  function renderSettledBoard(h) {
    const board = h.board && Array.isArray(h.board.tiles) && h.board.tiles.length ? h.board : null;
    el.settlementBoardWrap.hidden = !board;
    if (!board) {
      el.settlementBoard.textContent = "";
      delete el.settlementBoardWrap.dataset.key;
      return;
    }
    const moves = Array.isArray(h.moves) ? h.moves : [];
    const key = JSON.stringify([h.hand, board.tiles.length, moves.length]);
    if (el.settlementBoardWrap.dataset.key === key) return;
    el.settlementBoardWrap.dataset.key = key;
    renderBoard(el.settlementBoard, board, {
      lastTile: lastPlayedTile(h.moves), showValues: false, minView: [6 * 40, 3 * 40], labels,
    });
    // A box of the drawing's own shape (within reason): no wide felt around a short line.
    const vb = el.settlementBoard.viewBox && el.settlementBoard.viewBox.baseVal;
    if (vb && vb.width > 0 && vb.height > 0) {
      el.settlementBoard.style.aspectRatio = Math.min(3, Math.max(1.25, vb.width / vb.height)).toFixed(3);
    }
    const last = lastGameMove(moves);
    el.settlementLast.hidden = !last;
    el.settlementLast.replaceChildren(...(last ? moveLine(last, t("settle_last", { move: moveText(last) })) : []));
    const points = el.settlementLast.querySelector(".move-points");
    if (points) points.dataset.testid = "settlement-points";
  }

  return { render: renderSettlement };
}

/** This hand's moves: the log, the toasts over the board, and what is read out. */
function moveLog(ctx) {
  const { shell, el, B, t, nameOf, moveText } = ctx;
  function toast(text, seat, where) {
    const n = document.createElement("div");
    n.className = `toast seat-${seat}`;
    n.textContent = text;
    where.appendChild(n);
    setTimeout(() => n.remove(), 2600);
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

  /** Toasts and read-outs for the new moves (and the player's turn, when it comes). */
  function tell(prev, c, yourTurn) {
    const pub = c.pub;
    const moves = Array.isArray(pub.moves) ? pub.moves : [];
    let fresh = [];
    if (prev && B.seenHand === pub.hand_no) {
      fresh = moves.slice(B.seenMoves);
      toastMoves(fresh, el.toasts);
    } else if (prev && B.seenHand != null) {
      el.toasts.replaceChildren(); // the last hand's toasts never show on the next hand's board
      // The hand followed is settled and the next one dealt: its last moves (the final
      // placement and its points) come with the settled hand, over its board.
      const hands = Array.isArray(pub.hands) ? pub.hands : [];
      const settled = hands.find((h) => h.hand === B.seenHand && Array.isArray(h.moves));
      if (settled) {
        fresh = settled.moves.slice(B.seenMoves);
        toastMoves(fresh, el.settlementToasts);
      }
    }
    const said = fresh.filter((mv) => mv.seat !== c.me).map(moveText).filter(Boolean);
    if (yourTurn) said.push(shell.t("st_your_turn"));
    if (said.length) shell.announce(said.join(". "));
    B.seenHand = pub.hand_no;
    B.seenMoves = moves.length;
  }

  function renderLog(c) {
    const moves = Array.isArray(c.pub.moves) ? c.pub.moves : [];
    const key = `${c.pub.hand_no}:${moves.length}`;
    if (el.moveLog.dataset.key === key) return;
    el.moveLog.dataset.key = key;
    const rows = [];
    for (const mv of moves) {
      const text = moveText(mv);
      if (!text) continue;
      const li = document.createElement("li");
      li.className = `move move-${mv.type}${mv.forced ? " forced" : ""}`;
      li.append(...moveLine(mv, text));
      rows.push(li);
    }
    el.moveLog.replaceChildren(...rows);
    el.logEmpty.hidden = rows.length > 0;
    el.moveLog.scrollTop = el.moveLog.scrollHeight;
  }

  return { render: renderLog, tell };
}

export function mount(element, shell) {
  const t = (key, params) => shell.t(`sb_${key}`, params);
  const nameOf = (seat) => shell.nameOf(seat);
  const $ = (id) => element.querySelector(`#${id}`);
  const el = {};
  for (const id of [
    "phase", "board", "ends-sum", "boneyard", "hand-no", "hand-no-pill", "toasts", "hand-area", "hand-title",
    "hand", "hand-hint", "btn-open", "btn-draw", "pass-screen", "pass-title", "btn-reveal", "panel-auction",
    "auction-jockey", "auction-bid", "auction-controls", "auction-wait", "btn-decline", "btn-accept", "bid-row",
    "bid-select", "btn-bid", "bid-net", "bid-warning", "panel-continue", "continue-title", "continue-text",
    "btn-continue", "grace", "panel-settlement", "settlement-title", "settlement-text", "settlement-hands",
    "settlement-board-wrap", "settlement-board", "settlement-toasts", "settlement-last", "move-log", "log-empty",
  ]) {
    el[id.replace(/-(\w)/g, (m, c) => c.toUpperCase())] = $(id);
  }
  const labels = {};
  for (const key of LABEL_KEYS) labels[key] = shell.t(`lbl_${key}`);
  const B = {
    msg: null,
    selected: null, // the selected tile ("a-b") of the acting seat
    selectedFor: null, // the seat it belongs to (one device)
    bidChoice: null,
    busy: false, // a command of this board waits for its answer
    focusPlace: false, // a tile picked by keyboard: focus its first place once drawn
    seenHand: null, // hand_no of the moves already told
    seenMoves: 0,
    balances: null,
    toDo: null, // whether this page had something to do at the last state (null: none yet)
  };

  /** What this page shows and acts for: the public view, the seat acting here, its view. */
  function context(m = B.msg) {
    if (!m) return null;
    const header = m.header || {};
    if (Array.isArray(m.views) && m.views.length) {
      const pub = m.views[0];
      const awaiting = pub.awaiting_reveal;
      let me = null;
      if ((pub.phase === "play" || pub.phase === "auction") && awaiting == null && pub.to_act != null) me = pub.to_act;
      return { pub, me, mine: me != null ? m.views[me] : null, awaiting, header, device: true };
    }
    const v = m.view;
    if (!v) return null;
    const me = shell.mySeats.length ? shell.mySeats[0] : null;
    return { pub: v, me, mine: me != null ? v : null, awaiting: v.awaiting_reveal, header, device: false };
  }

  const isOver = (c) => c.pub.phase === "over" || (c.header.status && c.header.status !== "active");

  async function command(action) {
    B.busy = true;
    render();
    const result = await shell.send(action);
    B.busy = false;
    render();
    return result;
  }

  /** The first legal action of a type for the seat acting here. */
  function legalAction(type, test = () => true) {
    const c = context();
    return c ? legalOf(c.mine).find((a) => a.type === type && test(a)) : undefined;
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
        return null; // continue and reveal are not moves of the game
    }
  }

  const ctx = { element, shell, el, B, t, nameOf, labels, context, isOver, command, legalAction, moveText, render };
  const seats = seatPanels(ctx);
  const play = playArea(ctx);
  const auction = auctionPanel(ctx);
  const between = continuePanel(ctx);
  const settlement = settlementPanel(ctx);
  const log = moveLog(ctx);
  const focus = keepFocus(element, {
    next: play.nextFocus,
    park: () => [el.handArea, el.panelContinue, el.panelAuction].find(usable),
  });

  /** Whether this page has something to do now: a move, or Start / Continue. */
  function toDo(c) {
    if (isOver(c)) return false;
    if (c.pub.phase === "continue") return between.continueSeats(c).length > 0 && shell.role !== "spectator";
    return c.mine != null && c.pub.to_act === c.me && legalOf(c.mine).length > 0;
  }

  function render() {
    const c = context();
    if (!c) return;
    const over = isOver(c);
    element.dataset.phase = c.pub.phase;
    el.phase.dataset.phase = c.pub.phase;
    el.phase.textContent = t(`phase_${c.pub.phase}`);
    seats.render(c);
    play.renderBoard(c);
    play.renderHand(c, over);
    auction.render(c, over);
    between.render(c, over);
    settlement.render(c, over);
    log.render(c);
    renderStatus(c, over);
    between.tickGrace();
    focus.restore();
  }

  function statusText(c, over) {
    const pub = c.pub;
    const phase = pub.phase;
    if (over) return t("st_over");
    if (phase === "deal") return t("st_deal");
    if (phase === "continue") {
      if (shell.role === "spectator") return t("st_wait_both");
      if (between.continueSeats(c).length) return t("st_continue", { button: el.btnContinue.textContent });
      return c.me != null ? t("st_wait_continue", { name: nameOf(other(c.me)) }) : t("st_wait_both");
    }
    if (c.awaiting != null && c.device) return t("st_pass", { name: nameOf(c.awaiting) });
    if (c.me == null) return pub.to_act != null ? t("st_watch", { name: nameOf(pub.to_act) }) : "";
    if (pub.to_act !== c.me) {
      return t(phase === "auction" ? "st_wait_auction" : "st_wait_play", { name: nameOf(pub.to_act) });
    }
    if (phase === "auction") return t("st_your_turn_auction");
    if (c.mine.must_play) return t("st_must_play");
    if (hasLegal(c.mine, "draw")) return t("st_must_draw");
    if (!pub.board || !pub.board.tiles || !pub.board.tiles.length) {
      return B.selected ? t("st_selected_open") : t("st_your_turn_open");
    }
    return B.selected ? t("st_selected") : t("st_your_turn_play");
  }

  function renderStatus(c, over) {
    shell.setStatus(statusText(c, over));
    const pub = c.pub;
    const mineToAct = c.me != null && pub.to_act === c.me && !over && (pub.phase === "play" || pub.phase === "auction");
    element.classList.toggle("my-turn", mineToAct);
  }

  return {
    update(state) {
      const prev = B.msg;
      B.msg = state;
      const c = context();
      if (!c) return;
      const now = toDo(c);
      const fresh = now && B.toDo === false;
      log.tell(prev, c, fresh);
      B.toDo = now;
      seats.flashBalances(prev, c);
      render();
      if (fresh) focus.moveOn();
    },
    scoreOf: (view, seat) => (view && Array.isArray(view.balances) ? view.balances[seat] : null),
    /** The result's words: why it ended, and the final balances. */
    resultText(state) {
      const c = context(state);
      if (!c) return null;
      const r = c.pub.result || {};
      const parts = [];
      if (r.reason === "points" && (r.winner === 0 || r.winner === 1)) {
        parts.push(t("reason_points", { loser: nameOf(other(r.winner)) }));
      }
      if (Array.isArray(c.pub.balances)) {
        parts.push(t("final_balances", { name0: nameOf(0), b0: c.pub.balances[0], name1: nameOf(1), b1: c.pub.balances[1] }));
      }
      return parts.join(" ");
    },
  };
}

