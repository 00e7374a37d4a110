"""Adventure to Mount Doom: the declared state, its checks on load, copy() (issues 13, 14)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.compiler import compile_board
from referee.errors import StateError
from referee.games.mount_doom.game import MountDoom
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[4]


@pytest.fixture(scope="module")
def compiled():  # type: ignore[no-untyped-def]
    return compile_board(load_project(ROOT / "projects" / "mount-doom"))


def midgame(compiled, moves: int = 80, seed: int = 5) -> MountDoom:  # type: ignore[no-untyped-def]
    g = MountDoom.new(compiled, players=3, seed=seed)
    pol = random.Random(seed)
    for _ in range(moves):
        legal = list(g.legal_moves)
        if g.outcome is not None or not legal:
            break
        g.push(legal[pol.randrange(len(legal))])
    return g


def edited(compiled, change) -> StateError:  # type: ignore[no-untyped-def]
    data: dict[str, Any] = midgame(compiled, 20).to_json()
    change(data)
    with pytest.raises(StateError) as exc:
        MountDoom.from_json(data, compiled)
    assert exc.value.code == "bad_state" and "\n" not in str(exc.value)
    return exc.value


def test_round_trip_keeps_every_field(compiled) -> None:  # type: ignore[no-untyped-def]
    g = midgame(compiled)
    h = MountDoom.from_json(g.to_json(), compiled)
    assert h.to_json() == g.to_json()
    assert [str(m) for m in h.legal_moves] == [str(m) for m in g.legal_moves]


@pytest.mark.parametrize(
    "field,change",
    [
        ("pos.aragorn", lambda d: d["state"]["pos"].update(aragorn="x")),
        ("pos.gimli", lambda d: d["state"]["pos"].update(gimli=999)),
        ("pos", lambda d: d["state"]["pos"].pop("legolas")),
        ("ring", lambda d: d["state"].update(ring=-3)),
        ("nazgul", lambda d: d["state"].update(nazgul=12)),
        ("current", lambda d: d["state"].update(current=7)),
        ("players", lambda d: d.update(players=[])),
        ("cards", lambda d: d["state"]["box"].append(d["state"]["decks"]["2"][0])),
        ("cards", lambda d: d["state"]["box"].append("no-such-card")),
        ("held[0]", lambda d: d["state"]["held"][0].update(owner=9)),
        ("stage", lambda d: d["state"].update(stage=9)),
        ("phase", lambda d: d["state"].update(phase="army")),
        ("queue", lambda d: d["state"].update(queue=[])),
        ("rng", lambda d: d.update(rng="abc")),
        ("turn", lambda d: d["state"].update(turn="abc")),
        ("dice", lambda d: d.update(dice=[9])),
        ("variant", lambda d: d.update(options={"variant": "nightmare"})),
    ],
)
def test_hand_edited_state_refused_naming_the_field(compiled, field: str, change) -> None:  # type: ignore[no-untyped-def]
    """Hand-edited impossible states (Mount Doom ``pos: "x"``, a card in two places, a
    player who does not exist) are refused on load with one line naming the field."""
    err = edited(compiled, change)
    assert field in str(err)


def test_version_1_state_file_is_migrated(compiled) -> None:  # type: ignore[no-untyped-def]
    """A state file written before the kit (flat keys, ``players`` a count) still loads."""
    g = midgame(compiled, 30)
    new = g.to_json()
    flat = {
        "rules": "mount-doom",
        "board_hash": new["board_hash"],
        "players": 3,
        "friends_in_need": False,
        "without_protection": False,
        "rng": new["rng"],
        **{k: v for k, v in new["state"].items() if k != "result"},
        "outcome": new["state"]["result"],
    }
    h = MountDoom.from_json(flat, compiled)
    assert h.to_json() == new


@pytest.mark.parametrize(
    "old,variant",
    [
        (
            {"variant": "standard", "friends_in_need": True, "without_protection": False},
            "friends-in-need",
        ),
        (
            {"variant": "friends-in-need", "friends_in_need": False, "without_protection": True},
            "both",
        ),
        (
            {
                "variant": "without-protection",
                "friends_in_need": False,
                "without_protection": False,
            },
            "without-protection",
        ),
    ],
)
def test_version_2_state_file_variant_booleans_become_the_variant(compiled, old, variant) -> None:  # type: ignore[no-untyped-def]
    """A version-2 state file held the variant twice (``variant`` and two booleans); it
    loads with the one ``variant`` they meant together."""
    g = midgame(compiled, 10)
    data = g.to_json()
    data.update(version=2, options=old)
    h = MountDoom.from_json(data, compiled)
    assert h.options == {"variant": variant} and h.to_json()["version"] == 3
    assert h.friends_in_need == (variant in ("friends-in-need", "both"))
    assert h.without_protection == (variant in ("without-protection", "both"))


def test_copy_is_independent(compiled) -> None:  # type: ignore[no-untyped-def]
    """copy() gives a game that plays on without touching the original (bots rely on it)."""
    g = midgame(compiled)
    before = g.to_json()
    c = g.copy()
    assert c.to_json() == before
    pol = random.Random(1)
    for _ in range(60):
        legal = list(c.legal_moves)
        if c.outcome is not None or not legal:
            break
        c.push(legal[pol.randrange(len(legal))])
    assert g.to_json() == before


def test_layout_is_kept_per_board(compiled) -> None:  # type: ignore[no-untyped-def]
    """One per-board cache: the layout lives in CompiledBoard.derived and is shared."""
    a = MountDoom.new(compiled, players=2, seed=1)
    b = MountDoom.new(compiled, players=2, seed=2)
    assert a.lay is b.lay
    compiled.forget("mount-doom.layout")
    assert MountDoom.new(compiled, players=2, seed=1).lay is not a.lay


def test_evaluate_for_bots(compiled) -> None:  # type: ignore[no-untyped-def]
    """evaluate(): in (0, 1) while the game goes on, higher when the Ring-bearer is further;
    1 won, 0 lost (every player alike: the game is cooperative)."""
    g = MountDoom.new(compiled, players=2, seed=1)
    e0 = g.evaluate("p1")
    assert e0 is not None and 0 < e0 < 1 and g.evaluate("p2") == e0
    g.pos["ringbearer"] = 10
    assert g.evaluate("p1") > e0  # type: ignore[operator]
    g._finish("lost", "test", [])
    assert g.evaluate("p1") == 0.0 and g.to_move == "nobody"


@pytest.mark.parametrize(
    "field,queue",
    [
        ("queue[0].who", [{"op": "ask", "phase": "advance"}]),
        ("queue", [{"op": "ask", "phase": "place1"}]),  # nothing was rolled
        ("queue", [{"op": "ask", "phase": "resolve"}, {"op": "effect", "effect": {"op": "?"}}]),
    ],
)
def test_hand_edited_queue_refused_not_a_traceback_later(compiled, field: str, queue) -> None:  # type: ignore[no-untyped-def]
    """A queue the rules cannot go on from is refused on load (one line), not met later."""
    data: dict[str, Any] = midgame(compiled, 0).to_json()
    data["state"]["queue"] = queue + data["state"]["queue"]
    data["state"]["phase"] = queue[0]["phase"]
    with pytest.raises(StateError) as exc:
        MountDoom.from_json(data, compiled)
    assert exc.value.code == "bad_state" and field in str(exc.value)
    assert "\n" not in str(exc.value)


def test_every_verb_a_phase_allows_has_an_answer() -> None:
    """Each (phase, verb) of the declared PHASES is carried out by one answer of the
    table, but the "any time" ``use`` (carried out first, in every phase); the table
    names no pair the phases do not allow."""
    from referee.games.mount_doom.moves import PHASES

    allowed = {(ph, v) for ph, verbs in PHASES.items() for v in verbs}
    answered = set(MountDoom._ANSWERS)
    assert answered <= allowed
    assert {pair for pair in allowed if pair[1] != "use"} <= answered
