"""Sphinx configuration of the documentation site (docs/explanation/documentation.md
says why Sphinx). Build it strictly, as .ci/run does:

    sphinx-build -W --keep-going -n docs docs/_build/html
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

from referee import __version__  # noqa: E402

project = "Boardwright"
author = "the Boardwright authors"
copyright = "the Boardwright authors, MIT licence"
release = version = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",  # the Python API from docstrings
    "sphinx.ext.napoleon",  # which are written numpy style
    "sphinxarg.ext",  # the CLI reference from referee.cli.build_parser()
    "openapi_reference",  # the HTTP API from the OpenAPI document
    "schemas_reference",  # the file formats from their JSON Schemas
]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "positions/__init__.py", "**/.pytest_cache"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3  # [text](page.md#a-heading) links resolve and are checked
html_theme = "furo"
html_title = f"Boardwright {release}"
nitpicky = True
# The Python API page documents the modules a script or plug-in uses, not every
# module their docstrings and signatures name (the standard library, the compiler's
# internals): those names stay text. Links between pages, headings and every other
# reference are still checked.
nitpick_ignore_regex = [(r"py:.*", r".*")]
autodoc_member_order = "bysource"
# examples elide with … where the JSON would be long; they are shown as written
suppress_warnings = ["misc.highlighting_failure"]
