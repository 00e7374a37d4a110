"""The frame: the free-standing corners (white starts, Mountain of Fire) and border roads.

The corners are features of the board, not tiles (see :mod:`assets.ringgeister.builder`).
"""

from __future__ import annotations

from shapely.geometry import Point

from .tile import TileBuilder


def frame() -> TileBuilder:
    """The free-standing frame: the white starting corner and the Mountain of Fire."""
    f = TileBuilder("frame", "Frame", None)
    # -- top-left: the nine white starting points round the Shire's green
    f.art("shire", [(60, 60), (140, 60), (140, 140), (60, 140)], label="The Shire")
    f.add("ws-portE", "port", Point(140, 100), {"side": "E"})
    f.add("ws-portS", "port", Point(100, 140), {"side": "S"})
    for fid, coords in (
        ("ws-l1", [(75, 75), (125, 75)]),
        ("ws-l2", [(125, 75), (125, 125)]),
        ("ws-l3", [(125, 125), (75, 125)]),
        ("ws-l4", [(75, 125), (75, 75)]),
        ("ws-l5", [(100, 75), (100, 140)]),
        ("ws-l6", [(75, 100), (140, 100)]),
    ):
        f.path(coords, fid=fid)
    k = 0
    for y in (75, 100, 125):
        for x in (75, 100, 125):
            k += 1
            f.add(f"ws{k}", "point", Point(x, y), {"colour": "grey", "start": "white"})
    # -- bottom-right: the Mountain of Fire behind the spider's secret passage
    f.art("fire", [(460, 460), (540, 460), (540, 540), (460, 540)], label="Mountain of Fire")
    f.art(
        "volcano",
        [
            (470, 540),
            (496, 514),
            (508, 506),
            (514, 509),
            (521, 505),
            (532, 512),
            (540, 522),
            (540, 540),
        ],
    )
    f.art(
        "lava",
        [
            (509, 507),
            (513, 516),
            (511, 526),
            (516, 540),
            (521, 540),
            (518, 526),
            (520, 515),
            (519, 506),
        ],
    )
    f.add("fire-portN", "port", Point(500, 460), {"side": "N"})
    f.add("fire-portW", "port", Point(460, 500), {"side": "W"})
    f.path([(500, 460), (500, 500)], fid="fire-l1")
    f.path([(460, 500), (500, 500)], fid="fire-l2")
    f.path([(500, 500), (511, 511), (522, 522)], guard="spider", fid="fire-spider")
    f.add("fire1", "point", Point(500, 477), {"colour": "grey", "wind": "W"})
    f.add("fire2", "point", Point(477, 500), {"colour": "grey", "wind": "N"})
    f.add("fire3", "point", Point(500, 500), {"colour": "grey", "name": "the spider's lair"})
    f.add(
        "fire-goal",
        "point",
        Point(522, 522),
        {"colour": "grey", "goal": True, "name": "the last grey point on the Mountain of Fire"},
    )
    # -- the four border roads in the frame: each joins the outer ports of two
    #    octagons, and a fork in its middle leads to the outer port of a square
    for side, (p1, p2, c1, c2, mid, sq_port, wind) in {
        "n": ((200, 40), (400, 40), (200, 20), (400, 20), (300, 20), (300, 60), "S"),
        "s": ((200, 560), (400, 560), (200, 580), (400, 580), (300, 580), (300, 540), "N"),
        "w": ((40, 200), (40, 400), (20, 200), (20, 400), (20, 300), (60, 300), "E"),
        "e": ((560, 200), (560, 400), (580, 200), (580, 400), (580, 300), (540, 300), "W"),
    }.items():
        f.add(f"border-{side}-port1", "port", Point(*p1), {})
        f.add(f"border-{side}-port2", "port", Point(*p2), {})
        f.add(f"border-{side}-port3", "port", Point(*sq_port), {})
        f.add(f"border-{side}-fork", "junction", Point(*mid), {})
        line = f.path([p1, c1, c2, p2], fid=f"border-{side}")
        spur = f.path([mid, sq_port], fid=f"border-{side}-spur")
        length = f.lines[line].length
        for k, dist in ((1, length / 2 - 62), (3, length / 2 + 62)):
            f.add(f"border-{side}{k}", "point", f.at(line, dist), {"colour": "grey"})
        f.add(f"border-{side}2", "point", f.at(spur, 19), {"colour": "grey", "wind": wind})
    f.add("title", "label", Point(100, 21), {"text": "RINGGEISTER", "size": 11.0})
    return f
