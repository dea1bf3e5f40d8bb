"""Chance anybody can check: every deal and roll derived from committed seeds.

Before a match's first chance event the server draws a secret seed and publishes its
SHA-256 (the commitment); each player adds a seed of their own. Every chance event is
then derived, never drawn: an HMAC-SHA256 byte stream keyed by the server seed over the
players' seeds, the match id, the event's number and a block counter, read as unbiased
integers (rejection sampling) that shuffle tiles or roll dice. After the match the
server reveals its seed, and anybody can recompute every event (``docs/fairness.md``
specifies it byte by byte; ``verify`` here, ``manage.py verify_deals`` and the replay
page's check do it).

Pure: no Django, no clock, no randomness of its own (the server seed is passed in).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .plugin import GamePlugin, RecordError
from .protocol import JSON, RecordedChance

# The derivation's version name, written in every record: a change to any byte of what
# follows gets a new name, and a verifier refuses names it does not know.
ALGORITHM = "hmac-sha256-fisher-yates/1"
# The first field of every HMAC message: the derivation's domain, so that a stream of
# this derivation can never be mistaken for any other use of the same key.
DOMAIN = b"boneyard-chance/1"
SEED_BYTES = 32
MAX_PLAYER_SEED = 256  # characters: any string a player or bot sends, up to this

T = TypeVar("T")


def commitment(server_seed: bytes) -> str:
    """The SHA-256 of the server seed, in lowercase hex: shown before the first event."""
    return hashlib.sha256(server_seed).hexdigest()


def _field(value: bytes) -> bytes:
    return len(value).to_bytes(4, "big") + value


def hmac_message(player_seeds: Sequence[str], match_id: str, event: int, block: int) -> bytes:
    """The HMAC message of one 32-byte block of chance event ``event``'s stream."""
    parts = [DOMAIN, match_id.encode(), str(event).encode(), str(block).encode(),
             *(seed.encode() for seed in player_seeds)]
    return b"".join(_field(part) for part in parts)


class DerivedChance:
    """The byte stream of one chance event, read as the shuffles and dice a game asks for.

    Blocks are HMAC-SHA256(server seed, message(block 0, 1, 2, ...)); integers are read
    four bytes at a time, big-endian; ``below(n)`` rejects the values past the largest
    multiple of ``n`` so that every result is equally likely.
    """

    def __init__(self, server_seed: bytes, player_seeds: Sequence[str], match_id: str,
                 event: int) -> None:
        self._key = server_seed
        self._seeds = list(player_seeds)
        self._match_id = match_id
        self._event = event
        self._block = 0
        self._buffer = b""
        self._pos = 0

    def _u32(self) -> int:
        if self._pos + 4 > len(self._buffer):
            message = hmac_message(self._seeds, self._match_id, self._event, self._block)
            self._buffer = self._buffer[self._pos:] + hmac.new(
                self._key, message, hashlib.sha256).digest()
            self._pos = 0
            self._block += 1
        value = int.from_bytes(self._buffer[self._pos:self._pos + 4], "big")
        self._pos += 4
        return value

    def below(self, n: int) -> int:
        """A whole number in [0, n), every value equally likely."""
        if not 1 <= n <= 1 << 32:
            raise ValueError("below(n) needs 1 <= n <= 2**32")
        limit = (1 << 32) - (1 << 32) % n
        while True:
            value = self._u32()
            if value < limit:
                return value % n

    def randint(self, a: int, b: int) -> int:
        """A whole number in [a, b] (a die: ``randint(1, 6)``)."""
        return a + self.below(b - a + 1)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Fisher-Yates from the end: for i = n-1 down to 1, swap x[i] with x[below(i+1)]."""
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items, in order drawn: for i = 0 .. k-1, swap item i with item
        i + below(n - i) of a copy, then take the first ``k``."""
        items = list(population)
        if not 0 <= k <= len(items):
            raise ValueError("sample larger than population")
        for i in range(k):
            j = i + self.below(len(items) - i)
            items[i], items[j] = items[j], items[i]
        return items[:k]


