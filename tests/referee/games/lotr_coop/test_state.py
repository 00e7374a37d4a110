"""The cooperative game: the declared state, its checks on load, copy() (issues 13, 14)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.compiler import compile_board
from referee.errors import StateError
from referee.games.lotr_coop.game import LotrCoop
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[4]


@pytest.fixture(scope="module")
def compiled():  # type: ignore[no-untyped-def]
    return compile_board(load_project(ROOT / "projects" / "lotr-coop"))


def midgame(compiled, moves: int = 60, seed: int = 5) -> LotrCoop:  # type: ignore[no-untyped-def]
    g = LotrCoop.new(compiled, players=3, seed=seed)
    pol = random.Random(seed)
    for _ in range(moves):
        legal = list(g.legal_moves)
        if g.outcome is not None or not legal:
            break
        g.push(legal[pol.randrange(len(legal))])
    return g


def test_round_trip_keeps_every_field(compiled) -> None:  # type: ignore[no-untyped-def]
    g = midgame(compiled)
    h = LotrCoop.from_json(g.to_json(), compiled)
    assert h.to_json() == g.to_json()
    assert [str(m) for m in h.legal_moves] == [str(m) for m in g.legal_moves]


@pytest.mark.parametrize(
    "field,change",
    [
        ("corruption[1]", lambda d: d["state"]["corruption"].__setitem__(1, -50)),
        ("corruption", lambda d: d["state"]["corruption"].append(0)),
        ("sauron", lambda d: d["state"].update(sauron=99)),
        ("players", lambda d: d.update(players=["frodo", "gollum", "sam"])),
        ("active", lambda d: d["state"].update(active=5)),
        ("ringbearer", lambda d: d["state"].update(ringbearer=-1)),
        ("life[0]", lambda d: d["state"]["life"][0].update(heart=-2)),
        ("cards", lambda d: d["state"]["hands"][0].append(d["state"]["deck"][0])),
        ("hands[2]", lambda d: d["state"]["hands"][2].append("the-one-ring")),
        ("markers", lambda d: d["state"].update(markers={"fighting": 0})),
        ("scenario", lambda d: d["state"].update(scenario="rohan")),
        ("tiles", lambda d: d["state"]["tiles"].append("sundial")),
        ("gandalf_cards", lambda d: d["state"]["gandalf_cards"].append("magic")),
        ("queue[0].player", lambda d: d["state"]["queue"][0].update(player=9)),
        ("phase", lambda d: d["state"].update(phase="volunteer")),
        ("hands", lambda d: d["state"].update(hands="abc")),
        ("dice", lambda d: d.update(dice=[0])),
        ("sauron", lambda d: d.update(options={"sauron": "x"})),
    ],
)
def test_hand_edited_state_refused_naming_the_field(compiled, field: str, change) -> None:  # type: ignore[no-untyped-def]
    """Hand-edited impossible states are refused on load with one line naming the field."""
    data: dict[str, Any] = midgame(compiled, 10).to_json()
    change(data)
    with pytest.raises(StateError) as exc:
        LotrCoop.from_json(data, compiled)
    assert exc.value.code == "bad_state" and "\n" not in str(exc.value)
    assert field in str(exc.value)


def test_version_1_state_file_is_migrated(compiled) -> None:  # type: ignore[no-untyped-def]
    """A state file written before the kit (flat keys, ``names`` the players) still loads."""
    g = midgame(compiled, 30)
    new = g.to_json()
    flat = {
        "rules": "lotr-coop",
        "board_hash": new["board_hash"],
        "players": 3,
        "names": new["players"],
        "rng": new["rng"],
        **{k: v for k, v in new["state"].items() if k != "result"},
        "outcome": new["state"]["result"],
    }
    assert LotrCoop.from_json(flat, compiled).to_json() == new


def test_copy_is_independent(compiled) -> None:  # type: ignore[no-untyped-def]
    """copy() gives a game that plays on without touching the original (bots rely on it)."""
    g = midgame(compiled)
    before = g.to_json()
    c = g.copy()
    assert c.to_json() == before
    pol = random.Random(2)
    for _ in range(80):
        legal = list(c.legal_moves)
        if c.outcome is not None or not legal:
            break
        c.push(legal[pol.randrange(len(legal))])
    assert g.to_json() == before


def test_layout_is_kept_per_board(compiled) -> None:  # type: ignore[no-untyped-def]
    """One per-board cache: the layout lives in CompiledBoard.derived and is shared."""
    a = LotrCoop.new(compiled, players=2, seed=1)
    assert LotrCoop.new(compiled, players=2, seed=2).lay is a.lay
    compiled.forget("lotr-coop.layout")
    assert LotrCoop.new(compiled, players=2, seed=1).lay is not a.lay


def test_version_2_state_file_sauron_zero_becomes_the_start_space(compiled) -> None:  # type: ignore[no-untyped-def]
    """Version 2 wrote option ``sauron`` 0 for "the board's start"; such a file loads with
    the explicit default (the last space, 15), and Sauron stays where the state has him."""
    g = LotrCoop.new(compiled, players=3, seed=2)
    data = g.to_json()
    data.update(version=2, options={"sauron": 0})
    h = LotrCoop.from_json(data, compiled)
    assert h.options == {"sauron": 15} and h.sauron == g.sauron
    assert LotrCoop.new(compiled, players=3, seed=2).options == {"sauron": 15}


def test_every_verb_a_phase_allows_has_an_answer() -> None:
    """Each (phase, verb) of the declared PHASES is carried out by one answer of the
    table, or is an "any time" verb (carried out alike in every phase)."""
    from referee.games.lotr_coop.moves import PHASES

    allowed = {(ph, v) for ph, verbs in PHASES.items() for v in verbs}
    answered = set(LotrCoop._ANSWERS)
    assert answered <= allowed and answered.isdisjoint(
        (ph, v) for ph, v in allowed if v in LotrCoop._ANY_TIME
    )
    assert {pair for pair in allowed if pair[1] not in LotrCoop._ANY_TIME} <= answered
