"""The census API: exact figures, sampling, cancellation, processes, the default board."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.compiler import compile_board
from referee.rotations import census, wilson, write_witness
from referee.rotations.brute import brute_force
from referee.rotations.generate import grid_board
from referee.rotations.structure import build_problem
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[3]
RINGGEISTER = ROOT / "projects" / "ringgeister"


@pytest.fixture(scope="module")
def compiled():
    return compile_board(grid_board(5, 5, 9, 4, asymmetric=True))


def test_exact_census_figures(compiled):
    res = census(compiled)
    prob = build_problem(compiled)
    br = brute_force(prob, keep=True)
    assert (res.method, res.partial, res.missing) == ("exact", False, [])
    assert res.total == prob.total and res.success == br.success
    assert res.fewest is not None and res.fewest.reachable_points == br.fewest_points
    if res.success < res.total:
        assert res.unreachable is not None and res.unreachable.success is False
    # critical tiles first; the per-turn success counts add up to the total
    fr = [t.decided_fraction for t in res.tiles]
    assert fr == sorted(fr, reverse=True)
    for t in res.tiles:
        assert sum(t.success_by_class) == res.success
        assert t.flip_configurations == t.decided * len(t.classes)


def test_sample_interval_covers_the_exact_fraction(compiled):
    exact = census(compiled, critical=False, fewest=False)
    res = census(compiled, sample=3000, seed=7)
    assert res.method == "sample" and res.samples == 3000 and res.success is None
    lo, hi = res.interval
    assert lo <= exact.fraction <= hi
    assert census(compiled, sample=3000, seed=7).estimate == res.estimate  # seeded
    # per-tile estimates are close to the exact criticality
    ex = {t.placement: t.decided_fraction for t in census(compiled, fewest=False).tiles}
    for t in res.tiles:
        assert abs(t.decided_fraction - ex[t.placement]) < 0.05


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert lo < 0.5 < hi and hi - lo < 0.2
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_progress_can_stop_the_run_leaving_a_partial_answer(compiled):
    calls = []

    def progress(done, total, stage):
        calls.append((done, total, stage))
        return stage != "critical"  # stop at the first per-tile analysis

    res = census(compiled, progress=progress)
    full = census(compiled)
    assert res.partial
    assert res.success == full.success  # the count had finished
    assert "fewest" in res.missing and any(m.startswith("critical:") for m in res.missing)
    assert all(t.decided is None for t in res.tiles)
    done = [c[0] for c in calls]
    assert done == sorted(done) and calls[0][1] == calls[-1][1]


def test_stopped_during_the_count_gives_bounds(compiled):
    seen = []

    def progress(done, total, stage):
        seen.append(done)
        return done < 3

    res = census(compiled, progress=progress)
    full = census(compiled, critical=False, fewest=False)
    assert res.partial and res.success is None and "count" in res.missing
    lo, hi = res.success_bounds
    assert lo <= full.success <= hi


def test_workers_give_the_same_answer(compiled):
    one = census(compiled)
    two = census(compiled, workers=2)
    assert two.success == one.success and not two.partial
    assert [(t.placement, t.decided, t.success_by_class) for t in two.tiles] == [
        (t.placement, t.decided, t.success_by_class) for t in one.tiles
    ]
    assert two.fewest.reachable_points == one.fewest.reachable_points


def test_witness_written_as_a_project(compiled, tmp_path):
    res = census(compiled)
    w = res.fewest
    before = {p.id: p.turns for p in compiled.board.placements}
    files = write_witness(compiled.board, w, tmp_path / "fewest.bwproj")
    assert {p.id: p.turns for p in compiled.board.placements} == before  # a copy was turned
    back = load_project(files[0])
    for pid, t in w.turns.items():
        assert back.placement(pid).turns == t
    again = census(compile_board(back), tiles=[])
    assert again.total == 1 and again.fewest.reachable_points == w.reachable_points
    assert [f.suffix for f in files] == [".bwproj", ".svg"]
    assert files[1].read_text().lstrip().startswith("<")


def test_default_board_exact_census_is_fast_and_agrees_on_a_subset():
    """The default board's census is exact; on 7 of its tiles it equals brute force."""
    c = compile_board(load_project(RINGGEISTER))
    res = census(c, fewest=False)
    assert res.method == "exact" and not res.partial and res.seconds < 60
    assert len(res.tiles) == 18
    some = [t.placement for t in res.tiles[:7]]
    sub = census(c, tiles=some, fewest=False, critical=False)
    assert sub.success == brute_force(build_problem(c, tiles=some), with_points=False).success