# ----------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Fairness:
    """A record's ``fairness`` object: what its chance was derived from."""

    algorithm: str
    match_id: str
    commitment: str
    server_seed: str | None  # hex; None while the match runs (not revealed yet)
    player_seeds: list[str]

    def as_dict(self) -> JSON:
        return {"algorithm": self.algorithm, "match_id": self.match_id,
                "commitment": self.commitment, "server_seed": self.server_seed,
                "player_seeds": list(self.player_seeds)}


def _hex(value: Any, name: str) -> str:
    if not isinstance(value, str) or len(value) % 2 or any(
            c not in "0123456789abcdef" for c in value):
        raise RecordError(f"fairness.{name} must be lowercase hexadecimal")
    return value


def fairness_of(record: Any) -> Fairness | None:
    """The record's ``fairness`` object (None when it has none); RecordError when it
    is there but malformed."""
    if not isinstance(record, dict) or record.get("fairness") is None:
        return None
    data = record["fairness"]
    if not isinstance(data, dict):
        raise RecordError("fairness must be an object")
    algorithm, match_id = data.get("algorithm"), data.get("match_id")
    if not isinstance(algorithm, str) or not isinstance(match_id, str):
        raise RecordError("fairness needs its algorithm and match_id (strings)")
    seeds = data.get("player_seeds")
    if not isinstance(seeds, list) or not all(isinstance(s, str) for s in seeds):
        raise RecordError("fairness.player_seeds must be a list of strings")
    server_seed = data.get("server_seed")
    return Fairness(algorithm, match_id, _hex(data.get("commitment"), "commitment"),
                    None if server_seed is None else _hex(server_seed, "server_seed"),
                    list(seeds))


VERIFIED = 0  # every chance event is what the seeds give
DIFFERS = 1  # the commitment, or at least one event, does not match
UNVERIFIABLE = 2  # malformed, or no seeds to check against (not revealed, none kept)


@dataclass(slots=True)
class Verification:
    """What ``verify`` found: an exit status, one line per finding, and the events."""

    status: int
    lines: list[str] = field(default_factory=list)
    checked: int = 0
    differing: list[str] = field(default_factory=list)

    def as_dict(self) -> JSON:
        return {"status": self.status, "checked": self.checked,
                "differing": list(self.differing), "lines": list(self.lines)}


def verify(fairness: Fairness | None, events: Sequence[RecordedChance]) -> Verification:
    """Recompute every chance event of a record from its seeds."""
    if fairness is None:
        return Verification(UNVERIFIABLE, [
            "This record has no seeds (typed by hand, or from before seeded deals): "
            "it replays, but its chance cannot be verified."])
    if fairness.algorithm != ALGORITHM:
        return Verification(UNVERIFIABLE, [
            f"Unknown algorithm {fairness.algorithm!r}: this verifier knows {ALGORITHM!r}."])
    if fairness.server_seed is None:
        return Verification(UNVERIFIABLE, [
            "The server seed is not revealed yet: it is, once the match is over."])
    seed = bytes.fromhex(fairness.server_seed)
    if commitment(seed) != fairness.commitment:
        return Verification(DIFFERS, [
            "The server seed does not match the commitment shown before the first event."])
    result = Verification(VERIFIED)
    for number, event in enumerate(events):
        derived = event.draw(DerivedChance(seed, fairness.player_seeds, fairness.match_id,
                                           number))
        result.checked += 1
        if derived != event.recorded:
            result.differing.append(event.where)
            result.lines.append(f"{event.where}: differs from what the seeds give "
                                f"(recorded {event.recorded}, derived {derived})")
    if result.differing:
        result.status = DIFFERS
    else:
        result.lines.append(f"All {result.checked} chance events match the seeds.")
    return result


def verify_record(plugin: GamePlugin, record: Any) -> Verification:
    """``verify`` for a record document of ``plugin``'s format."""
    try:
        fairness = fairness_of(record)
        events = plugin.recorded_chances(record)
    except RecordError as exc:
        return Verification(UNVERIFIABLE, ["malformed record: " + " ".join(str(exc).split())])
    return verify(fairness, events)
