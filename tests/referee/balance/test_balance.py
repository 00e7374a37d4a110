"""Balance studies: stored as they finish, resumed, reported, compared, drawn."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.balance import Job, LocalEngine, ResultStore, Study, run_study
from referee.balance.engines import Engine
from referee.balance.study import run_games
from referee.errors import UsageError

PROJECTS = Path(__file__).resolve().parents[3] / "projects"
RIDDLE = str(PROJECTS / "riddle-sample")


def riddle_study(games: int = 4, **kw: Any) -> Study:
    return Study(
        "riddle",
        RIDDLE,
        players=2,
        games=games,
        bots=("greedy", "random"),
        options={"turn_limit": 6},
        **kw,
    )


class Counting(Engine):
    """The local engine in this process, counting the games it plays; stops with
    KeyboardInterrupt after ``stop_after`` games (a Ctrl-C mid-run)."""

    name = "counting"

    def __init__(self, stop_after: int | None = None) -> None:
        self.played: list[int] = []
        self.stop_after = stop_after

    def run(self, jobs: list[Job]) -> Iterator[tuple[Job, dict[str, Any]]]:
        for job, record in LocalEngine(1).run(jobs):
            if self.stop_after is not None and len(self.played) == self.stop_after:
                raise KeyboardInterrupt
            self.played.append(job.seed)
            yield job, record


def test_interrupted_run_keeps_finished_games_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    study = riddle_study(games=5)
    first = Counting(stop_after=2)
    with pytest.raises(KeyboardInterrupt), ResultStore(db) as store:
        run_games(study, store, first)
    with ResultStore(db) as store:
        key = store.begin(study.description())
        assert store.done(key) == {0, 1}
    again = Counting()
    rep = run_study(study, db=db, engine=again)
    assert again.played == [2, 3, 4]  # only the missing seeds
    assert rep["summary"]["games"] == 5
    third = Counting()
    run_study(study, db=db, engine=third)
    assert third.played == []  # nothing left to play
    # another study (other bots) in the same file starts afresh
    other = Counting()
    run_study(Study(**{**study.__dict__, "bots": ("random", "random")}), db=db, engine=other)
    assert other.played == [0, 1, 2, 3, 4]


def test_report_figures_and_files(tmp_path: Path) -> None:
    rep = run_study(
        riddle_study(games=4),
        db=tmp_path / "r.sqlite",
        engine=LocalEngine(1),
        out_dir=tmp_path / "out",
    )
    s = rep["summary"]
    assert s["games"] == 4 and sum(s["results"].values()) == 4
    assert set(s["win_rate"]) == {"frodo", "rider1"}
    for w in s["win_rate"].values():
        lo, hi = w["ci95"]
        assert 0.0 <= lo <= w["rate"] <= hi <= 1.0
    assert sum(s["first_player"]["moved_first"].values()) == 4
    assert s["length"]["min"] <= s["length"]["median"] <= s["length"]["max"]
    assert s["endings"] == {"draw: turn_limit": 4}  # six rounds: nobody wins so soon
    assert s["rules_fired"]["roll"]["games"] == 4
    assert s["heat"] and all(n > 0 for n in s["heat"].values())
    out = tmp_path / "out"
    svg = (out / "heatmap.svg").read_text()
    busiest = max(s["heat"], key=s["heat"].get)
    assert f"{busiest}: {s['heat'][busiest]}</title>" in svg  # a disc on the busiest space
    assert (out / "heatmap.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads((out / "report.json").read_text())["summary"] == s
    assert "win rate per seat" in (out / "report.txt").read_text()


def test_same_seeds_same_records_whatever_the_worker_count(tmp_path: Path) -> None:
    study = riddle_study(games=4)
    a = run_study(study, db=tmp_path / "a.sqlite", engine=LocalEngine(1))
    b = run_study(study, db=tmp_path / "b.sqlite", engine=LocalEngine(2))
    with ResultStore(tmp_path / "a.sqlite") as sa, ResultStore(tmp_path / "b.sqlite") as sb:
        key = sa.begin(study.description())
        assert sa.records(key) == sb.records(key)
    assert a["summary"] == b["summary"]


def test_compare_same_board_shows_no_difference(tmp_path: Path) -> None:
    rep = run_study(
        riddle_study(games=3),
        db=tmp_path / "r.sqlite",
        engine=LocalEngine(1),
        compare_project=str(PROJECTS / "riddle-sample" / "riddle-sample.json")
        if (PROJECTS / "riddle-sample" / "riddle-sample.json").exists()
        else RIDDLE,
    )
    c = rep["compare"]
    for d in c["win_rate"].values():
        assert d["difference"] == 0 and d["p_z"] == 1.0 and d["p_fisher"] == 1.0
    assert c["length"]["difference"] == 0


def test_bad_studies_are_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="unknown bot"):
        run_study(Study("riddle", RIDDLE, 2, 2, ("random", "deep-blue")), db=tmp_path / "x")
    with pytest.raises(UsageError, match="must be at least 1"):
        run_study(Study("riddle", RIDDLE, 2, 2, ("mcts:iterations=0",) * 2), db=tmp_path / "x")
    with pytest.raises(UsageError, match="--games"):
        run_study(Study("riddle", RIDDLE, 2, 0, ("random", "random")), db=tmp_path / "x")
