"""Every default the documentation quotes for a ``referee`` option is the parser's.

A quote is an option in backticks followed, in the same clause and before any other
code, by ``default`` and a number or a value in backticks: ``--max-games`` (default 64), ``--idle-timeout``,
default 3600 s, ``--dpi`` … default 96. The value must be the option's default in
:func:`referee.cli.build_parser` for some verb that has the option, or a value the
option's own help text gives as its default (``serve --max-games``: 64 with --stdio,
1000 with --http, decided when the server starts).
"""

from __future__ import annotations

import argparse
import re
from collections import defaultdict
from pathlib import Path

import pytest

from referee.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
PAGES = [p for p in PAGES if "_build" not in p.parts]

UNITS = {"": 1, "s": 1, "b": 1, "bytes": 1, "kib": 1024, "mib": 1 << 20, "gib": 1 << 30}
#: a number (with a unit) or a value in backticks; a default said in words ("the
#: current folder", "every turnable tile") is prose, not a quote
VALUE = r"(?:`(?P<code>[^`\s]+)`|(?P<number>-?\d[\d,]*(?:\.\d+)?)(?:\s*(?P<unit>MiB|KiB|GiB|s|bytes)\b)?)"
QUOTE = re.compile(
    r"`(?P<flag>--[a-z][-a-z0-9]*)[^`]*`"  # the option, maybe with its argument
    r"(?P<between>[^.;`]{0,80}?)"  # the same clause, no other code in between
    r"\bdefaults?\b(?: to| is)?:?\s+" + VALUE,
    re.IGNORECASE,
)


def parser_defaults() -> dict[str, set[str]]:
    """Every option of every verb: its default, and the defaults its help states."""
    found: dict[str, set[str]] = defaultdict(set)

    def walk(parser: argparse.ArgumentParser) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    walk(sub)
                continue
            for flag in action.option_strings:
                if action.default not in (None, argparse.SUPPRESS, False):
                    found[flag].add(_norm(str(action.default)))
                for m in re.finditer(r"default\s+([-\w.]+)", action.help or ""):
                    found[flag].add(_norm(m[1]))
                for m in re.finditer(r"\b(\d[\d.]*) with --", action.help or ""):
                    found[flag].add(_norm(m[1]))

    walk(build_parser())
    return found


def _norm(value: str, unit: str = "") -> str:
    """``3600.0``, ``3600``, ``3600 s`` are one value; ``1 MiB`` is ``1048576``."""
    text = value.replace(",", "").rstrip(".")
    try:
        number = float(text) * UNITS[unit.lower()]
    except (ValueError, KeyError):
        return value.strip("`").lower()
    return f"{number:g}" if number != int(number) else str(int(number))


def quotes() -> list[tuple[str, str, str]]:
    """(where, option, value) for every quoted default of an option the parser has."""
    known = parser_defaults()
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in QUOTE.finditer(text):
            if "`--" in m["between"] or m["flag"] not in known:
                continue
            line = text.count("\n", 0, m.start()) + 1
            where = f"{page.relative_to(ROOT)}:{line}"
            value = m["code"] if m["code"] is not None else m["number"]
            out.append((where, m["flag"], _norm(value, m["unit"] or "")))
    return out


QUOTES = quotes()


def test_the_pages_quote_defaults() -> None:
    """The scan finds the defaults the pages quote (one that found none would pass)."""
    assert len(QUOTES) >= 8, QUOTES


@pytest.mark.parametrize(("where", "flag", "value"), QUOTES, ids=[q[0] for q in QUOTES])
def test_a_quoted_default_is_the_parsers(where: str, flag: str, value: str) -> None:
    defaults = parser_defaults()[flag]
    assert value in defaults, f"{where}: {flag} default {value}; the parser says {sorted(defaults)}"


def test_a_wrong_default_is_caught() -> None:
    """The stale claim of issue 28 (``--idle-timeout`` default 300) would fail."""
    text = "`--idle-timeout` closes a game unused for this long (default 300)"
    m = QUOTE.search(text)
    assert m is not None and m["flag"] == "--idle-timeout"
    assert _norm(m["number"]) not in parser_defaults()["--idle-timeout"]


def test_the_riddle_cache_bound_quoted_is_the_code_s() -> None:
    """The performance page explains the server's memory by the Riddle board's
    caches and quotes their bound: it must be the one the code keeps."""
    from referee.games.riddle.common import CACHE_KEPT

    text = (ROOT / "docs" / "explanation" / "performance.md").read_text(encoding="utf-8")
    quoted = re.findall(r"cleared past ([\d,]+) entries \(`riddle\.common\.CACHE_KEPT`\)", text)
    assert quoted, "the performance page no longer quotes riddle.common.CACHE_KEPT"
    assert {int(q.replace(",", "")) for q in quoted} == {CACHE_KEPT}


def test_the_full_collection_interval_quoted_is_the_server_s() -> None:
    """The game-server page explains the server's pauses by how often it runs a full
    cyclic collection and quotes the interval: it must be the one the server sets."""
    from referee.net.host import FULL_COLLECTION_EVERY

    text = (ROOT / "docs" / "explanation" / "game-server.md").read_text(encoding="utf-8")
    quoted = re.findall(
        r"once every ([\d,]+)\s+collections of the middle generation\s+"
        r"\(`referee\.net\.host\.FULL_COLLECTION_EVERY`",
        text,
    )
    assert quoted, "the game-server page no longer quotes FULL_COLLECTION_EVERY"
    assert {int(q.replace(",", "")) for q in quoted} == {FULL_COLLECTION_EVERY}


def test_the_checkpoint_size_quoted_is_sqlite_s_and_the_store_s() -> None:
    """The game-server page explains the commits' pauses by the log size at which
    SQLite checkpoints inside a commit: it must be the store's fallback and SQLite's
    own default."""
    import sqlite3

    from referee.net.store import SQLITE_AUTOCHECKPOINT

    text = (ROOT / "docs" / "explanation" / "game-server.md").read_text(encoding="utf-8")
    quoted = re.findall(r"past ([\d,]+) pages\s+\(`store\.SQLITE_AUTOCHECKPOINT`\)", text)
    assert quoted, "the game-server page no longer quotes store.SQLITE_AUTOCHECKPOINT"
    conn = sqlite3.connect(":memory:")
    sqlite_default = conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
    conn.close()
    assert {int(q.replace(",", "")) for q in quoted} == {SQLITE_AUTOCHECKPOINT, sqlite_default}
