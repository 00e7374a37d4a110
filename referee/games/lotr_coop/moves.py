"""The moves of the cooperative Lord of the Rings game (see :mod:`.game` for the phases)."""

from __future__ import annotations

from ..base import WordMove

VERBS = (
    "reveal",
    "play",
    "end",
    "draw",
    "heal",
    "pay",
    "decline",
    "give",
    "refuse",
    "volunteer",
    "line",
    "discard",
    "gandalf",
    "yellow",
    "ring",
    "drop",
)
#: the phases of the active player's own turn (revealing tiles, playing cards)
TURN_PHASES = ("reveal", "play")
TURN_OPS = ("end_turn",)


class Move(WordMove):
    """A decision, e.g. ``Move(("play", "g-star", "hiding"))``; ``str`` is its text."""

    verbs = VERBS


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
