/**
 * charts.js — small SVG line charts, no dependencies, no build step (a plain ES module).
 *
 *   import { lineChart, niceTicks } from "/static/js/charts.js";
 *
 * lineChart(svgElement, options) -> chart
 *   Draws into `svgElement` (cleared first) at the size the element has on the page, and
 *   draws again whenever that size changes (ResizeObserver), so text stays legible.
 *   options:
 *     series:   [{points: [[x, y], ...], className: "chart-line--a", dots: false,
 *                 step: false,          // a staircase instead of straight segments
 *                 fillTo: 150,          // fill between the line and y = fillTo ...
 *                 fillAbove: "cls", fillBelow: "cls"}]  // ... with these classes
 *     x, y:     {min, max, ticks: 5 | [values], format: (v) => "text", label: "text",
 *                integer: true}        // axis settings; min/max default to the data's
 *     refLines: [{y, label, className, labelAt: "start" | "end"}]  horizontal reference
 *                                             lines (a centre line), labelled on the left
 *     vLines:   [{x, label, className}]     vertical markers (hand boundaries)
 *     marker:   {x, y} | null                a highlighted point (the current step)
 *     height:   220                          used when the element has no height of its own
 *     padding:  {top, right, bottom, left}   room for the axes, in pixels
 *     edgeLabels: {top: "text", bottom: "text"}  small captions in the top and bottom corners
 *     onPick:   (x) => void   called with the x value nearest to a click (or a drag)
 *     title:    "text"        the chart's accessible name (role="img")
 *   chart.update(partialOptions)  merges and redraws (cheap: call it on every step).
 *   chart.destroy()               stops watching the element's size.
 *
 * niceTicks(min, max, count) -> [values]   round tick values covering [min, max].
 *
 * Styling is left to CSS: classes chart-grid, chart-axis, chart-tick, chart-label,
 * chart-ref, chart-vline, chart-line, chart-dot, chart-marker, chart-edge.
 */

const SVG_NS = "http://www.w3.org/2000/svg";

function el(name, attrs = {}, text = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, String(v));
  }
  if (text !== null) node.textContent = text;
  return node;
}

let uid = 0;

/** Round numbers ("nice": 1, 2, 2.5 or 5 times a power of ten) spanning [min, max]. */
export function niceTicks(min, max, count = 5) {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (max < min) [min, max] = [max, min];
  if (max === min) return [min];
  const raw = (max - min) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks = [];
  const first = Math.ceil(min / step - 1e-9) * step;
  for (let v = first; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toFixed(10)));
  return ticks;
}

function extent(values) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

function axisTicks(axis, lo, hi, fallbackCount) {
  let ticks = Array.isArray(axis.ticks) ? axis.ticks : niceTicks(lo, hi, axis.ticks ?? fallbackCount);
  if (axis.integer) ticks = ticks.filter((v) => Number.isInteger(v));
  return ticks.filter((v) => v >= lo - 1e-9 && v <= hi + 1e-9);
}

function linePath(points, sx, sy, step) {
  let d = "";
  points.forEach(([x, y], i) => {
    const px = sx(x).toFixed(1);
    const py = sy(y).toFixed(1);
    if (i === 0) d += `M${px},${py}`;
    else if (step) d += `H${px}V${py}`;
    else d += `L${px},${py}`;
  });
  return d;
}

