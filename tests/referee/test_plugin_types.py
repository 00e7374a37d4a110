"""A plug-in type-checks against Boardwright's types (``py.typed``) from its own folder.

With Boardwright installed editable (``pip install -e``), setuptools finds
``referee`` through an import hook that mypy does not follow; the documented way
(``docs/writing-a-rules-module.md``) points mypy at the installed package's folder
with ``MYPYPATH``. The race example, checked that way from its folder with
``--strict``, has no error — and the kit's types really are read: a wrong type
passed to a kit hook is reported.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import referee

ROOT = Path(__file__).resolve().parents[2]
RACE = ROOT / "examples" / "boardwright-race"
#: what the docs tell a plug-in author to compute: the folder holding ``referee``
SOURCE = Path(referee.__file__).resolve().parents[1]


def mypy(folder: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), "src"],
        cwd=folder,
        env={**os.environ, "MYPYPATH": str(SOURCE)},
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_py_typed_ships_with_the_package() -> None:
    assert (SOURCE / "referee" / "py.typed").is_file()


def test_the_race_type_checks_from_its_folder(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    done = mypy(RACE, tmp_path / "cache")
    assert done.returncode == 0, done.stdout[-3000:]
    assert "Success: no issues found" in done.stdout


def test_a_wrong_type_against_the_kit_is_caught(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    folder = tmp_path / "race"
    shutil.copytree(RACE, folder, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    game = folder / "src" / "boardwright_race" / "game.py"
    text = game.read_text(encoding="utf-8")
    # the kit's generator rolls a die of so many sides: an int (referee.games.rng.Rng.die)
    wrong = text.replace('self.rng.die(self.options["sides"])', 'self.rng.die("six")')
    assert wrong != text
    game.write_text(wrong, encoding="utf-8")
    done = mypy(folder, tmp_path / "cache")
    assert done.returncode == 1
    assert 'Argument 1 to "die" of "Rng" has incompatible type "str"; expected "int"' in done.stdout
