"""Self-play invariants after every move, on generated boards (hypothesis picks the games).

Ruling 4 'A point holds one figure' and 'Nobody stops on a junction, a door ...';
figure counts are constant (a defeated figure is off the board only while its owner
chooses its white starting point); a rejected move leaves the state identical; the
same seed and moves replay bit for bit; the state round-trips through JSON.
"""

from __future__ import annotations

import json
from functools import lru_cache

from hypothesis import given
from hypothesis import strategies as st

from referee.compiler import CompiledBoard, compile_board
from referee.errors import IllegalMoveError
from referee.games.ringgeister import RinggeisterGame
from referee.games.ringgeister.sample import sample_board
from referee.games.ringgeister.view import POINT


@lru_cache(maxsize=4)
def compiled(seed: int) -> CompiledBoard:
    return compile_board(sample_board(4, 4, seed))


def check_invariants(g: RinggeisterGame) -> None:
    assert g.invariants() == []
    state = g.to_json()["state"]
    figs = state["figures"]
    on = [p for p in figs.values() if p is not None]
    assert len(on) == len(set(on)), "one figure per point"
    for p in on:
        assert g.v.kind[g.v.index[p]] == POINT, f"figure on {p}, not a point"
    off = {f for f, p in figs.items() if p is None}
    if g.outcome is None:
        assert off == {p["figure"] for p in state["pending"]}
    assert len(figs) == len(g.specs)


@given(
    board_seed=st.integers(0, 3),
    seed=st.integers(0, 2**32),
    players=st.integers(1, 4),
    picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=120),
    junk=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 200)), max_size=30),
)
def test_random_games_keep_invariants(board_seed, seed, players, picks, junk):
    """Invariants hold after every move; a random (mostly illegal) move never changes the state."""
    c = compiled(board_seed)
    g = RinggeisterGame.new(c, players=players, seed=seed)
    figure_ids = [s.id for s in g.specs] + ["nobody"]
    point_ids = c.ids + ["nowhere"]
    log: list[str] = []
    events: list[list[dict]] = []
    for k, pick in enumerate(picks):
        check_invariants(g)
        moves = list(g.legal_moves)
        if not moves:
            assert g.outcome is not None
            break
        if k < len(junk):
            fi, pi = junk[k]
            text = f"{figure_ids[fi % len(figure_ids)]} {point_ids[pi % len(point_ids)]}"
            before = g.to_json()
            try:
                g.push_text(text)
            except IllegalMoveError as exc:
                assert exc.code and exc.message
                assert g.to_json() == before
            else:
                log.append(text)
                events.append([])
                continue
        m = moves[pick % len(moves)]
        assert g.is_legal(m)
        events.append(g.push(m))
        log.append(str(m))
    check_invariants(g)
    final = g.to_json()
    # JSON round trip
    assert RinggeisterGame.from_json(json.loads(json.dumps(final)), c).to_json() == final
    # replay: same seed, same moves, same state and events, bit for bit
    r = RinggeisterGame.new(c, players=players, seed=seed)
    for text, ev in zip(log, events):
        got = r.push_text(text)
        if ev:
            assert got == ev
    assert r.to_json() == final


def test_selfplay_reaches_outcomes():
    """Long random games end in wins or losses (the rules terminate), invariants holding."""
    import random

    results: dict[str, int] = {}
    for seed in range(6):
        c = compiled(seed % 4)
        g = RinggeisterGame.new(
            c, players=1 + seed % 4, seed=seed, options={"counter_placement": "random"}
        )
        rnd = random.Random(seed)
        for _ in range(3000):
            moves = list(g.legal_moves)
            if not moves:
                break
            g.push(rnd.choice(moves))
            assert g.invariants() == []
        key = g.outcome.result if g.outcome else "unfinished"
        results[key] = results.get(key, 0) + 1
    assert results.get("lost", 0) + results.get("won", 0) >= 3, results


def test_states_sharing_a_compiled_board_stay_independent():
    """Two games on one compiled board: a tile turn in one does not leak into the other."""
    import random

    c = compiled(1)
    a = RinggeisterGame.new(c, players=2, seed=1, options={"counter_placement": "random"})
    b = RinggeisterGame.new(c, players=2, seed=2, options={"counter_placement": "random"})
    b_state = b.to_json()
    b_moves = [str(m) for m in b.legal_moves]
    rnd = random.Random(0)
    for _ in range(400):
        moves = list(a.legal_moves)
        if not moves:
            break
        a.push(rnd.choice(moves))
    assert (
        a.to_json()["state"]["tile_turns"] != b_state["state"]["tile_turns"]
    )  # storms/Spirits turned tiles
    assert b.to_json() == b_state
    assert [str(m) for m in b.legal_moves] == b_moves


def test_new_game_starts_from_the_boards_turns_after_another_game_turned_tiles():
    """A new game on a shared compiled board starts from the board's own tile turns."""
    import random

    c = compile_board(sample_board(4, 4, 1))
    fresh = RinggeisterGame.new(c, players=2, seed=3, options={"counter_placement": "random"})
    first = fresh.to_json()
    a = RinggeisterGame.new(c, players=2, seed=1, options={"counter_placement": "random"})
    rnd = random.Random(0)
    for _ in range(400):
        moves = list(a.legal_moves)
        if not moves:
            break
        a.push(rnd.choice(moves))
    assert a.to_json()["state"]["tile_turns"] != first["state"]["tile_turns"]
    again = RinggeisterGame.new(c, players=2, seed=3, options={"counter_placement": "random"})
    assert again.to_json() == first
