"""A corpus of hostile inputs, generated from the sample projects at test time.

Each entry is ``(name, writer)``: ``writer(folder) -> Path`` creates one malformed
file (or FIFO, folder, symlink …) in ``folder`` and returns its path. Project
entries are broken copies of ``projects/mount-doom``'s JSON export or SQLite file;
state entries are broken copies of a fresh Mount Doom game state.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games import available

ROOT = Path(__file__).resolve().parents[3]
MD_JSON = ROOT / "projects" / "mount-doom" / "mount-doom.json"
MD_DB = ROOT / "projects" / "mount-doom" / "mount-doom.bwproj"

Writer = Callable[[Path], Path]


def _base() -> dict[str, Any]:
    return json.loads(MD_JSON.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _text(name: str, text: str | bytes) -> Writer:
    def write(d: Path) -> Path:
        p = d / name
        p.write_bytes(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
        return p

    return write


def _edited(name: str, edit: Callable[[dict[str, Any]], Any], raw: bool = False) -> Writer:
    """The base project, edited; ``raw`` edits return the final JSON text themselves."""

    def write(d: Path) -> Path:
        data = _base()
        out = edit(data)
        text = out if raw else json.dumps(data, allow_nan=True)
        p = d / name
        p.write_bytes(text.encode("utf-8", "surrogatepass"))
        return p

    return write


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        cur: Any = data
        for k in path[:-1]:
            cur = cur[k]
        cur[path[-1]] = value

    return edit


def _nest(n: int) -> str:
    return "[" * n + "]" * n


DEEP = _nest(5000)
BIG_INT = "9" * 5000


def _replace_first(old: str, new: str) -> Callable[[dict[str, Any]], str]:
    def edit(data: dict[str, Any]) -> str:
        text = json.dumps(data)
        assert old in text, old
        return text.replace(old, new, 1)

    return edit


def project_corpus() -> list[tuple[str, Writer]]:
    """Malformed project files (JSON exports and SQLite files): 60+ kinds."""
    c: list[tuple[str, Writer]] = [
        ("empty", _text("p.json", b"")),
        ("spaces", _text("p.json", b"   \n")),
        ("not-json", _text("p.json", b"{not json")),
        ("truncated", _text("p.json", MD_JSON.read_bytes()[:5000])),
        ("not-utf8", _text("p.json", b'{"format": "\xff\xfe"}')),
        ("bom-garbage", _text("p.json", b"\xef\xbb\xbf{]")),
        ("deep-list", _text("p.json", DEEP)),
        ("deep-object", _text("p.json", '{"a":' * 3000 + "1" + "}" * 3000)),
        (
            "deep-in-meta",
            _edited(
                "p.json", _replace_first('"settings": {}', '"settings": ' + _nest(2000)), raw=True
            ),
        ),
        ("bigint-top", _text("p.json", BIG_INT)),
        (
            "bigint-version",
            _edited("p.json", _replace_first('"version": 1', '"version": ' + BIG_INT), raw=True),
        ),
        (
            "bigint-prop",
            _edited("p.json", _replace_first('"index": 0', '"index": ' + BIG_INT), raw=True),
        ),
        (
            "bigint-coord",
            _edited("p.json", _replace_first("40.0, 60.0", BIG_INT + ", 60.0"), raw=True),
        ),
        ("nan-coord", _edited("p.json", _replace_first("40.0, 60.0", "NaN, 60.0"), raw=True)),
        ("inf-coord", _edited("p.json", _replace_first("40.0, 60.0", "Infinity, 60.0"), raw=True)),
        (
            "neginf-coord",
            _edited("p.json", _replace_first("40.0, 60.0", "-Infinity, 60.0"), raw=True),
        ),
        ("1e999-coord", _edited("p.json", _replace_first("40.0, 60.0", "1e999, 60.0"), raw=True)),
        ("nan-prop", _edited("p.json", _replace_first('"index": 0', '"index": NaN'), raw=True)),
        (
            "nan-width",
            _edited("p.json", _replace_first('"width": 660.0', '"width": NaN'), raw=True),
        ),
        (
            "surrogate-id",
            _edited("p.json", _replace_first('"id": "r00"', '"id": "\\ud800"'), raw=True),
        ),
        (
            "surrogate-name",
            _edited(
                "p.json", _replace_first('"name": "Rivendell"', '"name": "x\\udfff"'), raw=True
            ),
        ),
        (
            "surrogate-key",
            _edited("p.json", _replace_first('"index": 0', '"\\ud834": 0'), raw=True),
        ),
        (
            "surrogate-meta",
            _edited(
                "p.json",
                _replace_first('"name": "Adventure', '"name": "\\udbff Adventure'),
                raw=True,
            ),
        ),
        ("list-top", _text("p.json", "[1, 2, 3]")),
        (
            "trailing-comma",
            _edited("p.json", _replace_first('"games": []', '"games": [],'), raw=True),
        ),
        (
            "single-quotes",
            _edited("p.json", _replace_first('"games": []', "'games': []"), raw=True),
        ),
        (
            "comment",
            _edited("p.json", _replace_first('"games": []', '"games": [] // none'), raw=True),
        ),
        (
            "unterminated-string",
            _edited("p.json", _replace_first('"games": []', '"games": ["abc'), raw=True),
        ),
        (
            "control-char",
            _edited("p.json", _replace_first('"Rivendell"', '"Riven\x01dell"'), raw=True),
        ),
        ("hex-number", _edited("p.json", _replace_first('"index": 0', '"index": 0x10'), raw=True)),
        ("leading-zero", _edited("p.json", _replace_first('"index": 0', '"index": 007'), raw=True)),
        ("plus-number", _edited("p.json", _replace_first('"index": 0', '"index": +1'), raw=True)),
        ("python-true", _edited("p.json", _replace_first('"index": 0', '"index": True'), raw=True)),
        ("two-documents", _edited("p.json", lambda d: json.dumps(d) + json.dumps(d), raw=True)),
        ("nul-byte", _text("p.json", b'{"format": "boardwright-project"\x00}')),
        ("utf16", _text("p.json", '{"format": "boardwright-project"}'.encode("utf-16"))),
        ("no-format", _edited("p.json", lambda d: d.pop("format"))),
        ("wrong-format", _edited("p.json", _set(["format"], "boardwright-pack"))),
        ("version-2", _edited("p.json", _set(["version"], 2))),
        ("version-str", _edited("p.json", _set(["version"], "1"))),
        ("meta-list", _edited("p.json", _set(["meta"], [1]))),
        ("assets-list", _edited("p.json", _set(["assets"], []))),
        ("features-dict", _edited("p.json", _set(["features"], {}))),
        ("features-str", _edited("p.json", _set(["features"], "abc"))),
        ("feature-int", _edited("p.json", _set(["features", 0], 5))),
        ("feature-no-id", _edited("p.json", lambda d: d["features"][0].pop("id"))),
        ("feature-id-int", _edited("p.json", _set(["features", 0, "id"], 7))),
        ("feature-kind-bad", _edited("p.json", _set(["features", 0, "kind"], "teleporter"))),
        ("feature-geom-none", _edited("p.json", _set(["features", 0, "geometry"], None))),
        ("feature-geom-str", _edited("p.json", _set(["features", 0, "geometry"], "POINT (1 2)"))),
        (
            "feature-geom-type",
            _edited(
                "p.json", _set(["features", 0, "geometry"], {"type": "Blob", "coordinates": [1, 2]})
            ),
        ),
        (
            "feature-coords-str",
            _edited("p.json", _set(["features", 0, "geometry", "coordinates"], ["a", "b"])),
        ),
        (
            "feature-coords-short",
            _edited("p.json", _set(["features", 0, "geometry", "coordinates"], [1])),
        ),
        (
            "feature-geom-nested-nan",
            _edited("p.json", _replace_first("40.0, 60.0", "[NaN], 60.0"), raw=True),
        ),
        (
            "meta-name-deep",
            _edited(
                "p.json",
                _replace_first(
                    '"name": "Adventure to Mount Doom"',
                    '"name": ' + '{"a":' * 500 + "1" + "}" * 500,
                ),
                raw=True,
            ),
        ),
        (
            "huge-float-text",
            _edited("p.json", _replace_first("40.0, 60.0", "1" * 600 + ".5, 60.0"), raw=True),
        ),
        ("exp-overflow", _edited("p.json", _replace_first("40.0, 60.0", "4e400, 60.0"), raw=True)),
        ("feature-props-list", _edited("p.json", _set(["features", 0, "props"], [1, 2]))),
        ("feature-props-str", _edited("p.json", _set(["features", 0, "props"], "x"))),
        (
            "duplicate-feature",
            _edited("p.json", lambda d: d["features"].append(copy.deepcopy(d["features"][0]))),
        ),
        (
            "surrogate-pair-half",
            _edited("p.json", _replace_first('"id": "r00"', '"id": "\\ud83d\\u0041"'), raw=True),
        ),
        ("pieces-dict", _edited("p.json", _set(["pieces"], {"a": 1}))),
        (
            "piece-props-list",
            _edited(
                "p.json",
                lambda d: d["pieces"].append({"id": "x", "piece": "y", "at": None, "props": [1]}),
            ),
        ),
        (
            "piece-at-int",
            _edited("p.json", lambda d: d["pieces"].append({"id": "x", "piece": "y", "at": 5})),
        ),
        (
            "placement-bad",
            _edited(
                "p.json",
                _set(
                    ["placements"], [{"id": "p", "tile": "nope/none", "x": 0, "y": 0, "turns": 0}]
                ),
            ),
        ),
        (
            "placement-turns-huge",
            _edited(
                "p.json",
                _set(
                    ["placements"],
                    [{"id": "p", "tile": "nope/none", "x": 0, "y": 0, "turns": 10**30}],
                ),
            ),
        ),
        (
            "placement-x-str",
            _edited(
                "p.json",
                _set(["placements"], [{"id": "p", "tile": "t", "x": "0", "y": 0, "turns": 0}]),
            ),
        ),
        (
            "tile-bad-outline",
            _edited(
                "p.json",
                _set(
                    ["assets", "tiles"],
                    [
                        {
                            "key": "k/t",
                            "outline": {
                                "type": "Polygon",
                                "coordinates": [[[0, 0], [10, 10], [10, 0], [0, 10], [0, 0]]],
                            },
                            "features": [],
                        }
                    ],
                ),
            ),
        ),
        (
            "tile-outline-nan",
            _edited(
                "p.json",
                _replace_first(
                    '"tiles": []',
                    '"tiles": [{"key": "k/t", "outline": {"type": "Polygon", "coordinates": [[[0, 0], [NaN, 0], [1, 1], [0, 0]]]}, "features": []}]',
                ),
                raw=True,
            ),
        ),
        ("tile-not-object", _edited("p.json", _set(["assets", "tiles"], [3]))),
        ("deck-no-key", _edited("p.json", _set(["assets", "decks"], [{"cards": []}]))),
        ("games-dict", _edited("p.json", _set(["games"], {"a": 1}))),
        ("sqlite-magic-garbage", _text("p.bwproj", b"SQLite format 3\x00" + b"\x00" * 200)),
        ("sqlite-truncated", _text("p.bwproj", MD_DB.read_bytes()[:3000])),
        ("binary-garbage", _text("p.bwproj", bytes(range(256)) * 4)),
    ]
    c += [(f"sqlite-{name}", _sqlite(name, sql)) for name, sql in SQLITE_EDITS]
    c += [
        ("fifo", _fifo),
        ("folder-two-projects", _two_projects),
        ("folder-empty", _empty_folder),
        ("device", lambda d: Path("/dev/null")),
        ("missing", lambda d: d / "nope.bwproj"),
        ("symlink-loop", _symlink_loop),
    ]
    return c


SQLITE_EDITS = [
    ("view", "CREATE VIEW v AS SELECT 1"),
    ("view-as-table", "DROP TABLE games; CREATE VIEW games AS SELECT 1 AS ord, '{}' AS data"),
    ("fts", "CREATE VIRTUAL TABLE f USING fts5(x)"),
    ("meta-no-format", "DELETE FROM meta WHERE key = 'format'"),
    ("drop-games", "DROP TABLE games"),
    ("trigger", "CREATE TRIGGER t AFTER INSERT ON games BEGIN SELECT 1; END"),
    ("unknown-table", "CREATE TABLE evil (x)"),
    ("extra-column", "ALTER TABLE features ADD COLUMN extra TEXT"),
    (
        "generated",
        "ALTER TABLE features ADD COLUMN g TEXT GENERATED ALWAYS AS (zeroblob(100000000)) VIRTUAL",
    ),
    ("drop-meta", "DROP TABLE meta"),
    ("drop-features", "DROP TABLE features"),
    ("meta-version", "UPDATE meta SET value = '99' WHERE key = 'version'"),
    ("meta-format", "UPDATE meta SET value = '\"x\"' WHERE key = 'format'"),
    ("meta-deep", "UPDATE meta SET value = '" + _nest(3000) + "' WHERE key = 'meta'"),
    ("meta-bigint", f"UPDATE meta SET value = '{BIG_INT}' WHERE key = 'version'"),
    ("props-bigint", f"UPDATE features SET props = '{{\"index\": {BIG_INT}}}' WHERE rowid = 1"),
    ("props-nan", "UPDATE features SET props = '{\"index\": NaN}' WHERE rowid = 1"),
    ("props-blob", "UPDATE features SET props = x'00ff' WHERE rowid = 1"),
    ("props-int", "UPDATE features SET props = 5 WHERE rowid = 1"),
    ("props-list", "UPDATE features SET props = '[1]' WHERE rowid = 1"),
    ("geometry-garbage", "UPDATE features SET geometry = '{' WHERE rowid = 1"),
    ("geometry-null", "UPDATE features SET geometry = NULL WHERE rowid = 1"),
    ("id-bad-utf8", "UPDATE features SET id = CAST(x'eda080' AS TEXT) WHERE rowid = 1"),
    (
        "props-bad-utf8",
        "UPDATE features SET props = CAST(x'7b22ff223a317d' AS TEXT) WHERE rowid = 1",
    ),
    ("turns-text", "INSERT INTO placements VALUES ('p', 't', 0, 0, '99999999999999999999999', 0)"),
    ("asset-garbage", "INSERT INTO assets VALUES ('tiles:x', 'tiles', '{', 0)"),
    ("game-deep", "INSERT INTO games VALUES (0, '" + '{"a":' * 2000 + "1" + "}" * 2000 + "')"),
]


def _sqlite(name: str, sql: str) -> Writer:
    def write(d: Path) -> Path:
        p = d / f"p-{name}.bwproj"
        p.write_bytes(MD_DB.read_bytes())
        conn = sqlite3.connect(p)
        conn.executescript(sql)
        conn.commit()
        conn.close()
        return p

    return write


def _fifo(d: Path) -> Path:
    p = d / "fifo.bwproj"
    os.mkfifo(p)
    return p


def _two_projects(d: Path) -> Path:
    f = d / "two"
    f.mkdir()
    (f / "a.bwproj").write_bytes(MD_DB.read_bytes())
    (f / "b.bwproj").write_bytes(MD_DB.read_bytes())
    return f


def _empty_folder(d: Path) -> Path:
    f = d / "empty"
    f.mkdir()
    return f


def _symlink_loop(d: Path) -> Path:
    p = d / "loop.bwproj"
    os.symlink(p.name, p)
    return p


# ---------------------------------------------------------------------- states
@pytest.fixture(scope="session")
def md_state(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A fresh Mount Doom game state (envelope) on the sample project, with one move."""
    from referee.cli.cmd_game import new_game

    game, env = new_game("mount-doom", str(ROOT / "projects" / "mount-doom"), 2, 1, {})
    move = next(iter(game.legal_moves))
    events = game.push(move)
    env["state"] = game.to_json()
    env["log"]["moves"].append({"move": str(move), "events": events})
    return json.loads(json.dumps(env))  # type: ignore[no-any-return]


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
        ("empty", _text("s.json", b"")),
        ("not-json", _text("s.json", b"{{")),
        ("deep", _text("s.json", DEEP)),
        ("bigint", _text("s.json", BIG_INT)),
        ("nan", _text("s.json", "NaN")),
        ("not-utf8", _text("s.json", b"\xff")),
        ("list", _text("s.json", "[]")),
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
        edited("state-deep", replaced('"ring": 4', '"ring": ' + _nest(3000))),
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


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``referee.cli.main(argv)`` in-process: (exit status, stdout, stderr)."""
    from referee.cli import main

    try:
        rc = main(argv)
    except SystemExit as exc:  # argparse usage errors
        rc = int(exc.code or 0)
    out, err = capsys.readouterr()
    return rc, out, err


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every entry under ``folder`` with its bytes (None for folders, FIFOs, links)."""
    out: dict[str, bytes | None] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for n in dirnames + filenames:
            p = Path(dirpath) / n
            rel = str(p.relative_to(folder))
            out[rel] = p.read_bytes() if p.is_file() and not p.is_symlink() else None
    return out


