"""What a session shows of a game it holds, made once per ply and shared.

:class:`Held` is one game a :class:`~referee.session.Session` holds; what its
readers are shown — the snapshot of a seat or of a spectator, the legal moves, the
moves by figure and target, the figures and their drawing — is made here at most
once per ply (:func:`per_ply`) and handed to every reader as a :class:`Shared`
copy, whose encoding a transport keeps once for all of them. A reader that draws
nothing leaves out what only drawing uses (:data:`OMITTABLE`, :func:`omitted`), and
what no reader asks for is not made.

Layering: below :mod:`referee.session`, which holds the games and answers the
operations; above the games, :mod:`referee.pieces` and rendering.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .envelopes import AnyGame, guard_state
from .errors import RequestError
from .pieces import figure_dict, pieces_svg
from .render.board import figure_label_size

#: the parts of a snapshot a client may leave out (``omit``): what only a frontend that
#: draws the board uses
OMITTABLE = ("figures", "pieces", "targets")


def omitted(parts: object, name: str = "omit") -> frozenset[str]:
    """The parts of :data:`OMITTABLE` that ``parts`` (a list of their names) leaves
    out of a snapshot; ``name`` is how the request called it.

    Raises
    ------
    RequestError
        ``parts`` is not a list of names, or names something else.
    """
    if not isinstance(parts, list) or not all(isinstance(o, str) for o in parts):
        raise RequestError(f"{name} must be a list of " + ", ".join(OMITTABLE))
    wrong = [o for o in parts if o not in OMITTABLE]
    if wrong:
        raise RequestError(f"{name} names {', '.join(OMITTABLE)}, not {wrong[0][:40]!r}")
    return frozenset(parts)


@dataclass(eq=False)
class Held:
    """One game a session holds.

    ``env`` is its envelope (``state`` kept current after each move; the log's
    ``moves`` only where the session keeps the log in memory), ``ply`` the moves
    played, ``used`` and ``finished`` clock readings, ``owner`` and ``seats`` the
    token hashes of the owner and of each seat (empty for the local frontend).
    ``cache`` holds what was computed for the game as it stands (see
    :func:`per_ply`).
    """

    id: str
    game: AnyGame
    env: dict[str, Any]
    ply: int = 0
    used: float = 0.0
    finished: float | None = None
    owner: str | None = None
    seats: dict[str, str] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    creator: str = ""
    cache: dict[Any, Any] = field(default_factory=dict, repr=False)
    #: the figures' smallest label by tile turns (:func:`label_size`)
    labels: dict[tuple[tuple[str, int], ...], float] = field(default_factory=dict, repr=False)
    cache_at: tuple[int, Any] | None = field(default=None, repr=False)

    @property
    def rules(self) -> str:
        return str(self.env["rules"])

    @property
    def project(self) -> str:
        return str(self.env["project"])


class Shared(dict[str, Any]):
    """An answer made once per ply and handed to every reader of it (a copy of the
    cached one): ``memo`` is where a transport keeps its encoding, shared by all
    those copies. Changing the copy (any of its keys) drops the memo, so an answer
    a caller changed is encoded afresh."""

    __slots__ = ("memo",)

    def __init__(self, data: Mapping[str, Any], memo: dict[str, Any]) -> None:
        super().__init__(data)
        self.memo: dict[str, Any] | None = memo

    def _changed(self) -> None:
        self.memo = None

    def __setitem__(self, key: str, value: Any) -> None:
        self._changed()
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        self._changed()
        super().__delitem__(key)

    def __ior__(self, other: Any) -> Shared:  # type: ignore[override,misc]
        self._changed()
        return super().__ior__(other)

    def update(self, *args: Any, **kw: Any) -> None:
        self._changed()
        super().update(*args, **kw)

    def pop(self, *args: Any) -> Any:
        self._changed()
        return super().pop(*args)

    def popitem(self) -> tuple[str, Any]:
        self._changed()
        return super().popitem()

    def setdefault(self, key: str, default: Any = None) -> Any:
        self._changed()
        return super().setdefault(key, default)

    def clear(self) -> None:
        self._changed()
        super().clear()


def status(held: Held) -> dict[str, Any]:
    g = held.game
    with guard_state("request"):
        outcome = g.outcome
        return {
            "ply": held.ply,
            "to_move": None if outcome is not None else g.to_move,
            "outcome": None if outcome is None else outcome.to_json(),
        }


def per_ply(held: Held) -> dict[Any, Any]:
    """What was computed for ``held`` as it stands now: views, legal moves,
    figures, shared by every reader until the game moves on (a new ply, or the
    game put back after a failed move, empties it)."""
    at = held.cache_at
    if at is None or at[0] != held.ply or at[1] is not held.game:
        held.cache.clear()
        held.cache_at = (held.ply, held.game)
    return held.cache


def label_size(held: Held) -> float:
    """:func:`~referee.render.figure_label_size` of ``held``'s game, once per set of
    tile turns (it reads the compiled board, which a game whose tiles turn must
    turn to its own turns first)."""
    g = held.game
    key = tuple(sorted(g.board_turns().items()))
    got = held.labels.get(key)
    if got is None:
        if len(held.labels) >= 64:
            held.labels.clear()
        got = held.labels[key] = figure_label_size(g)
    return got


def legal_now(held: Held) -> list[str]:
    """The legal moves of the player to move, computed once per ply."""
    cache = per_ply(held)
    got = cache.get("legal")
    if got is None:
        with guard_state("request"):
            got = cache["legal"] = [str(m) for m in held.game.legal_moves]
    return got


def targets_now(held: Held) -> dict[str, dict[str, list[str]]]:
    """The legal moves by figure and target node (``move_targets``), computed once
    per ply."""
    cache = per_ply(held)
    got = cache.get("targets")
    if got is None:
        with guard_state("request"):
            got = cache["targets"] = {
                fig: {node: [str(m) for m in ms] for node, ms in nodes.items()}
                for fig, nodes in held.game.move_targets().items()
            }
    return got


def snapshot(
    held: Held,
    viewer: str | None,
    everything: bool,
    omit: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """The game as ``viewer`` may see it, with its legal moves when it is to move.

    ``omit``: parts of :data:`OMITTABLE` to leave out — what only a frontend that
    draws the board uses (the figures, the figures drawn as SVG, the moves by
    figure and target node): a bot asks for none of it, and what nobody asks
    for is not made.

    Computed once per ply and viewer: every reader of the same seat (or every
    spectator) shares it (see :func:`per_ply`)."""
    cache = per_ply(held)
    key = ("snapshot", viewer, everything, omit)
    out = cache.get(key)
    if out is not None:
        return Shared(out, cache[("encoded", *key)])
    g = held.game
    st = status(held)
    with guard_state("request"):
        out = {
            "game": held.id,
            "rules": held.rules,
            "project": held.project,
            "seats": list(g.players),
            "you": viewer,
            **st,
            "view": g.view(viewer),
        }
        if not {"figures", "pieces"} <= omit:
            figures = cache.get("figures")
            if figures is None:
                views = list(g.figures().values())
                figures = cache["figures"] = (views, [figure_dict(v) for v in views])
            if "figures" not in omit:
                out["figures"] = figures[1]
            if "pieces" not in omit:
                drawn = cache.get("pieces")
                if drawn is None:
                    label = label_size(held)
                    drawn = cache["pieces"] = pieces_svg(g, figures[0], label)
                out["pieces"] = drawn
    if st["to_move"] is not None and (everything or st["to_move"] == viewer):
        out["moves"] = legal_now(held)
        if "targets" not in omit:
            out["targets"] = targets_now(held)
    cache[key] = out
    memo: dict[str, Any] = {}
    cache[("encoded", *key)] = memo
    return Shared(out, memo)
