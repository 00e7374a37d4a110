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
from typing import TYPE_CHECKING, Any

from ..errors import UsageError

if TYPE_CHECKING:
    from ..compiler import CompiledBoard, Problem
    from .base import Game

__all__ = ["GROUP", "RulesModule", "Symbol", "available", "get_game", "get_module", "modules"]

#: the entry-point group rules modules register in
GROUP = "boardwright.rules"

#: ``register(subparsers)``: adds a rules module's own ``referee`` verbs
CliHook = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


@dataclass(frozen=True)
class Symbol:
    """How a figure or a node kind is drawn (Qt-free: ``render`` and the editor).

    Attributes
    ----------
    label : str
        One to three characters printed on it.
    colour : str
        Fill colour, CSS name or ``#rrggbb``.
    shape : str
        ``circle``, ``square``, ``diamond`` or ``triangle``.
    """

    label: str
    colour: str = "#9e9e9e"
    shape: str = "circle"


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
        Figure kind (or node kind) -> :class:`Symbol`, for ``render`` and the editor.
    cli : callable, optional
        ``register(subparsers)`` adding the module's own ``referee`` verbs.
    positions : tuple of str
        Example position files shipped with the module (paths), validated by the
        contract test against :meth:`Game.position_schema`.
    sample : str, optional
        A project folder to play on (tests, ``referee new`` examples).
    """

    name: str
    game: type[Game[Any]]
    props: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)
    board_checks: tuple[Callable[[CompiledBoard], list[Problem]], ...] = ()
    symbols: Mapping[str, Symbol] = field(default_factory=dict)
    cli: CliHook | None = None
    positions: tuple[str, ...] = ()
    sample: str | None = None


def _builtin(name: str) -> RulesModule | None:
    mod = importlib.import_module(f"{__package__}.{name}")
    rules = getattr(mod, "RULES", None)  # a module constant, not reflection on verbs
    if isinstance(rules, RulesModule):
        return rules
    game = getattr(mod, "GAME", None)
    if game is None:
        return None
    return RulesModule(name=name.replace("_", "-"), game=game)


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
        if isinstance(obj, type) and hasattr(obj, "generate_legal_moves"):
            obj = RulesModule(name=ep.name, game=obj)  # a bare Game class (kit shim)
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


def prop_specs(
    base: Mapping[str, Mapping[str, Mapping[str, Any]]] | None = None,
    found: Mapping[str, RulesModule] | None = None,
) -> dict[str, dict[str, Any]]:
    """The property vocabulary: ``base`` (default the generic
    :data:`referee.model.PROP_SPECS`) merged with every installed module's ``props``
    (a module adds kinds and properties; it never changes a generic property's spec).

    A new dict: ``PROP_SPECS`` itself stays what the committed project schema says,
    whatever plug-ins are installed. The editor's inspector builds from this.
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
