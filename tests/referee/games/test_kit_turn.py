"""The kit owns the turn: sealed ``check``/``push``, the phase table, rollback through
``copy()``, the typed outcome, event templates and fixed dice checked against the die.

A toy game (roll a die, then take that many or fewer stones; whoever takes the last
stone wins) is enough to pin every guarantee down without any real rulebook.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal, Self

import pytest

from referee.compiler import CompiledBoard, compile_board
from referee.errors import IllegalMoveError, StateError
from referee.games import Event, Game, Move, Outcome, draw, event, lost, won
from referee.games.rng import Rng
from referee.store import load_project

BOARD = Path(__file__).resolve().parents[2] / "fixtures" / "boards" / "road-row.json"


class StoneMove(Move):
    __slots__ = ()
    VERBS: ClassVar[dict[str, int | tuple[int, int]]] = {"roll": 0, "take": 1, "pass": 0}


@dataclass
class StoneState:
    stones: int = field(metadata={"low": 0, "help": "stones left"})
    phase: Literal["roll", "take", "over"] = field(metadata={"help": "what comes next"})
    player: int = field(default=0, metadata={"low": 0, "help": "index of the player to move"})
    roll: int = field(default=0, metadata={"low": 0, "help": "the die, once rolled"})
    outcome: Outcome | None = field(default=None, metadata={"help": "how it ended"})


class Stones(Game[StoneMove]):
    rules: ClassVar[str] = "stones"
    title: ClassVar[str] = "Stones"
    PLAYERS: ClassVar[tuple[int, int]] = (2, 2)
    MOVE: ClassVar[type[Move]] = StoneMove
    STATE: ClassVar[type] = StoneState
    POSITION: ClassVar[type] = StoneState
    PHASES: ClassVar[dict[str, frozenset[str]]] = {
        "roll": frozenset({"roll"}),
        "take": frozenset({"take", "pass"}),
        "over": frozenset(),
    }
    EVENTS: ClassVar[dict[str, str]] = {
        "rolled": "{player} rolls {roll}",
        "took": "{player} takes {n} ({left} left)",
    }
    DIE_FACES: ClassVar[int] = 3

    stones: int
    player: int
    roll: int
    _outcome: Outcome | None
    #: set by a test: _apply raises after changing the state half way
    explode: bool = False
    restored: int = 0

    @classmethod
    def blank(cls, compiled: CompiledBoard, players: Any, options: dict[str, Any]) -> Self:
        g = super().blank(compiled, players, options)
        g.stones, g.phase, g.player, g.roll, g._outcome = 5, "roll", 0, 0, None
        return g

    @classmethod
    def setup(cls, compiled: CompiledBoard, players: int, seed: int, options: Any) -> Self:
        g = cls.blank(compiled, ["a", "b"], options)
        g.rng = Rng.from_seed(seed)
        return g

    def dump_state(self) -> StoneState:
        return StoneState(self.stones, self.phase, self.player, self.roll, self._outcome)  # type: ignore[arg-type]

    def load_state(self, state: StoneState) -> None:
        self.stones, self.phase, self.player = state.stones, state.phase, state.player
        self.roll, self._outcome = state.roll, state.outcome

    dump_position = dump_state
    load_position = load_state

    def copy(self) -> Self:
        g = object.__new__(type(self))
        g.__dict__ = {**self.__dict__, "rng": self.rng.copy()}
        return g

    def _restore(self, snapshot: Self) -> None:
        super()._restore(snapshot)
        type(self).restored += 1

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def to_move(self) -> str:
        return "nobody" if self._outcome else self.players[self.player]

    def generate_legal_moves(self) -> Iterator[StoneMove]:
        if self._outcome is not None:
            return
        if self.phase == "roll":
            yield StoneMove("roll")
            return
        for n in range(1, min(self.roll, self.stones) + 1):
            yield StoneMove("take", str(n))

    def _check(self, move: StoneMove) -> None:
        self.checked = move  # the kit's pre-checks come first: this sees only the rest
        if move.verb == "pass":
            raise IllegalMoveError("you must take a stone", code="must_take")
        n = move.args[0] if move.args else ""
        if move.verb == "take" and not (n.isdigit() and 1 <= int(n) <= min(self.roll, self.stones)):
            raise IllegalMoveError(f"take 1 to {self.roll}", code="too_many")

    def _apply(self, move: StoneMove) -> list[Event]:
        me = self.players[self.player]
        if move.verb == "roll":
            self.roll, self.phase = self.rng.die(3), "take"
            return [self.event("rolled", player=me, roll=self.roll)]
        self.stones -= int(move.args[0])
        if self.explode:
            raise RuntimeError("a bug half way through a move")
        out = [self.event("took", player=me, n=int(move.args[0]), left=self.stones)]
        if self.stones == 0:
            self._outcome, self.phase = won([me], ply=1), "over"
        else:
            self.phase, self.player = "roll", 1 - self.player
        return out


@pytest.fixture(scope="module")
def board() -> CompiledBoard:
    return compile_board(load_project(BOARD))


def stones(board: CompiledBoard, **position: Any) -> Stones:
    return Stones.from_position(board, {"players": ["a", "b"], **position})


# ====================================================================== sealed turn
def test_the_phase_table_refuses_a_verb_before_the_game_checks(board: CompiledBoard) -> None:
    g = stones(board, stones=5, phase="roll")
    with pytest.raises(IllegalMoveError) as exc:
        g.check(StoneMove("take", "1"))
    assert exc.value.code == "wrong_phase"
    assert exc.value.message == "'take' is not possible now (roll; possible: roll)"
    assert exc.value.details["possible"] == ["roll"]
    assert "checked" not in g.__dict__  # the game's own check never ran
    g.check(StoneMove("roll"))
    assert g.__dict__["checked"] == StoneMove("roll")


def test_a_finished_game_and_a_foreign_move_are_refused_by_the_kit(board: CompiledBoard) -> None:
    over = stones(
        board, stones=0, phase="over", outcome={"result": "won", "winners": ["a"], "ply": 3}
    )
    with pytest.raises(IllegalMoveError) as exc:
        over.push(StoneMove("roll"))
    assert exc.value.code == "game_over"
    assert exc.value.details == {"outcome": {"result": "won", "winners": ["a"], "ply": 3}}
    g = stones(board, stones=5, phase="roll")
    with pytest.raises(IllegalMoveError) as exc:
        g.push(Move("roll"))  # a kit Move, not the game's StoneMove
    assert exc.value.code == "bad_move"
    assert not g.is_legal(Move("roll")) and g.is_legal("roll")


def test_a_move_failing_half_way_is_rolled_back_through_copy(board: CompiledBoard) -> None:
    g = stones(board, stones=5, phase="take", roll=2)
    before = g.to_json()
    g.explode = True
    with pytest.raises(RuntimeError, match="half way"):
        g.push(StoneMove("take", "2"))
    assert g.to_json() == before and g.stones == 5
    assert Stones.restored >= 1  # through the game's restore hook
    g.explode = False
    assert [e["text"] for e in g.push(StoneMove("take", "2"))] == ["a takes 2 (3 left)"]


def test_a_rejected_move_changes_nothing(board: CompiledBoard) -> None:
    g = stones(board, stones=5, phase="take", roll=2)
    before = g.to_json()
    for bad in ("pass", "take 3", "roll"):
        with pytest.raises(IllegalMoveError):
            g.push_text(bad)
    assert g.to_json() == before


@pytest.mark.parametrize("name", ["push", "check", "view"])
def test_a_game_may_not_replace_a_sealed_method(name: str) -> None:
    def replacement(self: Any, *args: Any) -> Any:
        return None

    with pytest.raises(TypeError, match=f"defines {name}\\(\\)"):
        type("Cheat", (Stones,), {name: replacement})


def test_phases_naming_a_verb_the_move_cannot_read_are_refused() -> None:
    with pytest.raises(TypeError, match="'jump'"):
        type("Jumpy", (Stones,), {"PHASES": {"roll": frozenset({"jump"})}})


# ====================================================================== outcome
def test_outcomes_keep_todays_json_and_read_it_back() -> None:
    w = won(["yellow"], figure="hobbit-yellow", ply=41)
    assert w.to_json() == {
        "result": "won",
        "winners": ["yellow"],
        "figure": "hobbit-yellow",
        "ply": 41,
    }
    assert list(w.to_json()) == ["result", "winners", "figure", "ply"]
    lose = lost(reason="ringbearer_caught", by="spirit-3")
    assert lose.to_json() == {
        "result": "lost",
        "winners": [],
        "reason": "ringbearer_caught",
        "by": "spirit-3",
    }
    for o in (w, lose, draw(reason="turn_limit", rounds=100)):
        assert Outcome.from_json(o.to_json()) == o
    assert w.won_by("yellow") and not w.won_by("orange")
    assert str(lose) == "lost (ringbearer_caught)" and str(w) == "won by yellow"


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"result": "won", "winner": "a"}, "outcome: 'winner' is an old key"),
        ({"result": "victory", "winners": []}, "outcome.result: expected one of"),
        ({"result": "won"}, "outcome: missing field 'winners'"),
        ({"result": "won", "winners": "a"}, "outcome.winners: expected a list of names"),
        ({"result": "lost", "winners": ["a"]}, "a game that ends lost has no winners"),
        ({"result": "draw", "winners": [], "reason": 3}, "outcome.reason: expected text"),
    ],
)
def test_a_malformed_outcome_is_refused_in_one_line(
    board: CompiledBoard, data: dict[str, Any], words: str
) -> None:
    g = stones(board, stones=0, phase="over", outcome={"result": "won", "winners": ["a"]})
    state = g.to_json()
    state["state"]["outcome"] = data
    with pytest.raises(StateError) as exc:
        Stones.from_json(state, board)
    assert words in str(exc.value) and "\n" not in str(exc.value)
    assert exc.value.code == "bad_state"


def test_the_outcome_schema_refuses_the_old_key() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = Stones.state_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    frame = {"rules": "stones", "version": 1, "board_hash": "x", "players": ["a", "b"]}
    ok = {**frame, "options": {}, "rng": 1, "state": {"stones": 0, "phase": "over"}}
    ok["state"]["outcome"] = {"result": "won", "winners": ["a"], "ply": 2}
    jsonschema.validate(ok, schema)
    ok["state"]["outcome"] = {"result": "won", "winners": ["a"], "winner": "a"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(ok, schema)


# ====================================================================== events
def test_event_text_comes_from_the_template_and_its_fields() -> None:
    ev = event("moved", "{name} moves from {from} to {to}", words={"name": "Red"},
               figure="red", to="s4", from_="s1")  # fmt: skip
    assert ev == {
        "type": "moved",
        "text": "Red moves from s1 to s4",
        "figure": "red",
        "to": "s4",
        "from": "s1",
    }
    with pytest.raises(ValueError, match="needs 'to'"):
        event("moved", "to {to}", figure="red")
    with pytest.raises(ValueError, match="private"):
        event("drew", "a card", public=event("drew", "a card"))


def test_a_game_builds_its_events_from_its_table(board: CompiledBoard) -> None:
    g = stones(board, stones=5, phase="roll", dice=[2])
    assert g.push_text("roll") == [
        {"type": "rolled", "text": "a rolls 2", "player": "a", "roll": 2}
    ]
    with pytest.raises(KeyError):
        g.event("no_such_event", player="a")


# ====================================================================== dice
def test_fixed_dice_no_die_shows_are_refused_naming_the_die(board: CompiledBoard) -> None:
    with pytest.raises(StateError) as exc:
        stones(board, stones=5, phase="roll", dice=[7, 0, -1])
    assert str(exc.value) == "position.dice[0]: 7 is no face of the die (1 to 3)"
    with pytest.raises(StateError, match=r"position.dice\[1\]: 0 is no face"):
        stones(board, stones=5, phase="roll", dice=[3, 0])
    g = stones(board, stones=5, phase="roll", dice=[3])
    state = g.to_json()
    state["dice"] = [1, 4]
    with pytest.raises(StateError, match=r"^dice\[1\]: 4 is no face of the die \(1 to 3\)$"):
        Stones.from_json(state, board)


def test_a_game_without_dice_refuses_fixed_dice(board: CompiledBoard) -> None:
    Diceless = type("Diceless", (Stones,), {"DIE_FACES": 0})
    with pytest.raises(StateError, match=r"^position.dice: Stones rolls no dice"):
        Diceless.from_position(board, {"players": ["a", "b"], "stones": 1, "phase": "roll",
                                       "dice": [1]})  # fmt: skip


# ====================================================================== schema strictness
def test_every_field_of_the_kit_frames_is_described() -> None:
    for schema in (Stones.position_schema(), Stones.state_schema()):
        bare = [k for k, v in schema["properties"].items() if "description" not in v]
        assert bare == []
    dice = Stones.position_schema()["properties"]["dice"]
    assert dice["items"] == {"type": "integer", "minimum": 1, "maximum": 3}
    assert "they are used in this order" in dice["description"]
