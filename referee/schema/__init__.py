"""JSON Schemas of our file formats, and the code that writes the project schema.

``project.schema.json`` is generated from :data:`referee.model.PROP_SPECS` by
:func:`project_schema` so the documented properties never drift from what the
loader accepts (a test regenerates it and compares). Run
``python -m referee.schema`` to rewrite it after changing ``PROP_SPECS``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..model import FEATURE_KINDS, PROP_SPECS

HERE = Path(__file__).resolve().parent


def _prop_schema(spec: dict[str, Any]) -> dict[str, Any]:
    t = spec["type"]
    if t == "enum":
        return {"enum": spec["values"]}
    if t == "bool":
        return {"type": "boolean"}
    if t == "str":
        return {"type": ["string", "null"]}
    if t == "int":
        return {"type": ["integer", "null"]}
    if t == "number":
        return {"type": ["number", "null"]}
    if t == "direction":
        return {"$ref": "#/$defs/direction"}
    if t == "ids":
        return {"type": "array", "items": {"type": "string"}}
    if t == "letters":
        return {"type": "array", "items": {"enum": spec["values"]}}
    raise ValueError(t)


def project_schema() -> dict[str, Any]:
    """The project JSON Schema (draft 2020-12), with per-kind property rules."""
    base: dict[str, Any] = json.loads((HERE / "project.base.json").read_text(encoding="utf-8"))
    feature = base["$defs"]["feature"]
    feature["properties"]["kind"] = {"enum": list(FEATURE_KINDS)}
    feature["allOf"] = [
        {
            "if": {"properties": {"kind": {"const": kind}}},
            "then": {
                "properties": {
                    "props": {
                        "type": "object",
                        "properties": {k: _prop_schema(v) for k, v in specs.items()},
                    }
                }
            },
        }
        for kind, specs in PROP_SPECS.items()
    ]
    return base


def write() -> Path:
    out = HERE / "project.schema.json"
    out.write_text(json.dumps(project_schema(), indent=1) + "\n", encoding="utf-8")
    return out


if __name__ == "__main__":
    print(write())