def referee_subprocess(*args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", *args], capture_output=True, text=True, **kw
    )


# ====================================================================== the tests
PROJECTS = project_corpus()

#: Every board verb, as argv builders over (project path, output folder).
BOARD_VERBS: list[tuple[str, Callable[[str, Path], list[str]]]] = [
    ("compile", lambda p, o: ["compile", p]),
    (
        "compile-graphml",
        lambda p, o: ["compile", p, "--format", "graphml", "-o", str(o / "g.graphml")],
    ),
    ("check", lambda p, o: ["check", p, "--no-expect"]),
    ("check-json", lambda p, o: ["check", p, "--json", "--no-expect"]),
    ("info", lambda p, o: ["info", p, "--json"]),
    ("render", lambda p, o: ["render", p, "-o", str(o / "b.svg")]),
    ("export-graphml", lambda p, o: ["export", p, "--to", "graphml", "-o", str(o / "b.graphml")]),
    ("export-tts", lambda p, o: ["export", p, "--to", "tts", "-o", str(o / "b.json")]),
    ("export-tmj", lambda p, o: ["export", p, "--to", "tmj", "-o", str(o / "b.tmj")]),
    ("diff", lambda p, o: ["diff", p, str(MD_JSON)]),
    ("diff-new", lambda p, o: ["diff", str(MD_JSON), p]),
    ("perft", lambda p, o: ["perft", p, str(ROOT / "tests" / "fixtures" / "mount-doom.perft")]),
    ("turns", lambda p, o: ["turns", p, "--no-write"]),
    ("reach", lambda p, o: ["reach", p, "--from", "a", "--roll", "2"]),
    ("within", lambda p, o: ["within", p, "a", "2"]),
    ("path", lambda p, o: ["path", p, "--from", "a", "--to", "b", "--roll", "2"]),
    ("new", lambda p, o: ["new", "mount-doom", p, "--players", "2", "-o", str(o / "s.json")]),
    ("image-list", lambda p, o: ["image", "list", p]),
    ("image-remove", lambda p, o: ["image", "remove", p, "x"]),
    ("selfplay", lambda p, o: ["selfplay", "mount-doom", p, "--games", "1", "--max-moves", "3"]),
    (
        "balance",
        lambda p, o: [
            "balance",
            "mount-doom",
            p,
            "--games",
            "1",
            "--bots",
            "random",
            "--players",
            "2",
            "--db",
            str(o / "b.sqlite"),
            "--workers",
            "1",
        ],
    ),
]
if "race" in available():  # a plug-in's own verb (the example rules package, installed in CI)
    BOARD_VERBS.append(("race-track", lambda p, o: ["race-track", p, "--json"]))


