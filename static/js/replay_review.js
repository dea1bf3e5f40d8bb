/**
 * replay_review.js — the game review on the replay page of a finished match
 * (templates/games/_replay_review.html, GET /api/matches/<id>/review, docs/api.md).
 *
 *   mountReview(section, { matchId, viewer, actionText })
 *
 * Asks for the review; a game without one (404) leaves the section hidden. While the
 * review is queued or running it shows a <progress> and asks again every few seconds;
 * once done it lists each decision: the move played and the best move, each with the
 * points it was expected to bring by the end of the hand, the points lost, the costly
 * mistakes marked; a row's button shows its position in the replay (viewer.go), and the
 * row of the position shown is marked (the viewer's "replay:step" event).
 * `actionText(action)` is the game module's words for a record-shaped action (its own
 * translated strings); without it the action's fields are shown. Every other word comes
 * from the section's data-t-* attributes (translated by the template).
 */

const POLL_MS = 2000;
const POLL_MAX_MS = 15000;

function node(tag, className, text) {
  const n = document.createElement(tag);
  if (className) n.className = className;
  if (text != null) n.textContent = text;
  return n;
}

function translator(section) {
  return (key, params = {}) => {
    const name = `t${key.replace(/(^|_)(\w)/g, (m, sep, c) => c.toUpperCase())}`;
    const text = section.dataset[name] ?? key;
    return String(text).replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
  };
}

function plainText(action) {
  const { seat, type, ...rest } = action || {};
  const fields = Object.entries(rest).map(([k, v]) => `${k} ${v}`).join(", ");
  return fields ? `${type}: ${fields}` : String(type ?? "");
}

