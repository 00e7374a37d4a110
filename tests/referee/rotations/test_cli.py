"""``referee turns`` as a user runs it, bad input included."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from referee.cli import main
from referee.compiler import compile_board
from referee.rotations import census
from referee.rotations.generate import grid_board
from referee.store import load_project, save_project


@pytest.fixture
def project(tmp_path):
    p = tmp_path / "grid.bwproj"
    save_project(grid_board(5, 5, 8, 2, asymmetric=True), p)
    return p


def test_json_census_and_written_configurations(project, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["turns", str(project), "--json", "--out", str(out)]) == 0
    data = json.loads(capsys.readouterr().out)
    exact = census(compile_board(load_project(project)))
    assert data["method"] == "exact" and data["success"] == exact.success
    assert data["configurations"] == exact.total and data["partial"] is False
    assert [t["tile"] for t in data["tiles"]] == [t.placement for t in exact.tiles]
    fewest = load_project(out / "fewest.bwproj")
    for pid, t in data["fewest"]["turns"].items():
        assert fewest.placement(pid).turns == t
    assert (out / "fewest.svg").exists()
    if data["unreachable"]:
        bad = census(compile_board(load_project(out / "unreachable.bwproj")), tiles=[])
        assert bad.success == 0


def test_text_output_lists_critical_tiles(project, capsys):
    assert (
        main(
            [
                "turns",
                str(project),
                "--no-write",
                "--from",
                "c00/white0",
                "--to",
                "c44/pt0",
                "--spider",
                "closed",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "distinct configurations" in out and "most critical first" in out
    assert "spider path closed" in out


def test_sample_mode(project, capsys):
    assert (
        main(["turns", str(project), "--no-write", "--sample", "500", "--seed", "2", "--json"]) == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["method"] == "sample" and data["samples"] == 500
    lo, hi = data["interval"]
    assert lo <= data["estimate"] <= hi


def test_legal_verb(project, capsys):
    assert main(["turns", str(project), "--legal", "c01", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tile"] == "c01" and len(data["turns"]) == 4
    assert all(t["legal"] == (not t["reasons"]) for t in data["turns"])
    assert main(["turns", str(project), "--legal", "c01"]) == 0
    assert "legal turns:" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv,code,msg",
    [
        (["--to", "c44/nothing"], 1, "--to node 'c44/nothing' is not on the board"),
        (["--tiles", "c01,zz"], 1, "no tile placed as 'zz'"),
        (["--galleries", "sun"], 2, "--galleries must be moon, star or none"),
        (["--sample", "0"], 2, "--sample must be at least 1"),
        (["--workers", "0"], 2, "--workers must be at least 1"),
        (["--legal", "zz"], 1, "no tile placed as 'zz'"),
    ],
)
def test_bad_input_is_one_line(project, capsys, argv, code, msg):
    assert main(["turns", str(project), "--no-write", *argv]) == code
    err = capsys.readouterr().err
    assert msg in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_ctrl_c_leaves_a_partial_answer(tmp_path):
    """Interrupting a long run prints what was finished and says what is missing."""
    p = tmp_path / "big.bwproj"
    # 120 tiles, frontier width 19: about a minute (a 7 x 7 board takes a tenth of a second)
    save_project(grid_board(12, 12, 120, 5, asymmetric=True), p)
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee", "turns", str(p), "--no-write", "--json", "--progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    proc.stderr.read(1)  # the progress bar has started: the census is running
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    data = json.loads(out)
    assert proc.returncode == 130
    assert data["partial"] is True and data["missing"]
    assert "Traceback" not in err
