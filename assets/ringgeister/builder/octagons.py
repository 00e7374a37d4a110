"""The 12 octagonal tiles (120 mm across flats): 10 that turn and 2 fixed ones."""

from __future__ import annotations

import math

from .shapes import arc, join, oct_arc
from .tile import TileBuilder


def octagons() -> list[TileBuilder]:
    out: list[TileBuilder] = []

    # 1 -- crossroads: the one four-way crossing among the octagons
    t = TileBuilder(
        "oct-crossroads",
        "Crossroads of the Barrow Wights",
        "octagon",
        description="four roads meet at a crossing; a door of the moon on the east road",
    )
    t.junction(0, 0)
    n = t.path([(0, -60), (0, 0)])
    e = t.path([(60, 0), (0, 0)])
    s = t.path([(0, 60), (0, 0)])
    w = t.path(join([(-60, 0)], arc(-34, 0, 16, 180, 0, step=10), [(0, 0)]))
    t.point(n, 16, "black", start="black", heading="fwd", wind="E", rock=-1)
    t.point(n, 40, wind="W")
    t.point(e, 14, wind="N")
    t.door(e, 34, "moon")
    t.point(e, 46, magic=True)
    t.point(s, 18, "black", heading="back", wind="W")
    t.point(s, 42, wind="E")
    b1 = t.point(w, 10, wind="S")
    b2 = t.point(w, 10 + 8 * math.pi)
    b3 = t.point(w, 10 + 16 * math.pi, wind="N")
    t.counter(-34, 0, [b1, b2, b3])
    t.forest(34, -34, 16, 12, 1)
    t.forest(-30, 34, 14, 12, 2)
    t.mountains(-32, -30, 26, 3)
    out.append(t)

    # 2 -- a straight road with a cul-de-sac behind a fork of three arrows
    t = TileBuilder(
        "oct-cul-de-sac",
        "The Old Road and the Hermit's Cave",
        "octagon",
        description="a straight road; a fork with three arrows leads into a cave",
    )
    ns = t.path([(0, -60), (0, 60)])
    t.junction(0, 0, forced_right=True)
    sp = t.path([(0, 0), (40, 0)])
    t.point(ns, 16, wind="W")
    t.point(ns, 38, "black", start="black", heading="fwd", wind="E", rock=1)
    t.point(ns, 82, magic=True, wind="W")
    t.point(ns, 104, "black", heading="back", wind="E")
    t.point(sp, 20)
    t.point(sp, 40, wind="E")
    t.mountains(34, -30, 30, 4)
    t.mountains(30, 32, 26, 5)
    t.forest(-32, -12, 12, 22, 6)
    out.append(t)

    # 3 -- twin bends (land)
    t = TileBuilder(
        "oct-twin-bends",
        "The Twin Bends of the Hollow Hills",
        "octagon",
        description="two roads bend past each other and never meet",
    )
    ne = t.path(oct_arc("NE"))
    sw = t.path(oct_arc("SW"))
    t.point(ne, 16, wind="N")
    t.point(ne, 47, "black", start="black", heading="fwd", wind="E", rock=1)
    t.point(ne, 78, magic=True)
    t.point(sw, 18, "black", heading="fwd", wind="S")
    t.door(sw, 47, "star")
    t.point(sw, 66, wind="W")
    t.point(sw, 84)
    t.forest(-30, -30, 16, 14, 7)
    t.forest(34, 30, 14, 14, 8)
    out.append(t)

    # 4 -- a T with a fork of three arrows and a counter space
    t = TileBuilder(
        "oct-three-arrows",
        "The Fork of Three Arrows",
        "octagon",
        description="west, east and south roads meet at a fork with three arrows",
    )
    t.junction(0, 0, forced_right=True)
    w = t.path([(-60, 0), (0, 0)])
    e = t.path([(0, 0), (60, 0)])
    s = t.path([(0, 0), (0, 22), *arc(0, 36, 14, 270, 90, step=10)[1:], (0, 60)])
    t.point(w, 14, wind="N")
    t.point(w, 36, "black", start="black", heading="fwd", wind="S", rock=1)
    t.point(e, 22, "black", heading="back", wind="S")
    t.point(e, 44, magic=True)
    a1 = t.point(s, 22)
    a2 = t.point(s, 22 + math.pi * 7, wind="E")
    a3 = t.point(s, 22 + math.pi * 14)
    t.counter(0, 36, [a1, a2, a3])
    t.mountains(-30, -30, 30, 9)
    t.forest(30, -30, 16, 13, 10)
    out.append(t)

    # 5 -- a bend, and a tower at the end of a blind road
    t = TileBuilder(
        "oct-lonely-tower",
        "The Lonely Tower",
        "octagon",
        description="a bend round a counter space; the south road ends at a tower",
    )
    ne = t.path(oct_arc("NE"))
    s = t.path([(0, 60), (0, 12)])
    a1 = t.point(ne, 22, wind="W")
    a2 = t.point(ne, 47, magic=True)
    a3 = t.point(ne, 72, wind="S")
    t.counter(33, -33, [a1, a2, a3])
    t.point(s, 18, "black", start="black", heading="back", wind="E", rock=1)
    t.door(s, 33, "moon")
    t.point(s, 48, "black", heading="back", wind="W", name="the tower")
    t.forest(-30, -28, 18, 16, 11)
    t.mountains(-28, 30, 26, 12)
    out.append(t)

    # 6 -- a river bend and a road bend
    t = TileBuilder(
        "oct-river-bend",
        "Where the Road Leaves the River",
        "octagon",
        description="a waterway bends from north to east; a road from south to west",
    )
    ne = t.path(oct_arc("NE"), medium="water")
    sw = t.path(oct_arc("SW"))
    r1 = t.point(ne, 22)
    r2 = t.point(ne, 47, wind="E")
    r3 = t.point(ne, 72)
    t.counter(33, -33, [r1, r2, r3])
    t.point(sw, 20, "black", heading="fwd", wind="S")
    t.point(sw, 47, "black", start="black", heading="back", wind="N", rock=-1)
    t.point(sw, 74, magic=True, wind="W")
    t.water(40, -14, 8, 10, 13)
    t.forest(-32, -30, 14, 14, 14)
    t.mountains(32, 30, 28, 15)
    out.append(t)

    # 7 -- a road through a loop round a counter space (only W and E)
    t = TileBuilder(
        "oct-loop",
        "The Ring of Stones",
        "octagon",
        description="the road from west to east divides round a ring of stones",
    )
    t.junction(-25, 0)
    t.junction(25, 0, forced_right=True)
    w = t.path([(-60, 0), (-25, 0)])
    top = t.path(arc(0, 0, 25, 180, 360))
    mid = t.path([(-25, 0), (25, 0)])
    e = t.path([(25, 0), (60, 0)])
    t.point(w, 16, "black", start="black", heading="fwd", wind="N", rock=1)
    a1 = t.point(top, 25 * math.pi / 4)
    t.point(top, 25 * math.pi / 2, wind="N")
    a3 = t.point(top, 25 * math.pi * 3 / 4)
    a2 = t.point(mid, 25, magic=True)
    t.counter(0, -11, [a1, a2, a3])
    t.point(e, 17, "black", heading="back", wind="S")
    t.forest(0, 36, 28, 13, 16)
    t.mountains(-34, -34, 22, 17)
    t.mountains(30, -40, 22, 18)
    out.append(t)

    # 8 -- a Y with a waterway
    t = TileBuilder(
        "oct-watchtower",
        "The Watchtower on the Water",
        "octagon",
        description="roads from north and east meet; the waterway runs south",
    )
    t.junction(0, 0)
    n = t.path([(0, -60), (0, 0)])
    e = t.path([(60, 0), (0, 0)])
    s = t.path([(0, 0), (0, 60)], medium="water")
    t.door(n, 8, "star")
    t.point(n, 20, wind="W")
    t.point(n, 42, "black", start="black", heading="fwd", wind="E", rock=-1)
    t.point(e, 20, "black", heading="fwd", wind="N")
    t.point(e, 44, magic=True)
    t.point(s, 24)
    t.point(s, 46, wind="E")
    t.water(-30, 28, 16, 18, 19)
    t.forest(30, -30, 15, 15, 20)
    out.append(t)

    # 9 -- a hairpin road and a blind road from the north
    t = TileBuilder(
        "oct-hairpin",
        "The Hairpin Pass",
        "octagon",
        description="a long winding pass from south to east; a blind road from north",
    )
    hp = t.path([(0, 60), (0, 30), (-30, 12), (-30, -18), (-4, -32), (24, -20), (30, 0), (60, 0)])
    n = t.path([(0, -60), (0, -46)])
    t.point(hp, 14, wind="W")
    t.point(hp, 36, "black", start="black", heading="back", wind="E", rock=1)
    h1 = t.point(hp, 60, magic=True)
    h2 = t.point(hp, 82, wind="S")
    h3 = t.point(hp, 104)
    t.counter(-16, -3, [h1, h2, h3])
    t.point(hp, 126, "black", heading="fwd", wind="N")
    t.point(hp, -14, wind="S")
    t.point(hp, 158)
    t.point(n, 14, "black", heading="back", wind="W")
    t.mountains(12, -2, 22, 21)
    t.mountains(30, 30, 24, 22)
    t.forest(-34, 36, 12, 12, 23)
    out.append(t)

    # 10 -- a ford: fork of three arrows where the east arm is a waterway
    t = TileBuilder(
        "oct-ford",
        "The Ford of the Reeds",
        "octagon",
        description="a fork with three arrows; the east arm is a waterway",
    )
    t.junction(0, 0, forced_right=True)
    n = t.path([(0, -60), (0, 0)])
    w = t.path([(-60, 0), (0, 0)])
    e = t.path([(0, 0), (60, 0)], medium="water")
    t.point(n, 14, "black", heading="fwd", wind="E")
    t.point(n, 36, wind="W")
    t.point(w, 20, "black", start="black", heading="fwd", wind="S", rock=1)
    t.point(w, 42, magic=True)
    t.point(e, 22)
    t.point(e, 44, wind="N")
    t.door(e, 33, "moon")
    t.water(30, 26, 22, 14, 24)
    t.forest(-30, -30, 15, 15, 25)
    t.forest(-26, 34, 14, 12, 26)
    out.append(t)

    # 11 -- fixed: a crossing of a road and a waterway (one black point, no rock)
    t = TileBuilder(
        "oct-great-ford",
        "The Great Ford",
        "octagon",
        turnable=False,
        description="never turns: a road crosses a waterway",
    )
    t.junction(0, 0)
    n = t.path(join([(0, -60)], arc(0, -34, 16, 270, 90, step=10), [(0, 0)]))
    s = t.path([(0, 0), (0, 60)])
    w = t.path([(-60, 0), (0, 0)], medium="water")
    e = t.path([(0, 0), (60, 0)], medium="water")
    g1 = t.point(n, 10, wind="E")
    g2 = t.point(n, 10 + 8 * math.pi)
    g3 = t.point(n, 10 + 16 * math.pi, wind="W")
    t.counter(0, -34, [g1, g2, g3])
    t.point(s, 24, "black", heading="fwd", wind="W")
    t.point(s, 46, magic=True)
    t.point(w, 22, wind="S")
    t.point(e, 24)
    t.point(e, 44, wind="N")
    t.door(s, 12, "star")
    t.water(-32, 28, 16, 14, 27)
    t.water(30, -30, 14, 13, 28)
    t.forest(30, 32, 14, 12, 29)
    out.append(t)

    # 12 -- fixed: a T through the marshes (one black point, no rock)
    t = TileBuilder(
        "oct-marsh-road",
        "The Marsh Road",
        "octagon",
        turnable=False,
        description="never turns: roads from north, east and west meet in the marsh",
    )
    t.junction(0, 8)
    w = t.path([(-60, 0), (-30, 0), (0, 8)])
    e = t.path([(0, 8), (30, 0), (60, 0)])
    n = t.path(join([(0, -60)], arc(0, -34, 16, -90, 90, step=10), [(0, 8)]))
    t.point(w, 16, wind="N")
    t.point(w, 40, magic=True)
    t.point(e, 22, wind="S")
    t.point(e, 46, "black", heading="fwd", wind="W")
    m1 = t.point(n, 10)
    m2 = t.point(n, 10 + 8 * math.pi, wind="E")
    m3 = t.point(n, 10 + 16 * math.pi)
    t.counter(0, -34, [m1, m2, m3])
    t.door(n, 10 + 16 * math.pi + 14, "moon")
    t.water(0, 36, 26, 12, 30)
    t.forest(-30, -32, 14, 13, 31)
    t.forest(32, -30, 13, 14, 32)
    out.append(t)
    return out
