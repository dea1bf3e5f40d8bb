/**
 * board.js — draw a Fives domino board (and a hand) as SVG. No dependencies, no build
 * step: a plain ES module.
 *
 *   import { renderBoard, renderHand } from "/static/js/board.js";
 *
 * renderBoard(svgElement, board, options) -> layout
 *   Clears `svgElement` and draws `board`, the "board" part of the server's per-seat
 *   view:
 *     { tiles:   [{tile: "1-4", target: null,  port: null,  own_port: null},   // opening
 *                 {tile: "1-1", target: "1-4", port: "low", own_port: "line_a"}, ...],
 *       spinner: "1-1" | null,
 *       ends_sum: 6,
 *       places:  [{target: "1-1", port: "line_b", value: 1}, ...] }          // open places
 *   It sets a viewBox that fits everything (never smaller than `minView`), so the
 *   drawing scales to its container.
 *   options:
 *     highlight:    [{target, port}, ...]  places drawn as clickable dashed ghost tiles
 *                   showing the value to match. On an empty board {target: null,
 *                   port: null} draws a ghost in the centre (the opening move).
 *     onPlaceClick: (place) => void        called with {target, port} when a highlighted
 *                   place is clicked (or activated with Enter/Space).
 *     lastTile:     "3-4"                  the last tile placed gets a subtle glow.
 *     showValues:   true                   small badges with the value of every open
 *                   place that is not highlighted.
 *     minView:      [width, height]        smallest viewBox (user units; a tile is 40x80).
 *     labels:       {...}                  screen-reader strings (format strings with
 *                   {placeholders}); see DEFAULT_LABELS for the keys and the English
 *                   defaults. Missing keys keep their default.
 *   Returns the layout (see layoutBoard) for callers that want positions.
 *
 * renderHand(svgOrContainer, tiles, options) -> SVGSVGElement
 *   Draws a hand (array of "a-b") as upright tiles in a row. Pass an <svg> or any
 *   container element (an <svg class="fives-hand"> is created inside it).
 *   options:
 *     selected:    "1-4"             drawn raised with an outline (aria-pressed="true").
 *     playable:    ["1-4", ...]      the other tiles are dimmed and not clickable;
 *                  omit it to treat every tile as playable.
 *     onTileClick: (tile) => void    called with "a-b" when a playable tile is clicked
 *                  (or activated with Enter/Space).
 *     labels:      {...}             screen-reader strings, as for renderBoard.
 *
 * layoutBoard(board) -> {tiles, places, bounds, strained}
 *   The geometry only (no DOM): every tile's cell rectangle, centre, angle and drawn
 *   ends, and a slot for every open place.
 *
 * Accessibility: every tile element has data-tile="a-b" and aria-label="tile a-b";
 * every clickable place has data-target, data-port, role="button", tabindex="0" and an
 * aria-label; clickable hand tiles have role="button". The labels are English unless
 * the caller passes translated ones (options.labels).
 *
 * Geometry (user units: a tile is 40 x 80, one half a 40 x 40 square):
 * - The board is drawn from the spinner when there is one, else from the opening tile,
 *   which sits at the origin with its low end on the left and its high end on the
 *   right (a double opening stands crosswise, line_a on the left).
 * - Doubles are drawn across the line. The spinner stands across a horizontal line:
 *   its line_a side faces the opening tile (to the right if the spinner hangs on the
 *   opening's low side, else to the left), branch_a goes up and branch_b down.
 * - Tiles are drawn in the order they were played, each against tiles already down,
 *   so a new tile never moves the others. (When the spinner arrives the drawing is
 *   re-rooted on it, which for a straight line only shifts it, invisible once the
 *   viewBox is fitted.)
 * - Arms snake to stay in a frame of about 20 x 12 halves: the horizontal arms run
 *   outwards, then fold into rows (right arm downwards, left arm upwards); the
 *   branches go straight up/down, then turn into rows (up arm to the right, down arm
 *   to the left). This pinwheel keeps each arm in its own quadrant; each arm also
 *   keeps out of the straight "corridors" of the others. A turn puts the turning
 *   tile's first half beside the line's last half (or at the far end of a double).
 * - Should something not fit without overlapping (rare), the board is laid out again
 *   from the opening tile and then in bigger frames.
 */

import { SVG_NS, TILE_INSET, TILE_LONG, TILE_SHORT, parseTile, svgEl, tileName, tileSvg } from "./tiles.js";

export { tileSvg } from "./tiles.js";

const S = TILE_SHORT; // one half of a tile: an S x S square
const L = TILE_LONG; // a tile is S x L
const EPS = 0.5;

/**
 * Screen-reader strings: format strings whose {placeholders} are filled in here.
 * A translated set may be passed as options.labels (any key left out keeps its default).
 */
export const DEFAULT_LABELS = Object.freeze({
  board: "Board: {n} tiles, ends count {sum}", // {n} >= 2
  board_one: "Board: {n} tile, ends count {sum}",
  board_empty: "Board: empty",
  tile: "tile {tile}",
  tile_spinner: "{label} (spinner)", // {label}: the tile's label so far
  tile_last: "{label} (last played)",
  place: "play on tile {target}, {port} (matches {value})",
  opening: "play the opening tile",
  hand: "Hand: {n} tiles",
  hand_one: "Hand: {n} tile",
  port_high: "high",
  port_low: "low",
  port_line_a: "line a",
  port_line_b: "line b",
  port_branch_a: "branch a",
  port_branch_b: "branch b",
});

