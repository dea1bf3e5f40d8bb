/**
 * replay_hands.js — what the replay modules of the hand-by-hand games share (Fives,
 * Spectacular Bid): where each hand starts and ends among the frames, and the list of
 * hands that follows the step shown.
 */

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
