"""The turn around a move in Riddle of the Ring: pure helpers with explicit inputs.

Nothing here holds game state: each function takes a :class:`~.movement.Movement`
and the facts it needs (positions, cities used, hand sizes) and returns a verdict, and
the card game (:mod:`.flow`, :mod:`.travel`, :mod:`.battles`, :mod:`.power_plays`)
calls them from its own state — so the tests of these helpers guard the rules the
game runs.

- :func:`exchange_partners` — who an obligatory Friendly Exchange is with.
- :func:`may_pick_up` — picking up at a city again.
- :func:`discards_at_end_of_turn`, :func:`over_hand_limit` — the 10-card limit.
- :func:`limbo_exit_spaces` — where a player leaving Limbo (or captivity) may go.
- :func:`c_space_sees` — the players a C space shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...errors import IllegalMoveError, UsageError
from .movement import Movement

#: cards a player may hold after his turn
HAND_LIMIT = 10
#: "within 6 spaces" (Tom Bombadil, leaving Limbo or captivity, C spaces)
SIX = 6


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
