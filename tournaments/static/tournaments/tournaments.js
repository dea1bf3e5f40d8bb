/* The clubs' and tournaments' pages (templates/tournaments/): every action is a call to
 * the JSON API (docs/api.md); the server renders what is shown.
 *
 * - a button with data-post="/api/..." posts (its data-username, data-role, data-match,
 *   data-body, the value of data-username-from or data-level-from, a data-prompt answer
 *   as "reason"), after
 *   data-confirm; then goes to data-then, or refreshes the page.
 * - a form with data-api-form="/api/..." posts its fields as JSON (data-type: int,
 *   float, bool, datetime, numbers: a list from "3, 2, 1, 0"; "rules.x" fields go into
 *   "rules", only the chosen game's), then opens the new club or tournament
 *   (data-then="club" | "tournament").
 * - #tn-live (a tournament) reloads its part every 2 s when the tournament has changed
 *   (the server answers 204 while it has not), and at once after an action.
 * Messages come translated from the server; no inline script (the CSP forbids it).
 */
const POLL_MS = 2000;
const errorBox = document.getElementById("page-error");
const live = document.getElementById("tn-live");

function cookie(name) {
  for (const part of document.cookie ? document.cookie.split(";") : []) {
    const pair = part.trim();
    if (pair.startsWith(`${name}=`)) return decodeURIComponent(pair.slice(name.length + 1));
  }
  return "";
}

function showError(message) {
  if (!errorBox) return;
  errorBox.textContent = message;
  errorBox.hidden = !message;
  if (message) errorBox.scrollIntoView({ block: "nearest" });
}

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "Accept": "application/json",
               "X-CSRFToken": cookie("csrftoken") },
    body: JSON.stringify(body || {}),
  });
  let data = {};
  try { data = await response.json(); } catch (_error) { data = {}; }
  if (!response.ok || data.ok === false) {
    throw new Error(data.message || `${response.status} ${response.statusText}`);
  }
  return data;
}

function localTimes(root) {
  const format = new Intl.DateTimeFormat(document.documentElement.lang || undefined,
                                         { dateStyle: "medium", timeStyle: "short" });
  for (const node of root.querySelectorAll("[data-local-time]")) {
    const when = new Date(node.getAttribute("datetime"));
    if (!Number.isNaN(when.getTime())) node.textContent = format.format(when);
  }
}

// ---------------------------------------------------------------- the live part

let revision = live ? live.dataset.revision : null;
let refreshing = false;

async function refresh() {
  if (!live || refreshing) return;
  refreshing = true;
  try {
    const response = await fetch(`${live.dataset.live}?revision=${encodeURIComponent(revision)}`,
                                 { credentials: "same-origin" });
    if (response.status === 200) {
      const html = await response.text();
      const openRounds = [...live.querySelectorAll("details[open]")].map((d) => d.dataset.round);
      live.innerHTML = html;
      for (const details of live.querySelectorAll("details[data-round]")) {
        if (openRounds.includes(details.dataset.round)) details.open = true;
      }
      revision = response.headers.get("X-Revision") || revision;
      live.dataset.revision = revision;
      localTimes(live);
      hideStaleNotice();
      live.dispatchEvent(new CustomEvent("tournament-refreshed", { bubbles: true }));
    }
  } catch (_error) {
    // Offline for a moment: the next poll tries again.
  } finally {
    refreshing = false;
  }
}

// The banner of notify.js names a match; once this page shows that match over, it goes.
function hideStaleNotice() {
  const notice = document.getElementById("notify");
  const match = notice && notice.dataset.match;
  if (!match || notice.hidden) return;
  const row = live.querySelector(`[data-testid=game-row][data-match="${CSS.escape(match)}"]`);
  if (row && row.dataset.state !== "playing") notice.hidden = true;
}

// ---------------------------------------------------------------- actions

