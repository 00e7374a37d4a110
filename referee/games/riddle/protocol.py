"""What Riddle of the Ring's rule helpers read and change of a game: the
:class:`Riddle` protocol.

The helpers (:mod:`.flow`, :mod:`.travel`, :mod:`.exchanges`, :mod:`.power_plays`,
:mod:`.battles`, :mod:`.secret_spots`, :mod:`.verbs`, :mod:`.events`, :mod:`.views`,
:mod:`.checks`, :mod:`.positions`, :mod:`.setup`, :mod:`.determinize`,
:mod:`.evaluate`) take the game as this protocol, never as
:class:`~.game.RiddleGame` itself: the game module imports them, and they import
nothing above this module, so the package has no import circle (issue 26).
:class:`~.game.RiddleGame` is the one class that has these members.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Protocol, Self

from ...compiler import CompiledBoard
from ..events import Event
from ..outcome import Outcome
from ..rng import Rng
from .cards import Deck
from .common import BoardInfo
from .moves import Move
from .state import Player, Reveal, SideState, TurnState

__all__ = ["Riddle"]


class Riddle(Protocol):
    """A Riddle of the Ring game as the rule helpers see it (see
    :class:`~.game.RiddleGame` for what each member means)."""

    # the kit's
    rules: ClassVar[str]
    STATE_VERSION: ClassVar[int]
    players: list[str]
    options: dict[str, Any]
    rng: Rng
    setup_events: list[Event]
    compiled: CompiledBoard

    # the board's tables, set by blank()
    cache_paths: ClassVar[bool]
    opts: dict[str, Any]
    deck: Deck
    info: BoardInfo
    mv: Any

    # the state
    seats: list[Player]
    draw_pile: list[str]
    discard_pile: list[str]
    hidden: dict[str, dict[str, list[str]]]
    cur: int
    turn_no: int
    round_no: int
    phase: str
    t: TurnState
    sub: dict[str, Any] | None
    result: Outcome | None
    seen: dict[str, list[Reveal]]
    order: list[str]
    sides: dict[str, SideState]
    side_turn: str | None
    _by: dict[str, Player]

    @classmethod
    def blank(
        cls, compiled: CompiledBoard, players: Sequence[str], options: dict[str, Any]
    ) -> Self: ...
    @classmethod
    def parse_options(cls, options: Mapping[str, Any] | None) -> dict[str, Any]: ...
    @classmethod
    def from_json(cls, data: dict[str, Any], compiled: CompiledBoard) -> Self: ...

    @property
    def me(self) -> Player: ...
    @property
    def to_move(self) -> str: ...
    @property
    def acting(self) -> str: ...

    def copy(self) -> Self: ...
    def view(self, player: str | None = None) -> dict[str, Any]: ...
    def event(
        self,
        name: str,
        /,
        *,
        private: Sequence[str] | None = None,
        public: Mapping[str, Any] | None = None,
        words: Mapping[str, Any] | None = None,
        **fields: Any,
    ) -> Event: ...

    def player(self, name: str) -> Player: ...
    def ctype(self, card: str) -> Any: ...
    def _index(self) -> None: ...
    def _majority_kind(self) -> str | None: ...
    def _rand(self, n: int) -> int: ...
    def _die(self) -> int: ...
    def _shuffle(self, cards: list[str]) -> None: ...
    def _in_hand(self, p: Player, card: str) -> Any: ...
    def _usable(self, p: Player, card: str, use_name: str) -> dict[str, Any]: ...
    def _cards_with(self, p: Player, use_name: str) -> list[str]: ...
    def _hand_uses(self, p: Player) -> dict[str, list[str]]: ...
    def _after(self, p: Player, card: str, after: str) -> None: ...
    def _beside(self, node: str) -> frozenset[str]: ...
    def _near(self, a: str | None, b: str | None) -> bool: ...
    def _reachable(self, p: Player) -> bool: ...
    def _on_board(self, p: Player) -> bool: ...
    def _team(self, a: Player, b: Player) -> bool: ...
    def _kinds_on_table(self, p: Player) -> set[str]: ...
    def _hand_kinds(self, p: Player) -> dict[str, str]: ...
    def _draw_cards(self, n: int) -> list[str]: ...
    def _take_random(self, src: Player, dst: Player) -> str | None: ...
    def _reveal(self, viewer: Player, of: str, cards: list[str], how: str) -> dict[str, Any]: ...
    def _city_of(self, node: str | None) -> str | None: ...
    def _node(self, name: str) -> str: ...
    def _apply(self, move: Move) -> list[dict[str, Any]]: ...
    def _ok(self, m: Move) -> bool: ...
    def _if_ok(self, m: Move) -> Iterator[Move]: ...
