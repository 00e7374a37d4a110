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
from typing import TYPE_CHECKING, Any

from ...errors import StateError
from ..names import resolve, unknown
from ..outcome import Outcome
from .names import name_table
from .protocol import Phase

if TYPE_CHECKING:
    from .protocol import Ringgeister


@dataclass
class Counter:
    """One mission counter (ids ``<colour>-<k>``)."""

    id: str = field(metadata={"help": "the counter's id: its colour and number (yellow-1)"})
    colour: str = field(metadata={"help": "the colour of the player whose mission it is"})
    space: str | None = field(default=None, metadata={"help": "counter space id; null: not placed"})
    removed: bool = field(default=False, metadata={"help": "mission complete"})


@dataclass
class Pending:
    """A defeated light figure waiting for ``chooser`` to put it on a white starting point."""

    figure: str = field(metadata={"help": "the defeated light figure's id"})
    chooser: str = field(
        metadata={
            "help": "the player who chooses its white starting point (its owner, or the "
            "player to move for Gandalf)"
        }
    )


@dataclass
class Cards:
    """The deck: the face-up card, the face-down pile (top first) and the cards turned before."""

    face_up: str = field(metadata={"help": "the face-up card's id"})
    pile: list[str] = field(metadata={"help": "face-down pile, top card (next turned) first"})
    discard: list[str] = field(
        default_factory=list, metadata={"help": "the cards turned before, first turned first"}
    )


@dataclass
class RinggeisterState:
    """The state of a Ringgeister game (``to_json()["state"]``)."""

    seed: int = field(metadata={"help": "the seed the game was set up with"})
    ply: int = field(metadata={"low": 0, "help": "moves played so far"})
    phase: Phase = field(
        metadata={
            "help": "counters: mission counters are being placed (rulebook 1.4); play: "
            "turns; over: the game has ended (see outcome)"
        }
    )
    player: int = field(metadata={"low": 0, "help": "index of the player to move"})
    figures: dict[str, str | None] = field(metadata={"help": "figure id -> point id or null"})
    tile_turns: dict[str, int] = field(metadata={"help": "placed tile id -> quarter turns"})
    cards: Cards = field(metadata={"help": "the face-up card, the pile and the cards turned"})
    counters: list[Counter] = field(default_factory=list, metadata={"help": "mission counters"})
    moved: list[str] = field(default_factory=list, metadata={"help": "figures moved this turn"})
    pending: list[Pending] = field(
        default_factory=list,
        metadata={
            "help": "defeated light figures waiting to be put on a white starting "
            "point, first first (ruling 10)"
        },
    )
    outcome: Outcome | None = field(
        default=None, metadata={"help": "how the game ended; null while it goes on"}
    )


@dataclass
class RinggeisterPosition:
    """A Ringgeister position: figures on points, the cards, counters, whose turn."""

    figures: dict[str, str | None] = field(
        metadata={
            "help": "every figure in play: id -> its point (an id, or a name of "
            "'referee board-names': 'white starting point 3'); null: defeated, see pending"
        }
    )
    face_up: str = field(metadata={"help": "the face-up card (decides Ringbearer, hand, door)"})
    pile: list[str] = field(
        default_factory=list,
        metadata={
            "help": "the top of the face-down pile, top card (the next turned) first; every "
            "card neither face up, listed here nor in discard is shuffled with the position's "
            "generator (seed or rng) and goes under them (list every card to fix the whole pile)"
        },
    )
    discard: list[str] = field(default_factory=list, metadata={"help": "cards turned before"})
    to_move: str | None = field(default=None, metadata={"help": "colour to move (default: first)"})
    phase: Phase = field(
        default="play",
        metadata={
            "help": "counters: mission counters are still being placed (rulebook 1.4); "
            "play (default): turns; over: the game has ended (give the outcome)"
        },
    )
    moved: list[str] = field(
        default_factory=list,
        metadata={
            "help": "coloured figures already moved this turn (the turn goes on with the other one)"
        },
    )
    pending: list[Pending] = field(
        default_factory=list,
        metadata={
            "help": "defeated light figures (null in figures) waiting for a white "
            "starting point, first first: the next move is 'home FIGURE POINT'"
        },
    )
    counters: dict[str, str | None] = field(
        default_factory=dict,
        metadata={
            "help": "counter id (<colour>-<k>) -> its counter space (an id or a name: "
            "'counter space 3'), null if not placed; omitted ids are not placed"
        },
    )
    removed: list[str] = field(
        default_factory=list,
        metadata={
            "help": "counters whose mission is complete (removed from the board); "
            "they are not written in counters"
        },
    )
    tile_turns: dict[str, int] = field(
        default_factory=dict, metadata={"help": "tile id -> quarter turns (default: the board's)"}
    )
    ply: int = field(default=0, metadata={"low": 0, "help": "moves played so far (default 0)"})
    outcome: Outcome | None = field(
        default=None, metadata={"help": "how the game ended, with phase over; null: it goes on"}
    )


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
def dump_state(g: Ringgeister) -> RinggeisterState:
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


