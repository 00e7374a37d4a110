"""Properties from other tools into the board vocabulary.

Another tool's properties arrive typed its own way: Tiled has ``bool``, ``int``,
``float``, ``string``, ``color`` and ``file`` properties, GraphML ``boolean``,
``long``, ``double`` and ``string``, GeoJSON any JSON value; lists (a space's
``letters``, a track's ``points``) arrive as JSON text or comma-separated words.
:func:`coerce` turns each into the type the merged property table
(:func:`referee.model.prop_table`, every installed rules module's vocabulary)
declares for that kind and property, and checks it there
(:func:`referee.model.check_prop`): a value the vocabulary does not allow is one
error naming the place. Properties the vocabulary does not know are kept as they
are (a Tiled colour as ``#rrggbb``, a file as its path text).
"""

from __future__ import annotations

import json
import math
from pathlib import PurePath
from typing import Any

from ..errors import BoardError
from ..geometry import COMPASS
from ..model import check_prop, prop_table

_TRUE = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def plain(value: Any) -> Any:
    """A JSON-ready value: paths as text, colours (RGBA tuples) as ``#rrggbb[aa]``,
    tuples as lists, non-finite numbers refused by the caller's check."""
    if isinstance(value, PurePath):
        return value.as_posix()
    if isinstance(value, tuple) and len(value) == 4 and all(isinstance(v, int) for v in value):
        r, g, b, a = value  # pytiled-parser's Color(red, green, blue, alpha)
        return f"#{r:02x}{g:02x}{b:02x}" + ("" if a == 255 else f"{a:02x}")
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def _number(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value


def _words(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    text = value.strip()
    if text.startswith("["):
        try:
            return json.loads(text)
        except ValueError:
            return value
    return [w.strip() for w in text.split(",") if w.strip()]


def coerce(kind: str, key: str, value: Any, where: str) -> Any:
    """``value`` of property ``key`` of a ``kind`` feature, in the vocabulary's type.

    Raises
    ------
    BoardError
        The vocabulary does not allow the value (``where`` names the place), or the
        value is a number that is not finite.
    """
    value = plain(value)
    if isinstance(value, float) and not math.isfinite(value):
        raise BoardError(f"property {key}={value} is not a finite number", location=where)
    spec = prop_table().get(kind, {}).get(key)
    if spec is None:
        return value
    t = spec["type"]
    if t == "bool" and isinstance(value, str):
        value = _TRUE.get(value.strip().lower(), value)
    elif t == "bool" and isinstance(value, int) and value in (0, 1):
        value = bool(value)
    elif (t == "int" and isinstance(value, float) and value.is_integer()) or (
        t == "int" and isinstance(value, str) and value.strip().lstrip("-").isdigit()
    ):
        value = int(value)
    elif t == "number" or (t == "direction" and isinstance(value, str) and value not in COMPASS):
        value = _number(value)
    elif t in ("ids", "letters"):
        value = _words(value)
    elif t == "enum" and value == "" and None in spec["values"]:
        value = None
    elif t == "str" and isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    check_prop(kind, key, value, where)
    return value
