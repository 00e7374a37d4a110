"""The documentation's pictures are made by a script from the real programs
(``python docs/pictures.py``): the editor's ``--screenshot`` and ``referee render``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]


def test_the_pictures_script_makes_the_readmes_pictures(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(ROOT / "docs" / "pictures.py"), str(tmp_path)],
        check=True,
        stdin=subprocess.DEVNULL,
        capture_output=True,
    )
    with Image.open(tmp_path / "editor.png") as editor:
        assert editor.size == (1400, 900)
    with Image.open(tmp_path / "ringgeister.png") as board:
        assert board.size[0] == board.size[1] > 500  # the 600 × 600 mm board, square
    assert (tmp_path / "ringgeister.svg").read_text(encoding="utf-8").lstrip().startswith("<")
    # the committed pictures are the ones the README shows, made the same way
    with Image.open(tmp_path / "tutorials" / "first-board.png") as tutorial:
        assert tutorial.size == (900, 700)
    for name in ("editor.png", "ringgeister.png", "tutorials/first-board.png"):
        with Image.open(ROOT / "docs" / name) as committed, Image.open(tmp_path / name) as made:
            assert committed.size == made.size, name
