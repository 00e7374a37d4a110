"""The rulebooks' worked examples as positions (``docs/positions/examples/*.json``).

Each file is one example: ``rules``, ``project`` (the board), ``rulebook`` (the
sentence it shows), ``position`` (the situation, written as a player would, names
allowed), ``moves`` (played in order) and ``expect``: fields of ``referee position``
after the moves — every key given must match (nested objects key by key, lists
whole); keys left out are not checked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from referee.compiler import compile_board
from referee.games import get_game
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = sorted((ROOT / "docs" / "positions" / "examples").glob("*.json"))


def mismatches(expected: Any, actual: Any, where: str = "") -> list[str]:
    """Where ``actual`` differs from ``expected`` (objects: the keys expected only)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out: list[str] = []
        for k, v in expected.items():
            if k not in actual:
                out.append(f"{where}.{k}: missing")
            else:
                out += mismatches(v, actual[k], f"{where}.{k}")
        return out
    return [] if expected == actual else [f"{where}: {actual!r}, not {expected!r}"]


def test_examples_exist() -> None:
    assert {json.loads(p.read_text())["rules"] for p in EXAMPLES} >= {"mount-doom", "lotr-coop"}


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_rulebook_example_plays_as_the_rulebook_says(path: Path) -> None:
    ex = json.loads(path.read_text())
    assert ex["rulebook"].strip(), "an example quotes the rulebook"
    game_cls = get_game(ex["rules"])
    jsonschema.validate(ex["position"], game_cls.position_schema())  # names and all
    compiled = compile_board(load_project(ROOT / ex["project"]))
    game = game_cls.from_position(compiled, ex["position"])
    for text in ex["moves"]:
        game.push(game.parse_move(text))
    assert mismatches(ex["expect"], game.position()) == []


def test_a_wrong_expectation_is_caught() -> None:
    """The comparison can fail: a key expected with another value, or missing."""
    assert mismatches({"a": {"b": 1}}, {"a": {"b": 2, "c": 3}}) == [".a.b: 2, not 1"]
    assert mismatches({"x": [1]}, {}) == [".x: missing"]
