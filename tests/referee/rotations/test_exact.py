"""The frontier DP against brute force over every configuration."""

from __future__ import annotations

import numpy as np
import pytest

from referee.compiler import compile_board
from referee.rotations import FrontierDP, build_problem
from referee.rotations.brute import brute_force, brute_force_uf
from referee.rotations.generate import grid_board
from referee.rotations.sweep import make_plan


def _problem(rows, cols, k, seed, **kw):
    return build_problem(compile_board(grid_board(rows, cols, k, seed, **kw)))


@pytest.mark.parametrize("seed", range(10))
def test_count_critical_and_fewest_equal_brute_force(seed):
    """Every figure of the exact census equals the one read off the full outcome table."""
    prob = _problem(4, 4, 6, seed, frame=seed % 2 == 0)
    br = brute_force(prob, keep=True)
    arr = br.outcomes
    assert arr is not None
    dp = FrontierDP(prob)
    cr = dp.count()
    assert cr.success == int(arr.sum())
    assert cr.failure == arr.size - int(arr.sum())
    assert (cr.fail_witness is None) == bool(arr.all())
    if cr.fail_witness is not None:
        assert prob.evaluate(cr.fail_witness)[0] is False
    if cr.success_witness is not None:
        assert prob.evaluate(cr.success_witness)[0] is True
    for i in range(len(prob.tiles)):
        c = dp.critical(i)
        decided = int((arr.any(axis=i) & ~arr.all(axis=i)).sum())
        assert c.decided == decided
        assert c.success_by_class == [int(arr.take(t, axis=i).sum()) for t in range(arr.shape[i])]
        assert c.contexts * arr.shape[i] == arr.size
    f = dp.fewest()
    assert f.points == br.fewest_points
    assert prob.evaluate(f.witness)[1] == f.points


def test_bitset_brute_force_agrees_with_union_find():
    prob = _problem(4, 4, 5, 11, asymmetric=True)
    assert brute_force_uf(prob) == (brute_force(prob).success, brute_force(prob).fewest_points)


def test_ten_turnable_tiles_equal_brute_force():
    """4^10 configurations (about a million): the exact count equals the bitset brute force."""
    prob = _problem(5, 5, 10, 3, asymmetric=True)
    assert prob.total == 4**10
    br = brute_force(prob, with_points=False)
    assert FrontierDP(prob).count().success == br.success
    assert 0 < br.success < prob.total


@pytest.mark.parametrize("seed", range(3))
def test_any_sweep_order_gives_the_same_answer(seed):
    prob = _problem(4, 5, 8, seed)
    base = FrontierDP(prob).count().success
    rng = np.random.default_rng(seed)
    for _ in range(3):
        order = [int(i) for i in rng.permutation(len(prob.tiles))]
        assert FrontierDP(prob, make_plan(prob, order=order)).count().success == base


def test_sweep_keeps_the_frontier_narrow():
    """On a 5 x 5 grid swept row by row only about a row of ports is open at once."""
    prob = _problem(5, 5, 18, 1, asymmetric=True)
    assert make_plan(prob).width <= 12


def test_several_targets_must_all_be_reached(tile_board):
    """--to lists nodes that must *all* be joined to some --from node."""
    b = tile_board(
        {
            (0, 0): ([("E", {"start": "white"})], False, 0),
            (0, 1): ([("WE", {})], True, 0),
            (0, 2): ([("W", {"goal": True})], False, 0),
            (1, 1): ([("NE", {})], True, 0),
            (1, 2): ([("W", {})], False, 0),
        }
    )
    c = compile_board(b)
    one = build_problem(c, targets=["c02/pt0"])
    both = build_problem(c, targets=["c02/pt0", "c12/pt0"])
    assert FrontierDP(one).count().success == 1 * 4
    # c11 must join N (towards c01's S port, which c01 only has when turned to N-S) and E:
    # then c01 cannot join W-E at the same time
    assert FrontierDP(both).count().success == brute_force_uf(both)[0] == 0


@pytest.mark.parametrize("seed", range(4))
def test_starts_and_targets_on_turning_tiles_equal_brute_force(seed):
    """Permanent start/target classes touched by turning tiles stay open until their
    last tile: the DP must not decide them early."""
    board = grid_board(4, 4, 7, seed, frame=False)
    compiled = compile_board(board)
    turning = [p.id for p in board.placements if board.tile_of(p).turnable]
    prob = build_problem(
        compiled,
        sources=[f"{turning[1]}/pt0", "c00/white0"],
        targets=[f"{turning[-1]}/pt0", f"{turning[2]}/pt0"],
        galleries="moon",
    )
    br = brute_force(prob, keep=True)
    dp = FrontierDP(prob)
    assert dp.count().success == br.success
    arr = br.outcomes
    for i in range(len(prob.tiles)):
        assert dp.critical(i).decided == int((arr.any(axis=i) & ~arr.all(axis=i)).sum())
    assert dp.fewest().points == br.fewest_points
