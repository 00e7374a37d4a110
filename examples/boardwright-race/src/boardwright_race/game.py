"""Race: roll a die, run along the paths, be first on the goal.

Rules (the whole rulebook):

1. Every runner starts on the board's start point (a point with ``start: white``);
   several runners may stand there. The point with ``goal: true`` is the finish.
2. On your turn, ``roll`` the die, then ``move`` your runner to a point exactly that
   many steps away along the paths (a step goes from a point to the next point;
   junctions are not points). You may also stop on the goal with a roll larger
   than the steps left (unless the option ``exact_finish`` is on). If no point
   is that far, you ``pass``.
3. Landing on another runner sends it back to the start (option ``bump``).
4. Landing on a point with ``again: true`` (this game's own property) gives you
   another turn.
5. The first runner on the goal wins.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Self

from referee.compiler import CompiledBoard, PointGraph
from referee.errors import BoardError, IllegalMoveError, StateError
from referee.games import BoardName, Event, Game, Move, Option, Outcome, won
from referee.games.names import resolve
from referee.games.rng import Rng
from referee.vocabulary import FigureView

COLOURS = ("red", "blue", "green", "yellow")
HEX = {"red": "#c62828", "blue": "#1565c0", "green": "#2e7d32", "yellow": "#f9a825"}


class RaceMove(Move):
    """``roll``, ``move POINT`` or ``pass``."""

    __slots__ = ()
    VERBS: ClassVar[dict[str, int | tuple[int, int]]] = {"roll": 0, "move": 1, "pass": 0}


@dataclass
class RaceState:
    """The state of a race (``to_json()["state"]``)."""

    places: dict[str, str] = field(metadata={"help": "runner (its player's colour) -> point"})
    phase: Literal["roll", "move", "over"] = field(
        metadata={"help": "roll: the die comes next; move: rolled, the runner moves; over"}
    )
    player: int = field(metadata={"low": 0, "help": "index of the player to move"})
    roll: int | None = field(default=None, metadata={"low": 1, "help": "the die, in phase move"})
    ply: int = field(default=0, metadata={"low": 0, "help": "moves made so far"})
    outcome: Outcome | None = field(default=None, metadata={"help": "how the race ended"})


@dataclass
class RacePosition:
    """A race position: where the runners stand and whose turn it is.

    ``{"players": ["red", "blue"], "places": {"red": "p3", "blue": "start"},
    "to_move": "blue"}``; with ``"phase": "move"`` and ``"roll": 4`` the die is
    already rolled. ``"dice": [6, 1]`` (a kit key) fixes the next rolls.
    """

    places: dict[str, str] = field(
        metadata={
            "help": "runner (its player's colour) -> point (an id, 'the start' or 'the goal')"
        }
    )
    to_move: str | None = field(default=None, metadata={"help": "default: the first player"})
    phase: Literal["roll", "move", "over"] = field(
        default="roll",
        metadata={"help": "roll (default): the die comes next; move: give the roll; over"},
    )
    roll: int | None = field(default=None, metadata={"low": 1, "help": "the die, in phase move"})
    outcome: Outcome | None = field(
        default=None, metadata={"help": "how the race ended, in phase over"}
    )


@dataclass(frozen=True)
class Track:
    """What a race needs of a board, derived once per compiled board: its points and
    the steps between them (the kit's :meth:`CompiledBoard.point_graph`), the start,
    the goal and the bonus points."""

    points: PointGraph
    start: int
    goal: int
    again: frozenset[int]

    @property
    def neighbours(self) -> Mapping[int, tuple[int, ...]]:
        return self.points.neighbours


def track_of(compiled: CompiledBoard) -> Track:
    """The race's view of ``compiled`` (cached in ``compiled.derived``).

    Raises
    ------
    BoardError
        No start point or no goal, or more than one of either.
    """
    return compiled.derived("race:track", lambda: _build_track(compiled))


def _build_track(compiled: CompiledBoard) -> Track:
    nodes = compiled.graph.nodes
    points = compiled.point_graph()
    starts = [i for i in points.points if nodes[compiled.ids[i]].get("start") == "white"]
    goals = [i for i in points.points if nodes[compiled.ids[i]].get("goal")]
    if len(starts) != 1 or len(goals) != 1:
        raise BoardError(
            f"a race board needs one start point (start: white) and one goal point "
            f"(goal: true); this one has {len(starts)} and {len(goals)}",
            code="bad_race_board",
        )
    again = frozenset(i for i in points.points if nodes[compiled.ids[i]].get("again"))
    return Track(points, starts[0], goals[0], again)


def board_problems(compiled: CompiledBoard) -> list[Any]:
    """``referee check``: a race board has one start, one goal, and a way between them."""
    from referee.compiler import Problem

    try:
        t = track_of(compiled)
    except BoardError as exc:
        return [Problem.make("race_board", exc.message, None)]
    if t.goal not in t.points.steps_from(t.start):
        return [Problem.make("race_unreachable", "no path leads from the start to the goal", None)]
    return []


class Race(Game[RaceMove]):
    """The race: state and rules (see the module docstring)."""

    rules: ClassVar[str] = "race"
    title: ClassVar[str] = "Race"
    PLAYERS: ClassVar[tuple[int, int]] = (2, 4)
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option("bump", bool, True, help="landing on a runner sends it back to the start"),
        Option("exact_finish", bool, False, help="the goal needs the exact roll"),
        Option("sides", int, 6, low=2, high=12, help="sides of the die"),
    )
    MOVE: ClassVar[type[Move]] = RaceMove
    #: rule 2: roll, then move (or pass); nothing once somebody has won
    PHASES: ClassVar[dict[str, frozenset[str]]] = {
        "roll": frozenset({"roll"}),
        "move": frozenset({"move", "pass"}),
        "over": frozenset(),
    }
    EVENTS: ClassVar[dict[str, str]] = {
        "rolled": "{player} rolls {roll}",
        "moved": "{figure} runs from {from} to {to}",
        "bumped": "{figure} is sent back to the start",
        "won": "{player} reaches the goal and wins",
        "pass": "{player} cannot move {roll} steps",
        "again": "{player} lands on a bonus point: another turn",
        "turn": "{player} to move",
    }
    DICE_ORDER: ClassVar[str] = (
        "one die per turn, rolled by the 'roll' move of the player to move; the "
        "option 'sides' gives its faces"
    )
    STATE: ClassVar[type] = RaceState
    POSITION: ClassVar[type] = RacePosition
    STATE_VERSION: ClassVar[int] = 1

    track: Track
    places: dict[str, int]
    phase: Literal["roll", "move", "over"]
    player: int
    roll: int | None
    ply: int
    _outcome: Outcome | None

    # ------------------------------------------------------------------ set-up
    @classmethod
    def blank(
        cls, compiled: CompiledBoard, players: Sequence[str], options: dict[str, Any]
    ) -> Self:
        bad = [p for p in players if p not in COLOURS]
        if bad:
            raise StateError(f"players are colours of {', '.join(COLOURS)}, not {bad[0]!r}")
        g = super().blank(compiled, players, options)
        g.track = track_of(compiled)
        g.places = dict.fromkeys(players, g.track.start)
        g.phase, g.player, g.roll, g.ply, g._outcome = "roll", 0, None, 0, None
        return g

    @classmethod
    def setup(
        cls, compiled: CompiledBoard, players: int, seed: int, options: dict[str, Any]
    ) -> Self:
        g = cls.blank(compiled, COLOURS[:players], options)
        g.rng = Rng.from_seed(seed)
        return g

    # ------------------------------------------------------------------ declared state
    def dump_state(self) -> RaceState:
        ids = self.compiled.ids
        return RaceState(
            {p: ids[i] for p, i in self.places.items()},
            self.phase,
            self.player,
            self.roll,
            self.ply,
            self._outcome,
        )

    def load_state(self, state: RaceState) -> None:
        self._place(state.places)
        self.phase, self.player, self.roll = state.phase, state.player, state.roll
        self.ply, self._outcome = state.ply, state.outcome

    def dump_position(self) -> RacePosition:
        st = self.dump_state()
        return RacePosition(st.places, self.players[self.player], st.phase, st.roll, st.outcome)

    def load_position(self, position: RacePosition) -> None:
        self._place(position.places)
        if position.to_move is not None and position.to_move not in self.players:
            raise StateError(f"position.to_move: {position.to_move!r} is not a player")
        self.player = self.players.index(position.to_move) if position.to_move else 0
        self.phase, self.roll, self._outcome = position.phase, position.roll, position.outcome

    @classmethod
    def board_names(cls, compiled: CompiledBoard) -> list[BoardName]:
        """The start and the goal, as the rules name them."""
        t = track_of(compiled)
        return [
            BoardName("the start", compiled.ids[t.start], "start point", "rule 1"),
            BoardName("the goal", compiled.ids[t.goal], "goal point", "rule 1"),
        ]

    def _place(self, places: dict[str, str]) -> None:
        if set(places) != set(self.players):
            raise StateError(f"places: list the runners {', '.join(self.players)}, no other")
        ids = self.compiled.ids
        points = [ids[i] for i in self.track.points.points]
        names = {n.name: n.id for n in self.board_names(self.compiled)}
        for runner, node in places.items():
            at = resolve(node, points, names, f"places.{runner}", "point of this board")
            self.places[runner] = self.compiled.index[at]

    def invariants(self) -> list[str]:
        out: list[str] = []
        t = self.track
        on: dict[int, str] = {}
        for runner, i in self.places.items():
            if i in on and i != t.start and self.options["bump"]:
                out.append(f"{runner} and {on[i]} share {self.compiled.ids[i]}")
            on[i] = runner
        if not 0 <= self.player < len(self.players):
            out.append(f"player index {self.player} is out of range")
        if (self.phase == "move") != (self.roll is not None):
            out.append("a roll goes with the move phase, and only with it")
        if self.roll is not None and not 1 <= self.roll <= self.options["sides"]:
            out.append(f"roll {self.roll} is not on a {self.options['sides']}-sided die")
        if t.goal in on and self._outcome is None:
            out.append(f"{on[t.goal]} is on the goal but nobody has won")
        if (self.phase == "over") != (self._outcome is not None):
            out.append("phase over goes with an outcome, and only it")
        return out

    def copy(self) -> Self:
        g = object.__new__(type(self))
        g.__dict__ = {
            **self.__dict__,
            "places": dict(self.places),
            "rng": self.rng.copy(),
            "setup_events": list(self.setup_events),
        }
        return g

    # ------------------------------------------------------------------ rules
    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def to_move(self) -> str:
        return "nobody" if self._outcome else self.players[self.player]

    def _targets(self) -> list[int]:
        """Points the runner to move may go to with the roll (rule 2)."""
        assert self.roll is not None
        t = self.track
        d = t.points.steps_from(self.places[self.to_move], self.roll)
        out = [n for n, k in d.items() if k == self.roll]
        if not self.options["exact_finish"] and t.goal in d and t.goal not in out:
            out.append(t.goal)
        return sorted(out, key=self.compiled.ids.__getitem__)

    def generate_legal_moves(self) -> Iterator[RaceMove]:
        if self._outcome is not None:
            return
        if self.phase == "roll":
            yield RaceMove("roll")
            return
        targets = self._targets()
        for n in targets:
            yield RaceMove("move", self.compiled.ids[n])
        if not targets:
            yield RaceMove("pass")

    def die_faces(self) -> int:
        """The die has the option ``sides`` faces."""
        return int(self.options["sides"])

    def _check(self, move: RaceMove) -> None:
        # the kit has refused a finished race, other values and a verb out of phase
        if move.verb == "roll":
            return
        targets = self._targets()
        if move.verb == "pass":
            if targets:
                raise IllegalMoveError(
                    f"you cannot pass: {len(targets)} point(s) are {self.roll} steps away",
                    code="must_move",
                )
            return
        node = self.compiled.index.get(move.args[0])
        if node is None or node not in self.track.neighbours:
            raise IllegalMoveError(f"{move.args[0]} is not a point", code="no_such_point")
        if node not in targets:
            raise IllegalMoveError(
                f"{move.args[0]} is not {self.roll} steps from "
                f"{self.compiled.ids[self.places[self.to_move]]}",
                code="wrong_distance",
                details={"roll": self.roll},
            )

    def _apply(self, move: RaceMove) -> list[Event]:
        me = self.players[self.player]
        ids = self.compiled.ids
        self.ply += 1
        if move.verb == "roll":
            self.roll = self.rng.die(self.options["sides"])
            self.phase = "move"
            return [self.event("rolled", player=me, roll=self.roll)]
        events: list[Event] = []
        again = False
        if move.verb == "move":
            frm, to = self.places[me], self.compiled.index[move.args[0]]
            self.places[me] = to
            events.append(self.event("moved", figure=me, from_=ids[frm], to=ids[to]))
            if to == self.track.goal:
                self._outcome = won([me], ply=self.ply)
                self.phase, self.roll = "over", None
                events.append(self.event("won", winners=[me], words={"player": me}))
                return events
            for other, at in self.places.items():
                if other != me and at == to and self.options["bump"]:
                    self.places[other] = self.track.start
                    events.append(self.event("bumped", figure=other))
            again = to in self.track.again
        else:
            events.append(self.event("pass", player=me, words={"roll": self.roll}))
        self.phase, self.roll = "roll", None
        if again:
            events.append(self.event("again", player=me))
        else:
            self.player = (self.player + 1) % len(self.players)
            events.append(self.event("turn", player=self.players[self.player]))
        return events

    # ------------------------------------------------------------------ frontends
    def figures(self) -> dict[str, FigureView]:
        ids = self.compiled.ids
        return {
            p: FigureView(
                p,
                ids[i],
                p[:1].upper(),
                HEX[p],
                side="runner",
                owner=p,
                name=f"{p} runner",
                kind="runner",
            )
            for p, i in self.places.items()
        }

    def move_destination(self, move: RaceMove) -> tuple[str, str] | None:
        if move.verb == "move":
            return self.to_move, move.args[0]
        return None

    def evaluate(self, player: str) -> float | None:
        """Closer to the goal is better (for greedy bots)."""
        t = self.track
        left = t.points.steps_from(self.places[player]).get(t.goal)
        return None if left is None else 1.0 / (1.0 + left)


def register_cli(sub: Any) -> None:
    """``referee race-track BOARD``: the race's own verb (``RulesModule.cli``)."""
    p = sub.add_parser(
        "race-track",
        help="(race) how many steps from the start to the goal on a board",
        description="Print the points of a race board and the fewest steps from the "
        "start to the goal.",
    )
    p.add_argument("project")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_track)


def _cmd_track(args: Any) -> int:
    import json

    from referee.compiler import compile_board
    from referee.store import load_project

    compiled = compile_board(load_project(args.project))
    t = track_of(compiled)
    steps = t.points.steps_from(t.start).get(t.goal)
    out = {"points": len(t.points.points), "steps_to_goal": steps, "bonus_points": len(t.again)}
    if args.json:
        print(json.dumps(out))
    else:
        print(
            f"{out['points']} points, {steps} steps from start to goal, "
            f"{out['bonus_points']} bonus point(s)"
        )
    return 0
