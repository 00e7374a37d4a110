"""Build the cooperative Lord of the Rings boards (``lotr-coop.bwproj`` + JSON export).

Run from the repository root::

    python projects/lotr-coop/make_board.py

One project holds the Master board and the four Scenario boards side by side, all
made of ``track`` features with ordered points:

- ``master``: Bag End, Rivendell, Moria, Lothlórien, Helm's Deep, Shelob's Lair,
  Mordor, Mount Doom. Points carry ``name``, ``location`` and either ``scenario``
  (a Scenario board is played there) or ``event`` (the id of the location's event
  text in the pack's ``events`` deck).
- ``corruption``: the Corruption line, light (index 0) to dark (15); ``role`` =
  ``sauron_start`` marks where Sauron starts.
- ``<scenario>_<activity>``: the Activity lines of each Scenario board (track props
  ``scenario``, ``activity``, ``main``). Points carry ``index`` (0 = where the
  marker starts), ``space`` (what carrying the space out does: ``shield``,
  ``shield_random``, ``life:heart|sun|ring``, ``feature:<card>``, ``light``,
  ``die``, or nothing) and, on the main (numbered) line, ``number`` (the score).
- ``<scenario>_events``: the start space above the Event boxes, then six boxes;
  ``event`` names the box's text in the pack's ``events`` deck.
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

MASTER = [
    ("bag_end", "Bag End", {"event": "bag-end"}),
    ("rivendell", "Rivendell", {"event": "rivendell"}),
    ("moria", "Moria", {"scenario": "moria"}),
    ("lothlorien", "Lothlórien", {"event": "lothlorien"}),
    ("helms_deep", "Helm's Deep", {"scenario": "helms_deep"}),
    ("shelobs_lair", "Shelob's Lair", {"scenario": "shelobs_lair"}),
    ("mordor", "Mordor", {"scenario": "mordor"}),
    ("mount_doom", "Mount Doom", {"final": True}),
]

# Activity lines: index 0 is the marker's start space. Ours, after the rulebook's list
# of Activity spaces; the main line is numbered (the score if the Ring-bearer falls).
# Where the rulebook shows a space (the Moria Example of Play: Fighting 11 a shield,
# 12 a shield and 13 a Ring token; Hiding the Book, then a Ring token, then a Heart
# token) the data agrees with it and the point carries ``source: rulebook``
# (RULEBOOK_SPACES); every other space is ours (``source: ours``).
SCENARIOS: dict[str, dict[str, object]] = {
    "moria": {
        "name": "Moria",
        "main": "fighting",
        "first_number": 10,
        "lines": {
            "fighting": [
                "",
                "shield",
                "shield",
                "life:ring",
                "shield",
                "die",
                "shield_random",
                "",
                "life:heart",
                "shield",
                "die",
                "life:sun",
                "shield_random",
            ],
            "hiding": ["", "feature:book", "life:ring", "life:heart", "die", "life:sun", "shield"],
            "travelling": [
                "",
                "life:heart",
                "shield",
                "die",
                "feature:balins-axe",
                "light",
                "life:ring",
            ],
        },
    },
    "helms_deep": {
        "name": "Helm's Deep",
        "main": "fighting",
        "first_number": 22,
        "lines": {
            "fighting": [
                "",
                "shield",
                "life:heart",
                "",
                "shield",
                "die",
                "life:ring",
                "shield_random",
                "",
                "shield",
                "die",
                "life:sun",
                "shield_random",
            ],
            "friendship": [
                "",
                "life:sun",
                "feature:athelas",
                "light",
                "die",
                "life:ring",
                "shield",
            ],
            "travelling": ["", "life:heart", "shield", "feature:horn-of-helm", "die", "light"],
        },
    },
    "shelobs_lair": {
        "name": "Shelob's Lair",
        "main": "hiding",
        "first_number": 34,
        "lines": {
            "hiding": [
                "",
                "shield",
                "life:ring",
                "",
                "die",
                "shield",
                "feature:phial",
                "shield_random",
                "life:heart",
                "",
                "die",
                "life:sun",
                "shield_random",
            ],
            "travelling": ["", "life:heart", "shield", "die", "life:sun", "light", "life:ring"],
            "friendship": ["", "feature:waybread", "light", "die", "life:ring", "shield"],
        },
    },
    "mordor": {
        "name": "Mordor",
        "main": "travelling",
        "first_number": 46,
        "lines": {
            "travelling": [
                "",
                "shield",
                "life:heart",
                "",
                "die",
                "shield",
                "life:ring",
                "shield_random",
                "",
                "die",
                "life:sun",
                "shield",
                "",
                "die",
                "shield_random",
            ],
            "hiding": ["", "feature:orc-armour", "life:ring", "die", "light", "life:sun"],
            "fighting": ["", "life:heart", "shield", "die", "shield_random", "life:ring"],
            "friendship": ["", "feature:elven-rope", "light", "die", "life:sun", "life:heart"],
        },
    },
}
RULEBOOK_SPACES: dict[tuple[str, str], set[int]] = {
    ("moria", "fighting"): {1, 2, 3},
    ("moria", "hiding"): {1, 2, 3},
}
ORIGINS = {
    "moria": (20.0, 120.0),
    "helms_deep": (340.0, 120.0),
    "shelobs_lair": (20.0, 330.0),
    "mordor": (340.0, 330.0),
}
STEP = 21.0


def track(
    fid: str,
    props: dict[str, object],
    pts: list[tuple[str, tuple[float, float]]],
) -> Feature:
    return Feature(
        fid, "track", LineString([xy for _, xy in pts]), {**props, "points": [p for p, _ in pts]}
    )


def build() -> Board:
    feats: list[Feature] = []
    master = []
    for k, (pid, name, extra) in enumerate(MASTER):
        xy = (40.0 + k * 75.0, 30.0)
        feats.append(
            Feature(pid, "point", Point(xy), {"index": k, "name": name, "location": pid, **extra})
        )
        master.append((pid, xy))
    feats.append(track("master", {"name": "Master board: the journey"}, master))

    corr = []
    for k in range(16):
        xy = (40.0 + k * 36.0, 75.0)
        props: dict[str, object] = {"index": k}
        if k == 15:
            props["role"] = "sauron_start"
        feats.append(Feature(f"corruption{k:02d}", "point", Point(xy), props))
        corr.append((f"corruption{k:02d}", xy))
    feats.append(track("corruption", {"name": "Corruption line (light to dark)"}, corr))

    for sc, spec in SCENARIOS.items():
        ox, oy = ORIGINS[sc]
        lines = spec["lines"]
        assert isinstance(lines, dict)
        for row, (act, spaces) in enumerate(lines.items()):
            main = act == spec["main"]
            pts = []
            for k, space in enumerate(spaces):
                xy = (ox + k * STEP, oy + row * 30.0)
                pid = f"{sc}_{act}{k:02d}"
                props = {"index": k}
                if space:
                    props["space"] = space
                    shown = k in RULEBOOK_SPACES.get((sc, act), set())
                    props["source"] = "rulebook" if shown else "ours"
                if main:
                    props["number"] = int(spec["first_number"]) + k  # type: ignore[call-overload]
                feats.append(Feature(pid, "point", Point(xy), props))
                pts.append((pid, xy))
            feats.append(
                track(
                    f"{sc}_{act}",
                    {
                        "name": f"{spec['name']}: {act}",
                        "scenario": sc,
                        "activity": act,
                        "main": main,
                    },
                    pts,
                )
            )
        ev = []
        for k in range(7):
            xy = (ox + 290.0, oy - 10.0 + k * 24.0)
            pid = f"{sc}_event{k}"
            props = {"index": k, "name": "start" if k == 0 else f"event box {k}"}
            if k:
                props["event"] = f"{sc}-{k}"
            feats.append(Feature(pid, "point", Point(xy), props))
            ev.append((pid, xy))
        feats.append(
            track(f"{sc}_events", {"name": f"{spec['name']}: event line", "scenario": sc}, ev)
        )
    board = Board(
        meta={
            "name": "The Lord of the Rings (cooperative)",
            "rules": "lotr-coop",
            "width": 680.0,
            "height": 520.0,
            "description": "Generated by projects/lotr-coop/make_board.py",
            "settings": {},
        },
        features=feats,
    )
    load_pack(HERE.parent.parent / "assets" / "lotr-coop").embed_into(board)
    board.pieces = [
        PieceOnBoard("sauron", "lotr-coop/sauron", "corruption15"),
        PieceOnBoard("journey", "lotr-coop/marker", "bag_end"),
    ]
    board.validate()
    return board


def main() -> None:
    board = build()
    save_project(board, HERE / "lotr-coop.bwproj")
    export_json(board, HERE / "lotr-coop.json")
    print(f"wrote {HERE / 'lotr-coop.bwproj'} and lotr-coop.json", file=sys.stderr)


if __name__ == "__main__":
    main()