def _check_refusal(
    rc: int,
    out: str,
    err: str,
    where: Path,
    before: dict[str, bytes | None],
    folder: Path,
    outputs: set[str],
) -> None:
    assert rc in (1, 2), (rc, err)
    assert "Traceback" not in err and "Traceback" not in out
    # errors are one line on stderr; a replay mismatch is its report on stdout
    lines = err.strip().splitlines() or [ln for ln in out.splitlines() if "mismatch" in ln]
    assert len(lines) == 1, err
    assert str(where) in lines[0] or where.name in lines[0], lines[0]
    assert "internal error" not in lines[0], lines[0]
    after = snapshot(folder)
    for name, data in before.items():
        assert after.get(name, b"gone") == data, f"{name} changed"
    assert set(after) - set(before) <= outputs, set(after) - set(before)


@pytest.mark.parametrize("kind,writer", PROJECTS, ids=[k for k, _ in PROJECTS])
def test_every_board_verb_refuses_a_hostile_project(kind, writer, tmp_path, capsys):
    """Every board verb on a malformed project: exit 1, one line naming the file, nothing written."""
    src = tmp_path / "in"
    src.mkdir()
    path = writer(src)
    before = snapshot(src)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    verbs = (
        BOARD_VERBS
        if kind in _ALL_VERB_KINDS
        else BOARD_VERBS[:1] + BOARD_VERBS[4:5] + BOARD_VERBS[9:10]
    )
    for _name, argv in verbs:
        rc, out, err = run_cli(argv(str(path), out_dir), capsys)
        _check_refusal(rc, out, err, path, before, src, set())
        assert not list(out_dir.iterdir()), _name


