/**
 * match_socket.js — the socket of the match page (static/js/shell.js).
 *
 * One websocket to ws(s)://host/ws/matches/<id>/ (session cookie auth). It reconnects
 * with a growing, jittered delay; a socket quiet for 15 s is asked for a `sync` (the server
 * answers with the state), and one quiet for 45 s is closed and opened again. Coming back
 * to the tab syncs (or reconnects), and so does the browser coming back online.
 *
 * The page says what to do with what arrives: `onSnapshot(message)` for a `state` message,
 * `onResult(message)` for the answer to a command, `onError(message)` for an `error`
 * (a `pong` needs nothing); `onConnection(kind)` when the connection's state changes
 * ("connecting", "live", "reconnecting", "offline"), `onClosed(code)` when an open socket
 * closes.
 *
 * Seeded chance (docs/fairness.md): while the match's first deal or roll waits for the
 * players' seeds, this page sends its own (random, from the browser) once, for the seats
 * it plays; the answer is not the page's business. Every state is also sent to the
 * document as a "match:state" event (the fairness panel, fairness_panel.js, shows it).
 */

const SEED_ID = "seed";

export function openMatchSocket(
  matchId,
  { onSnapshot, onResult, onError, onConnection, onClosed },
) {
  function onMessage(data) {
    if (data.type === "state") {
      seedIfOpen(data);
      onSnapshot(data);
      document.dispatchEvent(new CustomEvent("match:state", { detail: data }));
    } else if (data.type === "result" && data.id === SEED_ID) {
      /* our seed's answer: nothing to show */
    } else if (data.type === "result") onResult(data);
    else if (data.type === "error") onError(data);
  }

  let seedSent = false;
  function seedIfOpen(state) {
    const fairness = state.match && state.match.fairness;
    if (seedSent || !fairness || !fairness.seeds_open) return;
    const views = state.views || (state.view ? [state.view] : []);
    const mine = views.map((v) => v.seat).filter((s) => s !== null && s !== undefined);
    if (!mine.some((seat) => fairness.player_seeds[seat] === null)) return;
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    const seed = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    seedSent = send({ type: "seed", seed, id: SEED_ID });
  }

  let ws = null;
  let retry = 0;
  let everConnected = false;
  let reconnectTimer = null;
  let lastRx = performance.now();
  let lastSync = 0;

  function url() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    return `${proto}://${location.host}/ws/matches/${matchId}/`;
  }

  function connect() {
    clearTimeout(reconnectTimer);
    reconnectTimer = null;
    onConnection(everConnected ? "reconnecting" : "connecting");
    let sock;
    try {
      sock = new WebSocket(url());
    } catch {
      scheduleReconnect();
      return;
    }
    ws = sock;
    sock.onopen = () => {
      retry = 0;
      everConnected = true;
      lastRx = performance.now();
      onConnection("live"); // the server sends a snapshot on connect: nothing to ask for
    };
    sock.onmessage = (ev) => {
      lastRx = performance.now();
      let data;
      try {
        data = JSON.parse(ev.data);
      } catch {
        return;
      }
      onMessage(data);
    };
    sock.onclose = (ev) => {
      if (ws !== sock) return;
      ws = null;
      onClosed(ev.code);
      // 4404: no such match; 4430: too many of this account's sockets open (the server
      // said so in an error message first); 4429: this page flooded the server.
      const wait = { 4404: 15000, 4430: 30000, 4429: 10000 }[ev.code] || 0;
      scheduleReconnect(wait);
    };
    sock.onerror = () => {
      /* onclose follows */
    };
  }

  function scheduleReconnect(minDelay = 0) {
    if (reconnectTimer) return;
    const base = Math.min(10000, 400 * 2 ** retry);
    const delay = Math.max(minDelay, base * (0.75 + Math.random() * 0.5));
    retry += 1;
    onConnection(retry > 4 ? "offline" : "reconnecting");
    reconnectTimer = setTimeout(connect, delay);
  }

  const isOpen = () => ws !== null && ws.readyState === WebSocket.OPEN;

  /** Send one JSON message; false when the socket is not open. */
  function send(obj) {
    if (!isOpen()) return false;
    ws.send(JSON.stringify(obj));
    return true;
  }

  function sync() {
    lastSync = performance.now();
    send({ type: "sync" });
  }

  setInterval(() => {
    if (!isOpen()) return;
    const idle = performance.now() - lastRx;
    if (idle > 45000) ws.close(); // a silent connection: start again
    else if (idle > 15000 && performance.now() - lastSync > 15000) sync();
  }, 1000);

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    if (isOpen()) sync();
    else if (!ws) connect();
  });
  window.addEventListener("online", () => {
    if (!ws) connect();
  });

  connect();
  return { send, sync, isOpen };
}
