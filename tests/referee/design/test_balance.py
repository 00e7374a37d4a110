"""The balance term: bot games on the finalists only, through ``referee balance``'s study."""

from __future__ import annotations

import json
import sqlite3

import pytest

from referee.cli import main

from .conftest import RINGGEISTER


def _games(db):
    with sqlite3.connect(db) as conn:
        return conn.execute("select count(*), count(distinct study) from games").fetchone()


def test_finalists_played_scored_and_resumed(tmp_path, capsys):
    db = tmp_path / "d.sqlite"
    argv = ["design", "ringgeister", str(RINGGEISTER), "--budget", "6", "--top", "2"]
    argv += ["--objective", "connected,balance=0.5", "--bots", "random,random", "--games", "4"]
    argv += ["--workers", "1", "--db", str(db), "--no-progress", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    played = _games(db)
    # the start board and the two finalists (one study each, unless a finalist is the start)
    assert played[0] == 4 * played[1] and played[1] >= 2
    for c in [data["start"], *data["best"]]:
        b = c["balance"]
        assert b["games"] == 4 and 0 <= b["decided"] <= 4
        # over the decided games; a board with none counts as the least fair
        adv = 1 - b["fair_share"] if b["advantage"] is None else abs(b["advantage"])
        assert adv <= 0.5
        assert c["score"] == pytest.approx(c["measures"]["connected"] - 0.5 * adv)
    for c in data["best"]:
        assert 0.0 <= c["balance"]["p"] <= 1.0
    scores = [c["score"] for c in data["best"]]
    assert scores == sorted(scores, reverse=True)
    assert main(argv) == 0  # a re-run plays no game again
    assert json.loads(capsys.readouterr().out)["best"] == data["best"]
    assert _games(db) == played


def _summary(wins: int, decided: int, games: int) -> dict:
    """A balance summary's first-player part, as :func:`referee.balance.report.summarise`
    writes it (2 seats)."""
    from referee.balance.report import _rate

    return {
        "first_player": {
            "first_player_won": _rate(wins, games),
            "first_player_won_decided": _rate(wins, decided),
            "fair_share": 0.5,
        }
    }


def test_first_player_advantage_counts_decided_games_and_tests_against_the_start():
    from referee.design.finalists import compare_first_player, first_player

    base = first_player(_summary(25, 50, 80))
    assert base["advantage"] == 0.0 and base["decided"] == 50 and base["games"] == 80
    fp = first_player(_summary(30, 50, 60))
    assert fp["advantage"] == pytest.approx(0.1)
    lo, hi = fp["ci95"]
    assert lo < 0.1 < hi
    # pooled rate 0.55, se = sqrt(0.55 * 0.45 * 2 / 50), z = 0.1 / se = 1.005
    got = compare_first_player(fp, base)
    assert got["z"] == pytest.approx(1.005, abs=1e-3)
    assert got["p"] == pytest.approx(0.1574, abs=1e-3)  # 1 - Phi(1.005)
    strong = compare_first_player(first_player(_summary(40, 50, 50)), base)
    assert strong["p"] < 0.001
    none = first_player(_summary(0, 0, 10))
    assert none["advantage"] is None and none["ci95"] is None


def test_verdict_says_whether_the_best_is_significantly_less_fair():
    from types import SimpleNamespace

    from referee.design.finalists import compare_first_player, first_player, verdict

    base = first_player(_summary(25, 50, 80))
    best = {**first_player(_summary(30, 50, 60))}
    best.update(compare_first_player(best, base))
    result = SimpleNamespace(
        best=[SimpleNamespace(balance=best)], base=SimpleNamespace(balance=base)
    )
    text = verdict(result)
    assert "best +0.100" in text and "over 50 decided of 60 games" in text
    assert "one-sided p = 0.157: not significantly larger than the start board's" in text
    worse = {**first_player(_summary(40, 50, 50))}
    worse.update(compare_first_player(worse, base))
    result.best[0].balance = worse
    assert ": significantly larger than the start board's" in verdict(result)


def test_balance_without_bots_plays_the_kits_tree_search(tmp_path, capsys):
    from referee.design.finalists import DEFAULT_BOT

    db = tmp_path / "d.sqlite"
    argv = ["design", "ringgeister", str(RINGGEISTER), "--budget", "3", "--top", "1"]
    argv += ["--objective", "connected,balance=0.5", "--games", "2", "--max-moves", "30"]
    argv += ["--workers", "1", "--db", str(db), "--no-progress"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "first-player advantage (win rate − fair share, 95 % interval): best" in out
    with sqlite3.connect(db) as conn:
        bots = {
            json.dumps(json.loads(d)["bots"])
            for (d,) in conn.execute("select description from studies")
        }
    assert bots == {json.dumps([DEFAULT_BOT, DEFAULT_BOT])}
    page = RINGGEISTER.parents[2] / "docs" / "how-to" / "design-a-board.md"
    assert f"`{DEFAULT_BOT}`" in page.read_text()  # the page names the bot played
