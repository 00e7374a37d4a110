"""The Ringgeister referee: the whole game on any board that declares these rules.

Follows the Ringgeister rulebook and our numbered rulings in
docs/rulings.md; comments cite them as "ruling N". The state is the
:class:`RinggeisterGame` object itself (python-chess style, see
:mod:`referee.games.base`).

Rulings of our own, where the rulings leave something open:

- **Counters are placed by the players** (``counter SPACE`` moves, one at a time,
  in player order, before the first turn — rulebook 1.4: "the player must act
  intelligently"), one counter per space. The option ``counter_placement=random``
  places them with the game's seeded generator instead, for quick games.
- **Winning ends the game at once** (rulebook 2.3 "The game ends when a Hobbit has
  reached the last grey point"), and so does a Spirit defeating the Ringbearer
  (rulebook 6.2 "the game ends immediately"): nothing after it happens.
- **Gandalf on a magic point**: the mission check (ruling 7a) still happens — it
  is not a disruptive event; card and wind do not (ruling 7b).
- **A black figure whose route repeats** without reaching a black point other than
  its start stays where it started (rulings 9, 13); light figures it defeated
  before the repetition was found stay defeated. A Spirit that
  caught the Ringbearer on a grey point stays on that point (the game is over).
- **Light figures never reverse** along the path they arrived on, and stop at dead
  ends (only black figures turn about there); a light figure may pass its own
  starting point but never stops there (that would not be a move).
- **Passing** (ruling 1, "if neither can move, the turn is a pass"): "neither" is the
  player's two coloured figures, so a player whose coloured figures cannot move may
  pass even when Gandalf could move (option (a) with both figures stuck); moving
  Gandalf instead stays legal. While a coloured figure can move, passing is refused.
- **The goal as the next free point** (ruling 6): a figure other than the Ringbearer
  Hobbit may neither enter the free goal nor jump it (only points held by light
  figures are jumped), so a route whose next free point is the goal gives it no move.
- **Straight on at a tie** (ruling 9): where two land exits turn equally little (a T
  entered from its stem, without three arrows) the ruling names no exit; the referee
  takes the one whose compiled path sorts first — deterministic, so games replay, but
  a board should avoid such junctions.
- **A black point whose heading has no land path** (ruling 9): the figure leaves by the
  land path closest in direction to the hand's (forward or backward) bearing; at the
  end of a single path that is the way back, as if it had turned about at a dead end.
- **The wind's ray starts at its point** (ruling 8): a black figure behind the point
  is not in the wind, however close; with nobody in the wind Gollum plays wherever he
  stands (and if Gollum is the nearest in the wind, he plays as that figure).
- **Several coloured figures per colour** (custom piece sets): the turn moves each
  of them once, in any order (ruling 1 generalised).
- **Tiles that turn** (ruling 11): the tile asset is ``turnable`` and carries at
  least two black points.
- **Reshuffle**: when the face-down pile is empty and a card must be turned, the
  cards turned before (all but the face-up one) are shuffled into a new pile.
- **A storm on the first card** is applied at set-up like any other storm (all
  black starting points are occupied, so on a standard board nothing turns).
- **A defeated figure set on a white starting point** has not "come to rest" from a
  move: nothing happens there (no mission check, card or wind).
- **Every game starts from the board's own tile turns**, even when another game on
  the same compiled board has turned tiles since (states record their turns).
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Self

from ...compiler import CompiledBoard
from ...errors import BoardError, StateError, UsageError
from ...vocabulary import FigureView
from ..base import BoardName, Game
from ..events import Event
from ..options import Option
from ..outcome import Outcome
from ..rng import Rng
from . import evaluate as evaluation
from . import frontend, legality, names, turn, turning, worlds
from . import state as rstate
from .events import EVENTS
from .moves import PASS, Move
from .pieces import COLOURS as ALL_COLOURS
from .pieces import Card, FigureSpec, deck_cards, figure_specs
from .protocol import Phase
from .search import step_moves
from .state import RinggeisterPosition, RinggeisterState, migrate_v1
from .view import DEAD_END, DOOR, JUNCTION, POINT, BoardView, view_of

STATE_VERSION = 2
VARIANTS = {"A": 0, "B": 2, "C": 3, "default": 1}

__all__ = ["STATE_VERSION", "VARIANTS", "Event", "RinggeisterGame"]


class RinggeisterGame(Game[Move]):
    """A Ringgeister game on a compiled board (state + rules).

    Create with :meth:`new`, :meth:`from_json` or :meth:`from_position`; query
    ``legal_moves``; ``push`` a :class:`Move` (or ``push_text("hobbit-yellow t3/p2")``)
    to get the events. The players are colours (``yellow``, ``orange``...).
    """

    rules: ClassVar[str] = "ringgeister"
    title: ClassVar[str] = "Ringgeister"
    PLAYERS: ClassVar[tuple[int, int]] = (1, 4)
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option(
            "variant",
            str,
            "default",
            choices=tuple(VARIANTS),
            help="mission counters per player: A 0, default 1, B 2, C 3 (ruling 12)",
        ),
        Option(
            "colours",
            list,
            (),
            choices=ALL_COLOURS,
            help="the players' colours in turn order, comma-separated "
            "(default: the first of yellow, orange, purple, green)",
        ),
        Option(
            "counter_placement",
            str,
            "choose",
            choices=("choose", "random"),
            help="players place the counters (rulebook 1.4), or the seeded generator does",
        ),
    )
    MOVE: ClassVar[type[Move]] = Move
    #: counters are placed first (rulebook 1.4), then turns are played; a defeated
    #: figure's way home (``home``) is a choice within a turn
    PHASES: ClassVar[dict[str, frozenset[str]]] = {
        "counters": frozenset({"counter"}),
        "play": frozenset({"step", "home", "pass"}),
        "over": frozenset(),
    }
    EVENTS: ClassVar[dict[str, str]] = EVENTS
    #: Ringgeister has no dice: cards and the wind decide (a position fixes none)
    DIE_FACES: ClassVar[int] = 0
    STATE: ClassVar[type] = RinggeisterState
    POSITION: ClassVar[type] = RinggeisterPosition
    STATE_VERSION: ClassVar[int] = STATE_VERSION
    #: the evaluation at the leaves (no random play-out) with a small exploration
    #: constant for its fine steps, four sampled pile orders per decision, the root
    #: widened from the best four moves (bench/bots.py: 43 % against random's 0 %)
    MCTS: ClassVar[dict[str, int | float]] = {
        "iterations": 20,
        "rollout": 0,
        "exploration": 0.1,
        "worlds": 4,
        "widen": 4,
    }

    # the state and the tables every game object carries (set in blank())
    v: BoardView
    specs: list[FigureSpec]
    fidx: dict[str, int]
    cards: dict[str, Card]
    black_figs: list[int]
    gollum: int
    own: dict[str, list[int]]
    gandalfs: list[int]
    light: list[bool]  # by figure index
    small: list[bool]  # by figure index: smaller than large (the Ringbearer jumps it)
    seed: int
    pos: list[int]
    occ: list[int]
    face_up: str
    pile: list[str]  # top card last (popped)
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

    # ================================================================== set-up
    @property
    def colours(self) -> list[str]:
        """The players' colours in turn order (the same list as :attr:`players`)."""
        return self.players

    @classmethod
    def blank(
        cls, compiled: CompiledBoard, players: Sequence[str], options: dict[str, Any]
    ) -> Self:
        """An empty game for ``players`` (colours): figures, cards and board view."""
        bad = [c for c in players if c not in ALL_COLOURS]
        if bad:
            raise StateError(
                f"players must be colours of {', '.join(ALL_COLOURS)}, not {bad[0]!r}",
                code="bad_state",
            )
        g = super().blank(compiled, players, {**options, "colours": list(players)})
        g.v = view_of(compiled)
        g.seed = 0
        g.specs = figure_specs(compiled.board.piece_types, g.players)
        g.fidx = {s.id: i for i, s in enumerate(g.specs)}
        g.black_figs = [i for i, s in enumerate(g.specs) if not s.light]
        g.gollum = next((i for i, s in enumerate(g.specs) if s.figure == "gollum"), -1)
        g.own = {
            c: [i for i, s in enumerate(g.specs) if s.coloured and s.colour == c] for c in g.players
        }
        g.gandalfs = [i for i, s in enumerate(g.specs) if s.figure == "gandalf"]
        g.light = [s.light for s in g.specs]
        g.small = [s.size < 2 for s in g.specs]
        g.cards = {c.id: c for c in deck_cards(compiled.board.decks, g.players)}
        g.pos = [-1] * len(g.specs)
        g.occ = [-1] * g.v.n
        g.face_up = ""
        g.pile = []
        g.discard = []
        g.counters = []
        g.phase = "play"
        g.player = 0
        g.moved = []
        g.pending = []
        g._outcome = None
        g.ply = 0
        g.tile_turns = dict(g.v.base_turns)
        g._version = 0
        g._dest_cache = {}
        g._claim(force=True)
        return g

    @classmethod
    def setup(
        cls, compiled: CompiledBoard, players: int, seed: int, options: dict[str, Any]
    ) -> Self:
        """Figures at random on their starting points, the top card face up (rulebook 1)."""
        colours = list(options["colours"] or ALL_COLOURS[:players])  # checked by the kit
        if len(colours) != players:
            raise UsageError(
                f"ringgeister option 'colours' names {len(colours)} colours for {players} players",
                code="bad_option",
            )
        variant = options["variant"]
        if variant == "C" and players > 3:
            raise UsageError(
                "variant C (three counters each) is only for three players at most",
                code="bad_option",
            )
        g = cls.blank(compiled, colours, options)
        v = g.v
        g.seed = seed
        g.rng = Rng.from_seed(seed)
        light = [i for i, s in enumerate(g.specs) if s.light]
        if len(v.white_starts) < len(light):
            raise BoardError(
                f"the board has {len(v.white_starts)} white starting points for "
                f"{len(light)} light figures",
                code="not_enough_starting_points",
            )
        if len(v.black_starts) < len(g.black_figs):
            raise BoardError(
                f"the board has {len(v.black_starts)} black starting points for "
                f"{len(g.black_figs)} black figures",
                code="not_enough_starting_points",
            )
        if not g.cards:
            raise BoardError("the deck has no card for the colours in play", code="no_cards")
        whites = list(v.white_starts)
        g.rng.shuffle(whites)
        for f, p in zip(light, whites):
            g._put(f, p)
        blacks = list(v.black_starts)
        g.rng.shuffle(blacks)
        for f, p in zip(g.black_figs, blacks):
            g._put(f, p)
        g.pile = sorted(g.cards)
        g.rng.shuffle(g.pile)
        g.face_up = g.pile.pop()
        g.counters = g._fresh_counters()
        if len(g.counters) > len(v.counter_spaces):
            raise BoardError(
                f"{len(g.counters)} counters but only {len(v.counter_spaces)} counter spaces",
                code="not_enough_counter_spaces",
            )
        g.setup_events = [
            g.event(
                "card_turned.first",
                card=g.cards[g.face_up].to_json(),
                words={"card_text": g._card_text()},
            )
        ]
        if g.cards[g.face_up].image == "storm":
            turning.storm(g, g.setup_events)
        if g.counters and options["counter_placement"] == "random":
            for c in g._counter_order():
                free = [s for s in v.counter_spaces if s not in g._taken_spaces()]
                k = g.counters.index(c)
                g.counters[k] = {**c, "space": g.rng.choice(free)}
        g.phase = "counters" if any(c["space"] is None for c in g.counters) else "play"
        g.player = 0
        g._bump()
        return g

    def _fresh_counters(self) -> list[dict[str, Any]]:
        per = VARIANTS.get(self.options.get("variant", "default"), 1)
        return [
            {"id": f"{c}-{k}", "colour": c, "space": None, "removed": False}
            for k in range(1, per + 1)
            for c in self.players
        ]

    def _counter_order(self) -> list[dict[str, Any]]:
        """Counters in placing order: one at a time, in turn (rulebook 1.4)."""
        per = max((int(c["id"].rsplit("-", 1)[1]) for c in self.counters), default=0)
        by_id = {c["id"]: c for c in self.counters}
        return [
            by_id[f"{col}-{k}"]
            for k in range(1, per + 1)
            for col in self.players
            if f"{col}-{k}" in by_id
        ]

    def _taken_spaces(self) -> set[str]:
        return {c["space"] for c in self.counters if c["space"] is not None and not c["removed"]}

    @classmethod
    def board_names(cls, compiled: CompiledBoard) -> list[BoardName]:
        """The Mountain of Fire, the white starting points, the counter spaces and the
        black starting points, as the rulebook names them (:mod:`.names`)."""
        return names.board_names(compiled)

    # ================================================================== declared state
    def dump_state(self) -> RinggeisterState:
        return rstate.dump_state(self)

    def load_state(self, state: RinggeisterState) -> None:
        rstate.load_state(self, state)

    @classmethod
    def migrate(cls, data: dict[str, Any], version: int) -> dict[str, Any]:
        """Version-1 files (flat, before the kit) are read; others refused."""
        if version == 1:
            return migrate_v1(data)
        return super().migrate(data, version)

    def validate(self) -> list[str]:
        """What a loaded state or position breaks (the rules' invariants and more)."""
        return legality.state_problems(self)

    # ================================================================== positions
    def dump_position(self) -> RinggeisterPosition:
        return rstate.dump_position(self)

    def load_position(self, position: RinggeisterPosition) -> None:
        rstate.load_position(self, position)

    # ================================================================== copies
    def copy(self) -> Self:
        """An independent copy sharing the board view (a few microseconds).

        Notes
        -----
        O(F + N): the figure and occupancy lists are copied, everything derived from
        the board is shared, and so is what play never changes (the options, the
        players, the set-up's events) or only replaces (each counter's dict).
        """
        g = object.__new__(type(self))
        d = self.__dict__.copy()
        d["pos"] = self.pos[:]
        d["occ"] = self.occ[:]
        d["pile"] = self.pile[:]
        d["discard"] = self.discard[:]
        d["counters"] = self.counters[:]
        d["moved"] = self.moved[:]
        d["pending"] = self.pending[:]
        d["tile_turns"] = self.tile_turns.copy()
        d["rng"] = self.rng.copy()
        d["_dest_cache"] = self._dest_cache.copy()
        g.__dict__ = d
        return g

    def _restore(self, snapshot: Self) -> None:
        """Become ``snapshot`` (the kit's rollback), then make the board view that
        copies share show this game's tile turns again: a move that failed half way
        may have turned tiles in it (the copy's kept searches stay valid)."""
        super()._restore(snapshot)
        self._claim(force=True)

    # ================================================================== syncing
    def _claim(self, force: bool = False) -> None:
        """Make the shared board view describe this game's tile turns.

        Several games (and copies) share one compiled board and its view; the view
        records which game it was last synced to (one comparison when nobody else
        used it in between) and keeps the arrays of recently seen turn
        configurations, so switching between copies with different tile turns is a
        dictionary lookup. The compiled board itself is turned lazily: when this game
        turns a tile, or when :attr:`compiled` is read.
        """
        v = self.v
        if not force and v.synced_to is not None and v.synced_to() is self:
            return
        if v.show(self.tile_turns):
            self._dest_cache.clear()
        v.synced_to = weakref.ref(self)

    @property
    def compiled(self) -> CompiledBoard:
        """The compiled board, turned to this game's tile turns (as laid out before set-up)."""
        cb: CompiledBoard = self.__dict__["_compiled"]
        turns = self.__dict__.get("tile_turns")
        if turns is not None:
            self.v.sync_board(turns)
        return cb

    @compiled.setter
    def compiled(self, value: CompiledBoard) -> None:
        self.__dict__["_compiled"] = value

    @property
    def board_hash(self) -> str:
        """The hash of the board as laid out: read without turning the compiled board
        to this game's turns (the hash does not depend on them)."""
        cb: CompiledBoard = self.__dict__["_compiled"]
        return cb.hash

    def _bump(self) -> None:
        self._version += 1
        self._dest_cache.clear()

    # ================================================================== small helpers
    def _put(self, f: int, p: int) -> None:
        self.pos[f] = p
        self.occ[p] = f

    def _lift(self, f: int) -> None:
        p = self.pos[f]
        if p >= 0 and self.occ[p] == f:
            self.occ[p] = -1
        self.pos[f] = -1

    @property
    def card(self) -> Card:
        return self.cards[self.face_up]

    @property
    def ringbearer(self) -> str:
        """Colour of the current Ringbearer (the face-up card's colour)."""
        return self.card.ringbearer

    def _card_text(self, c: Card | None = None) -> str:
        c = c or self.card
        lower = "a storm" if c.image == "storm" else f"the {c.image} door"
        return f"{c.id}: Ringbearer {c.ringbearer}, black figures move {c.hand}, {lower}"

    def _is_ringbearer(self, f: int) -> bool:
        s = self.specs[f]
        return s.figure == "hobbit" and s.colour == self.ringbearer

    def _where(self, i: int) -> str:
        v = self.v
        if v.kind[i] == POINT:
            return f"{'black' if v.black[i] else 'grey'} point {v.ids[i]}"
        return {JUNCTION: "junction", DOOR: "door", DEAD_END: "dead end"}.get(
            v.kind[i], "node"
        ) + f" {v.ids[i]}"

    def _counters_left(self, colour: str) -> int:
        return sum(1 for c in self.counters if c["colour"] == colour and not c["removed"])

    def _chooser_for(self, f: int) -> str:
        s = self.specs[f]
        return s.colour if s.coloured and s.colour else self.players[self.player]

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def to_move(self) -> str:
        if self._outcome is not None:
            return "nobody"
        if self.pending:
            return self.pending[0][1]
        return self.players[self.player]

    def _movable(self) -> list[int]:
        """Figures the player to move may move now (play phase, no pending choice)."""
        if "gandalf" in self.moved:
            return []
        pos, moved, specs = self.pos, self.moved, self.specs
        out = [i for i in self.own[self.players[self.player]] if pos[i] >= 0]
        if moved:
            return [i for i in out if specs[i].id not in moved]
        return out + [i for i in self.gandalfs if pos[i] >= 0]

    # ================================================================== legal moves
    def generate_legal_moves(self) -> Iterator[Move]:
        """The legal moves, steps in figure order with destinations in id order.

        Notes
        -----
        Built as a list (one search per figure, kept for the state) and iterated:
        ``list(legal_moves)`` and the bots take every move anyway.
        """
        return iter(self._legal_move_list())

    def _legal_move_list(self) -> list[Move]:
        self._claim()
        if self._outcome is not None:
            return []
        ids = self.v.ids
        if self.pending:
            fid = self.pending[0][0]
            occ = self.occ
            return [Move("home", fid, ids[p]) for p in self.v.white_starts if occ[p] < 0]
        if self.phase == "counters":
            taken = self._taken_spaces()
            return [Move("counter", sid) for sid in self.v.counter_spaces if sid not in taken]
        out: list[Move] = []
        coloured_move = False
        specs, cache = self.specs, self._dest_cache
        for f in self._movable():
            hit = cache.get(f)  # the moves kept for this state, or made now
            moves = hit[1] if hit is not None and hit[1] is not None else step_moves(self, f)
            if moves:
                coloured_move = coloured_move or specs[f].coloured
                out += moves
        if not coloured_move:
            # ruling 1: choosing (a) when neither coloured figure can move is a pass,
            # even when Gandalf could move
            out.append(PASS)
        return out

    def _check(self, move: Move) -> None:
        """Raise :class:`IllegalMoveError` (code, message, details) if ``move`` is illegal."""
        self._claim()
        legality.check(self, move)

    # ================================================================== applying
    def _apply(self, move: Move) -> list[Event]:
        self._claim()
        events: list[Event] = []
        kind = move.verb
        if kind == "counter":
            turn.place_counter(self, move, events)
            self._bump()
        elif kind == "home":  # home and step clear the searches before the turn goes on
            turn.home(self, move, events)
        elif kind == "pass":
            events.append(self.event("pass", player=self.players[self.player]))
            turn.next_player(self, events)
            self._bump()
        else:
            turn.step(self, move, events)
        self.ply += 1
        return events

    def _turn_tile(self, pid: str, cause: str, events: list[Event], refresh: bool = True) -> None:
        turning.turn_tile(self, pid, cause, events, refresh)

    # ================================================================== reports
    def invariants(self) -> list[str]:
        """Broken invariants (empty when all hold): one figure per point, figures only
        on points, every figure on the board or waiting for a home choice, counters sane."""
        return legality.invariants(self)

    # ================================================================== bots
    def evaluate(self, player: str) -> float | None:
        """How well ``player`` stands, 0 to 1, for bots (:mod:`.evaluate`: moves left
        to the counters and the goal); ``None`` while counters are being placed."""
        return evaluation.evaluate(self, player)

    def dump_view(self, player: str | None = None) -> dict[str, Any]:
        """The state as every player sees it: the face-down pile's cards in id order
        (which cards are left is known, their order is not — rulebook 1.2) and no
        seed (it rebuilds the generator, and so the pile's order). The kit's
        :meth:`view` then leaves out the generator (the reshuffles to come)."""
        data = self.to_json()
        del data["state"]["seed"]
        cards = data["state"]["cards"]
        cards["pile"] = sorted(cards["pile"])
        return data

    def determinise(self, player: str, rng: random.Random) -> RinggeisterGame:
        """The bots' world: a copy with the face-down pile's order sampled with
        ``rng``, never read (:mod:`.worlds`)."""
        return worlds.determinise(self, player, rng)

    # ================================================================== frontends
    def figures(self) -> dict[str, FigureView]:
        """Every figure on the board (defeated figures waiting to go home are left out).

        A coloured figure belongs to its colour's player; Gandalf and the black
        figures belong to nobody.
        """
        return frontend.figures(self)

    def board_turns(self) -> Mapping[str, int]:
        """Every tile's turns in this game (a tile turns in play)."""
        return self.tile_turns

    def node_xy(self, node: str) -> tuple[float, float]:
        """Where ``node`` stands with the tiles at this game's turns; the compiled
        board, shared with other games, is not turned."""
        return self.v.xy_at(node, self.tile_turns)

    def move_destination(self, move: Move) -> tuple[str, str] | None:
        """A step goes to its point, a defeated figure home to its white point
        (the figure enters the board), a mission counter (figure ``""``) to its space."""
        if move.verb in ("step", "home"):
            return move.args[0], move.args[1]
        if move.verb == "counter":
            return "", move.args[0]
        return None

    def render(self) -> str:
        """A plain-text picture of the state for people and simple frontends."""
        return frontend.render(self)
