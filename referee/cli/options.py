"""``--option KEY=VALUE`` and ``--variant`` of the game verbs (``new``, ``selfplay``,
``balance``), parsed into a rules module's options."""

from __future__ import annotations

from typing import Any

from ..errors import UsageError
from ..safeio import option_value


def parse_options(pairs: list[str] | None, variant: str | None) -> dict[str, Any]:
    """``["k=v", …]`` → dict; values become int/float/bool when they read as such."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--option needs KEY=VALUE, not {pair!r}")
        out[key.strip()] = option_value(value.strip(), f"--option {key.strip()}")
    if variant is not None:
        out["variant"] = variant
    return out
