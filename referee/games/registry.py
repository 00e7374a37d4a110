"""Rules modules as plug-ins: the :class:`RulesModule` descriptor and its discovery.

A rules module — built in or an installed package of its own — registers one
:class:`RulesModule` in the entry-point group ``boardwright.rules``; the entry
point's name is the rules name boards declare in ``meta.rules``::

    # pyproject.toml of a rules package
    [project.entry-points."boardwright.rules"]
    race = "boardwright_race:RULES"

The four built-in games register the same way in Boardwright's own
``pyproject.toml``. Entry points appear once the package is installed (after
``pip install -e .`` for a checkout): until then the built-in subpackages of
:mod:`referee.games` are found directly, so a fresh checkout keeps working.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import entry_points
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import UsageError

if TYPE_CHECKING:
    from ..compiler import CompiledBoard, Problem
    from ..render.pictures import Picture
    from .base import Game

__all__ = [
    "GROUP",
    "SHAPES",
    "RulesModule",
    "Symbol",
    "available",
    "builtin_modules",
    "get_game",
    "get_module",
    "modules",
    "prop_specs",
    "prop_table",
    "symbol_table",
]

#: the entry-point group rules modules register in
GROUP = "boardwright.rules"
#: prefix of a RulesModule path naming Boardwright's shipped data (:meth:`RulesModule.resolve`)
SHIPPED = "shipped:"

#: ``register(subparsers)``: adds a rules module's own ``referee`` verbs
CliHook = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


#: shapes a :class:`Symbol` can take
SHAPES = (
    "circle",
    "square",
    "diamond",
    "triangle",
    "ring",
    "arrow",
    "tick",
    "area",
    "text",
)


@dataclass(frozen=True)
class Symbol:
    """How a figure, a node kind or a property is drawn (Qt-free: ``render`` and the editor).

    A rules module's ``symbols`` table maps a key to a symbol:

    - ``"runner"`` — a figure kind (a piece type's ``kind``, or its id);
    - ``"point"`` — every feature of that kind (its base look);
    - ``"point.magic"`` — a feature of that kind whose property is set (truthy);
    - ``"point.colour=black"`` — a feature whose property has that value (the text
      of the value: ``"door.symbol=moon"``, ``"point.goal=True"``).

    Both pictures (``referee render`` and the editor's canvas) draw every symbol
    that matches a feature, in table order, the base look first, each one over the
    last (so ``point.colour=black`` paints a black disc over the grey ``point``).

    Attributes
    ----------
    label : str
        Text printed on it (one to three characters), or the text of a ``text`` symbol.
    colour : str
        Fill colour, CSS name or ``#rrggbb``.
    shape : str
        One of :data:`SHAPES`: ``circle``, ``square``, ``diamond``, ``triangle``
        (filled, centred on the feature), ``ring`` (an outline around it), ``arrow``
        and ``tick`` (along the direction the property holds: a wind arrow outside,
        a heading inside), ``area`` (fills a polygon feature), ``text`` (the label only).
    size : float
        Radius (half the side; the length of an ``arrow`` or ``tick``), in mm.
    stroke : str, optional
        Outline colour (none if ``None``).
    title : str
        Words for the key (legend) of a rendered board; empty: left out of the key.
    """

    label: str = ""
    colour: str = "#9e9e9e"
    shape: str = "circle"
    size: float = 2.0
    stroke: str | None = None
    title: str = ""

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise ValueError(f"unknown symbol shape {self.shape!r} (known: {', '.join(SHAPES)})")


@dataclass(frozen=True)
class RulesModule:
    """Everything Boardwright needs to know about one game.

    Attributes
    ----------
    name : str
        The rules name (``meta.rules`` of a board; the entry point's name).
    game : type of Game
        The game class (:class:`referee.games.base.Game`).
    props : mapping
        The game's property vocabulary, in the shape of
        :data:`referee.model.PROP_SPECS` (feature kind -> property -> spec); merged
        into it by :func:`prop_specs` so the editor's inspector and the schema
        know the game's properties.
    board_checks : tuple of callables
        ``check(compiled) -> list[Problem]`` run by ``referee check`` on boards
        declaring these rules.
    symbols : mapping
        Figure kind, node kind or ``kind.prop[=value]`` -> :class:`Symbol`, for
        ``render`` and the editor (see :class:`Symbol`; merged by :func:`symbols`).
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

    name: str
    game: type[Game[Any]]
    props: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)
    board_checks: tuple[Callable[[CompiledBoard], list[Problem]], ...] = ()
    symbols: Mapping[str, Symbol] = field(default_factory=dict)
    pictures: Mapping[str, Picture] = field(default_factory=dict)
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


def _builtin(name: str) -> RulesModule | None:
    """The ``RULES`` descriptor of built-in subpackage ``name`` (``None``: a helper
    package that is no game)."""
    mod = importlib.import_module(f"{__package__}.{name}")
    rules = mod.__dict__.get("RULES")  # a module constant, not reflection on verbs
    return rules if isinstance(rules, RulesModule) else None


@cache
def modules() -> dict[str, RulesModule]:
    """Every rules module installed, by rules name (entry points, then built-ins).

    A plug-in that fails to load is reported on stderr and left out.
    """
    found: dict[str, RulesModule] = {}
    for ep in entry_points(group=GROUP):
        try:
            obj = ep.load()
        except Exception as exc:  # a broken plug-in must not break the referee
            print(f"referee: rules module {ep.name!r} failed to load: {exc}", file=sys.stderr)
            continue
        if not isinstance(obj, RulesModule):
            print(
                f"referee: entry point {ep.name!r} of {GROUP} is not a RulesModule", file=sys.stderr
            )
            continue
        found[ep.name] = obj
    from . import __path__ as games_path

    for m in pkgutil.iter_modules(games_path):
        name = m.name.replace("_", "-")
        if m.ispkg and name not in found:
            rm = _builtin(m.name)
            if rm is not None:
                found[name] = rm
    return dict(sorted(found.items()))


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


def prop_specs(
    base: Mapping[str, Mapping[str, Mapping[str, Any]]] | None = None,
    found: Mapping[str, RulesModule] | None = None,
) -> dict[str, dict[str, Any]]:
    """The property vocabulary: ``base`` (default the generic
    :data:`referee.model.PROP_SPECS`) merged with every installed module's ``props``
    (a module adds kinds and properties; it never changes a generic property's spec;
    when two modules declare one property, the first by rules name wins).

    A new dict each call; :func:`prop_table` is the cached one that loading uses.
    """
    if base is None:
        from ..model import PROP_SPECS

        base = PROP_SPECS
    out: dict[str, dict[str, Any]] = {k: dict(v) for k, v in base.items()}
    for rm in (found if found is not None else modules()).values():
        for kind, specs in rm.props.items():
            row = out.setdefault(kind, {})
            for key, spec in specs.items():
                row.setdefault(key, dict(spec))
    return out


@cache
def prop_table() -> Mapping[str, Mapping[str, Mapping[str, Any]]]:
    """The merged property table of every installed module (:func:`prop_specs`), built once.

    Global on purpose: a board that declares no rules (or other rules) still loads
    with the properties any installed game uses, so a board can be drawn before
    its rules are chosen. Read-only: do not change it.
    """
    return prop_specs()


@cache
def symbol_table() -> dict[str, Symbol]:
    """Every installed module's ``symbols``, merged by key (the first module by name
    wins a key two declare). Read-only: do not change it."""
    out: dict[str, Symbol] = {}
    for rm in modules().values():
        for key, sym in rm.symbols.items():
            out.setdefault(key, sym)
    return out
