/* A player's profile (templates/games/profile.html): the rating chart.
 *
 * Its data and strings come from the page's JSON blocks #rating-data and #profile-i18n.
 */
import { lineChart } from "./charts.js";

const svg = document.getElementById("rating-chart");
const dataBlock = document.getElementById("rating-data");
if (svg && dataBlock) {
  const data = JSON.parse(dataBlock.textContent);
  const T = JSON.parse(document.getElementById("profile-i18n").textContent);
  // The chart starts from the initial rating, before the first rated match (x = 0).
  const points = [[0, 1500], ...data];
  const ys = points.map((p) => p[1]);
  const lo = Math.min(...ys), hi = Math.max(...ys);
  const span = Math.max(40, hi - lo);
  const last = points[points.length - 1];
  lineChart(svg, {
    title: T.title,
    height: 240,
    series: [{ points, className: "chart-line--rating", dots: points.length <= 30, fillTo: 1500, fillAbove: "chart-area--up", fillBelow: "chart-area--down" }],
    x: { min: 0, max: Math.max(1, last[0]), integer: true, label: T.x_label },
    y: { min: Math.floor((lo - span * 0.15) / 10) * 10, max: Math.ceil((hi + span * 0.15) / 10) * 10, ticks: 4 },
    refLines: [{ y: 1500, label: T.start, labelAt: "end" }],
    marker: { x: last[0], y: last[1] },
  });
  svg.dataset.ready = "1";
}
