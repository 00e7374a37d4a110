"""``boardwright.toml`` expectations and ``referee check --format``."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.cli import main
from referee.compiler import compile_board
from referee.expectations import (
    ExpectationError,
    check_adjacent,
    check_connected_for_all_turns,
    check_max_components,
    check_reachable,
    load_expectations,
    select,
)
from referee.store import export_json, load_project

ROOT = Path(__file__).resolve().parents[2]
ROAD = ROOT / "tests/fixtures/boards/road-row.json"
MAP = ROOT / "tests/fixtures/boards/little-map.json"

GOOD_TOML = """\
[expect]
nodes = ["t0/s", "t3/g"]
max_components = 1
components_via = "path"

[[expect.reachable]]
from = "@start=white"
to = "@goal"
via = "path"

[[expect.connected_for_all_turns]]
tiles = ["t2"]
from = "t0/s"
to = "t1/c"
"""


@pytest.fixture
def repo(tmp_path):
    """A user's repository: the board and its boardwright.toml side by side."""
    shutil.copy(ROAD, tmp_path / "road-row.json")
    (tmp_path / "boardwright.toml").write_text(GOOD_TOML)
    return tmp_path


def _break_road(path: Path) -> None:
    b = load_project(path)
    b.placement("t2").turns = 3  # the bend now leads off the board
    export_json(b, path)


def test_selectors():
    c = compile_board(load_project(ROAD))
    assert select(c, "@start=white") == ["t0/s"]
    assert select(c, "@goal") == ["t3/g"]
    assert select(c, "@kind=point") == ["t0/s", "t1/c", "t2/c", "t3/g"]
    with pytest.raises(ExpectationError, match="matches no node"):
        select(c, "@colour=purple")
    with pytest.raises(Exception, match="did you mean t3/g"):
        select(c, "t3/q")


def test_reachable_failure_names_the_node_and_the_nearest_reachable_one():
    b = load_project(ROAD)
    b.placement("t2").turns = 3
    (f,) = check_reachable(compile_board(b), "t0/s", "t3/g", "path")
    assert f.node == "t3/g"
    assert (
        "point t3/g at (200, 120) is not reachable from t0/s along path: they reach 4 "
        "node(s); the nearest to it is point t2/c at (200, 40), 80 mm away"
    ) in f.message


def test_adjacent_checks_the_relation():
    c = compile_board(load_project(MAP))
    assert check_adjacent(c, "shire", "bree", "touch") == []
    assert check_adjacent(c, "shire", "bree", "road") == []
    (f,) = check_adjacent(c, "downs", "bree", "touch")
    assert "are not joined by a touch edge" in f.message and "neighbours: hills, shire" in f.message
    (f,) = check_adjacent(c, "hills", "downs", "road")
    assert "(they are joined by touch)" in f.message


def test_max_components():
    b = load_project(ROAD)
    b.placement("t2").turns = 0
    c = compile_board(b)
    assert check_max_components(c, 3, "path") == []
    (f,) = check_max_components(c, 1, "path")
    assert "board has 3 connected components along path, at most 1 expected" in f.message


def test_connected_for_all_turns_names_the_failing_turns_and_restores_the_board():
    c = compile_board(load_project(ROAD))
    # turning the bend t2 never cuts the start t0/s off the straight t1
    assert check_connected_for_all_turns(c, ["t2"], "t0/s", "t1/c") == []
    fails = check_connected_for_all_turns(c, ["t1", "t2"], stop_at_first=False, method="brute")
    # the road runs W–E through the straight t1 only at turns 0 and 2, and the bend t2
    # joins W and S only at turn 2: 2 of the 16 configurations connect start and goal
    failing = {(f.details["turns"]["t1"], f.details["turns"]["t2"]) for f in fails}
    assert failing == {(a, b) for a in range(4) for b in range(4)} - {(0, 2), (2, 2)}
    assert fails[0].message.startswith("with turns t1=0 t2=0: point t3/g")
    assert c.board.placement("t2").turns == 2 and c.board.placement("t1").turns == 0
    assert c.edge_set() == compile_board(load_project(ROAD)).edge_set()


