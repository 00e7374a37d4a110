"""Self-play invariants and hidden information, on the test grid and on the sample map."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from referee.compiler import compile_board
from referee.errors import IllegalMoveError, StateError
from referee.games import get_game
from referee.games.riddle import RiddleGame
from referee.games.riddle.moves import Move
from referee.store import load_project

from .conftest import SPECIAL, grid_board, hand, new_game, put, turn_of

SAMPLE = Path(__file__).resolve().parents[4] / "projects" / "riddle-sample"
JUNK = (
    "roll",
    "pass",
    "discard nothing",
    "battle nobody",
    "move r0c0>r4c4",
    "take boat.1",
    "match good_army1.1",
    "ring",
    "place r2c2",
    "guess boat",
)


def play(g, rnd, max_plies=4000, every=None):
    texts = []
    for _ in range(max_plies):
        if g.outcome is not None:
            break
        ms = list(g.legal_moves)
        assert ms, f"no legal move in phase {g.phase}"
        m = rnd.choice(ms)
        if every:
            every(g, ms)
        ev = g.push(m)
        texts.append(str(m))
        for e in ev:
            if e["type"] == "turn_over":
                q = g._by[e["player"]]
                assert len(q.hand) <= 10, "hand over 10 after a turn"
    return texts


def test_get_game_finds_riddle():
    assert get_game("riddle") is RiddleGame


def _invariants(g, ms):
    cards = g.all_cards()
    assert sorted(cards) == sorted(g.deck.instances), "80 cards, each once"
    for m in ms[:40]:
        g.check(m)  # every generated move is legal
        assert Move.parse(str(m)) == m
    before = g.to_json()
    for text in JUNK:
        try:
            m = Move.parse(text)
        except IllegalMoveError:
            continue
        if m in ms:
            continue
        with pytest.raises(IllegalMoveError):
            g.push(m)
        assert g.to_json() == before, f"rejected {text!r} changed the state"
    for p in g.seats:
        v = g.view(p.name)
        assert v["hand"] == sorted(p.hand)
        for d in v["players"]:
            assert ("hand" in d) == (d["name"] == p.name)
    json.dumps(g.view(None))


@pytest.mark.parametrize(
    "players,opts",
    [
        (2, {}),
        (4, {"recommended": True}),
        pytest.param(
            5,
            {"partners": True, "doom_cities": True, "partner_exchange": "c"},
            marks=pytest.mark.slow,
        ),
        pytest.param(8, {"limbo_out": True, "no_wait": True}, marks=pytest.mark.slow),
        (2, {"enhanced_two": True, "recommended": True, "once_through": True}),
    ],
)
def test_random_games_keep_invariants(grid, players, opts):
    for seed in range(3):
        g = new_game(grid, players=players, seed=seed, turn_limit=12, **opts)
        play(g, random.Random(seed), every=_invariants)
        assert g.outcome is not None


def test_replay_reproduces_the_game(grid):
    g = new_game(grid, players=4, seed=5, turn_limit=20, recommended=True)
    texts = play(g, random.Random(5))
    r = new_game(grid, players=4, seed=5, turn_limit=20, recommended=True)
    for t in texts:
        r.push_text(t)
    assert r.to_json() == g.to_json()


def test_json_round_trip_and_wrong_board(grid):
    g = new_game(grid, players=3, seed=6, turn_limit=5)
    play(g, random.Random(6), max_plies=60)
    data = json.loads(json.dumps(g.to_json()))
    assert RiddleGame.from_json(data, grid).to_json() == g.to_json()
    other = compile_board(grid_board(special={**SPECIAL, (0, 1): {"city": "good"}}))
    with pytest.raises(StateError) as e:
        RiddleGame.from_json(data, other)
    assert e.value.code == "wrong_board"


def test_view_hides_other_hands_and_shows_only_own_reveals(grid):
    g = new_game(grid, players=3, seed=7)
    hand(g, "frodo", "gandalf")
    hand(g, "rider1", "the_ring")
    put(g, "frodo", "r0c0")
    turn_of(g, "frodo")
    g.push_text("look gandalf rider1")
    vf, vs, vr = g.view("frodo"), g.view("sam"), g.view("rider1")
    assert vf["seen"][-1]["cards"] == ["the_ring"]
    assert vs["seen"] == [] and vr["seen"] == []
    assert "the_ring" not in json.dumps(vs)
    assert vr["hand"] == ["the_ring"]
    assert g.view(None).get("hand") is None
    assert vs["discard_top"] == (g.discard_pile[-1] if g.discard_pile else None)
    assert vs["draw_count"] == len(g.draw_pile) and "draw" not in vs


def test_table_talk_partners_see_each_other(grid):
    """Variation 3: unlimited table talk between partners."""
    g = new_game(grid, players=4, seed=8, partners=True, table_talk=True)
    v = g.view("frodo")
    sam = next(d for d in v["players"] if d["name"] == "sam")
    rider = next(d for d in v["players"] if d["name"] == "rider1")
    assert sam["hand"] == sorted(g._by["sam"].hand) and "hand" not in rider


def test_unknown_option_and_bad_markers(grid):
    from referee.errors import UsageError

    with pytest.raises(UsageError):
        new_game(grid, players=2, bogus=True)
    with pytest.raises(UsageError):
        new_game(grid, players=2, markers="frodo,frodo")
    g = new_game(grid, players=2, markers="rider3,pippin")
    assert {p.name for p in g.seats} == {"rider3", "pippin"}


def test_markers_is_a_list_option_the_kit_checks(grid):
    """``markers`` is declared as the kit's list option: given as text or as a list,
    a misspelt marker is refused in one line with the nearest one, a wrong count too."""
    from referee.errors import UsageError

    g = new_game(grid, players=2, markers=["sam", "rider2"])
    assert [p.name for p in g.seats] == ["sam", "rider2"]
    with pytest.raises(UsageError, match=r"not 'rdier1' \(did you mean 'rider1'\?\)"):
        new_game(grid, players=2, markers="frodo,rdier1")
    with pytest.raises(UsageError, match="names 3 markers for 2 players") as e:
        new_game(grid, players=2, markers="frodo,rider1,sam")
    assert "\n" not in str(e.value)
    # a state written when markers was text still loads (the kit reads it again)
    data = new_game(grid, players=2, markers="frodo,rider1").to_json()
    data["options"]["markers"] = "frodo,rider1"
    again = RiddleGame.from_json(data, grid)
    assert [p.name for p in again.seats] == ["frodo", "rider1"]


def test_random_games_on_the_sample_map():
    cb = compile_board(load_project(SAMPLE))
    for seed in range(2):
        g = RiddleGame.new(
            cb, players=4, seed=seed, options={"turn_limit": 25, "recommended": True}
        )
        play(g, random.Random(seed), every=_invariants if seed == 0 else None)
        assert g.outcome is not None


def test_events_for_a_viewer_hide_others_cards(grid):
    """A Friendly Exchange's cards are known to the two players only."""
    g = new_game(grid, players=3, seed=2)
    hand(g, "frodo", "boat.1")
    hand(g, "rider1", "rope.1")
    put(g, "frodo", "r3c0")
    put(g, "rider1", "r2c1")
    turn_of(g, "frodo", roll=1)
    g.push_text("move r3c0>r3c1")
    ev = g.push_text("exchange rider1")
    mine = RiddleGame.events_for(ev, "frodo")[0]
    assert (mine["player"], mine["gave"], mine["got"]) == ("frodo", "boat.1", "rope.1")
    assert RiddleGame.events_for(ev, "rider1")[0]["with"] == "rider1"
    theirs = RiddleGame.events_for(ev, "sam")[0]
    assert "gave" not in theirs and "got" not in theirs and "private" not in theirs
    assert "rope.1" not in json.dumps(RiddleGame.events_for(ev, None))


