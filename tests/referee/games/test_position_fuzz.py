"""Mutated positions of every built-in game (issue 27): each one loads, or is refused
by a one-line :class:`BoardwrightError` naming a field of the input (``position.`` and
the key path, or the frame's ``options``/``players``) — never another exception.

The default profile keeps the examples modest; ``-m slow`` runs many more."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.compiler import compile_board
from referee.errors import BoardwrightError
from referee.games import get_game, get_module
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[3]
POSITIONS = ROOT / "docs" / "positions"
BOARDS = {"ringgeister": ROOT / "projects" / "ringgeister"}
BUILT_IN = ("lotr-coop", "mount-doom", "riddle", "ringgeister")
SHIPPED = sorted(
    (p.name, json.loads(p.read_text()))
    for p in POSITIONS.glob("*.json")
    if json.loads(p.read_text())["rules"] in BUILT_IN
) + sorted(  # and the rulebook examples' positions (docs/positions/examples)
    (p.name, {"rules": ex["rules"], **ex["position"]})
    for p in (POSITIONS / "examples").glob("*.json")
    if (ex := json.loads(p.read_text()))["rules"] in BUILT_IN
)
HUGE = st.sampled_from([10**18, -(10**18), 2**64, 1e308, float("inf")])
WRONG = (
    st.none()
    | st.booleans()
    | st.integers(-3, 50)
    | HUGE
    | st.text(max_size=12)
    | st.sampled_from(
        ["nowhere", "the Shyre", "white starting pont 3", "boat.99", "", "Uruk-hai", "Good Army"]
    )
    | st.lists(st.integers(-1, 3) | st.text(max_size=4), max_size=3)
    | st.dictionaries(st.text(max_size=6), st.integers(-1, 3), max_size=2)
)


@pytest.fixture(scope="module")
def boards() -> dict[str, Any]:
    out = {}
    for _, pos in SHIPPED:
        rules = pos["rules"]
        if rules not in out:
            out[rules] = compile_board(
                load_project(get_module(rules).sample_path() or BOARDS[rules])
            )
    return out


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path inside ``value`` (the top level's keys first)."""
    out: list[tuple[Any, ...]] = []
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for k, v in items:
        out.append((*path, k))
        if isinstance(v, dict | list) and v:
            out.extend(_paths(v, (*path, k)))
    return out


def _fields(pos: Any, path: str = "position") -> set[str]:
    """The names a refusal may give a field of ``pos``: ``position.hands.frodo[1]``,
    ``position.hands`` ... (and the frame's ``options``, ``players``)."""
    out = {path}
    items = (
        ((f".{k}", v) for k, v in pos.items())
        if isinstance(pos, dict)
        else ((f"[{i}]", v) for i, v in enumerate(pos))
    )
    for suffix, v in items:
        out.add(path + suffix)
        if isinstance(v, dict | list):
            out |= _fields(v, path + suffix)
    return out


def mutate(data: st.DataObject, pos: dict[str, Any]) -> dict[str, Any]:
    pos = copy.deepcopy(pos)
    for _ in range(data.draw(st.integers(1, 2), label="mutations")):
        paths = _paths(pos)
        if not paths:
            break
        path = data.draw(st.sampled_from(paths), label="path")
        parent: Any = pos
        for k in path[:-1]:
            parent = parent[k]
        if data.draw(st.booleans(), label="drop") and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(WRONG, label="value")
    return pos


def names_a_field(msg: str, pos: dict[str, Any], shipped: dict[str, Any]) -> bool:
    """Whether ``msg`` names a field of the input as written: ``position.`` and a key
    path of it (or of the shipped position, for a key the mutation dropped, or a field
    of the game's schema the position should write), a field
    missing or unknown by name, a consistency check's field (``impossible R position:
    shield_pool: ...``), or the frame (``players``, ``rules``, ``option 'sauron'``)."""
    if any(f in msg for f in (_fields(pos) | _fields(shipped)) - {"position"}):
        return True
    declared = get_game(shipped["rules"]).position_schema()["properties"]
    if re.match(rf"position\.({'|'.join(map(re.escape, declared))})\b", msg):
        return True  # a field the position should write (draw: the cards left)
    if re.match(r"position: (missing|unknown) field '[^']*'", msg):
        return True
    check = re.match(r"impossible \S+ position: (\w+):", msg)
    if check and check.group(1) in {*pos, *shipped}:
        return True
    return re.match(r"(players|position is for rules|(unknown )?\S+ option ')", msg) is not None


def _check(boards: dict[str, Any], data: st.DataObject) -> None:
    name, shipped = data.draw(st.sampled_from(SHIPPED), label="position")
    pos = mutate(data, shipped)
    rules = shipped["rules"]
    try:
        get_game(rules).from_position(boards[rules], pos)
    except BoardwrightError as exc:
        msg = str(exc)
        assert "\n" not in msg, msg
        assert names_a_field(msg, pos, shipped), f"{name}: {msg}"


@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_a_mutated_position_loads_or_is_refused_naming_a_field(boards, data) -> None:  # type: ignore[no-untyped-def]
    _check(boards, data)


@pytest.mark.slow
@settings(
    max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_many_mutated_positions_load_or_are_refused_naming_a_field(boards, data) -> None:  # type: ignore[no-untyped-def]
    _check(boards, data)
