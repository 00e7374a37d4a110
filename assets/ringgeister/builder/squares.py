"""The 11 square tiles (80 mm): 8 that turn and 3 fixed ones."""

from __future__ import annotations

import math

from .shapes import sq_arc
from .tile import TileBuilder


def squares() -> list[TileBuilder]:
    out: list[TileBuilder] = []

    # straight roads
    t = TileBuilder(
        "sq-straight",
        "The Straight Road",
        "square",
        description="a straight road from north to south",
    )
    ns = t.path([(0, -40), (0, 40)])
    t.point(ns, 14, "black", start="black", heading="fwd", wind="E", rock=1)
    t.point(ns, 40, magic=True, wind="W")
    t.point(ns, 66, "black", heading="back", wind="E")
    t.forest(-24, -8, 9, 20, 40)
    t.mountains(24, 18, 18, 41)
    out.append(t)

    t = TileBuilder(
        "sq-long-water",
        "The Long Water",
        "square",
        description="a waterway beside a road, both north to south",
    )
    ns = t.path([(0, -40), (0, 40)])
    t.point(ns, 12, "black", heading="fwd", wind="W")
    t.door(ns, 26, "star")
    t.point(ns, 40, wind="E")
    t.point(ns, 66, "black", start="black", heading="back", wind="W", rock=-1)
    t.water(22, 0, 9, 26, 42)
    t.forest(-22, 20, 9, 12, 43)
    out.append(t)

    # bends
    t = TileBuilder(
        "sq-bend",
        "The Bend under the Hill",
        "square",
        description="a road bends from north to east",
    )
    b = t.path(sq_arc("NE"))
    t.point(b, 13, "black", start="black", heading="fwd", wind="S", rock=1)
    t.point(b, 31.4, wind="W")
    t.point(b, 50, "black", heading="back", wind="N")
    t.mountains(-18, 18, 26, 44)
    out.append(t)

    t = TileBuilder(
        "sq-bend-water",
        "The Reedy Bend",
        "square",
        description="a road bends from north to east; a waterway from south to west",
    )
    b = t.path(sq_arc("NE"))
    r = t.path(sq_arc("SW"), medium="water")
    t.point(b, 16, "black", heading="fwd", wind="E")
    t.point(b, 46, "black", start="black", heading="back", wind="S", rock=1)
    t.point(r, 31.4, wind="W")
    t.water(-26, 26, 9, 9, 45)
    out.append(t)

    # T junctions
    t = TileBuilder(
        "sq-tee", "The Three Ways", "square", description="roads from north, east and south meet"
    )
    t.junction(0, 0)
    n = t.path([(0, -40), (0, 0)])
    e = t.path([(40, 0), (0, 0)])
    s = t.path([(0, 0), (0, 40)])
    t.point(n, 18, "black", start="black", heading="fwd", wind="W", rock=-1)
    t.point(e, 18, wind="N")
    t.point(s, 22, "black", heading="back", wind="E")
    t.forest(-22, 20, 10, 11, 46)
    out.append(t)

    t = TileBuilder(
        "sq-arrows",
        "The Black Arrows",
        "square",
        description="a fork with three arrows: west, east and south",
    )
    t.junction(0, 0, forced_right=True)
    w = t.path([(-40, 0), (0, 0)])
    e = t.path([(0, 0), (40, 0)])
    s = t.path([(0, 0), (0, 40)])
    t.point(w, 20, "black", start="black", heading="fwd", wind="N", rock=1)
    t.point(e, 20, wind="S", magic=True)
    t.point(s, 22, "black", heading="back", wind="W")
    t.mountains(0, -22, 30, 47)
    out.append(t)

    # crossing
    t = TileBuilder(
        "sq-crossing", "The Crossing of the Winds", "square", description="four roads cross"
    )
    t.junction(0, 0)
    arms = [t.path([xy, (0, 0)]) for xy in ((0, -40), (40, 0), (0, 40), (-40, 0))]
    t.point(arms[0], 18, "black", start="black", heading="fwd", wind="E", rock=-1)
    t.point(arms[1], 20, wind="N")
    t.point(arms[2], 18, "black", heading="fwd", wind="W")
    t.point(arms[3], 20, magic=True)
    t.forest(22, 22, 9, 9, 48)
    out.append(t)

    # a bend with a counter space
    t = TileBuilder(
        "sq-hex-bend",
        "The Council Stone",
        "square",
        description="a bend from west to south round a counter space",
    )
    b = t.path(sq_arc("NE"))
    c = t.path(sq_arc("SW"))
    t.point(b, 14, "black", start="black", heading="fwd", wind="W", rock=-1)
    t.point(b, 48, "black", heading="back", wind="S")
    a1 = t.point(c, 62.83 / 4)
    a2 = t.point(c, 62.83 / 2, wind="N")
    a3 = t.point(c, 62.83 * 3 / 4)
    t.counter(-40 + 22 / math.sqrt(2), 40 - 22 / math.sqrt(2), [a1, a2, a3])
    t.mountains(22, -22, 20, 49)
    out.append(t)

    # fixed squares
    t = TileBuilder(
        "sq-stone-bridge",
        "The Stone Bridge",
        "square",
        turnable=False,
        description="never turns: a road crosses a waterway",
    )
    t.junction(0, 0)
    n = t.path([(0, -40), (0, 0)])
    s = t.path([(0, 0), (0, 40)])
    w = t.path([(-40, 0), (0, 0)], medium="water")
    e = t.path([(0, 0), (40, 0)], medium="water")
    t.point(n, 18, "black", heading="fwd", wind="W")
    t.point(s, 20, wind="E", magic=True)
    t.point(w, 20)
    t.point(e, 20, wind="S")
    t.water(-22, -22, 9, 8, 50)
    out.append(t)

    t = TileBuilder(
        "sq-meeting",
        "The Meeting of Roads",
        "square",
        turnable=False,
        description="never turns: four roads meet",
    )
    t.junction(0, 0)
    arms = [t.path([xy, (0, 0)]) for xy in ((0, -40), (40, 0), (0, 40), (-40, 0))]
    t.point(arms[0], 20, wind="E")
    t.point(arms[1], 18, "black", heading="fwd", wind="N")
    t.point(arms[2], 20, wind="W")
    t.point(arms[3], 20, wind="S")
    t.door(arms[3], 8, "star")
    t.forest(-22, -22, 9, 8, 51)
    out.append(t)

    t = TileBuilder(
        "sq-dark-gate",
        "The Dark Gate",
        "square",
        turnable=False,
        description="never turns: roads from north, west and south",
    )
    t.junction(0, 0)
    n = t.path([(0, -40), (0, 0)])
    w = t.path([(-40, 0), (0, 0)])
    s = t.path([(0, 0), (0, 40)])
    t.point(n, 18, wind="W")
    t.point(w, 20, "black", heading="fwd", wind="S")
    t.point(s, 20, magic=True)
    t.door(s, 32, "moon")
    t.mountains(22, 0, 22, 52)
    out.append(t)
    return out
