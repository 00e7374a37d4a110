"""Kill -9 in the middle of saves and of ``play -o``: the old file or the new one, never worse.

A forked child saves in a loop (cheap: no new interpreter) and is killed with
SIGKILL at a random moment. After every kill the target must be the old or the
new version and readable; after the next save no temporary file may be left; the
target's mode and the symlink through which it is written stay as they were.
"""

from __future__ import annotations

import json
import os
import random
import signal
import stat
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.cli import main
from referee.envelopes import game_of, new_game, replay_one, save_envelope
from referee.generators import voronoi_map
from referee.store import load_project, save_project

ROOT = Path(__file__).resolve().parents[3]
MOUNT_DOOM = str(ROOT / "projects" / "mount-doom")


def _kill_loop(work: Callable[[], None], kills: int, seed: int, check: Callable[[], None]) -> int:
    """Fork ``kills`` children running ``work`` forever; SIGKILL each at a random moment."""
    rnd = random.Random(seed)
    finished = 0
    work()  # warm up (caches, the argument parser)
    t = time.perf_counter()
    work()  # one save in the parent: kills are spread over about two saves' time
    span = 2 * (time.perf_counter() - t)
    for _ in range(kills):
        ready_r, ready_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: save until killed, saying when it starts
            try:
                os.close(ready_r)
                os.write(ready_w, b"1")
                while True:
                    work()
            finally:
                os._exit(3)
        os.close(ready_w)
        os.read(ready_r, 1)  # the child runs now (a busy machine may be slow to start it)
        os.close(ready_r)
        time.sleep(rnd.uniform(0.0, span))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        finished += os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        check()
    return finished


def _setup_link(tmp_path: Path, name: str) -> tuple[Path, Path]:
    real = tmp_path / "data" / name
    real.parent.mkdir()
    link = tmp_path / f"link-{name}"
    link.symlink_to(real)
    return real, link


def _temps(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if ".bwtmp" in p.name]


def run_save_kills(tmp_path: Path, kills: int) -> None:
    real, link = _setup_link(tmp_path, "p.bwproj")
    boards = []
    for i in range(2):
        b = voronoi_map(60, i)
        b.meta["name"] = f"version {i}"
        boards.append(b)
    save_project(boards[0], link)
    real.chmod(0o640)
    names = {"version 0", "version 1"}
    state = {"i": 0}
    left: list[int] = []

    def work() -> None:
        state["i"] += 1
        save_project(boards[state["i"] % 2], link)

    def check() -> None:
        assert link.is_symlink()
        assert load_project(link).name in names
        assert stat.S_IMODE(real.stat().st_mode) == 0o640
        left.append(len(_temps(real.parent)))

    assert _kill_loop(work, kills, 1, check) == kills
    assert max(left) > 0  # some kills did land in the middle of a save
    save_project(boards[1], link)  # the next save cleans up after the killed ones
    assert _temps(real.parent) == [] and _temps(tmp_path) == []
    assert link.is_symlink() and stat.S_IMODE(real.stat().st_mode) == 0o640
    assert load_project(link).name == "version 1"


def run_play_kills(tmp_path: Path, kills: int, capsys: pytest.CaptureFixture[str]) -> None:
    real, link = _setup_link(tmp_path, "game.json")
    _, env = new_game("mount-doom", MOUNT_DOOM, 2, 5, {})
    save_envelope(str(link), env)
    real.chmod(0o600)
    rnd = random.Random(2)

    def work() -> None:
        env = json.loads(link.read_text())
        game = game_of(env)
        moves = [str(m) for m in game.legal_moves]
        if not moves or len(env["log"]["moves"]) > 30:
            save_envelope(
                str(link), new_game("mount-doom", MOUNT_DOOM, 2, rnd.randrange(100), {})[1]
            )
            return
        main(["play", str(link), rnd.choice(moves), "-o", str(link)])

    def check() -> None:
        assert link.is_symlink() and stat.S_IMODE(real.stat().st_mode) == 0o600
        env = json.loads(link.read_text())
        assert replay_one(env, str(link))["ok"]

    assert _kill_loop(work, kills, 3, check) == kills
    capsys.readouterr()
    env = json.loads(link.read_text())
    move = next(iter(game_of(env).legal_moves), None)
    if move is None:
        save_envelope(str(link), new_game("mount-doom", MOUNT_DOOM, 2, 1, {})[1])
    else:
        assert main(["play", str(link), str(move), "-o", str(link)]) == 0
    assert _temps(real.parent) == [] and _temps(tmp_path) == []
    assert link.is_symlink() and stat.S_IMODE(real.stat().st_mode) == 0o600
    capsys.readouterr()


def test_kill_9_during_50_saves(tmp_path):
    run_save_kills(tmp_path, 50)


def test_kill_9_during_50_plays(tmp_path, capsys):
    run_play_kills(tmp_path, 50, capsys)


@pytest.mark.slow
def test_kill_9_during_many_saves_and_plays(tmp_path, capsys):
    """The long variant (``pytest -m slow``): 300 killed saves and 300 killed plays."""
    for sub in ("s", "p"):
        (tmp_path / sub).mkdir()
    run_save_kills(tmp_path / "s", 300)
    run_play_kills(tmp_path / "p", 300, capsys)