function labelsOf(options) {
  const given = options && options.labels;
  return given ? { ...DEFAULT_LABELS, ...given } : DEFAULT_LABELS;
}

/** Fill the {placeholders} of a format string. */
function fillLabel(format, params) {
  return String(format).replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

const DEFAULT_XMAX = 10 * S; // soft half-width of the playing area, from the root tile
const DEFAULT_YMAX = 6 * S; // soft half-height
const CORRIDOR_MARGIN = S / 4;

// ---------------------------------------------------------------------------------
// small vector helpers (screen coordinates: x to the right, y downwards)

const add = (p, d, k = 1) => [p[0] + d[0] * k, p[1] + d[1] * k];
const neg = (d) => [-d[0], -d[1]];
const same = (a, b) => a[0] === b[0] && a[1] === b[1];
const cw = (d) => [-d[1], d[0]]; // turn a heading 90 degrees clockwise on screen
const isHorizontal = (d) => d[1] === 0;
const UP = [0, -1];
const DOWN = [0, 1];
const LEFT = [-1, 0];
const RIGHT = [1, 0];

/** A rectangle starting at P and running `len` along heading d, `width` across it. */
function rectAlong(P, d, len, width) {
  const far = add(P, d, len);
  if (isHorizontal(d)) {
    return {
      x0: Math.min(P[0], far[0]),
      x1: Math.max(P[0], far[0]),
      y0: P[1] - width / 2,
      y1: P[1] + width / 2,
    };
  }
  return {
    x0: P[0] - width / 2,
    x1: P[0] + width / 2,
    y0: Math.min(P[1], far[1]),
    y1: Math.max(P[1], far[1]),
  };
}

const overlaps = (a, b) =>
  Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > EPS &&
  Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > EPS;

/** Clockwise rotation that turns an upright tile's top->bottom axis into heading h. */
function angleFor(h) {
  if (h[1] === 1) return 0;
  if (h[0] === 1) return -90;
  if (h[0] === -1) return 90;
  return 180;
}

// ---------------------------------------------------------------------------------
// layout

/**
 * Where a tile goes when it is put at the end `E` of a line heading `d`, continuing in
 * heading `dir` (same as d: straight on; perpendicular: a turn).
 */
function geometry(E, d, dir, dbl, doubleCenter = null) {
  if (same(dir, d)) {
    if (!dbl) {
      return {
        rect: rectAlong(E, d, L, S),
        center: add(E, d, L / 2),
        inner: add(E, d, S / 2),
        next: add(E, d, L),
        heading: d,
      };
    }
    return {
      rect: rectAlong(E, d, S, L),
      center: add(E, d, S / 2),
      inner: add(E, d, S / 2),
      next: add(E, d, S),
      heading: d,
    };
  }
  if (!dbl && doubleCenter) {
    // Turning right after a double (standing across the line): the line goes on from
    // the double's far end, so the double works as the corner.
    const P = add(doubleCenter, dir, S);
    return {
      rect: rectAlong(P, dir, L, S),
      center: add(P, dir, L / 2),
      inner: add(P, dir, S / 2),
      next: add(P, dir, L),
      heading: dir,
    };
  }
  if (!dbl) {
    // The turning tile's first half sits just beyond the end, beside the line's last
    // half, and the tile runs off in the new heading.
    const P = add(add(E, d, S / 2), dir, -S / 2);
    return {
      rect: rectAlong(P, dir, L, S),
      center: add(P, dir, L / 2),
      inner: add(P, dir, S / 2),
      next: add(P, dir, L),
      heading: dir,
    };
  }
  // A double on a corner lies along the old heading, i.e. across the new one.
  const c = add(E, d, L / 2);
  return { rect: rectAlong(E, d, L, S), center: c, inner: c, next: add(c, dir, S / 2), heading: dir };
}

/** A new arm leaving the board at E with heading d. */
function newArm(E, d, owner, value) {
  if (isHorizontal(d)) {
    return { E, d, owner, value, phase: "row", out: d, fold: cw(d), rowDir: d };
  }
  // Vertical arms (the spinner's branches) first go straight, then turn into rows.
  return { E, d, owner, value, phase: "leg", leg: d, legTurn: cw(d) };
}

class Layout {
  constructor(xmax, ymax) {
    this.xmax = xmax;
    this.ymax = ymax;
    this.occupied = []; // {rect, key}
    this.corridors = []; // {rect, owner}
    this.ends = new Map(); // "tile:port" -> arm state
    this.tiles = []; // placed tiles, in order
    this.byName = new Map();
    this.places = [];
    this.strain = 0; // tiles that had to overlap (x100) + open places that had to
  }

  /**
   * No tile there, nor another arm's corridor (owner null: ignore corridors; slack:
   * how far it may reach into a corridor's margin).
   */
  free(rect, owner, slack = 0) {
    for (const o of this.occupied) if (overlaps(o.rect, rect)) return false;
    if (owner === null) return true;
    for (const c of this.corridors) {
      if (c.owner === owner) continue;
      const r = c.rect;
      const inner = { x0: r.x0 + slack, y0: r.y0 + slack, x1: r.x1 - slack, y1: r.y1 - slack };
      if (overlaps(inner, rect)) return false;
    }
    return true;
  }

  inBox(rect, dir, st) {
    const xmax = Math.max(this.xmax, st.xlim ?? 0);
    const ymax = Math.max(this.ymax, st.ylim ?? 0);
    if (isHorizontal(dir)) return rect.x0 >= -xmax && rect.x1 <= xmax;
    return rect.y0 >= -ymax && rect.y1 <= ymax;
  }

  /** The ordered ways to continue arm `st` with a tile (double or not). */
  candidates(st, dbl) {
    const c = [];
    if (st.phase === "leg" || st.phase === "row") {
      const leg = st.phase === "leg";
      const turn = leg ? st.legTurn : st.fold;
      const [then, t1, t2] = leg ? ["leg", "row0", "row0rev"] : ["row", "fold", "foldrev"];
      if (dbl) {
        // A double is only S deep and takes a corner only if it must: it goes on
        // straight (even a little past the frame) and the next tile turns.
        c.push({ dir: st.d, then });
      } else {
        // On within the frame, if the line can still turn afterwards.
        c.push({ dir: st.d, box: true, look: turn, then });
      }
      c.push({ dir: turn, then: t1 });
      c.push({ dir: neg(turn), then: t2 });
      if (!dbl) c.push({ dir: st.d, then });
    } else {
      // Just turned off a row: a non-double starts the next row back, a double first
      // goes on straight.
      if (!dbl) c.push({ dir: neg(st.rowDir), then: "rownew" });
      c.push({ dir: st.d, then: "fold" });
      if (dbl) c.push({ dir: neg(st.rowDir), then: "rownew" });
      c.push({ dir: st.rowDir, then: "rowsame" });
    }
    return c;
  }

  /** Pick where a tile goes at the end `st`; returns {g, state} (state: the new end). */
  choose(st, dbl) {
    const options = this.candidates(st, dbl);
    for (const cand of options) {
      const g = geometry(st.E, st.d, cand.dir, dbl, st.doubleAt);
      // A branch's first straight leg leaves the spinner across the main line's corridor.
      // A double, wider than the line, may reach into a corridor's margin.
      if (!this.free(g.rect, cand.then === "leg" ? null : st.owner, dbl ? CORRIDOR_MARGIN : 0)) continue;
      if (cand.box && !this.inBox(g.rect, cand.dir, st)) continue;
      if (cand.look) {
        // Going on is only worth it if the line can still turn afterwards.
        const after = geometry(g.next, g.heading, cand.look, false, dbl ? g.center : null);
        if (!this.free(after.rect, st.owner) || overlaps(after.rect, g.rect)) continue;
      }
      return { g, state: this.advance(st, cand, g, dbl), ok: true };
    }
    // Nowhere free: overlap rather than fail (and let layoutBoard try a bigger frame).
    const cand = options[0];
    const g = geometry(st.E, st.d, cand.dir, dbl, st.doubleAt);
    return { g, state: this.advance(st, cand, g, dbl), ok: false };
  }

  advance(st, cand, g, dbl) {
    // doubleAt: the centre of a double standing across the end of the line, if any.
    const s = { ...st, E: g.next, d: g.heading, doubleAt: dbl && same(cand.dir, st.d) ? g.center : null };
    switch (cand.then) {
      case "row0":
      case "row0rev":
        Object.assign(s, { phase: "row", out: cand.dir, rowDir: cand.dir, fold: neg(st.leg) });
        break;
      case "fold":
        s.phase = "fold";
        break;
      case "foldrev":
        Object.assign(s, { phase: "fold", fold: neg(st.fold) });
        break;
      case "rownew":
        Object.assign(s, { phase: "row", rowDir: cand.dir });
        break;
      case "rowsame":
        s.phase = "row";
        break;
      default:
        break;
    }
    return s;
  }

  addCorridor(E, d, owner) {
    const reach = isHorizontal(d) ? this.xmax + 2 * S - Math.abs(E[0]) : this.ymax + 2 * S - Math.abs(E[1]);
    if (reach <= 0) return;
    this.corridors.push({ rect: rectAlong(E, d, reach, 2 * (S + CORRIDOR_MARGIN)), owner });
  }

  record(name, g, dbl, ends, extra = {}) {
    const info = {
      tile: name,
      rect: g.rect,
      center: g.center,
      angle: dbl ? (isHorizontal(g.heading) ? 0 : 90) : angleFor(g.heading),
      ends, // [top, bottom] as drawn before rotation: [inner, outer]
      heading: g.heading,
      double: dbl,
      ...extra,
    };
    this.tiles.push(info);
    this.byName.set(name, info);
    this.occupied.push({ rect: g.rect, key: name });
    return info;
  }

  openSpinnerBranches(name, center, heading, value) {
    const [a, b] = isHorizontal(heading) ? [UP, DOWN] : [LEFT, RIGHT];
    for (const [port, dir] of [["branch_a", a], ["branch_b", b]]) {
      const E = add(center, dir, L / 2);
      this.ends.set(`${name}:${port}`, newArm(E, dir, `${name}:${port}`, value));
      this.addCorridor(E, dir, `${name}:${port}`);
    }
  }

  /**
   * The tile everything else is drawn from: the opening tile (low end left, high end
   * right), or a double standing across the line (line_a on the left unless
   * `lineALeft` is false).
   */
  placeRoot(name, spinner, lineALeft = true) {
    const [lo, hi] = parseTile(name);
    if (lo !== hi) {
      const g = { rect: rectAlong([-S, 0], RIGHT, L, S), center: [0, 0], heading: RIGHT };
      this.record(name, g, false, [lo, hi], { root: true });
      this.ends.set(`${name}:low`, newArm([-S, 0], LEFT, "left", lo));
      this.ends.set(`${name}:high`, newArm([S, 0], RIGHT, "right", hi));
    } else {
      const g = { rect: rectAlong([-S / 2, 0], RIGHT, S, L), center: [0, 0], heading: RIGHT };
      this.record(name, g, true, [lo, lo], { root: true, spinner: name === spinner });
      const [a, b] = lineALeft ? ["line_a", "line_b"] : ["line_b", "line_a"];
      this.ends.set(`${name}:${a}`, { ...newArm([-S / 2, 0], LEFT, "left", lo), doubleAt: [0, 0] });
      this.ends.set(`${name}:${b}`, { ...newArm([S / 2, 0], RIGHT, "right", lo), doubleAt: [0, 0] });
      if (name === spinner) this.openSpinnerBranches(name, [0, 0], RIGHT, lo);
    }
    this.addCorridor([-S / 2, 0], LEFT, "left");
    this.addCorridor([S / 2, 0], RIGHT, "right");
  }

  /** Draw `edge.tile` against the end `edge.target:edge.port`, touching with `edge.own`. */
  attach(edge, spinner) {
    const { tile: name, target, port } = edge;
    const key = `${target}:${port}`;
    const st = this.ends.get(key);
    if (!st) {
      this.strain += 100; // not a place on this board: the tile cannot be drawn
      return false;
    }
    this.ends.delete(key);
    const [lo, hi] = parseTile(name);
    const dbl = lo === hi;
    const { g, state, ok } = this.choose(st, dbl);
    if (!ok) this.strain += 100;
    if (dbl) {
      this.record(name, g, true, [lo, lo], { target, port, spinner: name === spinner });
      const end = { ...state, value: lo };
      if (name === spinner) {
        this.openSpinnerBranches(name, g.center, g.heading, lo);
        // A spinner near the edge of the frame: the line beyond it gets room to snake
        // outside the branches' corridors.
        const room = S / 2 + 3 * L;
        if (isHorizontal(g.heading)) end.xlim = Math.abs(g.center[0]) + room;
        else end.ylim = Math.abs(g.center[1]) + room;
      }
      this.ends.set(`${name}:${edge.own === "line_b" ? "line_a" : "line_b"}`, end);
    } else {
      let own = edge.own;
      if (own !== "low" && own !== "high") own = st.value === hi ? "high" : "low";
      const inner = own === "low" ? lo : hi;
      const outer = own === "low" ? hi : lo;
      this.record(name, g, false, [inner, outer], { target, port });
      this.ends.set(`${name}:${own === "low" ? "high" : "low"}`, { ...state, value: outer });
    }
    return true;
  }

  placeSlot(place) {
    const key = `${tileName(place.target)}:${place.port}`;
    const st = this.ends.get(key);
    if (!st) return null;
    let { g, ok } = this.choose(st, false);
    let tight = false;
    if (!ok) {
      // No room for a whole tile: a small marker just off the end, if that fits.
      const rect = rectAlong(st.E, st.d, S / 2, S / 2);
      if (this.free(rect, null)) {
        const c = add(st.E, st.d, S / 4);
        g = { rect, center: c, inner: c, heading: st.d };
        tight = true;
      } else {
        this.strain += 1;
      }
    }
    this.occupied.push({ rect: g.rect, key: `place:${key}` });
    const slot = {
      target: tileName(place.target),
      port: place.port,
      value: place.value ?? st.value,
      rect: g.rect,
      center: g.center,
      inner: g.inner,
      heading: g.heading,
      tight, // true: only a small marker fits there
    };
    this.places.push(slot);
    return slot;
  }

  bounds() {
    const rects = [...this.tiles.map((t) => t.rect), ...this.places.map((p) => p.rect)];
    if (!rects.length) return { x0: -S, y0: -S / 2, x1: S, y1: S / 2 };
    return {
      x0: Math.min(...rects.map((r) => r.x0)),
      y0: Math.min(...rects.map((r) => r.y0)),
      x1: Math.max(...rects.map((r) => r.x1)),
      y1: Math.max(...rects.map((r) => r.y1)),
    };
  }
}

/** The board's joins, in the order the tiles were played. */
function joins(board) {
  const entries = Array.isArray(board?.tiles) ? board.tiles : [];
  return entries.slice(1).map((e, i) => {
    const tile = tileName(e.tile);
    const [lo, hi] = parseTile(tile);
    const own = e.own_port ?? (lo === hi ? "line_a" : null);
    return { index: i + 1, tile, own, target: tileName(e.target), port: e.port };
  });
}

/**
 * Lay the board out from `root` (the opening tile or the spinner). From the spinner,
 * the joins on the way back to the opening tile come first, drawn the other way
 * round; then every other tile in the order it was played. So a new tile never moves
 * the ones already down.
 */
function tryLayout(board, root, xmax, ymax) {
  const lay = new Layout(xmax, ymax);
  const entries = Array.isArray(board?.tiles) ? board.tiles : [];
  const spinner = board?.spinner ? tileName(board.spinner) : null;
  if (entries.length) {
    const opening = tileName(entries[0].tile);
    let pending = joins(board);
    const path = [];
    for (let at = root; at !== opening && path.length <= entries.length; ) {
      const up = pending.find((j) => j.tile === at);
      if (!up) break;
      path.push(up);
      at = up.target;
    }
    // The root's line_a faces the opening tile: on the side where the opening-rooted
    // drawing has the opening tile.
    const side = path.length ? path[path.length - 1].port : null;
    lay.placeRoot(root, spinner, !(side === "low" || side === "line_a"));
    const down = new Set([root]);
    for (const j of path) {
      lay.attach({ tile: j.target, own: j.port, target: j.tile, port: j.own }, spinner);
      down.add(j.target);
    }
    pending = pending.filter((j) => !path.includes(j));
    for (let progress = true; pending.length && progress; ) {
      progress = false;
      const later = [];
      for (const j of pending) {
        if (down.has(j.target)) {
          lay.attach(j, spinner);
          down.add(j.tile);
          progress = true;
        } else {
          later.push(j);
        }
      }
      pending = later;
    }
    lay.strain += 100 * pending.length; // not joined to the board: cannot be drawn
  }
  for (const place of Array.isArray(board?.places) ? board.places : []) lay.placeSlot(place);
  return lay;
}

/**
 * Compute where everything goes (no DOM). Returns
 * {tiles: [{tile, rect, center, angle, ends, double, spinner?, root?, target?, port?}],
 *  places: [{target, port, value, rect, center, inner, heading, tight}],
 *  bounds: {x0, y0, x1, y1}, strained}
 * `strained` is true only if something could not be placed without overlapping;
 * `tight` places had room only for a small marker, not for a whole tile.
 */
export function layoutBoard(board) {
  // Drawn from the spinner if there is one (its four arms make a pinwheel around it),
  // else from the opening tile, in the usual frame. Should that not fit without an
  // overlap: from the opening tile, then in bigger frames. The first clean layout wins,
  // else the least bad.
  const entries = Array.isArray(board?.tiles) ? board.tiles : [];
  const roots = [];
  if (entries.length) {
    if (board.spinner) roots.push(tileName(board.spinner));
    if (!roots.includes(tileName(entries[0].tile))) roots.push(tileName(entries[0].tile));
  } else {
    roots.push(null);
  }
  let best = null;
  for (let i = 0; i < 6 && !(best && best.strain === 0); i++) {
    for (const root of roots) {
      const lay = tryLayout(board, root, DEFAULT_XMAX + 3 * S * i, DEFAULT_YMAX + 2 * S * i);
      if (!best || lay.strain < best.strain) best = lay;
      if (!lay.strain) break;
    }
  }
  return { tiles: best.tiles, places: best.places, bounds: best.bounds(), strained: best.strain > 0 };
}

// ---------------------------------------------------------------------------------
// drawing

function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
}

