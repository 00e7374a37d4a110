"""The frontier DP on random connectivity problems, against brute force (hypothesis).

The generated boards of ``test_exact.py`` give every tile four ports on a grid; here
the problem itself is drawn: any number of turn classes per tile (1 to 4), hyperedges
of one to four vertices with points on them, several targets, starts and targets
touched by turning tiles, vertices shared by tiles far apart in any sweep order.
Every figure of the census — the count, each tile's decided contexts and success
per turn class, the fewest reachable points — must equal the one read off the full
outcome table.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rotations import FrontierDP
from referee.rotations.brute import brute_force
from referee.rotations.structure import Problem, TileVar, TurnClass
from referee.rotations.sweep import make_plan


@st.composite
def problems(draw: st.DrawFn) -> Problem:
    nv = draw(st.integers(2, 9))
    vertex = st.integers(0, nv - 1)
    targets = draw(st.lists(st.integers(1, nv - 1), min_size=0, max_size=3, unique=True))
    weight = draw(st.lists(st.integers(0, 2), min_size=nv, max_size=nv))
    tiles = []
    for i in range(draw(st.integers(1, 6))):
        classes = []
        for c in range(draw(st.integers(1, 4))):
            hyper = draw(
                st.lists(
                    st.tuples(
                        st.lists(vertex, min_size=1, max_size=4, unique=True).map(
                            lambda vs: tuple(sorted(vs))
                        ),
                        st.integers(0, 2),
                    ),
                    max_size=3,
                )
            )
            classes.append(TurnClass((c,), tuple(sorted(hyper))))
        x, y = draw(st.integers(0, 4)), draw(st.integers(0, 4))
        tiles.append(TileVar(f"t{i}", 100.0 * x, 100.0 * y, len(classes), 0, classes))
    return Problem(nv, weight, 0, targets, tiles, ["s"], ["g"], None, "open")


def _check(prob: Problem, dp: FrontierDP) -> None:
    br = brute_force(prob, keep=True)
    arr = br.outcomes
    assert arr is not None
    cr = dp.count()
    assert cr.success == br.success
    assert cr.success + cr.failure == prob.total
    if cr.fail_witness is not None:
        assert prob.evaluate(cr.fail_witness)[0] is False
    if cr.success_witness is not None:
        assert prob.evaluate(cr.success_witness)[0] is True
    assert (cr.fail_witness is None) == bool(arr.all())
    assert (cr.success_witness is None) == (not arr.any())
    crit = dp.criticality()
    assert [c.tile for c in crit] == list(range(len(prob.tiles)))
    for i, c in enumerate(crit):
        assert c.decided == int((arr.any(axis=i) & ~arr.all(axis=i)).sum())
        assert c.success_by_class == [int(arr.take(t, axis=i).sum()) for t in range(arr.shape[i])]
        assert c.contexts * arr.shape[i] == arr.size
    f = dp.fewest()
    assert f.points == br.fewest_points
    assert prob.evaluate(f.witness)[1] == f.points


@settings(max_examples=150, deadline=None)
@given(problems())
def test_random_problems_equal_brute_force(prob: Problem) -> None:
    _check(prob, FrontierDP(prob))


@settings(max_examples=60, deadline=None)
@given(problems(), st.randoms(use_true_random=False))
def test_any_sweep_order_gives_the_same_figures(prob: Problem, rnd) -> None:
    """The chosen order only changes the speed: a shuffled one gives the same figures."""
    order = list(range(len(prob.tiles)))
    rnd.shuffle(order)
    _check(prob, FrontierDP(prob, make_plan(prob, order=order)))


@settings(max_examples=80, deadline=None)
@given(problems(), st.integers(1, 3))
def test_fewest_with_a_capped_table_is_a_true_configuration(prob: Problem, cap: int) -> None:
    """A table cut to ``max_states`` gives a configuration that really has the points it
    reports (an upper bound, marked incomplete); an uncut one gives the minimum."""
    br = brute_force(prob)
    f = FrontierDP(prob).fewest(max_states=cap)
    assert prob.evaluate(f.witness)[1] == f.points
    assert f.points >= br.fewest_points
    if f.complete:
        assert f.points == br.fewest_points
