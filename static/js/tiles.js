/**
 * tiles.js — draw one domino tile (with pips) as SVG. No dependencies, no build step.
 *
 *   import { tileSvg, parseTile, TILE_SHORT, TILE_LONG } from "./tiles.js";
 *
 *   const g = tileSvg("1-4", { x: 100, y: 60, angle: -90 });
 *   svg.appendChild(g);
 *
 * Geometry (SVG user units): a tile is TILE_SHORT wide and TILE_LONG tall when
 * upright (angle 0); the first value of "a-b" is drawn in the TOP half, the second
 * in the BOTTOM half (`reversed: true` swaps them). (x, y) is the tile's centre and
 * `angle` a clockwise rotation in degrees about that centre, so angle -90 puts the
 * top half on the left and angle 90 puts it on the right.
 *
 * The returned <g> carries data-tile="a-b" (a <= b, as the server writes it),
 * role="img" and aria-label="tile a-b" unless told otherwise.
 */

export const SVG_NS = "http://www.w3.org/2000/svg";

/** Width of an upright tile (one half is a TILE_SHORT square). */
export const TILE_SHORT = 40;
/** Height of an upright tile. */
export const TILE_LONG = 80;
/** Space left free on every side of a tile's cell, so neighbours never touch. */
export const TILE_INSET = 1.5;

const PIP_GRID = 10.5; // offset of the outer pip rows/columns from a half's centre
const PIP_R = 3.9;

// Classic pip layouts in a 3x3 grid, [column, row] with -1..1, upright tile.
const PIP_LAYOUTS = [
  [],
  [[0, 0]],
  [[1, -1], [-1, 1]],
  [[1, -1], [0, 0], [-1, 1]],
  [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  [[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]],
];

/** "4-1" / "1-4" -> [1, 4]; throws on anything else. */
export function parseTile(tile) {
  const m = /^\s*(\d)\s*-\s*(\d)\s*$/.exec(String(tile));
  if (!m) throw new Error(`not a tile: ${tile}`);
  const a = Number(m[1]);
  const b = Number(m[2]);
  if (a > 6 || b > 6) throw new Error(`not a double-six tile: ${tile}`);
  return a <= b ? [a, b] : [b, a];
}

/** The canonical "a-b" form (a <= b). */
export function tileName(tile) {
  const [a, b] = parseTile(tile);
  return `${a}-${b}`;
}

export function isDouble(tile) {
  const [a, b] = parseTile(tile);
  return a === b;
}

/** Create an SVG element with attributes (null/undefined/false ones are skipped). */
export function svgEl(name, attrs = {}, children = []) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    el.setAttribute(key, String(value));
  }
  for (const child of children) if (child) el.appendChild(child);
  return el;
}

const fmt = (n) => String(Math.round(n * 100) / 100);

/** The pips of one value, centred on (cx, cy) in an upright tile's coordinates. */
function pips(value, cx, cy) {
  const g = svgEl("g", { class: `domino-pips domino-pips-${value}` });
  for (const [col, row] of PIP_LAYOUTS[value]) {
    g.appendChild(
      svgEl("circle", {
        class: "domino-pip",
        cx: fmt(cx + col * PIP_GRID),
        cy: fmt(cy + row * PIP_GRID),
        r: PIP_R,
        fill: "#1c1b19",
      }),
    );
  }
  return g;
}

/**
 * Draw one tile.
 *
 * @param {string} tile  "a-b" (either order; data-tile is always written low-high)
 * @param {object} [opts]
 * @param {number} [opts.x=0]        centre x
 * @param {number} [opts.y=0]        centre y
 * @param {number} [opts.angle=0]    clockwise rotation in degrees (0 = upright)
 * @param {boolean} [opts.reversed]  draw the high value on top instead of the low one
 * @param {number[]} [opts.ends]     explicit [top, bottom] values (overrides reversed)
 * @param {string} [opts.className]  extra classes for the <g>
 * @param {string} [opts.label]      aria-label (default "tile a-b")
 * @param {string} [opts.role]       role (default "img")
 * @param {string} [opts.fill]       paint for the face (e.g. "url(#my-gradient)"); wins over CSS
 * @returns {SVGGElement}
 */
export function tileSvg(tile, opts = {}) {
  const [lo, hi] = parseTile(tile);
  const name = `${lo}-${hi}`;
  const { x = 0, y = 0, angle = 0, reversed = false, className = "", label, role = "img" } = opts;
  let [top, bottom] = reversed ? [hi, lo] : [lo, hi];
  if (Array.isArray(opts.ends) && opts.ends.length === 2) [top, bottom] = opts.ends;

  const w = TILE_SHORT - 2 * TILE_INSET;
  const h = TILE_LONG - 2 * TILE_INSET;
  const half = TILE_LONG / 4; // distance from the tile centre to a half's centre

  const classes = ["domino"];
  if (lo === hi) classes.push("domino-double");
  if (className) classes.push(className);

  const transform = `translate(${fmt(x)} ${fmt(y)})` + (angle ? ` rotate(${fmt(angle)})` : "");
  const g = svgEl("g", {
    class: classes.join(" "),
    transform,
    "data-tile": name,
    "data-ends": `${top}-${bottom}`,
    role,
    "aria-label": label ?? `tile ${name}`,
  });
  g.appendChild(svgEl("title", {}, [document.createTextNode(`${top}|${bottom}`)]));
  // Body, a bevel line just inside it, the divider, then the pips.
  const body = svgEl("rect", {
    class: "domino-body",
    x: fmt(-w / 2),
    y: fmt(-h / 2),
    width: fmt(w),
    height: fmt(h),
    rx: 6,
    ry: 6,
    fill: "#fbf6e8",
    stroke: "#b8ab8f",
    "stroke-width": 1,
  });
  // Through the CSSOM, not a style attribute: the Content-Security-Policy refuses those.
  if (opts.fill) body.style.fill = opts.fill;
  g.appendChild(body);
  g.appendChild(
    svgEl("rect", {
      class: "domino-bevel",
      x: fmt(-w / 2 + 2),
      y: fmt(-h / 2 + 2),
      width: fmt(w - 4),
      height: fmt(h - 4),
      rx: 4.5,
      ry: 4.5,
      fill: "none",
      stroke: "#ffffff",
      "stroke-opacity": 0.7,
      "stroke-width": 1.2,
    }),
  );
  g.appendChild(
    svgEl("line", {
      class: "domino-divider",
      x1: fmt(-w / 2 + 5),
      y1: 0,
      x2: fmt(w / 2 - 5),
      y2: 0,
      stroke: "#8f8570",
      "stroke-width": 1.2,
      "stroke-linecap": "round",
    }),
  );
  g.appendChild(svgEl("circle", { class: "domino-rivet", cx: 0, cy: 0, r: 1.6, fill: "#a29577" }));
  g.appendChild(pips(top, 0, -half));
  g.appendChild(pips(bottom, 0, half));
  return g;
}
