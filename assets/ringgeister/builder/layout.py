"""Where everything goes: the pack's folders, the tile in each cell, the starting turns.

``python assets/ringgeister/build.py --search`` rewrites :data:`DEFAULT_TURNS` in this
file (:func:`assets.ringgeister.builder.search.save_default_turns`).
"""

from __future__ import annotations

from pathlib import Path

#: the pack's folder, assets/ringgeister
PACK_DIR = Path(__file__).resolve().parents[1]
#: the repository
ROOT = PACK_DIR.parents[1]
PROJECT_DIR = ROOT / "projects" / "ringgeister"
PACK = "ringgeister"


#: tile per cell (row, column); the corners (0, 0) and (4, 4) are the frame.
LAYOUT: dict[tuple[int, int], str] = {
    (0, 1): "oct-crossroads",
    (0, 2): "sq-straight",
    (0, 3): "oct-great-ford",
    (0, 4): "sq-bend",
    (1, 0): "oct-three-arrows",
    (1, 1): "sq-meeting",
    (1, 2): "oct-loop",
    (1, 3): "sq-crossing",
    (1, 4): "oct-lonely-tower",
    (2, 0): "sq-tee",
    (2, 1): "oct-river-bend",
    (2, 2): "sq-stone-bridge",
    (2, 3): "oct-hairpin",
    (2, 4): "sq-arrows",
    (3, 0): "oct-marsh-road",
    (3, 1): "sq-hex-bend",
    (3, 2): "oct-twin-bends",
    (3, 3): "sq-dark-gate",
    (3, 4): "oct-watchtower",
    (4, 0): "sq-bend-water",
    (4, 1): "oct-cul-de-sac",
    (4, 2): "sq-long-water",
    (4, 3): "oct-ford",
}

#: the starting turns, found by ``--search`` (see :func:`.search.search_turns`)
DEFAULT_TURNS: dict[str, int] = {
    "r0c1": 1,
    "r0c2": 1,
    "r0c3": 0,
    "r0c4": 2,
    "r1c0": 2,
    "r1c1": 1,
    "r1c2": 2,
    "r1c3": 0,
    "r1c4": 3,
    "r2c0": 1,
    "r2c1": 0,
    "r2c2": 2,
    "r2c3": 3,
    "r2c4": 0,
    "r3c0": 2,
    "r3c1": 2,
    "r3c2": 2,
    "r3c3": 1,
    "r3c4": 1,
    "r4c0": 0,
    "r4c1": 2,
    "r4c2": 0,
    "r4c3": 2,
}
