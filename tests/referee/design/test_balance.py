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
        assert b["games"] == 4 and -0.5 <= b["advantage"] <= 0.5
        assert c["score"] == pytest.approx(c["measures"]["connected"] - 0.5 * abs(b["advantage"]))
    for c in data["best"]:
        assert 0.0 <= c["balance"]["p"] <= 1.0
    scores = [c["score"] for c in data["best"]]
    assert scores == sorted(scores, reverse=True)
    assert main(argv) == 0  # a re-run plays no game again
    assert json.loads(capsys.readouterr().out)["best"] == data["best"]
    assert _games(db) == played
