"""Build the Adventure to Mount Doom board project (``mount-doom.bwproj`` + JSON export).

Run from the repository root::

    python projects/mount-doom/make_board.py

The board is free-standing features (no tiles), all of them tracks with ordered points:

- ``route``: Rivendell, then six stages, each ending on its stage goal (Lothlórien,
  Rohan, Helm's Deep, Gondor, Minas Morgul, Mount Doom). Points carry ``index``
  (0 = Rivendell), ``stage`` (the stage a space belongs to, 1..6), ``stage_goal``
  and ``name`` on goals, ``event`` = ``dark_heart`` | ``nazgul`` on event spaces and
  ``event`` = ``start`` on Rivendell. The last stage (Minas Morgul → Mount Doom)
  has no event spaces.
- ``to_rally``: Minas Morgul → the rally space (companions who would pass Minas Morgul).
- ``resolve``: the resolve track, bright end first; props ``role`` = ``bright_end``,
  ``dark_end``, ``ring_start`` (the ring symbol) and ``sauron_eye``.
- ``isengard``: the leader's space, then five warrior spaces.
- ``nazgul_spaces``: the Witch-king's space at Minas Morgul, then eight Nazgûl spaces.
- ``encounter_row``: die positions 1..6; ``symbol`` is what shows when the position
  is empty (``nazgul`` or a companion id).

The Gandalf token's space at Helm's Deep and the Treebeard token's space at Isengard
are labels (tokens are state, not places a figure stands on).
"""

from __future__ import annotations

import sys
from pathlib import Path

from shapely.geometry import LineString, Point

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from referee.assets import load_pack  # noqa: E402
from referee.model import Board, Feature, PieceOnBoard  # noqa: E402
from referee.store import export_json, save_project  # noqa: E402

#: stage goals by route index (0 is Rivendell)
GOALS = {
    7: "Lothlórien",
    14: "Rohan",
    21: "Helm's Deep",
    28: "Gondor",
    35: "Minas Morgul",
    41: "Mount Doom",
}
DARK_HEART = {3, 10, 17, 24, 31}
NAZGUL = {5, 19, 26}
ROUTE_LEN = 42
PER_ROW = 14
PITCH = 40.0
ROW_SYMBOLS = {1: "nazgul", 2: "merry-pippin", 3: "legolas", 4: "gimli", 5: "aragorn", 6: "nazgul"}
RESOLVE_LEN = 13
RING_START = 4
SAURON_EYE = 8


def route_xy(i: int) -> tuple[float, float]:
    row, col = divmod(i, PER_ROW)
    if row % 2:
        col = PER_ROW - 1 - col
    return 40.0 + col * PITCH, 60.0 + row * 60.0


def track(fid: str, name: str, pts: list[tuple[str, tuple[float, float]]]) -> Feature:
    return Feature(
        fid,
        "track",
        LineString([xy for _, xy in pts]),
        {"name": name, "points": [p for p, _ in pts]},
    )


