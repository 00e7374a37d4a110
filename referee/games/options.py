"""Game options: one declared table per game, parsed and validated once, here.

A game lists its options in ``OPTIONS``; the CLI (``--option KEY=VALUE``,
``--variant``), the server and the editor's Playtest dialog all build from it, and
:meth:`referee.games.base.Game.new` receives them parsed::

    OPTIONS = (
        Option(
            "variant",
            str,
            "default",
            choices=("A", "B", "C", "default"),
            help="counters per player (ruling 12)",
        ),
        Option("laps", int, 1, low=1, high=9, help="laps to win"),
        Option("colours", list, (), choices=("red", "blue"), help="seats' colours"),
    )

Values may come as text (from a command line) or JSON values. Unknown names,
values of the wrong type, NaN and infinities, values out of ``[low, high]`` or not
among ``choices`` are refused with one :class:`~referee.errors.UsageError` line
naming the option and, for a misspelt word, the nearest choice (code ``bad_option``).

A ``list`` option is a list of words, each one of ``choices``, none twice: given as
text it is comma-separated (``--option colours=red,blue``), as JSON a list; parsed,
it is a ``list`` of ``str`` (a JSON array as it is); its declared default is a tuple.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError

__all__ = ["Option", "option_schema", "parse_options"]

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


@dataclass(frozen=True)
class Option:
    """One option of a game.

    Attributes
    ----------
    name : str
        The key (``--option NAME=VALUE``); lower case, ``_`` between words.
    type : type
        ``bool``, ``int``, ``float``, ``str`` or ``list`` (of words).
    default : bool, int, float, str or tuple
        Used when the option is not given.
    choices : tuple, optional
        The only values allowed (a ``str`` option's words, or numbers; each item of a
        ``list`` option).
    help : str
        One line for ``--help``, the server's description and the Playtest dialog.
    low, high : float, optional
        Bounds (inclusive) of a number.
    """

    name: str
    type: type
    default: bool | int | float | str | tuple[str, ...]
    choices: tuple[Any, ...] | None = None
    help: str = ""
    low: float | None = None
    high: float | None = None

    def parse(self, value: Any, rules: str = "") -> Any:
        """``value`` (text or JSON) as this option's type, validated.

        Raises
        ------
        UsageError
            Code ``bad_option``, one line naming the option and what it accepts.
        """
        where = f"{rules} option {self.name!r}" if rules else f"option {self.name!r}"
        out = self._convert(value, where)
        if isinstance(out, float) and not math.isfinite(out):
            raise UsageError(f"{where} must be a finite number, not {value!r}", code="bad_option")
        for item in out if isinstance(out, list) else (out,):
            self._check_choice(item, where)
        if isinstance(out, list):
            twice = next((w for i, w in enumerate(out) if w in out[:i]), None)
            if twice is not None:
                raise UsageError(f"{where} names {twice!r} twice", code="bad_option")
        if isinstance(out, (int, float)) and not isinstance(out, bool):
            if (self.low is not None and out < self.low) or (
                self.high is not None and out > self.high
            ):
                raise UsageError(
                    f"{where} must be between {_num(self.low)} and {_num(self.high)}, "
                    f"not {value!r}",
                    code="bad_option",
                )
        return out

    def _check_choice(self, value: Any, where: str) -> None:
        if self.choices is None or value in self.choices:
            return
        raise UsageError(
            f"{where} must be one of {', '.join(map(str, self.choices))}, "
            f"not {value!r}{self.nearest(value)}",
            code="bad_option",
        )

    def nearest(self, value: Any) -> str:
        """`` (did you mean 'x'?)`` for the choice nearest a misspelt ``value``, or ``""``."""
        near = difflib.get_close_matches(str(value), list(map(str, self.choices or ())), n=1)
        return f" (did you mean {near[0]!r}?)" if near else ""

    def text(self, value: Any) -> str:
        """``value`` as a command line gives it (``a,b`` for a ``list`` option)."""
        return ",".join(value) if self.type is list else str(value)

    @property
    def initial(self) -> Any:
        """The default as parsed (a ``list`` option's: a new list)."""
        return list(self.default) if self.type is list else self.default  # type: ignore[arg-type]

    def _convert(self, value: Any, where: str) -> Any:
        t = self.type
        if t is list:
            if isinstance(value, str):
                value = value.split(",") if value.strip() else []
            if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
                return [v.strip() for v in value]
            raise UsageError(
                f"{where} must be a comma-separated list of words, not {value!r}",
                code="bad_option",
            )
        if t is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
                return value.strip().lower() in _TRUE
        elif t is int:
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            if isinstance(value, float) and value.is_integer():
                return int(value)
            if isinstance(value, str):
                try:
                    return int(value.strip())
                except ValueError:
                    pass
        elif t is float:
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return float(value)
            if isinstance(value, str):
                try:
                    return float(value.strip())
                except ValueError:
                    pass
        elif t is str:
            if isinstance(value, str):
                return value.strip()
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return str(value)
        raise UsageError(f"{where} must be {_type_word(t)}, not {value!r}", code="bad_option")

    def schema(self) -> dict[str, Any]:
        """The option as a JSON Schema (for the server and the editor)."""
        if self.type is list:
            items: dict[str, Any] = {"type": "string"}
            if self.choices is not None:
                items["enum"] = list(self.choices)
            out: dict[str, Any] = {
                "type": "array",
                "items": items,
                "uniqueItems": True,
                "default": self.initial,
            }
        else:
            out = {"type": _JSON_TYPES[self.type], "default": self.default}
        if self.help:
            out["description"] = self.help
        if self.choices is not None and self.type is not list:
            out["enum"] = list(self.choices)
        if self.low is not None:
            out["minimum"] = self.low
        if self.high is not None:
            out["maximum"] = self.high
        return out


_JSON_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string"}


def _num(x: float | None) -> str:
    return "…" if x is None else f"{x:g}"


def _type_word(t: type) -> str:
    return {bool: "true or false", int: "a whole number", float: "a number", str: "text"}[t]


def parse_options(
    table: Sequence[Option], raw: Mapping[str, Any] | None, rules: str = ""
) -> dict[str, Any]:
    """Every option of ``table``: the given value parsed, or the default.

    Parameters
    ----------
    table : sequence of Option
    raw : mapping, optional
        Option name -> value (text or JSON). ``-`` in names reads as ``_``.
    rules : str
        The game's name, for messages.

    Raises
    ------
    UsageError
        Code ``bad_option`` for an unknown name or a bad value (one line).
    """
    by_name = {o.name: o for o in table}
    out = {o.name: o.initial for o in table}
    for key, value in (raw or {}).items():
        name = str(key).strip().replace("-", "_")
        opt = by_name.get(name)
        if opt is None:
            known = ", ".join(by_name) or "none"
            raise UsageError(
                f"unknown {rules + ' ' if rules else ''}option {key!r} (known: {known})",
                code="bad_option",
            )
        out[name] = opt.parse(value, rules)
    return out


def option_schema(table: Sequence[Option]) -> dict[str, Any]:
    """The options of ``table`` as one JSON Schema object."""
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {o.name: o.schema() for o in table},
    }