let defsCount = 0;

/** Shared paint for one <svg>: a soft ivory face. Returns the fill for tileSvg. */
function addDefs(svg) {
  const id = `fives-ivory-${++defsCount}`;
  const stop = (offset, color) => svgEl("stop", { offset, "stop-color": color });
  svg.appendChild(
    svgEl("defs", {}, [
      svgEl("radialGradient", { id, cx: "42%", cy: "38%", r: "75%" }, [
        stop("0%", "#fffdf6"),
        stop("70%", "#f9f3e2"),
        stop("100%", "#efe5ca"),
      ]),
    ]),
  );
  return `url(#${id})`;
}

const fmt = (n) => String(Math.round(n * 100) / 100);

function setViewBox(svg, b, pad, minW, minH) {
  let x0 = b.x0 - pad;
  let y0 = b.y0 - pad;
  let w = b.x1 - b.x0 + 2 * pad;
  let h = b.y1 - b.y0 + 2 * pad;
  if (w < minW) {
    x0 -= (minW - w) / 2;
    w = minW;
  }
  if (h < minH) {
    y0 -= (minH - h) / 2;
    h = minH;
  }
  svg.setAttribute("viewBox", `${fmt(x0)} ${fmt(y0)} ${fmt(w)} ${fmt(h)}`);
  if (!svg.hasAttribute("preserveAspectRatio")) svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
}

