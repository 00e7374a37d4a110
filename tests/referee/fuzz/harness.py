"""Running the CLI on hostile input, and checking that it refused cleanly."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


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


def check_refusal(
    rc: int,
    out: str,
    err: str,
    where: Path,
    before: dict[str, bytes | None],
    folder: Path,
    outputs: set[str],
) -> None:
    """A clean refusal: exit 1 or 2, one line naming ``where``, ``folder`` untouched.

    Nothing in ``folder`` changed since ``before`` and nothing new appeared there but
    the file names in ``outputs``.
    """
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
