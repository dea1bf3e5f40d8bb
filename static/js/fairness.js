/**
 * fairness.js — the browser's check of a record's deals and rolls (docs/fairness.md).
 *
 * The same derivation as games/engine/fairness.py, byte by byte: an HMAC-SHA256 stream
 * keyed by the server seed (Web Crypto), read four bytes at a time as unbiased integers
 * (rejection sampling), shuffles and samples by Fisher–Yates. It knows no game: each
 * game's chance module (its plugin's `chance_module`) lists a record's chance events as
 * `{where, label, recorded, draw(source)}`, `draw` asking the source for what the game's
 * `sample_chance` asks.
 */

export const ALGORITHM = "hmac-sha256-fisher-yates/1";
const DOMAIN = "boneyard-chance/1";
const utf8 = new TextEncoder();

export const VERIFIED = 0;
export const DIFFERS = 1;
export const UNVERIFIABLE = 2;

function hex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(text) {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(text.substr(i * 2, 2), 16);
  return out;
}

function field(bytes) {
  const out = new Uint8Array(4 + bytes.length);
  new DataView(out.buffer).setUint32(0, bytes.length, false);
  out.set(bytes, 4);
  return out;
}

/** The HMAC message of block `block` of chance event `event`. */
export function hmacMessage(playerSeeds, matchId, event, block) {
  const parts = [DOMAIN, matchId, String(event), String(block), ...playerSeeds].map((p) =>
    field(utf8.encode(p)),
  );
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export async function commitment(serverSeedHex) {
  return hex(await crypto.subtle.digest("SHA-256", fromHex(serverSeedHex)));
}

class StreamExhausted extends Error {}

/** A chance event's stream, its first `blocks` blocks computed ahead (Web Crypto is
 * asynchronous, the derivations are not). */
export async function eventStream(key, playerSeeds, matchId, event, blocks) {
  const parts = await Promise.all(
    Array.from({ length: blocks }, (_, c) =>
      crypto.subtle.sign("HMAC", key, hmacMessage(playerSeeds, matchId, event, c)),
    ),
  );
  const bytes = new Uint8Array(blocks * 32);
  parts.forEach((part, c) => bytes.set(new Uint8Array(part), c * 32));
  return new Source(bytes);
}

export class Source {
  constructor(bytes) {
    this.bytes = bytes;
    this.pos = 0;
  }

  u32() {
    if (this.pos + 4 > this.bytes.length) throw new StreamExhausted();
    const b = this.bytes;
    const value = ((b[this.pos] << 24) >>> 0) + (b[this.pos + 1] << 16) + (b[this.pos + 2] << 8) + b[this.pos + 3];
    this.pos += 4;
    return value;
  }

  below(n) {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const value = this.u32();
      if (value < limit) return value % n;
    }
  }

  randint(a, b) {
    return a + this.below(b - a + 1);
  }

  shuffle(items) {
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = this.below(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
  }

  sample(population, k) {
    const items = [...population];
    for (let i = 0; i < k; i += 1) {
      const j = i + this.below(items.length - i);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items.slice(0, k);
  }
}

export async function hmacKey(serverSeedHex) {
  return crypto.subtle.importKey("raw", fromHex(serverSeedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** What `event.draw` derives for chance event `n` (more blocks when a derivation needs them). */
export async function derive(key, fairness, n, draw) {
  for (let blocks = 8; ; blocks *= 4) {
    const source = await eventStream(key, fairness.player_seeds, fairness.match_id, n, blocks);
    try {
      return draw(source);
    } catch (error) {
      if (!(error instanceof StreamExhausted) || blocks > 4096) throw error;
    }
  }
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const HEX = /^[0-9a-f]*$/;

/** The check of a record: {status, reason?, checked, differing: [event...]}; `reason` is
 * one of "no_seeds", "algorithm", "not_revealed", "malformed", "commitment". */
export async function verifyRecord(record, chanceModule) {
  const fairness = record && record.fairness;
  const result = { status: UNVERIFIABLE, checked: 0, differing: [] };
  if (!fairness) return { ...result, reason: "no_seeds" };
  if (fairness.algorithm !== ALGORITHM) return { ...result, reason: "algorithm" };
  if (fairness.server_seed == null) return { ...result, reason: "not_revealed" };
  const seeds = fairness.player_seeds;
  if (!HEX.test(fairness.server_seed) || !HEX.test(fairness.commitment || "x") || fairness.server_seed.length % 2
      || !Array.isArray(seeds) || !seeds.every((s) => typeof s === "string") || typeof fairness.match_id !== "string") {
    return { ...result, reason: "malformed" };
  }
  let events;
  try {
    events = chanceModule.recordedChances(record);
  } catch {
    return { ...result, reason: "malformed" };
  }
  if ((await commitment(fairness.server_seed)) !== fairness.commitment) {
    return { ...result, status: DIFFERS, reason: "commitment" };
  }
  const key = await hmacKey(fairness.server_seed);
  for (let n = 0; n < events.length; n += 1) {
    const derived = await derive(key, fairness, n, events[n].draw);
    result.checked += 1;
    if (!same(derived, events[n].recorded)) result.differing.push(events[n]);
  }
  result.status = result.differing.length ? DIFFERS : VERIFIED;
  return result;
}

/** One "term: value" row of a seeds list (a <dl>), as both fairness panels show them. */
export function seedRow(list, term, value, testid) {
  const dt = document.createElement("dt");
  dt.textContent = term;
  const dd = document.createElement("dd");
  dd.className = "fair__value";
  dd.textContent = value;
  if (testid) dd.dataset.testid = testid;
  list.append(dt, dd);
}

// ------------------------------------------------------------------- domino pieces

export const TILE_NAMES = [];
for (let lo = 0; lo <= 6; lo += 1) for (let hi = lo; hi <= 6; hi += 1) TILE_NAMES.push(`${lo}-${hi}`);

/** A tile name in its canonical form ("4-1" -> "1-4"); throws on anything else. */
export function tileName(name) {
  const m = /^([0-9])-([0-9])$/.exec(String(name));
  if (!m) throw new Error(`not a tile: ${name}`);
  const [a, b] = [Number(m[1]), Number(m[2])];
  const canonical = `${Math.min(a, b)}-${Math.max(a, b)}`;
  if (!TILE_NAMES.includes(canonical)) throw new Error(`not a tile: ${name}`);
  return canonical;
}

/** A deal as compared: each hand a sorted set of names, the pile in draw order. */
export function dealOutcome(hands, pile) {
  return {
    hands: hands.map((hand) => hand.map(tileName).sort()),
    pile: pile.map(tileName),
  };
}

export function shuffledSet(source) {
  const tiles = Array.from({ length: 28 }, (_, i) => i);
  source.shuffle(tiles);
  return tiles.map((t) => TILE_NAMES[t]);
}