#: Kinds run through every verb (the rest through compile, info and diff: same loader).
_ALL_VERB_KINDS = {
    "deep-list",
    "bigint-prop",
    "nan-coord",
    "surrogate-id",
    "fifo",
    "sqlite-generated",
    "sqlite-view",
    "folder-two-projects",
    "feature-props-list",
    "piece-props-list",
    "tile-bad-outline",
}


@pytest.fixture(scope="module")
def states(md_state):
    return state_corpus(md_state)


STATE_KINDS = 43


def test_state_corpus_size(states):
    assert len(states) == STATE_KINDS
    assert len(PROJECTS) + len(states) >= 150, len(PROJECTS) + len(states)


@pytest.mark.parametrize("index", range(STATE_KINDS))
def test_every_game_verb_refuses_a_hostile_state(index, states, tmp_path, capsys):
    """moves / play / replay on a malformed state or log: exit 1, one line naming the file."""
    kind, writer = states[index]
    src = tmp_path / "in"
    src.mkdir()
    path = writer(src)
    before = snapshot(src)
    for argv in (
        ["moves", str(path)],
        ["moves", str(path), "--json"],
        ["play", str(path), "1", "-o", str(src / "new.json")],
        ["play", str(path), "pass", "-o", str(path)],
        ["replay", str(path)],
        ["position", str(path), "-o", str(src / "new.json")],
    ):
        rc, out, err = run_cli(argv, capsys)
        if rc == 0 and argv[0] != "play":
            # a few edits (e.g. an unused field) still make a usable state: fine,
            # as long as nothing crashed
            continue
        if kind.startswith("log-") and argv[0] != "replay" and rc == 0:
            continue
        if argv[0] == "play" and rc == 0:
            continue
        if argv[0] == "play" and rc == 1 and "illegal move" in err:
            # a usable state, an illegal move: one line, and nothing written
            assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
            assert snapshot(src) == before
            continue
        _check_refusal(rc, out, err, path, before if rc else snapshot(src), src, {"new.json"})