function activate(el, fn) {
  el.addEventListener("click", (ev) => {
    ev.preventDefault();
    fn();
  });
  el.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      fn();
    }
  });
}

const cellRect = (r, inset, attrs) =>
  svgEl("rect", {
    x: fmt(r.x0 + inset),
    y: fmt(r.y0 + inset),
    width: fmt(r.x1 - r.x0 - 2 * inset),
    height: fmt(r.y1 - r.y0 - 2 * inset),
    ...attrs,
  });

function text(x, y, value, cls) {
  const t = svgEl("text", {
    class: cls,
    x: fmt(x),
    y: fmt(y),
    "text-anchor": "middle",
    "dominant-baseline": "central",
  });
  t.textContent = String(value);
  return t;
}

function tileLabel(labels, tile, spinner, last) {
  let label = fillLabel(labels.tile, { tile });
  if (spinner) label = fillLabel(labels.tile_spinner, { label, tile });
  if (last) label = fillLabel(labels.tile_last, { label, tile });
  return label;
}

/** Draw `board` into `svg` (see the top of this file). */
export function renderBoard(svg, board, options = {}) {
  const { highlight = [], onPlaceClick = null, lastTile = null, showValues = true } = options;
  const [minW, minH] = options.minView ?? [12 * S, 7 * S];
  clear(svg);
  svg.classList.add("fives-board");
  const layout = layoutBoard(board);
  const tileCount = layout.tiles.length;
  svg.setAttribute("role", "group");
  const labels = labelsOf(options);
  const sum = board?.ends_sum ?? 0;
  svg.setAttribute(
    "aria-label",
    tileCount
      ? fillLabel(tileCount === 1 ? labels.board_one : labels.board, { n: tileCount, sum })
      : labels.board_empty,
  );

  const wanted = new Set(
    (highlight || []).map((h) => `${h.target == null ? "" : tileName(h.target)}:${h.port ?? ""}`),
  );
  const last = lastTile ? tileName(lastTile) : null;

  const face = addDefs(svg);
  const marks = svgEl("g", { class: "fives-marks", "aria-hidden": "true" });
  const tilesLayer = svgEl("g", { class: "fives-tiles" });
  const placesLayer = svgEl("g", { class: "fives-places" });
  svg.append(marks, tilesLayer, placesLayer);

  for (const t of layout.tiles) {
    const classes = [];
    if (t.spinner) classes.push("domino-spinner");
    if (t.tile === last) {
      classes.push("domino-last");
      marks.appendChild(cellRect(t.rect, -1.5, { class: "domino-last-mark", rx: 9, ry: 9 }));
    }
    const el = tileSvg(t.tile, {
      x: t.center[0],
      y: t.center[1],
      angle: t.angle,
      ends: t.ends,
      fill: face,
      className: classes.join(" "),
      label: tileLabel(labels, t.tile, t.spinner, t.tile === last),
    });
    tilesLayer.appendChild(el);
  }

  const extra = [];
  for (const p of layout.places) {
    const key = `${p.target}:${p.port}`;
    if (wanted.has(key)) {
      const g = svgEl("g", {
        class: "fives-place fives-place-active",
        role: "button",
        tabindex: 0,
        "data-target": p.target,
        "data-port": p.port,
        "data-value": p.value,
        "aria-label": fillLabel(labels.place, {
          target: p.target,
          port: labels[`port_${p.port}`] ?? p.port.replace("_", " "),
          value: p.value,
        }),
      });
      if (p.tight) {
        // Only a small marker fits there.
        g.appendChild(svgEl("circle", { class: "fives-ghost", cx: fmt(p.center[0]), cy: fmt(p.center[1]), r: 9 }));
        g.appendChild(text(p.center[0], p.center[1], p.value, "fives-ghost-value fives-ghost-small"));
      } else {
        g.appendChild(cellRect(p.rect, 2.5, { class: "fives-ghost", rx: 6, ry: 6 }));
        g.appendChild(text(p.inner[0], p.inner[1], p.value, "fives-ghost-value"));
      }
      if (onPlaceClick) activate(g, () => onPlaceClick({ target: p.target, port: p.port }));
      placesLayer.appendChild(g);
    } else if (showValues) {
      const g = svgEl("g", { class: "fives-place-badge", "aria-hidden": "true" });
      g.appendChild(svgEl("circle", { cx: fmt(p.inner[0]), cy: fmt(p.inner[1]), r: 11 }));
      g.appendChild(text(p.inner[0], p.inner[1], p.value, "fives-badge-value"));
      placesLayer.appendChild(g);
    }
  }

  // The opening move on an empty board.
  if (!tileCount && wanted.has(":")) {
    const rect = rectAlong([-S, 0], RIGHT, L, S);
    const g = svgEl("g", {
      class: "fives-place fives-place-active",
      role: "button",
      tabindex: 0,
      "data-target": "",
      "data-port": "",
      "aria-label": labels.opening,
    });
    g.appendChild(cellRect(rect, 2.5, { class: "fives-ghost", rx: 6, ry: 6 }));
    g.appendChild(text(0, 0, "+", "fives-ghost-value"));
    if (onPlaceClick) activate(g, () => onPlaceClick({ target: null, port: null }));
    placesLayer.appendChild(g);
    extra.push(rect);
  }

  const b = layout.bounds;
  for (const r of extra) {
    b.x0 = Math.min(b.x0, r.x0);
    b.y0 = Math.min(b.y0, r.y0);
    b.x1 = Math.max(b.x1, r.x1);
    b.y1 = Math.max(b.y1, r.y1);
  }
  setViewBox(svg, b, S * 0.6, minW, minH);
  addHitAreas(svg, placesLayer);
  return layout;
}