function draw(svg, o) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const rect = svg.getBoundingClientRect();
  const width = Math.max(160, Math.round(rect.width || svg.clientWidth || 600));
  const height = Math.max(100, Math.round(rect.height || o.height || 220));
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  if (o.title) svg.setAttribute("aria-label", o.title);
  const pad = { top: o.vLines?.some((v) => v.label) ? 22 : 14, right: 16, bottom: 34, left: 46, ...(o.padding || {}) };
  if (o.x?.label) pad.bottom += 14;
  if (o.y?.label) pad.left += 14;

  const xs = [];
  const ys = [];
  for (const s of o.series || []) {
    for (const [x, y] of s.points || []) {
      xs.push(x);
      ys.push(y);
    }
  }
  for (const r of o.refLines || []) ys.push(r.y);
  let [x0, x1] = extent(xs);
  let [y0, y1] = extent(ys);
  x0 = o.x?.min ?? (Number.isFinite(x0) ? x0 : 0);
  x1 = o.x?.max ?? (Number.isFinite(x1) ? x1 : 1);
  y0 = o.y?.min ?? (Number.isFinite(y0) ? y0 : 0);
  y1 = o.y?.max ?? (Number.isFinite(y1) ? y1 : 1);
  if (x1 === x0) {
    x0 -= 1;
    x1 += 1;
  }
  if (y1 === y0) {
    y0 -= 1;
    y1 += 1;
  }
  const left = pad.left;
  const right = width - pad.right;
  const top = pad.top;
  const bottom = height - pad.bottom;
  const sx = (x) => left + ((x - x0) / (x1 - x0)) * (right - left);
  const sy = (y) => bottom - ((y - y0) / (y1 - y0)) * (bottom - top);
  const fmtX = o.x?.format || ((v) => String(v));
  const fmtY = o.y?.format || ((v) => String(v));

  // Grid and axes
  const grid = el("g", { class: "chart-grid", "aria-hidden": "true" });
  const axes = el("g", { class: "chart-axis", "aria-hidden": "true" });
  for (const v of axisTicks(o.y || {}, y0, y1, 4)) {
    const y = sy(v);
    grid.append(el("line", { x1: left, x2: right, y1: y, y2: y }));
    axes.append(el("text", { class: "chart-tick", x: left - 7, y: y + 4, "text-anchor": "end" }, fmtY(v)));
  }
  const xCount = Math.max(2, Math.min(8, Math.floor((right - left) / 70)));
  for (const v of axisTicks(o.x || {}, x0, x1, xCount)) {
    const x = sx(v);
    axes.append(el("line", { class: "chart-tickmark", x1: x, x2: x, y1: bottom, y2: bottom + 5 }));
    axes.append(el("text", { class: "chart-tick", x, y: bottom + 18, "text-anchor": "middle" }, fmtX(v)));
  }
  axes.append(el("line", { class: "chart-baseline", x1: left, x2: right, y1: bottom, y2: bottom }));
  axes.append(el("line", { class: "chart-baseline", x1: left, x2: left, y1: top, y2: bottom }));
  if (o.x?.label) {
    axes.append(el("text", { class: "chart-label", x: (left + right) / 2, y: height - 6, "text-anchor": "middle" }, o.x.label));
  }
  if (o.y?.label) {
    const cx = 12;
    const cy = (top + bottom) / 2;
    axes.append(el("text", { class: "chart-label", x: cx, y: cy, "text-anchor": "middle", transform: `rotate(-90 ${cx} ${cy})` }, o.y.label));
  }
  svg.append(grid);

  // Vertical markers (under the lines)
  const vlines = el("g", { "aria-hidden": "true" });
  // Dense markers are thinned: a line at least 5 px from the last one drawn, a label at
  // least a label's width from the last label.
  let lastLine = -Infinity;
  let lastLabel = -Infinity;
  for (const v of o.vLines || []) {
    if (v.x < x0 || v.x > x1) continue;
    const x = sx(v.x);
    if (x - lastLine < 5) continue;
    lastLine = x;
    vlines.append(el("line", { class: `chart-vline ${v.className || ""}`, x1: x, x2: x, y1: top, y2: bottom }));
    const room = 9 + 6.5 * String(v.label || "").length;
    if (v.label && x - lastLabel >= room && x + room / 2 <= width) {
      lastLabel = x;
      vlines.append(el("text", { class: "chart-vlabel", x, y: top - 5, "text-anchor": "middle" }, v.label));
    }
  }
  svg.append(vlines);

  // Series
  const id = `chart${++uid}`;
  (o.series || []).forEach((s, i) => {
    const pts = (s.points || []).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
    if (!pts.length) return;
    const d = linePath(pts, sx, sy, s.step);
    if (s.fillTo !== undefined && pts.length > 1) {
      const base = Math.min(Math.max(sy(s.fillTo), top), bottom);
      const area = `${d}V${base.toFixed(1)}H${sx(pts[0][0]).toFixed(1)}Z`;
      const defs = el("defs");
      const above = el("clipPath", { id: `${id}-${i}-a` });
      above.append(el("rect", { x: left, y: top, width: right - left, height: Math.max(0, base - top) }));
      const below = el("clipPath", { id: `${id}-${i}-b` });
      below.append(el("rect", { x: left, y: base, width: right - left, height: Math.max(0, bottom - base) }));
      defs.append(above, below);
      svg.append(defs);
      if (s.fillAbove) svg.append(el("path", { d: area, class: `chart-area ${s.fillAbove}`, "clip-path": `url(#${id}-${i}-a)` }));
      if (s.fillBelow) svg.append(el("path", { d: area, class: `chart-area ${s.fillBelow}`, "clip-path": `url(#${id}-${i}-b)` }));
    }
    svg.append(el("path", { d, class: `chart-line ${s.className || ""}`, fill: "none" }));
    if (s.dots || pts.length === 1) {
      const dots = el("g", { class: `chart-dots ${s.className || ""}` });
      for (const [x, y] of pts) dots.append(el("circle", { class: "chart-dot", cx: sx(x), cy: sy(y), r: 3.2 }));
      svg.append(dots);
    }
  });

  // Reference lines (over the areas, so the centre line stays visible)
  for (const r of o.refLines || []) {
    if (r.y < y0 || r.y > y1) continue;
    const y = sy(r.y);
    svg.append(el("line", { class: `chart-ref ${r.className || ""}`, x1: left, x2: right, y1: y, y2: y, "aria-hidden": "true" }));
    if (r.label) {
      const atEnd = r.labelAt === "end";
      svg.append(el("text", { class: "chart-reflabel", x: atEnd ? right - 4 : left + 6, y: y - 5, "text-anchor": atEnd ? "end" : "start", "aria-hidden": "true" }, r.label));
    }
  }

  if (o.edgeLabels?.top) svg.append(el("text", { class: "chart-edge chart-edge--top", x: left + 6, y: top + 13 }, o.edgeLabels.top));
  if (o.edgeLabels?.bottom) svg.append(el("text", { class: "chart-edge chart-edge--bottom", x: left + 6, y: bottom - 6 }, o.edgeLabels.bottom));

  svg.append(axes);

  if (o.marker && Number.isFinite(o.marker.x) && Number.isFinite(o.marker.y)) {
    const mx = sx(o.marker.x);
    const my = sy(o.marker.y);
    const g = el("g", { class: "chart-marker", "aria-hidden": "true" });
    g.append(el("line", { class: "chart-marker-line", x1: mx, x2: mx, y1: top, y2: bottom }));
    g.append(el("circle", { class: "chart-marker-dot", cx: mx, cy: my, r: 5 }));
    svg.append(g);
  }

  if (o.onPick) {
    svg.append(el("rect", { class: "chart-hit", x: left, y: top, width: right - left, height: bottom - top, fill: "transparent" }));
  }
  return { left, right, top, bottom, width, x0, x1 };
}

