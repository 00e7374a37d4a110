"""The import formats are one registry: ``referee import``'s choices and flag help, the
editor's file filter and ``docs/reference/import-formats.md`` come from it."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from referee.cli import build_parser
from referee.errors import UsageError
from referee.importers import IMPORTERS, OPTIONS, ImportSettings, guess_format, import_board

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "reference" / "import-formats.md"


def _subparser() -> argparse.ArgumentParser:
    (sub,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    found: argparse.ArgumentParser = sub.choices["import"]
    return found


def _rows(head: str) -> list[str]:
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(head))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def test_the_cli_offers_every_format_and_flag() -> None:
    actions = {a.dest: a for a in _subparser()._actions}
    assert list(actions["format"].choices or ()) == list(IMPORTERS)
    for name, option in OPTIONS.items():
        assert option.flag in actions[name].option_strings
        assert any(name in i.options for i in IMPORTERS.values()), option.flag


def test_the_docs_page_lists_the_registry() -> None:
    formats = [
        f"| `{i.name}` | {', '.join(f'`{s}`' for s in i.suffixes)} | {i.description} | "
        + ", ".join(f"`{OPTIONS[o].flag}`" for o in i.options)
        + " |"
        for i in IMPORTERS.values()
    ]
    assert _rows("| `FORMAT` |") == formats
    settings = [
        f"| `{o.flag}` | {o.help} | "
        + ", ".join(f"`{n}`" for n, i in IMPORTERS.items() if o.name in i.options)
        + " |"
        for o in OPTIONS.values()
    ]
    assert _rows("| flag |") == settings


@pytest.mark.parametrize(
    "settings",
    [
        ImportSettings(px_per_mm=0.0),
        ImportSettings(mm_per_unit=float("nan")),
        ImportSettings(layout="tree"),
        ImportSettings(rules="chess"),
    ],
)
def test_bad_settings_are_refused_before_the_file_is_read(settings: ImportSettings) -> None:
    with pytest.raises(UsageError):
        import_board("tmj", "/nonexistent/map.tmj", settings)


def test_unknown_format() -> None:
    with pytest.raises(UsageError, match="unknown import format"):
        import_board("kml", "x.kml")


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        ('{"type": "map", "layers": []}', "tmj"),
        ('{"type": "FeatureCollection", "features": []}', "geojson"),
        ('{"directed": false, "multigraph": true, "graph": {}}', "node-link"),
        ("[1, 2]", None),
    ],
)
def test_the_format_is_guessed_from_a_json_files_start(
    text: str, fmt: str | None, tmp_path: Path
) -> None:
    p = tmp_path / "x.json"
    p.write_text(text)
    assert guess_format(p) == fmt
    assert guess_format(tmp_path / "m.tmx.gz") == "tmx"