// The smallest thing a finger can tap reliably (CSS px): a place drawn smaller on a phone
// gets an invisible target of this size around its centre.
export const TAP_PX = 44;

/** How many drawing units one CSS pixel of `svg` is (0 while it is not laid out). */
function unitsPerPx(svg) {
  const shown = svg.getBoundingClientRect();
  const box = svg.viewBox && svg.viewBox.baseVal;
  if (!box || !shown.width || !shown.height) return 0;
  // preserveAspectRatio "meet": the larger ratio is the one that applies.
  return Math.max(box.width / shown.width, box.height / shown.height);
}

function addHitAreas(svg, layer) {
  const perPx = unitsPerPx(svg);
  if (!perPx) return;
  const radius = (TAP_PX / 2) * perPx;
  for (const g of layer.querySelectorAll(".fives-place-active")) {
    const box = g.getBBox();
    if (Math.min(box.width, box.height) >= 2 * radius) continue;
    const hit = svgEl("circle", {
      class: "fives-place-hit",
      cx: fmt(box.x + box.width / 2),
      cy: fmt(box.y + box.height / 2),
      r: fmt(radius),
      fill: "transparent",
      "aria-hidden": "true",
    });
    g.insertBefore(hit, g.firstChild);
  }
}

/** Tiles a row and the gap between them so that each tile is at least TAP_PX wide in a
 * container `widthPx` wide: one row with the usual gap when it fits, else a narrower gap,
 * else as many rows as needed. */
