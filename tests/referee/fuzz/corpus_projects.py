"""Hostile project files, generated from the sample projects at test time.

Each entry is ``(name, writer)``: ``writer(folder) -> Path`` creates one malformed
file (or FIFO, folder, symlink …) in ``folder`` and returns its path. Project
entries are broken copies of ``projects/mount-doom``'s JSON export or SQLite file;
:func:`mutated_projects` draws random cuts and splices of the export (hypothesis).
"""

from __future__ import annotations

import copy
import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[3]
MD_JSON = ROOT / "projects" / "mount-doom" / "mount-doom.json"
MD_DB = ROOT / "projects" / "mount-doom" / "mount-doom.bwproj"

Writer = Callable[[Path], Path]


def base_project() -> dict[str, Any]:
    return json.loads(MD_JSON.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def text_writer(name: str, text: str | bytes) -> Writer:
    def write(d: Path) -> Path:
        p = d / name
        p.write_bytes(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
        return p

    return write


def _edited(name: str, edit: Callable[[dict[str, Any]], Any], raw: bool = False) -> Writer:
    """The base project, edited; ``raw`` edits return the final JSON text themselves."""

    def write(d: Path) -> Path:
        data = base_project()
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


def nest(n: int) -> str:
    return "[" * n + "]" * n


DEEP = nest(5000)
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
        ("empty", text_writer("p.json", b"")),
        ("spaces", text_writer("p.json", b"   \n")),
        ("not-json", text_writer("p.json", b"{not json")),
        ("truncated", text_writer("p.json", MD_JSON.read_bytes()[:5000])),
        ("not-utf8", text_writer("p.json", b'{"format": "\xff\xfe"}')),
        ("bom-garbage", text_writer("p.json", b"\xef\xbb\xbf{]")),
        ("deep-list", text_writer("p.json", DEEP)),
        ("deep-object", text_writer("p.json", '{"a":' * 3000 + "1" + "}" * 3000)),
        (
            "deep-in-meta",
            _edited(
                "p.json", _replace_first('"settings": {}', '"settings": ' + nest(2000)), raw=True
            ),
        ),
        ("bigint-top", text_writer("p.json", BIG_INT)),
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
        ("list-top", text_writer("p.json", "[1, 2, 3]")),
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
        ("nul-byte", text_writer("p.json", b'{"format": "boardwright-project"\x00}')),
        ("utf16", text_writer("p.json", '{"format": "boardwright-project"}'.encode("utf-16"))),
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
        ("sqlite-magic-garbage", text_writer("p.bwproj", b"SQLite format 3\x00" + b"\x00" * 200)),
        ("sqlite-truncated", text_writer("p.bwproj", MD_DB.read_bytes()[:3000])),
        ("binary-garbage", text_writer("p.bwproj", bytes(range(256)) * 4)),
    ]
    c += [(f"sqlite-{name}", _sqlite(name, sql)) for name, sql in SQLITE_EDITS]
    c += [
        ("fifo", _fifo),
        ("folder-two-projects", two_projects),
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
    ("meta-deep", "UPDATE meta SET value = '" + nest(3000) + "' WHERE key = 'meta'"),
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


def two_projects(d: Path) -> Path:
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


#: the project corpus, built once per test process
PROJECTS = project_corpus()


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
