"""``{schemas-reference}``: the JSON Schemas of the file formats, rendered at build time.

The project export and the compiled-board export come from ``referee/schema/``; the
position and options schemas of every installed rules module from the game classes
themselves (what ``referee schema position|options RULES`` prints). Each gets a table
of its top-level fields and the whole schema as JSON.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from openapi_reference import _properties
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles


def _schema_section(title: str, schema: dict[str, Any], level: str = "###") -> list[str]:
    lines = [f"{level} {title}", ""]
    if schema.get("description"):
        lines += [schema["description"], ""]
    lines += _properties(schema, link=False)
    body = json.dumps(schema, indent=1, ensure_ascii=False)
    return [*lines, "```{code-block} json", *body.splitlines(), "```", ""]


class SchemasReference(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        from referee.games import modules

        lines = ["## Files", ""]
        for name, title in (
            ("project.schema.json", "Project (JSON export)"),
            ("compiled.schema.json", "Compiled board (`referee export --to node-link`)"),
        ):
            text = resources.files("referee.schema").joinpath(name).read_text(encoding="utf-8")
            lines += _schema_section(title, json.loads(text))
        lines += ["## Positions and options, per game", ""]
        for rules, rm in sorted(modules().items()):
            game = rm.game
            if game.POSITION is not None:
                lines += _schema_section(f"`{rules}`: position", game.position_schema())
            lines += _schema_section(f"`{rules}`: options", game.options_schema())
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source="schemas"), node)
        return list(node.children)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("schemas-reference", SchemasReference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
