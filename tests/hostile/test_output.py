"""A reader that goes away (``referee moves g.json --json | head -c 10``) is no bad
state and no traceback: the state guard let the broken pipe through as
``the state does not fit its rules (BrokenPipeError)``, then the error's own JSON
hit the same pipe and Python printed two tracebacks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_closed_stdout_gives_no_traceback(tmp_path: Path) -> None:
    state = tmp_path / "g.json"
    project = ROOT / "projects" / "ringgeister"
    referee = [sys.executable, "-m", "referee"]
    subprocess.run(
        [*referee, "new", "ringgeister", str(project), "--players", "2", "-o", str(state)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    for argv in (
        ["moves", str(state), "--view", "orange", "--json"],
        ["compile", str(ROOT / "projects" / "riddle-sample" / "riddle-sample.bwproj")],
    ):
        read, write = os.pipe()
        os.close(read)  # nobody reads: the first write fails with EPIPE
        done = subprocess.run(
            [*referee, *argv], stdout=write, stderr=subprocess.PIPE, text=True, timeout=120
        )
        os.close(write)
        assert "Traceback" not in done.stderr and "does not fit" not in done.stderr, done.stderr
        assert "internal error" not in done.stderr, done.stderr
