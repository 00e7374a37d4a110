"""Hostile game states and replay logs: broken copies of a fresh Mount Doom game state.

Entries are ``(name, writer)`` as in :mod:`.corpus_projects`; the state they break
is the ``md_state`` fixture (conftest.py).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .corpus_projects import BIG_INT, DEEP, Writer, nest, text_writer


def state_corpus(env: dict[str, Any]) -> list[tuple[str, Writer]]:
    """Malformed game states and replay logs: 40+ kinds."""

    def edited(name: str, edit: Callable[[dict[str, Any]], Any]) -> tuple[str, Writer]:
        def write(d: Path) -> Path:
            data = copy.deepcopy(env)
            out = edit(data)
            text = out if isinstance(out, str) else json.dumps(data, allow_nan=True)
            p = d / "s.json"
            p.write_bytes(text.encode("utf-8", "surrogatepass"))
            return p

        return (name, write)

    def setter(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
        def edit(data: dict[str, Any]) -> None:
            cur: Any = data
            for k in path[:-1]:
                cur = cur[k]
            cur[path[-1]] = value

        return edit

    def replaced(old: str, new: str) -> Callable[[dict[str, Any]], str]:
        def edit(data: dict[str, Any]) -> str:
            text = json.dumps(data)
            assert old in text, old
            return text.replace(old, new, 1)

        return edit

    return [
        ("empty", text_writer("s.json", b"")),
        ("not-json", text_writer("s.json", b"{{")),
        ("deep", text_writer("s.json", DEEP)),
        ("bigint", text_writer("s.json", BIG_INT)),
        ("nan", text_writer("s.json", "NaN")),
        ("not-utf8", text_writer("s.json", b"\xff")),
        ("list", text_writer("s.json", "[]")),
        edited("no-format", lambda d: d.pop("format")),
        edited("version-9", setter(["version"], 9)),
        edited("rules-int", setter(["rules"], 3)),
        edited("rules-unknown", setter(["rules"], "chess")),
        edited("project-missing", setter(["project"], "/nonexistent/board.bwproj")),
        edited("hash-wrong", setter(["board_hash"], "0000")),
        edited("no-state", lambda d: d.pop("state")),
        edited("state-list", setter(["state"], [1])),
        edited("state-str", setter(["state"], "x")),
        edited("state-empty", setter(["state"], {})),
        edited("pos-str", setter(["state", "state", "pos", "ringbearer"], "x")),
        edited("pos-huge", setter(["state", "state", "pos", "ringbearer"], 10**12)),
        edited("pos-negative", setter(["state", "state", "pos", "ringbearer"], -50)),
        edited("current-99", setter(["state", "state", "current"], 99)),
        edited("players-str", setter(["state", "players"], "two")),
        edited("ring-none", setter(["state", "state", "ring"], None)),
        edited("row-dict", setter(["state", "state", "row"], {"a": 1})),
        edited("queue-garbage", setter(["state", "state", "queue"], [{"op": "explode"}])),
        edited("phase-bad", setter(["state", "state", "phase"], "nowhere")),
        edited("held-int", setter(["state", "state", "held"], 5)),
        edited("state-deep", replaced('"ring": 4', '"ring": ' + nest(3000))),
        edited("state-bigint", replaced('"ring": 4', '"ring": ' + BIG_INT)),
        edited("state-nan", replaced('"ring": 4', '"ring": NaN')),
        edited("state-inf", replaced('"ring": 4', '"ring": -Infinity')),
        edited("state-surrogate", replaced('"rules": "mount-doom"', '"rules": "\\ud800"')),
        edited("log-list", setter(["log"], [])),
        edited("log-new-list", setter(["log", "new"], [2, 1])),
        edited("log-new-no-players", lambda d: d["log"]["new"].pop("players")),
        edited("log-seed-abc", setter(["log", "new", "seed"], "abc")),
        edited("log-seed-float", setter(["log", "new", "seed"], 1.5)),
        edited("log-players-0", setter(["log", "new", "players"], 0)),
        edited("log-players-huge", setter(["log", "new", "players"], 10**9)),
        edited("log-options-list", setter(["log", "new", "options"], [1])),
        edited("log-moves-dict", setter(["log", "moves"], {"a": 1})),
        edited("log-move-int", setter(["log", "moves"], [5])),
        edited("log-events-str", setter(["log", "moves", 0, "events"], "x")),
    ]
