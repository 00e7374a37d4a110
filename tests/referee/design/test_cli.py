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
        (["--objective", "balance", "--bots", "wizard"], "unknown bot 'wizard'"),
        (["--objective", "balance", "--bots", "mcts,mcts,mcts", "--players", "2"], "3 bot(s)"),
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


def test_ctrl_c_keeps_the_store_and_prints_the_best(tmp_path):
    import signal
    import sqlite3
    import subprocess
    import sys
    import time

    db = tmp_path / "d.sqlite"
    argv = [sys.executable, "-m", "referee", "design", "ringgeister", str(RINGGEISTER)]
    argv += ["--budget", "100000", "--db", str(db), "--no-progress"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def stored() -> int:
        try:
            with sqlite3.connect(db) as conn:
                return conn.execute("select count(*) from design_candidates").fetchone()[0]
        except sqlite3.Error:
            return 0

    deadline = time.monotonic() + 120
    while stored() < 5 and time.monotonic() < deadline:
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted: re-run to continue" in out and "Traceback" not in err
    kept = stored()
    assert kept >= 5
    with sqlite3.connect(db) as conn:
        assert conn.execute("pragma integrity_check").fetchone()[0] == "ok"


def test_a_symmetry_no_layout_meets_is_reported_with_the_closest(tmp_path, capsys):
    """Every Ringgeister tile is one of a kind: no layout looks the same half turned."""
    argv = ["design", "ringgeister", str(RINGGEISTER), "--symmetry", "rot180", "--budget", "20"]
    assert main(argv + ["--db", str(tmp_path / "d.sqlite"), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "no layout found meets --symmetry rot180; the closest candidate (rank 1" in out
    assert "(misses by" in out.splitlines()[3]


def test_compare_measures_the_designers_current_board(tmp_path, capsys, grid_project):
    out, db = tmp_path / "out", str(tmp_path / "d.sqlite")
    base = ["design", "ringgeister", str(RINGGEISTER), "--db", db, "--no-progress"]
    assert main(base + ["--budget", "15", "-o", str(out), "--top", "1"]) == 0
    capsys.readouterr()
    mine = out / "design-1.bwproj"
    assert main(base + ["--budget", "3", "--compare", str(mine), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    again = census(compile_board(load_project(mine)), fewest=False)
    assert data["compare"]["measures"]["success"] == again.success
    assert main(base + ["--budget", "3", "--compare", str(mine)]) == 0
    assert capsys.readouterr().out.splitlines()[3].startswith("compare")
    assert main(base + ["--compare", str(grid_project)]) == 2
    assert "not placed in the same slots" in capsys.readouterr().err
