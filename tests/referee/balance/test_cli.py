"""``referee balance`` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import main

PROJECTS = Path(__file__).resolve().parents[3] / "projects"


def test_balance_cli_json_and_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "balance",
        "riddle",
        str(PROJECTS / "riddle-sample"),
        "--games",
        "3",
        "--bots",
        "greedy,random",
        "--option",
        "turn_limit=3",
        "--db",
        str(tmp_path / "r.sqlite"),
        "--out",
        str(tmp_path / "out"),
        "--workers",
        "1",
        "--json",
    ]
    assert main(argv) == 0
    captured = capsys.readouterr()
    rep = json.loads(captured.out)
    assert rep["summary"]["games"] == 3 and rep["players"] == 2
    assert "3/3 games" in captured.err  # progress on stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "heatmap.png",
        "heatmap.svg",
        "report.json",
        "report.txt",
    ]
    assert main(argv[:-1]) == 0  # resumed: nothing to play, same report as text
    assert "win rate per seat" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        ("random,chess-engine", "unknown bot 'chess-engine'"),
        ("mcts:iterations=-1", "iterations must be at least 1"),
    ],
)
def test_balance_bad_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bots: str, message: str
) -> None:
    status = main(
        [
            "balance",
            "riddle",
            str(PROJECTS / "riddle-sample"),
            "--bots",
            bots,
            "--db",
            str(tmp_path / "r.sqlite"),
        ]
    )
    err = capsys.readouterr().err
    assert status == 2 and message in err and "Traceback" not in err


def _children(pid: int) -> set[int]:
    """Process ids whose parent is ``pid`` (Linux /proc)."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.add(int(stat.parent.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_a_study_killed_outright_takes_its_workers_along_and_resumes(tmp_path: Path) -> None:
    """``kill -9`` of ``referee balance`` mid-study: its worker processes end with it
    (no orphans playing on, no broken-pipe tracebacks), every game stored before the
    kill stays stored, and the re-run plays only the rest."""
    import os
    import signal
    import sqlite3
    import subprocess
    import sys
    import time

    db = tmp_path / "r.sqlite"
    argv = [
        sys.executable,
        "-m",
        "referee",
        "balance",
        "riddle",
        str(PROJECTS / "riddle-sample"),
        "--games",
        "40",
        "--bots",
        "greedy,random",
        "--db",
        str(db),
        "--out",
        str(tmp_path / "out"),
        "--workers",
        "2",
    ]
    err = tmp_path / "err.txt"
    with err.open("wb") as fh:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=fh)
        workers: set[int] = set()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            workers = {c for c in _children(proc.pid) if _alive(c)}
            if len(workers) >= 2 and db.exists() and b"/40 games" in err.read_bytes():
                done = sqlite3.connect(db).execute("select count(*) from games").fetchone()[0]
                if done >= 2:
                    break
            time.sleep(0.2)
        else:
            proc.kill()
            pytest.fail("the study never got going")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers), "workers outlived the study"
    time.sleep(0.5)
    assert b"Traceback" not in err.read_bytes()
    stored = sqlite3.connect(db).execute("select count(*) from games").fetchone()[0]
    assert 2 <= stored < 40
    again = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert sqlite3.connect(db).execute("select count(*) from games").fetchone()[0] == 40
