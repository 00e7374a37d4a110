"""What Ringgeister's rule helpers read and change of a game: the :class:`Ringgeister`
protocol.

The helpers (:mod:`.legality`, :mod:`.turn`, :mod:`.black`, :mod:`.turning`,
:mod:`.search`, :mod:`.explain`, :mod:`.evaluate`, :mod:`.frontend`, :mod:`.state`,
:mod:`.worlds`) take the game as this protocol, never as
:class:`~.game.RinggeisterGame` itself: the game module imports them, and they
import nothing above this module, so the package has no import circle (issue 26).
:class:`~.game.RinggeisterGame` is the one class that has these members.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal, Protocol, Self

from ...compiler import CompiledBoard
from ..events import Event, EventMaker
from ..outcome import Outcome
from ..rng import Rng
from .moves import Move
from .pieces import Card, FigureSpec
from .view import BoardView

__all__ = ["Phase", "Ringgeister"]

#: the phases of a Ringgeister game (the keys of ``RinggeisterGame.PHASES``)
Phase = Literal["counters", "play", "over"]


class Ringgeister(EventMaker, Protocol):
    """A Ringgeister game as the rule helpers see it (see :class:`~.game.RinggeisterGame`
    for what each member means)."""

    # the kit's
    players: list[str]
    options: dict[str, Any]
    rng: Rng
    setup_events: list[Event]
    compiled: CompiledBoard

    # the board and the figures, derived at set-up
    v: BoardView
    specs: list[FigureSpec]
    fidx: dict[str, int]
    cards: dict[str, Card]
    black_figs: list[int]
    gollum: int
    own: dict[str, list[int]]
    gandalfs: list[int]
    light: list[bool]
    small: list[bool]

    # the state
    seed: int
    pos: list[int]
    occ: list[int]
    face_up: str
    pile: list[str]
    discard: list[str]
    counters: list[dict[str, Any]]
    phase: Phase
    player: int
    moved: list[str]
    pending: list[tuple[str, str]]
    _outcome: Outcome | None
    ply: int
    tile_turns: dict[str, int]
    _version: int
    _dest_cache: dict[Any, Any]

    @property
    def card(self) -> Card: ...
    @property
    def ringbearer(self) -> str: ...
    @property
    def to_move(self) -> str: ...

    def copy(self) -> Self: ...
    def generate_legal_moves(self) -> Iterator[Move]: ...

    def _claim(self, force: bool = False) -> None: ...
    def _bump(self) -> None: ...
    def _put(self, f: int, p: int) -> None: ...
    def _lift(self, f: int) -> None: ...
    def _card_text(self, c: Card | None = None) -> str: ...
    def _is_ringbearer(self, f: int) -> bool: ...
    def _where(self, i: int) -> str: ...
    def _counters_left(self, colour: str) -> int: ...
    def _chooser_for(self, f: int) -> str: ...
    def _movable(self) -> list[int]: ...
    def _fresh_counters(self) -> list[dict[str, Any]]: ...
    def _counter_order(self) -> list[dict[str, Any]]: ...
    def _taken_spaces(self) -> set[str]: ...
    def _turn_tile(
        self, pid: str, cause: str, events: list[Event], refresh: bool = True
    ) -> None: ...
