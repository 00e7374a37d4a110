"""``referee serve --db FILE`` given a SQLite file that is not the server's game
database: a project (a ``.bwproj`` has a ``games`` table of its own) had five
columns added to that table, its journal turned to WAL, and then the server
stopped with ``internal error: AlterError``. It is refused in one line naming the
file, and the file is left byte for byte as it was; a file that is no database at
all is one line too.
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RINGGEISTER = ROOT / "projects" / "ringgeister" / "ringgeister.bwproj"


@pytest.mark.parametrize("kind", ["project", "another app", "no database"])
def test_serve_refuses_a_file_that_is_not_its_game_database(tmp_path: Path, kind: str) -> None:
    victim = (
        tmp_path / {"project": "p.bwproj", "another app": "app.db", "no database": "n.db"}[kind]
    )
    if kind == "project":
        shutil.copy(RINGGEISTER, victim)
    elif kind == "another app":
        conn = sqlite3.connect(victim)
        conn.execute("create table games (ord integer primary key, data text)")
        conn.execute("insert into games (data) values ('mine')")
        conn.commit()
        conn.close()
    else:
        victim.write_text("not a database, but my notes\n" * 100, encoding="utf-8")
    before = hashlib.sha256(victim.read_bytes()).hexdigest()
    argv = [sys.executable, "-m", "referee", "serve", "--http", "--port", "0", "--db", str(victim)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0, done
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    assert str(victim) in done.stderr.splitlines()[-1], done.stderr
    assert hashlib.sha256(victim.read_bytes()).hexdigest() == before
    assert not Path(f"{victim}-wal").exists()