def test_log_shapes_are_refused_by_replay(states, tmp_path, capsys):
    for kind, writer in states:
        if not kind.startswith("log-"):
            continue
        path = writer(tmp_path)
        rc, _, err = run_cli(["replay", str(path)], capsys)
        assert rc == 1 and "log" in err and str(path) in err, (kind, err)


def test_rules_errors_on_a_hand_edited_state_are_bad_state(states, tmp_path, capsys):
    """A state the rules cannot use is one ``bad_state`` line, never a traceback."""
    seen = 0
    for kind, writer in states:
        if kind not in (
            "pos-str",
            "current-99",
            "row-dict",
            "held-int",
            "state-empty",
            "state-list",
        ):
            continue
        path = writer(tmp_path)
        rc, out, err = run_cli(["moves", str(path), "--json"], capsys)
        if rc:
            seen += 1
            assert rc == 1 and len(err.strip().splitlines()) == 1 and str(path) in err
            assert json.loads(out)["error"]["code"]
    assert seen >= 3


BAD_FLAGS = [
    (
        [
            "balance",
            "mount-doom",
            "{p}",
            "--bots",
            "random",
            "--games",
            "0",
            "--db",
            "{o}/b.sqlite",
        ],
        "--games",
    ),
    (
        ["balance", "mount-doom", "{p}", "--bots", "mcts:iterations=0", "--db", "{o}/b.sqlite"],
        "iterations",
    ),
    (
        [
            "balance",
            "mount-doom",
            "{p}",
            "--bots",
            "random",
            "--workers",
            "0",
            "--db",
            "{o}/b.sqlite",
        ],
        "--workers",
    ),
    (
        ["export", "{p}", "--to", "tts", "-o", "{o}/b.json", "--tts-mm-per-unit", "nan"],
        "--tts-mm-per-unit",
    ),
    (
        ["export", "{p}", "--to", "tts", "-o", "{o}/b.json", "--tts-mm-per-unit", "inf"],
        "--tts-mm-per-unit",
    ),
    (
        ["export", "{p}", "--to", "tts", "-o", "{o}/b.json", "--tts-mm-per-unit", "-1"],
        "--tts-mm-per-unit",
    ),
    (["export", "{p}", "--to", "tmj", "-o", "{o}/b.tmj", "--px-per-mm", "nan"], "--px-per-mm"),
    (["export", "{p}", "--to", "tmj", "-o", "{o}/b.tmj", "--px-per-mm", "inf"], "--px-per-mm"),
    (["export", "{p}", "--to", "tmj", "-o", "{o}/b.tmj", "--px-per-mm", "0"], "--px-per-mm"),
    (["export", "{p}", "--to", "tts", "-o", "{o}/board.png"], "board.png"),
    (["export", "{p}", "--to", "graphml", "-o", "{o}/board.svg"], "board.svg"),
    (["export", "{p}", "--to", "svg", "-o", "{o}/board.png"], "board.png"),
    (["export", "{p}", "--to", "png", "-o", "{o}/b.png", "--png-width", "0"], "--png-width"),
    (["render", "{p}", "--png", "{o}/b.png", "--dpi", "inf"], "--dpi"),
    (["render", "{p}", "--png", "{o}/b.png", "--dpi", "nan"], "--dpi"),
    (["render", "{p}", "--png", "{o}/b.png", "--dpi", "-5"], "--dpi"),
    (["render", "{p}", "--turn", "x=" + "9" * 50], "--turn"),
    (
        ["new", "mount-doom", "{p}", "--players", "2", "--option", "x=nan", "-o", "{o}/s.json"],
        "x=nan",
    ),
    (["new", "mount-doom", "{p}", "--players", "2", "--option", "x=inf"], "x=inf"),
    (["new", "mount-doom", "{p}", "--players", "2", "--option", "x=-Infinity"], "x=-Infinity"),
    (["new", "mount-doom", "{p}", "--players", "2", "--option", "x=" + "9" * 400], "--option x"),
    (["new", "mount-doom", "{p}", "--players", "0"], "players"),
    (["new", "mount-doom", "{p}", "--players", "100000"], "players"),
    (["new", "mount-doom", "{p}", "--players", "2", "--option", "novalue"], "--option"),
    (["selfplay", "mount-doom", "{p}", "--games", "0"], "--games"),
    (["selfplay", "mount-doom", "{p}", "--option", "x=nan"], "x=nan"),
    (["turns", "{p}", "--workers", "0"], "--workers"),
    (["serve", "--stdio", "--max-games", "0"], "--max-games"),
    (["serve", "--stdio", "--idle-timeout", "nan"], "--idle-timeout"),
    (["serve", "--stdio", "--projects", "{o}/nowhere"], "--projects"),
    (["serve", "--stdio", "--max-request", "1"], "--max-request"),
    (["compile", "{p}", "--format", "yaml"], "--format"),
    (["trace", "{p}", "--scale", "nan", "-o", "{o}/t.bwproj"], "--scale"),
    (["trace", "{p}", "--scale", "1", "--tolerance", "inf", "-o", "{o}/t.bwproj"], "--tolerance"),
    (["trace", "{p}", "--scale", "1", "-o", "{o}/t.bwproj"], "mount-doom.json"),
    (["schema", "position", "chess"], "chess"),
    (["schema", "shape", "mount-doom"], "kind"),
    (["image", "add", "{p}", "{p}", "--background"], "mount-doom.json"),
    (["new", "mount-doom", "{p}", "--players", "two"], "--players"),
    (["export", "{p}", "--to", "tts", "-o", "{o}/nowhere/b.json"], "nowhere"),
]


