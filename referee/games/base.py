"""The interface every rules module implements (python-chess style).

A rules module is a subpackage of :mod:`referee.games` whose ``__init__`` defines
``GAME``, a subclass of :class:`Game`. A :class:`Game` object *is* the game state
with the rules attached, like ``chess.Board``:

- ``legal_moves`` is a lazy view: ``move in game.legal_moves``, iteration,
  ``game.legal_moves.count()``;
- ``is_legal(move)`` is pure; ``check(move)`` raises :class:`IllegalMoveError`
  with a code, a message and details, and changes nothing;
- ``push(move)`` applies a legal move and returns the events, in order; on a
  rejected move it raises and leaves the state exactly as it was;
- ``to_json()`` / ``from_json()`` serialise the whole state, including the seeded
  random generator and the hash of the compiled board it belongs to, so a game
  replays bit for bit from seed and move log;
- ``figures()`` and ``move_targets()`` (optional) tell a frontend which pieces to
  draw where, and which legal moves take a figure to which node (click-to-play).

Moves are small hashable values whose ``str`` is the move's text and whose
``repr`` round-trips (``Move.parse(str(m)) == m``).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from ..compiler import CompiledBoard
from ..errors import IllegalMoveError, StateError

M = TypeVar("M")


@dataclass(frozen=True)
class WordMove:
    """A move written as words, verb first (``"roll aragorn ringbearer"``).

    Subclasses set ``verbs``; ``str`` is the text and :meth:`parse` reads it back.
    """

    words: tuple[str, ...]
    verbs: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return " ".join(self.words)

    @classmethod
    def parse(cls, text: str) -> WordMove:
        words = tuple(text.strip().lower().split())
        if not words or words[0] not in cls.verbs:
            raise IllegalMoveError(
                f"cannot read move {text!r} (verbs: {', '.join(cls.verbs)})",
                code="bad_move",
                details={"move": text},
            )
        return cls(words)


@dataclass(frozen=True)
class FigureView:
    """One piece on the board as a frontend should draw it (see :meth:`Game.figures`).

    Attributes
    ----------
    id : str
        Stable figure id (the key of :meth:`Game.figures` and :meth:`Game.move_targets`).
    node : str
        Compiled node id the figure stands on.
    label : str
        A short label to print on it (one to three characters).
    colour : str
        Fill colour, a CSS name or ``#rrggbb``.
    side : str
        The figure's side or team (``light``/``black``, ``hobbit``/``rider``, ...).
    owner : str or None
        The player whose figure it is; ``None`` for shared or neutral pieces.
    name : str
        The figure's name in the game's words (status lines, tooltips).
    size : int
        0 small, 1 medium, 2 large.
    """

    id: str
    node: str
    label: str
    colour: str = "#fafafa"
    side: str = ""
    owner: str | None = None
    name: str = ""
    size: int = 1


class LegalMoves(Generic[M]):
    """Lazy view of the legal moves of a game (like ``chess.Board.legal_moves``)."""

    def __init__(self, game: Game[M]) -> None:
        self._game = game

    def __iter__(self) -> Iterator[M]:
        return self._game.generate_legal_moves()

    def __contains__(self, move: object) -> bool:
        return self._game.is_legal(move)  # type: ignore[arg-type]

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def count(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(str(m) for m in self)})>"


class Game(ABC, Generic[M]):
    """Game state plus rules. Subclasses implement the abstract methods."""

    #: the rules name a board declares in ``meta.rules``
    rules: ClassVar[str]

    compiled: CompiledBoard

    # -------------------------------------------------------------- construction
    @classmethod
    @abstractmethod
    def new(
        cls,
        compiled: CompiledBoard,
        *,
        players: int,
        seed: int,
        options: dict[str, Any] | None = None,
    ) -> Game[M]:
        """Set up a new game on ``compiled`` (seeded)."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: dict[str, Any], compiled: CompiledBoard) -> Game[M]:
        """Rebuild a state; raise :class:`StateError` if it was made for another board."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (includes ``rules`` and ``board_hash``)."""

    # -------------------------------------------------------------- moves
    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Parse a move's text; raise :class:`IllegalMoveError` (code ``bad_move``)."""

    @abstractmethod
    def generate_legal_moves(self) -> Iterator[M]:
        """Yield every legal move of the player to move."""

    @abstractmethod
    def check(self, move: M) -> None:
        """Raise :class:`IllegalMoveError` explaining why ``move`` is illegal (pure)."""

    @abstractmethod
    def _apply(self, move: M) -> list[dict[str, Any]]:
        """Apply a move already checked legal; return the events in order."""

    @property
    @abstractmethod
    def outcome(self) -> dict[str, Any] | None:
        """``None`` while the game goes on, else e.g. ``{"result": "won", "winner": ...}``."""

    @property
    @abstractmethod
    def to_move(self) -> str:
        """Who is to move (a player name or colour)."""

    # -------------------------------------------------------------- shared
    @property
    def legal_moves(self) -> LegalMoves[M]:
        return LegalMoves(self)

    def is_legal(self, move: M) -> bool:
        try:
            self.check(move)
        except IllegalMoveError:
            return False
        return True

    def push(self, move: M) -> list[dict[str, Any]]:
        """Apply ``move``; raise :class:`IllegalMoveError` and change nothing if illegal."""
        self.check(move)
        snapshot = self.to_json()
        try:
            return self._apply(move)
        except BaseException:
            # a bug mid-apply must not leave a half-applied state behind
            restored = type(self).from_json(snapshot, self.compiled)
            self.__dict__.clear()
            self.__dict__.update(restored.__dict__)
            raise

    def view(self, player: str | None = None) -> dict[str, Any]:
        """What ``player`` may see of the state (``None``: any onlooker).

        Games with hidden information (hands, face-down cards) override this; the
        default shows everything, as for games of open information.
        """
        return self.to_json()

    @staticmethod
    def events_for(events: list[dict[str, Any]], viewer: str | None) -> list[dict[str, Any]]:
        """``events`` as ``viewer`` may see them (default: all of them)."""
        return events

    # -------------------------------------------------------------- frontends (optional)
    def figures(self) -> dict[str, FigureView]:
        """Every piece a frontend should draw, by figure id (default: none).

        Figures off the board (in Limbo, defeated, not yet placed) are left out.
        """
        return {}

    def move_destination(self, move: M) -> tuple[str, str] | None:
        """``(figure id, node id)`` when ``move`` puts a figure on a node, else ``None``.

        The figure id may name a figure not on the board (one entering it) or be ``""``
        for a move that puts something new on a node (a counter). Default: ``None``.
        """
        return None

    def move_targets(self) -> dict[str, dict[str, list[M]]]:
        """For the player to move: figure id -> destination node id -> the legal moves
        that go there (several when paths, cards or costs differ), in legal-move order.

        Derived from :meth:`move_destination` over :attr:`legal_moves`; a game may
        override it for speed. Moves that move no figure to a node are left out.
        """
        out: dict[str, dict[str, list[M]]] = {}
        for m in self.generate_legal_moves():
            dest = self.move_destination(m)
            if dest is not None:
                out.setdefault(dest[0], {}).setdefault(dest[1], []).append(m)
        return out

    def push_text(self, text: str) -> list[dict[str, Any]]:
        return self.push(self.parse_move(text))

    def copy(self) -> Game[M]:
        return type(self).from_json(self.to_json(), self.compiled)

    # -------------------------------------------------------------- field states
    #: For games whose state is a set of plain-JSON attributes: list them here and
    #: use :meth:`fields_to_json` / :meth:`fields_from_json` in ``to_json``/``from_json``.
    _FIELDS: ClassVar[tuple[str, ...]] = ()

    def fields_to_json(self, **extra: Any) -> dict[str, Any]:
        """``rules``, ``board_hash``, every attribute in ``_FIELDS``, ``extra`` and ``rng``.

        One ``json`` round trip makes a deep copy and proves the state is plain JSON.
        """
        data: dict[str, Any] = {"rules": self.rules, "board_hash": self.compiled.hash}
        for f in self._FIELDS:
            data[f] = getattr(self, f)
        data.update(extra)
        data["rng"] = self.rng.state  # type: ignore[attr-defined]
        return json.loads(json.dumps(data))  # type: ignore[no-any-return]

    def fields_from_json(
        self, data: Any, extra: Callable[[dict[str, Any]], None] | None = None
    ) -> None:
        """Set ``_FIELDS`` and the generator from ``data``, then call ``extra(data)``
        for the rest (on a copy).

        Raises :class:`StateError` for another game's state, another board's, or a
        malformed one.
        """
        from .rng import Rng

        if not isinstance(data, dict) or data.get("rules") != self.rules:
            raise StateError(f"not a {self.rules} state", code="wrong_rules")
        self.check_board(data)
        try:
            data = json.loads(json.dumps(data))
            for f in self._FIELDS:
                setattr(self, f, data[f])
            self.rng = Rng(int(data["rng"]))  # type: ignore[attr-defined]
            if extra is not None:
                extra(data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StateError(f"malformed {self.rules} state ({exc})") from None

    def check_board(self, data: dict[str, Any]) -> None:
        if data.get("board_hash") != self.compiled.hash:
            raise StateError(
                f"state was made for board {data.get('board_hash')!r}, not for this board "
                f"({self.compiled.hash})",
                code="wrong_board",
            )