function bodyOf(button) {
  const body = button.dataset.body ? JSON.parse(button.dataset.body) : {};
  for (const key of ["username", "role", "match"]) {
    if (button.dataset[key]) body[key] = button.dataset[key];
  }
  if (button.dataset.usernameFrom) {
    const field = document.querySelector(button.dataset.usernameFrom);
    if (field) body.username = field.value;
  }
  if (button.dataset.levelFrom) {
    const field = document.querySelector(button.dataset.levelFrom);
    if (field) body.level = field.value;
  }
  return body;
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-post]");
  if (!button || button.disabled) return;
  event.preventDefault();
  if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
  const body = bodyOf(button);
  if (button.dataset.prompt) {
    const reason = window.prompt(button.dataset.prompt, "");
    if (reason === null) return;
    if (reason.trim()) body.reason = reason.trim();
  }
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    const data = await post(button.dataset.post, body);
    showError("");
    if (button.dataset.then) {
      window.location.assign(button.dataset.then);
    } else if (live && live.contains(button) && data.tournament) {
      revision = "";
      await refresh();
    } else {
      window.location.reload();
    }
  } catch (error) {
    showError(error.message);
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
  }
});

function valueOf(field) {
  const type = field.dataset.type || "text";
  if (type === "bool") return field.checked;
  if (field.value === "") return null;
  if (type === "int") return Number.parseInt(field.value, 10);
  if (type === "float") return Number.parseFloat(field.value);
  if (type === "numbers") {  // "3, 2, 1, 0": a list; what is not a number goes as typed
    const parts = field.value.split(/[,;\s]+/).filter(Boolean);
    return parts.map((part) => (Number.isNaN(Number(part)) ? part : Number(part)));
  }
  if (type === "datetime") {
    const when = new Date(field.value);  // the browser's local time
    return Number.isNaN(when.getTime()) ? field.value : when.toISOString();
  }
  return field.value;
}

function shown(field) {
  return !field.closest("[hidden]");
}

function formBody(form) {
  const body = {};
  for (const field of form.querySelectorAll("input[name], select[name], textarea[name]")) {
    if (!shown(field) || field.disabled) continue;
    const value = valueOf(field);
    if (field.name.startsWith("rules.")) {
      body.rules = body.rules || {};
      if (value !== null) body.rules[field.name.slice(6)] = value;
    } else if (value !== null) {
      body[field.name] = value;
    }
  }
  return body;
}

document.addEventListener("submit", async (event) => {
  const form = event.target.closest("form[data-api-form]");
  if (!form) return;
  event.preventDefault();
  const submit = form.querySelector("[type=submit]");
  if (submit) submit.disabled = true;
  try {
    const data = await post(form.dataset.apiForm, formBody(form));
    showError("");
    const made = data[form.dataset.then];
    window.location.assign(made && made.url ? made.url : window.location.href);
  } catch (error) {
    showError(error.message);
  } finally {
    if (submit) submit.disabled = false;
  }
});

// ---------------------------------------------------------------- the tournament form

function applySwitch(select) {
  const kind = select.dataset.switch;  // "format" or "game"
  const form = select.form || document;
  for (const part of form.querySelectorAll(`[data-show-${kind}]`)) {
    // A part may name several values, space-separated ("swiss tables").
    part.hidden = !part.getAttribute(`data-show-${kind}`).split(" ").includes(select.value);
  }
}

for (const select of document.querySelectorAll("select[data-switch]")) {
  applySwitch(select);
  select.addEventListener("change", () => applySwitch(select));
}

// A start time to come, in the browser's own time zone (datetime-local has none).
for (const field of document.querySelectorAll("input[type=datetime-local][data-default-in-min]")) {
  if (field.value) continue;
  const when = new Date(Date.now() + Number(field.dataset.defaultInMin) * 60000);
  const pad = (n) => String(n).padStart(2, "0");
  field.value = `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}` +
                `T${pad(when.getHours())}:${pad(when.getMinutes())}`;
}

localTimes(document);
if (live) {
  setInterval(refresh, POLL_MS);
  // A round of mine just started (notify.js): show it now rather than at the next poll.
  document.addEventListener("tournament-notice", () => { revision = ""; refresh(); });
}