def test_invariants_hook_reports_breakage(grid):
    """The generic selfplay verb calls ``invariants()`` after every move."""
    g = new_game(grid, players=3, seed=3, turn_limit=6, recommended=True)
    rnd = random.Random(3)
    while g.outcome is None:
        g.push(rnd.choice(list(g.legal_moves)))
        assert g.invariants() == []
    g.draw_pile.append("boat.1")
    assert any("cards" in b for b in g.invariants())


def test_setup_events_and_variant(grid):
    g = new_game(grid, players=2, seed=4, variant="recommended")
    assert g.opts["captivity"] and g.setup_events[0]["type"] == "deal"
    assert (
        new_game(grid, players=2, seed=4).setup_events
        == new_game(grid, players=2, seed=4).setup_events
    )


def test_cached_path_searches_list_the_moves_of_a_fresh_search(monkeypatch):
    """The per-board caches (the search without the Cloak/Rope shared by every hand, each
    search with them on its own) list exactly the moves, in the order, that searching
    afresh for every listing lists: on the sample map, where forests and mountains stop
    players with and without those cards in hand, at every ply of random games."""
    compiled = compile_board(load_project(SAMPLE))
    checked = with_cards = 0
    for seed in range(3):
        g = RiddleGame.new(compiled, players=4, seed=seed, options={"turn_limit": 30})
        rnd = random.Random(seed)
        while g.outcome is None:
            cached = list(g.legal_moves)
            monkeypatch.setattr(RiddleGame, "cache_paths", False)
            fresh = list(g.legal_moves)
            monkeypatch.setattr(RiddleGame, "cache_paths", True)
            assert cached == fresh, (seed, str(g.me.name))
            checked += 1
            with_cards += any(m.verb in ("move", "ride") and m.uses for m in cached)
            g.push(rnd.choice(cached))
    assert checked > 1000 and with_cards > 10  # the Cloak/Rope listings were exercised
