"""Declared game state: dataclasses read from and written to JSON, with a schema.

A game declares what its state (and its position, :mod:`.positions`) is made of
as plain dataclasses of JSON-like fields::

    @dataclass
    class RaceState:
        places: dict[str, str]  # figure id -> node id
        turn: int = 0
        finished: list[str] = field(default_factory=list, metadata={"help": "in order"})

Supported field types: ``bool``, ``int``, ``float``, ``str``, ``None``, ``X | None``,
``Literal[...]``, ``list[X]``, ``tuple[X, ...]``, ``dict[str, X]``, ``Any`` (any JSON
value), :class:`~referee.games.outcome.Outcome` (its flat JSON) and nested dataclasses. Field ``metadata`` may carry ``help`` (the schema's
description), ``low``/``high`` (number bounds).

:func:`encode` turns a dataclass into JSON data, :func:`decode` checks JSON data
against the declaration and builds the dataclass (refusing with
:class:`~referee.errors.StateError`, code ``bad_state``, and one line naming the
field), :func:`clone` copies a declared value as ``decode(encode(x))`` would (without
the checks, for a game's fast :meth:`~referee.games.base.Game.copy`), and
:func:`schema` generates the JSON Schema. Decoding checks *structure*;
a game's ``validate`` hook checks *meaning* (see :mod:`.base`).
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from functools import cache
from typing import Any, Literal, TypeVar, Union

from ..errors import StateError
from .outcome import Outcome

__all__ = ["clone", "decode", "encode", "schema"]

T = TypeVar("T")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return dataclasses.fields(cls)


# ====================================================================== encode
def encode(obj: Any) -> Any:
    """A declared dataclass (or any value made of them) as plain JSON data.

    Notes
    -----
    O(size of the state); lists and dicts are copied, so the result shares nothing
    mutable with ``obj``. Plain values, lists and dicts are told apart by their exact
    type (one set lookup an item); a dataclass's field names are read once per class.
    """
    t = type(obj)
    if t in _ATOMIC:
        return obj
    if t is list or t is tuple:
        return [v if type(v) in _ATOMIC else encode(v) for v in obj]
    if t is dict:
        return {
            (k if type(k) is str else str(k)): (v if type(v) in _ATOMIC else encode(v))
            for k, v in obj.items()
        }
    return _encode_other(obj)


#: the JSON values :func:`encode` returns as they are
_ATOMIC = frozenset({str, int, float, bool, type(None)})
#: a class -> its dataclass field names (``None``: not a dataclass)
_NAMES: dict[type, tuple[str, ...] | None] = {}


def _encode_other(obj: Any) -> Any:
    """:func:`encode` of what is not a plain value, list or dict: an outcome, a
    dataclass, a subclass of dict, list or tuple, or anything else (as it is)."""
    if isinstance(obj, Outcome):
        return obj.to_json()
    t = type(obj)
    names = _NAMES.get(t, ())
    if names == ():
        names = _NAMES[t] = (
            tuple(f.name for f in _fields(t)) if dataclasses.is_dataclass(t) else None
        )
    if names is not None:
        return {n: encode(getattr(obj, n)) for n in names}
    if isinstance(obj, dict):
        return {str(k): encode(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [encode(v) for v in obj]
    return obj


# ====================================================================== clone
def clone(obj: T) -> T:
    """A copy of the declared value ``obj`` that shares nothing mutable with it: what
    ``decode(type(obj), encode(obj))`` builds, without encoding or checking.

    It follows the declaration, so a field added to a state is copied without a word
    more: a game's :meth:`~referee.games.base.Game.copy` (and with it the kit's
    rollback in :meth:`~referee.games.base.Game.push`) may build on it.

    Notes
    -----
    O(size of the state). The copier of each declared type is made once from its
    type hints (:func:`_copier`): text, numbers, ``Literal`` values and outcomes are
    shared (they are immutable), so are frozen dataclasses of such fields; lists and
    dicts are copied, ``Any`` values deep-copied as JSON.
    """
    tp: Any = type(obj)
    result: T = _copier(tp)(obj)
    return result


#: the mutable JSON types (everything else a JSON value holds is shared)
_MUTABLE = frozenset({dict, list})


def _json_copy(v: Any) -> Any:
    """A deep copy of a JSON value (dicts and lists copied, the rest shared; the type
    test inline, so a list of text costs no call per item)."""
    t = type(v)
    if t is dict:
        return {k: _json_copy(x) if type(x) in _MUTABLE else x for k, x in v.items()}
    if t is list:
        return [_json_copy(x) if type(x) in _MUTABLE else x for x in v]
    return v


@cache
def _copier(tp: Any) -> Any:
    """The function that clones a dataclass ``tp`` (see :func:`clone`): its source is
    made once from the type hints, as :mod:`dataclasses` makes ``__init__``, so a
    copy costs what a hand-written one does."""
    names: dict[str, Any] = {"_tp": tp, "_json": _json_copy, "_mut": _MUTABLE}
    hints = _hints(tp)
    fields = _fields(tp)
    args = [_copy_expr(hints[f.name], f"obj.{f.name}", names, 0) for f in fields]
    if all(f.init and not f.kw_only for f in fields):
        call = ", ".join(args)
    else:
        call = ", ".join(f"{f.name}={a}" for f, a in zip(fields, args, strict=True))
    fn: Any = eval(f"lambda obj: _tp({call})", names)
    return fn


@cache
def _immutable(tp: type) -> bool:
    """A frozen dataclass whose fields are all shared by :func:`clone` (text, numbers,
    tuples of them ...): nothing in it can change, so it is shared too."""
    if not tp.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        return False
    hints = _hints(tp)
    return all(_copy_expr(hints[f.name], "v", {}, 0) == "v" for f in _fields(tp))


def _copy_expr(tp: Any, v: str, names: dict[str, Any], depth: int) -> str:
    """A Python expression copying the value declared ``tp`` that expression ``v``
    gives (only names in ``names`` and comprehension variables, never data)."""
    if tp is Any:
        return f"(_json({v}) if type({v}) in _mut else {v})" if depth else f"_json({v})"
    if tp is Outcome:  # frozen
        return v
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if _immutable(tp):
            return v
        key = f"_c{len(names)}"
        names[key] = _copier(tp)
        return f"{key}({v})"
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    x = f"_x{depth}"
    if origin in (Union, types.UnionType):
        real = [a for a in args if a is not type(None)]
        if len(real) > 1 and any(dataclasses.is_dataclass(a) for a in real):
            raise TypeError(f"cannot clone a value declared {tp!r}")
        inner = _copy_expr(real[0], v, names, depth) if len(real) == 1 else f"_json({v})"
        return v if inner == v else f"(None if {v} is None else {inner})"
    if origin in (list, tuple):
        item = _copy_expr(args[0] if args else Any, x, names, depth + 1)
        if item == x:
            return f"list({v})" if origin is list else v
        if origin is tuple and args and args[-1] is not Ellipsis:
            raise TypeError(f"cannot clone a value declared {tp!r}")
        body = f"{item} for {x} in {v}"
        return f"[{body}]" if origin is list else f"tuple({body})"
    if origin is dict:
        item = _copy_expr(args[1] if len(args) > 1 else Any, x, names, depth + 1)
        if item == x:
            return f"dict({v})"
        return f"{{_k{depth}: {item} for _k{depth}, {x} in {v}.items()}}"
    return v  # str, int, float, bool, None, Literal, Outcome (frozen): shared


# ====================================================================== decode
def decode(cls: type[T], data: Any, where: str = "state") -> T:
    """Build ``cls`` from JSON ``data``, checking every field against the declaration.

    Fields with a default may be left out. Unknown keys are refused (a misspelt key
    in a hand-written position must not be ignored silently).

    Raises
    ------
    StateError
        Code ``bad_state``: ``"state.cards.pile[3]: expected text, got 7"``.
    """
    result: T = _decode(cls, data, where)
    return result


def _bad(where: str, what: str, data: Any) -> StateError:
    shown = repr(data)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return StateError(f"{where}: expected {what}, got {shown}", code="bad_state")


def _decode(tp: Any, data: Any, where: str) -> Any:
    if tp is Any:
        return data
    if tp is Outcome:
        return Outcome.from_json(data, where)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise _bad(where, "an object", data)
        hints = _hints(tp)
        names = {f.name for f in _fields(tp)}
        extra = sorted(set(data) - names)
        if extra:
            raise StateError(
                f"{where}: unknown field {extra[0]!r} (known: {', '.join(sorted(names))})",
                code="bad_state",
            )
        kwargs: dict[str, Any] = {}
        for f in _fields(tp):
            if f.name in data:
                kwargs[f.name] = _decode(hints[f.name], data[f.name], f"{where}.{f.name}")
                _check_bounds(f, kwargs[f.name], f"{where}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise StateError(f"{where}: missing field {f.name!r}", code="bad_state")
        return tp(**kwargs)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (Union, types.UnionType):
        for a in args:
            if a is type(None) and data is None:
                return None
        real = [a for a in args if a is not type(None)]
        errors: list[StateError] = []
        for a in real:
            try:
                return _decode(a, data, where)
            except StateError as exc:
                errors.append(exc)
        if len(real) == 1:
            raise errors[0]
        raise _bad(where, " or ".join(_word(a) for a in args), data)
    if origin is Literal:
        if data not in args or isinstance(data, bool) != isinstance(args[0], bool):
            raise _bad(where, "one of " + ", ".join(map(repr, args)), data)
        return data
    if origin in (list, tuple):
        if not isinstance(data, list):
            raise _bad(where, "a list", data)
        item = args[0] if args else Any
        out = [_decode(item, v, f"{where}[{i}]") for i, v in enumerate(data)]
        return tuple(out) if origin is tuple else out
    if origin is dict:
        if not isinstance(data, dict):
            raise _bad(where, "an object", data)
        item = args[1] if len(args) > 1 else Any
        return {str(k): _decode(item, v, f"{where}.{k}") for k, v in data.items()}
    if tp is type(None):
        if data is not None:
            raise _bad(where, "null", data)
        return None
    if tp is bool:
        if not isinstance(data, bool):
            raise _bad(where, "true or false", data)
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise _bad(where, "a whole number", data)
        return data
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise _bad(where, "a number", data)
        if not math.isfinite(data):
            raise _bad(where, "a finite number", data)
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise _bad(where, "text", data)
        return data
    raise TypeError(f"{where}: cannot decode declared type {tp!r}")


def _check_bounds(f: dataclasses.Field[Any], value: Any, where: str) -> None:
    low, high = f.metadata.get("low"), f.metadata.get("high")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if (low is not None and value < low) or (high is not None and value > high):
            raise StateError(
                f"{where}: {value!r} is out of range [{low}, {high}]", code="bad_state"
            )


def _word(tp: Any) -> str:
    return {
        bool: "true or false",
        int: "a whole number",
        float: "a number",
        str: "text",
        type(None): "null",
    }.get(tp, getattr(tp, "__name__", str(tp)))


# ====================================================================== schema
def schema(cls: type, title: str | None = None) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a declared dataclass.

    Nested dataclasses become ``$defs`` entries referenced by name.
    """
    defs: dict[str, Any] = {}
    root = _schema(cls, defs)
    out: dict[str, Any] = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    if title:
        out["title"] = title
    if cls.__doc__ and not cls.__doc__.startswith(cls.__name__ + "("):
        out["description"] = cls.__doc__.strip().split("\n\n")[0]
    out.update(defs.pop(root["$ref"].rsplit("/", 1)[1]) if "$ref" in root else root)
    if defs:
        out["$defs"] = defs
    return out


