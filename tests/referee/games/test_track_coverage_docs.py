"""The rules coverage tables (docs/coverage/) point at real code.

Every table in docs/coverage/ is checked here, except riddle-of-the-ring.md, which
tests/referee/games/riddle/test_coverage_doc.py checks (more strictly).

Every ``module:Qualified.name`` reference must import and resolve, and every test node
id ``tests/...py::test_name`` must name a test function that exists, so a table cannot
silently outlive a renamed rule or a deleted test.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
#: checked by tests/referee/games/riddle/test_coverage_doc.py
CHECKED_ELSEWHERE = {"riddle-of-the-ring.md"}
DOCS = sorted(
    p for p in (ROOT / "docs" / "coverage").glob("*.md") if p.name not in CHECKED_ELSEWHERE
)
CODE = re.compile(r"`(referee(?:\.\w+)+):([\w.]+)`")
TEST = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


@functools.cache
def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def test_every_coverage_table_is_checked() -> None:
    """A new table in docs/coverage/ is picked up here (the three rules tables at least)."""
    names = {p.name for p in DOCS}
    assert {
        "adventure-to-mount-doom.md",
        "lord-of-the-rings-cooperative.md",
        "ringgeister.md",
    } <= names
    assert (ROOT / "tests/referee/games/riddle/test_coverage_doc.py").is_file()


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.stem)
def test_every_referenced_function_exists(doc: Path) -> None:
    refs = CODE.findall(doc.read_text())
    assert len(refs) > 20
    missing = []
    for module, qual in refs:
        obj: object = importlib.import_module(module)
        for part in qual.split("."):
            if not hasattr(obj, part):
                missing.append(f"{module}:{qual}")
                break
            obj = getattr(obj, part)
    assert not missing, f"{doc.name} names code that does not exist: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.stem)
def test_every_referenced_test_exists(doc: Path) -> None:
    refs = TEST.findall(doc.read_text())
    assert len(refs) > 20
    missing = [
        f"{path}::{name}"
        for path, name in refs
        if not (ROOT / path).is_file() or name not in _tests_in(ROOT / path)
    ]
    assert not missing, f"{doc.name} names tests that do not exist: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.stem)
def test_rules_are_numbered_in_order(doc: Path) -> None:
    """The table lists the rulebook's rules in order: rows numbered 1, 2, 3 ..."""
    numbers = [int(m) for m in re.findall(r"^\| (\d+) \|", doc.read_text(), re.M)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) > 30


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.stem)
def test_every_rule_names_its_code_and_a_test(doc: Path) -> None:
    """Each rule row names where it is implemented and a test; a rule the referee does not
    implement stays in the table and says "Not implemented" instead of hiding."""
    rows = [line for line in doc.read_text().splitlines() if re.match(r"\| \d+ \|", line)]
    bare = [
        row[:70]
        for row in rows
        if not (CODE.search(row) and TEST.search(row)) and "not implemented" not in row.lower()
    ]
    assert not bare, f"{doc.name}: rows without code or test: {bare}"
