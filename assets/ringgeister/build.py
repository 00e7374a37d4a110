"""Build the Ringgeister asset pack and its default board (docs/rulings.md).

Run from the repository root::

    python assets/ringgeister/build.py            # writes tiles, pack.json, projects/ringgeister
    python assets/ringgeister/build.py --search   # also re-search the default turns

Everything the pack holds is written by this script, so the content is
reproducible and reviewable as code: 12 octagons (120 mm across flats) and 11
squares (80 mm), the two fixed frame corners (the 9 white starting points, and
the Mountain of Fire behind the spider's secret passage), the figures, the
24-card deck and the default project ``projects/ringgeister`` (SQLite file and
its JSON export, written through :mod:`referee.store`).

The frame corners are **free-standing features of the board**, not tiles: they
never turn, carry no black point, and a tile with ``turnable: false`` means "a
landscape element with a single black point" in the rulebook's words — keeping
the corners out of the tiles keeps that count honest (5 fixed tiles, 18
turnable ones) and gives their nodes short ids (``ws1``…``ws9``, ``fire-goal``).

This file is the command; the content lives in the package ``builder/`` beside it
(:mod:`assets.ringgeister.builder`, which also states the geometry conventions),
one module per kind of thing: tiles, frame, figures, layout, project, search.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from assets.ringgeister.builder.figures import place_figures  # noqa: E402
from assets.ringgeister.builder.frame import frame  # noqa: E402
from assets.ringgeister.builder.layout import DEFAULT_TURNS, PROJECT_DIR  # noqa: E402
from assets.ringgeister.builder.octagons import octagons  # noqa: E402
from assets.ringgeister.builder.project import make_board, write_pack, write_project  # noqa: E402
from assets.ringgeister.builder.search import save_default_turns, search_turns  # noqa: E402
from assets.ringgeister.builder.squares import squares  # noqa: E402

__all__ = ["DEFAULT_TURNS", "frame", "main", "make_board", "octagons", "place_figures", "squares"]


def main(argv: list[str] | None = None) -> int:
    """Write the pack and the project; with ``--search``, search the turns first."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--search", action="store_true", help="search the default turns again")
    args = ap.parse_args(argv)
    tiles = octagons() + squares()
    fr = frame()
    pack = write_pack(tiles)
    turns = dict(DEFAULT_TURNS)
    if args.search or not turns:
        turns = search_turns(make_board(pack, fr, {}))
        written = save_default_turns(turns)
        print(f"DEFAULT_TURNS = {turns}\n(written into {written.name})", file=sys.stderr)
    board = make_board(pack, fr, turns)
    place_figures(board)
    write_project(board)
    print(
        f"wrote {len(tiles)} tiles, pack.json and {PROJECT_DIR.relative_to(ROOT)}", file=sys.stderr
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