export function lineChart(svg, options) {
  let opts = { ...options };
  let frame = 0;
  let geometry = null;
  const redraw = () => {
    frame = 0;
    geometry = draw(svg, opts);
  };
  redraw();
  let lastWidth = svg.getBoundingClientRect().width;
  const observer =
    typeof ResizeObserver === "function"
      ? new ResizeObserver(() => {
          const w = svg.getBoundingClientRect().width;
          if (Math.abs(w - lastWidth) < 1 || frame) return;
          lastWidth = w;
          frame = requestAnimationFrame(redraw);
        })
      : null;
  observer?.observe(svg);

  // Picking an x value: the listeners live on the <svg>, which outlasts every redraw.
  const pick = (ev) => {
    if (!opts.onPick || !geometry) return false;
    const { left, right, top, bottom, width, x0, x1 } = geometry;
    const box = svg.getBoundingClientRect();
    const scale = width / box.width;
    const px = (ev.clientX - box.left) * scale;
    const py = (ev.clientY - box.top) * scale;
    if (px < left - 8 || px > right + 8 || py < top - 8 || py > bottom + 8) return false;
    const value = x0 + ((px - left) / (right - left)) * (x1 - x0);
    opts.onPick(Math.min(x1, Math.max(x0, value)));
    return true;
  };
  let dragging = false;
  const down = (ev) => {
    if (ev.button !== 0 || !pick(ev)) return;
    dragging = true;
    svg.setPointerCapture?.(ev.pointerId);
  };
  const move = (ev) => {
    if (dragging) pick(ev);
  };
  const up = () => {
    dragging = false;
  };
  svg.addEventListener("pointerdown", down);
  svg.addEventListener("pointermove", move);
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);

  return {
    update(partial) {
      opts = { ...opts, ...partial };
      geometry = draw(svg, opts);
    },
    destroy() {
      observer?.disconnect();
      svg.removeEventListener("pointerdown", down);
      svg.removeEventListener("pointermove", move);
      svg.removeEventListener("pointerup", up);
      svg.removeEventListener("pointercancel", up);
    },
  };
}
