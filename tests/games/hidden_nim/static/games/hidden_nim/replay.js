/**
 * The Hidden Nim replay, on the shared viewer (static/js/replay_shell.js):
 *
 *   mount(element, viewer) -> {show(frame, index, data), describe, scores}
 *
 * A frame (tests/games/hidden_nim/record.py: frames) is the game after the deal or one
 * action: `action`, `pile`, `taken`, `bonuses` and `scores`. Strings: viewer.t.
 */

export function mount(element, viewer) {
  const t = (key, params) => viewer.t(key, params);
  const pile = document.createElement("p");
  pile.className = "hn-pile";
  pile.dataset.testid = "hn-replay-pile";
  element.replaceChildren(pile);

  function show(frame) {
    pile.textContent = t("hn_pile", { n: frame.pile });
  }

  function describe(frame) {
    const action = frame.action;
    const name = action.seat != null ? viewer.nameOf(action.seat) : "";
    if (action.type === "deal") return t("hn_deal", { name: viewer.nameOf(action.first) });
    if (action.type === "take") return t("hn_take", { name, count: action.count, pile: frame.pile });
    return t("hn_resign", { name });
  }

  function scores(frame) {
    return frame.scores;
  }

  return { show, describe, scores };
}
