"""Ringgeister's declared state and position (see :mod:`referee.games.state`).

The **state** (``to_json()["state"]``) is everything a game needs to go on; the
**position** is what a person writes to set up a situation (``docs/positions/``):

.. code-block:: json

    {"rules": "ringgeister", "players": ["yellow"],
     "figures": {"hobbit-yellow": "t07/p3", "orc-1": "t02/b1", "...": "..."},
     "face_up": "card0", "pile": ["card3", "card1"], "to_move": "yellow"}

Figure ids are those of the game (``hobbit-yellow``, ``man-orange``, ``gandalf``,
``gollum``, ``orc-1`` ..., ``spirit-1`` ...); every figure in play is listed, on a
point or ``null`` (defeated, waiting for its player to put it home: then it is also
in ``pending``). The pile is written **top card first** (the next card turned).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ...errors import StateError

Phase = Literal["counters", "play", "over"]


@dataclass
class Counter:
    """One mission counter (ids ``<colour>-<k>``)."""

    id: str
    colour: str
    space: str | None = field(default=None, metadata={"help": "counter space id; null: not placed"})
    removed: bool = field(default=False, metadata={"help": "mission complete"})


@dataclass
class Pending:
    """A defeated light figure waiting for ``chooser`` to put it on a white starting point."""

    figure: str
    chooser: str


@dataclass
class Cards:
    """The deck: the face-up card, the face-down pile (top first) and the cards turned before."""

    face_up: str
    pile: list[str] = field(metadata={"help": "face-down pile, top card (next turned) first"})
    discard: list[str] = field(default_factory=list)


@dataclass
class RinggeisterState:
    """The state of a Ringgeister game (``to_json()["state"]``)."""

    seed: int
    ply: int = field(metadata={"low": 0})
    phase: Phase
    player: int = field(metadata={"low": 0, "help": "index of the player to move"})
    figures: dict[str, str | None] = field(metadata={"help": "figure id -> point id or null"})
    tile_turns: dict[str, int] = field(metadata={"help": "placed tile id -> quarter turns"})
    cards: Cards
    counters: list[Counter] = field(default_factory=list)
    moved: list[str] = field(default_factory=list, metadata={"help": "figures moved this turn"})
    pending: list[Pending] = field(default_factory=list)
    outcome: dict[str, Any] | None = None


@dataclass
class RinggeisterPosition:
    """A Ringgeister position: figures on points, the cards, counters, whose turn."""

    figures: dict[str, str | None] = field(
        metadata={"help": "every figure in play: id -> point id (null: defeated, see pending)"}
    )
    face_up: str = field(metadata={"help": "the face-up card (decides Ringbearer, hand, door)"})
    pile: list[str] | None = field(
        default=None,
        metadata={"help": "face-down pile, top card first; omitted: every other card, shuffled"},
    )
    discard: list[str] = field(default_factory=list, metadata={"help": "cards turned before"})
    to_move: str | None = field(default=None, metadata={"help": "colour to move (default: first)"})
    phase: Phase = "play"
    moved: list[str] = field(default_factory=list, metadata={"help": "figures moved this turn"})
    pending: list[Pending] = field(default_factory=list)
    counters: dict[str, str | None] = field(
        default_factory=dict,
        metadata={
            "help": "counter id (<colour>-<k>) -> space, null if not placed; omitted ids "
            "are not placed"
        },
    )
    removed: list[str] = field(default_factory=list, metadata={"help": "counters removed"})
    tile_turns: dict[str, int] = field(
        default_factory=dict, metadata={"help": "tile id -> quarter turns (default: the board's)"}
    )
    ply: int = field(default=0, metadata={"low": 0})
    outcome: dict[str, Any] | None = None


def migrate_v1(data: dict[str, Any]) -> dict[str, Any]:
    """A version-1 state file (flat, pile in drawing order from its end, ``winner``)
    as version 2.

    Raises
    ------
    StateError
        Code ``bad_state`` when the file is not a version-1 state either.
    """
    try:
        cards = data["cards"]
        outcome = data.get("outcome")
        if isinstance(outcome, dict) and "winner" in outcome:
            outcome = dict(outcome)
            outcome["winners"] = [outcome.pop("winner")]
        elif isinstance(outcome, dict):
            outcome = {**outcome, "winners": outcome.get("winners", [])}
        return {
            "rules": data["rules"],
            "version": 2,
            "board_hash": data["board_hash"],
            "players": data["players"],
            "options": data["options"],
            "rng": data["rng"],
            "dice": [],
            "state": {
                "seed": data["seed"],
                "ply": data["ply"],
                "phase": data["phase"],
                "player": data["player"],
                "figures": data["figures"],
                "tile_turns": data["tile_turns"],
                "cards": {
                    "face_up": cards["face_up"],
                    "pile": list(reversed(cards["pile"])),
                    "discard": cards["discard"],
                },
                "counters": data["counters"],
                "moved": data["moved"],
                "pending": data["pending"],
                "outcome": outcome,
            },
        }
    except (KeyError, TypeError) as exc:
        raise StateError(
            f"malformed version-1 ringgeister state (no {exc})", code="bad_state"
        ) from None