def build() -> Board:
    feats: list[Feature] = []
    route = []
    stage = 1
    for i in range(ROUTE_LEN):
        props: dict[str, object] = {"index": i, "stage": 0 if i == 0 else stage}
        if i == 0:
            props.update(name="Rivendell", event="start")
        if i in GOALS:
            props.update(name=GOALS[i], stage_goal=True)
            stage += 1
        if i in DARK_HEART:
            props["event"] = "dark_heart"
        if i in NAZGUL:
            props["event"] = "nazgul"
        pid = f"r{i:02d}"
        xy = route_xy(i)
        feats.append(Feature(pid, "point", Point(xy), props))
        route.append((pid, xy))
    feats.append(track("route", "Rivendell to Mount Doom", route))

    mm = next(i for i, n in GOALS.items() if n == "Minas Morgul")
    mm_xy = route_xy(mm)
    rally_xy = (mm_xy[0] - 20.0, mm_xy[1] - 25.0)
    feats.append(
        Feature("rally", "point", Point(rally_xy), {"name": "rally space", "event": "rally"})
    )
    feats.append(
        track(
            "to_rally",
            "rally space beside Minas Morgul",
            [(f"r{mm:02d}", mm_xy), ("rally", rally_xy)],
        )
    )

    res = []
    for k in range(RESOLVE_LEN):
        role = {
            0: "bright_end",
            RESOLVE_LEN - 1: "dark_end",
            RING_START: "ring_start",
            SAURON_EYE: "sauron_eye",
        }.get(k)
        props = {"index": k, **({"role": role} if role else {})}
        xy = (620.0, 40.0 + k * 24.0)
        feats.append(Feature(f"resolve{k:02d}", "point", Point(xy), props))
        res.append((f"resolve{k:02d}", xy))
    feats.append(track("resolve", "resolve track (bright heart to dark heart)", res))

    ise = []
    for k in range(6):
        xy = (80.0 + k * 22.0, 330.0)
        feats.append(
            Feature(
                f"isengard{k}",
                "point",
                Point(xy),
                {
                    "index": k,
                    "name": "Isengard",
                    "role": "uruk_hai_leader" if k == 0 else "uruk_hai",
                },
            )
        )
        ise.append((f"isengard{k}", xy))
    feats.append(track("isengard", "Isengard's Uruk-hai spaces", ise))

    naz = []
    for k in range(9):
        xy = (300.0 + k * 22.0, 330.0)
        feats.append(
            Feature(
                f"morgul{k}",
                "point",
                Point(xy),
                {"index": k, "name": "Minas Morgul", "role": "witch_king" if k == 0 else "nazgul"},
            )
        )
        naz.append((f"morgul{k}", xy))
    feats.append(track("nazgul_spaces", "Minas Morgul's nine Nazgûl spaces", naz))

    row = []
    for k in range(1, 7):
        xy = (120.0 + (k - 1) * 70.0, 400.0)
        feats.append(
            Feature(
                f"row{k}",
                "point",
                Point(xy),
                {"index": k, "name": f"encounter {k}", "symbol": ROW_SYMBOLS[k]},
            )
        )
        row.append((f"row{k}", xy))
    feats.append(track("encounter_row", "encounter row (die numbers 1 to 6)", row))

    hd = route_xy(next(i for i, n in GOALS.items() if n == "Helm's Deep"))
    feats.append(
        Feature(
            "gandalf_token_space",
            "label",
            # above Helm's Deep (below it stand its name and the rally space's); 8 mm
            # reads as >= 11 px on the browser table at 1400 x 900 (its label test)
            Point(hd[0], hd[1] - 14.0),
            {"text": "Gandalf token (Balrog)", "size": 8.0},
        )
    )
    feats.append(
        Feature(
            "treebeard_token_space",
            "label",
            Point(80.0, 345.0),
            {"text": "Treebeard token", "size": 8.0},
        )
    )

    board = Board(
        meta={
            "name": "Adventure to Mount Doom",
            "rules": "mount-doom",
            "width": 660.0,
            "height": 430.0,
            "description": "Generated by projects/mount-doom/make_board.py",
            "settings": {},
        },
        features=feats,
    )
    load_pack(HERE.parent.parent / "assets" / "mount-doom").embed_into(board)
    pieces = [
        PieceOnBoard(c, f"mount-doom/{c}", "r00")
        for c in ("ringbearer", "aragorn", "legolas", "gimli", "merry-pippin")
    ]
    pieces.append(PieceOnBoard("uruk-hai-leader", "mount-doom/uruk-hai-leader", "isengard0"))
    pieces.append(PieceOnBoard("witch-king", "mount-doom/witch-king", "morgul0"))
    pieces.append(PieceOnBoard("one-ring", "mount-doom/one-ring", f"resolve{RING_START:02d}"))
    board.pieces = pieces
    board.validate()
    return board


def main() -> None:
    board = build()
    save_project(board, HERE / "mount-doom.bwproj")
    export_json(board, HERE / "mount-doom.json")
    print(f"wrote {HERE / 'mount-doom.bwproj'} and mount-doom.json", file=sys.stderr)


if __name__ == "__main__":
    main()
