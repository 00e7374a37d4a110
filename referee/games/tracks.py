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
- the **state** of a game is declared: a dataclass of JSON values (``StateField``s),
  serialised by :meth:`TrackGame.to_json`, checked field by field for type on load
  (:func:`check_type`) and by the game for meaning (``_validate``), and copied
  without JSON by :meth:`TrackGame.copy`.

Nested dicts in the state (queue operations, cards held, dice on the tray) are
values: the rules replace them rather than change them in place, so
:meth:`TrackGame.copy` copies containers one level deep and stays in microseconds.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from typing import Any, ClassVar, TypeVar, Union

from ..compiler import CompiledBoard
from ..errors import BoardError, IllegalMoveError, StateError
from .base import Game
from .rng import Rng

__all__ = [
    "Op",
    "TrackGame",
    "ask",
    "check_type",
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


def _type_name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


def check_type(value: Any, tp: Any, where: str) -> None:
    """Raise :class:`StateError` (``bad_state``) unless ``value`` is JSON of type ``tp``.

    ``tp`` is a field's annotation: ``int``, ``bool``, ``str``, ``float``, ``Any``,
    ``None``, unions (``X | None``), ``list[T]``, ``dict[str, T]``. ``where`` names the
    place (``hands[2][0]``) in the one-line message.
    """
    if tp is Any:
        return
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        for alt in typing.get_args(tp):
            try:
                check_type(value, alt, where)
                return
            except StateError:
                continue
        raise StateError(f"{where}: {value!r:.40} is not {_type_name(tp)}", code="bad_state")
    if tp is type(None):
        if value is not None:
            raise StateError(f"{where}: expected null, not {value!r:.40}", code="bad_state")
        return
    if origin is list:
        if not isinstance(value, list):
            raise StateError(f"{where}: expected a list, not {value!r:.40}", code="bad_state")
        (item,) = typing.get_args(tp)
        for i, v in enumerate(value):
            check_type(v, item, f"{where}[{i}]")
        return
    if origin is dict:
        if not isinstance(value, dict):
            raise StateError(f"{where}: expected an object, not {value!r:.40}", code="bad_state")
        _, item = typing.get_args(tp)
        for k, v in value.items():
            check_type(v, item, f"{where}.{k}")
        return
    if tp is bool:
        ok = isinstance(value, bool)
    elif tp is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif tp is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    else:
        ok = isinstance(value, tp)
    if not ok:
        raise StateError(f"{where}: expected {_type_name(tp)}, not {value!r:.40}", code="bad_state")


def refuse(field: str, reason: str) -> StateError:
    """The :class:`StateError` of a state whose ``field`` breaks the rules' meaning."""
    return StateError(f"{field}: {reason}", code="bad_state")


def need(ok: bool, field: str, reason: str) -> None:
    """Raise :func:`refuse` unless ``ok``."""
    if not ok:
        raise refuse(field, reason)


# ---------------------------------------------------------------------- the game base
class TrackGame(Game[M]):
    """A game whose state is a declared dataclass and whose turn runs on a queue.

    A subclass is also a dataclass of its state fields (``STATE``), sets ``rules``,
    and implements ``_op`` (carry out one operation) and ``_validate`` (the meaning of
    a loaded state). It keeps ``outcome_`` (``None`` while the game goes on).
    """

    #: the dataclass whose fields are the serialised state (set by each game)
    STATE: ClassVar[type]
    #: JSON key -> attribute, where they differ
    RENAMED: ClassVar[dict[str, str]] = {"outcome": "outcome_"}

    compiled: CompiledBoard
    rng: Rng
    queue: list[Op]
    phase: str
    outcome_: dict[str, Any] | None

    # ------------------------------------------------------------------ serialisation
    @classmethod
    def _fields(cls) -> list[tuple[str, Any]]:
        cached: list[tuple[str, Any]] | None = cls.__dict__.get("_FIELD_CACHE")
        if cached is None:
            cached = state_fields(cls.STATE)
            cls._FIELD_CACHE = cached  # type: ignore[attr-defined]
        return cached

    def to_json(self) -> dict[str, Any]:
        """``rules``, ``board_hash``, every declared field and the generator's state."""
        attr = {v: k for k, v in self.RENAMED.items()}
        data: dict[str, Any] = {"rules": self.rules, "board_hash": self.compiled.hash}
        for name, _ in self._fields():
            data[attr.get(name, name)] = getattr(self, name)
        data["rng"] = self.rng.state
        out: dict[str, Any] = json.loads(json.dumps(data))  # a deep copy, proven JSON
        return out

    def _load(self, data: Any) -> None:
        """Set the declared fields from ``data``, checked for type, then for meaning.

        Raises
        ------
        StateError
            ``wrong_rules``, ``wrong_board``, or ``bad_state`` with a one-line reason
            naming the field.
        """
        if not isinstance(data, dict) or data.get("rules") != self.rules:
            raise StateError(f"not a {self.rules} state", code="wrong_rules")
        self.check_board(data)
        attr = {v: k for k, v in self.RENAMED.items()}
        values: dict[str, Any] = {}
        for name, tp in self._fields():
            key = attr.get(name, name)
            if key not in data:
                raise StateError(
                    f"bad {self.rules} state: field {key} is missing", code="bad_state"
                )
            check_type(data[key], tp, f"bad {self.rules} state: field {key}")
            values[name] = data[key]
        rng = data.get("rng")
        if isinstance(rng, bool) or not isinstance(rng, int) or not 0 <= rng < 2**64:
            raise StateError(
                f"bad {self.rules} state: field rng must be an integer in [0, 2**64)",
                code="bad_state",
            )
        values = json.loads(json.dumps(values))
        for name, v in values.items():
            setattr(self, name, v)
        self.rng = Rng(rng)
        try:
            self._validate()
        except StateError as exc:
            raise StateError(f"bad {self.rules} state: {exc.message}", code="bad_state") from None

    def _validate(self) -> None:
        """Raise :class:`StateError` (via :func:`need`) where the state breaks the rules."""

    def copy(self) -> TrackGame[M]:
        """An independent copy (same board), without a JSON round trip.

        Notes
        -----
        Containers are copied one level deep (lists of lists two levels); nested
        dicts are values the rules never change in place. About 10 µs.
        """
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        for name, kind in self._copy_plan():
            v = d[name]
            if kind == 1:
                d[name] = v.copy()
            elif kind == 2:
                if isinstance(v, dict):
                    d[name] = {k: x.copy() for k, x in v.items()}
                else:
                    d[name] = [x.copy() for x in v]
        d["rng"] = Rng(self.rng.state)
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
                nested = typing.get_origin(item) in (list, dict) and name not in cls.VALUE_ITEMS
                cached.append((name, 2 if nested else 1))
            cls._COPY_PLAN = cached  # type: ignore[attr-defined]
        return cached

    #: fields whose items are dicts the rules never change in place (copied shallow)
    VALUE_ITEMS: ClassVar[frozenset[str]] = frozenset({"queue", "held", "tray"})

    def push(self, move: M) -> list[dict[str, Any]]:
        """Apply ``move``; raise :class:`IllegalMoveError` and change nothing if illegal.

        The rollback guard keeps a :meth:`copy` (not a JSON snapshot): a bug mid-apply
        leaves the state as it was.
        """
        self.check(move)
        snapshot = self.copy()
        try:
            return self._apply(move)
        except BaseException:
            self.__dict__.clear()
            self.__dict__.update(snapshot.__dict__)
            raise

    # ------------------------------------------------------------------ the queue
    def _run(self, ev: list[dict[str, Any]]) -> None:
        """Carry out queued operations until one asks for a decision or the game ends."""
        while self.outcome_ is None and self.queue:
            op = self._next_op()
            if op["op"] == "ask":
                if self._ask_needed(op):
                    self.phase = op["phase"]
                    return
                self.queue.pop(0)
                continue
            self.queue.pop(0)
            self._op(op, ev)
        if self.outcome_ is not None:
            self.phase = "over"
            self.queue = []

    def _next_op(self) -> Op:
        """The operation at the front of the queue (a game may rewrite the queue first)."""
        return self.queue[0]

    def _ask_needed(self, op: Op) -> bool:
        """Whether an ask still needs an answer (``False``: it is dropped)."""
        return True

    def _op(self, op: Op, ev: list[dict[str, Any]]) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ moves
    def _legal_or_raise(self, move: object, move_type: type) -> set[Any]:
        """The legal moves, after refusing a non-move or a finished game."""
        if not isinstance(move, move_type):
            raise IllegalMoveError(f"not a move: {move!r}", code="bad_move")
        if self.outcome_ is not None:
            raise IllegalMoveError(
                "the game is over", code="game_over", details={"outcome": self.outcome_}
            )
        return set(self.generate_legal_moves())

    @property
    def outcome(self) -> dict[str, Any] | None:
        return self.outcome_
