"""The game kit: the interface every rules module implements (python-chess style).

A :class:`Game` object *is* the game state with the rules attached, like
``chess.Board``. See ``docs/game-kit.md`` for a walk-through; in short:

- **The turn is the kit's.** ``legal_moves`` is a lazy view (``move in
  game.legal_moves``, iteration, ``.count()``); ``is_legal(move)`` is pure;
  ``check(move)`` raises :class:`IllegalMoveError` (code, message, details) and
  changes nothing; ``push(move)`` applies a legal move and returns the events.
  Both are sealed: :meth:`Game.check` refuses a move of a finished game, a value
  of another move type and a verb the current phase does not allow
  (:attr:`Game.PHASES`), then asks the game's :meth:`Game._check`;
  :meth:`Game.push` checks, keeps a :meth:`Game.copy`, applies the game's
  :meth:`Game._apply` and, should applying fail half way, restores the copy
  (:meth:`Game._restore`): a rejected or failed move leaves the state exactly as
  it was.
- **Moves** are :class:`~referee.games.moves.Move` values (``str`` is the text,
  ``Move.parse`` and ``repr`` round-trip); a game subclasses it with its ``VERBS``
  and names it in ``MOVE``.
- **Events** are ``{"type", "text", ...}`` with an optional ``private`` audience
  (:mod:`referee.games.events`), built by :meth:`Game.event` from the game's
  templates (:attr:`Game.EVENTS`); :meth:`Game.events_for` filters them per viewer.
- **Views**: :meth:`Game.view` is what a player may see: the game's
  :meth:`Game.dump_view` hook (default: the whole state) without the random
  generator, which the kit keeps out of every view (:data:`GENERATOR_KEYS`).
- **Options** are declared once in ``OPTIONS`` (:mod:`referee.games.options`) and
  parsed by :meth:`Game.new` before the game's :meth:`Game.setup` sees them.
- **The outcome** is ``None`` or an :class:`~referee.games.outcome.Outcome` (result,
  winners, reason, fields of the game's own); build it with :func:`won`,
  :func:`lost`, :func:`draw`.
- **Dice**: a game rolls its dice with ``rng.die()`` and declares their faces
  (:attr:`Game.DIE_FACES`, or :meth:`Game.die_faces`) and the order it rolls them
  in (:attr:`Game.DICE_ORDER`); the kit refuses fixed dice no die shows.
- **Blind draws**: a game takes a card at random from a hand or a face-down heap
  with :meth:`Game.blind_draw`, so that a position's ``draws`` can fix which card it
  takes (:attr:`Game.DRAW_ORDER` says which draws, in what order; the game reads
  the names a draw may be written with in :meth:`Game.read_draw`).
- **Declared state**: a game names a dataclass in ``STATE`` and implements
  :meth:`Game.dump_state` / :meth:`Game.load_state`; the kit writes ``to_json``
  (rules, version, board hash, players, options, generator, fixed dice, state),
  reads ``from_json`` (structure checked by the declaration, meaning by
  :meth:`Game.validate`, refusing with ``StateError`` code ``bad_state``), upgrades
  old files through :meth:`Game.migrate`, and generates :meth:`Game.state_schema`.
- **Positions** (the FEN of this project): a game names a dataclass in
  ``POSITION`` and implements :meth:`Game.dump_position` /
  :meth:`Game.load_position`; the kit gives :meth:`Game.from_position`,
  :meth:`Game.position` and :meth:`Game.position_schema`.
- **Board names**: :meth:`Game.board_names` lists the names the rulebook gives the
  board's places (``referee board-names``).
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypeVar, final

from ..compiler import CompiledBoard
from ..errors import BoardError, IllegalMoveError, StateError, UsageError
from ..vocabulary import FigureView
from . import state as declared
from .events import _KEYWORD_ARGS, Event, Fill, compile_template, visible
from .events import build as build_event
from .moves import Move
from .options import Option, option_schema, parse_options
from .outcome import Outcome, draw, lost, won
from .rng import Rng

M = TypeVar("M")

__all__ = [
    "GENERATOR_KEYS",
    "BoardName",
    "CannotDeterminise",
    "Event",
    "Game",
    "LegalMoves",
    "Move",
    "Option",
    "Outcome",
    "draw",
    "lost",
    "won",
]

#: keys of a position that belong to the kit, not to the game's ``POSITION``
POSITION_FRAME = ("rules", "players", "options", "rng", "seed", "dice", "draws")
#: the kit's keys for the random generator (its state, the fixed dice and draws to
#: come): they foretell every die, shuffle and blind draw, so :meth:`Game.view` never
#: shows them
GENERATOR_KEYS = frozenset({"rng", "dice", "draws"})
#: the verbs of a phase the game's table does not list
_NO_VERBS: frozenset[str] = frozenset()


class CannotDeterminise(Exception):
    """:meth:`Game.determinise` cannot rebuild a playable state from what the player
    sees (an activity whose details only the referee has); bots then decide without
    search."""


@dataclass(frozen=True)
class BoardName:
    """A name the rulebook gives a place of the board (see :meth:`Game.board_names`).

    Attributes
    ----------
    name : str
        The name as a player reads it in the rulebook or on the board (``"grey
        point 12"``, ``"Rivendell"``, ``"resolve 3"``).
    id : str
        What the game's positions and moves write for it (a compiled node id,
        a space id, a track step).
    kind : str
        What sort of place it is, in the game's words (``"point"``, ``"counter space"``).
    note : str
        Anything a position's author should know (how the rulebook counts it).
    """

    name: str
    id: str
    kind: str = ""
    note: str = ""


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


# ====================================================================== the game
class Game(ABC, Generic[M]):
    """Game state plus rules. See the module docstring and ``docs/game-kit.md``.

    Class attributes a game sets
    ----------------------------
    rules : str
        The rules name a board declares in ``meta.rules`` (``"ringgeister"``).
    title : str
        The game's name for people.
    PLAYERS : tuple of int
        Least and most players (inclusive); :meth:`new` refuses other counts.
    OPTIONS : tuple of Option
        The game's options (:mod:`referee.games.options`).
    MOVE : type of Move
        The game's move class (a :class:`~referee.games.moves.Move` subclass).
    STATE, POSITION : dataclass types
        The declared state and position (:mod:`referee.games.state`).
    STATE_VERSION : int
        Version of the state format; older files go through :meth:`migrate`.
    cooperative : bool
        Whether all the players win or lose together (bots then share one reward).
    MCTS : dict
        The ``mcts`` bot's settings this game plays best with (``iterations``,
        ``rollout``, ``exploration``, ``worlds``, ``widen``); a spec's own parameters
        win (``referee.bots.mcts``). Empty: the bot's defaults.
    PHASES : mapping of str to frozenset of str
        Phase -> the verbs a move may have in it (the kit refuses any other verb
        before :meth:`_check` runs, code ``wrong_phase``). The game keeps the
        current phase in :attr:`phase`; a finished game's phase allows nothing.
    EVENTS : mapping of str to str
        Template name -> text template (:func:`referee.games.events.event`), for
        :meth:`event`: the name is the event's type, or ``type.variant`` when one
        type is told in several sentences (``"wind.nobody"``).
    DIE_FACES : int
        The faces of the game's die: fixed dice (a position's or a state's
        ``dice``) are whole numbers from 1 to this; 0 when the game rolls no dice
        (no fixed dice then). :meth:`die_faces` may read the options or the board.
    DICE_ORDER : str
        In what order the game rolls its dice, for people who fix them in a
        position (printed by ``referee schema position RULES``).
    DRAW_ORDER : str
        Which blind draws the game makes (a card taken at random from a hand or a
        face-down heap, :meth:`blind_draw`) and in what order they take a
        position's fixed ``draws``; empty: the game makes none (its random cards
        are the tops of piles a position lists), and ``draws`` are refused.
    """

    rules: ClassVar[str]
    title: ClassVar[str] = ""
    PLAYERS: ClassVar[tuple[int, int]] = (1, 8)
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    MOVE: ClassVar[type[Move]] = Move
    STATE: ClassVar[type | None] = None
    POSITION: ClassVar[type | None] = None
    STATE_VERSION: ClassVar[int] = 1
    cooperative: ClassVar[bool] = False
    MCTS: ClassVar[dict[str, int | float]] = {}
    PHASES: ClassVar[Mapping[str, frozenset[str]]] = {}
    EVENTS: ClassVar[Mapping[str, str]] = {}
    DIE_FACES: ClassVar[int] = 6
    DICE_ORDER: ClassVar[str] = ""
    DRAW_ORDER: ClassVar[str] = ""

    compiled: CompiledBoard
    #: the players' names, in turn order (colours, seats: what ``to_move`` returns)
    players: list[str]
    #: the options, parsed (every name of ``OPTIONS`` present)
    options: dict[str, Any]
    #: the seeded generator (all randomness of the game goes through it)
    rng: Rng
    #: what happened while setting up (cards turned, figures placed)
    setup_events: list[Event]
    #: the current phase, a key of :attr:`PHASES` (an attribute or a property of the game)
    phase: str
    #: template name -> (event type, compiled text), made from :attr:`EVENTS`
    _EVENT_FILLS: ClassVar[dict[str, tuple[str, Fill]]] = {}

    #: the kit's sealed methods, and the hook a game overrides instead
    _SEALED: ClassVar[dict[str, str]] = {
        "view": "override dump_view() instead (Game.view() keeps the random generator "
        "out of every view)",
        "push": "override _apply() (and _restore() for caches) instead (Game.push() "
        "checks, keeps a copy and restores it if applying fails)",
        "check": "override _check() instead (Game.check() refuses a finished game, "
        "another move type and a verb the phase does not allow first)",
    }

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Refuse a game class that defines a sealed method (``view``, ``push``,
        ``check``: the kit's, see :data:`_SEALED`), or whose :attr:`PHASES` name a
        verb its :attr:`MOVE` cannot read."""
        super().__init_subclass__(**kwargs)
        # event type and compiled text of every template name (Game.event)
        cls._EVENT_FILLS = {
            name: (name.partition(".")[0], compile_template(text))
            for name, text in cls.EVENTS.items()
        }
        for name, instead in Game._SEALED.items():
            if name in cls.__dict__:
                raise TypeError(f"{cls.__qualname__} defines {name}(): {instead}")
        verbs = cls.MOVE.VERBS
        if verbs and "PHASES" in cls.__dict__:
            for phase, allowed in cls.PHASES.items():
                unknown = sorted(set(allowed) - set(verbs))
                if unknown:
                    raise TypeError(
                        f"{cls.__qualname__}.PHASES[{phase!r}] names verb {unknown[0]!r}, "
                        f"which {cls.MOVE.__name__} does not read"
                    )

    # ================================================================== construction
    @classmethod
    def new(
        cls,
        compiled: CompiledBoard,
        *,
        players: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
    ) -> Self:
        """Set up a new game on ``compiled`` (seeded).

        The kit checks the board's declared rules and the player count, parses the
        options against ``OPTIONS``, then calls :meth:`setup`.

        Raises
        ------
        UsageError
            Another player count, an unknown option or a bad option value (one line).
        BoardError
            The board declares other rules, or the game cannot be set up on it.
        """
        cls.check_board_rules(compiled)
        n = cls.check_players(players)
        opts = cls.parse_options(options)
        return cls.setup(compiled, n, int(seed), opts)

    @classmethod
    def setup(
        cls, compiled: CompiledBoard, players: int, seed: int, options: dict[str, Any]
    ) -> Self:
        """Hook: set up a game (options already parsed). Kit games implement this."""
        raise NotImplementedError(f"{cls.__name__} implements neither new() nor setup()")

    @classmethod
    def blank(
        cls, compiled: CompiledBoard, players: Sequence[str], options: dict[str, Any]
    ) -> Self:
        """Hook: an empty game object (no figures, no cards) that :meth:`load_state` or
        :meth:`load_position` then fills. Override to build derived tables; call
        ``super().blank(...)`` first.

        Raises
        ------
        StateError
            ``players`` are not players this game can have (code ``bad_state``).
        """
        g = cls.__new__(cls)
        g.compiled = compiled
        g.players = list(players)
        g.options = dict(options)
        g.rng = Rng(0)
        g.setup_events = []
        return g

    @classmethod
    def check_board_rules(cls, compiled: CompiledBoard) -> None:
        """Refuse a board that declares other rules (code ``wrong_rules``)."""
        declared_rules = compiled.board.rules
        if declared_rules not in (None, "", cls.rules):
            raise BoardError(
                f"board declares rules {declared_rules!r}, not {cls.rules}", code="wrong_rules"
            )

    @classmethod
    def check_players(cls, players: Any) -> int:
        """``players`` as a count within ``PLAYERS``, else a one-line :class:`UsageError`."""
        lo, hi = cls.PLAYERS
        if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
            span = str(lo) if lo == hi else f"{lo} to {hi}"
            raise UsageError(
                f"{cls.title or cls.rules} is played by {span} players, not {players!r}",
                code="bad_players",
            )
        return players

    @classmethod
    def parse_options(cls, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Every option of ``OPTIONS``, given or default, validated (one-line errors)."""
        return parse_options(cls.OPTIONS, options, cls.rules)

    @classmethod
    def options_schema(cls) -> dict[str, Any]:
        """The game's options as a JSON Schema."""
        return option_schema(cls.OPTIONS)

    # ================================================================== declared state
    def dump_state(self) -> Any:
        """Hook: the state as an instance of ``STATE`` (kit games implement it)."""
        raise NotImplementedError(f"{type(self).__name__} declares no STATE")

    def load_state(self, state: Any) -> None:
        """Hook: fill a :meth:`blank` game from a structurally valid ``STATE``.

        Raise :class:`StateError` (``bad_state``) for what cannot even be placed (an
        unknown node id); everything else is judged by :meth:`validate` afterwards.
        """
        raise NotImplementedError(f"{type(self).__name__} declares no STATE")

    def validate(self) -> list[str]:
        """Hook: what is wrong with this state's *meaning* (empty: nothing).

        Called after loading a state or a position. The default is
        :meth:`invariants`; games add checks a loaded state can break but play
        cannot (an unknown card, an index out of range).
        """
        return self.invariants()

    @classmethod
    def migrate(cls, data: dict[str, Any], version: int) -> dict[str, Any]:
        """Hook: upgrade a state file of an older ``version`` to ``STATE_VERSION``.

        The default refuses (code ``bad_state``).
        """
        raise StateError(
            f"{cls.rules} state version {version!r} is not supported "
            f"(this referee reads {cls.STATE_VERSION})",
            code="bad_state",
        )

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data.

        ``{"rules", "version", "board_hash", "players", "options", "rng", "dice",
        "state": {...}}`` — ``state`` is the game's ``STATE`` (see
        :meth:`state_schema`).
        """
        return {
            "rules": self.rules,
            "version": self.STATE_VERSION,
            "board_hash": self.board_hash,
            "players": list(self.players),
            "options": dict(self.options),
            "rng": self.rng.state,
            "dice": list(self.rng.fixed),
            **({"draws": list(self.rng.draws)} if self.rng.draws else {}),
            "state": declared.encode(self.dump_state()),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], compiled: CompiledBoard) -> Self:
        """Rebuild a state written by :meth:`to_json`.

        Raises
        ------
        StateError
            ``wrong_rules`` (another game's), ``wrong_board`` (another board's),
            ``bad_state`` (malformed, or breaking the rules: one line saying where).
        """
        if cls.STATE is None:
            raise NotImplementedError(f"{cls.__name__} declares no STATE")
        if not isinstance(data, dict):
            raise StateError(f"a {cls.rules} state must be a JSON object", code="bad_state")
        if data.get("rules") != cls.rules:
            raise StateError(
                f"state is for rules {data.get('rules')!r}, not {cls.rules}", code="wrong_rules"
            )
        if data.get("board_hash") != compiled.hash:
            raise StateError(
                f"state was made for board {data.get('board_hash')!r}, not for this board "
                f"({compiled.hash})",
                code="wrong_board",
            )
        version = data.get("version")
        if version != cls.STATE_VERSION:
            data = cls.migrate(data, version if isinstance(version, int) else -1)
        frame = declared.decode(_StateFrame, {k: v for k, v in data.items() if k != "state"})
        if "state" not in data:
            raise StateError(f"{cls.rules} state has no 'state'", code="bad_state")
        st: Any = declared.decode(cls.STATE, data["state"], "state")
        g = cls.blank(compiled, frame.players, cls.parse_state_options(frame.options))
        g._refuse_dice(frame.dice, "dice")
        g.rng = Rng(frame.rng, frame.dice, g._read_draws(frame.draws, "draws"))
        g.load_state(st)
        g._refuse_invalid("state")
        return g

    @classmethod
    def parse_state_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """Options read from a file: as :meth:`parse_options`, refusing with ``bad_state``."""
        try:
            return cls.parse_options(options)
        except UsageError as exc:
            raise StateError(str(exc), code="bad_state") from None

    def die_faces(self) -> int:
        """Hook: the faces of this game's die (default :attr:`DIE_FACES`; a game whose
        die depends on its options or board overrides it). 0: it rolls no dice."""
        return self.DIE_FACES

    def _refuse_dice(self, dice: Sequence[int], where: str) -> None:
        """Refuse fixed dice no die of this game shows, in one line naming the die."""
        faces = self.die_faces()
        if dice and faces <= 0:
            raise StateError(
                f"{where}: {self.title or self.rules} rolls no dice, so none can be fixed",
                code="bad_state",
            )
        for k, die in enumerate(dice):
            if not 1 <= die <= faces:
                raise StateError(
                    f"{where}[{k}]: {die} is no face of the die (1 to {faces})",
                    code="bad_state",
                )

    def _read_draws(self, draws: Sequence[str], where: str) -> list[str]:
        """Fixed draws as the game names them (:meth:`read_draw`); refused in one
        line naming ``where[k]`` when the game makes no blind draws or a card is
        none of the game's."""
        if draws and not self.DRAW_ORDER:
            raise StateError(
                f"{where}: {self.title or self.rules} makes no blind draws (the cards it "
                "deals at random are the tops of piles: list them), so none can be fixed",
                code="bad_state",
            )
        return [self.read_draw(d, f"{where}[{k}]") for k, d in enumerate(draws)]

    def _refuse_first_draw(self, where: str) -> None:
        """Refuse a first fixed draw the next blind draw cannot take, when the game
        is at one (:meth:`next_draw_from`), in one line naming ``where``."""
        source = self.next_draw_from() if self.rng.draws else None
        if source is None:
            return
        cards, whose = source
        want = self.rng.draws[0]
        if not any(self.draw_matches(c, want) for c in cards):
            raise StateError(
                f"{where}: {want!r} is not in {whose}, which the next blind draw takes "
                f"from ({', '.join(sorted(cards)) or 'nothing'})",
                code="bad_state",
            )

    def next_draw_from(self) -> tuple[list[str], str] | None:
        """Hook: when the game is at a blind draw (the next move that draws, if any,
        draws from these), the cards it draws from and whose they are ("sam's
        hand"), so that a position's first fixed draw is checked on loading;
        ``None`` (the default): not known yet."""
        return None

    def read_draw(self, value: str, where: str) -> str:
        """Hook: the card a fixed draw ``value`` names, as :meth:`draw_matches`
        compares it (default: as written); raise ``StateError`` (``bad_state``)
        naming ``where`` for a card the game does not have."""
        return value

    def draw_matches(self, card: str, draw: str) -> bool:
        """Hook: whether ``card`` (an item :meth:`blind_draw` draws from) is the
        fixed draw ``draw`` (as :meth:`read_draw` returned it; default: equal)."""
        return card == draw

    def blind_draw(self, cards: Sequence[str], source: str) -> int:
        """The index of the card a blind draw takes from ``cards`` (a hand, a
        face-down heap; not empty): the first fixed draw (a position's ``draws``)
        when there is one, else one drawn from the generator.

        Raises
        ------
        IllegalMoveError
            Code ``fixed_draw``: the next fixed draw is not among ``cards``
            (``source`` says whose they are: "sam's hand"); the move that draws is
            refused, naming ``draws[0]`` as a position of the game now writes it.
        """
        if not self.rng.draws:
            return self.rng.below(len(cards))
        want = self.rng.draws[0]
        for i, c in enumerate(cards):
            if self.draw_matches(c, want):
                self.rng.draws.pop(0)
                return i
        # the refusal goes to the mover, who may not see ``source``: name no card of it
        raise IllegalMoveError(
            f"draws[0]: the next fixed draw {want!r} is not in {source}: fix a card of {source}",
            code="fixed_draw",
            details={"draw": want, "from": source},
        )

    def _refuse_invalid(self, what: str) -> None:
        problems = self.validate()
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise StateError(
                f"impossible {self.rules} {what}: {problems[0]}{more}", code="bad_state"
            )

    @classmethod
    def state_schema(cls) -> dict[str, Any]:
        """JSON Schema of :meth:`to_json`, generated from ``STATE``."""
        if cls.STATE is None:
            raise NotImplementedError(f"{cls.__name__} declares no STATE")
        out = declared.schema(cls.STATE, f"{cls.rules} state")
        inner = {k: v for k, v in out.items() if k not in ("$schema", "$defs", "title")}
        frame = declared.schema(_StateFrame)
        props = dict(frame["properties"])
        props["rules"] = {**props["rules"], "const": cls.rules}
        props["version"] = {**props["version"], "const": cls.STATE_VERSION}
        props["options"] = {
            **option_schema(cls.OPTIONS),
            "description": props["options"]["description"],
        }
        props["dice"] = cls.dice_schema()
        props["state"] = {
            **inner,
            "description": inner.get("description") or f"the state of the {cls.rules} game",
        }
        result: dict[str, Any] = {
            "$schema": out["$schema"],
            "title": f"{cls.rules} game state",
            "type": "object",
            "properties": props,
            "required": [*frame["required"], "state"],
            "additionalProperties": False,
        }
        if "$defs" in out:
            result["$defs"] = out["$defs"]
        return result

    # ================================================================== positions
    def dump_position(self) -> Any:
        """Hook: the situation as an instance of ``POSITION``."""
        raise NotImplementedError(f"{type(self).__name__} declares no POSITION")

    def load_position(self, position: Any) -> None:
        """Hook: fill a :meth:`blank` game from a structurally valid ``POSITION``."""
        raise NotImplementedError(f"{type(self).__name__} declares no POSITION")

    @classmethod
    def from_position(cls, compiled: CompiledBoard, position: Mapping[str, Any]) -> Self:
        """Set up the situation ``position`` describes (see ``docs/game-kit.md``).

        The frame keys are the kit's: ``players`` (names in turn order),
        ``options``, ``rng`` (a generator state) or ``seed``, and ``dice`` (the next
        die rolls, for tests); ``rules`` is optional. Every other key is the game's
        ``POSITION``.

        Raises
        ------
        StateError
            Code ``bad_state`` with one line: a malformed position, or one that
            breaks the rules (two figures on one point, an unknown node...).
        """
        if cls.POSITION is None:
            raise NotImplementedError(f"{cls.__name__} declares no POSITION")
        if not isinstance(position, Mapping):
            raise StateError(f"a {cls.rules} position must be a JSON object", code="bad_state")
        try:
            return cls._from_position(compiled, position)
        except StateError as exc:
            raise _one_line(exc) from None

    @classmethod
    def _from_position(cls, compiled: CompiledBoard, position: Mapping[str, Any]) -> Self:
        """:meth:`from_position` once the position is a mapping."""
        cls.check_board_rules(compiled)
        frame_data = {k: v for k, v in position.items() if k in POSITION_FRAME}
        frame = declared.decode(_PositionFrame, frame_data, "position")
        if frame.rules is not None and frame.rules != cls.rules:
            raise StateError(
                f"position is for rules {frame.rules!r}, not {cls.rules}", code="wrong_rules"
            )
        try:
            cls.check_players(len(frame.players))
        except UsageError as exc:
            raise StateError(f"position.players: {exc}", code="bad_state") from None
        if len(set(frame.players)) != len(frame.players):
            raise StateError("position.players: a player is named twice", code="bad_state")
        body = {k: v for k, v in position.items() if k not in POSITION_FRAME}
        assert cls.POSITION is not None  # from_position checked it
        pos: Any = declared.decode(cls.POSITION, body, "position")
        g = cls.blank(compiled, frame.players, cls.parse_state_options(frame.options or {}))
        g._refuse_dice(frame.dice or [], "position.dice")
        if frame.rng is not None:
            g.rng = Rng(frame.rng, frame.dice)
        else:
            g.rng = Rng.from_seed(frame.seed or 0)
            g.rng.fixed = list(frame.dice or [])
        g.load_position(pos)
        # read after the game's own fields: a game may read draws against its deck
        g.rng.draws = g._read_draws(frame.draws or [], "position.draws")
        g._refuse_first_draw("position.draws[0]")
        g._refuse_invalid("position")
        return g

    def position(self) -> dict[str, Any]:
        """This game's situation as a position (``from_position(position())`` rebuilds it)."""
        out: dict[str, Any] = {
            "rules": self.rules,
            "players": list(self.players),
            "options": dict(self.options),
            "rng": self.rng.state,
        }
        if self.rng.fixed:
            out["dice"] = list(self.rng.fixed)
        if self.rng.draws:
            out["draws"] = list(self.rng.draws)
        out.update(declared.encode(self.dump_position()))
        return out

    @classmethod
    def position_schema(cls) -> dict[str, Any]:
        """JSON Schema of a position of this game, generated from ``POSITION``."""
        if cls.POSITION is None:
            raise NotImplementedError(f"{cls.__name__} declares no POSITION")
        out = declared.schema(cls.POSITION, f"{cls.rules} position")
        frame = declared.schema(_PositionFrame)
        props = dict(frame["properties"])
        props["rules"] = {**props["rules"], "const": cls.rules}
        props["options"] = {
            **option_schema(cls.OPTIONS),
            "required": [],
            "description": props["options"]["description"],
        }
        props["dice"] = cls.dice_schema()
        props["draws"] = cls.draws_schema()
        props.update(out["properties"])
        out["properties"] = props
        out["required"] = [*frame["required"], *out["required"]]
        return out

    @classmethod
    def dice_schema(cls) -> dict[str, Any]:
        """The schema of a frame's fixed ``dice``: faces and the game's
        :attr:`DICE_ORDER` in its description."""
        if cls.DIE_FACES <= 0:
            return {
                "type": "array",
                "maxItems": 0,
                "description": f"{cls.title or cls.rules} rolls no dice: none can be fixed",
            }
        item: dict[str, Any] = {"type": "integer", "minimum": 1}
        faces = f"whole numbers from 1 to {cls.DIE_FACES}"
        if cls.die_faces is Game.die_faces:
            item["maximum"] = cls.DIE_FACES
        else:  # the game's die depends on its options or board (die_faces)
            faces = "whole numbers from 1 to the faces of the game's die"
        order = cls.DICE_ORDER or "the order the game rolls them in"
        return {
            "type": "array",
            "items": item,
            "description": f"the next dice the game rolls, next first ({faces}); "
            f"they are used in this order: {order}",
        }

    @classmethod
    def draws_schema(cls) -> dict[str, Any]:
        """The schema of a frame's fixed ``draws``: the game's :attr:`DRAW_ORDER` in
        its description (none allowed when it makes no blind draws)."""
        if not cls.DRAW_ORDER:
            return {
                "type": "array",
                "maxItems": 0,
                "description": f"{cls.title or cls.rules} makes no blind draws (its random "
                "cards are the tops of piles: list them): none can be fixed",
            }
        return {
            "type": "array",
            "items": {"type": "string"},
            "description": "the cards the next blind draws take, next first; "
            f"they are used in this order: {cls.DRAW_ORDER}",
        }

    # ================================================================== moves (abstract)
    def parse_move(self, text: str) -> M:
        """Parse a move's text; raise :class:`IllegalMoveError` (code ``bad_move``)."""
        return self.MOVE.parse(text)  # type: ignore[return-value]

    @abstractmethod
    def generate_legal_moves(self) -> Iterator[M]:
        """Yield every legal move of the player to move."""

    @abstractmethod
    def _check(self, move: M) -> None:
        """Hook: raise :class:`IllegalMoveError` explaining why ``move`` is illegal (pure).

        Called by :meth:`check` for a move of the game's own type, while the game
        goes on, whose verb the current phase allows: the game checks the rest.
        """

    @abstractmethod
    def _apply(self, move: M) -> list[Event]:
        """Hook: apply a move already checked legal; return the events in order.

        If it raises half way, :meth:`push` restores the state from before
        (:meth:`_restore`), so it may change the game freely as it goes.
        """

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on, else how it ended (an :class:`Outcome`:
        :func:`won`, :func:`lost`, :func:`draw`)."""

    @property
    @abstractmethod
    def to_move(self) -> str:
        """Who is to move (a name of :attr:`players`; ``"nobody"`` when it is over)."""

    # ================================================================== shared
    @property
    def legal_moves(self) -> LegalMoves[M]:
        return LegalMoves(self)

    def is_legal(self, move: M | str) -> bool:
        """Whether ``move`` (a move, or its text) is legal now; pure."""
        try:
            self.check(self.parse_move(move) if isinstance(move, str) else move)
        except IllegalMoveError:
            return False
        return True

    @final
    def check(self, move: M) -> None:
        """Raise :class:`IllegalMoveError` (code, message, details) if ``move`` is
        illegal now; change nothing.

        In this order: a finished game refuses every move (``game_over``); a value
        that is not the game's :attr:`MOVE` is refused (``bad_move``); a verb the
        current :attr:`phase` does not allow (:attr:`PHASES`) is refused
        (``wrong_phase``, naming the verbs that are); then the game's
        :meth:`_check` judges the move.
        """
        outcome = self.outcome
        if outcome is not None:
            raise IllegalMoveError(
                "the game is over", code="game_over", details={"outcome": outcome.to_json()}
            )
        if not isinstance(move, self.MOVE):
            raise IllegalMoveError(
                f"not a {self.title or self.rules} move: {move!r}", code="bad_move"
            )
        phases = self.PHASES
        if phases:
            phase = self.phase
            allowed = phases.get(phase, _NO_VERBS)
            if move.verb not in allowed:
                raise IllegalMoveError(
                    f"{move.verb!r} is not possible now ({phase}; possible: "
                    f"{', '.join(sorted(allowed)) or 'nothing'})",
                    code="wrong_phase",
                    details={"phase": phase, "move": str(move), "possible": sorted(allowed)},
                )
        self._check(move)

    @final
    def push(self, move: M) -> list[Event]:
        """Apply ``move`` and return its events; raise :class:`IllegalMoveError` and
        change nothing if it is illegal.

        :meth:`check` first; then a :meth:`copy` is kept and the game's
        :meth:`_apply` runs. Should it raise half way (a bug), :meth:`_restore`
        puts the copy back and the error goes on: no half-applied state is left.

        Notes
        -----
        The cost of :meth:`check`, one :meth:`copy` and :meth:`_apply`.
        """
        self.check(move)
        snapshot = self.copy()
        try:
            return self._apply(move)
        except BaseException:
            self._restore(snapshot)
            raise

    def _restore(self, snapshot: Self) -> None:
        """Hook: become ``snapshot`` (a :meth:`copy` taken before a move failed).

        The default takes the copy's attributes (``__dict__``); a game that keeps
        caches outside itself (a board view shared by its copies) overrides it to
        bring them back in step, calling ``super()._restore(snapshot)`` first.
        """
        self.__dict__ = snapshot.__dict__

    def push_text(self, text: str) -> list[Event]:
        return self.push(self.parse_move(text))

    def event(
        self,
        name: str,
        /,
        *,
        private: Sequence[str] | None = None,
        public: Mapping[str, Any] | None = None,
        words: Mapping[str, Any] | None = None,
        **fields: Any,
    ) -> Event:
        """An event told by the game's template ``name`` (:attr:`EVENTS`): its type is
        ``name`` up to a dot (``"wind.nobody"`` makes a ``wind`` event); see
        :func:`referee.games.events.event` for the rest.

        Raises
        ------
        KeyError
            The game declares no template ``name`` (a bug of the game).
        """
        kind, fill = self._EVENT_FILLS[name]
        if private is not None or public is not None or not _KEYWORD_ARGS.isdisjoint(fields):
            return build_event(kind, fill, fields, words, private, public)
        # the common case, inline (events.build is the same; a move makes several)
        try:
            text = fill({**fields, **words} if words else fields)
        except KeyError as exc:
            raise ValueError(f"event {kind!r}: its template needs {exc}") from None
        return {"type": kind, "text": text, **fields}

    def copy(self) -> Self:
        """An independent copy (search lives on it: games override it for speed)."""
        return type(self).from_json(self.to_json(), self.compiled)

    @final
    def view(self, player: str | None = None) -> dict[str, Any]:
        """What ``player`` may see of the state (``None``: any onlooker).

        :meth:`dump_view` (the game's hook) without the kit's generator keys
        (:data:`GENERATOR_KEYS`): whoever holds the generator's state can predict
        every die and shuffle to come, so no view carries it. Every path that shows
        a player the game (``--view``, ``referee serve``, the network tables, the
        bots' evaluation) goes through here; games override :meth:`dump_view`,
        never this (a subclass that defines ``view`` is refused).
        """
        self.check_viewer(player)
        shown = self.dump_view(player)
        return {k: v for k, v in shown.items() if k not in GENERATOR_KEYS}

    def check_viewer(self, player: str | None) -> None:
        """Refuse a viewer who is neither one of :meth:`viewers` nor ``None`` (any
        onlooker) with :class:`UsageError`: a misspelt name would otherwise see
        nothing of his own, and no moves, without a word."""
        if player is not None and player not in self.viewers():
            raise UsageError(
                f"view: {player!r} is not a player of this game "
                f"(players: {', '.join(self.viewers())})"
            )

    def viewers(self) -> list[str]:
        """Hook: the names a view may be asked for (default: the players)."""
        return list(self.players)

    def dump_view(self, player: str | None = None) -> dict[str, Any]:
        """Hook: the state as ``player`` may see it (``None``: any onlooker), as
        JSON-ready data; :meth:`view` removes the generator from it.

        Games with hidden information (hands, face-down cards) override this; the
        default is :meth:`to_json`, everything, as for games of open information.
        """
        return self.to_json()

    @staticmethod
    def events_for(events: list[Event], viewer: str | None) -> list[Event]:
        """``events`` as ``viewer`` may see them (:func:`referee.games.events.visible`)."""
        return visible(events, viewer)

    def invariants(self) -> list[str]:
        """What is broken in this state, one sentence each (empty: all holds).

        Run after every move by ``referee selfplay --invariants`` and the contract
        test, and on loading by :meth:`validate`.
        """
        return []

    # ================================================================== hooks for bots
    def evaluate(self, player: str) -> float | None:
        """Hook for bots: how good the unfinished state is for ``player``, 0 (lost) to
        1 (won), or ``None`` (no evaluation declared: ``greedy`` plays like ``random``
        and ``mcts`` relies on its random play-outs).

        It must read only what ``player`` may see (:meth:`view`) and the board: the
        bots call it on states built by :meth:`determinise`.
        """
        return None

    def determinise(self, player: str, rng: random.Random) -> Game[M]:
        """Hook for bots: a playable game consistent with ``view(player)``, every
        part ``player`` cannot see sampled with ``rng``; ``self`` is not changed.

        The bots search the games this returns and nothing else, so a bot never
        reads hidden state. The default suits games of open information (the kit's
        :meth:`view`, the whole state): a :meth:`copy` with a generator drawn from
        ``rng`` and no fixed dice, so dice and shuffles are sampled, not foreseen. A
        game that hides something (overrides :meth:`view`) overrides this too: it
        deals what the player cannot see from what the view shows.

        Raises
        ------
        CannotDeterminise
            When the view does not say enough to rebuild a state (the default: a
            game that overrides :meth:`dump_view` but not this hook).

        Notes
        -----
        The default costs one :meth:`copy`.
        """
        if type(self).dump_view is not Game.dump_view:
            raise CannotDeterminise(
                f"{type(self).__name__} hides part of its state but declares no determinise"
            )
        world = self.copy()
        world.rng = Rng(rng.getrandbits(64))
        return world

    def search_moves(self) -> list[M]:
        """Hook for bots: the legal moves worth searching (default: every legal move).

        A game may leave out moves its rules offer but that never help a player (the
        cooperative game's free discards), so a search spends its budget on the
        rest; when one move is left, ``mcts`` answers at once. Players keep every
        legal move: this only narrows what the bots consider.
        """
        return list(self.legal_moves)

    def render(self) -> str:
        """A plain-text picture of the state (the default lists the figures)."""
        head = f"{self.title or self.rules}: " + (
            f"over, {self.outcome}" if self.outcome is not None else f"{self.to_move} to move"
        )
        lines = [head]
        for f in self.figures().values():
            lines.append(f"  {f.id:<18} {f.node}")
        return "\n".join(lines)

    # ================================================================== frontends
    def figures(self) -> dict[str, FigureView]:
        """Every piece a frontend should draw, by figure id (default: none).

        Figures off the board (in Limbo, defeated, not yet placed) are left out.
        """
        return {}

    @property
    def board_hash(self) -> str:
        """The content hash of the board as laid out (:attr:`CompiledBoard.hash`),
        which the game's tile turns do not change."""
        return self.compiled.hash

    def board_turns(self) -> Mapping[str, int]:
        """The turns of the board's tiles as this game has them, by placement id:
        empty (the default) for a game whose tiles never turn in play, where the
        compiled board's own turns hold. A frontend keys what it draws of the board
        on this (with the board's hash) without turning a shared compiled board."""
        return {}

    def node_xy(self, node: str) -> tuple[float, float]:
        """Where ``node`` stands on the board as this game has it (board mm): the
        compiled board's position by default. A game whose tiles turn in play answers
        at its own turns without turning a compiled board it shares with other games
        (what a server drawing the figures of many games needs).

        Notes
        -----
        O(1).
        """
        return self.compiled.xy(node)

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

    # ================================================================== names
    def with_card_titles(self, position: dict[str, Any]) -> dict[str, Any]:
        """Hook: ``position`` (as :meth:`position` wrote it) with each card written
        by its title as the rulebook prints it, wherever the game reads the title back
        as that very card (``referee position --names``; default: unchanged, for a
        game whose positions read card ids only)."""
        return position

    @classmethod
    def board_names(cls, compiled: CompiledBoard) -> list[BoardName]:
        """Hook: the names the rulebook gives the places of ``compiled`` (the ids
        positions write for them), for ``referee board-names`` (default: none)."""
        return []


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _one_line(exc: StateError) -> StateError:
    """``exc`` with the control characters of its message escaped (``\\n``): a field a
    position writes with a newline in its key (``hands["\\n"]``) is still named on
    one line, as every refusal is."""
    if _CONTROL.search(exc.message):
        exc.message = _CONTROL.sub(lambda m: repr(m.group())[1:-1], exc.message)
        exc.args = (exc.message,)
    return exc


@dataclass
class _StateFrame:
    """The kit's part of a state file (see :meth:`Game.to_json`)."""

    rules: str = field(metadata={"help": "the rules module's name"})
    version: int = field(metadata={"help": "version of the game's state format"})
    board_hash: str = field(metadata={"help": "content hash of the board the game is played on"})
    players: list[str] = field(metadata={"help": "the players' names, in turn order"})
    options: dict[str, Any] = field(metadata={"help": "the game's options (every one given)"})
    rng: int = field(metadata={"help": "state of the seeded random generator"})
    dice: list[int] = field(
        default_factory=list, metadata={"help": "fixed dice still to come, next first"}
    )
    draws: list[str] = field(
        default_factory=list, metadata={"help": "fixed blind draws still to come, next first"}
    )


@dataclass
class _PositionFrame:
    """The kit's part of a position (see :meth:`Game.from_position`)."""

    players: list[str] = field(metadata={"help": "the players' names, in turn order"})
    rules: str | None = field(default=None, metadata={"help": "the rules module's name"})
    options: dict[str, Any] | None = field(
        default=None, metadata={"help": "the game's options (omitted ones: their defaults)"}
    )
    rng: int | None = field(
        default=None, metadata={"help": "state of the random generator (as position() writes)"}
    )
    seed: int | None = field(
        default=None,
        metadata={"help": "seed of the random generator, when no rng is given (default 0)"},
    )
    dice: list[int] | None = field(
        default=None, metadata={"help": "the next dice the game rolls, next first"}
    )
    draws: list[str] | None = field(
        default=None,
        metadata={"help": "the cards the next blind draws take, next first (DRAW_ORDER)"},
    )
