"""What the two track games share: tracks, the ask/op queue and declared state.

Adventure to Mount Doom (:mod:`.mount_doom`) and the cooperative Lord of the Rings
game (:mod:`.lotr_coop`) are both played on ``track`` features (DESIGN §6) and both
referee a turn as a queue of small operations:

- :func:`track_points` reads a track's ordered points back from the compiler's
  ``next`` edges;
- the **queue** holds operations (``{"op": "die", ...}``) carried out in order by
  :meth:`TrackGame._run` until one is an **ask** (``{"op": "ask", "phase": ...}``,
  made by :func:`ask`): a decision of a player, answered by the next move. Effects
  push their follow-ups to the front of the queue, so a card's effects, a battle's
  rounds or an event's payments run in the rulebook's order and pause exactly where
  a player decides;
- the **state** of a game is declared (the game kit, ``docs/game-kit.md``): a
  dataclass of JSON values the kit serialises and checks for structure; the game
  checks meaning (``_validate``, one line naming the field) and
  :meth:`TrackGame.copy` copies it without JSON.

Nested dicts in the state (queue operations, cards held, dice on the tray) are
values: the rules replace them rather than change them in place, so
:meth:`TrackGame.copy` copies containers one level deep and stays in microseconds.

The turn is the kit's: its ``check`` refuses a finished game, another move type and a
verb the phase does not allow (each game's ``PHASES``), its ``push`` rolls a failed
move back through :meth:`TrackGame.copy`, and events are made by its ``event`` from
the game's ``EVENTS``; each game dispatches a checked move on a (phase, verb) table.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from typing import Any, ClassVar, Self, TypeVar

from ..compiler import CompiledBoard
from ..errors import BoardError, StateError
from .base import Game
from .events import Event
from .outcome import Outcome

__all__ = [
    "Op",
    "TrackGame",
    "ask",
    "migrate_flat",
    "need",
    "state_fields",
    "track_points",
]

#: one queued operation or ask (JSON)
Op = dict[str, Any]
M = TypeVar("M")


def track_points(compiled: CompiledBoard, track: str) -> list[str]:
    """The ordered point ids of ``track`` (from its ``next`` edges).

    Raises
    ------
    BoardError
        Code ``missing_track`` when the board has no such track of two points or more.

    Notes
    -----
    O(E) over the graph's edges; the games call it once per board (their layout is
    kept in :meth:`CompiledBoard.derived`).
    """
    edges = sorted(
        (d["order"], d["tail"], d["head"])
        for _, _, d in compiled.graph.edges(data=True)
        if d.get("relation") == "next" and d.get("track") == track
    )
    if not edges:
        raise BoardError(
            f"board has no track {track!r} with at least two points",
            code="missing_track",
            location=track,
        )
    return [edges[0][1]] + [h for _, _, h in edges]


def ask(phase: str, **data: Any) -> Op:
    """A decision the queue waits for: the next move answers it."""
    return {"op": "ask", "phase": phase, **data}


# ---------------------------------------------------------------------- declared state
def state_fields(cls: type) -> list[tuple[str, Any]]:
    """``(name, type)`` of every declared field of the state dataclass ``cls``, in order."""
    hints = typing.get_type_hints(cls)
    return [(f.name, hints[f.name]) for f in dataclasses.fields(cls)]


def refuse(field: str, reason: str) -> StateError:
    """The :class:`StateError` of a state whose ``field`` breaks the rules' meaning."""
    return StateError(f"{field}: {reason}", code="bad_state")


def refuse_position(where: str, reason: str) -> StateError:
    """The :class:`StateError` of a position whose field ``where`` cannot be
    (``position.WHERE: reason``)."""
    return refuse(f"position.{where}", reason)


def need(ok: bool, field: str, reason: str) -> None:
    """Raise :func:`refuse` unless ``ok``."""
    if not ok:
        raise refuse(field, reason)


