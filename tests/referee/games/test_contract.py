"""The game contract, checked on every registered game (built-ins and plug-ins).

Each game found through the ``boardwright.rules`` entry points (or the built-in
subpackages) is played at random on its sample board, and must:

- declare an option table the kit parses (defaults, refusals in one line);
- round-trip its state through JSON (``to_json``/``from_json``, and ``copy``);
- describe its state and positions with valid JSON Schemas that its own states,
  positions and shipped example positions satisfy;
- leave the state unchanged when a move is rejected;
- replay: the same seed and moves give the same state;
- show each player only the events meant for them;
- round-trip positions: ``position(from_position(p)) == p``, same legal moves;
- keep its invariants after every move;
- give bots only what a player sees: ``determinise(player, rng)`` builds a separate
  game whose ``view(player)`` is the original's and leaves the original unchanged;
  ``evaluate(player)`` is ``None`` or within 0..1;
- never show the random generator: no ``view(player)`` carries its state or the
  fixed dice to come (they would foretell every die and shuffle).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.compiler import CompiledBoard, compile_board
from referee.errors import BoardwrightError, IllegalMoveError, UsageError
from referee.games import Game, Option, get_module, modules
from referee.games.base import CannotDeterminise
from referee.games.options import parse_options
from referee.store import load_project

from ...conftest import generator_leaks

ROOT = Path(__file__).resolve().parents[3]

#: sample boards of built-in games that do not name one in their RulesModule yet
SAMPLES = {
    "riddle": ROOT / "projects" / "riddle-sample",
    "mount-doom": ROOT / "projects" / "mount-doom",
    "lotr-coop": ROOT / "projects" / "lotr-coop",
    "ringgeister": ROOT / "projects" / "ringgeister",
}

#: games still being converted to the kit, and who converts them

GAMES = sorted(modules())
MOVES = 120


def kit_only(name: str) -> None:
    """Every registered game declares its state and its position format."""
    cls = get_module(name).game
    assert cls.STATE is not None, f"{name} declares no STATE (see docs/game-kit.md)"
    assert cls.POSITION is not None, f"{name} declares no POSITION (see docs/game-kit.md)"


_BOARDS: dict[str, CompiledBoard] = {}


def board(name: str) -> CompiledBoard:
    if name not in _BOARDS:
        rm = get_module(name)
        path = rm.sample_path() or SAMPLES.get(name)
        if path is None:
            pytest.fail(f"rules module {name} names no sample board (RulesModule.sample)")
        _BOARDS[name] = compile_board(load_project(path))
    return _BOARDS[name]


def players_of(cls: type[Game[Any]]) -> int:
    lo, hi = cls.PLAYERS
    return max(lo, min(hi, 2 if lo <= 2 else lo))


def new(name: str, seed: int = 1) -> Game[Any]:
    cls = get_module(name).game
    n = players_of(cls)
    try:
        return cls.new(board(name), players=n, seed=seed)
    except UsageError:
        for k in range(cls.PLAYERS[0], cls.PLAYERS[1] + 1):
            try:
                return cls.new(board(name), players=k, seed=seed)
            except UsageError:
                continue
        raise


def play(game: Game[Any], seed: int, moves: int = MOVES) -> Iterator[tuple[Any, list[Any]]]:
    """Random legal moves: yields (move, events) after each push."""
    rnd = random.Random(seed)
    for _ in range(moves):
        legal = list(game.legal_moves)
        if not legal or game.outcome is not None:
            return
        m = rnd.choice(legal)
        yield m, game.push(m)


def roundtrip(data: Any) -> Any:
    return json.loads(json.dumps(data))


# ====================================================================== options
@pytest.mark.parametrize("name", GAMES)
def test_option_table(name: str) -> None:
    kit_only(name)
    cls = get_module(name).game
    assert all(isinstance(o, Option) for o in cls.OPTIONS)
    defaults = {o.name: o.default for o in cls.OPTIONS}
    assert cls.parse_options({}) == defaults
    assert cls.parse_options({k: str(v) for k, v in defaults.items()}) == defaults
    with pytest.raises(UsageError) as exc:
        cls.parse_options({"no_such_option": 1})
    assert "\n" not in str(exc.value)
    for o in cls.OPTIONS:
        if o.type in (int, float):
            with pytest.raises(UsageError, match=r"finite|number"):
                parse_options(cls.OPTIONS, {o.name: "nan"})
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator.check_schema(cls.options_schema())


@pytest.mark.parametrize("name", GAMES)
def test_players_out_of_range_are_refused(name: str) -> None:
    cls = get_module(name).game
    with pytest.raises(BoardwrightError):
        cls.new(board(name), players=cls.PLAYERS[1] + 1, seed=0)


# ====================================================================== state
@pytest.mark.parametrize("name", GAMES)
def test_state_round_trips_through_json(name: str) -> None:
    g = new(name)
    for k, _ in enumerate(play(g, 2)):
        if k % 20 == 0:
            data = roundtrip(g.to_json())
            back = type(g).from_json(data, g.compiled)
            assert back.to_json() == data
            assert g.copy().to_json() == data
            assert [str(m) for m in back.legal_moves] == [str(m) for m in g.legal_moves]


@pytest.mark.parametrize("name", GAMES)
def test_schemas_are_valid_and_describe_states_and_positions(name: str) -> None:
    kit_only(name)
    jsonschema = pytest.importorskip("jsonschema")
    cls = get_module(name).game
    state_schema, position_schema = cls.state_schema(), cls.position_schema()
    jsonschema.Draft202012Validator.check_schema(state_schema)
    jsonschema.Draft202012Validator.check_schema(position_schema)
    g = new(name)
    for k, _ in enumerate(play(g, 3)):
        if k % 15 == 0:
            jsonschema.validate(roundtrip(g.to_json()), state_schema)
            jsonschema.validate(roundtrip(g.position()), position_schema)
    for p in get_module(name).position_paths():
        jsonschema.validate(json.loads(p.read_text()), position_schema)
        loaded = cls.from_position(board(name), json.loads(p.read_text()))
        assert loaded.invariants() == []


# ====================================================================== moves
@pytest.mark.parametrize("name", GAMES)
def test_rejected_moves_change_nothing(name: str) -> None:
    g = new(name)
    earlier: list[Any] = []
    for _ in play(g, 4):
        before = g.to_json()
        legal = {str(m) for m in g.legal_moves}
        tried = 0
        for m in earlier[-15:]:
            if str(m) in legal:
                continue
            with pytest.raises(IllegalMoveError):
                g.push(m)
            tried += 1
        for text in ("", "frobnicate the board", "pass pass pass pass"):
            with pytest.raises(IllegalMoveError):
                g.push_text(text)
        assert g.to_json() == before
        earlier.extend(g.legal_moves)


@pytest.mark.parametrize("name", GAMES)
def test_moves_round_trip_as_text(name: str) -> None:
    g = new(name)
    for _ in play(g, 5, 40):
        for m in g.legal_moves:
            assert m in g.legal_moves and str(m) in g.legal_moves
            assert g.parse_move(str(m)) == m
            assert hash(g.parse_move(str(m))) == hash(m)


@pytest.mark.parametrize("name", GAMES)
def test_replay_gives_the_same_game(name: str) -> None:
    g = new(name, seed=6)
    texts = [str(m) for m, _ in play(g, 6)]
    again = new(name, seed=6)
    for t in texts:
        again.push_text(t)
    assert again.to_json() == g.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_views_hide_private_events_and_stay_json(name: str) -> None:
    kit_only(name)
    g = new(name)
    for _, events in play(g, 7):
        for viewer in [*g.players, None]:
            shown = g.events_for(events, viewer)
            for ev in shown:
                audience = ev.get("private")
                assert audience is None or (viewer is not None and viewer in audience)
            roundtrip(g.view(viewer))


@pytest.mark.parametrize("name", GAMES)
def test_invariants_hold_after_every_move(name: str) -> None:
    for seed in (8, 9):
        g = new(name, seed=seed)
        assert g.invariants() == []
        for m, _ in play(g, seed):
            assert g.invariants() == [], f"after {m}"


# ====================================================================== positions
@pytest.mark.parametrize("name", GAMES)
def test_positions_round_trip(name: str) -> None:
    kit_only(name)
    cls = get_module(name).game
    g = new(name)
    for k, _ in enumerate(play(g, 10)):
        if k % 10 == 0:
            p = roundtrip(g.position())
            back = cls.from_position(g.compiled, p)
            assert back.position() == p
            assert [str(m) for m in back.legal_moves] == [str(m) for m in g.legal_moves]


@pytest.mark.parametrize("name", GAMES)
def test_no_view_shows_the_random_generator(name: str) -> None:
    g = new(name, seed=12)
    looked = 0
    for k, _ in enumerate(play(g, 12, 60)):
        if k % 6:
            continue
        shown = g.copy()
        shown.rng.fixed = [2, 5, 3]  # the dice to come, as a test or a position fixes them
        state = shown.rng.state
        assert str(state) in json.dumps(shown.to_json())  # the whole state has it: a leak shows
        for viewer in [*g.players, None]:
            view = roundtrip(shown.view(viewer))
            assert "rng" not in view and "dice" not in view, (name, viewer, k)
            assert generator_leaks(view, state) == [], (name, viewer, k)
        looked += 1
    assert looked >= 3


# ====================================================================== bot hooks
@pytest.mark.parametrize("name", GAMES)
def test_bots_search_worlds_that_look_the_same_to_the_player(name: str) -> None:
    g = new(name, seed=11)
    rebuilt = 0
    for k, _ in enumerate(play(g, 11, 80)):
        if k % 4 or g.outcome is not None:
            continue
        me = g.to_move
        before = roundtrip(g.to_json())
        try:
            world = g.determinise(me, random.Random(k))
        except CannotDeterminise:
            continue
        assert roundtrip(g.to_json()) == before, "determinise changed the game"
        assert world is not g
        assert roundtrip(world.view(me)) == roundtrip(g.view(me)), f"after {k} moves"
        assert world.invariants() == []
        again = g.determinise(me, random.Random(k))
        assert again.to_json() == world.to_json(), "the same generator deals the same world"
        value = g.evaluate(me)
        assert value is None or 0.0 <= value <= 1.0
        rebuilt += 1
    assert rebuilt >= 3, f"{name}: determinise refused (almost) every state"
