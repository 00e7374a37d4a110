"""``--option KEY=VALUE`` and ``--variant`` of the game verbs (``new``, ``selfplay``,
``balance``, ``design``), parsed into a rules module's options.

``--variant V`` is shorthand for ``--option variant=V``: a variant is the game's own
``variant`` option (:mod:`referee.games.options`), so the words it takes are that
declaration's choices, and a game that declares none refuses the flag.
"""

from __future__ import annotations

from typing import Any

from ..errors import UsageError
from ..games import get_game
from ..safeio import option_value

#: the help of every verb's ``--variant``
VARIANT_HELP = (
    "shorthand for --option variant=V: the rules' own variant option "
    "(e.g. A, B, C for ringgeister; refused by rules that declare none)"
)


def parse_options(pairs: list[str] | None, variant: str | None, rules: str) -> dict[str, Any]:
    """``["k=v", …]`` → dict; values become int/float/bool when they read as such.

    ``variant`` (``--variant``) is checked against ``rules``' declared ``variant``
    option here, so a misspelt or unsupported variant is one line naming the choices.
    """
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--option needs KEY=VALUE, not {pair!r}")
        out[key.strip()] = option_value(value.strip(), f"--option {key.strip()}")
    if variant is not None:
        declared = {o.name: o for o in get_game(rules).OPTIONS}.get("variant")
        if declared is None:
            raise UsageError(f"--variant: {rules} has no variant option")
        if "variant" in out:
            raise UsageError("--variant and --option variant=… give the variant twice")
        if declared.choices is not None and variant not in declared.choices:
            raise UsageError(
                f"--variant: {rules} has variants {', '.join(map(str, declared.choices))}, "
                f"not {variant!r}{declared.nearest(variant)}",
                code="bad_option",
            )
        out["variant"] = variant
    return out
