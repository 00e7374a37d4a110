"""The argv tables the fuzz tests run: every board verb, and bad flags of every verb.

:func:`test_verb_coverage.test_the_fuzz_suite_covers_every_verb` checks that every
verb of the CLI is in one of them (or in the hostile-state runs).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from referee.games import available

from .corpus_projects import MD_JSON, ROOT

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
    (
        "design",
        lambda p, o: ["design", "mount-doom", p, "--budget", "2", "--db", str(o / "d.sqlite")],
    ),
    ("reach", lambda p, o: ["reach", p, "--from", "a", "--roll", "2"]),
    ("within", lambda p, o: ["within", p, "a", "2"]),
    ("path", lambda p, o: ["path", p, "--from", "a", "--to", "b", "--roll", "2"]),
    ("new", lambda p, o: ["new", "mount-doom", p, "--players", "2", "-o", str(o / "s.json")]),
    ("board-names", lambda p, o: ["board-names", "ringgeister", p, "--json"]),
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
    ("import-tmj", lambda p, o: ["import", "tmj", p, "-o", str(o / "i.bwproj")]),
    ("import-geojson", lambda p, o: ["import", "geojson", p, "-o", str(o / "i.json"), "--json"]),
    ("import-node-link", lambda p, o: ["import", "node-link", p, "-o", str(o / "i.bwproj")]),
    ("import-graphml", lambda p, o: ["import", "graphml", p, "-o", str(o / "i.bwproj")]),
]
if "race" in available():  # a plug-in's own verb (the example rules package, installed in CI)
    BOARD_VERBS.append(("race-track", lambda p, o: ["race-track", p, "--json"]))


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
    (["import", "tmj", "{p}", "-o", "{o}/i.bwproj", "--px-per-mm", "nan"], "--px-per-mm"),
    (
        ["import", "geojson", "{p}", "-o", "{o}/i.bwproj", "--geo-metres-per-mm", "-1"],
        "--geo-metres-per-mm",
    ),
    (["import", "node-link", "{p}", "-o", "{o}/i.bwproj", "--mm-per-unit", "inf"], "--mm-per-unit"),
    (["import", "tmx", "{p}", "-o", "{o}/nowhere/i.bwproj"], "nowhere"),
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
    (["design", "mount-doom", "{p}", "--budget", "0", "--db", "{o}/d.sqlite"], "--budget"),
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