def test_connected_for_all_turns_refuses_too_many_configurations():
    c = compile_board(load_project(ROAD))
    with pytest.raises(ExpectationError, match="16 turn configurations, more than the 8"):
        check_connected_for_all_turns(c, ["t1", "t2"], max_configurations=8, method="brute")


def test_exact_census_agrees_with_brute_force():
    """The exact census (referee.rotations) and the enumeration give the same verdict;
    the census's failing configuration really fails, and the board is restored."""
    c = compile_board(load_project(ROAD))
    for tiles, src, tgt in (
        (["t1", "t2"], "@start=white", "@goal"),
        (["t2"], "t0/s", "t1/c"),
        (["t1"], "t0/s", "t3/g"),
    ):
        exact = check_connected_for_all_turns(c, tiles, src, tgt, method="exact")
        brute = check_connected_for_all_turns(
            c, tiles, src, tgt, method="brute", stop_at_first=False
        )
        assert bool(exact) == bool(brute), tiles
        if exact:
            (f,) = exact
            assert f.details["turns"] in [b.details["turns"] for b in brute]
    (f,) = check_connected_for_all_turns(c, ["t1", "t2"], method="exact")
    # the straight t1 has two distinct turns (0 ~ 2, 1 ~ 3), the bend four: 8 distinct,
    # of which only t1 W-E with t2 at its saved turn connects
    assert f.message.startswith("7 of 8 distinct turn configurations of t1, t2 disconnect it")
    assert c.edge_set() == compile_board(load_project(ROAD)).edge_set()


def test_default_board_all_turnable_tiles_is_answered_exactly_and_fast():
    """All 18 turnable tiles (4^18 configurations) are beyond brute force; the census
    answers, and names a configuration that cuts the goal off."""
    import time

    c = compile_board(load_project(ROOT / "projects/ringgeister"))
    t = time.perf_counter()
    (f,) = check_connected_for_all_turns(c, "turnable")
    assert time.perf_counter() - t < 20
    assert "distinct turn configurations of r0c1" in f.message
    assert f.node == "fire-goal"


def test_check_reads_boardwright_toml_next_to_the_project(repo, capsys):
    assert main(["check", str(repo / "road-row.json")]) == 0
    _break_road(repo / "road-row.json")
    assert main(["check", str(repo / "road-row.json")]) == 1
    out = capsys.readouterr().out
    assert "expect_reachable at t3/g (200, 120): boardwright.toml: reachable[0]: point t3/g" in out
    # the board declares no rules, so no goal check (Ringgeister's) runs: only warnings
    assert main(["check", str(repo / "road-row.json"), "--no-expect"]) == 0
    assert main(["check", str(repo / "road-row.json"), "--no-expect", "--strict"]) == 1


def test_expect_option_and_board_table(tmp_path, capsys):
    shutil.copy(ROAD, tmp_path / "road-row.json")
    (tmp_path / "boardwright.toml").write_text(
        '[board]\nproject = "other.json"\n[expect]\nnodes = ["nope"]\n'
    )
    assert main(["check", str(tmp_path / "road-row.json")]) == 0  # written for another board
    assert (
        main(
            [
                "check",
                str(tmp_path / "road-row.json"),
                "--expect",
                str(tmp_path / "boardwright.toml"),
            ]
        )
        == 1
    )
    assert "expected node 'nope' is not a node of the board" in capsys.readouterr().out


@pytest.mark.parametrize(
    "text, msg",
    [
        ("[expect]\nmax_component = 1\n", "unknown key"),
        ("[expect]\nmax_components = 0\n", "at least 1"),
        ("[expect]\nmax_components = true\n", "wrong type"),
        ('[[expect.reachable]]\nfrom = "a"\n', "missing 'to'"),
        ('[[expect.reachable]]\nfrom = "a"\nto = "b"\nvia = "river"\n', "unknown relation"),
        ("[expect\n", "not valid TOML"),
    ],
)
def test_bad_toml_is_reported_with_the_place(tmp_path, text, msg):
    p = tmp_path / "boardwright.toml"
    p.write_text(text)
    with pytest.raises(ExpectationError, match=msg):
        load_expectations(p)