function handRows(count, widthPx) {
  const roomy = { perRow: Math.max(count, 1), gap: S / 3, pad: S / 4 };
  if (!widthPx || count < 2) return roomy;
  // A tile is drawn S less its inset on each side wide.
  const drawn = S - 2 * TILE_INSET;
  const fits = (gap, pad) => Math.floor((widthPx * drawn / TAP_PX - 2 * pad + gap) / (S + gap));
  if (fits(roomy.gap, roomy.pad) >= count) return roomy;
  // Tiles side by side: each tile's own inset still shows a thin line between two.
  const gap = 0;
  const pad = S / 16;
  // Rows as even as they can be (4 + 3, not 6 + 1).
  const rows = Math.ceil(count / Math.max(1, fits(gap, pad)));
  return { perRow: Math.ceil(count / rows), gap, pad };
}

/** The width a hand's SVG gets in its holder (its content box), in CSS px. */
function contentWidth(holder) {
  if (!holder || !holder.clientWidth) return 0;
  const style = getComputedStyle(holder);
  return holder.clientWidth - parseFloat(style.paddingLeft || "0") - parseFloat(style.paddingRight || "0");
}

/** Draw a hand of tiles (see the top of this file). */
export function renderHand(target, tiles, options = {}) {
  const { selected = null, playable = null, onTileClick = null } = options;
  let svg = target;
  if (!(target instanceof SVGSVGElement)) {
    clear(target);
    svg = document.createElementNS(SVG_NS, "svg");
    target.appendChild(svg);
  }
  clear(svg);
  svg.classList.add("fives-hand");
  svg.setAttribute("role", "group");
  const labels = labelsOf(options);
  svg.setAttribute("aria-label", fillLabel(tiles.length === 1 ? labels.hand_one : labels.hand, { n: tiles.length }));

  const face = addDefs(svg);
  const sel = selected ? tileName(selected) : null;
  const canPlay = playable ? new Set(playable.map(tileName)) : null;
  const lift = S / 4;
  // Tiles to tap are kept TAP_PX wide or more; a hand only shown may be smaller.
  const tapped = Boolean(onTileClick) && tiles.some((raw) => !canPlay || canPlay.has(tileName(raw)));
  const { perRow, gap, pad } = handRows(tiles.length, tapped ? contentWidth(svg.parentElement) : 0);
  const rows = Math.max(1, Math.ceil(tiles.length / perRow));
  svg.classList.toggle("fives-hand--rows", rows > 1);
  tiles.forEach((raw, i) => {
    const name = tileName(raw);
    const ok = !canPlay || canPlay.has(name);
    const isSel = name === sel;
    const row = Math.floor(i / perRow);
    const x = (i % perRow) * (S + gap) + S / 2;
    const y = row * (L + lift + gap) + L / 2 + lift - (isSel ? lift : 0);
    const classes = ["domino-hand"];
    if (!ok) classes.push("domino-dim");
    if (ok && onTileClick) classes.push("domino-playable");
    if (isSel) {
      classes.push("domino-selected");
      svg.appendChild(
        cellRect({ x0: x - S / 2, x1: x + S / 2, y0: y - L / 2, y1: y + L / 2 }, -1.5, {
          class: "domino-selected-mark",
          rx: 9,
          ry: 9,
          "aria-hidden": "true",
        }),
      );
    }
    const el = tileSvg(raw, {
      x,
      y,
      fill: face,
      className: classes.join(" "),
      role: ok && onTileClick ? "button" : "img",
      label: tileLabel(labels, name, false, false),
    });
    if (!ok) {
      el.setAttribute("aria-disabled", "true");
      el.setAttribute("opacity", "0.42");
    }
    if (ok && onTileClick) {
      el.setAttribute("tabindex", "0");
      el.setAttribute("aria-pressed", isSel ? "true" : "false");
      activate(el, () => onTileClick(name));
    }
    svg.appendChild(el);
  });
  const width = Math.min(Math.max(tiles.length, 1), perRow) * (S + gap) - gap;
  const height = rows * (L + lift) + (rows - 1) * gap;
  setViewBox(svg, { x0: 0, y0: 0, x1: width, y1: height }, pad, S, L);
  // Rows: tiles of about TAP_PX, not as wide as the row allows (a short row would make
  // them huge, and the hand taller than the screen).
  const view = svg.viewBox.baseVal;
  svg.style.maxWidth = rows > 1 && view
    ? `${Math.round((view.width / (S - 2 * TILE_INSET)) * (TAP_PX + 4))}px` : "";
  svg.classList.toggle("fives-hand--tap", tapped);
  return svg;
}

