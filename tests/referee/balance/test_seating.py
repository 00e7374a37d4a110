"""Seats rotate across the games of a study, so seat advantage and bot strength are
reported apart (issue 29): the first bot no longer always sits in the first seat."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.balance import LocalEngine, Study, run_study
from referee.balance.report import summarise, text
from referee.cli import main

PROJECTS = Path(__file__).resolve().parents[3] / "projects"
RIDDLE = str(PROJECTS / "riddle-sample")


@pytest.mark.parametrize(("players", "games"), [(2, 4), (3, 6), (4, 12)])
def test_each_bot_plays_each_seat_equally_often(players: int, games: int) -> None:
    bots = tuple(f"b{j}" for j in range(players))
    jobs = Study("riddle", RIDDLE, players, games, bots).jobs()
    seen = Counter((i, j) for job in jobs for i, j in enumerate(job.lineup))
    assert set(seen) == {(i, j) for i in range(players) for j in range(players)}
    assert set(seen.values()) == {games // players}
    for job in jobs:  # the seat's spec is its bot's
        assert job.bots == tuple(bots[j] for j in job.lineup)


def test_fixed_seats_keep_bot_k_in_seat_k_and_their_stored_games() -> None:
    fixed = Study("riddle", RIDDLE, 2, 4, ("greedy", "random"), seating="fixed")
    assert {job.bots for job in fixed.jobs()} == {("greedy", "random")}
    # a fixed-seat study is described as studies were before seats rotated, so a
    # results file from then resumes; a rotated one is another study
    assert "seating" not in fixed.description()
    rotated = Study("riddle", RIDDLE, 2, 4, ("greedy", "random"))
    assert rotated.description()["seating"] == "rotate"


def _rec(seed: int, lineup: list[int], winner_seat: int) -> dict[str, Any]:
    seats = ["north", "south"]
    specs = ["strong", "weak"]
    return {
        "seed": seed,
        "seats": seats,
        "bots": [specs[j] for j in lineup],
        "lineup": lineup,
        "first": "north",
        "moves": 10,
        "result": "won",
        "winners": [seats[winner_seat]],
        "ending": "won: goal",
        "rules_fired": {},
        "heat": {},
    }


def test_report_tells_seat_advantage_from_bot_strength() -> None:
    """A board where the north seat always wins whoever plays it: with seats rotated
    the report shows north at 100 % and the two bots at 50 % each (the seat, not
    the bot); the wins by seat and bot add up to both."""
    recs = [_rec(k, [0, 1] if k % 2 == 0 else [1, 0], 0) for k in range(20)]
    s = summarise(recs)
    assert s["seating"]["rotated"] and s["seating"]["games_per_seat_and_bot"] == [10, 10]
    assert s["win_rate"]["north"]["rate"] == 1.0 and s["win_rate"]["south"]["rate"] == 0.0
    assert s["bots"] == ["strong", "weak"]
    assert [w["rate"] for w in s["win_rate_by_bot"].values()] == [0.5, 0.5]
    assert s["seating"]["table"]["north"] == {
        "bot 1": {"games": 10, "wins": 10},
        "bot 2": {"games": 10, "wins": 10},
    }
    # a strong bot on a fair board: the bot's figure moves, the seats' stays even
    recs = [_rec(k, [0, 1] if k % 2 == 0 else [1, 0], 0 if k % 2 == 0 else 1) for k in range(20)]
    s = summarise(recs)
    assert [w["rate"] for w in s["win_rate"].values()] == [0.5, 0.5]
    assert [w["rate"] for w in s["win_rate_by_bot"].values()] == [1.0, 0.0]
    out = text({"rules": "x", "project": "p", "players": 2, "summary": s})
    assert "win rate per bot, all seats (bot strength)" in out
    assert "each bot sat in each seat 10 times" in out


def test_a_rotated_study_end_to_end(tmp_path: Path) -> None:
    rep = run_study(
        Study("riddle", RIDDLE, 2, 4, ("greedy", "random"), options={"turn_limit": 3}),
        db=tmp_path / "r.sqlite",
        engine=LocalEngine(1),
    )
    s = rep["summary"]
    assert s["seating"]["rotated"] and s["seating"]["games_per_seat_and_bot"] == [2, 2]
    assert sum(c["games"] for row in s["seating"]["table"].values() for c in row.values()) == 8
    seat_wins = sum(w["wins"] for w in s["win_rate"].values())
    assert sum(w["wins"] for w in s["win_rate_by_bot"].values()) == seat_wins


def test_cli_fixed_seats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["balance", "riddle", RIDDLE, "--games", "2", "--bots", "greedy,random"]
    argv += ["--option", "turn_limit=2", "--db", str(tmp_path / "r.sqlite"), "--workers", "1"]
    assert main([*argv, "--fixed-seats", "--json"]) == 0
    s = json.loads(capsys.readouterr().out)["summary"]
    assert not s["seating"]["rotated"]
    assert [w["bot"] for w in s["win_rate"].values()] == ["greedy", "random"]
    assert main(argv) == 0
    assert "seats rotated: each bot sat in each seat once" in capsys.readouterr().out
