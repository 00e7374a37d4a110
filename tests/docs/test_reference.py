"""The generated reference is whole, and the README keeps its promises.

The CLI and HTTP API pages are built here with the site's own configuration
(docs/conf.py, docs/_ext), into a scratch folder, and read back: every ``referee``
verb (and sub-verb) has its section with every one of its options, and every route of
the server's endpoint table is on the HTTP API page.
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
from pathlib import Path

import pytest
from sphinx.cmd.build import build_main

from referee.cli import build_parser
from referee.net.app import ENDPOINTS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The CLI and HTTP API pages, built strictly with the site's configuration."""
    src = tmp_path_factory.mktemp("src")
    shutil.copy(DOCS / "conf.py", src / "conf.py")
    shutil.copytree(DOCS / "_ext", src / "_ext", ignore=shutil.ignore_patterns("__pycache__"))
    (src / "reference").mkdir()
    for page in ("cli", "openapi"):
        text = (DOCS / "reference" / f"{page}.md").read_text(encoding="utf-8")
        # the pages' links into the rest of the site are checked by the full build
        text = re.sub(r"\[([^\]]*)\]\([^)]*\.md(#[^)]*)?\)", r"\1", text)
        (src / "reference" / f"{page}.md").write_text(text, encoding="utf-8")
    (src / "index.md").write_text(
        "# Reference\n\n```{toctree}\nreference/cli\nreference/openapi\n```\n", encoding="utf-8"
    )
    out = tmp_path_factory.mktemp("html")
    status = build_main(["-E", "-W", "--keep-going", "-n", "-q", str(src), str(out)])
    assert status == 0, "the reference pages do not build strictly"
    return out


def _text(page: Path) -> str:
    """The page's text, tags removed and runs of white space made one space."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8")))
    return re.sub(r"\s+", " ", text)


def _verbs() -> dict[str, argparse.ArgumentParser]:
    """``{"check": parser, "image add": parser, ...}``: every verb the CLI has."""
    found: dict[str, argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, prefix: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found[f"{prefix}{name}".strip()] = sub
                    walk(sub, f"{prefix}{name} ")

    walk(build_parser(), "")
    return found


VERBS = _verbs()


def test_the_cli_has_its_verbs() -> None:
    assert {"check", "turns", "export", "new", "play", "serve", "image add"} <= set(VERBS)


@pytest.mark.parametrize("verb", sorted(VERBS))
def test_every_verb_and_option_is_in_the_cli_reference(site: Path, verb: str) -> None:
    page = (site / "reference" / "cli.html").read_text(encoding="utf-8")
    starts = {v: page.find(f'<section id="referee-{v.replace(" ", "-")}">') for v in VERBS}
    start = starts[verb]
    assert start >= 0, f"the CLI reference has no section for `referee {verb}`"
    later = [s for v, s in starts.items() if s > start and not v.startswith(verb + " ")]
    section = page[start : min(later, default=len(page))]
    text = html.unescape(re.sub(r"<[^>]+>", "", section))
    for action in VERBS[verb]._actions:
        for flag in action.option_strings:
            if flag.startswith("--") and flag != "--help" and action.help != argparse.SUPPRESS:
                assert flag in text, f"`referee {verb}` {flag} is not in its reference section"


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: f"{e.method} {e.path}")
def test_every_route_is_in_the_http_reference(site: Path, endpoint: object) -> None:
    text = _text(site / "reference" / "openapi.html")
    method, path = endpoint.method, endpoint.path  # type: ignore[attr-defined]
    assert f"{method} {path}" in text, f"{method} {path} is not in the HTTP API reference"


def test_the_openapi_document_is_published(site: Path) -> None:
    assert '"openapi": "3.1.0"' in (site / "api" / "openapi.json").read_text(encoding="utf-8")


# ------------------------------------------------------------------ the README
README = (ROOT / "README.md").read_text(encoding="utf-8")
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_readme_is_short() -> None:
    assert len(README.splitlines()) <= 200


def test_the_readme_opens_with_the_two_commands() -> None:
    """Its first two blocks come before any section: the main job, then the tests; the
    test command is the one .ci/run runs."""
    head = README.split("\n## ", 1)[0]
    first, second = re.findall(r"```[^\n]*\n(.*?)\n```", head, re.S)[:2]
    assert "referee check projects/ringgeister" in first
    test_command = second.split("&&")[-1].strip()
    assert test_command == ".venv/bin/python -m pytest -q"
    assert any(line.startswith(test_command) for line in CI.splitlines()), (
        f"the README's test command `{test_command}` is not what .ci/run runs"
    )
    assert README.index(first) < README.index("\n## ")


def test_the_readme_pictures_are_there() -> None:
    for picture in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README):
        assert (ROOT / picture).is_file(), picture
