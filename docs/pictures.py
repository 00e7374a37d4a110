"""Make the documentation's pictures from the real programs.

``python docs/pictures.py [OUT_DIR]`` writes, into OUT_DIR (default: this folder):

- ``editor.png``: the editor on the default board, by ``boardwright --screenshot``
  (offscreen: no display needed);
- ``ringgeister.svg`` and ``ringgeister.png``: the default board as ``referee render``
  draws it;
- ``tutorials/first-board.png``: the editor on the board of the first tutorial, built
  by the Python block of ``tutorials/first-board.md`` itself.

The README shows both; ``tests/docs/test_pictures.py`` runs this script into a
temporary folder, so a change that breaks either program breaks the test.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
BOARD = HERE.parent / "projects" / "ringgeister"
EDITOR_SIZE = "1400x900"
TUTORIAL = HERE / "tutorials" / "first-board.md"
TUTORIAL_SIZE = "900x700"


def _tool(name: str) -> str:
    """The console script installed beside this Python (the virtual environment's)."""
    return str(Path(sys.executable).with_name(name))


def make_pictures(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    editor = out / "editor.png"
    svg, png = out / "ringgeister.svg", out / "ringgeister.png"
    subprocess.run(
        [_tool("boardwright"), str(BOARD), "--screenshot", str(editor), "--size", EDITOR_SIZE],
        check=True,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    subprocess.run(
        [_tool("referee"), "render", str(BOARD), "-o", str(svg), "--png", str(png)],
        check=True,
        stdin=subprocess.DEVNULL,
    )
    tutorial = out / "tutorials" / "first-board.png"
    tutorial.parent.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        # the page's own script makes the board the picture shows
        (script,) = re.findall(r"```python\n(.*?)```", TUTORIAL.read_text(encoding="utf-8"), re.S)
        subprocess.run(
            [sys.executable, "-c", script], check=True, cwd=work, stdin=subprocess.DEVNULL
        )
        board = Path(work) / "my-board" / "my-board.json"
        subprocess.run(
            [
                _tool("boardwright"),
                str(board),
                "--screenshot",
                str(tutorial),
                "--size",
                TUTORIAL_SIZE,
            ],
            check=True,
            env=env,
            stdin=subprocess.DEVNULL,
        )
    return [editor, svg, png, tutorial]


if __name__ == "__main__":
    for made in make_pictures(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE):
        print(f"wrote {made}")
