"""``referee design`` as a designer runs it, bad input included."""

from __future__ import annotations

import json

import pytest

from referee.cli import main
from referee.compiler import compile_board
from referee.rotations import census
from referee.store import load_project

from .conftest import RINGGEISTER


def test_ringgeister_best_layouts_written_and_confirmed(tmp_path, capsys):
    out, db = tmp_path / "out", tmp_path / "d.sqlite"
    argv = ["design", "ringgeister", str(RINGGEISTER), "--budget", "25", "--top", "2"]
    argv += ["-o", str(out), "--db", str(db), "--no-progress", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["start"]["measures"]["connected"] == pytest.approx(170271648 / 268435456)
    best = data["best"][0]
    assert best["score"] >= data["start"]["score"]
    written = out / "design-1.bwproj"
    assert data["files"] == {
        "start": str(out / "start.bwproj"),
        "design-1": str(written),
        "design-2": str(out / "design-2.bwproj"),
    }
    board = load_project(written)
    for p, (tile, turns) in zip(board.placements, best["layout"]):
        assert (p.tile, p.turns) == (tile, turns)
    # the start and goal (board features) and the fixed frame did not move; an
    # independent census of the written project gives the reported share
    again = census(compile_board(board), fewest=False)
    assert again.success == best["measures"]["success"]
    report = json.loads((out / "design-1.json").read_text())
    assert report["census"]["success"] == again.success
    assert sorted(report["changes"]) == sorted(best["changes"])
    svg = (out / "design-1.svg").read_text()
    assert 'id="design-overlay"' in svg
    assert all(f"{pid}: changed" in svg for pid in best["changes"])
    summary = (out / "summary.txt").read_text()
    assert "start" in summary and "design-1.bwproj" in summary
    # a re-run continues: nothing measured again
    assert main(argv) == 0
    again_data = json.loads(capsys.readouterr().out)
    assert again_data["measured"] == 0 and again_data["best"][0]["key"] == best["key"]


def test_table_on_stdout(grid_project, tmp_path, capsys):
    argv = ["design", "ringgeister", str(grid_project), "--budget", "10", "--no-progress"]
    assert main(argv + ["--db", str(tmp_path / "d.sqlite")]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].split()[:3] == ["rank", "score", "connected"]
    assert out.splitlines()[2].startswith("start")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--objective", "beauty=1"], "unknown term 'beauty'"),
        (["--objective", "connected=x"], "must be a number"),
        (["--objective", "connected=0"], "every weight is zero"),
        (["--budget", "soon"], "--budget soon"),
        (["--pin", "c99"], "no tile is placed as 'c99'"),
        (["--pin", "c12=gen/t21,c32=gen/t21"], "impossible pins"),
        (["--min-distance", "-1"], "--min-distance"),
        (["--objective", "balance"], "needs --bots"),
        (["--to", "nowhere"], "nowhere"),
    ],
)
def test_bad_input_is_one_line_exit_2(grid_project, tmp_path, capsys, extra, message):
    argv = ["design", "ringgeister", str(grid_project), "--db", str(tmp_path / "d.sqlite")]
    code = main(argv + extra)
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert len(err.splitlines()) == 1 and message in err


def test_rules_the_project_does_not_declare(tmp_path, capsys):
    code = main(["design", "riddle", str(RINGGEISTER), "--db", str(tmp_path / "d.sqlite")])
    assert code == 2 and "declares rules 'ringgeister'" in capsys.readouterr().err
