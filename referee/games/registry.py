"""Rules modules as plug-ins: the :class:`RulesModule` descriptor and the registry.

A rules module — built in or an installed package of its own — registers one
:class:`RulesModule` in the entry-point group ``boardwright.rules``; the entry
point's name is the rules name boards declare in ``meta.rules``::

    # pyproject.toml of a rules package
    [project.entry-points."boardwright.rules"]
    race = "boardwright_race:RULES"

The four built-in games register the same way in Boardwright's own
``pyproject.toml`` (a checkout is used after ``pip install -e .``, which writes the
entry points). A :class:`RulesModule` is a :class:`referee.vocabulary.Plugin`: the
ground-floor vocabulary loads the entry points (:func:`referee.vocabulary.installed`)
and serves their properties, symbols and pictures to the model, the palette and the
renderer; :func:`modules` keeps the ones that bring a game.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ..vocabulary import GROUP, Plugin, installed

if TYPE_CHECKING:
    from ..compiler import CompiledBoard, Problem
    from ..render.pictures import Picture
    from .base import Game

__all__ = [
    "RulesModule",
    "available",
    "builtin_modules",
    "get_game",
    "get_module",
    "modules",
]

#: prefix of a RulesModule path naming Boardwright's shipped data (:meth:`RulesModule.resolve`)
SHIPPED = "shipped:"

#: ``register(subparsers)``: adds a rules module's own ``referee`` verbs
CliHook = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


@dataclass(frozen=True, kw_only=True)
class RulesModule(Plugin):
    """Everything Boardwright needs to know about one game: a plug-in that brings one.

    Attributes
    ----------
    name : str
        The rules name (``meta.rules`` of a board; the entry point's name).
    game : type of Game
        The game class (:class:`referee.games.base.Game`).
    props : mapping
        The game's property vocabulary, in the shape of
        :data:`referee.model.PROP_SPECS` (feature kind -> property -> spec); merged
        into it by :func:`referee.vocabulary.prop_specs` so the editor's inspector
        and the schema know the game's properties.
    board_checks : tuple of callables
        ``check(compiled) -> list[Problem]`` run by ``referee check`` on boards
        declaring these rules.
    board_counts : callable, optional
        ``counts(compiled) -> {name: count}``: the game's own counts of a board
        (``rules_counts`` of ``referee info``).
    symbols : mapping
        Figure kind, node kind or ``kind.prop[=value]`` ->
        :class:`referee.vocabulary.Symbol`, for ``render`` and the editor (merged by
        :func:`referee.vocabulary.symbol_table`).
    pictures : mapping
        Symbol key -> :class:`referee.render.pictures.Picture`: the finer printed-board
        pictures ``referee render`` draws instead of the symbols they stand for.
    cli : callable, optional
        ``register(subparsers)`` adding the module's own ``referee`` verbs.
    positions : tuple of str
        Example position files shipped with the module, validated by the contract
        test against :meth:`Game.position_schema`. Absolute paths, or names
        resolved by :meth:`resolve` (``shipped:`` data of :mod:`referee.shipped`).
    sample : str, optional
        A project to play on (tests, ``referee new`` examples), resolved likewise.
    """

    game: type[Game[Any]]
    pictures: Mapping[str, Picture] = field(default_factory=dict)
    board_checks: tuple[Callable[[CompiledBoard], list[Problem]], ...] = ()
    board_counts: Callable[[CompiledBoard], Mapping[str, int]] | None = None
    cli: CliHook | None = None
    positions: tuple[str, ...] = ()
    sample: str | None = None

    def resolve(self, name: str) -> Path:
        """The file or folder a ``positions`` or ``sample`` entry names.

        ``shipped:positions/X`` and ``shipped:projects/X`` are Boardwright's own data
        (:mod:`referee.shipped`, found through :mod:`importlib.resources`, so they
        resolve from an installed wheel as from a checkout); an absolute path is
        itself; any other name is relative to the package that holds the game class
        (package data of a plug-in: ``"data/race-start.json"``).
        """
        if name.startswith(SHIPPED):
            from .. import shipped

            folder, _, rest = name[len(SHIPPED) :].partition("/")
            roots = {"positions": shipped.positions_dir, "projects": shipped.projects_dir}
            if folder not in roots or not rest:
                raise UsageError(
                    f"rules module {self.name!r}: {name!r} names no shipped data "
                    f"(shipped:positions/... or shipped:projects/...)"
                )
            return roots[folder]() / rest
        path = Path(name)
        if path.is_absolute():
            return path
        package = self.game.__module__.rpartition(".")[0] or self.game.__module__
        found = files(package)
        if not isinstance(found, Path):
            raise UsageError(f"rules module {self.name!r}: package {package} is not on disk")
        return found / name

    def position_paths(self) -> list[Path]:
        """The example positions, resolved (:meth:`resolve`)."""
        return [self.resolve(p) for p in self.positions]

    def sample_path(self) -> Path | None:
        """The sample project, resolved (:meth:`resolve`), or ``None``."""
        return self.resolve(self.sample) if self.sample else None


@cache
def modules() -> dict[str, RulesModule]:
    """Every rules module installed, by rules name in name order.

    The entry points of ``boardwright.rules`` (:func:`referee.vocabulary.installed`);
    one that names no :class:`RulesModule` is reported on stderr and left out, as is
    a plug-in that fails to load.
    """
    found: dict[str, RulesModule] = {}
    for name, obj in installed().items():
        if isinstance(obj, RulesModule):
            found[name] = obj
        else:
            print(f"referee: entry point {name!r} of {GROUP} is not a RulesModule", file=sys.stderr)
    return found


def available() -> list[str]:
    """Names of the rules modules installed (``ringgeister``, ``race``...)."""
    return list(modules())


def get_module(name: str) -> RulesModule:
    """The :class:`RulesModule` of ``name``; a one-line :class:`UsageError` if unknown."""
    found = modules()
    if name not in found:
        raise UsageError(f"unknown rules {name!r} (known: {', '.join(found) or 'none'})")
    return found[name]


def get_game(name: str) -> type[Game[Any]]:
    """The game class of the rules ``name``."""
    return get_module(name).game


def builtin_modules() -> dict[str, RulesModule]:
    """The rules modules that ship inside Boardwright (``referee.games.<pkg>``).

    What the committed project schema (:mod:`referee.schema`) describes: the same
    whatever plug-ins happen to be installed.
    """
    return {
        name: rm
        for name, rm in modules().items()
        if rm.game.__module__.startswith(f"{__package__}.")
    }