def load_state(g: Ringgeister, state: RinggeisterState) -> None:
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
    g: Ringgeister,
    figures: dict[str, str | None],
    tile_turns: dict[str, int],
    face_up: str,
    pile_top_first: list[str],
    discard: list[str],
    counters: list[dict[str, Any]],
    moved: list[str],
    pending: list[Pending],
    outcome: Outcome | None,
    where: str = "state",
) -> None:
    """Place what a state or a position describes (meaning checked by :meth:`validate`);
    refusals name the field under ``where`` (``state`` or ``position``)."""
    placements = {p.id for p in g.compiled.board.placements}
    unknown_tiles = sorted(set(tile_turns) - placements)
    if unknown_tiles:
        raise unknown(f"{where}.tile_turns", "placed tile", unknown_tiles[0], sorted(placements))
    g.tile_turns = {**g.v.base_turns, **tile_turns}
    g._claim(force=True)
    missing = [fid for fid in g.fidx if fid not in figures]
    extra = [fid for fid in figures if fid not in g.fidx]
    if extra:
        raise unknown(f"{where}.figures", "figure of this game", extra[0], g.fidx)
    if missing:
        raise StateError(
            f"{where}.figures: {missing[0]!r} is missing ({len(missing)} missing; list every "
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
            raise unknown(f"{where}.figures.{fid}", "node of the board", at, g.v.ids)
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


def dump_position(g: Ringgeister) -> RinggeisterPosition:
    st = dump_state(g)
    return RinggeisterPosition(
        figures=st.figures,
        face_up=g.face_up,
        pile=g.pile[::-1],
        discard=list(g.discard),
        to_move=g.players[g.player],
        phase=st.phase,
        moved=st.moved,
        pending=st.pending,
        # a removed counter is written once, in removed (its space no longer matters)
        counters={c["id"]: c["space"] for c in g.counters if not c["removed"]},
        removed=[c["id"] for c in g.counters if c["removed"]],
        tile_turns=st.tile_turns,
        ply=g.ply,
        outcome=st.outcome,
    )


def load_position(g: Ringgeister, position: RinggeisterPosition) -> None:
    """Set ``g`` up as ``position`` says, refusing what it names wrongly in one line
    that names the field as written and the nearest valid value.

    Points and counter spaces may be written as ids or as the rulebook's names
    (:mod:`.names`). The pile follows the kit's convention for piles
    (``docs/reference/positions.md``): the cards listed are its top, top first; every
    card the position puts nowhere else is shuffled with the position's generator
    and goes under them.
    """
    v = g.v
    names = name_table(g.compiled)
    if position.to_move is not None and position.to_move not in g.players:
        raise unknown("position.to_move", "player of this game", position.to_move, g.players)
    g.player = g.players.index(position.to_move) if position.to_move else 0
    g.phase = position.phase
    g.ply = position.ply
    points = [v.ids[i] for i in v.points]
    figures: dict[str, str | None] = {}
    for fid, at in position.figures.items():
        if fid not in g.fidx:
            raise unknown("position.figures", "figure of this game", fid, g.fidx)
        where = f"position.figures.{fid}"
        figures[fid] = None if at is None else resolve(at, points, names, where, "point")
    missing = [fid for fid in g.fidx if fid not in figures]
    if missing:
        raise StateError(
            f"position.figures: {missing[0]!r} is missing ({len(missing)} missing; list "
            "every figure, null if defeated)",
            code="bad_state",
        )
    counters = g._fresh_counters()
    known = [c["id"] for c in counters]
    for field_name, cids in (("counters", position.counters), ("removed", position.removed)):
        for cid in cids:
            if cid not in known:
                what = "counter of this game" if known else "counter (variant A has none)"
                raise unknown(f"position.{field_name}", what, cid, known)
    twice = [cid for cid in position.removed if cid in position.counters]
    if twice:
        raise StateError(
            f"position.counters.{twice[0]}: counter {twice[0]} is removed (listed in "
            "removed): leave it out of counters",
            code="bad_state",
        )
    for c in counters:
        at = position.counters.get(c["id"])
        where = f"position.counters.{c['id']}"
        c["space"] = (
            None if at is None else resolve(at, v.counter_spaces, names, where, "counter space")
        )
        c["removed"] = c["id"] in position.removed
    unplaced = [c["id"] for c in counters if c["space"] is None and not c["removed"]]
    if position.phase == "play" and unplaced and position.outcome is None:
        cid = unplaced[0]
        raise StateError(
            f"position.counters: counter {cid} is not placed yet, but the phase is play: give "
            f"it a space ('{cid}': 'counter space 1'), set phase counters to place it in "
            'play, or play variant A without counters (options: {"variant": "A"})',
            code="bad_state",
        )
    if position.phase == "counters" and not unplaced:
        raise StateError(
            "position.phase: every counter is placed, so the game is in phase play",
            code="bad_state",
        )
    pile = _load_cards(g, position)
    _check_tile_turns(g, position.tile_turns)
    for k, p in enumerate(position.pending):
        if p.figure not in g.fidx:
            raise unknown(f"position.pending[{k}].figure", "figure", p.figure, g.fidx)
        if p.chooser not in g.players:
            raise unknown(f"position.pending[{k}].chooser", "player", p.chooser, g.players)
    for k, fid in enumerate(position.moved):
        if fid not in g.fidx:
            raise unknown(f"position.moved[{k}]", "figure", fid, g.fidx)
    waiting = {p.figure for p in position.pending}
    off = [f for f, at in figures.items() if at is None and f not in waiting]
    if off and position.outcome is None:
        raise StateError(
            f"position.figures.{off[0]}: null (off the board) while the game goes on, but "
            "no pending choice of its new home names it: give it a point",
            code="bad_state",
        )
    load_common(
        g,
        figures,
        position.tile_turns,
        position.face_up,
        pile,
        position.discard,
        counters,
        position.moved,
        position.pending,
        position.outcome,
        "position",
    )


def _load_cards(g: Ringgeister, position: RinggeisterPosition) -> list[str]:
    """The face-down pile, top first: the cards listed, then the rest shuffled."""
    deck = sorted(g.cards)
    seen: dict[str, str] = {}
    listed = [("position.face_up", position.face_up)]
    listed += [(f"position.pile[{k}]", c) for k, c in enumerate(position.pile)]
    listed += [(f"position.discard[{k}]", c) for k, c in enumerate(position.discard)]
    for where, cid in listed:
        if cid not in g.cards:
            raise unknown(where, "card of the deck for these colours", cid, deck)
        if cid in seen:
            raise StateError(
                f"{where}: card {cid} is listed twice (also {seen[cid]})", code="bad_state"
            )
        seen[cid] = where
    rest = [c for c in deck if c not in seen]
    g.rng.shuffle(rest)
    return [*position.pile, *rest]


def _check_tile_turns(g: Ringgeister, tile_turns: dict[str, int]) -> None:
    v = g.v
    for pid, t in tile_turns.items():
        if pid not in v.base_turns:
            raise unknown("position.tile_turns", "placed tile", pid, sorted(v.base_turns))
        where = f"position.tile_turns.{pid}"
        count = v.turn_count[pid]
        if not 0 <= t < count:
            raise StateError(
                f"{where}: {t} quarter turns; a tile turns 0 to {count - 1} times",
                code="bad_state",
            )
        if pid not in v.turnable and t != v.base_turns[pid]:
            raise StateError(
                f"{where}: tile {pid} never turns ({never_turns_why(g, pid)}), so it stays "
                f"turned {v.base_turns[pid]} as the board lays it, not {t}",
                code="bad_state",
            )


def never_turns_why(g: Ringgeister, pid: str) -> str:
    """Why tile ``pid`` never turns (ruling 11), in words for a refusal."""
    v = g.v
    board = v.compiled.board
    if not board.tile_of(board.placement(pid)).turnable:
        return "its tile asset is not turnable"
    blacks = sum(v.black[i] for i in v.tile_points.get(pid, []))
    plural = "s" if blacks != 1 else ""
    return f"it carries {blacks} black point{plural}; only tiles with two or more turn, ruling 11"
