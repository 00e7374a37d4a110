"""``referee serve --db postgresql://...`` on a database that already has someone
else's ``referee_games`` (a table of that name, other columns): ``CREATE TABLE IF
NOT EXISTS`` kept it and the server stopped with ``internal error:
UndefinedColumn``. It is refused in one line naming the table, and the table and
its rows are left as they were.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from referee.net.pgtemp import TempPostgres

psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed (the server-pg extra)")


@pytest.mark.parametrize("table", ["referee_games", "referee_moves"])
def test_someone_elses_table_of_the_same_name_is_refused_and_kept(
    pg_cluster: TempPostgres, table: str
) -> None:
    name = f"other_{table}"
    with psycopg.connect(pg_cluster.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url = pg_cluster.url.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE TABLE {table} (id integer PRIMARY KEY, payroll text)")
        conn.execute(f"INSERT INTO {table} VALUES (1, 'salaries')")
    argv = [sys.executable, "-m", "referee", "serve", "--http", "--port", "0", "--db", url]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode != 0, done
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    assert len(lines) == 1 and table in lines[0], lines
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(f"SELECT id, payroll FROM {table}").fetchall()
        cols = conn.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = %s", [table]
        ).fetchall()
    assert rows == [(1, "salaries")] and sorted(c for (c,) in cols) == ["id", "payroll"]
