"""A game of five dice, five rounds (dice.md) as a state machine.

Dice are chance events, as in OpenSpiel: the state never rolls. When dice are due
(the order dice, a turn's first roll, the re-roll after an improvement)
``needs_chance()`` is true, ``chance_due()`` says which, and the caller passes the
values in with ``apply_chance``. Times are microseconds since the game was created.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.protocol import JSON, Illegal, Reason, Result, Step, gettext_noop
from games.engine.stepped import ANNULLED, SteppedState

from . import actions as A
from .rules import STANDARD_RULES, Rules
from .scoring import DICE, is_sub_multiset, keeps_of, reading, score
from .view import build_view

# Phases.
ORDER = "order"  # one die each for the order of play is due (chance)
ROLL = "roll"  # a turn's first roll is due (chance)
DECIDE = "decide"  # the first attempt is on the table: stand or improve
REROLL = "reroll"  # an improvement's re-roll is due (chance)
OVER = "over"

# Chance kinds (the ``type`` of a chance outcome).
ORDER_DIE = "order"
FIRST_ROLL = "roll"
RE_ROLL = "reroll"

FINISHED = "finished"
RESIGN = "resign"


@dataclass(slots=True)
class Turn:
    """One turn started (its first roll applied)."""

    round: int
    seat: int
    dice: tuple[int, ...]  # the first attempt, as rolled
    first: int
    rolled_us: int
    keep: tuple[int, ...] | None = None  # an improvement's kept dice, ascending
    rerolled: tuple[int, ...] | None = None  # the new values of the others
    second: int | None = None
    recorded: int | None = None
    forced: bool = False  # stood at the deadline

    @property
    def second_dice(self) -> tuple[int, ...] | None:
        if self.keep is None or self.rerolled is None:
            return None
        return self.keep + self.rerolled


@dataclass(slots=True)
class RoundSheet:
    """One round started: each seat's recorded score and the round's winner."""

    scores: list[int | None]
    winner: int | None = None
    over: bool = False


@dataclass(frozen=True, slots=True)
class Standing:
    """How a game ended: the points and rounds results (dice.md, "A game")."""

    points_winner: int | None
    rounds_winner: int | None
    reason: str  # "finished", "resign" or "annulled"

    @property
    def absolute(self) -> bool:
        return self.points_winner is not None and self.points_winner == self.rounds_winner


@dataclass(slots=True)
class ChanceDue:
    kind: str  # ORDER_DIE, FIRST_ROLL or RE_ROLL
    seat: int
    count: int  # how many dice


class DiceGame(SteppedState):
    """One game at a table of 1 to 6 seats."""

    def __init__(self, rules: Rules = STANDARD_RULES, seats: int = 2) -> None:
        self.rules = rules
        self.num_seats = seats
        self.resigned = [False] * seats
        self.order_rolls: list[list[tuple[int, int]]] = []  # each order roll: (seat, die)
        self.order_waiting: list[int] = []  # seats still to roll in the current order roll
        self.first_seat: int | None = None
        self.round_no = -1
        self.rounds: list[RoundSheet] = []
        self.turns: list[Turn] = []
        self.turn_pos = -1  # position in the seating order from the first seat
        self.current: int | None = None  # whose turn it is
        self.deadline_us: int | None = None
        self.totals = [0] * seats
        self.round_wins = [0] * seats
        self.standing: Standing | None = None
        self._result: Result | None = None
        self._steps: list[Step] = []
        self.phase = ORDER
        if seats == 1:
            self.first_seat = 0  # a single player needs no order
            self._start_round(0, 0)
        else:
            self.order_rolls.append([])
            self.order_waiting = list(range(seats))

    # ----------------------------------------------------------------- queries

    @property
    def turn(self) -> Turn | None:
        """The turn under way (its first roll applied), if any."""
        if self.phase in (DECIDE, REROLL) and self.turns:
            return self.turns[-1]
        return None

    def active_seats(self) -> list[int]:
        return [s for s in range(self.num_seats) if not self.resigned[s]]

    def scores(self) -> tuple[int, ...]:
        """Points totals; rounds won in the quick version."""
        return tuple(self.round_wins if self.rules.quick else self.totals)

    def needs_chance(self) -> bool:
        return self.phase in (ORDER, ROLL, REROLL)

    def chance_due(self) -> ChanceDue | None:
        if self.phase == ORDER:
            return ChanceDue(ORDER_DIE, self.order_waiting[0], 1)
        if self.current is None:
            return None
        if self.phase == ROLL:
            return ChanceDue(FIRST_ROLL, self.current, DICE)
        if self.phase == REROLL:
            keep = self.turns[-1].keep
            assert keep is not None
            return ChanceDue(RE_ROLL, self.current, DICE - len(keep))
        return None

    def to_act(self) -> int | None:
        return self.current if self.phase == DECIDE else None

    def legal_actions(self, seat: int) -> list[int]:
        if self.phase != DECIDE or seat != self.current:
            return []
        return [A.STAND, *(A.improve_code(keep) for keep in keeps_of(self.turns[-1].dice))]

    def next_deadline_us(self) -> int | None:
        return self.deadline_us if self.phase == DECIDE else None

    # ------------------------------------------------------------------ chance

    def chance_refusal(self, kind: str, seat: int, dice: tuple[int, ...]) -> str | None:
        """Why these dice cannot be applied now, or None."""
        if self._result is not None:
            return "the game is over"
        due = self.chance_due()
        if kind == ORDER_DIE:
            if self.phase != ORDER:
                return "the order of play is settled: no order die is due"
            if seat not in self.order_waiting:
                return f"seat {seat} does not roll for the order now"
        elif kind == FIRST_ROLL:
            if self.phase == ORDER:
                return "the order of play is still being rolled"
            if self.phase == DECIDE:
                return "a decision (stand or improve) is due, not a roll"
            if self.phase == REROLL:
                return "the re-roll of an improvement is due, not a new roll"
            if due is None or seat != due.seat:
                return f"it is seat {self.current}'s turn to roll"
        elif kind == RE_ROLL:
            if self.phase != REROLL or due is None:
                return "no improvement awaits its re-roll"
            if seat != due.seat:
                return f"seat {due.seat}'s improvement awaits its re-roll"
        else:
            return f"unknown chance event {kind!r}"
        assert due is not None
        if len(dice) != due.count:
            return f"{due.count} dice are due, got {len(dice)}"
        return None

    def apply_chance(self, kind: str, seat: int, dice: tuple[int, ...],
                     now_us: int) -> list[Step] | Illegal:
        refusal = self.chance_refusal(kind, seat, dice)
        if refusal is not None:
            return Illegal(refusal)
        steps: list[Step] = []
        self._steps = steps
        if kind == ORDER_DIE:
            self.order_waiting.remove(seat)
            self.order_rolls[-1].append((seat, dice[0]))
            self._emit(seat, A.ORDER_ROLLED, now_us, points=dice[0])
            if not self.order_waiting:
                self._settle_order(now_us)
        elif kind == FIRST_ROLL:
            first = score(dice)
            self.turns.append(Turn(self.round_no, seat, dice, first, now_us))
            self.phase = DECIDE
            self.deadline_us = now_us + self.rules.decision_us
            self._emit(seat, A.ROLLED, now_us, points=first)
        else:
            turn = self.turns[-1]
            assert turn.keep is not None
            turn.rerolled = dice
            second = score(turn.keep + dice)
            first_reading = reading(turn.dice)
            turn.second = second
            value = second if second > first_reading.score else first_reading.plain_sum
            self._record(turn, value)
            self._emit(seat, A.REROLLED, now_us, points=value)
            self._next_turn(now_us)
        self._steps = []
        return steps

    def _settle_order(self, now_us: int) -> None:
        rolls = [(s, d) for s, d in self.order_rolls[-1] if not self.resigned[s]]
        if not rolls:  # everybody tied for the highest resigned: all roll again
            self.order_rolls.append([])
            self.order_waiting = self.active_seats()
            return
        top = max(d for _, d in rolls)
        tied = sorted(s for s, d in rolls if d == top)
        if len(tied) == 1:
            self.first_seat = tied[0]
            self.order_waiting = []
            self._start_round(0, now_us)
        else:  # the players tied for the highest roll again
            self.order_rolls.append([])
            self.order_waiting = tied

    # -------------------------------------------------------------------- time

    def _late(self, now_us: int) -> bool:
        deadline = self.deadline_us
        return self.phase == DECIDE and deadline is not None and now_us >= deadline

    def _advance(self, now_us: int) -> None:
        """At a decision's deadline the player stands with what is on the table."""
        deadline = self.deadline_us
        if self.phase == DECIDE and deadline is not None and now_us >= deadline:
            self._stand(self.turns[-1], deadline, forced=True)

    # ----------------------------------------------------------------- actions

    def _annulled_after_end(self) -> None:
        self.standing = Standing(None, None, ANNULLED)

    def _annul(self, now_us: int) -> None:
        self._emit(None, A.ANNUL, now_us)
        self._close(Standing(None, None, ANNULLED))

    def _check(self, seat: int, action: int) -> str | None:
        if not 0 <= seat < self.num_seats:
            return gettext_noop("there is no such seat")
        if self.resigned[seat]:
            return gettext_noop("you have resigned")
        if action == A.RESIGN:
            return None
        improve = A.is_improve(action)
        if action != A.STAND and not improve:
            return gettext_noop("that is not an action of this game")
        if improve and len(A.keep_of(action)) > A.MAX_KEEP:
            return Reason(gettext_noop("keep at most %(count)s dice"), count=A.MAX_KEEP)
        if self.phase == ORDER:
            return gettext_noop("the order of play is still being rolled")
        if seat != self.current:
            return gettext_noop("it is not your turn")
        if self.phase == ROLL:
            return gettext_noop("your dice have not been rolled yet")
        if self.phase == REROLL:
            return gettext_noop("you have already decided: the dice are being re-rolled")
        if improve and not is_sub_multiset(A.keep_of(action), self.turns[-1].dice):
            return gettext_noop("the keep is not part of the roll on the table")
        return None

    def _do(self, seat: int, action: int, now_us: int) -> None:
        if action == A.STAND:
            self._stand(self.turns[-1], now_us, forced=False)
        elif action == A.RESIGN:
            self._resign(seat, now_us)
        else:
            turn = self.turns[-1]
            turn.keep = A.keep_of(action)
            self.phase = REROLL
            self.deadline_us = None
            self._emit(seat, action, now_us)

    def _stand(self, turn: Turn, now_us: int, forced: bool) -> None:
        turn.forced = forced
        self._record(turn, turn.first)
        self._emit(turn.seat, A.STAND, now_us, forced=forced, points=turn.first)
        self._next_turn(now_us)

    def _record(self, turn: Turn, value: int) -> None:
        turn.recorded = value
        self.rounds[turn.round].scores[turn.seat] = value
        self.totals[turn.seat] += value

    def _resign(self, seat: int, now_us: int) -> None:
        self.resigned[seat] = True
        self._emit(seat, A.RESIGN, now_us)
        active = self.active_seats()
        if not active:  # a single player left the table
            self._close(Standing(None, None, RESIGN))
            return
        if self.num_seats > 1 and len(active) == 1:
            # The one left wins on points and on rounds.
            winner = active[0]
            self._close(Standing(None if self.rules.quick else winner, winner, RESIGN))
            return
        if self.phase == ORDER:
            if seat in self.order_waiting:
                self.order_waiting.remove(seat)
            if not self.order_waiting:
                self._settle_order(now_us)
        elif seat == self.current:  # the turn is abandoned
            self._next_turn(now_us)

    # ------------------------------------------------------------- transitions

    def _emit(self, seat: int | None, action: int, now_us: int, forced: bool = False,
              points: int = 0) -> None:
        self._steps.append(Step(seat, action, now_us, forced, points, self.scores()))

    def _start_round(self, number: int, now_us: int) -> None:
        self.round_no = number
        self.rounds.append(RoundSheet([None] * self.num_seats))
        self.turn_pos = -1
        self._next_turn(now_us)

    def _next_turn(self, now_us: int) -> None:
        """The next active seat in seat order from the first player, or the round's end."""
        assert self.first_seat is not None
        self.deadline_us = None
        for pos in range(self.turn_pos + 1, self.num_seats):
            seat = (self.first_seat + pos) % self.num_seats
            if not self.resigned[seat]:
                self.turn_pos = pos
                self.current = seat
                self.phase = ROLL
                return
        self._close_round(now_us)

    def _close_round(self, now_us: int) -> None:
        sheet = self.rounds[-1]
        sheet.over = True
        if self.num_seats > 1:
            # A resigned player wins nothing: only the seats still playing compare.
            scored = [(sheet.scores[s] or 0, s) for s in self.active_seats()]
            top = max(value for value, _ in scored)
            best = [s for value, s in scored if value == top]
            if len(best) == 1:
                sheet.winner = best[0]
                self.round_wins[best[0]] += 1
        if self.round_no + 1 < self.rules.rounds:
            self._start_round(self.round_no + 1, now_us)
        else:
            self._close(self._final_standing())

    def _final_standing(self) -> Standing:
        if self.num_seats == 1:
            return Standing(None, None, FINISHED)
        active = self.active_seats()
        points = None if self.rules.quick else _unique_best(active, self.totals)
        return Standing(points, _unique_best(active, self.round_wins), FINISHED)

    def _close(self, standing: Standing) -> None:
        self.standing = standing
        winner = standing.rounds_winner if self.rules.quick else standing.points_winner
        self._result = Result(winner, standing.reason)
        self.phase = OVER
        self.current = None
        self.deadline_us = None
        self.order_waiting = []

    # ------------------------------------------------------------------- views

    def view(self, seat: int | None) -> JSON:
        return build_view(self, seat)


def _unique_best(seats: list[int], values: list[int]) -> int | None:
    top = max(values[s] for s in seats)
    best = [s for s in seats if values[s] == top]
    return best[0] if len(best) == 1 else None
