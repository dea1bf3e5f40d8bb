/**
 * fairness_verify.js — the replay pages' "Fair deals" section (templates/games/_fairness_verify.html).
 *
 * The record comes from the finished match (`record_url`) or from the file the viewer
 * opened (the viewer sends a "replay:record" event with its text). The seeds are shown,
 * and "Verify deals" recomputes every chance event in the browser (static/js/fairness.js
 * with the game's chance module) and says which, if any, differ.
 */
import { DIFFERS, VERIFIED, seedRow, verifyRecord } from "./fairness.js";

const DATA = JSON.parse(document.getElementById("fairness-data").textContent);
const STR = DATA.strings || {};
const section = document.getElementById("fairness");
const list = section.querySelector("[data-testid=fair-seeds]");
const button = section.querySelector("[data-testid=fair-verify]");
const output = section.querySelector("[data-testid=fair-result]");
let record = null;

function t(key, params = {}) {
  return String(STR[key] ?? key).replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

function row(term, value, testid) {
  seedRow(list, term, value, testid);
}

function show(found) {
  record = found;
  output.textContent = "";
  output.className = "fair__result";
  list.replaceChildren();
  section.hidden = false;
  const fairness = record && record.fairness;
  if (!fairness) {
    button.hidden = true;
    output.textContent = t("no_seeds");
    return;
  }
  button.hidden = false;
  const names = record.players || [];
  row(t("algorithm"), fairness.algorithm);
  row(t("commitment"), fairness.commitment, "fair-commitment");
  row(t("server_seed"), fairness.server_seed ?? "—", "fair-server-seed");
  (fairness.player_seeds || []).forEach((seed, seat) => {
    row(t("player_seed", { name: names[seat] ?? seat }), seed === "" ? t("none") : seed);
  });
}

function labelOf(event) {
  const [key, params] = event.label || ["", {}];
  const names = record.players || [];
  return t(key, { ...params, name: names[params.seat] ?? params.seat });
}

async function verify() {
  output.className = "fair__result";
  output.textContent = t("checking");
  const url = (DATA.modules || {})[record.format];
  if (!url) {
    output.textContent = t("unknown_format");
    return;
  }
  try {
    const result = await verifyRecord(record, await import(url));
    output.dataset.status = String(result.status);
    if (result.status === VERIFIED) {
      output.classList.add("fair__result--ok");
      output.textContent = t("ok", { n: result.checked });
    } else if (result.status === DIFFERS) {
      output.classList.add("fair__result--bad");
      output.textContent = result.reason === "commitment"
        ? t("commitment_bad")
        : t("differs", { where: result.differing.map(labelOf).join("; ") });
    } else {
      output.textContent = t({ no_seeds: "no_seeds", algorithm: "algorithm_unknown",
        not_revealed: "not_revealed" }[result.reason] || "malformed");
    }
  } catch {
    output.textContent = t("failed");
  }
}

button.addEventListener("click", verify);
function showText(text) {
  try {
    show(JSON.parse(text));
  } catch {
    section.hidden = true;
  }
}

document.addEventListener("replay:record", (ev) => showText(ev.detail));
if (typeof window.replayRecordText === "string") showText(window.replayRecordText);
if (DATA.record_url) {
  fetch(DATA.record_url, { credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : null))
    .then((found) => found && show(found))
    .catch(() => {});
}