@pytest.mark.parametrize("argv,needle", BAD_FLAGS, ids=[str(i) for i in range(len(BAD_FLAGS))])
def test_bad_flags_are_refused_before_any_work(argv, needle, tmp_path, capsys):
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    args = [a.replace("{p}", str(MD_JSON)).replace("{o}", str(out_dir)) for a in argv]
    rc, _, err = run_cli(args, capsys)
    assert rc in (1, 2), err
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert needle in last, last
    assert not list(out_dir.iterdir())


def test_workers_are_capped_at_the_cores_with_a_note(capsys, monkeypatch):
    from referee.cli.cmd_turns import cap_workers

    cores = len(os.sched_getaffinity(0))
    assert cap_workers(100_000) == cores
    assert f"capped at {cores}" in capsys.readouterr().err
    assert cap_workers(1) == 1 and capsys.readouterr().err == ""


def test_nul_in_an_id_never_makes_broken_graphml(tmp_path, capsys):
    """A NUL in a feature id: the project is refused, or the GraphML is well-formed XML."""
    import xml.dom.minidom

    data = _base()
    data["features"][0]["id"] = "r\x0100"
    p = tmp_path / "p.json"
    p.write_text(json.dumps(data))
    rc, _, err = run_cli(
        ["export", str(p), "--to", "graphml", "-o", str(tmp_path / "g.graphml")], capsys
    )
    if rc == 0:
        xml.dom.minidom.parse(str(tmp_path / "g.graphml"))
    else:
        assert rc == 1 and len(err.strip().splitlines()) == 1 and "U+0001" in err


