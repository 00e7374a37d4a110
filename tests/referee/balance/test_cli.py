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
