"""Helpers shared by the cooperative Lord of the Rings rule tests (``test_rules_*.py``).

:class:`Loaded` makes the die show chosen faces (indices: blank 0, one 1, two 2,
three 3, discard 4, sauron 5); event tiles are drawn from the end of ``g.tiles``.
"""

from __future__ import annotations

from pathlib import Path

from referee.games.lotr_coop.game import LotrCoop
from referee.games.rng import Rng
from referee.games.tracks import ask as _ask

ROOT = Path(__file__).resolve().parents[4]
BLANK, ONE, TWO, THREE, DISCARD, SAURON = range(6)


class Loaded(Rng):
    """A generator whose next dice are fixed (face indices, 0-based, in the pack's order):
    the kit's fixed dice (``rng.fixed``), which positions use too."""

    def __init__(self, *indices: int) -> None:
        super().__init__(3, [i + 1 for i in indices])


def new(compiled, players: int = 3, seed: int = 1, **options) -> LotrCoop:  # type: ignore[no-untyped-def]
    return LotrCoop.new(compiled, players=players, seed=seed, options=options)


def play(g: LotrCoop, text: str) -> list[dict]:  # type: ignore[type-arg]
    return g.push(g.parse_move(text))


def at_play(g: LotrCoop) -> None:
    """Skip the tile phase: the active player is about to play cards."""
    g.queue = [_ask("play")]
    g.phase = "play"


def no_yellow(g: LotrCoop) -> None:
    """Put the yellow Feature cards in the box: no card can change a die, so dice are rolled
    at once (see test_die_waits_for_any_time_cards)."""
    for hand in g.hands:
        yellow = [c for c in hand if g.lay.cards[c].get("colour") == "yellow"]
        for c in yellow:
            hand.remove(c)
            g.box.append(c)


def types(ev: list[dict]) -> list[str]:  # type: ignore[type-arg]
    return [e["type"] for e in ev]


def at_mount_doom(g: LotrCoop, *faces: int) -> None:
    """The Ring at Mount Doom (the last scenario's end), the die to show ``faces``."""
    no_yellow(g)  # nothing could change the die: it is rolled at once
    g.rng = Loaded(*faces)
    g.location = len(g.lay.master) - 2
    g.scenario = "mordor"
    g.markers = dict.fromkeys(g.lay.scenarios["mordor"].lines, 0)
    g.life = [{"heart": 1, "sun": 1, "ring": 1} for _ in g.players]
    g.queue = [{"op": "scenario_end"}]
