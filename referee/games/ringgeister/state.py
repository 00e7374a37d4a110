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
from typing import TYPE_CHECKING, Any, Literal

from ...errors import StateError
from ..outcome import Outcome

if TYPE_CHECKING:
    from .game import RinggeisterGame

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
    outcome: Outcome | None = None


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
    outcome: Outcome | None = None


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


# ====================================================================== the game's side
def dump_state(g: RinggeisterGame) -> RinggeisterState:
    ids = g.v.ids
    return RinggeisterState(
        seed=g.seed,
        ply=g.ply,
        phase=g.phase,
        player=g.player,
        figures={s.id: (ids[g.pos[i]] if g.pos[i] >= 0 else None) for i, s in enumerate(g.specs)},
        tile_turns=dict(sorted(g.tile_turns.items())),
        cards=Cards(g.face_up, g.pile[::-1], list(g.discard)),
        counters=[Counter(**c) for c in g.counters],
        moved=list(g.moved),
        pending=[Pending(f, c) for f, c in g.pending],
        outcome=g._outcome,
    )


def load_state(g: RinggeisterGame, state: RinggeisterState) -> None:
    g.seed = state.seed
    g.ply = state.ply
    g.phase = state.phase
    g.player = state.player
    load_common(
        g,
        state.figures,
        state.tile_turns,
        state.cards.face_up,
        state.cards.pile,
        state.cards.discard,
        [
            {"id": c.id, "colour": c.colour, "space": c.space, "removed": c.removed}
            for c in state.counters
        ],
        state.moved,
        state.pending,
        state.outcome,
    )


def load_common(
    g: RinggeisterGame,
    figures: dict[str, str | None],
    tile_turns: dict[str, int],
    face_up: str,
    pile_top_first: list[str],
    discard: list[str],
    counters: list[dict[str, Any]],
    moved: list[str],
    pending: list[Pending],
    outcome: Outcome | None,
) -> None:
    """Place what a state or a position describes (meaning checked by :meth:`validate`)."""
    placements = {p.id for p in g.compiled.board.placements}
    unknown_tiles = sorted(set(tile_turns) - placements)
    if unknown_tiles:
        raise StateError(f"tile_turns: no placed tile {unknown_tiles[0]!r}", code="bad_state")
    g.tile_turns = {**g.v.base_turns, **tile_turns}
    g._claim(force=True)
    missing = [fid for fid in g.fidx if fid not in figures]
    extra = [fid for fid in figures if fid not in g.fidx]
    if extra:
        raise StateError(
            f"figures: no figure {extra[0]!r} in this game (figures: {', '.join(g.fidx)})",
            code="bad_state",
        )
    if missing:
        raise StateError(
            f"figures: {missing[0]!r} is missing ({len(missing)} missing; list every "
            "figure, null if defeated)",
            code="bad_state",
        )
    g.pos = [-1] * len(g.specs)
    g.occ = [-1] * g.v.n
    for fid, at in figures.items():
        if at is None:
            continue
        i = g.v.index.get(at)
        if i is None:
            raise StateError(f"figures.{fid}: the board has no node {at!r}", code="bad_state")
        f = g.fidx[fid]
        g.pos[f] = i
        if g.occ[i] < 0:
            g.occ[i] = f
    g.face_up = face_up
    g.pile = list(reversed(pile_top_first))
    g.discard = list(discard)
    g.counters = counters
    g.moved = list(moved)
    g.pending = [(p.figure, p.chooser) for p in pending]
    g._outcome = outcome
    g._bump()


def dump_position(g: RinggeisterGame) -> RinggeisterPosition:
    st = g.dump_state()
    return RinggeisterPosition(
        figures=st.figures,
        face_up=g.face_up,
        pile=g.pile[::-1],
        discard=list(g.discard),
        to_move=g.players[g.player],
        phase=st.phase,
        moved=st.moved,
        pending=st.pending,
        counters={c["id"]: c["space"] for c in g.counters},
        removed=[c["id"] for c in g.counters if c["removed"]],
        tile_turns=st.tile_turns,
        ply=g.ply,
        outcome=st.outcome,
    )


def load_position(g: RinggeisterGame, position: RinggeisterPosition) -> None:
    if position.to_move is not None and position.to_move not in g.players:
        raise StateError(
            f"position.to_move: {position.to_move!r} is not one of the players "
            f"({', '.join(g.players)})",
            code="bad_state",
        )
    g.player = g.players.index(position.to_move) if position.to_move else 0
    g.phase = position.phase
    g.ply = position.ply
    counters = g._fresh_counters()
    known = {c["id"] for c in counters}
    for cid in [*position.counters, *position.removed]:
        if cid not in known:
            raise StateError(
                f"position.counters: no counter {cid!r} in this game (counters: "
                f"{', '.join(sorted(known)) or 'none'})",
                code="bad_state",
            )
    for c in counters:
        c["space"] = position.counters.get(c["id"])
        c["removed"] = c["id"] in position.removed
    pile = position.pile
    if pile is None:
        used = {position.face_up, *position.discard}
        rest = sorted(c for c in g.cards if c not in used)
        g.rng.shuffle(rest)
        pile = rest
    load_common(
        g,
        position.figures,
        position.tile_turns,
        position.face_up,
        pile,
        position.discard,
        counters,
        position.moved,
        position.pending,
        position.outcome,
    )
