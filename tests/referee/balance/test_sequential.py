"""``--stop-early``: a study stops at the first look where the answer is clear, at
the same game whatever order its games finish in, and the stated error holds."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.balance import Job, ResultStore, Study
from referee.balance.engines import Engine
from referee.balance.sequential import check, look_every, looks
from referee.balance.study import run_games, run_study
from referee.errors import UsageError

PROJECTS = Path(__file__).resolve().parents[3] / "projects"
RIDDLE = str(PROJECTS / "riddle-sample")
SEATS = ["frodo", "rider1"]


def fake(job: Job, bot_wins: float) -> dict[str, Any]:
    """A game's record without playing it: bot 1 wins alone with chance ``bot_wins``
    (drawn from the seed), else bot 2."""
    lineup = list(job.lineup)
    winner_bot = 0 if random.Random(job.seed).random() < bot_wins else 1
    seat = lineup.index(winner_bot)
    return {
        "seed": job.seed,
        "seats": SEATS,
        "bots": list(job.bots),
        "lineup": lineup,
        "first": SEATS[0],
        "moves": 10,
        "result": "won",
        "winners": [SEATS[seat]],
        "ending": "won: test",
        "rules_fired": {},
        "heat": {},
    }


class Fake(Engine):
    """Yields made-up records, in ``order`` ("seed" or "shuffled"), counting them."""

    name = "fake"

    def __init__(self, bot_wins: float, order: str = "seed") -> None:
        self.bot_wins, self.order, self.played = bot_wins, order, 0

    def run(self, jobs: list[Job]) -> Iterator[tuple[Job, dict[str, Any]]]:
        jobs = list(jobs)
        if self.order == "shuffled":  # parallel workers finishing out of order
            random.Random(1).shuffle(jobs)
        for job in jobs:
            self.played += 1
            yield job, fake(job, self.bot_wins)


def study(games: int = 40, **kw: Any) -> Study:
    return Study("riddle", RIDDLE, 2, games, ("greedy", "random"), **{"stop_early": "bots", **kw})


def test_a_clear_answer_stops_the_study_at_a_look(tmp_path: Path) -> None:
    """Bot 1 wins every game: with looks every 4 games of 40 (10 looks, intervals at
    99.5 %), 4 of 4 is not yet clear and 8 of 8 is; the study stops after 8."""
    engine = Fake(1.0)
    with ResultStore(tmp_path / "r.sqlite") as store:
        _, recs, stopped = run_games(study(look=4), store, engine)
    assert stopped is not None and stopped["games"] == 8 and len(recs) == 8
    assert [r["seed"] for r in recs] == list(range(8))
    assert stopped["shares"]["bot 1"]["clear"] and stopped["level"] == pytest.approx(0.995)
    assert engine.played == 8  # the games after the clear look were never played


def test_where_it_stops_does_not_depend_on_finishing_order(tmp_path: Path) -> None:
    runs = []
    for order in ("seed", "shuffled"):
        with ResultStore(tmp_path / f"{order}.sqlite") as store:
            runs.append(run_games(study(games=60, look=6), store, Fake(0.9, order)))
    (_, a, sa), (_, b, sb) = runs
    assert sa is not None and sb is not None and sa == sb and a == b


def test_no_clear_look_plays_every_game(tmp_path: Path) -> None:
    engine = Fake(0.5)
    with ResultStore(tmp_path / "r.sqlite") as store:
        _, recs, stopped = run_games(study(games=40, look=4), store, engine)
    assert stopped is None and len(recs) == 40 and engine.played == 40


def test_a_resumed_study_stops_at_the_same_look_without_playing(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    first = run_study(study(look=4), db=db, engine=Fake(1.0))
    again = Fake(1.0)
    second = run_study(study(look=4), db=db, engine=again)
    assert again.played == 0 and first["summary"] == second["summary"]
    assert second["stop_early"]["stopped"] and second["stop_early"]["games"] == 8
    assert second["seeds"] == [0, 7]


def _sim(
    p: float, games: int, look: int, rng: random.Random, margin: float | None = None
) -> tuple[int, str] | None:
    """Where a simulated study of sole wins (bot 1 with chance ``p``) stops, and why."""
    recs: list[dict[str, Any]] = []
    n_looks = looks(games, look)
    for k in range(games):
        lineup = [0, 1] if k % 2 == 0 else [1, 0]
        seat = lineup.index(0 if rng.random() < p else 1)
        recs.append({"seats": SEATS, "lineup": lineup, "winners": [SEATS[seat]]})
        if (k + 1) % look == 0 and k + 1 < games:
            verdict = check(recs, "bots", n_looks, margin=margin)
            if verdict["clear"]:
                return k + 1, verdict["answer"]
    return None


def test_the_stated_error_holds_and_a_real_difference_is_found() -> None:
    """Equal bots: fewer than 5 % of 400 seeded simulated studies of 200 games stop
    (the stated bound); bot 1 winning 75 % of sole wins: nearly all stop, early."""
    rng = random.Random(30)
    false = sum(_sim(0.5, 200, 20, rng) is not None for _ in range(400))  # no margin
    assert false / 400 < 0.05
    stops = [_sim(0.75, 200, 20, rng) for _ in range(100)]
    assert all(s is None or s[1] == "differs" for s in stops)
    assert sum(s is not None for s in stops) >= 95
    assert sorted(s[0] if s else 200 for s in stops)[50] <= 100  # median: half or less


def test_a_margin_stops_a_balanced_study_and_rarely_a_lopsided_one() -> None:
    """With ``margin`` 0.15: equal bots stop "within margin" in most of 100 seeded
    simulated studies of 400 games; a bot winning 70 % of sole wins (20 points off,
    more than the margin) stops so in fewer than 5 % of 200."""
    rng = random.Random(31)
    fair = [_sim(0.5, 400, 20, rng, margin=0.15) for _ in range(100)]
    assert sum(1 for s in fair if s and s[1] == "within margin") >= 80
    off = [_sim(0.7, 400, 20, rng, margin=0.15) for _ in range(200)]
    assert sum(1 for s in off if s and s[1] == "within margin") / 200 < 0.05


def test_margin_in_a_study_and_its_report(tmp_path: Path) -> None:
    from referee.balance.report import text

    rep = run_study(study(games=200, look=20, margin=0.3), db=tmp_path / "r", engine=Fake(0.5))
    se = rep["stop_early"]
    assert se["stopped"] and se["look"]["answer"] == "within margin" and se["games"] < 200
    assert "is within 30.0 % of its fair share" in text(rep)
    with pytest.raises(UsageError, match="--margin needs --stop-early"):
        run_study(Study("riddle", RIDDLE, 2, 4, ("a", "b"), margin=0.1), db=tmp_path / "x")


def test_looks_keep_rotated_seats_balanced_and_bad_input_is_refused(tmp_path: Path) -> None:
    assert look_every(20, 3) == 21 and look_every(1, 2) == 2 and looks(400, 20) == 20
    with pytest.raises(UsageError, match="two different bots"):
        run_study(
            Study("riddle", RIDDLE, 2, 4, ("random", "random"), stop_early="bots"),
            db=tmp_path / "x",
        )
    with pytest.raises(UsageError, match="--look"):
        run_study(study(look=0), db=tmp_path / "x")
    with pytest.raises(UsageError, match="--stop-early asks"):
        run_study(study(stop_early="luck"), db=tmp_path / "x")


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--stop-early", "bots", "--look", "0"], "--look must be from 1 to"),
        (["--stop-early", "bots", "--margin", "2"], "--margin must be between 0 and 1"),
        (["--margin", "0.1"], "--margin needs --stop-early"),
        (["--stop-early", "bots", "--bots", "random"], "needs two different bots"),
    ],
)
def test_bad_stop_early_flags_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    from referee.cli import main

    argv = ["balance", "riddle", RIDDLE, "--games", "2", "--db", str(tmp_path / "r.sqlite")]
    if "--bots" not in flags:
        argv += ["--bots", "greedy,random"]
    assert main([*argv, *flags]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and not (tmp_path / "r.sqlite").exists()


def test_compare_plays_the_seeds_board_a_stopped_at(tmp_path: Path) -> None:
    engine = Fake(1.0)
    rep = run_study(study(look=4), db=tmp_path / "r", engine=engine, compare_project=RIDDLE)
    assert rep["stop_early"]["games"] == 8
    assert rep["summary"]["games"] == rep["compare_summary"]["games"] == 8
    # board B is board A here (same hash, so the same stored games): nothing beyond
    # A's clear look is played for either
    assert engine.played == 8