/**
 * renderHand reports a tile picked by a click and by a key alike; this tells them apart,
 * for the focus (a tile picked by keyboard gives its first place the focus). Returns a
 * function: true when the last pick in `handElement` was made with Enter or Space.
 */
export function pickedByKeyboard(handElement) {
  let byKey = false;
  handElement.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") byKey = true;
  }, true);
  handElement.addEventListener("pointerdown", () => {
    byKey = false;
  }, true);
  return () => byKey;
}

// ---------------------------------------------------------------------------------
// the keyboard: one Tab stop a row, and a focus that stays in the game

const NEXT_KEYS = new Set(["ArrowRight", "ArrowDown"]);
const PREV_KEYS = new Set(["ArrowLeft", "ArrowUp"]);

/** Whether the keyboard can use `el` now (there, shown, not disabled). */
export function usable(el) {
  if (!el || !el.isConnected || el.disabled || el.getAttribute("aria-disabled") === "true") return false;
  if (el.closest("[hidden]")) return false;
  return typeof el.checkVisibility === "function" ? el.checkVisibility() : true;
}

/**
 * Roving focus over the elements of `container` that match `selector` (the tiles of a
 * hand, the places of a board, the dice): the row is one Tab stop, the arrow keys (and
 * Home / End) move among its items, Escape calls `onEscape` (if given). The container
 * outlives its items (they are drawn again on every state), so the listener is its.
 * Returns refresh(): call it after each redraw; it leaves tabindex 0 on one item only,
 * the focused one, else the one with the key focused last (keyOf), else the first.
 */
