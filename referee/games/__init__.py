"""Rules modules, one subpackage per game; each defines ``GAME`` (a :class:`~.base.Game`)."""

from __future__ import annotations

import importlib
import pkgutil

from ..errors import UsageError
from .base import Game, LegalMoves

__all__ = ["Game", "LegalMoves", "available", "get_game"]


def available() -> list[str]:
    """Names of the rules modules installed (e.g. ``ringgeister``)."""
    return sorted(m.name.replace("_", "-") for m in pkgutil.iter_modules(__path__) if m.ispkg)


def get_game(name: str) -> type[Game]:  # type: ignore[type-arg]
    """The :class:`Game` subclass for the rules ``name``."""
    mod_name = name.replace("-", "_")
    if name not in available():
        raise UsageError(f"unknown rules {name!r} (known: {', '.join(available()) or 'none'})")
    mod = importlib.import_module(f"{__name__}.{mod_name}")
    return mod.GAME  # type: ignore[no-any-return]