export function mountReview(section, { matchId, viewer, actionText }) {
  if (!section || !matchId) return null;
  const t = translator(section);
  const $ = (id) => section.querySelector(`#${id}`);
  const el = {
    intro: $("replay-review-intro"),
    status: $("replay-review-status"),
    progress: $("replay-review-progress"),
    text: $("replay-review-text"),
    body: $("replay-review-body"),
    summary: $("replay-review-summary"),
    only: $("replay-review-only"),
    rows: $("replay-review-rows"),
  };
  const lang = document.documentElement.lang || undefined;
  const number = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "exceptZero" });
  const plain = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const whole = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
  const words = (action) => {
    try {
      const said = typeof actionText === "function" ? actionText(action) : "";
      return said || plainText(action);
    } catch (err) {
      console.error("review: the module could not word an action", err);
      return plainText(action);
    }
  };
  const heads = [...section.querySelectorAll(".rv-table thead th")].map((th) => th.textContent.trim());
  let wait = POLL_MS;
  let timer = null;

  function showStatus(text, { done = null, total = null, busy = true } = {}) {
    el.status.hidden = false;
    el.text.textContent = text;
    el.progress.hidden = !busy;
    if (total) {
      el.progress.max = total;
      el.progress.value = Math.min(done ?? 0, total);
    } else {
      el.progress.removeAttribute("value"); // indeterminate until counted
    }
  }

  function estimateCell(points) {
    const td = node("td", "rv-num", t("points", { points: number.format(points) }));
    td.classList.toggle("is-up", points > 0);
    td.classList.toggle("is-down", points < 0);
    return td;
  }

  function row(decision) {
    const tr = node("tr", "rv-row");
    tr.dataset.testid = "replay-review-row";
    tr.dataset.seat = String(decision.seat);
    if (decision.frame != null) tr.dataset.frame = String(decision.frame);
    const mistake = !!decision.mistake;
    const same = JSON.stringify(decision.played) === JSON.stringify(decision.best);
    tr.classList.toggle("is-mistake", mistake);
    if (mistake) tr.dataset.mistake = "1";

    tr.append(node("td", "rv-hand", decision.hand == null ? "" : t("hand", { n: decision.hand + 1 })));

    const played = node("td", "rv-move");
    const dot = node("span", `seat-dot rt-dot seat-${decision.seat}`);
    dot.setAttribute("aria-hidden", "true");
    const text = words(decision.played);
    if (decision.frame != null) {
      const go = node("button", "rv-go");
      go.type = "button";
      go.title = t("show");
      go.dataset.testid = "replay-review-go";
      go.append(dot, text);
      go.addEventListener("click", () => viewer.go(decision.frame));
      played.append(go);
    } else {
      played.append(dot, text);
    }
    if (mistake) {
      const badge = node("span", "badge rv-badge", t("mistake"));
      badge.dataset.testid = "replay-review-mistake";
      played.append(" ", badge);
    }
    tr.append(played, estimateCell(decision.played_points));

    const best = node("td", "rv-best", same ? t("best_played") : words(decision.best));
    best.classList.toggle("muted", same);
    tr.append(best, estimateCell(decision.best_points));
    tr.append(node("td", "rv-num rv-loss", decision.loss > 0 ? t("lost", { points: plain.format(decision.loss) }) : ""));
    // A narrow screen stacks each row's cells: each says what it is (the column's head).
    [...tr.children].forEach((td, i) => {
      td.dataset.label = heads[i] || "";
    });
    return tr;
  }

  function showReview(data) {
    el.status.hidden = true;
    el.body.hidden = false;
    el.intro.textContent = t("intro", { threshold: whole.format(data.threshold ?? 2) });
    const decisions = Array.isArray(data.decisions) ? data.decisions : [];
    el.summary.replaceChildren(...(data.summary || []).map((s) => {
      const li = node("li", `rv-summary__seat seat-${s.seat}`);
      const dot = node("span", "seat-dot rt-dot");
      dot.setAttribute("aria-hidden", "true");
      const params = { name: viewer.nameOf(s.seat), mistakes: s.mistakes, decisions: s.decisions, points: plain.format(s.points_lost) };
      li.append(dot, " ", s.mistakes === 1 ? t("summary_one", params) : t("summary", params));
      return li;
    }));
    el.rows.replaceChildren(...decisions.map(row));
    for (const tr of el.rows.children) tr.classList.toggle("is-current", tr.dataset.frame === String(viewer.index));
    if (decisions.length === 0) {
      el.body.hidden = true;
      showStatus(t("empty"), { busy: false });
    }
    section.dataset.ready = "1";
  }

  // The decision shown in the replay now, marked in the list.
  document.addEventListener("replay:step", (ev) => {
    for (const tr of el.rows.children) {
      tr.classList.toggle("is-current", tr.dataset.frame === String(ev.detail));
    }
  });

  function filter() {
    section.classList.toggle("rv--mistakes", el.only.checked);
  }
  el.only.addEventListener("change", filter);

  async function ask() {
    timer = null;
    let response;
    let data = null;
    try {
      response = await fetch(`/api/matches/${matchId}/review`, { credentials: "same-origin", headers: { Accept: "application/json" } });
      data = await response.json().catch(() => null);
    } catch {
      response = null;
    }
    if (response && (response.status === 404 || response.status === 409)) {
      section.hidden = true; // no review for this game, or not yet over
      return;
    }
    section.hidden = false;
    if (!response || !response.ok || !data || data.ok === false) {
      showStatus(t("error"), { busy: false });
      return;
    }
    section.dataset.status = data.status;
    if (data.status === "done") {
      showReview(data);
      return;
    }
    if (data.status === "failed") {
      showStatus(t("failed"), { busy: false });
      return;
    }
    el.intro.textContent = t("intro", { threshold: whole.format(2) });
    if (data.status === "running" && data.total) showStatus(t("running", { done: data.done, total: data.total }), data);
    else if (data.status === "running") showStatus(t("counting"));
    else showStatus(t("queued"));
    timer = setTimeout(ask, wait);
    wait = Math.min(POLL_MAX_MS, Math.round(wait * 1.3));
  }

  ask();
  return {
    stop() {
      if (timer !== null) clearTimeout(timer);
    },
  };
}
