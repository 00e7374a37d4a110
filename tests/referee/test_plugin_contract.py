"""A plug-in's own CI runs the shipped game contract from the plug-in's own folder.

A copy of the race example, renamed into a plug-in of its own (``tagrace``), is
installed from its folder with pip (into a directory of its own, not this
environment) and its folder runs ``pytest --boardwright-contract tagrace``, as its
CI would: every check passes. The same copy with a rule broken fails the check
that catches it, with a message naming the check and the state. The fixture
``boardwright_contract`` does the same from a test file of the plug-in's own.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.contract import CHECKS

ROOT = Path(__file__).resolve().parents[2]
RACE = ROOT / "examples" / "boardwright-race"

#: the race renamed into another plug-in (so the installed race does not shadow it)
RENAMES = [
    ("boardwright_race", "tagrace_plugin"),
    ("boardwright-race", "tagrace-plugin"),
    ('"race"', '"tagrace"'),
    ("race-track", "tagrace-track"),
]


def make_plugin(where: Path) -> Path:
    folder = where / "tagrace"
    shutil.copytree(RACE, folder, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    (folder / "src" / "boardwright_race").rename(folder / "src" / "tagrace_plugin")
    for path in folder.rglob("*"):
        if path.suffix in (".py", ".toml", ".json") and path.is_file():
            text = path.read_text(encoding="utf-8")
            for old, new in RENAMES:
                text = text.replace(old, new)
            text = re.sub(r"^race = ", "tagrace = ", text, flags=re.M)
            path.write_text(text, encoding="utf-8")
    return folder


def install(folder: Path, site: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), "."],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]


def pytest_in(folder: Path, site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n0", *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    where = tmp_path_factory.mktemp("plugin")
    folder, site = make_plugin(where), where / "site"
    install(folder, site)
    return folder, site


def test_an_installed_plugin_passes_the_contract_from_its_folder(plugin: tuple[Path, Path]) -> None:
    folder, site = plugin
    done = pytest_in(folder, site, "--boardwright-contract", "tagrace", "-k", "contract")
    assert done.returncode == 0, done.stdout[-3000:]
    assert f"{len(CHECKS)} passed" in done.stdout, done.stdout[-3000:]


def test_the_fixture_runs_the_contract_from_the_plugins_own_test(plugin: tuple[Path, Path]) -> None:
    folder, site = plugin
    test = folder / "tests" / "test_own_contract.py"
    test.write_text(
        "def test_the_contract(boardwright_contract):\n"
        '    boardwright_contract("tagrace", games=2, plies=30)\n',
        encoding="utf-8",
    )
    try:
        done = pytest_in(folder, site, str(test))
    finally:
        test.unlink()
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-3000:]


def test_a_broken_plugin_fails_the_check_that_catches_it(
    tmp_path: Path, plugin: tuple[Path, Path]
) -> None:
    folder = make_plugin(tmp_path)
    game = folder / "src" / "tagrace_plugin" / "game.py"
    text = game.read_text(encoding="utf-8")
    # a position that forgets whose turn it is
    broken = text.replace(
        "self.player = self.players.index(position.to_move) if position.to_move else 0",
        "self.player = 0",
    )
    assert broken != text
    game.write_text(broken, encoding="utf-8")
    site = tmp_path / "site"
    install(folder, site)
    done = pytest_in(folder, site, "--boardwright-contract", "tagrace", "-k", "contract")
    assert done.returncode == 1
    assert re.search(
        r"contract check position_round_trip of tagrace: seed \d+, after \d+ move\(s\): "
        r"from_position\(position\(\)\) writes another position",
        done.stdout,
    ), done.stdout[-3000:]
