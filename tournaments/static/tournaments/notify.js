/* On every logged-in page (templates/base.html): "your tournament match is ready",
 * "X challenges you".
 *
 * Opens /ws/notifications/ and shows a banner with a link to the match when a round of a
 * tournament you play in starts (and, on connect, for a tournament match still waiting
 * for you), or with a link to the lobby when someone challenges you. The banner of a
 * tournament match goes once that match is over (`tournament_match_over`), its
 * tournament has ended (`tournament_over`), or, on reconnecting, the match is not
 * among those still waiting (`tournament_waiting`, the answer to `waiting`). With the browser's permission
 * (the lobby's "Allow notifications", #notify-allow), a notice that comes while the page
 * is hidden is also a system notification. The words are the page's own (data-*
 * attributes of #notify and the game names of #notify-games, translated); no inline
 * script: the Content-Security-Policy forbids it. The socket reopens after a drop,
 * waiting a little longer each time. window.notifyPage exposes what was shown, for the
 * browser tests.
 */
const box = document.getElementById("notify");
const shown = []; // every notice shown, for the tests
const alerted = []; // the system notifications raised

function matchPageOf(notice) {
  return window.location.pathname === notice.url;
}

function gameName(key) {
  const names = document.getElementById("notify-games");
  const found = names && [...names.content.querySelectorAll("[data-key]")].find((el) => el.dataset.key === key);
  return found ? found.textContent : key;
}

const fill = (text, params) => String(text || "").replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));

function link(href, text, testid, className = "btn btn--small notify__go") {
  const a = document.createElement("a");
  a.className = className;
  a.href = href;
  a.dataset.testid = testid;
  a.textContent = text;
  return a;
}

/** The banner's words and links for a notice, and the one line a system notification says. */
function tournamentParts(notice) {
  const bye = notice.type === "tournament_bye";
  const text = document.createElement("span");
  text.className = "notify__text";
  text.textContent = (bye ? box.dataset.byeText : box.dataset.matchText) + " — ";
  const where = `${notice.tournament_name}, ${box.dataset.roundText} ${notice.round}`;
  text.appendChild(link(notice.tournament_url, where, "notify-tournament", ""));
  const parts = [text];
  if (!bye) parts.push(document.createTextNode(" "), link(notice.url, box.dataset.openText, "notify-play"));
  const line = `${bye ? box.dataset.byeText : box.dataset.matchText}: ${where}`;
  return { parts, line, url: bye ? notice.tournament_url : notice.url };
}

function challengeParts(notice) {
  const line = fill(box.dataset.challengeText, { name: notice.from_name || notice.from, game: gameName(notice.game) });
  const text = document.createElement("span");
  text.className = "notify__text";
  text.textContent = `${line} — `;
  return { parts: [text, link(notice.url || "/", box.dataset.lobbyText, "notify-answer")], line, url: notice.url || "/" };
}

function show(notice) {
  if (!box || (notice.url && notice.type !== "challenge" && matchPageOf(notice))) return;
  // The lobby lists the challenges to you itself.
  if (notice.type === "challenge" && window.location.pathname === "/") return;
  const { parts, line, url } = notice.type === "challenge" ? challengeParts(notice) : tournamentParts(notice);
  box.replaceChildren(...parts);
  box.dataset.kind = notice.type;
  box.dataset.match = notice.match || "";
  box.dataset.tournament = notice.tournament == null ? "" : String(notice.tournament);
  box.hidden = false;
  shown.push(notice);
  alertSystem(line, url);
  document.dispatchEvent(new CustomEvent("tournament-notice", { detail: notice }));
}

function hide() {
  if (!box) return;
  box.hidden = true;
  box.replaceChildren();
  delete box.dataset.kind;
  box.dataset.match = "";
  box.dataset.tournament = "";
}

/** A tournament banner whose match or tournament is over goes. */
function settle(notice) {
  if (!box || box.hidden || !box.dataset.kind || !box.dataset.kind.startsWith("tournament")) return;
  if (notice.type === "tournament_match_over" && box.dataset.match && box.dataset.match === notice.match) hide();
  else if (notice.type === "tournament_over" && box.dataset.tournament === String(notice.tournament)) hide();
  else if (notice.type === "tournament_waiting" && box.dataset.kind === "tournament_match"
           && !(notice.matches || []).includes(box.dataset.match)) hide();
}

// ------------------------------------------------------------ system notifications

const canNotify = () => "Notification" in window;

function alertSystem(line, url) {
  if (!canNotify() || Notification.permission !== "granted" || !document.hidden) return;
  try {
    const note = new Notification(document.title.split(" · ").pop() || line, { body: line, tag: "boneyard-notice" });
    note.addEventListener("click", () => {
      window.focus();
      if (url) window.location.assign(url);
    });
    alerted.push(line);
  } catch (_error) {
    /* some browsers allow notifications only from a service worker */
  }
}

function offerPermission() {
  const button = document.getElementById("notify-allow");
  if (!button) return;
  button.hidden = !(canNotify() && Notification.permission === "default");
  button.addEventListener("click", () => {
    Promise.resolve(Notification.requestPermission()).finally(() => {
      button.hidden = Notification.permission !== "default";
    });
  });
}

// ------------------------------------------------------------ the socket

const SHOWN = new Set(["tournament_match", "tournament_bye", "challenge"]);
const SETTLING = new Set(["tournament_match_over", "tournament_over", "tournament_waiting"]);
let pause = 1000;

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${window.location.host}${box.dataset.ws}`);
  socket.addEventListener("open", () => {
    pause = 1000;
    // A banner shown before a drop may be for a match that has ended since: ask.
    if (box.dataset.kind === "tournament_match") socket.send(JSON.stringify({ type: "waiting" }));
  });
  socket.addEventListener("message", (event) => {
    let notice = null;
    try { notice = JSON.parse(event.data); } catch (_error) { return; }
    if (!notice) return;
    if (SHOWN.has(notice.type)) show(notice);
    else if (SETTLING.has(notice.type)) settle(notice);
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4401) return; // logged out, or never logged in: nothing to hear
    // Too many of this account's sockets open (4430) or flooding (4429): try much later.
    if (event.code === 4430 || event.code === 4429) pause = 60000;
    setTimeout(connect, pause);
    pause = Math.min(pause * 2, 30000);
  });
}

window.notifyPage = {
  get shown() { return shown.slice(); },
  get alerted() { return alerted.slice(); },
};
offerPermission();
if (box && box.dataset.ws && "WebSocket" in window) connect();
