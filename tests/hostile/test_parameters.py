"""Issue 25, finding 7: bot, study and distributed parameters as an attacker gives
them. Each bad value is refused before any game runs with one line and exit 2 (a
usage error); a Dask scheduler that accepts the connection but never speaks is
given up within 10 s with one line; no "internal error" anywhere.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MD = ROOT / "projects" / "mount-doom" / "mount-doom.bwproj"


def referee(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", *argv], capture_output=True, text=True, timeout=timeout
    )


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [ln for ln in done.stderr.replace("\r", "\n").splitlines() if ln.strip()]
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    assert lines, done
    return lines[-1]


BAD_BALANCE = {
    "mcts exploration inf": ["--bots", "mcts:exploration=inf,random"],
    "mcts exploration nan": ["--bots", "mcts:exploration=nan,random"],
    "mcts ms nan": ["--bots", "mcts:ms=nan,random"],
    "mcts ms inf": ["--bots", "mcts:ms=inf,random"],
    "mcts ms 1e308": ["--bots", "mcts:ms=1e308,random"],
    "mcts iterations negative": ["--bots", "mcts:iterations=-5,random"],
    "mcts iterations huge": ["--bots", "mcts:iterations=100000000000000000000,random"],
    "mcts rollout huge": ["--bots", "mcts:rollout=1000000000000,random"],
    "games huge": ["--games", "100000000000000000000"],
    "games 1e20": ["--games", "1e20"],
    "games nan": ["--games", "nan"],
    "games negative": ["--games", "-3"],
    "max-moves huge": ["--max-moves", "100000000000000000000"],
    "max-moves zero": ["--max-moves", "0"],
    "workers huge": ["--workers", "100000000"],
    "seed huge": ["--seed", "100000000000000000000000"],
    "seed negative": ["--seed", "-1"],
    "scheduler not an address": ["--engine", "dask", "--scheduler", "not an address"],
    "scheduler no port": ["--engine", "dask", "--scheduler", "tcp://example"],
    "scheduler port 0": ["--engine", "dask", "--scheduler", "tcp://127.0.0.1:0"],
}


def in_process(argv: list[str], capsys: pytest.CaptureFixture[str], within: float = 30) -> str:
    """``referee.cli.main(argv)`` on a watched thread: its one line on stderr, after
    checking it exited 2 within ``within`` seconds (a hang fails, not waits)."""
    from referee.cli import main

    box: dict[str, int] = {}

    def run() -> None:
        try:
            box["rc"] = main(argv)
        except SystemExit as exc:
            box["rc"] = int(exc.code or 0)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(within)
    assert not t.is_alive(), f"referee {' '.join(argv)} still running after {within} s"
    out, err = capsys.readouterr()
    assert box.get("rc") == 2, (box, err[-400:])
    return one_line(subprocess.CompletedProcess(argv, 2, out, err))


@pytest.mark.parametrize("case", sorted(BAD_BALANCE))
def test_a_bad_study_parameter_is_refused_in_one_line(
    tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = BAD_BALANCE[case]
    bots = [] if "--bots" in extra else ["--bots", "random,random"]
    db = tmp_path / "b.sqlite"
    argv = ["balance", "mount-doom", str(MD), "--games", "2", *bots, *extra, "--db", str(db)]
    in_process(argv, capsys)


class Silent:
    """A TCP listener that accepts every connection and never sends a byte."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.held: list[socket.socket] = []
        self.stop = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        self.sock.settimeout(0.2)
        while not self.stop:
            try:
                c, _ = self.sock.accept()
                self.held.append(c)
            except OSError:
                continue

    def close(self) -> None:
        self.stop = True
        for c in self.held:
            c.close()
        self.sock.close()


def test_a_dask_scheduler_that_never_speaks_is_given_up_within_10_s(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    silent = Silent()
    try:
        t0 = time.monotonic()
        done = referee(
            "balance",
            "mount-doom",
            str(MD),
            "--games",
            "2",
            "--bots",
            "random,random",
            "--engine",
            "dask",
            "--scheduler",
            f"tcp://127.0.0.1:{silent.port}",
            "--db",
            str(tmp_path / "b.sqlite"),
            timeout=60,
        )
        took = time.monotonic() - t0
    finally:
        silent.close()
    assert done.returncode in (1, 2), (done.returncode, done.stderr[-400:])
    line = one_line(done)
    assert f"127.0.0.1:{silent.port}" in line and "Dask scheduler" in line, line
    assert took < 10, took


@pytest.mark.parametrize("bad", ["mcts:ms=nan", "mcts:exploration=inf", "mcts:worlds=1e308"])
def test_a_bad_bot_parameter_in_play_is_refused(
    tmp_path: Path, bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "g.json"
    assert referee("new", "mount-doom", str(MD), "--players", "2", "-o", str(state)).returncode == 0
    in_process(["play", str(state), "--bot", bad], capsys)


def test_a_db_that_is_a_project_file_is_refused_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--db`` at the project file: results went into its ``games`` table (an
    internal error, and the file's header rewritten for WAL)."""
    copy = tmp_path / "copy.bwproj"
    copy.write_bytes(MD.read_bytes())
    argv = ["balance", "mount-doom", str(MD), "--games", "2", "--bots", "random,random"]
    line = in_process([*argv, "--db", str(copy)], capsys)
    assert "not a results database" in line and str(copy) in line
    assert copy.read_bytes() == MD.read_bytes()
    fifo = tmp_path / "results.sqlite"
    os.mkfifo(fifo)
    assert "not a regular file" in in_process([*argv, "--db", str(fifo)], capsys)
