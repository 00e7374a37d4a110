"""Adventure to Mount Doom's positions (issue 14): the example, round trips, refusals."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from referee.compiler import compile_board
from referee.errors import StateError
from referee.games.mount_doom.game import MountDoom, Move
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[4]
EXAMPLE = ROOT / "docs" / "positions" / "mount-doom-start.json"


@pytest.fixture(scope="module")
def compiled():  # type: ignore[no-untyped-def]
    return compile_board(load_project(ROOT / "projects" / "mount-doom"))


def test_example_validates_and_round_trips(compiled) -> None:  # type: ignore[no-untyped-def]
    p = json.loads(EXAMPLE.read_text())
    jsonschema.validate(p, MountDoom.position_schema())
    g = MountDoom.from_position(compiled, p)
    assert g.position() == p
    assert g.phase == "start" and g.to_move == "p1"


@pytest.mark.parametrize("moves", [0, 7, 40])
def test_position_of_a_game_gives_the_same_game(compiled, moves: int) -> None:  # type: ignore[no-untyped-def]
    """new -> position -> from_position gives the same legal moves (mid-turn too)."""
    g = MountDoom.new(compiled, players=3, seed=4)
    pol = random.Random(4)
    for _ in range(moves):
        legal = list(g.legal_moves)
        g.push(legal[pol.randrange(len(legal))])
    h = MountDoom.from_position(compiled, g.position())
    assert [str(m) for m in h.legal_moves] == [str(m) for m in g.legal_moves]
    assert h.to_json() == g.to_json()


def test_rule_test_from_a_hand_written_position(compiled) -> None:  # type: ignore[no-untyped-def]
    """A rule test in a few lines: figures on nodes, a face-down Cave Troll at 1, the
    battle die fixed. "If the battle die shows the weapon of a companion who supports the
    Ring-bearer in battle, you have won the battle." (Gimli's axe is face 3.)"""
    g = MountDoom.from_position(
        compiled,
        {
            "players": ["p1", "p2"],
            "dice": [1, 3, 3, 4, 3],  # encounter 1 and 3; gimli 3, aragorn 4; encounter 3
            "companions": dict.fromkeys(("ringbearer", "aragorn", "legolas", "gimli"), "r02")
            | {"merry-pippin": "r00"},
            "ring": "resolve04",
            "row": [[{"card": "cave-troll", "up": False}], [], [{"card": "crebain"}], [], [], []],
        },
    )
    assert g.phase == "start" and g.invariants() == []
    g.push(Move("roll", "aragorn", "gimli"))
    g.push(Move("place", "1", "gimli"))
    assert g.pos["gimli"] == 2


@pytest.mark.parametrize(
    "change,where",
    [
        ({"companions": {"aragorn": "x"}}, "position.companions.aragorn"),
        ({"ring": "r05"}, "position.ring"),
        ({"to_move": "p9"}, "position.to_move"),
        (
            {"held": {"elrond": "p1"}},
            "position.row[3][0].card: card elrond is listed twice (also position.held.elrond)",
        ),
        ({"held": {}}, "position.box: card boromir is placed nowhere"),
        ({"companions": {"ringbearer": "r00"}}, "position.companions.aragorn: missing"),
        ({"stage": 9}, "position.stage"),
        (
            {"held": {"elrnd": "p1"}},
            "position.held.elrnd: 'elrnd' is no card of the pack (did you mean 'elrond'?)",
        ),
        ({"nazgul": 9}, "position.nazgul"),
    ],
)
def test_impossible_position_refused(compiled, change: dict[str, Any], where: str) -> None:  # type: ignore[no-untyped-def]
    p = json.loads(EXAMPLE.read_text())
    p.update(change)
    with pytest.raises(StateError) as exc:
        MountDoom.from_position(compiled, p)
    assert exc.value.code == "bad_state" and where in str(exc.value)


def test_partial_piles_top_listed_rest_from_the_seed(compiled) -> None:  # type: ignore[no-untyped-def]
    """A stage's stack and the Gandalf stack list their top; the rest of their cards is
    dealt under it from the seed (docs/reference/positions.md)."""
    p = {
        "players": ["p1", "p2"],
        "companions": dict.fromkeys(("ringbearer", "aragorn", "legolas", "gimli"), "r00")
        | {"merry-pippin": "r00"},
        "ring": "resolve04",
        "row": [[{"card": "watcher", "up": False}], [], [], [], [], []],
        "decks": {"2": ["eomer"]},
        "gandalf_stack": ["counsel"],
    }
    a, b, c = (MountDoom.from_position(compiled, {**p, "seed": s}) for s in (3, 3, 4))
    assert a.decks["2"][0] == "eomer" and sorted(a.decks["2"]) == sorted(a.lay.stage_decks[2])
    assert a.gandalf_stack[0] == "counsel" and len(a.gandalf_stack) == 5
    assert a.to_json() == b.to_json() and a.invariants() == []
    assert (a.decks, a.gandalf_stack) != (c.decks, c.gandalf_stack)