def _schema(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    if tp is Any:
        return {}
    if tp is Outcome:
        defs.setdefault("Outcome", Outcome.json_schema())
        return {"$ref": "#/$defs/Outcome"}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # reserve (recursive declarations)
            hints = _hints(tp)
            props: dict[str, Any] = {}
            required: list[str] = []
            for f in _fields(tp):
                s = dict(_schema(hints[f.name], defs))
                if "help" in f.metadata:
                    s["description"] = f.metadata["help"]
                if "low" in f.metadata:
                    s["minimum"] = f.metadata["low"]
                if "high" in f.metadata:
                    s["maximum"] = f.metadata["high"]
                props[f.name] = s
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    required.append(f.name)
            body: dict[str, Any] = {
                "type": "object",
                "properties": props,
                "required": required,
                "additionalProperties": False,
            }
            defs[name] = body
        return {"$ref": f"#/$defs/{name}"}
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (Union, types.UnionType):
        return {"anyOf": [_schema(a, defs) for a in args]}
    if origin is Literal:
        return {"enum": list(args)}
    if origin in (list, tuple):
        return {"type": "array", "items": _schema(args[0] if args else Any, defs)}
    if origin is dict:
        return {
            "type": "object",
            "additionalProperties": _schema(args[1] if len(args) > 1 else Any, defs),
        }
    simple = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null"}
    if tp in simple:
        return {"type": simple[tp]}
    raise TypeError(f"cannot describe declared type {tp!r}")
