/**
 * The Hidden Nim board, mounted by static/js/shell.js in templates/games/table.html:
 *
 *   mount(element, shell) -> {update(state), scoreOf(view, seat)}
 *
 * The view (tests/games/hidden_nim/state.py) shows the pile and the moves to everyone and
 * each seat's own secret bonus only to that seat (all of them once the game is over);
 * `legal` lists the takes the seat may send. Strings come from the template (shell.t).
 */

import { keepFocus } from "../../js/board.js";

export function mount(element, shell) {
  const $ = (id) => element.querySelector(`#${id}`);
  const t = shell.t;
  const el = {
    pile: $("hn-pile"),
    bonus: $("hn-bonus"),
    actions: $("hn-actions"),
    buttons: [...element.querySelectorAll("[data-count]")],
    moves: $("hn-moves"),
  };
  let view = null;
  let wasMine = null;
  // The keyboard stays in the game: on the first take offered, else on the pile.
  const focus = keepFocus(element, {
    next: () => (el.actions.hidden ? null : el.buttons.find((b) => !b.disabled) || null),
    park: () => el.pile,
  });

  for (const button of el.buttons) {
    button.textContent = t("hn_take", { n: button.dataset.count });
    button.addEventListener("click", async () => {
      const action = legalTake(Number(button.dataset.count));
      if (!action) return;
      el.buttons.forEach((b) => (b.disabled = true));
      await shell.send(action);
    });
  }

  function legalTake(count) {
    return (view?.legal || []).find((a) => a.type === "take" && a.count === count) || null;
  }

  /** The view of the seat whose turn it is among mine, else my first seat's. */
  function pickView(state) {
    const views = state.views || {};
    for (const seat of state.mySeats || []) {
      const mine = views[seat];
      if (mine && mine.to_act === seat) return mine;
    }
    return state.view;
  }

  function renderMoves() {
    el.moves.replaceChildren(
      ...(view.moves || []).map((move) => {
        const li = document.createElement("li");
        li.textContent = t("hn_move", { name: shell.nameOf(move.seat), n: move.count });
        return li;
      }),
    );
  }

  function update(state) {
    view = pickView(state);
    if (!view) return;
    el.pile.textContent = t("hn_pile", { n: view.pile });
    const bonuses = view.bonuses || [];
    if (view.result) {
      el.bonus.textContent = t("hn_bonuses", { list: bonuses.join(", ") });
    } else if (view.seat != null && bonuses[view.seat] != null) {
      el.bonus.textContent = t("hn_bonus", { n: bonuses[view.seat] });
    } else {
      el.bonus.textContent = "";
    }
    const mine = view.seat != null && view.to_act === view.seat && !view.result;
    el.actions.hidden = !mine;
    for (const button of el.buttons) button.disabled = !legalTake(Number(button.dataset.count));
    if (!view.result) {
      if (mine) shell.setStatus(t("hn_your_turn"));
      else if (view.to_act != null) shell.setStatus(t("hn_waiting", { name: shell.nameOf(view.to_act) }));
    }
    renderMoves();
    focus.restore();
    if (mine && wasMine === false) {
      shell.announce(t("hn_your_turn"));
      focus.moveOn();
    }
    wasMine = mine;
  }

  function scoreOf(v, seat) {
    return (v.scores || [])[seat];
  }

  return { update, scoreOf };
}
