"""The turn around a move in Riddle of the Ring: pure helpers with explicit inputs.

Nothing here holds game state: each function takes a :class:`~.movement.Movement`
and the facts it needs (positions, cards used, cities used) and returns a verdict or
a new immutable value, so the card game can call them from its own state.

- :class:`TurnMoves` — the movement of one turn: the die move, extra moves with
  Horse cards, flights with Eagles / Dragon Birds, Tom Bombadil; every move ends
  on a new space, the die is used once (its rest is lost after stopping), and a stop
  in a forest/mountain without Cloak/Rope blocks every later move that turn.
- :func:`exchange_partners` — who an obligatory Friendly Exchange is with.
- :func:`check_pick_up` / :func:`may_pick_up` — picking up at a city.
- :func:`discards_at_end_of_turn`, :func:`over_hand_limit` — the 10-card limit.
- :func:`limbo_exit_spaces` — where a player leaving Limbo (or captivity) may go.
- :func:`c_space_sees` — the players a C space shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from ...errors import IllegalMoveError, UsageError
from .movement import Movement, Reach

#: cards a player may hold after his turn
HAND_LIMIT = 10
#: "within 6 spaces" (Tom Bombadil, leaving Limbo or captivity, C spaces)
SIX = 6
#: the ways to move during a turn
MEANS = ("die", "horse", "eagles", "dragon_birds", "bombadil")


@dataclass(frozen=True)
class MoveRecord:
    """One move of a turn: how, from where to where, counts used, whether it stopped the turn."""

    means: str
    path: tuple[str, ...]
    cost: int
    stops_turn: bool

    @property
    def start(self) -> str:
        return self.path[0]

    @property
    def end(self) -> str:
        return self.path[-1]


@dataclass(frozen=True)
class TurnMoves:
    """The movement part of one turn (immutable; every method returns a new value).

    Attributes
    ----------
    start : str
        Where the turn began.
    position : str
        Where the player is now.
    die_used : bool
        The die has been used for a move (its unused counts are lost).
    stopped : bool
        A move entered a forest without Cloak or a mountain without Rope: no more
        movement this turn, not even with a Horse, Eagles or Dragon Birds.
    moves : tuple of MoveRecord
    """

    start: str
    position: str
    die_used: bool = False
    stopped: bool = False
    moves: tuple[MoveRecord, ...] = ()

    @classmethod
    def begin(cls, mv: Movement, position: str) -> TurnMoves:
        """A turn starting on ``position`` (id or name)."""
        node = mv.resolve(position)
        return cls(node, node)

    def _can_move(self, means: str) -> None:
        if means not in MEANS:
            raise UsageError(f"unknown means of moving {means!r} (known: {', '.join(MEANS)})")
        if self.stopped:
            last = self.moves[-1].end if self.moves else self.position
            raise IllegalMoveError(
                f"movement ended for this turn on entering {last}",
                code="stopped_for_turn",
                location=last,
                details={"means": means},
            )
        if means == "die" and self.die_used:
            raise IllegalMoveError(
                "the die was already used this turn; its unused counts are "
                "lost once the player stopped",
                code="die_used",
                location=self.position,
            )

    def move(
        self,
        mv: Movement,
        path: Sequence[str],
        count: int,
        cards: Iterable[str] = (),
        *,
        means: str = "die",
    ) -> tuple[TurnMoves, Reach]:
        """Move along ``path`` with the die (``means="die"``) or a Horse card (``"horse"``)
        showing ``count``.

        Raises
        ------
        IllegalMoveError
            ``stopped_for_turn``, ``die_used``, ``not_here`` (the path does not start
            on the player's space), or any code of :meth:`Movement.validate`.
        """
        if means not in ("die", "horse"):
            raise UsageError("move() takes means 'die' or 'horse'; use fly() for flights")
        self._can_move(means)
        nodes = [mv.resolve(p) for p in path]
        if not nodes or nodes[0] != self.position:
            raise IllegalMoveError(
                f"a move must start where the player is ({self.position})",
                code="not_here",
                location=nodes[0] if nodes else None,
            )
        reach = mv.validate(nodes, count, cards)
        rec = MoveRecord(means, reach.path, reach.cost, reach.stops_turn)
        return replace(
            self,
            position=reach.node,
            die_used=self.die_used or means == "die",
            stopped=reach.stops_turn,
            moves=self.moves + (rec,),
        ), reach

    def fly(
        self, mv: Movement, target: str, cards: Iterable[str] = (), *, means: str = "eagles"
    ) -> tuple[TurnMoves, Reach]:
        """Fly with Eagles / Dragon Birds (anywhere) or hop with Tom Bombadil (within 6).

        Raises
        ------
        IllegalMoveError
            ``stopped_for_turn`` or a code of :meth:`Movement.validate_flight`.
        """
        if means not in ("eagles", "dragon_birds", "bombadil"):
            raise UsageError("fly() takes means 'eagles', 'dragon_birds' or 'bombadil'")
        self._can_move(means)
        reach = mv.validate_flight(self.position, target, cards, bombadil=means == "bombadil")
        rec = MoveRecord(means, reach.path, 0, reach.stops_turn)
        return replace(
            self, position=reach.node, stopped=reach.stops_turn, moves=self.moves + (rec,)
        ), reach

    def check_end(self, *, wins: bool = False) -> None:
        """Check the turn's movement before it ends.

        "must move at least one space per turn" and "No player may begin and end a
        turn on the same space, unless he is on The Cracks of Doom or Barad-Dur and
        wins the game on that turn" (``wins``).

        Raises
        ------
        IllegalMoveError
            ``no_move`` or ``same_space``.
        """
        if wins:
            return
        if not self.moves:
            raise IllegalMoveError(
                "a player must move at least one space per turn",
                code="no_move",
                location=self.position,
            )
        if self.position == self.start:
            raise IllegalMoveError(
                f"a turn may not begin and end on the same space ({self.start})",
                code="same_space",
                location=self.start,
            )


def exchange_partners(mv: Movement, position: str, others: Mapping[str, str | None]) -> list[str]:
    """The players a Friendly Exchange is obligatory with after stopping on ``position``.

    "When a player stops on, or beside, the space occupied by another player, he must
    immediately have a Friendly Exchange with that player." Beside = ``touch``
    (across rivers too); on a river dot only its three spaces (and the spaces beside a
    dot see the player on it). ``others`` maps player -> node, ``None`` for a player in
    Limbo or captivity (nobody exchanges with them). Sorted by player; the mover
    chooses the order. Not for placing a marker on leaving Limbo (no exchange then).
    """
    here = mv.resolve(position)
    near = mv.beside(here) | {here}
    out = []
    for player, pos in others.items():
        if pos is None:
            continue
        if mv.resolve(pos) in near:
            out.append(player)
    return sorted(out)


def may_pick_up(city: str, cities_used: Sequence[str]) -> bool:
    """Whether cards may be picked up at ``city`` given the cities used before, oldest first.

    "He must pick up cards from at least 2 other Cities before returning to pick up again
    from a City he has already used": since the last pick-up at ``city``, at least two
    other distinct cities were used.
    """
    if city not in cities_used:
        return True
    last = len(cities_used) - 1 - list(reversed(cities_used)).index(city)
    return len(set(cities_used[last + 1 :]) - {city}) >= 2


def check_pick_up(mv: Movement, space: str, cities_used: Sequence[str]) -> str:
    """Check picking up 3 cards on ``space`` at the end of the turn; returns the city id.

    Raises
    ------
    IllegalMoveError
        ``not_a_city`` (the Shire, the Cracks of Doom and Barad-Dur are no cities),
        ``city_used_recently``.
    """
    node = mv.resolve(space)
    attrs = mv.compiled.graph.nodes[node]
    if not attrs.get("city"):
        raise IllegalMoveError(
            f"{mv.name_of(node)} is not a city", code="not_a_city", location=node
        )
    used = [mv.resolve(c) for c in cities_used]
    if not may_pick_up(node, used):
        raise IllegalMoveError(
            f"cards were picked up at {mv.name_of(node)}; pick up at two "
            "other cities before using it again",
            code="city_used_recently",
            location=node,
            details={"cities_used": used},
        )
    return node


def discards_at_end_of_turn(hand_size: int, picked_up: bool, *, in_limbo: bool = False) -> int:
    """How many cards a player must discard at the end of his turn.

    ``hand_size`` counts the cards just picked up. "Every time a player picks up any
    cards from the deck, he must discard 1 card" (not in Limbo or captivity), then "if
    he has over 10 cards, he must discard ... so that he will be left with exactly 10".
    """
    if hand_size < 0:
        raise UsageError("hand size must be >= 0")
    n = 1 if picked_up and not in_limbo and hand_size > 0 else 0
    return n + max(0, hand_size - n - HAND_LIMIT)


def over_hand_limit(hand_size: int, riddle_cards: int = 0) -> bool:
    """Whether a player caught after his turn holds over 10 cards (he goes to Limbo).

    "Cards taken after an incorrect Riddle do not count against the 10 card limit":
    pass how many of the hand those are as ``riddle_cards``.
    """
    return hand_size - riddle_cards > HAND_LIMIT


def role_space(mv: Movement, role: str) -> str:
    """The space with ``role`` (``shire``, ``cracks_of_doom``, ``barad_dur``, ``exit_limbo``).

    Raises
    ------
    UsageError
        When the board has no such space (code ``no_such_space``).
    """
    for nid in mv.spaces():
        if mv.compiled.graph.nodes[nid].get("role") == role:
            return nid
    raise UsageError(f"the board has no {role.replace('_', ' ')} space", code="no_such_space")


def limbo_exit_spaces(mv: Movement, *, captor: str | None = None) -> set[str]:
    """Where a player leaving Limbo (or captivity, with ``captor``'s node) may be placed.

    "place your marker on any space within 6 spaces of the Exit LIMBO space" (of the
    captor's marker, from captivity). The Exit Limbo space itself is not part of the
    board, and water spaces are left out: a player leaving Limbo may use no card, so
    he has no Boat to stand in water.
    """
    anchor = mv.resolve(captor) if captor is not None else role_space(mv, "exit_limbo")
    return {
        n
        for n in mv.within(anchor, SIX)
        if not mv.off_board[mv.index[n]] and not mv.is_water_node(n)
    }


def c_space_sees(
    mv: Movement, c_space: str, positions: Mapping[str, str | None], *, viewer: str | None = None
) -> list[str]:
    """The players a player stopped on a C space may look at (within 6 spaces of it).

    A player on a river dot is as far as the nearest of its three spaces plus one.
    Players in Limbo or captivity (``None``) and ``viewer`` are left out.

    Raises
    ------
    IllegalMoveError
        ``not_a_c_space``.
    """
    node = mv.resolve(c_space)
    if "C" not in (mv.compiled.graph.nodes[node].get("letters") or []):
        raise IllegalMoveError(
            f"{mv.name_of(node)} is not a C space", code="not_a_c_space", location=node
        )
    dist = mv.distances(node, SIX)
    out = []
    for player, pos in positions.items():
        if pos is None or player == viewer:
            continue
        p = mv.resolve(pos)
        i = mv.index[p]
        if p in dist or (
            mv.is_dot[i] and any(dist.get(mv.ids[sp], SIX) <= SIX - 1 for sp in mv.dot_spaces[i])
        ):
            out.append(player)
    return sorted(out)
