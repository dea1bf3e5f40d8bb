/**
 * fairness_panel.js — the match page's "Fair deals" panel (templates/games/_fairness_panel.html),
 * for every game: the commitment from the start, each player's seed as it comes, the
 * server seed once the match is over, and the way to the replay page's check. It reads
 * the "match:state" events of match_socket.js; the socket sends the page's own seed.
 */
import { seedRow } from "./fairness.js";

const panel = document.getElementById("fairness-panel");
const list = panel.querySelector("dl");
const link = panel.querySelector("[data-fair-replay]");
const STR = panel.dataset;

function row(term, value, testid) {
  seedRow(list, term, value, testid);
}

document.addEventListener("match:state", (ev) => {
  const state = ev.detail;
  const fairness = state.match && state.match.fairness;
  if (!fairness) return;
  panel.hidden = false;
  list.replaceChildren();
  row(STR.algorithm, fairness.algorithm);
  row(STR.commitment, fairness.commitment, "fair-commitment");
  const names = state.match.players || [];
  fairness.player_seeds.forEach((seed, seat) => {
    let shown = seed;
    if (seed === null) shown = fairness.seeds_open ? STR.waiting : STR.none;
    else if (seed === "") shown = STR.none;
    row(STR.seedOf.replace("{name}", names[seat] ?? seat), shown);
  });
  row(STR.serverSeed, fairness.server_seed ?? STR.hidden, "fair-server-seed");
  link.hidden = fairness.server_seed == null;
});
