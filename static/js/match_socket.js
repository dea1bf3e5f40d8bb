/**
 * match_socket.js — the socket of the match page (static/js/shell.js).
 *
 * One websocket to ws(s)://host/ws/matches/<id>/ (session cookie auth). It reconnects
 * with a growing, jittered delay. A heartbeat: a socket quiet for a second is sent a
 * `ping` (the server answers `pong`), and one that has heard nothing for 2.5 s is taken
 * for dead, dropped and opened again, so a lost connection shows within about 2 s. With
 * no state for 15 s it asks for a `sync`. Coming back to the tab syncs (or reconnects),
 * and so does the browser coming back online.
 *
 * The page says what to do with what arrives: `onSnapshot(message)` for a `state` message,
 * `onResult(message)` for the answer to a command, `onError(message)` for an `error`
 * (a `pong` needs nothing), `onOther(message)` for any other (`presence`, `said`); `onConnection(kind)` when the connection's state changes
 * ("connecting", "live", "reconnecting", "offline"), `onClosed(code)` when an open socket
 * closes.
 *
 * Seeded chance (docs/fairness.md): while the match's first deal or roll waits for the
 * players' seeds, this page sends its own (random, from the browser) once, for the seats
 * it plays; the answer is not the page's business. Every state is also sent to the
 * document as a "match:state" event (the fairness panel, fairness_panel.js, shows it).
 */

const SEED_ID = "seed";
const PING_AFTER_MS = 1000; // quiet this long: ask the server for a pong
const DEAD_AFTER_MS = 2500; // heard nothing this long: the connection is gone
const SYNC_AFTER_MS = 15000; // no state this long: ask for one

export function openMatchSocket(
  matchId,
  { onSnapshot, onResult, onError, onConnection, onClosed, onOther },
) {
  function onMessage(data) {
    if (data.type === "state") {
      lastState = performance.now();
      seedIfOpen(data);
      onSnapshot(data);
      document.dispatchEvent(new CustomEvent("match:state", { detail: data }));
    } else if (data.type === "result" && data.id === SEED_ID) {
      /* our seed's answer: nothing to show */
    } else if (data.type === "result") onResult(data);
    else if (data.type === "error") onError(data);
    else if (onOther && data.type !== "pong") onOther(data);
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
  let lastState = performance.now();
  let lastSync = 0;
  let lastPing = 0;

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

  /** A socket that stopped answering: let it go (its close may take minutes) and reconnect. */
  function drop() {
    const dead = ws;
    ws = null;
    dead.onclose = null;
    dead.onmessage = null;
    try {
      dead.close();
    } catch {
      /* already closing */
    }
    onClosed(0);
    scheduleReconnect();
  }

  setInterval(() => {
    if (!isOpen()) return;
    const now = performance.now();
    const idle = now - lastRx;
    if (idle > DEAD_AFTER_MS) drop();
    else if (idle > PING_AFTER_MS && now - lastPing > PING_AFTER_MS) {
      lastPing = now;
      send({ type: "ping" });
    } else if (now - lastState > SYNC_AFTER_MS && now - lastSync > SYNC_AFTER_MS) sync();
  }, 250);

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
