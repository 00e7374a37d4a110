"""The game kit's own pieces: moves, events, options, declared state."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar, Literal

import pytest

from referee.errors import IllegalMoveError, StateError, UsageError
from referee.games import Move, Option, event, visible
from referee.games.options import parse_options
from referee.games.rng import Rng
from referee.games.state import decode, encode, schema


class RaceMove(Move):
    VERBS: ClassVar[dict[str, int | tuple[int, int]]] = {"move": 1, "pass": 0, "swap": (1, 2)}


class StepMove(Move):
    VERBS: ClassVar[dict[str, int | tuple[int, int]]] = {"step": 2, "pass": 0}
    IMPLIED_VERB = "step"


@pytest.mark.parametrize("text", ["move red", "pass", "swap a", "swap a b"])
def test_move_text_and_repr_round_trip(text: str) -> None:
    m = RaceMove.parse(text)
    assert str(m) == text
    assert RaceMove.parse(str(m)) == m
    assert eval(repr(m)) == m
    assert hash(m) == hash(eval(repr(m)))


def test_implied_verb_is_left_out_of_the_text() -> None:
    m = StepMove.parse("hobbit-yellow t3/p2")
    assert m == StepMove("step", "hobbit-yellow", "t3/p2")
    assert str(m) == "hobbit-yellow t3/p2"
    assert StepMove.parse("step hobbit-yellow t3/p2") == m


@pytest.mark.parametrize("text", ["", "fly red", "move", "move a b", "swap"])
def test_unreadable_moves_are_refused(text: str) -> None:
    with pytest.raises(IllegalMoveError) as exc:
        RaceMove.parse(text)
    assert exc.value.code == "bad_move"
    assert "\n" not in str(exc.value)


def test_moves_are_immutable_and_class_bound() -> None:
    m = RaceMove("move", "red")
    with pytest.raises(AttributeError):
        m.verb = "pass"  # type: ignore[misc]
    assert m != StepMove("move", "red")


def test_private_events_reach_only_their_audience() -> None:
    evs = [
        event("moved", "red moves", figure="red"),
        event("drew", "red draws the Ring", private=["red"], public=event("drew", "red draws")),
        event("peek", "blue looks", private=["blue"]),
    ]
    assert [e["text"] for e in visible(evs, "red")] == ["red moves", "red draws the Ring"]
    assert [e["text"] for e in visible(evs, "blue")] == ["red moves", "red draws", "blue looks"]
    assert [e["text"] for e in visible(evs, None)] == ["red moves", "red draws"]
    assert "public" not in visible(evs, "red")[1]


TABLE = (
    Option("laps", int, 1, low=1, high=9, help="laps"),
    Option("speed", float, 1.0, low=0.5, high=2.0),
    Option("variant", str, "default", choices=("A", "default")),
    Option("fast", bool, False),
)


def test_options_parse_text_and_fill_defaults() -> None:
    got = parse_options(TABLE, {"laps": "3", "fast": "yes", "speed": 2}, "race")
    assert got == {"laps": 3, "speed": 2.0, "variant": "default", "fast": True}


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ({"laps": "0"}, "between 1 and 9"),
        ({"laps": "x"}, "whole number"),
        ({"speed": "nan"}, "finite"),
        ({"speed": math.inf}, "finite"),
        ({"variant": "Z"}, "one of A, default"),
        ({"colour": "red"}, "unknown race option"),
        ({"fast": "maybe"}, "true or false"),
    ],
)
def test_bad_options_are_refused_in_one_line(raw: dict[str, object], words: str) -> None:
    with pytest.raises(UsageError) as exc:
        parse_options(TABLE, raw, "race")
    assert words in str(exc.value)
    assert exc.value.code == "bad_option"
    assert "\n" not in str(exc.value)


@dataclass
class Pile:
    cards: list[str]
    face_up: str | None = None


@dataclass
class Declared:
    places: dict[str, str]
    phase: Literal["setup", "play"]
    piles: list[Pile]
    turn: int = field(default=0, metadata={"low": 0, "help": "whose turn"})


def test_declared_state_round_trips_and_has_a_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    st = Declared({"red": "s1"}, "play", [Pile(["a", "b"], "c")], 1)
    data = encode(st)
    assert decode(Declared, data) == st
    sch = schema(Declared, "test")
    jsonschema.Draft202012Validator.check_schema(sch)
    jsonschema.validate(data, sch)
    assert sch["properties"]["turn"]["description"] == "whose turn"


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"places": {}, "phase": "play", "piles": [{"cards": [7]}]}, "state.piles[0].cards[0]"),
        ({"places": {}, "phase": "over", "piles": []}, "state.phase"),
        ({"places": {}, "phase": "play"}, "missing field 'piles'"),
        ({"places": {}, "phase": "play", "piles": [], "tunr": 1}, "unknown field 'tunr'"),
        ({"places": {}, "phase": "play", "piles": [], "turn": -1}, "out of range"),
        ({"places": {}, "phase": "play", "piles": [], "turn": True}, "whole number"),
    ],
)
def test_malformed_declared_state_is_refused_naming_the_field(
    data: dict[str, object], words: str
) -> None:
    with pytest.raises(StateError) as exc:
        decode(Declared, data)
    assert exc.value.code == "bad_state"
    assert words in str(exc.value)


def test_fixed_dice_come_first_then_the_generator() -> None:
    r = Rng.from_seed(1)
    free = Rng.from_seed(1)
    r.fixed = [6, 6]
    assert [r.die(), r.die()] == [6, 6]
    assert r.die() == free.die()
    assert r.copy().state == r.state


def test_plugin_properties_extend_a_copy_of_the_generic_table() -> None:
    from referee.games import available
    from referee.model import PROP_SPECS
    from referee.vocabulary import prop_specs

    merged = prop_specs(PROP_SPECS)
    for kind, specs in PROP_SPECS.items():
        assert all(merged[kind][k] == v for k, v in specs.items())
    if "race" in available():
        assert merged["point"]["again"] == {"type": "bool"}
        assert "again" not in PROP_SPECS["point"]


def test_a_game_that_defines_view_is_refused() -> None:
    """``Game.view`` keeps the generator out of every view; a game that replaced it
    could show a player the dice to come, so games override ``dump_view`` instead."""
    from referee.games.base import Game

    with pytest.raises(TypeError, match="dump_view"):

        class Peeking(Game[Move]):
            rules = "peeking"

            def view(self, player: str | None = None) -> dict[str, object]:
                return self.to_json()
