"""``referee serve --db postgresql://...`` as a stranger types the URL: a password
in the URL's query (``?password=``), a password libpq quotes back in its own error
(a bad percent escape) and URLs the standard library cannot split (a port that is
no number, several hosts, an unclosed IPv6 bracket) each give one line, no
traceback, and the password is in neither stderr nor ``--json``'s answer.

Port 1 of 127.0.0.1 refuses at once: no PostgreSQL is needed.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

SECRET = "Hunter2xyzzy"

URLS = {
    "password in the query": f"postgresql://u@127.0.0.1:1/db?password={SECRET}",
    "password twice": f"postgresql://u:{SECRET}@127.0.0.1:1/db?password={SECRET}",
    "bad percent escape": f"postgresql://u:{SECRET}%ZZ@127.0.0.1:1/db",
    "port no number": f"postgresql://u:{SECRET}@127.0.0.1:notaport/db",
    "port out of range": f"postgresql://u:{SECRET}@127.0.0.1:99999/db",
    "several hosts": f"postgresql://u:{SECRET}@127.0.0.1:1,127.0.0.1:2/db",
    "unclosed IPv6": f"postgresql://u:{SECRET}@[::1/db",
    "postgres scheme, query password": f"postgres://u@127.0.0.1:1/db?sslmode=disable&password={SECRET}",
}


@pytest.mark.parametrize("name", sorted(URLS))
@pytest.mark.parametrize("form", [[], ["--json"]])
def test_a_bad_postgres_url_is_one_line_without_its_password(name: str, form: list[str]) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "referee",
            "serve",
            "--http",
            "--port",
            "0",
            "--db",
            URLS[name],
            *form,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    both = done.stdout + done.stderr
    assert done.returncode != 0, both
    assert SECRET not in both, both
    assert "Traceback" not in both and "internal error" not in both, both
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "cannot connect" in lines[0], both
