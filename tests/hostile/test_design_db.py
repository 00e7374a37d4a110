"""``referee design --db`` (and the Design dock's database, the same store) given
a database that is not a design database: a project file (a ``.bwproj`` is SQLite)
had the design tables written into it and its journal turned to WAL, so the
project changed on disk (and grew ``-wal``/``-shm`` side files a copy would miss).
It is refused in one line naming the file, and left byte for byte as it was.
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from referee.cli import main

ROOT = Path(__file__).resolve().parents[2]
RINGGEISTER = ROOT / "projects" / "ringgeister" / "ringgeister.bwproj"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("kind", ["project", "another app"])
def test_a_database_that_is_not_a_design_database_is_refused_untouched(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = tmp_path / ("victim.bwproj" if kind == "project" else "app.db")
    if kind == "project":
        shutil.copy(RINGGEISTER, victim)
    else:
        with sqlite3.connect(victim) as conn:
            conn.execute("create table accounts (id integer primary key, name text)")
            conn.execute("insert into accounts (name) values ('alice')")
        conn.close()
    before = digest(victim)
    argv = ["design", "ringgeister", str(RINGGEISTER), "--db", str(victim), "--budget", "2"]
    assert main([*argv, "--no-progress"]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(err) == 1 and str(victim) in err[0] and "not a design database" in err[0], err
    assert digest(victim) == before
    assert not Path(f"{victim}-wal").exists()


@pytest.mark.parametrize(
    ("layout", "measures"),
    [("[[1]]", "{not json"), ('"x"', "{}"), ("[]", '{"success": "lots"}'), ("null", "[]")],
)
def test_a_damaged_candidate_of_a_design_database_is_one_line(
    tmp_path: Path, layout: str, measures: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d.sqlite"
    argv = ["design", "ringgeister", str(RINGGEISTER), "--db", str(db), "--no-progress"]
    assert main([*argv, "--budget", "3"]) == 0
    with sqlite3.connect(db) as conn:
        conn.execute("update design_candidates set layout = ?, measures = ?", [layout, measures])
    conn.close()
    capsys.readouterr()
    assert main([*argv, "--budget", "5"]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(err) == 1 and str(db) in err[0] and "internal error" not in err[0], err
