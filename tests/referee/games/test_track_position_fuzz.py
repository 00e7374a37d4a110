"""Mutated track-game positions: each one loads, or is refused in one line naming the
position's field (never a traceback of another kind)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.compiler import compile_board
from referee.errors import StateError
from referee.games.lotr_coop.game import LotrCoop
from referee.games.mount_doom.game import MountDoom
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[3]
GAMES = {
    "mount-doom": (MountDoom, "projects/mount-doom", "mount-doom-start.json"),
    "lotr-coop": (LotrCoop, "projects/lotr-coop", "lotr-coop-moria.json"),
}
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 50) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


def positions(rules: str) -> list[dict[str, Any]]:
    """The shipped position of ``rules`` and its rulebook examples' positions."""
    shipped = [json.loads((ROOT / "docs" / "positions" / GAMES[rules][2]).read_text())]
    examples = sorted((ROOT / "docs" / "positions" / "examples").glob(f"{rules}-*.json"))
    return shipped + [json.loads(p.read_text())["position"] for p in examples]


@pytest.fixture(scope="module")
def boards() -> dict[str, Any]:
    return {r: compile_board(load_project(ROOT / proj)) for r, (_, proj, _) in GAMES.items()}


@pytest.mark.parametrize("rules", sorted(GAMES))
@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_mutated_position_loads_or_is_refused_naming_a_field(boards, rules: str, data) -> None:  # type: ignore[no-untyped-def]
    game_cls = GAMES[rules][0]
    pos = copy.deepcopy(data.draw(st.sampled_from(positions(rules))))
    # the fields that set a decision without a queue are mutated even where left out
    extra = {"tray", "phase", "rolled", "queue", "at", "turned", "battle", "event"}
    extra |= {
        "uruk_battles",
        "before_roll",
        "left_out",
        "ring_line",
        "ring_then",
        "ring_then_owed",
        "more_dice",
    }
    key = data.draw(st.sampled_from(sorted({*pos, *extra, "answering", "owed", "draws"})))
    target: Any = pos
    inner = pos.get(key)
    if isinstance(inner, dict) and inner and data.draw(st.booleans()):
        target, key = inner, data.draw(st.sampled_from(sorted(inner)))
    elif isinstance(inner, list) and inner and data.draw(st.booleans()):
        target, key = inner, data.draw(st.integers(0, len(inner) - 1))
    target[key] = data.draw(JSON)
    try:
        game_cls.from_position(boards[rules], pos)
    except StateError as exc:
        msg = str(exc)
        assert "\n" not in msg and ("position" in msg or "option" in msg), msg


@pytest.mark.parametrize("rules", sorted(GAMES))
def test_every_position_field_is_described(rules: str) -> None:
    """``referee schema position RULES`` describes every field a position may write
    (nested objects' fields included)."""
    schema = GAMES[rules][0].position_schema()
    missing: list[str] = []

    def walk(props: dict[str, Any], where: str) -> None:
        for name, sub in props.items():
            if not sub.get("description"):
                missing.append(f"{where}{name}")

    walk(schema["properties"], "")
    for dname, d in schema.get("$defs", {}).items():
        walk(d.get("properties", {}), f"{dname}.")
    assert missing == []


@pytest.mark.parametrize("rules", sorted(GAMES))
def test_position_phases_are_the_games_phases(rules: str) -> None:
    """The phases a position may name are the game's declared phases (but ``over``: a
    finished position writes its ``result``)."""
    game_cls = GAMES[rules][0]
    enum = game_cls.position_schema()["properties"]["phase"]["anyOf"][0]["enum"]
    assert sorted(enum) == sorted(p for p in game_cls.PHASES if p != "over")
