"""``{openapi-reference}``: the HTTP API reference, rendered from the OpenAPI document.

It writes Markdown (the page is MyST) and parses it in place.

The document is the one a running server serves at ``/api/openapi.json``,
:func:`referee.net.openapi.openapi` over :data:`referee.net.app.ENDPOINTS` (the
table the routes are made from), so this page cannot describe a route the server
does not have or leave one out. The build also writes the document itself to
``_build/html/api/openapi.json`` for download.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles


def document() -> dict[str, Any]:
    from referee.net.app import ENDPOINTS
    from referee.net.openapi import openapi

    return openapi(ENDPOINTS)


def _type(schema: dict[str, Any], link: bool = True) -> str:
    """The type of a field, in words; a ``$ref`` links the schema's section when
    ``link`` (the OpenAPI page's components), else names it."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#openapi-schema-{name.lower()})" if link else f"`{name}`"
    if "enum" in schema:
        return " or ".join(f"`{json.dumps(v)}`" for v in schema["enum"])
    kind = schema.get("type", "any")
    if isinstance(kind, list):
        kind = " or ".join(kind)
    if kind == "array" and "items" in schema:
        return f"array of {_type(schema['items'], link)}"
    limits = [f"{k} {schema[k]}" for k in ("minimum", "maximum", "maxLength") if k in schema]
    return kind + (f" ({', '.join(limits)})" if limits else "")


def _properties(schema: dict[str, Any], link: bool = True) -> list[str]:
    props = schema.get("properties", {})
    if not props:
        return ["any JSON object" if schema.get("additionalProperties") else "no fields", ""]
    required = set(schema.get("required", []))
    lines = ["| field | type | notes |", "|---|---|---|"]
    for name, sub in props.items():
        notes = "required" if name in required else "optional"
        if sub.get("description"):
            notes += "; " + sub["description"]
        lines.append(f"| `{name}` | {_type(sub, link)} | {notes} |")
    return [*lines, ""]


def _endpoint(method: str, path: str, op: dict[str, Any]) -> list[str]:
    lines = [
        f"(openapi-{op['operationId'].replace('_', '-')})=",
        f"### `{method.upper()} {path}`",
        "",
    ]
    lines += [op["summary"], ""]
    for sec in op.get("security", []):
        for scheme in sec:
            lines += [f"Token: `{scheme}` (`Authorization: Bearer TOKEN`).", ""]
    params = op.get("parameters", [])
    if params:
        lines += ["Parameters: " + ", ".join(f"`{p['name']}` ({p['in']})" for p in params), ""]
    body = op.get("requestBody")
    if body:
        schema = body["content"]["application/json"]["schema"]
        lines += [f"Body: {_type(schema)}", ""]
    lines += ["Answers:", ""]
    for code, resp in op["responses"].items():
        content = resp.get("content", {})
        what = ""
        for kind, media in content.items():
            what = f" — {_type(media['schema'])}" if kind == "application/json" else f" — {kind}"
        lines.append(f"- **{code}** {resp['description']}{what}")
    return [*lines, ""]


class OpenAPIReference(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        doc = document()
        lines = [doc["info"]["description"], "", "## Endpoints", ""]
        for path, methods in doc["paths"].items():
            for method, op in methods.items():
                lines += _endpoint(method, path, op)
        lines += ["## Tokens", ""]
        for name, scheme in doc["components"]["securitySchemes"].items():
            lines.append(f"- `{name}`: {scheme['description']}")
        lines += ["", "## Schemas", ""]
        for name, schema in doc["components"]["schemas"].items():
            lines += [f"(openapi-schema-{name.lower()})=", f"### {name}", ""]
            lines += _properties(schema)
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source="openapi.json"), node)
        return list(node.children)


def _write_document(app: Sphinx, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html":
        out = Path(app.outdir) / "api"
        out.mkdir(parents=True, exist_ok=True)
        (out / "openapi.json").write_text(json.dumps(document(), indent=1) + "\n")


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("openapi-reference", OpenAPIReference)
    app.connect("build-finished", _write_document)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
