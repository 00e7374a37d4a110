"""The export formats are one registry (issue 26, "Lists kept in step by hand"): the CLI's
``--to`` choices and flag help, ``referee compile --format``, ``write_export`` and
``docs/reference/export-formats.md`` all come from ``referee.export.EXPORTERS``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from referee.cli import build_parser, main
from referee.compiler import compile_board
from referee.errors import UsageError
from referee.export import EXPORTERS, OPTIONS, TEXT_FORMATS, write_compiled, write_export
from referee.generators import tile_grid

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "reference" / "export-formats.md"


def _subparser(name: str) -> argparse.ArgumentParser:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    found: argparse.ArgumentParser = sub.choices[name]
    return found


def _rows(table_head: str) -> list[str]:
    """The rows of the Markdown table whose header line starts with ``table_head``."""
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(table_head))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def test_the_cli_offers_every_registered_format_and_only_those() -> None:
    (to,) = [a for a in _subparser("export")._actions if a.dest == "to"]
    assert list(to.choices or ()) == list(EXPORTERS)
    (fmt,) = [a for a in _subparser("compile")._actions if a.dest == "format"]
    assert list(fmt.choices or ()) == list(TEXT_FORMATS)
    assert TEXT_FORMATS == ("node-link", "graphml", "geojson")


def test_each_flag_says_which_formats_read_it() -> None:
    actions = {a.dest: a for a in _subparser("export")._actions}
    for name, option in OPTIONS.items():
        users = [n for n, e in EXPORTERS.items() if name in e.options]
        assert users, f"{option.flag} is read by no format"
        action = actions[name]
        assert option.flag in action.option_strings
        assert (action.help or "").endswith(f"({', '.join(users)})")


def test_the_docs_page_lists_the_registry() -> None:
    formats = [
        f"| `{e.name}` | `{e.suffix}` | {e.description} | "
        + (", ".join(f"`{OPTIONS[o].flag}`" for o in e.options) or "—")
        + " |"
        for e in EXPORTERS.values()
    ]
    assert _rows("| `--to` |") == formats
    settings = [
        f"| `{o.flag}` | {o.help} | "
        + ", ".join(f"`{n}`" for n, e in EXPORTERS.items() if o.name in e.options)
        + " |"
        for o in OPTIONS.values()
    ]
    assert _rows("| flag |") == settings


@pytest.mark.parametrize("name", list(EXPORTERS))
def test_every_format_writes_its_file(name: str, tmp_path: Path) -> None:
    exporter = EXPORTERS[name]
    out = tmp_path / f"board{exporter.suffix}"
    files = write_export(compile_board(tile_grid(2, 2)), name, out, png_width=64)
    assert out in files and out.stat().st_size > 0 and all(f.exists() for f in files)
    if exporter.text is not None:
        assert out.read_text(encoding="utf-8") == write_compiled(
            compile_board(tile_grid(2, 2)), name
        )


def test_an_unknown_format_is_one_line_naming_the_known_ones(tmp_path: Path) -> None:
    compiled = compile_board(tile_grid(1, 1))
    with pytest.raises(UsageError, match="one of node-link, graphml, geojson, tmj, tts, svg, png"):
        write_export(compiled, "obj", tmp_path / "x.obj")
    with pytest.raises(UsageError, match="one of node-link, graphml, geojson"):
        write_compiled(compiled, "tmj")


def test_a_picture_name_for_another_format_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = str(ROOT / "projects" / "ringgeister")
    rc = main(["export", project, "--to", "tts", "-o", str(tmp_path / "board.png")])
    err = capsys.readouterr().err
    assert rc == 2 and len(err.strip().splitlines()) == 1
    assert "a .png name for a tts export" in err and not (tmp_path / "board.png").exists()
    rc = main(["export", project, "--to", "node-link", "-o", str(tmp_path / "g.json"), "--json"])
    assert rc == 0
    assert json.loads(capsys.readouterr().out)["files"] == [str(tmp_path / "g.json")]
