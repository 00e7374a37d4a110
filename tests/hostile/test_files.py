"""Issue 25, finding 3 and the file half of 6: every file the CLI reads is opened
only if it is a regular file, and read no further than its limit — counted on the
bytes read, not on what ``stat`` says. A FIFO (which hung ``image add``,
``render``, ``trace``), and a link to ``/dev/zero`` (read without end) are
refused at once with one line naming the file as given, whatever verb reads it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MD = ROOT / "projects" / "mount-doom" / "mount-doom.bwproj"


def fifo(p: Path) -> None:
    os.mkfifo(p)


def dev_zero(p: Path) -> None:
    p.symlink_to("/dev/zero")


KINDS: dict[str, Callable[[Path], None]] = {"fifo": fifo, "dev-zero": dev_zero}

#: verbs and where the hostile file goes (``BAD``), ``MD`` a good project
VERBS = {
    "check project": ["check", "BAD.bwproj"],
    "compile project": ["compile", "BAD.bwproj"],
    "render project": ["render", "BAD.json", "-o", "OUT/out.svg"],
    "new project": ["new", "mount-doom", "BAD.bwproj", "--players", "2"],
    "new position": ["new", "mount-doom", "MD", "--position", "BAD.json"],
    "moves state": ["moves", "BAD.json"],
    "replay state": ["replay", "BAD.json"],
    "position state": ["position", "BAD.json"],
    "perft fixtures": ["perft", "MD", "BAD.perft"],
    "image add": ["image", "add", "COPY", "BAD.png"],
    "import tmj": ["import", "tmj", "BAD.tmj", "-o", "OUT/i.bwproj"],
    "trace": ["trace", "BAD.png", "--scale", "1", "-o", "OUT/t.bwproj"],
    "diff": ["diff", "MD", "BAD.bwproj"],
}


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("verb", sorted(VERBS))
def test_a_file_that_is_not_regular_is_refused_at_once(
    tmp_path: Path, verb: str, kind: str
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    copy = tmp_path / "copy.bwproj"
    shutil.copy(MD, copy)
    argv = []
    bad: Path | None = None
    for a in VERBS[verb]:
        if a.startswith("BAD"):
            bad = tmp_path / ("bad" + a[3:])
            KINDS[kind](bad)
            a = str(bad)
        a = {"MD": str(MD), "COPY": str(copy)}.get(a, a.replace("OUT/", f"{out}/"))
        argv.append(a)
    assert bad is not None
    before = copy.read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "referee", *argv], capture_output=True, text=True, timeout=60
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode in (1, 2), (done.returncode, done.stderr[-500:])
    assert len(lines) == 1 and bad.name in lines[0], done.stderr[-500:]
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert copy.read_bytes() == before
    assert list(out.iterdir()) == []