# ---------------------------------------------------------------------- the game base
class TrackGame(Game[M]):
    """A game whose state is a declared dataclass and whose turn runs on a queue.

    A subclass also derives from its ``STATE`` dataclass (the fields are its
    attributes), sets ``rules``, the kit's ``EVENTS`` (event templates, for
    :meth:`Game.event`) and implements ``_op`` (carry out one operation),
    ``_validate`` (the meaning of a loaded state, raising through :func:`need`) and
    the kit's ``_apply``. It keeps ``result`` (``None`` while the game goes on).
    """

    #: fields whose items are dicts the rules never change in place (copied shallow)
    VALUE_ITEMS: ClassVar[frozenset[str]] = frozenset({"queue", "held", "tray"})
    #: the Fellowship wins or loses together (the kit's flag for bots)
    cooperative: ClassVar[bool] = True

    queue: list[Op]
    phase: str
    result: Outcome | None

    # ------------------------------------------------------------------ declared state
    @classmethod
    def _fields(cls) -> list[tuple[str, Any]]:
        cached: list[tuple[str, Any]] | None = cls.__dict__.get("_FIELD_CACHE")
        if cached is None:
            assert cls.STATE is not None
            cached = state_fields(cls.STATE)
            cls._FIELD_CACHE = cached  # type: ignore[attr-defined]
        return cached

    def dump_state(self) -> Any:
        """The declared fields as an instance of ``STATE`` (the kit encodes it)."""
        assert self.STATE is not None
        return self.STATE(**{name: getattr(self, name) for name, _ in self._fields()})

    def load_state(self, state: Any) -> None:
        """Set every declared field from a decoded ``STATE``."""
        for name, _ in self._fields():
            setattr(self, name, getattr(state, name))

    def validate(self) -> list[str]:
        """What breaks the rules' meaning in a loaded state (one line, the field named).

        After the game's own checks (:meth:`_validate`), the decision awaited is tried:
        every legal move is applied to a :meth:`copy`, which must keep the
        :meth:`invariants` (a decision awaited after it), so a hand-edited queue that
        the rules cannot carry on from is refused here, never met later as a traceback.

        Notes
        -----
        O(legal moves × one move): a few milliseconds at most, on loading only.
        """
        try:
            self._validate()
            for name, tp in self.QUEUE_KEYS.items():
                self._check_queue_keys(name, tp)
        except StateError as exc:
            return [exc.message]
        if self.result is not None:
            return []
        try:
            moves = list(self.generate_legal_moves())
            if not moves:
                return [f"queue: no legal move in phase {self.phase!r}"]
            for m in moves:
                after = self.copy()
                after._apply(m)
                broken = after.invariants()
                if broken:  # a hand-written queue that stops short of the turn's end
                    return [f"queue: after {m}, {broken[0]} (the queue ends too early)"]
        except Exception as exc:  # a state the rules cannot go on from
            return [f"queue: the decision awaited cannot be played ({type(exc).__name__}: {exc})"]
        return []

    #: ask phase or op name -> keys its entry must carry, with their JSON types
    QUEUE_KEYS: ClassVar[dict[str, dict[str, type | tuple[type, ...]]]] = {}

    def _check_queue_keys(self, name: str, keys: dict[str, type | tuple[type, ...]]) -> None:
        for i, op in enumerate(self.queue):
            if (op.get("phase") if op.get("op") == "ask" else op.get("op")) != name:
                continue
            for key, tp in keys.items():
                v = op.get(key)
                ok = isinstance(v, tp) and not (isinstance(v, bool) and tp is int)
                need(ok, f"queue[{i}].{key}", f"a {name} entry needs {key}")

    def _validate(self) -> None:
        """Raise :class:`StateError` (via :func:`need`) where the state breaks the rules."""

    def copy(self) -> Self:
        """An independent copy (same board), without a JSON round trip.

        Notes
        -----
        Containers are copied one level deep (lists of lists two levels); nested
        dicts are values the rules never change in place. About 3 µs, where the
        kit's default (a JSON round trip, which validates) takes about 330 µs: the
        kit's ``push`` keeps this copy for its rollback, and the bots search on it.
        """
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        for name, kind in self._copy_plan():
            v = d[name]
            if kind == 1:
                d[name] = v.copy()
            elif isinstance(v, dict):
                d[name] = {k: x.copy() for k, x in v.items()}
            else:
                d[name] = [x.copy() for x in v]
        d["rng"] = self.rng.copy()
        new.__dict__.update(d)
        return new

    @classmethod
    def _copy_plan(cls) -> list[tuple[str, int]]:
        """Per mutable field: 1 copy the container, 2 copy it and each item."""
        cached: list[tuple[str, int]] | None = cls.__dict__.get("_COPY_PLAN")
        if cached is None:
            cached = []
            for name, tp in cls._fields():
                origin = typing.get_origin(tp)
                if origin not in (list, dict):
                    continue
                item = typing.get_args(tp)[-1]
                nested = typing.get_origin(item) in (list, dict)
                shallow = name in cls.VALUE_ITEMS and typing.get_origin(item) is dict
                cached.append((name, 2 if nested and not shallow else 1))
            cls._COPY_PLAN = cached  # type: ignore[attr-defined]
        return cached

    # ------------------------------------------------------------------ the queue
    def _run(self, ev: list[Event]) -> None:
        """Carry out queued operations until one asks for a decision or the game ends."""
        while self.result is None and self.queue:
            op = self._next_op()
            if op["op"] == "ask":
                if self._ask_needed(op):
                    self.phase = op["phase"]
                    return
                self.queue.pop(0)
                continue
            self.queue.pop(0)
            self._op(op, ev)
        if self.result is not None:
            self.phase = "over"
            self.queue = []

    def _next_op(self) -> Op:
        """The operation at the front of the queue (a game may rewrite the queue first)."""
        return self.queue[0]

    def _ask_needed(self, op: Op) -> bool:
        """Whether an ask still needs an answer (``False``: it is dropped)."""
        return True

    def _op(self, op: Op, ev: list[Event]) -> None:
        """Carry out one queued operation, adding its events to ``ev``: each track game
        defines its own (Mount Doom's and the cooperative game's queues differ)."""
        raise NotImplementedError(f"{type(self).__name__} carries out no queued operations")

    # ------------------------------------------------------------------ moves
    def value(self) -> float:
        """A rough heuristic of how well the Fellowship stands (each game defines it)."""
        return 0.0

    def evaluate(self, player: str) -> float | None:
        """For bots: how well the Fellowship — every player alike — stands, 0 to 1.

        1 for a won game, 0 for a lost one, else :meth:`value` through a logistic
        (half at 0, about 0.73 at +25).
        """
        if self.result is not None:
            return 1.0 if self.result.result == "won" else 0.0
        return 1.0 / (1.0 + math.exp(-self.value() / 25.0))

    @property
    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on, else the kit's shape: ``{"result": "won",
        "winners": [every player]}`` or ``{"result": "lost", "winners": []}``, with
        ``reason`` (and the game's own fields)."""
        return self.result


def migrate_flat(
    data: dict[str, Any], fields: list[str], players: list[str], options: dict[str, Any]
) -> dict[str, Any]:
    """A version-1 state file (flat keys, written before the kit) in the kit's shape.

    ``fields`` are the names of the declared state (``result`` is read from the old
    ``outcome``); ``players`` and ``options`` are what the old file implied.
    """
    old = dict(data)
    if "outcome" in old:
        old["result"] = old.pop("outcome")
    missing = [f for f in fields if f not in old]
    if missing:
        raise StateError(f"version-1 state: field {missing[0]} is missing", code="bad_state")
    return {
        "rules": data.get("rules"),
        "version": None,
        "board_hash": data.get("board_hash"),
        "players": players,
        "options": options,
        "rng": data.get("rng"),
        "dice": [],
        "state": {f: old[f] for f in fields},
    }