export function roving(container, selector, { keyOf = (el) => el.getAttribute("data-tile"), onEscape = null } = {}) {
  let lastKey = null;
  const items = () => [...container.querySelectorAll(selector)].filter(usable);
  container.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const item = ev.target.closest?.(selector);
    if (!item || !container.contains(item)) return;
    if (ev.key === "Escape" && onEscape) {
      ev.preventDefault();
      onEscape(item);
      return;
    }
    const list = items();
    const at = list.indexOf(item);
    let next = null;
    if (NEXT_KEYS.has(ev.key)) next = (at + 1) % list.length;
    else if (PREV_KEYS.has(ev.key)) next = (at - 1 + list.length) % list.length;
    else if (ev.key === "Home") next = 0;
    else if (ev.key === "End") next = list.length - 1;
    if (next == null || !list.length) return;
    ev.preventDefault(); // no page scroll
    list[next].focus();
  });
  container.addEventListener("focusin", (ev) => {
    const item = ev.target.closest?.(selector);
    if (!item) return;
    lastKey = keyOf(item);
    for (const el of container.querySelectorAll(selector)) el.setAttribute("tabindex", el === item ? "0" : "-1");
  });
  return function refresh() {
    const live = [...container.querySelectorAll(selector)];
    if (!live.length) return;
    const focused = live.find((el) => el === document.activeElement);
    const current = focused || live.find((el) => keyOf(el) === lastKey) || live[0];
    for (const el of live) el.setAttribute("tabindex", el === current ? "0" : "-1");
  };
}

/** The result's first button (Rematch, else the lobby), once the match is over. */
function resultTarget() {
  const result = document.getElementById("table-result");
  if (!result || result.hidden) return null;
  return [...result.querySelectorAll("button, a[href]")].find(usable) || null;
}

/**
 * Keeps the keyboard's focus in the game while the board is drawn again and again: the
 * focused tile or button may be gone (played, hidden, disabled), and a focus left on the
 * page's body sends the next Tab to the top of the page.
 *
 *   const focus = keepFocus(root, {next, park});
 *   focus.restore()   after each redraw: a lost focus goes to next() (the next thing to
 *                     do), else it waits on park() (or `root`); a waiting focus goes on
 *                     to next() (or the result's first button, once the match is over)
 *                     as soon as there is one
 *   focus.moveOn()    something new is to be done (your turn): next() takes the focus
 *
 * Only while the player uses the board: a click or a focus elsewhere on the page lets go.
 */
export function keepFocus(root, { next = () => null, park = () => null } = {}) {
  const doc = root.ownerDocument;
  let inside = false;
  let parked = null; // where the focus waits, given by this (tabindex -1: no Tab stop)
  doc.addEventListener("focusin", (ev) => {
    inside = root.contains(ev.target) || (inside && ev.target === resultTarget());
  });
  doc.addEventListener("pointerdown", (ev) => {
    inside = root.contains(ev.target);
  }, true);
  const lost = () => {
    const a = doc.activeElement;
    return !a || a === doc.body || !usable(a);
  };
  function give(...candidates) {
    for (const pick of candidates) {
      const el = typeof pick === "function" ? pick() : pick;
      if (!el || !usable(el)) continue;
      if (el.tagName !== "BUTTON" && el.tagName !== "A" && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
      el.focus();
      if (doc.activeElement === el) return el;
    }
    return null;
  }
  function restore() {
    if (!inside) return;
    if (lost()) {
      if (give(next)) return;
      parked = give(park, resultTarget, root);
    } else if (doc.activeElement === parked) {
      if (give(next, resultTarget)) parked = null;
    }
  }
  // A focused element removed outside a redraw, or a dialog closed onto a removed one.
  setInterval(restore, 300);
  doc.addEventListener("close", () => setTimeout(restore, 0), true);
  return {
    restore,
    moveOn() {
      if (!inside) return false;
      const el = give(next);
      if (el) parked = null;
      return !!el;
    },
  };
}
