"""The moves of the cooperative Lord of the Rings game (see :mod:`.game` for the phases)."""

from __future__ import annotations

from ..moves import Move as KitMove

#: verb -> number of words after it (see :class:`referee.games.moves.Move`)
VERBS: dict[str, int | tuple[int, int]] = {
    "reveal": 0,
    "play": (1, 2),
    "end": 0,
    "draw": 0,
    "heal": 0,
    "pay": 2,
    "decline": 1,
    "give": 2,
    "refuse": 0,
    "volunteer": 1,
    "line": 1,
    "discard": 2,
    "gandalf": 3,
    "yellow": (2, 3),
    "ring": 1,
    "drop": 2,
    "roll": 0,
}
#: "any time during the game": offered at every decision (DESIGN §6)
_ANY = frozenset({"gandalf", "yellow", "drop", "ring"})
#: phase -> the verbs a move may have in it (the kit's table; ``over``: none)
PHASES: dict[str, frozenset[str]] = {
    "reveal": _ANY | {"reveal"},
    "play": _ANY | {"draw", "heal", "end", "play"},
    "each_pay": _ANY | {"pay", "decline"},
    "group_pay": _ANY | {"give", "refuse"},
    "volunteer": _ANY | {"volunteer", "refuse"},
    "line": _ANY | {"line"},
    "discard": _ANY | {"discard"},
    "roll": _ANY | {"roll"},
    "over": frozenset(),
}
#: the phases of the active player's own turn (revealing tiles, playing cards)
TURN_PHASES = ("reveal", "play")
TURN_OPS = ("end_turn",)


class Move(KitMove):
    """A decision, e.g. ``Move("play", "g-star", "hiding")``; ``str`` is its text."""

    VERBS = VERBS


def shield_payments(values: list[int], at_least: int) -> list[str]:
    """The ways to pay ``at_least`` from shields worth ``values``: every choice of
    shields worth ``at_least`` or more from which no shield could be left out, as
    ``"4+1"`` (values largest first), each set of values once.

    Notes
    -----
    A minimal choice is worth less than ``at_least`` + the largest value, so the
    search stays small (a few dozen choices for a full hand of shields).
    """
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    kinds = sorted(counts, reverse=True)
    out: list[str] = []

    def walk(i: int, chosen: list[int], total: int) -> None:
        if total >= at_least:
            if total - min(chosen) < at_least:
                out.append("+".join(str(v) for v in chosen))
            return
        for j in range(i, len(kinds)):
            v = kinds[j]
            if chosen.count(v) < counts[v]:
                walk(j, chosen + [v], total + v)

    if sum(values) >= at_least:
        walk(0, [], 0)
    return out


#: event type -> the template of its ``text`` (the kit's :meth:`~referee.games.base.Game.event`)
EVENTS: dict[str, str] = {
    "event": "{says}",  # the Event box's own text (the rulebook's, then ours)
    "corruption": "{player} moves to space {to} of the Corruption line",
    "deck_reshuffled": "The Hobbit deck is reshuffled ({cards} cards)",
    "die": "{player} rolls the die: {face}",
    "discard": "{player} discards {card}",
    "draw": "{player} draws {cards} Hobbit cards",
    "eliminated": "{player} is eliminated: {reason}",
    "feature": "{player} receives the Feature card {card}",
    "features_dealt": "The {scenario} Feature cards are dealt ({cards} cards)",
    "final_event_concluded": "The final Event is concluded",
    "game_over": "The game is over: {result}, {score} points ({reason})",
    "gandalf": "{player} discards shields worth {paid}: Gandalf card {card}",
    "group_paid": "The group has paid",
    "group_refused": "The group does not pay",
    "journey": "The Fellowship comes to {name}",
    "life": "{player} receives a {kind} token",
    "main_line_completed": "The main Activity line of {scenario} is completed",
    "marker": "The {line} marker moves to {to}",
    "missing_life": "{player} lacks {missing} Life tokens",
    "no_effect": "{card} has no effect here",
    "paid": "{player} gives a {life} token",
    "play": "{player} plays {card} on the {line} line",
    "ring": "{player} puts on the Ring: the {line} marker moves {spaces} spaces",
    "ring_destroyed": "{player} destroys the Ring",
    "ringbearer": "{player} becomes the Ring-bearer",
    "sauron": "Sauron moves to space {to} of the Corruption line",
    "scenario": "The {scenario} Scenario begins; {ringbearer} is the Ring-bearer",
    "scenario_end": "The {scenario} Scenario ends",
    "shield": "{player} receives a shield worth {value}",
    "shield_paid": "{player} discards a shield worth {value}",
    "tile": "Event tile: {tile}",
    "tiles_reshuffled": "The Event tiles are reshuffled ({tiles} tiles)",
    "turn": "{player}'s turn",
    "volunteer": "{player} volunteers",
    "yellow": "{player} plays {card} for {target}",
}
