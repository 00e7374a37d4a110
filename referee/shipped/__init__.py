"""The data Boardwright ships: asset packs, sample projects and example positions.

The repository keeps them in ``assets/``, ``projects/`` and ``docs/positions/``;
installed (from a wheel or in editable mode) they are the packages
``referee.shipped.assets``, ``referee.shipped.projects`` and
``referee.shipped.positions`` (``package-dir`` in ``pyproject.toml``), found here
through :mod:`importlib.resources`, so a wheel installed anywhere finds them the same
way a source checkout does. Rules modules name them ``shipped:projects/...`` and
``shipped:positions/...`` (:meth:`referee.games.registry.RulesModule.resolve`).

>>> (projects_dir() / "ringgeister").is_dir()
True
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from ..errors import AssetError

__all__ = ["assets_dir", "positions_dir", "project_path", "projects_dir"]


def _folder(package: str) -> Path:
    found = files(package)
    # pip installs packages as files; a zipped install would need extracting first
    if not isinstance(found, Path) or not found.is_dir():
        raise AssetError(f"Boardwright's data folder {package} is not a folder on disk ({found})")
    return found


def assets_dir() -> Path:
    """The folder holding the shipped asset packs (``assets/<pack>/pack.json``)."""
    return _folder("referee.shipped.assets")


def projects_dir() -> Path:
    """The folder holding the shipped sample projects (``projects/<name>/``)."""
    return _folder("referee.shipped.projects")


def positions_dir() -> Path:
    """The folder holding the example positions of the built-in games (``docs/positions``)."""
    return _folder("referee.shipped.positions")


def project_path(name: str) -> Path:
    """The folder of the shipped sample project ``name`` (``ringgeister``, ``riddle-sample``, …).

    Raises
    ------
    AssetError
        If no shipped project has that name (the message lists the ones there are).
    """
    root = projects_dir()
    path = root / name
    if not path.is_dir() or name.startswith(("_", ".")):
        there = sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("_"))
        raise AssetError(f"no shipped project named {name!r}; there are: {', '.join(there)}")
    return path
