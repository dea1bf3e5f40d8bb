"""A game of Hidden Nim as a state machine (see the package).

The deal is a chance event, as in games/dice: the state never draws. While it is due
``needs_chance()`` is true and the caller passes it in with ``deal``. Times are
microseconds since the game was created; the game has no clock of its own.
"""

from __future__ import annotations

from typing import Any

from games.engine.protocol import (
    JSON,
    GameState,
    Illegal,
    Outcome,
    Result,
    Step,
    gettext_noop,
)

from .rules import DECK, MAX_TAKE, SEATS, STANDARD_RULES, Rules

# Action codes: take n is n (1 to 3); the rest are a resignation and events.
RESIGN = 100
DEALT = 200
ANNUL = 201

FINISHED = "finished"
RESIGNED = "resign"
ANNULLED = "annulled"


class DealError(ValueError):
    """A deal that is not the one due now."""


def take_code(count: int) -> int:
    return count


def is_take(code: int) -> bool:
    return 1 <= code <= MAX_TAKE


def action_fields(code: int) -> dict[str, Any]:
    if is_take(code):
        return {"type": "take", "count": code}
    if code == RESIGN:
        return {"type": "resign"}
    return {"type": "event"}


class HiddenNim(GameState):
    """One game of two seats."""

    def __init__(self, rules: Rules = STANDARD_RULES, seats: int = SEATS) -> None:
        self.rules = rules
        self.num_seats = seats
        self.pile = rules.pile
        self.deck: list[int] | None = None  # the shuffled cards: seat s holds deck[s]
        self.first: int | None = None
        self.current: int | None = None
        self.taken = [0] * seats
        self.moves: list[tuple[int, int]] = []  # (seat, count) of each take
        self.resigned: int | None = None
        self._result: Result | None = None

    # ----------------------------------------------------------------- queries

    @property
    def result(self) -> Result | None:
        return self._result

    def needs_chance(self) -> bool:
        return self.deck is None and self._result is None

    @property
    def bonuses(self) -> list[int] | None:
        """Each seat's card (secret until the game is over), once dealt."""
        return None if self.deck is None else self.deck[:self.num_seats]

    def to_act(self) -> int | None:
        return self.current if self._result is None else None

    def legal_actions(self, seat: int) -> list[int]:
        if self.to_act() != seat:
            return []
        return [take_code(n) for n in range(1, min(MAX_TAKE, self.pile) + 1)]

    def next_deadline_us(self) -> int | None:
        return None

    def advance(self, now_us: int) -> list[Step]:
        return []

    def totals(self) -> list[int]:
        """Tokens taken plus each bonus (the bonuses count once they are dealt)."""
        bonuses = self.bonuses or [0] * self.num_seats
        return [t + b for t, b in zip(self.taken, bonuses, strict=True)]

    def public_scores(self) -> list[int]:
        """What every seat may see: the tokens taken, and the totals once it is over."""
        return self.totals() if self._result is not None else list(self.taken)

    # ------------------------------------------------------------------ chance

    def deal(self, deck: list[int], first: int, now_us: int) -> list[Step]:
        if not self.needs_chance():
            raise DealError("no deal is due now")
        if (not all(isinstance(card, int) and not isinstance(card, bool) for card in deck)
                or sorted(deck) != list(range(1, DECK + 1))):
            raise DealError(f"a deal is the cards 1 to {DECK} in some order")
        if isinstance(first, bool) or not isinstance(first, int) or not (
                0 <= first < self.num_seats):
            raise DealError("a deal names the first seat")
        self.deck = list(deck)
        self.first = first
        self.current = first
        return [Step(None, DEALT, now_us, scores=tuple(self.public_scores()))]

    # ----------------------------------------------------------------- actions

    def _check(self, seat: int, action: int) -> str | None:
        if not 0 <= seat < self.num_seats:
            return gettext_noop("there is no such seat")
        if action == RESIGN:
            return None
        if not is_take(action):
            return gettext_noop("that is not an action of this game")
        if seat != self.to_act():
            return gettext_noop("it is not your turn")
        if action > self.pile:
            return gettext_noop("that is not an action of this game")
        return None

    def apply(self, seat: int, action: int, now_us: int) -> Outcome | Illegal:
        if self._result is not None:
            return Illegal(gettext_noop("the game is over"))
        refusal = self._check(seat, action)
        if refusal is not None:
            return Illegal(refusal)
        if action == RESIGN:
            self.resigned = seat
            self._close(Result(1 - seat, RESIGNED))
        else:
            self.pile -= action
            self.taken[seat] += action
            self.moves.append((seat, action))
            self.current = 1 - seat
            if self.pile == 0:
                totals = self.totals()
                best = max(totals)
                winners = [s for s, v in enumerate(totals) if v == best]
                self._close(Result(winners[0] if len(winners) == 1 else None, FINISHED))
        step = Step(seat, action, now_us, scores=tuple(self.public_scores()))
        return Outcome(applied=True, steps=[step])

    def annul(self, now_us: int) -> list[Step]:
        if self._result is not None:
            if self._result.reason != ANNULLED:
                self._result = Result(None, ANNULLED)
            return []
        self._close(Result(None, ANNULLED))
        return [Step(None, ANNUL, now_us)]

    def _close(self, result: Result) -> None:
        self._result = result
        self.current = None

    # ------------------------------------------------------------------- views

    def view(self, seat: int | None) -> JSON:
        over = self._result is not None
        bonuses = self.bonuses
        shown = [
            b if bonuses is not None and (over or s == seat) else None
            for s, b in enumerate(bonuses or [None] * self.num_seats)
        ]
        result = self._result
        return {
            "game": "hidden-nim",
            "seat": seat,
            "players": self.num_seats,
            "rules": self.rules.to_dict(),
            "pile": self.pile,
            "to_act": self.to_act(),
            "first": self.first,
            "taken": list(self.taken),
            "moves": [{"seat": s, "count": n} for s, n in self.moves],
            "bonuses": shown,  # only the seat's own until the game is over
            "scores": self.public_scores(),
            "result": None if result is None else {
                "winner": result.winner, "reason": result.reason,
                "resigned": self.resigned},
            "legal": (
                [{"seat": seat, **action_fields(code)} for code in self.legal_actions(seat)]
                if seat is not None else []
            ),
        }