def test_bad_toml_through_the_cli_is_one_line(repo, capsys):
    (repo / "boardwright.toml").write_text("[expect]\nmax_components = 'x'\n")
    assert main(["check", str(repo / "road-row.json")]) == 1
    err = capsys.readouterr().err
    assert "boardwright.toml [expect]: 'max_components' has the wrong type" in err
    assert "Traceback" not in err


def test_selector_naming_nothing_is_a_failed_expectation(repo, capsys):
    (repo / "boardwright.toml").write_text('[[expect.reachable]]\nfrom = "t0/s"\nto = "t3/x"\n')
    assert main(["check", str(repo / "road-row.json"), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    (entry,) = data["expectations"]["entries"]
    assert entry["line"] == 1 and not entry["ok"]
    assert entry["problems"][0]["code"] == "expect_invalid"
    assert "did you mean t3/g" in entry["problems"][0]["message"]


# ---------------------------------------------------------------------- formats
def test_json_is_the_same_as_before_plus_expectations(repo, capsys):
    assert main(["check", str(repo / "road-row.json"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True and data["problems"] == []
    assert [e["expectation"] for e in data["expectations"]["entries"]] == [
        "nodes",
        "max_components",
        "reachable[0]",
        "connected_for_all_turns[0]",
    ]
    assert [e["line"] for e in data["expectations"]["entries"]] == [2, 3, 6, 11]


def test_junit_has_one_testcase_per_expectation(repo, capsys):
    _break_road(repo / "road-row.json")
    assert main(["check", str(repo / "road-row.json"), "--format", "junit"]) == 1
    root = ET.fromstring(capsys.readouterr().out)
    suite = root.find("testsuite")
    cases = {tc.get("name"): tc for tc in suite.iter("testcase")}
    assert set(cases) == {
        "board compiles without errors",
        "expect nodes",
        "expect max_components",
        "expect reachable[0]",
        "expect connected_for_all_turns[0]",
    }
    assert cases["expect nodes"].find("failure") is None
    fail = cases["expect reachable[0]"].find("failure")
    assert fail is not None and "t3/g" in fail.text
    # warnings only (dead end): the goal check is Ringgeister's, and this board declares no rules
    assert cases["board compiles without errors"].find("failure") is None
    assert suite.get("failures") == str(
        sum(tc.find("failure") is not None for tc in cases.values())
    )


def test_github_annotations_point_at_file_and_line(repo, capsys, monkeypatch):
    _break_road(repo / "road-row.json")
    monkeypatch.chdir(repo)
    assert main(["check", "road-row.json", "--format", "github"]) == 1
    lines = capsys.readouterr().out.splitlines()
    pat = re.compile(r"^::(error|warning) file=([^,]+)(?:,line=(\d+))?,title=([^:]+)::(.+)$")
    parsed = [pat.match(line) for line in lines]
    assert all(parsed), lines
    by_title = {m.group(4): m for m in parsed}
    dead = by_title["dead_end"]  # at t2/pE
    assert dead.group(2) == "road-row.json"
    text = (repo / "road-row.json").read_text().splitlines()
    assert '"id": "t2"' in text[int(dead.group(3)) - 1]  # the placement of the node's tile
    exp = by_title["expect_reachable"]
    assert exp.group(2) == "boardwright.toml" and exp.group(3) == "6"
    assert by_title["dead_end"].group(1) == "warning"


def test_github_escapes_newlines_and_percent():
    from referee.compiler import Problem
    from referee.expectations import CheckRun, format_check

    run = CheckRun("p.json", "p.json", [Problem.make("rules_check", "50% done\nnext", "a,b")])
    out = format_check(run, "github")
    assert out == "::error file=p.json,title=rules_check::a,b: 50%25 done%0Anext\n"