def test_two_project_files_in_a_folder_are_named(tmp_path, capsys):
    path = _two_projects(tmp_path)
    rc, _, err = run_cli(["info", str(path)], capsys)
    assert rc == 1 and "2 project files (a.bwproj, b.bwproj)" in err


def test_invalid_tile_outline_names_its_pack_file(tmp_path):
    from referee.assets import load_pack
    from referee.errors import BoardwrightError

    pack = tmp_path / "pk"
    (pack / "tiles").mkdir(parents=True)
    (pack / "pack.json").write_text(
        json.dumps({"format": "boardwright-pack", "version": 1, "id": "pk"})
    )
    bad = pack / "tiles" / "bow.json"
    bad.write_text(
        json.dumps(
            {
                "id": "bow",
                "outline": {
                    "type": "Polygon",
                    "coordinates": [[[0, 0], [10, 10], [10, 0], [0, 10], [0, 0]]],
                },
                "features": [],
            }
        )
    )
    with pytest.raises(BoardwrightError) as info:
        load_pack(pack)
    assert str(bad) in str(info.value)


def test_a_project_over_the_feature_limit_is_refused_with_a_message(monkeypatch, capsys):
    """More features than ``MAX_FEATURES`` (lowered here to keep the test fast): a message."""
    import referee.store

    monkeypatch.setattr(referee.store, "MAX_FEATURES", 50)
    for path in (MD_JSON, MD_DB):
        rc, _, err = run_cli(["info", str(path)], capsys)
        assert rc == 1 and str(path) in err and "limit 50" in err, err


