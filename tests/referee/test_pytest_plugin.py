"""The pytest plugin, as a user meets it: a board in their repository, a three-line
test, a readable failure when they break a road."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.compiler import compile_board
from referee.pytest_plugin import (
    assert_adjacent,
    assert_connected_for_all_turns,
    assert_no_errors,
    assert_reachable,
)
from referee.store import export_json, load_project

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]
ROAD = ROOT / "tests/fixtures/boards/road-row.json"
MAP = ROOT / "tests/fixtures/boards/little-map.json"

USER_TEST = """\
def test_road_reaches_the_goal(compiled_board):
    from referee.pytest_plugin import assert_reachable
    assert_reachable(compiled_board("boards/road-row.json"), "@start=white", "@goal", via="path")
"""


@pytest.fixture
def user_repo(pytester):
    (pytester.path / "boards").mkdir()
    shutil.copy(ROAD, pytester.path / "boards/road-row.json")
    pytester.makepyfile(test_board=USER_TEST)
    return pytester


def test_plugin_is_registered_by_entry_point(pytester):
    """The user writes no conftest: the fixtures come from the pytest11 entry point."""
    pytester.makepyfile(
        "def test_f(board, compiled_board):\n"
        "    assert callable(board) and callable(compiled_board)\n"
    )
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_three_line_test_passes_on_the_intact_board(user_repo):
    user_repo.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_breaking_a_road_fails_with_a_readable_message(user_repo):
    b = load_project(user_repo.path / "boards/road-row.json")
    b.placement("t2").turns = 3  # turn the bend so that its path leaves the board
    export_json(b, user_repo.path / "boards/road-row.json")
    result = user_repo.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*AssertionError: Road row: point t3/g at (200, 120) is not reachable from t0/s "
            "along path: they reach 4 node(s); the nearest to it is point t2/c at (200, 40), "
            "80 mm away; their paths end at dead end(s) t2/pE",
        ]
    )
    # the traceback points at the user's line, not into Boardwright
    assert "referee/pytest_plugin.py" not in result.stdout.str()
    result.stdout.fnmatch_lines(["test_board.py:3: AssertionError"])


def test_unknown_node_in_a_user_test_suggests_names(user_repo):
    user_repo.makepyfile(test_board=USER_TEST.replace('"@goal"', '"t3/goal"'))
    result = user_repo.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*assert_reachable: t3/goal: to 't3/goal' is not a node of the board (did you mean t3/g*"]
    )


def test_board_fixture_paths_resolve_next_to_the_test_file(pytester):
    sub = pytester.mkpydir("suite")
    shutil.copy(MAP, sub / "map.json")
    (sub / "test_map.py").write_text(
        "from referee.pytest_plugin import assert_adjacent\n"
        "def test_map(board, compiled_board):\n"
        "    assert board('map.json').name == 'Little map'\n"
        "    assert_adjacent(compiled_board('map.json'), 'shire', 'bree', via='road')\n"
    )
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)


# ---------------------------------------------------------------------- helpers directly
def test_assert_adjacent_message():
    c = compile_board(load_project(MAP))
    assert_adjacent(c, "shire", "downs", via="touch")
    with pytest.raises(
        AssertionError,
        match=r"space downs at \(25, 75\) and space bree at "
        r"\(75, 25\) are not joined by a touch edge",
    ):
        assert_adjacent(c, "downs", "bree", via="touch")


def test_assert_connected_for_all_turns_lists_failing_configurations():
    c = compile_board(load_project(ROAD))
    assert_connected_for_all_turns(c, ["t2"], "t0/s", "t1/c")
    with pytest.raises(AssertionError) as info:  # exact census along paths
        assert_connected_for_all_turns(c, ["t2"])
    msg = str(info.value)
    assert msg.startswith(
        "Road row: 3 of 4 distinct turn configurations of t2 disconnect it; e.g. with turns t2="
    )
    assert "point t3/g at (200, 120) is not reachable from t0/s along path" in msg
    with pytest.raises(AssertionError) as info:  # any relation: enumerated
        assert_connected_for_all_turns(c, ["t2"], via="any")
    msg = str(info.value)
    assert msg.startswith("Road row: 3 turn configuration(s) disconnect the board:")
    assert "with turns t2=0: point t3/g" in msg and "with turns t2=3: point t3/g" in msg
    assert "with turns t2=2" not in msg


def test_assert_no_errors_and_reachable_on_the_default_board():
    """Our own tests use the plugin on the sample projects."""
    project = ROOT / "projects/ringgeister"
    c = compile_board(load_project(project))
    assert_no_errors(c)
    assert_reachable(c, "@start=white", "@goal", via="path")
