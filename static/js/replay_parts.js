/**
 * replay_parts.js — what the games' replay modules share: their stylesheets, and for the
 * hand-by-hand games (Fives, Spectacular Bid) where each hand starts and ends among the
 * frames and the list of hands that follows the step shown.
 */

/** A stylesheet a module needs (a URL), once per page: a <link>, as the CSP allows no inline style. */
export function useStyle(url) {
  const href = new URL(url).pathname;
  if (document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
}

/** Each hand's first and last frame index, by hand number. */
export function handBounds(frames, handOf) {
  const starts = [];
  const lasts = [];
  frames.forEach((frame, i) => {
    const h = handOf(frame);
    if (starts[h] === undefined) starts[h] = i;
    lasts[h] = i;
  });
  return { starts, lasts };
}

/** Mark the hand shown as current, and keep it in sight in its list (not the page). */
export function markCurrentHand(list, buttons, hand) {
  for (const btn of buttons) {
    const current = Number(btn.dataset.hand) === hand;
    btn.setAttribute("aria-current", current ? "true" : "false");
    if (!current) continue;
    const item = btn.parentElement;
    if (item.offsetTop < list.scrollTop) list.scrollTop = item.offsetTop;
    else if (item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight;
    }
  }
}
