/* On every logged-in page (templates/base.html): "your tournament match is ready".
 *
 * Opens /ws/notifications/ and shows a banner with a link to the match when a round of a
 * tournament you play in starts (and, on connect, for a tournament match still waiting
 * for you). The words are the page's own (data-* attributes of #notify, translated);
 * no inline script: the Content-Security-Policy forbids it. The socket reopens after a
 * drop, waiting a little longer each time.
 */
const box = document.getElementById("notify");

function matchPageOf(notice) {
  return window.location.pathname === notice.url;
}

function show(notice) {
  if (!box || (notice.url && matchPageOf(notice))) return;
  const bye = notice.type === "tournament_bye";
  box.textContent = "";
  const text = document.createElement("span");
  text.className = "notify__text";
  text.textContent = (bye ? box.dataset.byeText : box.dataset.matchText) + " — ";
  const where = document.createElement("a");
  where.href = notice.tournament_url;
  where.textContent = `${notice.tournament_name}, ${box.dataset.roundText} ${notice.round}`;
  text.appendChild(where);
  box.appendChild(text);
  if (!bye) {
    const go = document.createElement("a");
    go.className = "btn btn--small notify__go";
    go.href = notice.url;
    go.dataset.testid = "notify-play";
    go.textContent = box.dataset.openText;
    box.appendChild(document.createTextNode(" "));
    box.appendChild(go);
  }
  box.dataset.match = notice.match || "";
  box.hidden = false;
  document.dispatchEvent(new CustomEvent("tournament-notice", { detail: notice }));
}

let pause = 1000;

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${window.location.host}${box.dataset.ws}`);
  socket.addEventListener("open", () => { pause = 1000; });
  socket.addEventListener("message", (event) => {
    let notice = null;
    try { notice = JSON.parse(event.data); } catch (_error) { return; }
    if (notice && (notice.type === "tournament_match" || notice.type === "tournament_bye")) {
      show(notice);
    }
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4401) return; // logged out, or never logged in: nothing to hear
    // Too many of this account's sockets open (4430) or flooding (4429): try much later.
    if (event.code === 4430 || event.code === 4429) pause = 60000;
    setTimeout(connect, pause);
    pause = Math.min(pause * 2, 30000);
  });
}

if (box && box.dataset.ws && "WebSocket" in window) connect();