# ---------------------------------------------------------------------- hypothesis

_BASE_TEXT = MD_JSON.read_bytes()
_TOKENS = [
    b"NaN",
    b"Infinity",
    b"1e999",
    b"9" * 300,
    b"[" * 400,
    b'"\\ud800"',
    b"\x00",
    b"\xff",
    b"{",
    b"]",
    b",",
    b'"',
    b"null",
    b"-",
    b"[]",
    b"{}",
]


@st.composite
def mutated_projects(draw: st.DrawFn) -> bytes:
    """The Mount Doom export with a few random cuts, splices and hostile tokens."""
    data = bytearray(_BASE_TEXT)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["insert", "delete", "truncate", "replace"]))
        if kind == "insert":
            data[at:at] = draw(st.sampled_from(_TOKENS))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 50))]
        elif kind == "truncate":
            del data[at:]
        else:
            data[at : at + 1] = draw(st.binary(min_size=1, max_size=3))
    return bytes(data)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(raw=mutated_projects())
def test_any_mutated_project_is_loaded_or_refused_in_one_line(raw, tmp_path_factory, capsys):
    folder = tmp_path_factory.mktemp("mut")
    path = folder / "p.json"
    path.write_bytes(raw)
    rc, _, err = run_cli(["info", str(path), "--json"], capsys)
    assert "Traceback" not in err and "internal error" not in err
    if rc:
        assert rc == 1 and len(err.strip().splitlines()) == 1 and str(path) in err
    assert path.read_bytes() == raw and [p.name for p in folder.iterdir()] == ["p.json"]


@settings(max_examples=60, deadline=None)
@given(
    raw=st.one_of(
        st.binary(max_size=300),
        mutated_projects().map(lambda b: b[:2000]),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
            lambda c: (
                st.lists(c, max_size=3)
                | st.dictionaries(
                    st.sampled_from(
                        [
                            "op",
                            "id",
                            "game",
                            "move",
                            "state",
                            "rules",
                            "project",
                            "players",
                            "seed",
                            "options",
                            "view",
                        ]
                    ),
                    c,
                    max_size=5,
                )
            ),
            max_leaves=12,
        ).map(lambda v: json.dumps(v, allow_nan=True).encode()),
    )
)
def test_any_server_line_gets_one_standard_json_answer(raw):
    from referee.cli.stdio import Server

    srv = Server(4096, projects=ROOT / "projects")
    resp = srv.handle_line(raw.replace(b"\n", b" "))
    line = srv.encode(resp)
    assert line.count("\n") == 1 and isinstance(json.loads(line)["ok"], bool)
    if not resp["ok"]:
        assert resp["error"]["code"] != "internal_error", resp


def test_the_fuzz_suite_covers_every_verb(tmp_path):
    """A verb added to the CLI must be added to the hostile-input runs above."""
    from referee.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    covered = {argv("p", tmp_path)[0] for _, argv in BOARD_VERBS}
    covered |= {"moves", "play", "replay", "position"}  # the hostile-state test
    covered |= {args[0] for args, _ in BAD_FLAGS}  # serve, and the flags of the others
    assert set(sub.choices) <= covered, set(sub.choices) - covered
