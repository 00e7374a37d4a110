"""The search: seeded, resumable, within the constraints, scoring what the census says."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from referee.compiler import compile_board
from referee.design import (
    Budget,
    DesignStore,
    Objective,
    Searcher,
    Space,
    census_options,
    layout_key,
)
from referee.design.measure import Evaluator
from referee.errors import UsageError
from referee.rotations import census

from .conftest import searcher


def _measured_keys(s):
    return [k for k, _, _ in s.store.all(s.space_key)]


def test_same_seed_same_chain_other_seed_other_chain(grid, tmp_path):
    runs = {}
    for name, seed in (("a", 3), ("b", 3), ("c", 4)):
        s = searcher(grid, tmp_path / f"{name}.sqlite")
        r = s.run(Budget(steps=40), seed=seed)
        runs[name] = (_measured_keys(s), [c.key for c in r.best], r.measured)
        s.store.close()
    assert runs["a"] == runs["b"]
    assert runs["a"][0] != runs["c"][0]


def test_rerun_measures_nothing_and_longer_budget_continues(grid, tmp_path):
    s = searcher(grid, tmp_path / "d.sqlite")
    first = s.run(Budget(steps=30), seed=1)
    assert first.measured > 10
    s.store.close()
    s = searcher(grid, tmp_path / "d.sqlite")
    again = s.run(Budget(steps=30), seed=1)
    assert again.measured == 0 and again.cached > 0
    assert [c.key for c in again.best] == [c.key for c in first.best]
    more = s.run(Budget(steps=60), seed=1)
    fresh = searcher(grid, tmp_path / "fresh.sqlite")
    whole = fresh.run(Budget(steps=60), seed=1)
    assert first.measured + more.measured == whole.measured
    assert set(_measured_keys(fresh)) == set(_measured_keys(s))
    fresh.store.close()
    s.store.close()


def test_interrupted_run_keeps_what_it_measured_and_resumes(grid, tmp_path, monkeypatch):
    s = searcher(grid, tmp_path / "k.sqlite")
    calls = {"n": 0}
    real = Evaluator.__call__

    def dying(self, layout):
        if self is s.evaluator:  # the search's, not the finalists' criticality
            calls["n"] += 1
            if calls["n"] == 12:
                raise KeyboardInterrupt
        return real(self, layout)

    monkeypatch.setattr(Evaluator, "__call__", dying)
    cut = s.run(Budget(steps=50), seed=2)
    assert cut.interrupted and cut.measured == 11 and cut.best
    monkeypatch.setattr(Evaluator, "__call__", real)
    s.store.close()
    s = searcher(grid, tmp_path / "k.sqlite")
    rest = s.run(Budget(steps=50), seed=2)
    assert not rest.interrupted and rest.cached >= 11
    fresh = searcher(grid, tmp_path / "f.sqlite")
    whole = fresh.run(Budget(steps=50), seed=2)
    assert cut.measured + rest.measured == whole.measured
    assert [c.key for c in rest.best] == [c.key for c in whole.best]
    s.store.close()
    fresh.store.close()


def test_pins_start_goal_and_outlines_hold_in_every_candidate(grid, tmp_path):
    s = searcher(grid, tmp_path / "p.sqlite", pins=("c11", "c12=gen/t21"))
    s.run(Budget(steps=60), seed=5)
    slots = s.space.slots
    outline = {sl.id: sl.outline for sl in slots}
    start = {p.id: (p.tile, p.turns) for p in grid.placements}
    tiles_by_outline = Counter((outline[sid], c[0]) for sid, c in start.items())
    rows = s.store.all(s.space_key)
    assert len(rows) > 20
    moved = set()
    for _, layout, _ in rows:
        cells = dict(zip([sl.id for sl in slots], layout))
        if cells == start:
            continue  # the board as given, measured as the baseline
        assert cells["c00"] == start["c00"] and cells["c33"] == start["c33"]  # start, goal
        assert cells["c11"] == start["c11"]
        assert cells["c12"][0] == "gen/t21"
        # tiles move only among slots of their own outline: each outline keeps its tiles
        assert Counter((outline[sid], c[0]) for sid, c in cells.items()) == tiles_by_outline
        for sid, (tile, _) in cells.items():
            assert outline[sid] == json.dumps(grid.tiles[tile].outline_spec, sort_keys=True)
        moved |= {sid for sid in cells if cells[sid][0] != start[sid][0]}
    assert moved and not moved & {"c00", "c33", "c11"}
    s.store.close()


def test_best_scores_what_an_independent_census_says(grid, tmp_path):
    s = searcher(grid, tmp_path / "b.sqlite")
    r = s.run(Budget(steps=80), seed=0)
    best = r.best[0]
    assert best.score >= r.base.score
    again = census(compile_board(s.space.board_of(best.layout)), fewest=False)
    assert again.success == best.measures.success and again.total == best.measures.total
    assert best.score == pytest.approx(again.success / again.total)
    worst = max(t.decided_fraction or 0.0 for t in again.tiles)
    assert best.measures.worst_criticality == pytest.approx(worst)
    s.store.close()


def test_incremental_and_full_measures_agree(grid, tmp_path):
    inc = searcher(grid, tmp_path / "i.sqlite", objective="connected,path-spread=0.1")
    full = searcher(grid, tmp_path / "j.sqlite", objective="connected,path-spread=0.1", mode="full")
    import random

    rng = random.Random(7)
    layout = inc.space.start
    for _ in range(25):
        layout = inc.space.propose(layout, rng)
        a, b = inc.evaluator(layout), full.evaluator(layout)
        assert (a.success, a.total, a.worst_criticality, a.worst_tile, a.steps) == (
            b.success,
            b.total,
            b.worst_criticality,
            b.worst_tile,
            b.steps,
        )
    assert len(inc.evaluator.census_memo) < 25  # a turn of a turning tile reuses its census
    inc.store.close()
    full.store.close()


def test_min_distance_out_of_reach_reports_the_closest(grid, tmp_path):
    s = searcher(grid, tmp_path / "m.sqlite", min_distance=99)
    r = s.run(Budget(steps=20), seed=0)
    assert not r.feasible and r.best[0].violation > 0
    assert r.best[0].violation == min(c.violation for c in r.best)
    s.store.close()
    s = searcher(grid, tmp_path / "m2.sqlite", min_distance=4)
    r = s.run(Budget(steps=40), seed=0)
    assert r.feasible
    for c in r.best:
        assert c.violation == 0 and c.measures.unreached == 0 and c.measures.path_min >= 4
    s.store.close()


@pytest.mark.parametrize(
    ("pins", "message"),
    [
        (("c99",), "no tile is placed as 'c99'"),
        (("c11", "c11"), "pinned twice"),
        (("c11=gen/t01",), "another outline"),
        (("c12=gen/t21", "c32=gen/t21"), "impossible pins"),
        (("c00=gen/t02",), "start or goal"),
        (("c11=gen/nope",), "has no tile"),
    ],
)
def test_impossible_pins_are_refused(grid, pins, message):
    with pytest.raises(UsageError, match=message):
        Space.from_board(grid, pins=pins, fixed_slots=["c00", "c33"])


def test_layout_key_is_stable():
    assert layout_key((("a", 1), ("b", 0))) == layout_key((("a", 1), ("b", 0)))
    assert layout_key((("a", 1), ("b", 0))) != layout_key((("b", 0), ("a", 1)))


def test_criticality_objective_lowers_the_worst_tile(grid, tmp_path):
    s = searcher(grid, tmp_path / "c.sqlite", objective="criticality")
    r = s.run(Budget(steps=40), seed=0)
    assert all(m.worst_criticality is not None for _, _, m in s.store.all(s.space_key))
    best = r.best[0]
    assert best.measures.worst_criticality <= r.base.measures.worst_criticality
    assert best.score == pytest.approx(1 - best.measures.worst_criticality)
    again = census(compile_board(s.space.board_of(best.layout)), fewest=False)
    assert max(t.decided_fraction or 0.0 for t in again.tiles) == pytest.approx(
        best.measures.worst_criticality
    )
    s.store.close()


def test_a_census_cut_short_by_ctrl_c_stops_the_run_and_stores_nothing_partial(
    grid, tmp_path, monkeypatch
):
    """The census swallows Ctrl-C and returns a partial result; the search must not
    take it for a measure."""
    import referee.design.measure as measure

    s = searcher(grid, tmp_path / "q.sqlite")
    s.run(Budget(steps=3), seed=0)
    before = s.store.count(s.space_key)
    real = measure.census

    def cut(*a, **kw):
        res = real(*a, **kw)
        res.partial, res.success = True, None
        return res

    monkeypatch.setattr(measure, "census", cut)
    r = s.run(Budget(steps=10), seed=0)
    assert r.interrupted and r.measured == 0
    assert s.store.count(s.space_key) == before
    s.store.close()


def test_stop_and_improvements_for_a_background_run(grid, tmp_path):
    s = searcher(grid, tmp_path / "s.sqlite")
    asked = {"n": 0}
    found = []

    def stop():
        asked["n"] += 1
        return asked["n"] > 25

    r = s.run(Budget(steps=1000), seed=0, stop=stop, improved=found.append)
    assert r.interrupted and r.steps == 25
    assert found and [c.score for c in found] == sorted(c.score for c in found)
    assert len({c.score for c in found}) == len(found)  # each strictly better
    assert found[-1].score == pytest.approx(r.best[0].score)
    s.store.close()


def _pairable(grid):
    """The 4 × 4 grid with each rot180 pair of slots holding two copies of one tile
    (scrambled: the copies start in other slots), start and goal where they were."""
    import random

    board = grid.copy()
    by_id = {p.id: p for p in board.placements}
    for i in range(4):
        for j in range(4):
            a, b = by_id[f"c{i}{j}"], by_id[f"c{3 - i}{3 - j}"]
            if (i, j) < (3 - i, 3 - j) and a.id not in ("c00", "c33"):
                b.tile = a.tile
    rng = random.Random(1)
    for shape in ("square", "octagon"):
        free = [
            p
            for p in board.placements
            if p.id not in ("c00", "c33") and board.tiles[p.tile].shape == shape
        ]
        tiles = [p.tile for p in free]
        rng.shuffle(tiles)
        for p, t in zip(free, tiles):
            p.tile = t
    board.tiles = {k: v for k, v in board.tiles.items() if k in {p.tile for p in board.placements}}
    return board


def test_a_symmetry_the_start_and_goal_pins_break_is_refused(grid, tmp_path):
    """The start (c00) and goal (c33) slots keep their tiles, and a half turn takes
    one to the other: no layout can be symmetric, so the search is not started."""
    board = _pairable(grid)
    with pytest.raises(UsageError) as err:
        searcher(board, tmp_path / "y.sqlite", symmetry="rot180")
    msg = str(err.value)
    assert "\n" not in msg
    assert "pinned slots 'c00' and 'c33' are images of each other" in msg
    assert "the pins break the symmetry" in msg


def test_symmetry_pairs_the_free_tiles_when_the_pins_allow(grid, tmp_path):
    """Without the start and goal slots pinned against each other (here: only the
    free slots count, as the pins are lifted), the half-turn pairs of the scrambled
    4 × 4 grid are found: each pair holds one tile, turned half a turn apart."""
    board = _pairable(grid)
    compiled = compile_board(board)
    opts = census_options(compiled)
    space = Space.from_board(board, symmetry="rot180")  # start and goal slots free too
    s = Searcher(
        space, compiled, opts, Objective.parse("connected"), DesignStore(tmp_path / "y.sqlite")
    )
    assert space.asymmetry(space.start) > 2
    r = s.run(Budget(steps=400), seed=0)
    best = r.best[0]
    # the start and goal tiles are one of a kind: their pair stays out of symmetry
    assert best.violation == space.asymmetry(best.layout) == 2
    cells = dict(zip([sl.id for sl in space.slots], best.layout))
    for i in range(4):
        for j in range(4):
            a, b = cells[f"c{i}{j}"], cells[f"c{3 - i}{3 - j}"]
            if {a[0], b[0]} & {"gen/t00", "gen/t33"}:
                continue
            assert a[0] == b[0]
            assert space.table is not None and space.table.holds(a, b)
    s.store.close()


def test_symmetry_needs_an_image_slot_for_every_slot(grid):
    grid.placements = [p for p in grid.placements if p.id != "c12"]
    with pytest.raises(UsageError, match="no slot of its outline at its image"):
        Space.from_board(grid, fixed_slots=["c00", "c33"], symmetry="rot180")
