/**
 * table_keys.js — a key for each button of the match page (templates/games/table.html),
 * for every game, declared on the button itself:
 *
 *   <button data-key="d">Draw</button>              the key (a KeyboardEvent.key, lower case)
 *   <button data-key="c" data-key-label="…">        the words for the help when the
 *                                                   button's own text changes
 *
 * A key presses the first button declaring it that is shown and enabled (a click, so
 * what a click asks first, such as Resign's confirmation, is asked). Keys are ignored
 * while typing (text fields, selects), with Ctrl / Alt / Meta (Shift too, but for "?"),
 * while a dialog is open, and when the focused element used the key itself. Each
 * button gets aria-keyshortcuts. "?" opens the "Keys" help (#table-keys), listing the
 * arrows, Enter and Escape of the boards and every declared key with its button.
 *
 * No strings of its own: the help's words are in the template.
 */

const help = document.getElementById("table-keys");
const list = document.getElementById("table-keys-list");

/** Typing into this element: its keys are its own. */
function typingIn(target) {
  if (!(target instanceof Element)) return false;
  if (target.closest("textarea, select, [contenteditable=''], [contenteditable='true']")) return true;
  const input = target.closest("input");
  return !!input && !["checkbox", "radio", "button", "submit", "reset", "range"].includes(input.type);
}

function shown(el) {
  if (!el.isConnected || el.disabled || el.getAttribute("aria-disabled") === "true" || el.closest("[hidden]")) return false;
  return typeof el.checkVisibility === "function" ? el.checkVisibility() : true;
}

const declared = () => [...document.querySelectorAll("[data-key]")];

/** aria-keyshortcuts on every button that declares a key (all of them are in the templates). */
function label() {
  for (const el of declared()) {
    if (el.getAttribute("aria-keyshortcuts") !== el.dataset.key) el.setAttribute("aria-keyshortcuts", el.dataset.key);
  }
}

/** The help's rows: each key once, with the words of the buttons declaring it. */
function fillHelp() {
  if (!list) return;
  const rows = new Map();
  for (const el of declared()) {
    if (el.closest("#table-keys")) continue;
    const words = (el.dataset.keyLabel || el.textContent || el.getAttribute("aria-label") || "").trim();
    if (!words) continue;
    const key = el.dataset.key;
    if (!rows.has(key)) rows.set(key, []);
    if (!rows.get(key).includes(words)) rows.get(key).push(words);
  }
  list.querySelectorAll("[data-declared]").forEach((n) => n.remove());
  for (const [key, words] of rows) {
    const dt = document.createElement("dt");
    dt.dataset.declared = "";
    const kbd = document.createElement("kbd");
    kbd.textContent = key.length === 1 ? key.toUpperCase() : key;
    dt.append(kbd);
    const dd = document.createElement("dd");
    dd.dataset.declared = "";
    dd.textContent = words.join(" / ");
    list.append(dt, dd);
  }
}

function openHelp() {
  if (!help || help.open) return;
  fillHelp();
  if (typeof help.showModal === "function") help.showModal();
  else help.setAttribute("open", "");
}

function onKey(ev) {
  if (ev.defaultPrevented || ev.ctrlKey || ev.altKey || ev.metaKey || ev.isComposing) return;
  if (typingIn(ev.target) || document.querySelector("dialog[open]")) return;
  const key = ev.key === "?" ? "?" : ev.key.length === 1 && !ev.shiftKey ? ev.key.toLowerCase() : null;
  if (!key) return;
  if (key === "?") {
    ev.preventDefault();
    openHelp();
    return;
  }
  const button = declared().find((el) => el.dataset.key === key && shown(el));
  if (!button) return;
  ev.preventDefault();
  button.click();
}

document.addEventListener("keydown", onKey);
document.getElementById("table-keys-open")?.addEventListener("click", openHelp);
label();

window.tableKeys = { keys: () => declared().filter(shown).map((el) => el.dataset.key) };
