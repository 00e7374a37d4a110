"""``referee selfplay --bots`` and ``referee play STATE --bot``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import main

PROJECTS = Path(__file__).resolve().parents[3] / "projects"
RIDDLE = str(PROJECTS / "riddle-sample")


def test_selfplay_with_bots(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "selfplay",
        "riddle",
        RIDDLE,
        "--players",
        "2",
        "--games",
        "2",
        "--option",
        "turn_limit=3",
        "--bots",
        "mcts:iterations=4,rollout=2,random",
        "--json",
    ]
    assert main(argv) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["bots"] == ["mcts:iterations=4,rollout=2", "random"]
    assert sum(rep["results"].values()) == 2
    assert [w["bot"] for w in rep["win_rate"].values()] == rep["bots"]


def test_play_bot_prints_a_legal_move_and_plays_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "g.json"
    assert main(["new", "riddle", RIDDLE, "--players", "2", "--seed", "4", "-o", str(state)]) == 0
    assert main(["play", str(state), "--bot", "greedy", "-o", str(state)]) == 0  # the roll
    capsys.readouterr()
    assert main(["moves", str(state)]) == 0
    legal = capsys.readouterr().out.split("\n")
    assert main(["play", str(state), "--bot", "mcts:iterations=10", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["move"] in legal and out["bot"] == "mcts:iterations=10"
    assert main(["play", str(state), "--bot", "mcts:iterations=10"]) == 0
    assert capsys.readouterr().out.strip() == out["move"]  # seeded: the same move again


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bot", "kasparov"], "unknown bot 'kasparov'"),
        (["--bot", "mcts:iterations=0"], "iterations must be at least 1"),
        (["--bot", "mcts:ms=-5"], "ms must be more than 0"),
    ],
)
def test_bad_bots_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    state = tmp_path / "g.json"
    main(["new", "riddle", RIDDLE, "--players", "2", "-o", str(state)])
    capsys.readouterr()
    assert main(["play", str(state), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1
    assert main(["selfplay", "riddle", RIDDLE, "--players", "2", "--bots", argv[1]]) == 2
    assert message in capsys.readouterr().err
